"""``recursive``: split by ever finer separators, then merge small neighbours back."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from citerag.chunking.base import Piece, build_chunks, params_of, trim
from citerag.chunking.spans import Span, hard_cut, pack
from citerag.types import Chunk, Document

# Blank line, line break, sentence end, space; below that, single characters.
SEPARATORS: tuple[re.Pattern[str], ...] = (
    re.compile(r"\n[ \t]*\n\s*"),
    re.compile(r"\n\s*"),
    re.compile(r"(?<=[.!?…])\s+"),
    re.compile(r"\s+"),
)


@dataclass(frozen=True)
class RecursiveChunker:
    """Pieces no longer than ``size`` characters, cut at the coarsest separator
    that makes them fit, then merged with their neighbours up to ``size``."""

    size: int = 1000
    overlap: int = 0
    name: str = field(default="recursive", init=False)

    @property
    def params(self) -> dict[str, Any]:
        return params_of(self.size, self.overlap)

    def spans(self, text: str) -> list[Span]:
        return pack(self._split(text, 0, len(text), 0), self.size, self.overlap)

    def _split(self, text: str, start: int, end: int, level: int) -> list[Span]:
        start, end = trim(text, start, end)
        if start >= end:
            return []
        if end - start <= self.size:
            return [(start, end)]
        if level == len(SEPARATORS):
            return hard_cut(start, end, self.size)
        units: list[Span] = []
        pos = start
        for match in SEPARATORS[level].finditer(text, start, end):
            units.extend(self._split(text, pos, match.start(), level + 1))
            pos = match.end()
        units.extend(self._split(text, pos, end, level + 1))
        return units

    def split(self, doc: Document) -> list[Chunk]:
        return build_chunks(doc, [Piece(s, e) for s, e in self.spans(doc.text)])
