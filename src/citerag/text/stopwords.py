"""Russian and English stop words from the maintained ``stopwords`` package.

The English list is the classic IR list. The published Russian list also
holds nouns and numerals ("год", "день", "двадцать", "первый"), which users
of regulations do search for ("двадцать восемь дней"), so those are removed
using pymorphy3's part of speech. Words are normalised like the text, so
``её`` matches ``ее``.
"""

from __future__ import annotations

from collections.abc import Iterable

from citerag.errors import InvalidInput
from citerag.text.morphology import RussianLemmatizer
from citerag.text.normalize import normalize
from citerag.text.tokenize import tokenize

SUPPORTED_LANGUAGES = ("ru", "en")

_PACKAGE_NAMES = {"ru": "russian", "en": "english"}


def _package_list(language: str) -> list[str]:
    import stopwords

    return list(stopwords.get_stopwords(_PACKAGE_NAMES[language]))


def stop_words(languages: Iterable[str], lemmatizer: RussianLemmatizer | None = None) -> frozenset[str]:
    """The union of the stop-word lists of ``languages``, normalised."""
    words: set[str] = set()
    for language in languages:
        if language not in _PACKAGE_NAMES:
            raise InvalidInput(
                f"no stop-word list for language {language!r}; "
                f"supported: {', '.join(SUPPORTED_LANGUAGES)}"
            )
        listed = _package_list(language)
        if language == "ru":
            lemmatizer = lemmatizer or RussianLemmatizer()
            listed = [w for w in listed if lemmatizer.is_function_word(w)]
        # "aren't" is tokenised as "aren" + "t": list the parts the index will see.
        for word in listed:
            words.update(tokenize(normalize(word)))
    return frozenset(words)
