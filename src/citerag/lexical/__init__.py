"""Lexical retrieval stage: term counts, BM25 / TF-IDF weighting, top-k selection."""

from citerag.lexical.counts import TermCounts, count_terms, stack_counts
from citerag.lexical.index import BM25Params, LexicalIndex, Scheme
from citerag.lexical.selection import top_k

__all__ = ["BM25Params", "LexicalIndex", "Scheme", "TermCounts", "count_terms", "stack_counts", "top_k"]
