"""The Index API: build, search, save, load, update, and its errors."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from citerag import EmptyQuery, Index, IndexCorrupted, IndexIncompatible, IndexNotFound, InvalidInput, NoDocuments
from citerag.store import MANIFEST_FILE

TEXTS = [
    "Сотрудникам положено 28 календарных дней ежегодного отпуска.",
    "Для подключения к VPN установите клиент OpenVPN.",
    "Резервное копирование баз данных выполняется ежедневно.",
]


@pytest.fixture
def small_index() -> Index:
    return Index.from_texts(TEXTS, ids=["leave", "vpn", "backup"], metadata=[{"lang": "ru"}] * 3)


def test_search_finds_the_chunk_by_an_inflected_form(small_index: Index) -> None:
    hits = small_index.search("сколько дней отпуска", k=2)
    assert hits[0].chunk.id == "leave"
    assert hits[0].rank == 1 and hits[0].score > 0
    assert set(hits[0].matched_terms) == {"день", "отпуск"}
    assert hits[0].chunk.metadata["lang"] == "ru"


def test_search_returns_nothing_for_unknown_words(small_index: Index) -> None:
    assert small_index.search("квантовая хромодинамика") == []


def test_min_score_drops_weak_hits(small_index: Index) -> None:
    best = small_index.search("отпуск", k=1)[0].score
    assert small_index.search("отпуск", min_score=best + 1) == []


@pytest.mark.parametrize("query", ["", "   ", "и или но", "?!"])
def test_queries_without_searchable_words_raise(small_index: Index, query: str) -> None:
    with pytest.raises(EmptyQuery):
        small_index.search(query)


def test_stop_word_query_message_names_the_words(small_index: Index) -> None:
    with pytest.raises(EmptyQuery, match="и или"):
        small_index.search("и или")


def test_bad_arguments_are_named() -> None:
    with pytest.raises(InvalidInput, match="2 ids for 3 texts"):
        Index.from_texts(TEXTS, ids=["a", "b"])
    with pytest.raises(InvalidInput, match="duplicate chunk id 'a'"):
        Index.from_texts(TEXTS[:2], ids=["a", "a"])
    with pytest.raises(InvalidInput, match="single string"):
        Index.from_texts("one text")


def test_save_and_load_round_trip(small_index: Index, tmp_path: Path) -> None:
    small_index.save(tmp_path / "idx")
    loaded = Index.load(tmp_path / "idx")
    for query in ("дней отпуска", "VPN клиент", "базы данных"):
        before = [(h.chunk.id, round(h.score, 5)) for h in small_index.search(query)]
        after = [(h.chunk.id, round(h.score, 5)) for h in loaded.search(query)]
        assert before == after
    assert loaded.get("vpn").text == TEXTS[1]


def test_index_directory_is_inspectable_and_pickle_free(small_index: Index, tmp_path: Path) -> None:
    small_index.save(tmp_path / "idx")
    manifest = json.loads((tmp_path / "idx" / MANIFEST_FILE).read_text(encoding="utf-8"))
    assert manifest["format_version"] == 1
    assert set(manifest["files"]) >= {"chunks.sqlite", "lexical.npz", "terms.json"}
    terms = json.loads((tmp_path / "idx" / "terms.json").read_text(encoding="utf-8"))
    assert "отпуск" in terms


def test_missing_index_is_reported(tmp_path: Path) -> None:
    with pytest.raises(IndexNotFound, match="citerag index"):
        Index.load(tmp_path / "nowhere")
    (tmp_path / "empty").mkdir()
    with pytest.raises(IndexNotFound):
        Index.load(tmp_path / "empty")


def test_corrupted_file_fails_its_checksum(small_index: Index, tmp_path: Path) -> None:
    small_index.save(tmp_path / "idx")
    with (tmp_path / "idx" / "lexical.npz").open("r+b") as fh:
        fh.seek(100)
        fh.write(b"\x00\xff\x00\xff")
    with pytest.raises(IndexCorrupted, match="checksum"):
        Index.load(tmp_path / "idx")


def test_other_format_version_is_refused(small_index: Index, tmp_path: Path) -> None:
    small_index.save(tmp_path / "idx")
    path = tmp_path / "idx" / MANIFEST_FILE
    manifest = json.loads(path.read_text(encoding="utf-8"))
    manifest["format_version"] = 99
    path.write_text(json.dumps(manifest), encoding="utf-8")
    with pytest.raises(IndexIncompatible, match="version 99"):
        Index.load(tmp_path / "idx")


def test_other_analyser_is_refused(small_index: Index, tmp_path: Path) -> None:
    small_index.save(tmp_path / "idx")
    path = tmp_path / "idx" / MANIFEST_FILE
    manifest = json.loads(path.read_text(encoding="utf-8"))
    manifest["analyzer"]["fingerprint"] = "0" * 16
    path.write_text(json.dumps(manifest), encoding="utf-8")
    with pytest.raises(IndexIncompatible, match="another text analyser"):
        Index.load(tmp_path / "idx")


def test_failed_save_keeps_the_old_index(small_index: Index, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    target = tmp_path / "idx"
    small_index.save(target)
    bigger = Index.from_texts(TEXTS + ["Командировочные расходы возмещаются."])

    def boom(*_: object) -> None:
        raise OSError("disk full")

    monkeypatch.setattr("citerag.index.save_counts", boom)
    with pytest.raises(OSError, match="disk full"):
        bigger.save(target)
    assert len(Index.load(target)) == 3
    assert [p.name for p in tmp_path.iterdir()] == ["idx"]  # no staging left behind


def test_build_from_a_folder(docs_dir: Path) -> None:
    index = Index.build([docs_dir])
    assert index.report.documents == 3
    hit = index.search("резервное копирование", k=1)[0]
    assert hit.chunk.doc_id == "backup.txt"  # the cp1251 file was decoded
    leave = index.search("продолжительность отпуска", k=1)[0]
    assert "Продолжительность" in leave.chunk.metadata["headings"]


def test_empty_folder_is_a_clear_error(tmp_path: Path) -> None:
    (tmp_path / "empty").mkdir()
    with pytest.raises(NoDocuments, match="nothing to index"):
        Index.build([tmp_path / "empty"])


def test_rebuild_reuses_unchanged_documents(docs_dir: Path) -> None:
    first = Index.build([docs_dir])
    (docs_dir / "vpn.txt").write_text("VPN is replaced by zero-trust access from March.\n", encoding="utf-8")
    (docs_dir / "backup.txt").unlink()
    second = Index.build([docs_dir], previous=first)
    assert second.report.reused_documents == 1  # otpusk.md
    assert {c.doc_id for c in second.chunks} == {"otpusk.md", "vpn.txt"}
    assert second.search("zero-trust", k=1)[0].chunk.doc_id == "vpn.txt"
    assert second.search("резервное копирование") == []
    fresh = Index.build([docs_dir])
    for query in ("дней отпуска", "zero trust access"):
        assert [(h.chunk.id, round(h.score, 4)) for h in second.search(query)] == [
            (h.chunk.id, round(h.score, 4)) for h in fresh.search(query)
        ]


def test_chunks_know_their_span_and_length(docs_dir: Path) -> None:
    index = Index.build([docs_dir])
    source = (docs_dir / "otpusk.md").read_text(encoding="utf-8")
    for chunk in (c for c in index.chunks if c.doc_id == "otpusk.md"):
        assert chunk.length == chunk.end - chunk.start > 0
        assert chunk.text.endswith(source[chunk.start : chunk.end])
        assert chunk.to_json()["length"] == chunk.length
