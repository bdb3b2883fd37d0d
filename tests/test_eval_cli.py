"""``citerag eval`` end to end: BEIR folders, labelled CSV against a saved index, outputs."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from citerag.cli import main

BENCH = Path(__file__).resolve().parents[1].parent / "shared" / "bench"

DOCS = {
    "moscow": ("Москва", "Москва основана Юрием Долгоруким в 1147 году и стоит на Москве-реке."),
    "volga": ("Волга", "Волга впадает в Каспийское море; это самая длинная река Европы."),
    "baikal": ("Байкал", "Байкал -- самое глубокое озеро планеты, его глубина 1642 метра."),
    "tea": ("Чай", "Чай выращивают в Китае, Индии и на Шри-Ланке; чайный куст любит влагу."),
}
QUERIES = {
    "q1": "Кто основал Москву?",
    "q2": "Куда впадает Волга?",
    "q3": "Какова глубина Байкала?",
    "q4": "Где выращивают чай?",
}


def _beir(folder: Path) -> Path:
    folder.mkdir()
    with (folder / "corpus.jsonl").open("w", encoding="utf-8") as f:
        for doc_id, (title, text) in DOCS.items():
            f.write(json.dumps({"_id": doc_id, "title": title, "text": text}, ensure_ascii=False) + "\n")
    with (folder / "queries.jsonl").open("w", encoding="utf-8") as f:
        for qid, text in QUERIES.items():
            f.write(json.dumps({"_id": qid, "text": text}, ensure_ascii=False) + "\n")
    (folder / "qrels.tsv").write_text(
        "query-id\tcorpus-id\tscore\nq1\tmoscow\t1\nq2\tvolga\t1\nq3\tbaikal\t1\nq4\ttea\t1\n", encoding="utf-8"
    )
    return folder


def _json_out(capsys: pytest.CaptureFixture[str]) -> dict:  # type: ignore[type-arg]
    return json.loads(capsys.readouterr().out)


def test_beir_folder_two_retrievers_json_and_plot(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    folder = _beir(tmp_path / "мини")
    png, out = tmp_path / "chart.png", tmp_path / "figures.json"
    code = main(
        ["eval", "--beir", str(folder), "-r", "bm25", "-r", "tfidf", "-k", "1", "-k", "3",
         "--json", "--out", str(out), "--plot", str(png)]
    )
    assert code == 0
    figures = _json_out(capsys)
    assert [c["config"] for c in figures["configs"]] == ["bm25", "tfidf"]
    bm25 = figures["configs"][0]
    assert bm25["n_queries"] == 4
    assert bm25["metrics"]["hit@1"] == 1.0  # every question names its document's subject
    assert bm25["ranks"] == {"q1": 1, "q2": 1, "q3": 1, "q4": 1}
    assert bm25["rank_buckets"]["1"] == 4
    assert bm25["n_chunks"] == 4 and bm25["build_seconds"] > 0
    assert bm25["latency_ms"]["p95"] >= bm25["latency_ms"]["p50"] > 0
    assert json.loads(out.read_text(encoding="utf-8")) == figures
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_chunking_variants_share_one_table(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    folder = _beir(tmp_path / "b")
    code = main(["eval", "--beir", str(folder), "-c", "words:5:1", "-c", "sentences", "--quiet", "-k", "1"])
    assert code == 0
    table = capsys.readouterr().out
    assert "bm25 / words:5:1" in table and "bm25 / sentences" in table
    assert "hit@1" in table and "p95 ms" in table


def _index_with_questions(tmp_path: Path) -> tuple[Path, Path]:
    from citerag import Index

    index_dir = tmp_path / "индекс"
    Index.from_texts([t for _, t in DOCS.values()], ids=list(DOCS)).save(index_dir)
    csv = tmp_path / "вопросы.csv"
    csv.write_text(
        "question;chunk_id;comment\n"
        + "".join(f"{QUERIES[q]};{d};\n" for q, d in zip(QUERIES, DOCS))
        + "Сколько стоит билет на Марс?;;нет ответа\n"
        + "Какой пароль от Wi-Fi в офисе?;;нет ответа\n",
        encoding="utf-8",
    )
    return index_dir, csv


def test_labelled_csv_against_an_index_with_negatives(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    index_dir, csv = _index_with_questions(tmp_path)
    code = main(["eval", "--questions", str(csv), "--index", str(index_dir), "--json", "--min-score", "1000"])
    assert code == 0
    result = _json_out(capsys)["configs"][0]
    assert result["n_queries"] == 4
    assert result["metrics"]["hit@1"] == 1.0
    # a threshold nobody reaches refuses every answerable question and answers no negative
    assert result["threshold"]["false_refusal_rate"] == 1.0
    assert result["threshold"]["false_answer_rate"] == 0.0
    assert result["threshold"]["n_negative"] == 2
    assert result["best_threshold"]["balanced_error"] < 0.5


def test_ranks_table_shows_each_question(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    index_dir, csv = _index_with_questions(tmp_path)
    assert main(["eval", "-q", str(csv), "-i", str(index_dir), "--ranks", "--quiet"]) == 0
    out = capsys.readouterr().out
    assert "Куда впадает Волга?" in out
    assert "false refusals" in out


def test_questions_for_another_index_are_refused_clearly(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    index_dir, _ = _index_with_questions(tmp_path)
    csv = tmp_path / "чужие.csv"
    csv.write_text("question;chunk_id\nКто основал Москву?;doc.md#3\n", encoding="utf-8")
    assert main(["eval", "-q", str(csv), "-i", str(index_dir)]) == 2
    assert "doc.md#3" in capsys.readouterr().err


@pytest.mark.parametrize(
    "args, message",
    [
        ([], "exactly one of"),
        (["--beir", "x", "--questions", "y"], "exactly one of"),
        (["--beir", "{tmp}", "-c", "слова:abc"], "integers"),
        (["--beir", "{tmp}", "-r", "dense"], "embedder"),
    ],
)
def test_bad_options_name_the_fix(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], args: list[str], message: str
) -> None:
    folder = _beir(tmp_path / "b")
    args = [a.replace("{tmp}", str(folder)) for a in args]
    assert main(["eval", *args, "--quiet"]) == 2
    assert message in capsys.readouterr().err


@pytest.mark.slow
def test_reproduces_the_lexical_benchmark_on_xquad_ru(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Same documents, ids and BM25 defaults as bench/lexical.py: ``--plain`` gives its figures.

    Without ``--plain`` the product's query typo correction and near-duplicate
    removal take part, so the figures may differ slightly."""
    folder = BENCH / "xquad-ru"
    if not folder.is_dir():
        pytest.skip("xquad-ru not available")
    from citerag import Index
    from citerag.evaluation.beir import doc_text, load_beir
    from citerag.evaluation.metrics import evaluate_run

    data = load_beir(folder)
    index = Index.from_texts([doc_text(d) for d in data.corpus], ids=[d.id for d in data.corpus])
    run = {
        q: [index.chunks[r].id for r in index.lexical.search_rows(index.analyzer.analyze(t), 100)[0]]
        for q, t in data.queries.items()
    }
    expected = evaluate_run(run, data.qrels, ks=(1, 10, 100)).metrics
    assert main(["eval", "--beir", str(folder), "-k", "1", "-k", "10", "-k", "100", "--plain", "--json"]) == 0
    got = _json_out(capsys)["configs"][0]["metrics"]
    for key in ("ndcg@10", "mrr@10", "recall@100", "hit@1"):
        assert got[key] == pytest.approx(expected[key], abs=1e-9), key
    assert got["ndcg@10"] > 0.9  # the figure bench/lexical.py reports is about 0.959


def test_dense_and_hybrid_with_an_offline_embedder(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    folder = _beir(tmp_path / "b")
    code = main(["eval", "--beir", str(folder), "-r", "bm25", "-r", "dense", "-r", "hybrid",
                 "--embedder", "hash", "--json", "-k", "1", "-k", "3"])
    assert code == 0
    configs = {c["config"]: c for c in _json_out(capsys)["configs"]}
    assert set(configs) == {"bm25", "dense", "hybrid"}
    assert all(c["n_queries"] == 4 for c in configs.values())
    assert configs["hybrid"]["metrics"]["hit@3"] >= 0.75  # the lexical half finds the subject words
