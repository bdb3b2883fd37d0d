"""An on-disk embedding cache keyed by (model fingerprint, text hash).

Re-indexing unchanged text then costs nothing. SQLite with raw float32
blobs: portable, inspectable, and no pickle.
"""

from __future__ import annotations

import hashlib
import os
import sqlite3
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from citerag.dense.base import Embedder, ProgressCallback, l2_normalise
from citerag.errors import InvalidInput

_SCHEMA = """
CREATE TABLE IF NOT EXISTS embeddings (
    model TEXT NOT NULL,
    text_hash TEXT NOT NULL,
    dim INTEGER NOT NULL,
    vector BLOB NOT NULL,
    PRIMARY KEY (model, text_hash)
) WITHOUT ROWID
"""
_LOOKUP_BATCH = 500  # stays under SQLite's bound-parameter limit


def default_cache_path() -> Path:
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "citerag" / "embeddings.sqlite"


def text_hash(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


class EmbeddingCache:
    """Opened on first use; safe to share one file between several indexes."""

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        self._conn: sqlite3.Connection | None = None

    def _connection(self) -> sqlite3.Connection:
        if self._conn is None:
            try:
                self.path.parent.mkdir(parents=True, exist_ok=True)
                conn = sqlite3.connect(self.path)
                conn.execute(_SCHEMA)
            except (OSError, sqlite3.Error) as e:
                raise InvalidInput(
                    f"cannot open the embedding cache {str(self.path)!r} ({e}); "
                    "choose another cache path"
                ) from e
            self._conn = conn
        return self._conn

    def get_many(self, model: str, texts: Sequence[str]) -> list[np.ndarray | None]:
        hashes = [text_hash(t) for t in texts]
        found: dict[str, np.ndarray] = {}
        conn = self._connection()
        unique = list(dict.fromkeys(hashes))
        for i in range(0, len(unique), _LOOKUP_BATCH):
            part = unique[i : i + _LOOKUP_BATCH]
            marks = ",".join("?" * len(part))
            rows = conn.execute(
                f"SELECT text_hash, dim, vector FROM embeddings WHERE model = ? AND text_hash IN ({marks})",
                [model, *part],
            )
            for h, dim, blob in rows:
                vec = np.frombuffer(blob, dtype="<f4")
                if vec.shape[0] == dim:
                    found[h] = vec.astype(np.float32)
        return [found.get(h) for h in hashes]

    def put_many(self, model: str, texts: Sequence[str], vectors: np.ndarray) -> None:
        arr = np.asarray(vectors, dtype="<f4")
        conn = self._connection()
        with conn:
            conn.executemany(
                "INSERT OR REPLACE INTO embeddings (model, text_hash, dim, vector) VALUES (?, ?, ?, ?)",
                [(model, text_hash(t), int(arr.shape[1]), arr[i].tobytes()) for i, t in enumerate(texts)],
            )

    def count(self, model: str | None = None) -> int:
        conn = self._connection()
        if model is None:
            return int(conn.execute("SELECT COUNT(*) FROM embeddings").fetchone()[0])
        return int(
            conn.execute("SELECT COUNT(*) FROM embeddings WHERE model = ?", [model]).fetchone()[0]
        )

    def close(self) -> None:
        if self._conn is not None:
            self._conn.close()
            self._conn = None

    def __enter__(self) -> "EmbeddingCache":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


class CachedEmbedder(Embedder):
    """Wraps an embedder; documents already in the cache are not embedded again.

    Queries are not cached: one query is cheap and rarely repeated verbatim.
    ``hits`` / ``misses`` count cached and freshly embedded documents.
    """

    def __init__(self, inner: Embedder, cache: EmbeddingCache) -> None:
        self.inner = inner
        self.cache = cache
        self.name = inner.name
        self.query_prefix = inner.query_prefix
        self.document_prefix = inner.document_prefix
        self.batch_size = inner.batch_size
        self.hits = 0
        self.misses = 0

    @property
    def dim(self) -> int:
        return self.inner.dim

    @property
    def fingerprint(self) -> str:
        return self.inner.fingerprint

    def identity(self) -> dict[str, Any]:
        return self.inner.identity()

    def cache_key(self) -> str:
        return f"{self.inner.fingerprint}:document"

    def _embed(self, texts: list[str], *, is_query: bool) -> np.ndarray:
        return self.inner._embed(texts, is_query=is_query)

    def embed_query(self, text: str) -> np.ndarray:
        return self.inner.embed_query(text)

    def embed_documents(
        self, texts: Sequence[str], *, progress: ProgressCallback | None = None
    ) -> np.ndarray:
        texts = list(texts)
        key = self.cache_key()
        cached = self.cache.get_many(key, texts)
        missing = [i for i, v in enumerate(cached) if v is None]
        done = len(texts) - len(missing)
        self.hits += done
        self.misses += len(missing)
        if progress is not None and done:
            progress(done, len(texts))
        if missing:
            # Embed each distinct missing text once.
            unique = list(dict.fromkeys(texts[i] for i in missing))
            inner_progress = (
                (lambda n, _total: progress(done + n, len(texts))) if progress is not None else None
            )
            fresh = self.inner.embed_documents(unique, progress=inner_progress)
            self.cache.put_many(key, unique, fresh)
            by_text = {t: fresh[j] for j, t in enumerate(unique)}
            for i in missing:
                cached[i] = by_text[texts[i]]
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        return l2_normalise(np.vstack(cached))
