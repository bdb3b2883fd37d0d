"""Character-level normalisation applied before tokenisation.

Lowercase, ``ё`` → ``е`` (Russian texts use both spellings for one word) and
removal of combining marks such as the stress mark U+0301 (``заме́тка``),
which would otherwise split a word in two. Latin diacritics are folded
(``café`` → ``cafe``); Cyrillic ``й`` is kept (it is a letter, not an accent).
"""

from __future__ import annotations

import re
import unicodedata

# Combining Diacritical Marks block, except U+0306 (breve): in decomposed
# text ``и`` + U+0306 is ``й``, which NFC restores before we get here. A soft
# hyphen (U+00AD) only marks where a word may break: dropped too. (A regex,
# not str.translate: translate is slow on non-ASCII text with a large table.)
_DROPPED = re.compile("[\u0300-\u0305\u0307-\u036f\u00ad]+")
# Unicode hyphens become "-" so compounds tokenise alike however they were typed.
_HYPHENS = re.compile("[\u2010\u2011]")


def normalize(text: str) -> str:
    """Lowercase, NFC, ё→е, drop stress and other combining marks."""
    text = text.lower()
    if text.isascii():
        return text
    # NFC first: composes "и"+breve into "й" and "е"+diaeresis into "ё".
    text = unicodedata.normalize("NFC", text).replace("ё", "е")
    text = _DROPPED.sub("", text)
    return _HYPHENS.sub("-", text) if "\u2010" in text or "\u2011" in text else text


def fold_latin_diacritics(token: str) -> str:
    """``café`` → ``cafe``; leaves Cyrillic letters (``й``) alone."""
    if token.isascii():
        return token
    decomposed = unicodedata.normalize("NFD", token)
    kept = [
        ch
        for ch in decomposed
        if not (unicodedata.combining(ch) and ch != "\u0306")
    ]
    return unicodedata.normalize("NFC", "".join(kept))
