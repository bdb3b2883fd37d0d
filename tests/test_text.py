"""Text analysis: what ends up as index terms for Russian and English text."""

from __future__ import annotations

import re

import pytest

from citerag.data import sample_dir
from citerag.text import Analyzer, AnalyzerConfig, normalize, tokenize
from citerag.text.morphology import RussianLemmatizer


@pytest.fixture(scope="module")
def analyzer() -> Analyzer:
    return Analyzer()


def test_normalize_folds_yo_stress_and_case() -> None:
    assert normalize("ЁЛКА") == "елка"
    assert normalize("заме\u0301тка") == "заметка"
    assert normalize("Café") == "café"  # Latin diacritics are folded per token, later
    assert normalize("и\u0306од") == "йод"  # a decomposed й stays й


def test_tokenize_splits_words_numbers_and_compounds() -> None:
    assert tokenize("отпуск 28 дней, vpn") == ["отпуск", "28", "дней", "vpn"]
    assert tokenize("vpn-клиент") == ["vpn", "клиент", "vpnклиент"]


def test_russian_words_are_lemmatised(analyzer: Analyzer) -> None:
    assert analyzer.analyze("отпуска отпуском отпусков") == ["отпуск"] * 3
    assert analyzer.analyze("Учётной записи") == ["учетный", "запись"]


def test_english_words_are_stemmed(analyzer: Analyzer) -> None:
    assert analyzer.analyze("Running connections") == ["run", "connect"]
    assert analyzer.analyze("café") == ["cafe"]


def test_stop_words_dropped_but_content_words_kept(analyzer: Analyzer) -> None:
    assert analyzer.analyze("и в the of") == []
    # The published Russian list holds nouns and numerals; users search for them.
    assert analyzer.analyze("двадцать восемь дней в году") == ["двадцать", "восемь", "день", "год"]
    # A form missing from the list is dropped through its lemma ("каких" -> "какой").
    assert analyzer.analyze("каких отпусков") == ["отпуск"]


def test_stress_marks_and_yo_do_not_change_terms(analyzer: Analyzer) -> None:
    assert analyzer.analyze("заме\u0301тка ещё ёлка") == analyzer.analyze("заметка еще елка")


def test_fast_lemmas_equal_pymorphy_parse_on_a_real_vocabulary() -> None:
    lemmatizer = RussianLemmatizer()
    words = set()
    for path in sample_dir().iterdir():
        words.update(re.findall(r"[а-я]+", normalize(path.read_text(encoding="utf-8"))))
    assert len(words) > 500
    morph = lemmatizer.morph
    checked = 0
    for word in sorted(words):
        lemma = lemmatizer.lemma(word)
        if lemma is None:
            continue
        checked += 1
        assert lemma == morph.parse(word)[0].normal_form.replace("ё", "е"), word
    assert checked > 400


def test_each_distinct_word_is_lemmatised_once() -> None:
    analyzer = Analyzer()
    calls: list[str] = []
    real = analyzer._lemmatizer.lemma

    def counting(word: str) -> str | None:
        calls.append(word)
        return real(word)

    analyzer._lemmatizer.lemma = counting  # type: ignore[method-assign]
    analyzer.analyze_many(["отпуск отпуск отпуска", "отпуск отпуска"])
    assert sorted(calls) == ["отпуск", "отпуска"]


def test_fingerprint_is_stable_and_names_the_configuration() -> None:
    assert Analyzer().fingerprint == Analyzer().fingerprint
    stemmed = Analyzer(AnalyzerConfig(russian="stem"))
    assert stemmed.fingerprint != Analyzer().fingerprint
    assert stemmed.analyze("отпуска") == ["отпуск"]


def test_unknown_stop_word_language_is_a_clear_error() -> None:
    with pytest.raises(ValueError, match="supported: ru, en"):
        AnalyzerConfig(stopwords=("de",))


def test_matching_words_returns_surface_forms(analyzer: Analyzer) -> None:
    text = "Сотрудникам положено 28 календарных дней отпуска"
    assert analyzer.matching_words(text, analyzer.analyze("день отпуск")) == ["дней", "отпуска"]
