"""Shared fixtures: a small bilingual corpus on disk and the shared benchmark data."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

BENCH_DIR = Path(__file__).resolve().parents[1].parent / "shared" / "bench"


@pytest.fixture(autouse=True, scope="session")
def _private_embedding_cache(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    """CLI runs in tests must not write the user's embedding cache."""
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("CITERAG_EMBEDDING_CACHE", str(tmp_path_factory.mktemp("embedding-cache") / "embeddings.sqlite"))
        yield


@pytest.fixture
def bench_dir() -> Path:
    if not BENCH_DIR.is_dir():
        pytest.skip("benchmark sets not present next to the repository")
    return BENCH_DIR


@pytest.fixture
def docs_dir(tmp_path: Path) -> Path:
    """A folder with Russian and English files, one in cp1251."""
    root = tmp_path / "docs"
    root.mkdir()
    (root / "otpusk.md").write_text(
        "# Отпуск\n\n## Продолжительность\n\nСотрудникам положено 28 календарных дней "
        "ежегодного оплачиваемого отпуска.\n\n## Перенос\n\nОтпуск переносится по заявлению "
        "сотрудника, поданному за две недели.\n",
        encoding="utf-8",
    )
    (root / "vpn.txt").write_text(
        "To connect to the VPN, install the client and sign in with two-factor authentication.\n",
        encoding="utf-8",
    )
    (root / "backup.txt").write_bytes(
        "Резервное копирование баз данных выполняется ежедневно в 02:00.\n".encode("cp1251")
    )
    return root
