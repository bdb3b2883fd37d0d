"""Cutting documents into chunks: words, chars, recursive, sentences, markdown, auto."""

from citerag.chunking.base import Chunker, Strategy, chunk_documents
from citerag.chunking.factory import make_chunker

__all__ = ["Chunker", "Strategy", "chunk_documents", "make_chunker"]
