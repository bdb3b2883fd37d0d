"""Near-duplicate removal and typo correction."""

from __future__ import annotations

import numpy as np

from citerag.retrieval import TypoCorrector, deduplicate
from citerag.types import Chunk, Hit


def _hit(cid: str, doc: str, start: int, end: int, text: str | None = None) -> Hit:
    return Hit(Chunk(cid, text or f"текст {cid}", doc_id=doc, start=start, end=end), score=1.0)


def test_overlapping_chunks_of_one_document_collapse_to_the_best() -> None:
    hits = [
        _hit("a#1", "a", 0, 100),
        _hit("a#2", "a", 40, 140),  # shares 60 of 100 chars with a#1
        _hit("b#1", "b", 0, 100),  # same offsets, other document
        _hit("a#3", "a", 90, 190),  # shares only 10 with a#1 and 50 with a#2 (dropped)
    ]
    kept = deduplicate(hits)
    assert [h.chunk.id for h in kept] == ["a#1", "b#1", "a#3"]
    assert [h.rank for h in kept] == [1, 2, 3]


def test_identical_text_in_different_files_is_shown_once() -> None:
    hits = [
        _hit("x", "copy1.md", 0, 10, "Пароль  меняется раз в 90 дней"),
        _hit("y", "copy2.md", 0, 10, "пароль меняется раз в 90 дней\n"),
    ]
    assert [h.chunk.id for h in deduplicate(hits)] == ["x"]


VOCAB = {"отпуск": 0, "отпускной": 1, "сотрудник": 2, "vpn": 3, "кот": 4, "вакцинация": 5}
DF = np.array([40, 2, 30, 10, 5, 3])


def test_unknown_word_goes_to_the_closest_frequent_term() -> None:
    fixer = TypoCorrector(VOCAB, DF)
    fix = fixer.suggest("отпускк", "отпускк")
    assert fix is not None and (fix.replacement, fix.distance, fix.doc_freq) == ("отпуск", 1, 40)
    fix = fixer.suggest("ваккцинацея", "ваккцинацея")  # long word: two edits allowed
    assert fix is not None and fix.replacement == "вакцинация"


def test_known_short_and_far_words_are_left_alone() -> None:
    fixer = TypoCorrector(VOCAB, DF)
    assert fixer.suggest("отпуск", "отпуск") is None  # known
    assert fixer.suggest("кит", "кит") is None  # too short to guess
    assert fixer.suggest("ноутбук", "ноутбук") is None  # nothing close
    assert fixer.suggest("2024", "2024") is None  # numbers are not typos


def test_correct_rewrites_only_unknown_terms() -> None:
    terms, fixes = TypoCorrector(VOCAB, DF).correct(
        ["отпускк", "и", "сотрудник"], ["отпускк", "", "сотрудник"]
    )
    assert terms == ["отпуск", "сотрудник"]
    assert [f.word for f in fixes] == ["отпускк"]


def test_an_optional_dictionary_check_keeps_real_words() -> None:
    vocab = {"закодировать": 0, "metastas": 1}
    df = np.array([3, 20])
    fixer = TypoCorrector(vocab, df, is_word=lambda w: w == "кодировать")
    assert fixer.suggest("кодировать", "кодировать") is None  # a real word, just not in the documents
    assert TypoCorrector(vocab, df).suggest("кодировать", "кодировать") is not None
    fix = fixer.suggest("matasteses", "matastas")
    assert fix is not None and fix.replacement == "metastas"
