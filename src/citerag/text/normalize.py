"""Character-level normalisation applied before tokenisation.

Lowercase, ``ё`` → ``е`` (Russian texts use both spellings for one word) and
removal of combining marks such as the stress mark U+0301 (``заме́тка``),
which would otherwise split a word in two. Latin diacritics are folded
(``café`` → ``cafe``); Cyrillic ``й`` is kept (it is a letter, not an accent).
"""

from __future__ import annotations

import unicodedata

# Combining Diacritical Marks block, except U+0306 (breve): in decomposed
# text ``и`` + U+0306 is ``й``, which NFC restores before we get here.
_COMBINING = {cp: None for cp in range(0x0300, 0x0370) if cp != 0x0306}
_TRANSLATE = str.maketrans({"ё": "е", **_COMBINING})


def normalize(text: str) -> str:
    """Lowercase, NFC, ё→е, drop stress and other combining marks."""
    text = text.lower()
    if text.isascii():
        return text
    # NFC first: composes "и"+breve into "й" and "е"+diaeresis into "ё".
    return unicodedata.normalize("NFC", text).translate(_TRANSLATE)


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
