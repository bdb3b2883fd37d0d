"""Dense retrieval: embedders, an embedding cache and a vector index."""

from citerag.dense.base import Embedder, EmbedderInfo, ProgressCallback, l2_normalise
from citerag.dense.cache import CachedEmbedder, EmbeddingCache, default_cache_path
from citerag.dense.factory import (
    EMBEDDER_SPECS,
    LEXICAL_ONLY_NOTE,
    EmbedderConfig,
    default_embedder,
    make_embedder,
    resolve_embedder,
)
from citerag.dense.hashing import HashEmbedder
from citerag.dense.vectors import HnswSettings, SearchMode, VectorIndex

__all__ = [
    "EMBEDDER_SPECS",
    "LEXICAL_ONLY_NOTE",
    "CachedEmbedder",
    "Embedder",
    "EmbedderConfig",
    "EmbedderInfo",
    "EmbeddingCache",
    "HashEmbedder",
    "HnswSettings",
    "ProgressCallback",
    "SearchMode",
    "VectorIndex",
    "default_cache_path",
    "default_embedder",
    "l2_normalise",
    "make_embedder",
    "resolve_embedder",
]
