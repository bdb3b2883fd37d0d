"""The question's language, by script: no model, no extra dependency."""

from __future__ import annotations

import re

from citerag.choices import Choice

_WORD = re.compile(r"[^\W\d_]+", re.UNICODE)
_CYRILLIC = re.compile(r"[\u0400-\u04FF]")

# A Russian question often names English things ("Как настроить VPN в Kubernetes?"),
# an English one rarely holds more than a Russian name. Counting words, not letters,
# keeps long Latin product names from outvoting the Russian sentence around them.
CYRILLIC_WORD_SHARE = 0.4


class Language(Choice):
    RU = "ru"
    EN = "en"

    @classmethod
    def kind(cls) -> str:
        return "answer language"


def detect_language(text: str, default: Language = Language.RU) -> Language:
    """RU when at least 40 % of the words are mostly Cyrillic, else EN; ``default`` for no words."""
    words = _WORD.findall(text)
    if not words:
        return default
    cyrillic = sum(1 for w in words if 2 * len(_CYRILLIC.findall(w)) > len(w))
    return Language.RU if cyrillic / len(words) >= CYRILLIC_WORD_SHARE else Language.EN
