"""Labelled-question CSV, the "not found" threshold and the run over a fake index."""

from __future__ import annotations

from pathlib import Path

import pytest

from citerag.errors import EmptyQuery, InvalidInput
from citerag.evaluation.labelled import LabelledQuestion, read_labelled_csv, write_labelled_csv
from citerag.evaluation.runner import EvalConfig, evaluate_config
from citerag.evaluation.threshold import best_threshold, outcome_at
from citerag.types import Chunk, Hit


def test_csv_merges_rows_and_keeps_negatives(tmp_path: Path) -> None:
    path = tmp_path / "вопросы.csv"
    path.write_text(
        "question;chunk_id;note\n"
        "Когда основана Москва?;moscow#0;первый\n"
        "Когда основана Москва?;moscow#1;\n"
        "Сколько лет ежу?;;нет ответа\n"
        ";x;пустой вопрос пропускается\n",
        encoding="utf-8",
    )
    data = read_labelled_csv(path)
    assert [q.question for q in data.questions] == ["Когда основана Москва?", "Сколько лет ежу?"]
    assert data.qrels == {"q1": {"moscow#0": 1, "moscow#1": 1}}
    assert data.negative_queries == {"q2": "Сколько лет ежу?"}


def test_csv_roundtrip_and_append_writes_one_header(tmp_path: Path) -> None:
    path = tmp_path / "q.csv"
    write_labelled_csv(path, [LabelledQuestion("a", "Что такое «ёж»?", ("c1",))])
    write_labelled_csv(path, [LabelledQuestion("b", "Где; тут точка с запятой?", ())], append=True)
    assert path.read_text(encoding="utf-8").count("question;chunk_id") == 1
    data = read_labelled_csv(path)
    assert data.queries == {"q1": "Что такое «ёж»?"}
    assert data.negative_queries == {"q2": "Где; тут точка с запятой?"}


def test_csv_with_wrong_header_explains_the_format(tmp_path: Path) -> None:
    path = tmp_path / "bad.csv"
    path.write_text("вопрос,ответ\nа,б\n", encoding="utf-8")
    with pytest.raises(InvalidInput, match="question;chunk_id"):
        read_labelled_csv(path)


def test_threshold_rates_and_best_choice() -> None:
    positive = [5.0, 6.0, 7.0, 2.0]
    negative = [1.0, 1.5, 3.0]
    at4 = outcome_at(4.0, positive, negative)
    assert at4.false_refusal_rate == pytest.approx(0.25)  # 2.0 refused
    assert at4.false_answer_rate == 0.0
    best = best_threshold(positive, negative)
    # 1.75 refuses nothing but answers the 3.0 negative (error 1/6); 4.0 refuses
    # only 2.0 (error 1/8), the best midpoint
    assert best.threshold == pytest.approx(4.0)
    assert best.balanced_error == pytest.approx(0.125)
    assert outcome_at(best.threshold, positive, negative) == best


def test_best_threshold_needs_negatives() -> None:
    with pytest.raises(InvalidInput, match="negatives"):
        best_threshold([1.0], [])


class FakeIndex:
    """Ranks chunks by how many query words they contain, like a toy retriever."""

    def __init__(self, chunks: list[Chunk]) -> None:
        self.chunks = chunks
        self.calls: list[str | None] = []

    def search(
        self,
        query: str,
        k: int = 10,
        *,
        retriever: str | None = None,
        min_score: float | None = None,
        settings: object = None,
    ) -> list[Hit]:
        self.calls.append(retriever)
        assert min_score == float("-inf")  # the evaluation must see every hit
        words = {w.strip("?").lower() for w in query.split() if len(w) > 3}
        if not words:
            raise EmptyQuery(f"query {query!r} has no searchable words")
        scored = [(sum(w in c.text.lower() for w in words), c) for c in self.chunks]
        scored = [(s, c) for s, c in scored if s > 0]
        scored.sort(key=lambda sc: -sc[0])
        return [Hit(chunk=c, score=float(s), rank=i + 1) for i, (s, c) in enumerate(scored[:k])]


def test_evaluate_config_ranks_latency_and_threshold() -> None:
    chunks = [
        Chunk("m#0", "Москва основана в 1147 году", doc_id="m"),
        Chunk("m#1", "Москва стоит на реке Москве", doc_id="m"),
        Chunk("e#0", "Ёжик живёт в лесу", doc_id="e"),
    ]
    index = FakeIndex(chunks)
    queries = {"q1": "Когда основана Москва?", "q2": "Где живёт ёжик?", "q3": "и а"}
    qrels = {"q1": {"m#0": 1}, "q2": {"e#0": 1}, "q3": {"m#1": 1}}
    negatives = {"n1": "Кто изобрёл телефон?", "n2": "Какая река течёт через Москву?"}
    result = evaluate_config(
        index, EvalConfig("bm25"), queries, qrels, negatives=negatives, ks=(1, 10), min_score=1.5
    )
    assert set(index.calls) == {"bm25"}
    assert result.ranks == {"q1": 1, "q2": 1, "q3": None}  # q3 has no searchable words
    assert result.report.metrics["hit@1"] == pytest.approx(2 / 3)
    assert result.latency_p95_ms >= result.latency_p50_ms >= 0.0
    # q3 retrieves nothing, so it is refused; the negatives share no word with
    # any chunk (the toy retriever does not know "Москву" is "Москва").
    assert result.threshold is not None
    assert result.threshold.false_refusal_rate == pytest.approx(1 / 3)
    assert result.threshold.false_answer_rate == 0.0
    assert result.best is not None and result.best.balanced_error <= result.threshold.balanced_error


def test_by_document_ranks_document_ids_once() -> None:
    chunks = [
        Chunk("m#0", "Москва основана давно", doc_id="m"),
        Chunk("m#1", "Москва большая", doc_id="m"),
        Chunk("k#0", "Казань основана давно", doc_id="k"),
    ]
    result = evaluate_config(
        FakeIndex(chunks),
        EvalConfig("bm25", chunking="sentences", chunk_size=200),
        {"q": "Москва основана давно"},
        {"q": {"k": 1}},
        ks=(1, 2),
        by_document=True,
    )
    assert result.ranks == {"q": 2}  # m (two chunks) counts once, then k
    assert result.config.name == "bm25 / sentences:200"
    assert EvalConfig("tfidf", "words", None, 20).name == "tfidf / words::20"
