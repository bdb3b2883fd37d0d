"""Answer-level metrics: extractive answers offline, and a model on a local fake server."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from citerag.cli import main
from citerag.evaluation.answers import evaluate_answers

TEXTS = {
    "vacation": "Ежегодный оплачиваемый отпуск сотрудника длится 28 календарных дней.",
    "sick": "Больничный лист оплачивается с первого дня болезни сотрудника.",
    "trip": "Командировки оформляются приказом директора за три дня до поездки.",
}
QUESTIONS = {
    "q1": "Сколько календарных дней длится ежегодный отпуск?",
    "q2": "С какого дня оплачивается больничный лист?",
}
QRELS = {"q1": {"vacation": 1}, "q2": {"sick": 1}}
NEGATIVES = {"n1": "Какая погода на Марсе?"}


@pytest.fixture(scope="module")
def index():  # noqa: ANN201
    from citerag import Index

    return Index.from_texts(list(TEXTS.values()), ids=list(TEXTS))


def test_extractive_answers_cite_the_labelled_chunk_and_refuse_negatives(index) -> None:  # noqa: ANN001
    from citerag.generation import Pipeline, PipelineConfig

    # a threshold between the answerable questions' scores and the negative's
    pipeline = Pipeline(index, None, config=PipelineConfig(min_score=1.0))
    m = evaluate_answers(pipeline, QUESTIONS, QRELS, NEGATIVES)
    assert (m.n_positive, m.n_negative) == (2, 1)
    assert m.not_found_on_negatives == 1.0
    assert m.not_found_on_positives == 0.0
    assert m.cites_labelled_chunk == 1.0
    assert m.valid_citation_share == 1.0


def test_model_citing_a_missing_source_lowers_the_valid_share(index) -> None:  # noqa: ANN001
    from fake_llm_server import FakeLLMServer

    from citerag.generation import Pipeline, PipelineConfig, make_llm

    reply = "Отпуск длится 28 календарных дней [1]. Это подтверждает приказ [7]."
    with FakeLLMServer(reply=reply) as server:
        llm = make_llm("openai:good", base_url=server.url, timeout=5, max_retries=0)
        pipeline = Pipeline(index, llm, config=PipelineConfig(k=2))
        m = evaluate_answers(pipeline, {"q1": QUESTIONS["q1"]}, QRELS)
    assert m.valid_citation_share == pytest.approx(0.5)  # [1] names a source, [7] does not
    assert m.cites_labelled_chunk == 1.0
    assert m.not_found_on_positives == 0.0


def test_cli_eval_answers_adds_rows(
    index, tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch  # noqa: ANN001
) -> None:
    monkeypatch.delenv("CITERAG_LLM", raising=False)  # offline: extractive answers
    index.save(tmp_path / "idx")
    csv = tmp_path / "q.csv"
    csv.write_text(
        "question;chunk_id\n"
        + "".join(f"{QUESTIONS[q]};{next(iter(QRELS[q]))}\n" for q in QUESTIONS)
        + f"{NEGATIVES['n1']};\n",
        encoding="utf-8",
    )
    args = ["eval", "-q", str(csv), "-i", str(tmp_path / "idx"), "--answers", "--min-score", "1", "--quiet"]
    assert main([*args, "--json"]) == 0
    extra = json.loads(capsys.readouterr().out)["configs"][0]["extra"]
    assert extra["answers.not_found_on_negatives"] == 1.0
    assert extra["answers.cites_labelled_chunk"] == 1.0
    assert main(args) == 0
    assert "answers: valid citations" in capsys.readouterr().out
