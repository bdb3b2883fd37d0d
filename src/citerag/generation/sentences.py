"""Sentences of an answer or a source, with citation markers kept on the sentence they close."""

from __future__ import annotations

import re
from dataclasses import dataclass

from razdel import sentenize

# [1], [1, 2], [1; 3], [2-4], [1][2], and the variants models write instead:
# [Источник 1], [source: 2], [doc 3], 【1】. One group per bracket pair; the check
# rewrites every variant as [n].
_LABEL = r"(?:(?:источник[аи]?|source|sources|doc|документ|документы)\s*[:#№]?\s*)?"
_NUMBERS = r"\d{1,4}(?:\s*[,;–—-]\s*" + _LABEL + r"\d{1,4})*"
_MARKER = r"[\[【]\s*" + _LABEL + r"(" + _NUMBERS + r")\s*[\]】]"
CITATION = re.compile(_MARKER, re.IGNORECASE)
_LEADING_MARKERS = re.compile(r"^(?:\s*" + _MARKER + r")+", re.IGNORECASE)
_CLOSED = re.compile(r"[.!?…][\"»”')\]]*(?:\s*\[[^\]]*\])*\s*$|^\s*(?:\[[^\]]*\]\s*)+$")
BULLET = re.compile(r"^\s*(?:[-*•–]|\d{1,3}[.)])\s+")


@dataclass(frozen=True, slots=True)
class Sentence:
    text: str
    start: int
    end: int


def split_sentences(text: str) -> list[Sentence]:
    """razdel's sentences, split at line breaks too (lists rarely end lines with a period).

    A sentence that starts with citation markers ("… дней. [2] Перенос …")
    gives them back to the sentence before, where the model meant them.
    """
    out: list[Sentence] = []
    for line in re.finditer(r"[^\n]+", text):
        line_start = len(out)
        for piece in sentenize(line.group(0)):
            start = line.start() + piece.start
            end = line.start() + piece.stop
            merged = len(out) > line_start and not _CLOSED.search(out[-1].text)
            if merged:
                # razdel also breaks at ";" before a digit and the like: not a sentence end
                start = out.pop().start
            lead = None if merged else _LEADING_MARKERS.match(piece.text)
            if lead and out and out[-1].end <= start:
                prev = out[-1]
                cut = start + lead.end()
                out[-1] = Sentence(text[prev.start : cut], prev.start, cut)
                start = cut
                while start < end and text[start].isspace():
                    start += 1
            if start < end:
                out.append(Sentence(text[start:end], start, end))
    return out


def strip_citations(text: str) -> str:
    """The sentence without its [n] markers (for comparing words)."""
    return re.sub(r"\s+([.,;:!?…])", r"\1", CITATION.sub("", text)).strip()


def strip_bullet(text: str) -> str:
    return BULLET.sub("", text, count=1)


def citation_numbers(group: str) -> list[int]:
    """``"1, 3-5"`` → ``[1, 3, 4, 5]`` (ranges up to 50 wide; wider is taken as two numbers)."""
    numbers: list[int] = []
    group = re.sub(r"[^\d,;–—-]+", "", group)  # labels such as "источник" inside a group
    for part in re.split(r"\s*[,;]\s*", group.strip()):
        bounds = re.split(r"\s*[–—-]\s*", part)
        if len(bounds) == 2 and bounds[0] and bounds[1]:
            lo, hi = int(bounds[0]), int(bounds[1])
            numbers.extend(range(lo, hi + 1) if 0 <= hi - lo <= 50 else (lo, hi))
        else:
            numbers.extend(int(b) for b in bounds if b)
    return numbers
