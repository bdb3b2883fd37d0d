"""Turn the simple keyword options of ``Index.search`` into ``RetrievalSettings``."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from citerag.errors import InvalidInput
from citerag.retrieval.filters import MetadataFilter, parse_filter
from citerag.retrieval.settings import RetrievalSettings, Retriever


def search_settings(
    settings: RetrievalSettings | None = None,
    *,
    retriever: str | Retriever | None = None,
    min_score: float | None = None,
    filters: Sequence[str | MetadataFilter] = (),
) -> RetrievalSettings:
    """``settings`` (or the defaults) with the given options laid over them."""
    cfg = settings or RetrievalSettings()
    if not isinstance(cfg, RetrievalSettings):
        raise InvalidInput(f"settings must be a RetrievalSettings, got {type(cfg).__name__}")
    changes: dict[str, Any] = {}
    if retriever is not None:
        changes["retriever"] = Retriever.parse(retriever)
    if min_score is not None:
        changes["thresholds"] = replace(cfg.thresholds, fused=float(min_score))
    if filters:
        if isinstance(filters, str):
            filters = [filters]
        parsed = tuple(f if isinstance(f, MetadataFilter) else parse_filter(str(f)) for f in filters)
        changes["filters"] = cfg.filters + parsed
    return replace(cfg, **changes) if changes else cfg
