"""Assembling extracted paragraphs into one text while recording heading offsets."""

from __future__ import annotations

import re

from citerag.loaders.parsed import Parsed
from citerag.loaders.text import Heading

_SPACES = re.compile(r"[ \t\r\f\v\u00a0]+")
_NEWLINES = re.compile(r"\s*\n\s*")

PARAGRAPH_BREAK = "\n\n"


def clean_inline(text: str) -> str:
    """Collapse whitespace runs inside a paragraph (keeping single line breaks)."""
    return _NEWLINES.sub("\n", _SPACES.sub(" ", text)).strip()


class TextBuilder:
    """Paragraphs joined by blank lines; headings become their own paragraphs
    and are remembered with their offsets (the markdown chunker splits on them)."""

    def __init__(self) -> None:
        self._parts: list[str] = []
        self._length = 0
        self._outline: list[Heading] = []

    def paragraph(self, text: str) -> int:
        """Append a paragraph; returns its start offset (or -1 when blank)."""
        text = text.strip()
        if not text:
            return -1
        if self._parts:
            self._parts.append(PARAGRAPH_BREAK)
            self._length += len(PARAGRAPH_BREAK)
        start = self._length
        self._parts.append(text)
        self._length += len(text)
        return start

    def heading(self, level: int, text: str) -> None:
        text = " ".join(text.split())
        start = self.paragraph(text)
        if start >= 0:
            self._outline.append(Heading(max(1, min(level, 6)), text, start, start + len(text)))

    def mark(self) -> int:
        """Offset where the next paragraph will start."""
        return self._length + (len(PARAGRAPH_BREAK) if self._parts else 0)

    @property
    def outline(self) -> list[Heading]:
        return list(self._outline)

    def text(self) -> str:
        return "".join(self._parts)

    def build(self, fmt: str, title: str = "", **extra: object) -> Parsed:
        return Parsed(text=self.text(), format=fmt, title=title, outline=self.outline, extra=dict(extra))
