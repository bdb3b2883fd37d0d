"""Word normalisers: Russian lemmas (pymorphy3) and Snowball stems (PyStemmer).

Both are loaded on first use, not at import. They work on single normalised
words; the analyser caches their output per distinct token, so each word of
a (Zipfian) vocabulary is processed once.
"""

from __future__ import annotations

from importlib import metadata
from typing import Any

from citerag.errors import InvalidInput


class RussianLemmatizer:
    """Russian lemmas from pymorphy3, with a fast path for unambiguous words.

    ``MorphAnalyzer.parse`` builds every parse with its tag and ranks them by
    probability; for most words all dictionary parses share one normal form,
    so we look the word up in the dictionary directly and fall back to the
    full parse only when the lemmas disagree or the word is not in the
    dictionary. The results are identical to ``parse(word)[0].normal_form``.
    """

    name = "pymorphy3"

    def __init__(self) -> None:
        self._morph: Any = None

    @property
    def version(self) -> str:
        return (
            f"pymorphy3-{metadata.version('pymorphy3')}"
            f"+dicts-{metadata.version('pymorphy3-dicts-ru')}"
        )

    def warm_up(self) -> None:
        if self._morph is None:
            import pymorphy3

            self._morph = pymorphy3.MorphAnalyzer(lang="ru")

    @property
    def morph(self) -> Any:
        self.warm_up()
        return self._morph

    def lemma(self, word: str) -> str:
        morph = self.morph
        items = morph.dictionary.words.similar_items(word, morph.char_substitutes)
        if items:
            build = morph.dictionary.build_normal_form
            forms = {build(para, idx, fixed) for fixed, parses in items for para, idx in parses}
            if len(forms) == 1:
                return forms.pop().replace("ё", "е")
        return morph.parse(word)[0].normal_form.replace("ё", "е")

    def is_function_word(self, word: str) -> bool:
        """True unless the word's likeliest parse is a noun or a numeral.

        Used to clean published stop-word lists, which include words such as
        "год", "день" or "двадцать" that people do search for.
        """
        tag = self.morph.parse(word)[0].tag
        return not (tag.POS in ("NOUN", "NUMR") or "Anum" in tag)


class SnowballStemmer:
    """Snowball (Porter2 for English) stems via PyStemmer's C implementation."""

    name = "snowball"

    def __init__(self, language: str) -> None:
        self.language = language
        self._stemmer: Any = None

    @property
    def version(self) -> str:
        return f"pystemmer-{metadata.version('PyStemmer')}-{self.language}"

    def warm_up(self) -> None:
        if self._stemmer is None:
            import Stemmer

            try:
                self._stemmer = Stemmer.Stemmer(self.language)
            except KeyError as exc:
                raise InvalidInput(
                    f"no Snowball stemmer for {self.language!r}; "
                    "use e.g. 'english' or 'russian'"
                ) from exc

    def stem(self, word: str) -> str:
        self.warm_up()
        return self._stemmer.stemWord(word)

    def stem_many(self, words: list[str]) -> list[str]:
        self.warm_up()
        return self._stemmer.stemWords(words)
