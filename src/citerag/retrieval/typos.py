"""Typo-tolerant queries: a query word whose index term is not in the
vocabulary is replaced by the closest, then most frequent, vocabulary term
within a small edit distance (rapidfuzz over the index's own vocabulary).

Words the dictionary knows are not corrected when the caller gives an
``is_word`` check (absent from the documents is not a typo).
Whether a correction is applied is decided by the caller, which keeps it
only when it helps (finds better matches than the query as typed).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

import numpy as np
from rapidfuzz import process
from rapidfuzz.distance import Levenshtein

from citerag.errors import InvalidInput


@dataclass(frozen=True, slots=True)
class Correction:
    """``word`` as typed, its unknown ``term``, and the vocabulary term used instead."""

    word: str
    term: str
    replacement: str
    distance: int
    doc_freq: int

    def describe(self) -> str:
        return f"{self.word} → {self.replacement} (edit distance {self.distance}, in {self.doc_freq} chunks)"


@dataclass(frozen=True, slots=True)
class TypoSettings:
    min_length: int = 4  # shorter words are too ambiguous to correct
    long_word: int = 9  # words this long may be off by two edits
    max_distance: int = 2

    def __post_init__(self) -> None:
        if self.min_length < 2 or self.max_distance < 1:
            raise InvalidInput(
                f"typo settings min_length={self.min_length}, max_distance={self.max_distance}: "
                "use min_length >= 2 and max_distance >= 1"
            )

    def allowed_distance(self, word: str) -> int:
        if len(word) < self.min_length:
            return 0
        return min(self.max_distance, 2 if len(word) >= self.long_word else 1)


class TypoCorrector:
    """Suggests corrections against ``vocabulary`` (term -> id) weighted by ``doc_freq``."""

    def __init__(
        self,
        vocabulary: Mapping[str, int],
        doc_freq: np.ndarray,
        settings: TypoSettings | None = None,
        is_word: Callable[[str], bool] | None = None,
    ) -> None:
        self.vocabulary = vocabulary
        self.doc_freq = doc_freq
        self.settings = settings or TypoSettings()
        self.is_word = is_word
        self._choices: list[str] | None = None

    def _terms(self) -> list[str]:
        if self._choices is None:
            self._choices = list(self.vocabulary)
        return self._choices

    def suggest(self, word: str, term: str) -> Correction | None:
        """The best replacement for an unknown ``term`` (typed as ``word``), if any."""
        if term in self.vocabulary or not term.isalpha():
            return None
        if self.is_word is not None and self.is_word(word):
            return None
        best: tuple[int, int, str] | None = None
        # The edit budget follows the word as typed: a guessed lemma of a
        # misspelt word can be shorter than the word itself.
        limit = self.settings.allowed_distance(word if len(word) >= len(term) else term)
        if limit == 0:
            return None
        for probe in dict.fromkeys((term, word)):
            found = process.extract(
                probe, self._terms(), scorer=Levenshtein.distance, score_cutoff=limit, limit=None
            )
            for candidate, distance, _ in found:
                df = int(self.doc_freq[self.vocabulary[candidate]])
                key = (int(distance), -df, candidate)
                if best is None or key < best:
                    best = key
        if best is None:
            return None
        distance, neg_df, replacement = best
        return Correction(word=word, term=term, replacement=replacement, distance=distance, doc_freq=-neg_df)

    def correct(
        self, words: Sequence[str], terms: Sequence[str]
    ) -> tuple[list[str], list[Correction]]:
        """``terms`` (one per word, "" for dropped words) with unknown ones replaced."""
        out: list[str] = []
        corrections: list[Correction] = []
        for word, term in zip(words, terms):
            if not term:
                continue
            fix = self.suggest(word, term)
            if fix is None:
                out.append(term)
            else:
                out.append(fix.replacement)
                corrections.append(fix)
        return out, corrections
