"""`citerag index` and `citerag search` as a user runs them."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from citerag.cli import main


@pytest.fixture(autouse=True)
def wide_terminal(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COLUMNS", "200")  # keep table cells on one line for the assertions
    monkeypatch.setenv("CITERAG_EMBEDDER", "none")  # these tests are about the lexical path; e5 is slow


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def test_index_then_search(capsys: pytest.CaptureFixture[str], docs_dir: Path, tmp_path: Path) -> None:
    idx = str(tmp_path / "idx")
    code, out, _ = run(capsys, "index", str(docs_dir), "--index", idx, "-q")
    assert code == 0
    assert "Indexed 3 documents" in out
    code, out, _ = run(capsys, "search", "сколько дней отпуска", "--index", idx, "-k", "2", "--retriever", "bm25")
    assert code == 0
    assert "otpusk.md" in out and "Продолжительность" in out


def test_search_json_output(capsys: pytest.CaptureFixture[str], docs_dir: Path, tmp_path: Path) -> None:
    idx = str(tmp_path / "idx")
    run(capsys, "index", str(docs_dir), "--index", idx, "-q")
    code, out, _ = run(capsys, "search", "VPN client", "--index", idx, "--json", "--retriever", "bm25")
    assert code == 0
    data = json.loads(out)
    assert data["hits"][0]["chunk"]["doc_id"] == "vpn.txt"
    assert data["hits"][0]["rank"] == 1


def test_second_index_run_reuses_unchanged_files(capsys: pytest.CaptureFixture[str], docs_dir: Path, tmp_path: Path) -> None:
    idx = str(tmp_path / "idx")
    run(capsys, "index", str(docs_dir), "--index", idx, "-q")
    code, out, _ = run(capsys, "index", str(docs_dir), "--index", idx, "-q")
    assert code == 0 and "3 unchanged" in out


def test_unreadable_files_are_listed_and_the_rest_indexed(
    capsys: pytest.CaptureFixture[str], docs_dir: Path, tmp_path: Path
) -> None:
    (docs_dir / "broken.pdf").write_bytes(b"%PDF-1.4 truncated")
    (docs_dir / "empty.txt").write_bytes(b"")
    idx = str(tmp_path / "idx")
    code, out, err = run(capsys, "index", str(docs_dir), "--index", idx, "-q")
    assert code == 0
    assert "Indexed 3 documents" in out
    assert "broken.pdf" in err and "empty.txt" in err


@pytest.mark.parametrize(
    "args,message",
    [
        (["search", "отпуск", "--index", "{tmp}/missing"], "no index at"),
        (["search", "   ", "--index", "{idx}"], "query is empty"),
        (["search", "и или", "--index", "{idx}"], "only stop words"),
        (["search", "отпуск", "--index", "{idx}", "--retriever", "magic"], "magic"),
        (["index", "{tmp}/no-such-folder", "--index", "{tmp}/x"], "no such file or folder"),
        (["index", "{empty}", "--index", "{tmp}/x", "-q"], "nothing to index"),
        (["index", "{docs}", "--index", "{tmp}/x", "--strategy", "words", "--size", "10", "--overlap", "10"], "overlap"),
    ],
)
def test_user_mistakes_get_one_line_and_an_exit_code(
    capsys: pytest.CaptureFixture[str], docs_dir: Path, tmp_path: Path, args: list[str], message: str
) -> None:
    idx = tmp_path / "idx"
    run(capsys, "index", str(docs_dir), "--index", str(idx), "-q")
    (tmp_path / "empty").mkdir()
    filled = [a.format(tmp=tmp_path, idx=idx, empty=tmp_path / "empty", docs=docs_dir) for a in args]
    code, _, err = run(capsys, *filled)
    assert code != 0
    assert message in err
    assert "Traceback" not in err
    assert len([line for line in err.splitlines() if line.strip()]) == 1


def test_corrupted_index_is_reported(capsys: pytest.CaptureFixture[str], docs_dir: Path, tmp_path: Path) -> None:
    idx = tmp_path / "idx"
    run(capsys, "index", str(docs_dir), "--index", str(idx), "-q")
    (idx / "terms.json").write_text("[]", encoding="utf-8")
    code, _, err = run(capsys, "search", "отпуск", "--index", str(idx))
    assert code != 0 and "checksum" in err and "Traceback" not in err


def test_interrupted_rebuild_keeps_the_previous_index(
    capsys: pytest.CaptureFixture[str], docs_dir: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    idx = tmp_path / "idx"
    run(capsys, "index", str(docs_dir), "--index", str(idx), "-q")
    (docs_dir / "new.txt").write_text("Командировочные расходы возмещаются.", encoding="utf-8")

    def interrupted(*_: object) -> None:
        raise KeyboardInterrupt

    with monkeypatch.context() as patched:
        patched.setattr("citerag.index.write_chunks", interrupted)
        code, _, err = run(capsys, "index", str(docs_dir), "--index", str(idx), "-q", "--rebuild")
    assert code == 130 and "interrupted" in err
    code, out, _ = run(capsys, "search", "отпуск", "--index", str(idx), "--retriever", "bm25")
    assert code == 0 and "otpusk.md" in out


def test_help_lists_the_everyday_commands(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "--help")
    assert code == 0
    for command in ("index", "search"):
        assert command in out


def test_bm25_and_analyser_options_are_recorded(capsys: pytest.CaptureFixture[str], docs_dir: Path, tmp_path: Path) -> None:
    idx = tmp_path / "idx"
    code, _, _ = run(capsys, "index", str(docs_dir), "--index", str(idx), "-q", "--k1", "1.5", "--b", "0.5", "--russian", "stem")
    assert code == 0
    manifest = json.loads((idx / "manifest.json").read_text(encoding="utf-8"))
    assert manifest["components"]["lexical"]["bm25"]["k1"] == 1.5
    assert manifest["components"]["lexical"]["bm25"]["b"] == 0.5
    assert manifest["analyzer"]["config"]["russian"] == "stem"
    code, _, err = run(capsys, "index", str(docs_dir), "--index", str(idx), "-q", "--russian", "magic")
    assert code == 2 and "lemma" in err and "Traceback" not in err
