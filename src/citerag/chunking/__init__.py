"""Cutting documents into chunks: words, chars, recursive, sentences, markdown, auto."""

from citerag.chunking.base import Chunker, Strategy, chunk_documents
from citerag.chunking.factory import make_chunker
from citerag.chunking.stats import ChunkStats, Histogram, LengthSummary, chunk_stats, length_histogram

__all__ = [
    "ChunkStats",
    "Chunker",
    "Histogram",
    "LengthSummary",
    "Strategy",
    "chunk_documents",
    "chunk_stats",
    "length_histogram",
    "make_chunker",
]
