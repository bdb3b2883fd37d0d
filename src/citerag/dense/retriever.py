"""The dense retriever an index holds: its vectors, the recorded embedder
info, and (made on first query) the embedder that embeds queries.

A query is only embedded by an embedder whose name, prefixes, dimension and
fingerprint match what the index recorded; anything else is refused.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from citerag.dense.base import Embedder, EmbedderInfo, ProgressCallback
from citerag.dense.vectors import VectorIndex
from citerag.errors import InvalidInput
from citerag.types import Chunk


class DenseRetriever:
    def __init__(
        self, vectors: VectorIndex, info: EmbedderInfo, embedder: Embedder | None = None
    ) -> None:
        if vectors.dim != info.dim:
            raise InvalidInput(
                f"vectors have dimension {vectors.dim} but the embedder info says {info.dim}"
            )
        self.vectors = vectors
        self.info = info
        self._embedder = embedder
        self._checked = False

    @property
    def size(self) -> int:
        return self.vectors.size

    def embedder(self) -> Embedder:
        """The query embedder, checked against the index (built from the name if not given)."""
        if self._embedder is None:
            from citerag.dense.factory import make_embedder

            self._embedder = make_embedder(self.info.name)
        if not self._checked:
            self.info.check_compatible(self._embedder.info())
            self._checked = True
        return self._embedder

    def with_embedder(self, embedder: Embedder) -> "DenseRetriever":
        """The same vectors queried through another (compatible) embedder object."""
        return DenseRetriever(self.vectors, self.info, embedder)

    def as_float16(self) -> "DenseRetriever":
        """The same retriever with float16 vectors: half the disk and memory,
        scores within about 1e-3 of float32."""
        v = self.vectors
        half = VectorIndex(v.vectors.astype(np.float16), mode=v.mode, hnsw=v.hnsw_settings)
        return DenseRetriever(half, self.info, self._embedder)

    def query_vector(self, query: str) -> np.ndarray:
        return self.embedder().embed_query(query)

    def score_rows(self, query_vector: np.ndarray, rows: np.ndarray) -> np.ndarray:
        """Cosine of the query with the given rows (any rows, not only the top-k)."""
        matrix = self.vectors.vectors
        return (matrix[rows].astype(np.float32) @ query_vector).astype(np.float32)

    def search(
        self, query: str, k: int, allowed: np.ndarray | None = None
    ) -> tuple[np.ndarray, np.ndarray]:
        return self.vectors.search(self.query_vector(query), k, allowed)


def embed_chunks(
    chunks: Sequence[Chunk],
    embedder: Embedder,
    *,
    previous: tuple[Sequence[Chunk], DenseRetriever] | None = None,
    progress: ProgressCallback | None = None,
) -> np.ndarray:
    """Vectors for ``chunks``; with ``previous`` (chunks, dense of an older index
    made by the same embedder), unchanged chunks reuse their vectors."""
    out = np.zeros((len(chunks), embedder.dim), dtype=np.float32)
    todo = list(range(len(chunks)))
    if previous is not None:
        old_chunks, old_dense = previous
        if old_dense.info.fingerprint == embedder.fingerprint and old_dense.info.dim == embedder.dim:
            old_rows = {(c.id, c.text): i for i, c in enumerate(old_chunks)}
            matrix = old_dense.vectors.vectors
            todo = []
            for i, c in enumerate(chunks):
                row = old_rows.get((c.id, c.text))
                if row is None:
                    todo.append(i)
                else:
                    out[i] = matrix[row]
    if todo:
        out[todo] = embedder.embed_documents([chunks[i].text for i in todo], progress=progress)
    elif progress is not None:
        progress(len(chunks), len(chunks))
    return out


def make_dense(
    chunks: Sequence[Chunk],
    embedder: Embedder | str,
    *,
    previous: tuple[Sequence[Chunk], DenseRetriever] | None = None,
    progress: ProgressCallback | None = None,
) -> DenseRetriever:
    """Embed ``chunks`` (``embedder`` may be a spec such as ``"e5"`` or ``"hash"``)."""
    if isinstance(embedder, str):
        from citerag.dense.factory import make_embedder

        embedder = make_embedder(embedder)
    vectors = embed_chunks(chunks, embedder, previous=previous, progress=progress)
    return DenseRetriever(VectorIndex(vectors), embedder.info(), embedder)
