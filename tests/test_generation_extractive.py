"""The offline extractive answer: which sentences are chosen and how they are cited."""

from __future__ import annotations

import pytest

from citerag.generation.answer import Source
from citerag.generation.extractive import extractive_answer, statements
from citerag.generation.sentences import split_sentences
from citerag.generation.support import SupportScorer
from citerag.text import Analyzer


def src(number: int, text: str, headings: tuple[str, ...] = ()) -> Source:
    return Source(number, f"c{number}", f"d{number}", f"doc{number}.md", "Док", headings, None, 1.0, text)


@pytest.fixture(scope="module")
def scorer() -> SupportScorer:
    return SupportScorer(Analyzer())


def test_best_sentence_first_with_the_marker_before_the_period(scorer: SupportScorer) -> None:
    sources = [
        src(1, "Офис открыт с 9 до 18. Парковка бесплатная для сотрудников."),
        src(2, "Каждому сотруднику положено 28 календарных дней отпуска. Отпуск оформляется заранее."),
    ]
    answer = extractive_answer("Сколько дней отпуска положено сотруднику?", sources, scorer, max_sentences=1)
    assert answer == "Каждому сотруднику положено 28 календарных дней отпуска [2]."


def test_weak_and_duplicate_sentences_are_left_out(scorer: SupportScorer) -> None:
    text = "Отпуск сотрудника длится 28 календарных дней. Отпуск сотрудника длится 28 календарных дней! Офис сотрудника в Москве."
    answer = extractive_answer("Сколько длится отпуск сотрудника?", [src(1, text)], scorer, max_sentences=3)
    assert answer == "Отпуск сотрудника длится 28 календарных дней [1]."


def test_a_list_is_quoted_with_the_sentence_that_introduces_it(scorer: SupportScorer) -> None:
    text = "## Суточные\n\nСуточные выплачиваются за каждый день командировки:\n- 700 ₽ в сутки по России;\n- 2 500 ₽ в сутки за рубежом.\n"
    assert statements(text) == [(1, "Суточные выплачиваются за каждый день командировки: 700 ₽ в сутки по России; 2 500 ₽ в сутки за рубежом.")]
    answer = extractive_answer("Сколько платят суточные?", [src(1, text)], scorer)
    assert answer.endswith("2 500 ₽ в сутки за рубежом [1].")


def test_headings_and_labels_are_not_quoted(scorer: SupportScorer) -> None:
    text = "# Отпуск сотрудника\nОтпуск сотрудника\nОтпуск сотрудника длится 28 дней."
    assert [t for _, t in statements(text)] == ["Отпуск сотрудника длится 28 дней."]


def test_matching_heading_breaks_ties(scorer: SupportScorer) -> None:
    sources = [
        src(1, "Подключение к VPN возможно с любого ноутбука компании.", ("Общие сведения",)),
        src(2, "Подключение к VPN выполняется через OpenVPN Connect.", ("Как выполнить подключение к VPN",)),
    ]
    answer = extractive_answer("Как выполнить подключение к VPN?", sources, scorer, max_sentences=1)
    assert answer.endswith("[2].")


def test_nothing_shared_gives_no_answer(scorer: SupportScorer) -> None:
    assert extractive_answer("Какая столица Франции?", [src(1, "Отпуск длится 28 дней.")], scorer) == ""


def test_semicolon_before_a_number_does_not_end_a_sentence() -> None:
    parts = [s.text for s in split_sentences("Суточные: 700 ₽ по России; 2 500 ₽ за рубежом [1]. Итог [2].")]
    assert parts == ["Суточные: 700 ₽ по России; 2 500 ₽ за рубежом [1].", "Итог [2]."]


def test_extractive_answers_hold_the_gold_answer_on_xquad(bench_dir) -> None:  # type: ignore[no-untyped-def]
    """A real-data floor: on 150 XQuAD-ru questions the 3-sentence answer holds the gold span
    at least 75 % of the time (measured: 0.86 on all 1190), the first sentence at least 60 %."""
    import json

    from citerag import Index
    from citerag.evaluation.beir import doc_text, load_beir
    from citerag.generation import Pipeline

    folder = bench_dir / "xquad-ru"
    data = load_beir(folder)
    gold = {}
    with (folder / "queries.jsonl").open(encoding="utf-8") as fh:
        for line in fh:
            rec = json.loads(line)
            gold[str(rec["_id"])] = [a.lower() for a in rec.get("answers") or []]
    index = Index.from_texts([doc_text(d) for d in data.corpus], ids=[d.id for d in data.corpus])
    pipe = Pipeline(index)
    items = [(qid, q) for qid, q in data.queries.items() if gold.get(qid)][:150]
    in_answer = in_first = 0
    for qid, question in items:
        answer = pipe.answer(question)
        text = answer.text.lower()
        first = split_sentences(answer.text)[0].text.lower()
        in_answer += any(a in text for a in gold[qid])
        in_first += any(a in first for a in gold[qid])
        assert answer.citations.ok or answer.not_found
    assert in_answer / len(items) >= 0.75
    assert in_first / len(items) >= 0.60


def test_min_overlap_turns_a_weak_match_into_no_answer(scorer: SupportScorer) -> None:
    sources = [src(1, "Парковка у офиса бесплатная для всех посетителей компании.")]
    question = "Сколько стоит обед в столовой офиса?"  # shares only "офис": 1 of 4 content words
    assert extractive_answer(question, sources, scorer) != ""
    assert extractive_answer(question, sources, scorer, min_overlap=1 / 3) == ""


def test_one_shared_word_of_a_two_word_question_is_not_enough(scorer: SupportScorer) -> None:
    sources = [src(1, "The policy is effective from 1 January 2025 and covers all employees.")]
    assert extractive_answer("What is the refund policy?", sources, scorer, min_overlap=1 / 3) != ""
    assert extractive_answer("What is the refund policy?", sources, scorer, min_overlap=1 / 3, min_terms=2) == ""
    assert extractive_answer("Who does the policy cover?", sources, scorer, min_overlap=1 / 3, min_terms=2) != ""
