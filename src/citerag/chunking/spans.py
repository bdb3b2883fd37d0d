"""Span arithmetic shared by the chunkers: cutting text into units and packing them.

A span is ``(start, end)`` into the document text. Units never overlap and
come in order; packing joins neighbouring units into chunks no longer than
``size`` characters (measured from the first unit's start to the last one's end).
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence

from razdel import sentenize

Span = tuple[int, int]

_WORD = re.compile(r"\S+")
_PARAGRAPH_BREAK = re.compile(r"\n[ \t]*\n\s*")


def words(text: str, start: int, end: int) -> list[Span]:
    return [(m.start(), m.end()) for m in _WORD.finditer(text, start, end)]


def paragraphs(text: str, start: int, end: int) -> Iterator[Span]:
    """Blank-line separated paragraphs, trimmed, none empty."""
    pos = start
    for match in _PARAGRAPH_BREAK.finditer(text, start, end):
        yield from _trimmed(text, pos, match.start())
        pos = match.end()
    yield from _trimmed(text, pos, end)


def _trimmed(text: str, start: int, end: int) -> Iterator[Span]:
    piece = text[start:end]
    stripped = piece.strip()
    if stripped:
        left = start + (len(piece) - len(piece.lstrip()))
        yield left, left + len(stripped)


def sentences(text: str, start: int, end: int) -> list[Span]:
    """Sentence spans by razdel (knows "т.е.", "г.", initials, also fine for English)."""
    return [(start + s.start, start + s.stop) for s in sentenize(text[start:end])]


def hard_cut(start: int, end: int, size: int) -> list[Span]:
    """Cut a span with no usable boundary (one enormous word) every ``size`` characters."""
    return [(pos, min(pos + size, end)) for pos in range(start, end, size)]


def fit_words(text: str, start: int, end: int, size: int) -> list[Span]:
    """Units of at most ``size`` characters from whole words (a longer word is cut)."""
    units: list[Span] = []
    for w_start, w_end in words(text, start, end):
        if w_end - w_start > size:
            units.extend(hard_cut(w_start, w_end, size))
        else:
            units.append((w_start, w_end))
    return pack(units, size)


def fit_sentences(text: str, start: int, end: int, size: int) -> list[Span]:
    """Units of at most ``size``: whole sentences, a longer sentence split by words."""
    if end - start <= size:
        return [(start, end)]
    units: list[Span] = []
    for s_start, s_end in sentences(text, start, end):
        if s_end - s_start > size:
            units.extend(fit_words(text, s_start, s_end, size))
        else:
            units.append((s_start, s_end))
    return units


def pack(units: Sequence[Span], size: int, overlap: int = 0) -> list[Span]:
    """Greedily join neighbouring units into spans of at most ``size`` characters.

    With ``overlap`` > 0 the next span starts with the trailing units of the
    previous one whose length fits in ``overlap`` (never the whole previous
    span, so each step moves forward). Units longer than ``size`` stay alone.
    """
    spans: list[Span] = []
    n = len(units)
    i = 0
    while i < n:
        j = i + 1
        first = units[i][0]
        while j < n and units[j][1] - first <= size:
            j += 1
        spans.append((first, units[j - 1][1]))
        if j >= n:
            break
        k = j
        if overlap > 0:
            last_end = units[j - 1][1]
            while k - 1 > i and last_end - units[k - 1][0] <= overlap:
                k -= 1
            # The next span must still take unit j, or it would repeat this one.
            while k < j and units[j][1] - units[k][0] > size:
                k += 1
        i = k
    return spans
