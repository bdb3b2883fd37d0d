"""The analyser: text → index terms, with a fingerprint that names its behaviour.

Pipeline per text: normalise (lowercase, ё→е, stress marks) → tokenise →
per distinct token: fold Latin diacritics, drop stop words, then a Russian
lemma (or Snowball stem) for Cyrillic tokens and an English Snowball stem for
Latin ones. The per-token result is cached on the analyser instance, so the
expensive morphology runs once per distinct word.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Iterable, Sequence
from enum import Enum
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from citerag.errors import InvalidInput
from citerag.text.morphology import RussianLemmatizer, SnowballStemmer
from citerag.text.normalize import fold_latin_diacritics, normalize
from citerag.text.stopwords import SUPPORTED_LANGUAGES, stop_words
from citerag.text.tokenize import script_of, token_spans, tokenize

# Bump when the analysis of the same text changes, so old indexes are refused.
ANALYZER_VERSION = 2

Progress = Callable[[int, int], None]


class RussianMode(str, Enum):
    LEMMA = "lemma"
    STEM = "stem"
    NONE = "none"


class UnknownRussian(str, Enum):
    """What to do with a Cyrillic word that is not in the dictionary (names, jargon, typos)."""

    STEM = "stem"  # Snowball stem: cheap, and the same for every form of the word
    PREDICT = "predict"  # pymorphy3's guess by analogy: ~15x slower per word


class EnglishMode(str, Enum):
    STEM = "stem"
    NONE = "none"


class AnalyzerConfig(BaseModel):
    """What the analyser does; part of every index's manifest."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    russian: RussianMode = RussianMode.LEMMA
    unknown_russian: UnknownRussian = UnknownRussian.STEM
    english: EnglishMode = EnglishMode.STEM
    stopwords: tuple[str, ...] = Field(default=("ru", "en"))

    def model_post_init(self, __context: Any) -> None:
        unknown = [lang for lang in self.stopwords if lang not in SUPPORTED_LANGUAGES]
        if unknown:
            raise InvalidInput(
                f"no stop-word list for {unknown}; supported: {', '.join(SUPPORTED_LANGUAGES)}"
            )


class Analyzer:
    """Turns text into index terms. Construct cheaply; morphology loads on first use."""

    name = "citerag"

    def __init__(self, config: AnalyzerConfig | None = None) -> None:
        self.config = config or AnalyzerConfig()
        self._lemmatizer = RussianLemmatizer()
        self._ru_stemmer = SnowballStemmer("russian")
        self._en_stemmer = SnowballStemmer("english")
        self._stop: frozenset[str] | None = None
        # token -> term ("" for a dropped token); grows with the vocabulary.
        self._cache: dict[str, str] = {}

    # -- identity -------------------------------------------------------
    def describe(self) -> dict[str, Any]:
        """Everything that decides the output, as plain JSON."""
        cfg = self.config
        return {
            "name": self.name,
            "version": ANALYZER_VERSION,
            "config": json.loads(cfg.model_dump_json()),
            "russian": {
                RussianMode.LEMMA: f"{self._lemmatizer.version}+unknown:{self._ru_stemmer.version}",
                RussianMode.STEM: self._ru_stemmer.version,
                RussianMode.NONE: "none",
            }[cfg.russian],
            "english": self._en_stemmer.version if cfg.english is EnglishMode.STEM else "none",
            "stopwords_sha256": hashlib.sha256(
                "\n".join(sorted(self.stop_words)).encode()
            ).hexdigest()[:16],
        }

    @property
    def fingerprint(self) -> str:
        blob = json.dumps(self.describe(), sort_keys=True, ensure_ascii=False)
        return hashlib.sha256(blob.encode()).hexdigest()[:16]

    @property
    def stop_words(self) -> frozenset[str]:
        if self._stop is None:
            self._stop = stop_words(self.config.stopwords, self._lemmatizer)
        return self._stop

    def clear_cache(self) -> None:
        """Forget the per-token results (bounds memory; keeps loaded dictionaries)."""
        self._cache.clear()

    def warm_up(self) -> None:
        """Load the dictionaries now (otherwise the first text pays for it)."""
        _ = self.stop_words
        if self.config.russian is RussianMode.LEMMA:
            self._lemmatizer.warm_up()

    # -- analysis -------------------------------------------------------
    def term(self, token: str) -> str:
        """The index term of one normalised token ("" when it is dropped)."""
        cached = self._cache.get(token)
        if cached is None:
            cached = self._cache[token] = self._compute_term(token)
        return cached

    def _compute_term(self, token: str) -> str:
        script = script_of(token)
        if script == "latin":
            token = fold_latin_diacritics(token)
        if token in self.stop_words:
            return ""
        cfg = self.config
        if script == "cyrillic":
            if cfg.russian is RussianMode.LEMMA:
                lemma = self._lemmatizer.lemma(token)
                if lemma is None:
                    lemma = (
                        self._lemmatizer.predict(token)
                        if cfg.unknown_russian is UnknownRussian.PREDICT
                        else self._ru_stemmer.stem(token)
                    )
                # Lists name only some forms ("какой" but not "каких"): check the lemma too.
                return "" if lemma in self.stop_words else lemma
            if cfg.russian is RussianMode.STEM:
                return self._ru_stemmer.stem(token)
        elif script == "latin" and cfg.english is EnglishMode.STEM:
            return self._en_stemmer.stem(token)
        return token

    def analyze(self, text: str) -> list[str]:
        """Index terms of ``text`` in order (stop words removed)."""
        tokens = tokenize(normalize(text))
        terms = list(map(self._cache.get, tokens))  # C-level lookups; None marks a new word
        if None in terms:
            terms = [self.term(token) if term is None else term for token, term in zip(tokens, terms)]
        return [term for term in terms if term]

    def analyze_many(self, texts: Sequence[str], progress: Progress | None = None) -> list[list[str]]:
        self.warm_up()
        out = []
        total = len(texts)
        step = max(1, total // 100)
        for i, text in enumerate(texts, 1):
            out.append(self.analyze(text))
            if progress and (i % step == 0 or i == total):
                progress(i, total)
        return out

    def tokens(self, text: str) -> list[str]:
        """Normalised surface tokens, before stop words and morphology."""
        return tokenize(normalize(text))

    def matching_words(self, text: str, terms: Iterable[str]) -> list[str]:
        """Surface words of ``text`` whose term is in ``terms`` (for highlighting)."""
        wanted = set(terms)
        found: dict[str, None] = {}
        for word, _, _ in token_spans(text):
            if self.term(normalize(word)) in wanted:
                found[word] = None
        return list(found)
