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
    """Russian lemmas from pymorphy3, without building full parses for known words.

    ``MorphAnalyzer.parse`` builds every parse with its tag object and ranks
    them; for a dictionary word we only need the lemma: look the word up,
    and only when its homonyms have different lemmas rank their tags by
    P(tag | word). The output equals ``parse(word)[0].normal_form`` (a test
    checks this on a real vocabulary) at about a third of the cost. Words
    outside the dictionary are left to the caller (``predict`` or a stem).
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

    def predict(self, word: str) -> str:
        """Lemma of any word, known or not (pymorphy3's full parse with its predictors)."""
        return self.morph.parse(word)[0].normal_form.replace("ё", "е")

    def lemma(self, word: str) -> str | None:
        """The normal form of the likeliest parse of a dictionary word, else ``None``.

        Equal to ``parse(word)[0].normal_form`` for every dictionary word.
        """
        morph = self.morph
        dictionary = morph.dictionary
        items = dictionary.words.similar_items(word, morph.char_substitutes)
        if not items:
            return None
        build = dictionary.build_normal_form
        first_fixed, first_parses = items[0]
        first_para, first_idx = first_parses[0]
        lemma = build(first_para, first_idx, first_fixed)
        # Forms of one paradigm share its lemma: only other paradigms can disagree.
        ambiguous = any(
            build(para, idx, fixed) != lemma
            for fixed, parses in items
            for para, idx in parses
            if para != first_para or fixed != first_fixed
        )
        if ambiguous:
            # Homonyms with different lemmas: take the likeliest tag, exactly as
            # pymorphy3's ProbabilityEstimator ranks them (first one on ties).
            candidates = [(fixed, para, idx) for fixed, parses in items for para, idx in parses]
            prob = morph.prob_estimator.p_t_given_w.prob
            tag_of = dictionary.build_tag_info
            probs = [prob(word, tag_of(para, idx)) for _, para, idx in candidates]
            best = max(range(len(candidates)), key=probs.__getitem__)
            if probs[best] > 0:
                fixed, para, idx = candidates[best]
                lemma = build(para, idx, fixed)
        return lemma.replace("ё", "е")

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
