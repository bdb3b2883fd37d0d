"""``markdown``: one chunk per section, keeping the heading path.

``size`` counts the heading prefix too (see ``MarkdownChunker._budget``).
Sections above it are split at line boundaries; consecutive dialogue
lines (starting with "-", "–" or "—") form one exchange that stays together
unless the exchange alone is above ``size``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from citerag.chunking.base import (
    HEADING_SEPARATOR,
    Piece,
    build_chunks,
    document_outline,
    params_of,
    trim,
)
from citerag.chunking.spans import Span, fit_sentences, pack
from citerag.loaders.text import Heading
from citerag.types import Chunk, Document

_LINE = re.compile(r"[^\n]+")
_DIALOGUE = re.compile(r"[ \t]*[-–—]")


@dataclass(frozen=True)
class Section:
    start: int
    end: int
    path: tuple[Heading, ...]


@dataclass(frozen=True)
class MarkdownChunker:
    size: int = 1000
    overlap: int = 0
    levels: int = 6
    prepend_headings: bool = True
    name: str = field(default="markdown", init=False)

    @property
    def params(self) -> dict[str, Any]:
        return params_of(
            self.size, self.overlap, levels=self.levels, prepend_headings=self.prepend_headings
        )

    def split(self, doc: Document) -> list[Chunk]:
        pieces: list[Piece] = []
        for section in sections(doc.text, document_outline(doc), self.levels):
            titles = tuple(h.title for h in section.path)
            for start, end in self._section_spans(doc.text, section, self._budget(titles)):
                pieces.append(Piece(start, end, titles, self._prefix(section.path, start)))
        return build_chunks(doc, pieces)

    def _budget(self, titles: tuple[str, ...]) -> int:
        """Room for document text once the heading prefix is counted in ``size``.

        A heading path longer than half the size still leaves half the size
        for text (so such chunks may exceed ``size`` by the prefix).
        """
        if not self.prepend_headings or not titles:
            return self.size
        prefix = len(HEADING_SEPARATOR.join(titles)) + 1
        return max(self.size - prefix, self.size // 2, 1)

    def _section_spans(self, text: str, section: Section, size: int) -> list[Span]:
        start, end = trim(text, section.start, section.end)
        if start >= end:
            return []
        if end - start <= size:
            return [(start, end)]
        units: list[Span] = []
        for group in line_groups(text, start, end):
            if group[-1][1] - group[0][0] <= size:
                units.append((group[0][0], group[-1][1]))
                continue
            # An exchange above the size cannot stay whole: split between its lines.
            for l_start, l_end in group:
                units.extend(fit_sentences(text, l_start, l_end, size))
        return pack(_glue_headings(text, units, section, size), size, self.overlap)

    def _prefix(self, path: tuple[Heading, ...], start: int) -> str:
        # Headings whose line is inside the chunk are already in its text.
        if not self.prepend_headings:
            return ""
        outside = [h.title for h in path if h.start < start]
        return HEADING_SEPARATOR.join(outside) + "\n" if outside else ""


def _glue_headings(text: str, units: list[Span], section: Section, size: int) -> list[Span]:
    """Join the section's heading lines to the text after them, so that no
    chunk is a bare heading whose content starts the next chunk."""
    own = [h.end for h in section.path if h.start >= section.start]
    if not own:
        return units
    heads_end = max(own)
    n = 0
    while n < len(units) and units[n][1] <= heads_end:
        n += 1
    if n == len(units):
        return units
    start = units[0][0]
    budget = size - (units[n][0] - start)
    if units[n][1] - start > size and budget >= size // 4:
        # The paragraph after the heading is too long to join whole: join its first sentences.
        units = units[:n] + fit_sentences(text, units[n][0], units[n][1], budget) + units[n + 1 :]
    if units[n][1] - start <= size:
        return [(start, units[n][1])] + units[n + 1 :]
    return units


def sections(text: str, outline: list[Heading], levels: int = 6) -> list[Section]:
    """Split at headings of level <= ``levels``; each section knows its heading path.

    A heading directly followed by a deeper heading (nothing in between)
    joins that subsection, so no chunk is a bare title.
    """
    heads = [h for h in outline if h.level <= levels]
    result: list[Section] = []
    if not heads or heads[0].start > 0:
        result.append(Section(0, heads[0].start if heads else len(text), ()))
    path: list[Heading] = []
    pending: int | None = None  # start of empty parent headings waiting to join
    for i, head in enumerate(heads):
        while path and path[-1].level >= head.level:
            path.pop()
        path.append(head)
        end = heads[i + 1].start if i + 1 < len(heads) else len(text)
        start = head.start if pending is None else pending
        empty = not text[head.end : end].strip()
        if empty and i + 1 < len(heads) and heads[i + 1].level > head.level:
            pending = start
            continue
        pending = None
        result.append(Section(start, end, tuple(path)))
    return result


def line_groups(text: str, start: int, end: int) -> list[list[Span]]:
    """Non-blank lines (trimmed); a dialogue exchange (with its "...:" opener) is one group."""
    groups: list[list[Span]] = []
    in_exchange = False
    for match in _LINE.finditer(text, start, end):
        l_start, l_end = trim(text, match.start(), match.end())
        if l_start >= l_end:
            continue
        dialogue = _DIALOGUE.match(match.group()) is not None
        if dialogue and in_exchange:
            groups[-1].append((l_start, l_end))
        else:
            groups.append([(l_start, l_end)])
        # "Он спросил:" introduces the exchange that follows: keep them together.
        in_exchange = dialogue or text[l_end - 1] == ":"
    return groups
