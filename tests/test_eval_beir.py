"""Loading BEIR folders."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from citerag.errors import InvalidInput
from citerag.evaluation.beir import doc_text, load_beir

BENCH = Path(__file__).resolve().parents[1].parent / "shared" / "bench"


def _write_set(folder: Path, qrels_in_subdir: bool = False) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    corpus = [
        {"_id": "d1", "title": "Москва", "text": "Столица России.", "article": "Moscow"},
        {"_id": "d2", "title": "", "text": "Ёжик живёт в лесу."},
    ]
    queries = [
        {"_id": "q1", "text": "Какая столица у России?"},
        {"_id": "q2", "text": "Где живёт ёжик?"},
        {"_id": "q3", "text": "Вопрос без разметки"},
    ]
    (folder / "corpus.jsonl").write_text(
        "\n".join(json.dumps(r, ensure_ascii=False) for r in corpus) + "\n", encoding="utf-8"
    )
    (folder / "queries.jsonl").write_text(
        "\n".join(json.dumps(r, ensure_ascii=False) for r in queries) + "\n", encoding="utf-8"
    )
    qrels = "query-id\tcorpus-id\tscore\nq1\td1\t1\nq2\td2\t2\n"
    if qrels_in_subdir:
        (folder / "qrels").mkdir()
        (folder / "qrels" / "test.tsv").write_text(qrels, encoding="utf-8")
    else:
        (folder / "qrels.tsv").write_text(qrels, encoding="utf-8")
    return folder


@pytest.mark.parametrize("subdir", [False, True])
def test_load_keeps_only_judged_queries(tmp_path: Path, subdir: bool) -> None:
    data = load_beir(_write_set(tmp_path / "мини", qrels_in_subdir=subdir))
    assert data.name == "мини"
    assert data.queries == {"q1": "Какая столица у России?", "q2": "Где живёт ёжик?"}
    assert data.qrels == {"q1": {"d1": 1}, "q2": {"d2": 2}}
    first = data.corpus[0]
    assert (first.id, first.title, first.text) == ("d1", "Москва", "Столица России.")
    assert first.metadata["article"] == "Moscow"
    assert doc_text(first) == "Москва Столица России."
    assert doc_text(data.corpus[1]) == "Ёжик живёт в лесу."


def test_not_a_beir_folder_says_what_is_missing(tmp_path: Path) -> None:
    (tmp_path / "corpus.jsonl").write_text("", encoding="utf-8")
    with pytest.raises(InvalidInput, match="queries.jsonl"):
        load_beir(tmp_path)
    with pytest.raises(InvalidInput, match="not a folder"):
        load_beir(tmp_path / "нет")


def test_unknown_split_names_the_split(tmp_path: Path) -> None:
    folder = _write_set(tmp_path / "s", qrels_in_subdir=True)
    with pytest.raises(InvalidInput, match="'dev'"):
        load_beir(folder, split="dev")


def test_broken_json_line_is_located(tmp_path: Path) -> None:
    folder = _write_set(tmp_path / "s")
    (folder / "corpus.jsonl").write_text('{"_id": "d1", "text": "ok"}\n{oops\n', encoding="utf-8")
    with pytest.raises(InvalidInput, match="corpus.jsonl:2"):
        load_beir(folder)


def test_shared_xquad_ru_loads() -> None:
    folder = BENCH / "xquad-ru"
    if not folder.is_dir():
        pytest.skip("xquad-ru not available")
    data = load_beir(folder)
    assert len(data.corpus) == 240
    assert len(data.queries) == 1190
    assert all(len(v) == 1 for v in data.qrels.values())
