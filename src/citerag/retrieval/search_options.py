"""Turn the simple keyword options of ``Index.search`` into ``RetrievalSettings``."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
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
    default_thresholds: Mapping[str, float] | None = None,
) -> RetrievalSettings:
    """``settings`` (or the defaults) with the given options laid over them.

    ``default_thresholds`` (per retriever, e.g. from the index's settings.json)
    apply to retrievers the settings give no threshold for.
    """
    cfg = settings or RetrievalSettings()
    if not isinstance(cfg, RetrievalSettings):
        raise InvalidInput(f"settings must be a RetrievalSettings, got {type(cfg).__name__}")
    changes: dict[str, Any] = {}
    if retriever is not None:
        changes["retriever"] = Retriever.parse(retriever)
    thresholds = cfg.thresholds
    if default_thresholds:
        try:
            merged = {str(k): float(v) for k, v in dict(default_thresholds).items()}
        except (TypeError, ValueError) as e:
            raise InvalidInput(
                f"thresholds {default_thresholds!r} must map retriever names to numbers, e.g. {{\"dense\": 0.82}}"
            ) from e
        thresholds = replace(thresholds, per_retriever={**merged, **thresholds.per_retriever})
    if min_score is not None:
        thresholds = replace(thresholds, fused=float(min_score))
    if thresholds is not cfg.thresholds:
        changes["thresholds"] = thresholds
    if filters:
        if isinstance(filters, str):
            filters = [filters]
        parsed = tuple(f if isinstance(f, MetadataFilter) else parse_filter(str(f)) for f in filters)
        changes["filters"] = cfg.filters + parsed
    return replace(cfg, **changes) if changes else cfg
