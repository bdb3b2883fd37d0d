"""Splitting normalised text into word and number tokens.

A token is a run of letters and digits (``\\w`` without the underscore).
A hyphenated compound (``IL-6``, ``VPN-клиент``, ``северо-запад``) yields its
parts and the joined form (``il``, ``6``, ``il6``), so it is found whether
the user types it with the hyphen, without it, or only one part.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

TOKEN_PATTERN = re.compile(r"[^\W_]+")
_COMPOUND_PATTERN = re.compile(r"[^\W_]+(?:-[^\W_]+)*")

_CYRILLIC_START, _CYRILLIC_END = "\u0400", "\u04ff"


def tokenize(text: str) -> list[str]:
    """Tokens of already-normalised text (compounds: parts, then the joined form)."""
    if "-" not in text:
        return TOKEN_PATTERN.findall(text)
    tokens: list[str] = []
    for token in _COMPOUND_PATTERN.findall(text):
        if "-" in token:
            parts = token.split("-")
            tokens.extend(parts)
            tokens.append("".join(parts))
        else:
            tokens.append(token)
    return tokens


def token_spans(text: str) -> Iterator[tuple[str, int, int]]:
    """(token, start, end) over the text as given, for highlighting."""
    for match in TOKEN_PATTERN.finditer(text):
        yield match.group(), match.start(), match.end()


def script_of(token: str) -> str:
    """``"cyrillic"``, ``"latin"``, ``"digit"`` or ``"other"``, by the first character."""
    first = token[0]
    if _CYRILLIC_START <= first <= _CYRILLIC_END:
        return "cyrillic"
    if first.isdigit():
        return "digit"
    if first.isascii() or "\u00c0" <= first <= "\u024f":
        return "latin"
    return "other"
