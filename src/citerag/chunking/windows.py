"""Sliding windows: ``words`` (N words) and ``chars`` (N characters), with overlap."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from citerag.chunking.base import Piece, build_chunks, params_of, trim
from citerag.chunking.spans import Span, words
from citerag.types import Chunk, Document


@dataclass(frozen=True)
class WordWindowChunker:
    """Windows of ``size`` words; each starts ``size - overlap`` words after the last."""

    size: int = 200
    overlap: int = 40
    name: str = field(default="words", init=False)

    @property
    def params(self) -> dict[str, Any]:
        return params_of(self.size, self.overlap)

    def spans(self, text: str) -> list[Span]:
        tokens = words(text, 0, len(text))
        step = self.size - self.overlap
        spans: list[Span] = []
        for first in range(0, len(tokens), step):
            last = min(first + self.size, len(tokens)) - 1
            spans.append((tokens[first][0], tokens[last][1]))
            if last == len(tokens) - 1:
                break
        return spans

    def split(self, doc: Document) -> list[Chunk]:
        return build_chunks(doc, [Piece(s, e) for s, e in self.spans(doc.text)])


@dataclass(frozen=True)
class CharWindowChunker:
    """Windows of ``size`` characters, trimmed of edge whitespace; blank windows are skipped."""

    size: int = 1000
    overlap: int = 100
    name: str = field(default="chars", init=False)

    @property
    def params(self) -> dict[str, Any]:
        return params_of(self.size, self.overlap)

    def spans(self, text: str) -> list[Span]:
        step = self.size - self.overlap
        spans: list[Span] = []
        for pos in range(0, len(text), step):
            start, end = trim(text, pos, min(pos + self.size, len(text)))
            if start < end:
                spans.append((start, end))
            if pos + self.size >= len(text):
                break
        return spans

    def split(self, doc: Document) -> list[Chunk]:
        return build_chunks(doc, [Piece(s, e) for s, e in self.spans(doc.text)])
