"""Retrieval stage: hybrid search, fusion, filters, thresholds, de-duplication,
typo-tolerant queries and reranking."""

from citerag.retrieval.candidates import Candidates
from citerag.retrieval.dedup import deduplicate
from citerag.retrieval.filters import FilterOp, MetadataFilter, build_mask, parse_filter
from citerag.retrieval.fusion import FusionMethod, FusionSettings, Fused, fuse
from citerag.retrieval.pipeline import SearchResult, search
from citerag.retrieval.rerank import CrossEncoderReranker, LLMReranker, Reranker, rerank
from citerag.retrieval.settings import RetrievalSettings, Retriever
from citerag.retrieval.thresholds import Thresholds, parse_threshold
from citerag.retrieval.typos import Correction, TypoCorrector, TypoSettings

__all__ = [
    "Candidates",
    "Correction",
    "CrossEncoderReranker",
    "FilterOp",
    "Fused",
    "FusionMethod",
    "FusionSettings",
    "LLMReranker",
    "MetadataFilter",
    "Reranker",
    "RetrievalSettings",
    "Retriever",
    "SearchResult",
    "Thresholds",
    "TypoCorrector",
    "TypoSettings",
    "build_mask",
    "deduplicate",
    "fuse",
    "parse_filter",
    "parse_threshold",
    "rerank",
    "search",
]
