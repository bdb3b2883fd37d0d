"""Nearest-neighbour search over the chunk vectors.

Exact search is one matrix-vector product and a partial sort. Above
``hnsw_threshold`` vectors an HNSW graph (hnswlib) answers instead; it is
built on first use or loaded from disk, and bypassed when a filter leaves few
rows (exact search over those rows is then both faster and complete).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from citerag.dense.base import ProgressCallback
from citerag.dense.topk import top_k
from citerag.choices import Choice
from citerag.errors import IndexCorrupted, InvalidInput


class SearchMode(Choice):
    AUTO = "auto"
    EXACT = "exact"
    HNSW = "hnsw"

    @classmethod
    def kind(cls) -> str:
        return "vector search mode"


@dataclass(frozen=True, slots=True)
class HnswSettings:
    threshold: int = 200_000  # below this, exact search is fast enough
    m: int = 16
    ef_construction: int = 200
    ef_search: int = 64
    seed: int = 100
    exact_below_allowed: int = 50_000  # filtered searches over fewer rows go exact


class VectorIndex:
    """Holds ``[n, dim]`` L2-normalised vectors (float32, or float16 to halve the size)."""

    def __init__(
        self,
        vectors: np.ndarray,
        *,
        mode: SearchMode | str = SearchMode.AUTO,
        hnsw: HnswSettings | None = None,
    ) -> None:
        if vectors.ndim != 2:
            raise InvalidInput(f"vectors must be a 2-D array, got shape {vectors.shape}")
        if vectors.dtype not in (np.float32, np.float16):
            raise InvalidInput(f"vectors must be float32 or float16, got {vectors.dtype}")
        self.vectors = vectors
        self.mode = SearchMode.parse(mode)
        self.hnsw_settings = hnsw or HnswSettings()
        self._f32: np.ndarray | None = None
        self._hnsw: Any = None

    @property
    def size(self) -> int:
        return int(self.vectors.shape[0])

    @property
    def dim(self) -> int:
        return int(self.vectors.shape[1])

    def _matrix(self) -> np.ndarray:
        # float16 has no BLAS kernels: compute in float32, converted once.
        if self._f32 is None:
            self._f32 = np.ascontiguousarray(self.vectors, dtype=np.float32)
        return self._f32

    def uses_hnsw(self, allowed: np.ndarray | None = None) -> bool:
        if self.mode is SearchMode.EXACT:
            return False
        if allowed is not None and int(allowed.sum()) < self.hnsw_settings.exact_below_allowed:
            return False
        return self.mode is SearchMode.HNSW or self.size >= self.hnsw_settings.threshold

    def search(
        self, query: np.ndarray, k: int, allowed: np.ndarray | None = None
    ) -> tuple[np.ndarray, np.ndarray]:
        """Rows and cosine scores of the ``k`` nearest vectors, best first."""
        q = self._check_query(query)
        if allowed is not None and allowed.shape[0] != self.size:
            raise InvalidInput(f"filter mask has {allowed.shape[0]} rows, index has {self.size}")
        if self.size == 0 or k <= 0:
            return np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.float32)
        if self.uses_hnsw(allowed):
            return self._search_hnsw(q, k, allowed)
        return self.search_exact(q, k, allowed)

    def search_exact(
        self, query: np.ndarray, k: int, allowed: np.ndarray | None = None
    ) -> tuple[np.ndarray, np.ndarray]:
        q = self._check_query(query)
        matrix = self._matrix()
        if allowed is not None and allowed.sum() * 4 < self.size:
            rows = np.flatnonzero(allowed)
            sub_rows, scores = top_k(matrix[rows] @ q, k)
            return rows[sub_rows], scores
        return top_k(matrix @ q, k, allowed)

    def search_exact_many(self, queries: np.ndarray, k: int) -> list[tuple[np.ndarray, np.ndarray]]:
        """Several queries in one matrix product (much faster per query on big indexes)."""
        q = np.asarray(queries, dtype=np.float32)
        scores = self._matrix() @ q.T
        return [top_k(scores[:, j], k) for j in range(q.shape[0])]

    def _check_query(self, query: np.ndarray) -> np.ndarray:
        q = np.asarray(query, dtype=np.float32).reshape(-1)
        if q.shape[0] != self.dim:
            raise InvalidInput(
                f"query vector has dimension {q.shape[0]}, the index has {self.dim}: "
                "use the embedder the index was built with"
            )
        return q

    # --- HNSW -----------------------------------------------------------------
    def build_hnsw(self, progress: ProgressCallback | None = None) -> None:
        hnswlib = _hnswlib()
        s = self.hnsw_settings
        graph = hnswlib.Index(space="ip", dim=self.dim)
        graph.init_index(max_elements=max(1, self.size), ef_construction=s.ef_construction, M=s.m, random_seed=s.seed)
        step = 50_000
        for start in range(0, self.size, step):
            stop = min(start + step, self.size)
            graph.add_items(self._matrix()[start:stop], np.arange(start, stop))
            if progress is not None:
                progress(stop, self.size)
        graph.set_ef(s.ef_search)
        self._hnsw = graph

    def save_hnsw(self, path: str | Path) -> None:
        if self._hnsw is None:
            self.build_hnsw()
        self._hnsw.save_index(str(path))

    def load_hnsw(self, path: str | Path) -> None:
        hnswlib = _hnswlib()
        graph = hnswlib.Index(space="ip", dim=self.dim)
        try:
            graph.load_index(str(path), max_elements=self.size)
        except RuntimeError as e:
            raise IndexCorrupted(f"HNSW graph {str(path)!r} cannot be read ({e}); rebuild the index") from e
        if graph.get_current_count() != self.size:
            raise IndexCorrupted(
                f"HNSW graph {str(path)!r} holds {graph.get_current_count()} vectors, "
                f"the index {self.size}: rebuild the index"
            )
        graph.set_ef(self.hnsw_settings.ef_search)
        self._hnsw = graph

    def _search_hnsw(
        self, q: np.ndarray, k: int, allowed: np.ndarray | None
    ) -> tuple[np.ndarray, np.ndarray]:
        if self._hnsw is None:
            self.build_hnsw()
        k = min(k, self.size if allowed is None else int(allowed.sum()))
        if k <= 0:
            return np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.float32)
        graph = self._hnsw
        graph.set_ef(max(self.hnsw_settings.ef_search, k))
        keep = None if allowed is None else (lambda row: bool(allowed[row]))
        labels, distances = graph.knn_query(q.reshape(1, -1), k=k, num_threads=1, filter=keep)
        # hnswlib's "ip" distance is 1 - inner product.
        return labels[0].astype(np.int64), (1.0 - distances[0]).astype(np.float32)


def _hnswlib() -> Any:
    try:
        import hnswlib
    except ImportError as e:
        raise InvalidInput(
            "approximate vector search needs hnswlib: pip install 'citerag[hnsw]', "
            "or use exact search"
        ) from e
    return hnswlib
