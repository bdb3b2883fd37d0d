"""Dense vectors on disk: ``vectors.npy`` (float32, or float16 to halve the
size), an optional ``vectors.hnsw`` graph, and the embedder info in the
manifest's ``dense`` section."""

from __future__ import annotations

from pathlib import Path
from typing import Any, Mapping

import numpy as np

from citerag.dense.base import EmbedderInfo
from citerag.dense.retriever import DenseRetriever
from citerag.dense.vectors import VectorIndex
from citerag.errors import IndexCorrupted

VECTORS_FILE = "vectors.npy"
HNSW_FILE = "vectors.hnsw"


def save_vectors(directory: Path, dense: DenseRetriever) -> dict[str, Any]:
    """Write the vectors in their dtype (and the HNSW graph when the index uses
    one); returns the manifest section."""
    matrix = dense.vectors.vectors
    dtype = np.float16 if matrix.dtype == np.float16 else np.float32
    np.save(directory / VECTORS_FILE, np.ascontiguousarray(matrix, dtype=dtype), allow_pickle=False)
    section: dict[str, Any] = {
        "embedder": dense.info.to_json(),
        "dtype": np.dtype(dtype).name,
        "count": int(matrix.shape[0]),
    }
    if dense.vectors.uses_hnsw():
        dense.vectors.save_hnsw(directory / HNSW_FILE)
        section["hnsw"] = HNSW_FILE
    return section


def load_vectors(directory: Path, section: Mapping[str, Any], n_chunks: int) -> DenseRetriever:
    try:
        info = EmbedderInfo.from_json(section["embedder"])
        vectors = np.load(directory / VECTORS_FILE, allow_pickle=False)
    except (OSError, ValueError, KeyError, TypeError) as exc:
        raise IndexCorrupted(f"vectors in {directory} are unreadable ({exc}); rebuild the index") from exc
    if vectors.ndim != 2 or vectors.shape[0] != n_chunks or vectors.shape[1] != info.dim:
        raise IndexCorrupted(
            f"{directory / VECTORS_FILE} has shape {vectors.shape}, expected ({n_chunks}, {info.dim}); "
            "rebuild the index"
        )
    index = VectorIndex(vectors)
    if section.get("hnsw") and (directory / HNSW_FILE).is_file():
        index.load_hnsw(directory / HNSW_FILE)
    return DenseRetriever(index, info)
