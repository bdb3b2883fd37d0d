"""Chunk statistics, histogram bins, and the ``citerag chunks`` command."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from citerag.chunking import chunk_stats, length_histogram
from citerag.cli import main
from citerag.errors import InvalidInput
from citerag.types import Chunk


def chunks_of(*texts: str) -> list[Chunk]:
    return [Chunk(id=f"d#{i}", text=t, doc_id=f"d{i % 2}", ordinal=i, end=len(t)) for i, t in enumerate(texts)]


def test_stats_of_lengths_in_chars_and_words() -> None:
    stats = chunk_stats(chunks_of("раз", "раз два", "раз два три четыре", "а б в г д е ж з и к"))
    assert stats.count == 4 and stats.documents == 2
    assert (stats.chars.min, stats.chars.max) == (3, 19)
    assert stats.chars.median == 12.5  # (7 + 18) / 2
    assert (stats.words.min, stats.words.median, stats.words.max) == (1, 3.0, 10)
    assert stats.words.p95 == pytest.approx(10 - 0.05 * 3 * (10 - 4), rel=1e-9)


def test_histogram_counts_every_length_once() -> None:
    hist = length_histogram([1, 2, 2, 3, 10, 10], bins=3)
    assert hist.edges == [1.0, 4.0, 7.0, 10.0]
    assert hist.counts == [4, 0, 2]
    assert length_histogram([5, 5], bins=10).counts == [2]
    assert length_histogram([], bins=4).counts == [0]
    with pytest.raises(InvalidInput, match="bins"):
        length_histogram([1], bins=0)


def test_empty_stats_are_zero() -> None:
    stats = chunk_stats([])
    assert stats.count == 0 and stats.chars.max == 0


@pytest.fixture()
def corpus(tmp_path: Path) -> Path:
    root = tmp_path / "docs"
    root.mkdir()
    sections = "\n\n".join(f"## Раздел {i}\n\nТекст раздела номер {i}. Ещё одно предложение." for i in range(6))
    (root / "руководство.md").write_text(f"# Руководство\n\n{sections}\n", encoding="utf-8")
    (root / "заметка.txt").write_text("Первая мысль. Вторая мысль.\n\nТретья мысль.", encoding="utf-8")
    (root / "пусто.txt").write_text("", encoding="utf-8")
    return root


def test_chunks_command_prints_stats_histogram_and_chunks(
    corpus: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["chunks", str(corpus), "--show", "1", "--size", "300"]) == 0
    out, err = capsys.readouterr()
    out, err = " ".join(out.split()), " ".join(err.split())  # undo terminal wrapping
    assert "auto (size=300, overlap=0" in out and "chunks from 2 documents" in out
    for column in ("min", "median", "p95", "max"):
        assert column in out
    assert "█" in out
    assert "заметка.txt#0" in out and "Первая мысль." in out
    assert "пусто.txt" in err and "empty file" in err


def test_chunks_command_json(corpus: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["chunks", str(corpus), "--strategy", "markdown", "--size", "80", "--json", "--show", "3"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["chunker"]["strategy"] == "markdown"
    # 6 sections and the note; the title joins section 0, which then needs two chunks.
    assert data["stats"]["count"] == 8
    assert sum(data["histogram"]["chars"]["counts"]) == 8
    assert data["chunks"][0]["id"] == "заметка.txt#0"  # files in sorted order
    assert data["chunks"][1]["text"].startswith("# Руководство\n\n## Раздел 0\n\nТекст")
    assert data["chunks"][2]["metadata"]["headings"] == ["Руководство", "Раздел 0"]
    assert data["chunks"][2]["text"] == "Руководство / Раздел 0\nЕщё одно предложение."
    assert data["failures"][0]["reason"].startswith("empty file")


def test_chunks_command_rejects_bad_parameters_before_loading(
    corpus: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["chunks", str(corpus), "--strategy", "words", "--size", "10", "--overlap", "10"]) == 2
    assert "overlap 10 must be smaller than the size 10" in capsys.readouterr().err
    assert main(["chunks", str(corpus), "--strategy", "pages"]) == 2
    assert "use one of: auto, words, chars, recursive, sentences, markdown" in capsys.readouterr().err
    assert main(["chunks", str(corpus), "--plot", str(corpus / "hist.txt")]) == 2


def test_chunks_command_writes_plot(corpus: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    pytest.importorskip("matplotlib")
    target = tmp_path / "out" / "hist.png"
    assert main(["chunks", str(corpus), "--plot", str(target)]) == 0
    assert target.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
