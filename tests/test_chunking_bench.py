"""The chunking benchmark runs end to end on a small generated text."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

import pytest

BENCH = Path(__file__).resolve().parents[1] / "bench" / "chunking.py"


@pytest.fixture(scope="module")
def bench():  # type: ignore[no-untyped-def]
    spec = importlib.util.spec_from_file_location("bench_chunking", BENCH)
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_generated_text_is_bilingual_markdown_of_the_requested_size(bench) -> None:  # type: ignore[no-untyped-def]
    text = bench.generate(0.2)
    assert 0.2e6 <= len(text.encode("utf-8")) < 0.25e6
    assert text.startswith("# ") and "\n## Глава 1." in text and "\n### " in text
    assert "\n— " in text and any(w in text for w in ("т.е.", "г."))
    assert bench.generate(0.2) == text  # seeded


def test_bench_prints_a_row_per_strategy_and_writes_json(bench, tmp_path: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    out = tmp_path / "chunking.json"
    assert bench.main(["--mb", "0.1", "--repeat", "1", "--json", str(out)]) == 0
    printed = capsys.readouterr().out
    data = json.loads(out.read_text(encoding="utf-8"))
    names = [r["strategy"] for r in data["results"]]
    assert names == ["words", "chars", "recursive", "sentences", "markdown"]
    assert all(r["mb_per_s"] > 0 and r["chunks"] > 0 for r in data["results"])
    assert all(name in printed for name in names)
