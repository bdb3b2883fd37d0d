"""``citerag tune-threshold``: the chosen threshold separates the labelled set and is used by search."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from citerag.cli import main

TEXTS = {
    "vacation": "Ежегодный оплачиваемый отпуск сотрудника длится 28 календарных дней.",
    "sick": "Больничный лист оплачивается с первого дня болезни сотрудника.",
    "trip": "Командировки оформляются приказом директора за три дня до поездки.",
    "office": "Офис открыт с девяти утра до шести вечера, по пятницам до пяти.",
}


def _setup(tmp_path: Path) -> tuple[Path, Path, Path]:
    from citerag import Index

    index_dir = tmp_path / "idx"
    Index.from_texts(list(TEXTS.values()), ids=list(TEXTS)).save(index_dir)
    questions = tmp_path / "q.csv"
    questions.write_text(
        "question;chunk_id\n"
        "Сколько календарных дней длится ежегодный отпуск?;vacation\n"
        "С какого дня оплачивается больничный лист?;sick\n"
        "Как оформляются командировки?;trip\n"
        "До скольки открыт офис по пятницам?;office\n"
        "Сколько стоит парковка у вокзала?;\n",
        encoding="utf-8",
    )
    negatives = tmp_path / "neg.csv"
    negatives.write_text(
        "question;chunk_id\nКакая погода на Марсе?;\nКто написал «Войну и мир»?;\n", encoding="utf-8"
    )
    return index_dir, questions, negatives


def test_tune_writes_a_threshold_that_search_then_uses(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    index_dir, questions, negatives = _setup(tmp_path)
    code = main(["tune-threshold", "-q", str(questions), "--negatives", str(negatives), "-i", str(index_dir),
                 "--write", "--json"])
    assert code == 0
    figures = json.loads(capsys.readouterr().out)
    best = figures["best"]
    assert best["n_positive"] == 4 and best["n_negative"] == 3
    assert best["false_answer_rate"] == 0.0 and best["false_refusal_rate"] == 0.0
    assert figures["written"] is True
    saved = json.loads((index_dir / "settings.json").read_text(encoding="utf-8"))
    assert saved["min_score"] == pytest.approx(best["threshold"])
    assert "retriever" not in saved  # tuned on the index's own retriever
    from citerag import Index

    index = Index.load(index_dir)
    assert index.search("Сколько стоит парковка у вокзала?") == []  # "not found"
    assert index.search("Сколько дней длится отпуск?")[0].chunk.id == "vacation"


def test_tuning_another_retriever_saves_it_too(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    index_dir, questions, negatives = _setup(tmp_path)
    assert main(["tune-threshold", "-q", str(questions), "--negatives", str(negatives), "-i", str(index_dir),
                 "-r", "tfidf", "--write", "--quiet"]) == 0
    assert "retriever tfidf" in capsys.readouterr().out
    saved = json.loads((index_dir / "settings.json").read_text(encoding="utf-8"))
    assert saved["retriever"] == "tfidf"


def test_without_negatives_it_explains_how_to_get_them(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    index_dir, _, _ = _setup(tmp_path)
    only_positive = tmp_path / "pos.csv"
    only_positive.write_text("question;chunk_id\nКак оформляются командировки?;trip\n", encoding="utf-8")
    assert main(["tune-threshold", "-q", str(only_positive), "-i", str(index_dir)]) == 2
    assert "citerag questions negatives" in capsys.readouterr().err
    assert not (index_dir / "settings.json").exists()


def test_negatives_may_come_from_a_plain_text_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    index_dir, questions, _ = _setup(tmp_path)
    txt = tmp_path / "чужие.txt"
    txt.write_text("Какая погода на Марсе?\nКто написал «Войну и мир»?\nСколько лун у Юпитера?\n", encoding="utf-8")
    assert main(["tune-threshold", "-q", str(questions), "--negatives", str(txt), "-i", str(index_dir), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["best"]["n_negative"] == 4  # 1 in the CSV + 3 from the file
