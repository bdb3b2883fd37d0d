"""The embedder interface shared by every dense model.

An embedder turns texts into L2-normalised float32 vectors. Documents and
queries may be embedded differently (e5's ``query: `` / ``passage: ``
prefixes), so the two calls are separate. ``info()`` describes the model
precisely enough to refuse querying an index built with another one.
"""

from __future__ import annotations

import hashlib
import json
from abc import ABC, abstractmethod
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass
from typing import Any, Mapping

import numpy as np

from citerag.errors import IndexIncompatible, InvalidInput

ProgressCallback = Callable[[int, int], None]


def l2_normalise(vectors: np.ndarray) -> np.ndarray:
    """Rows scaled to unit length; all-zero rows stay zero (no NaN)."""
    out = np.asarray(vectors, dtype=np.float32)
    if out.ndim == 1:
        norm = float(np.linalg.norm(out))
        return out / norm if norm > 0 else out.copy()
    norms = np.linalg.norm(out, axis=1, keepdims=True)
    return out / np.where(norms > 0, norms, 1.0).astype(np.float32)


@dataclass(frozen=True, slots=True)
class EmbedderInfo:
    """What an index records about the model that produced its vectors."""

    name: str
    fingerprint: str
    dim: int
    query_prefix: str = ""
    document_prefix: str = ""

    def to_json(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> "EmbedderInfo":
        return cls(
            name=str(data["name"]),
            fingerprint=str(data["fingerprint"]),
            dim=int(data["dim"]),
            query_prefix=str(data.get("query_prefix", "")),
            document_prefix=str(data.get("document_prefix", "")),
        )

    def check_compatible(self, other: "EmbedderInfo") -> None:
        """Raise ``IndexIncompatible`` naming the first difference (``self`` is the index's)."""
        fix = f"query with --embedder {self.name} or rebuild the index with {other.name}"
        if self.name != other.name:
            raise IndexIncompatible(
                f"the index vectors were made by embedder {self.name!r}, not {other.name!r}: {fix}"
            )
        if (self.query_prefix, self.document_prefix) != (other.query_prefix, other.document_prefix):
            raise IndexIncompatible(
                f"embedder {self.name!r} prefixes differ: index uses query "
                f"{self.query_prefix!r} / document {self.document_prefix!r}, "
                f"now query {other.query_prefix!r} / document {other.document_prefix!r}; "
                "use the same prefixes or rebuild the index"
            )
        if self.dim != other.dim:
            raise IndexIncompatible(
                f"the index vectors have dimension {self.dim}, embedder {other.name!r} gives "
                f"{other.dim}: {fix}"
            )
        if self.fingerprint != other.fingerprint:
            raise IndexIncompatible(
                f"embedder {self.name!r} fingerprint {other.fingerprint} differs from the index's "
                f"{self.fingerprint} (another model version or settings): rebuild the index"
            )


class Embedder(ABC):
    """Base class: subclasses implement ``dim`` and ``_embed`` (one batch, raw)."""

    name: str = "embedder"
    query_prefix: str = ""
    document_prefix: str = ""
    batch_size: int = 32

    @property
    @abstractmethod
    def dim(self) -> int:
        """Vector dimension."""

    @abstractmethod
    def _embed(self, texts: list[str], *, is_query: bool) -> np.ndarray:
        """Embed one batch; returns a ``[len(texts), dim]`` array (normalised later)."""

    def identity(self) -> dict[str, Any]:
        """Everything that changes the vectors; hashed into the fingerprint."""
        return {
            "name": self.name,
            "query_prefix": self.query_prefix,
            "document_prefix": self.document_prefix,
        }

    @property
    def fingerprint(self) -> str:
        blob = json.dumps(self.identity(), ensure_ascii=False, sort_keys=True)
        return hashlib.sha256(blob.encode("utf-8")).hexdigest()[:16]

    def info(self) -> EmbedderInfo:
        return EmbedderInfo(
            name=self.name,
            fingerprint=self.fingerprint,
            dim=self.dim,
            query_prefix=self.query_prefix,
            document_prefix=self.document_prefix,
        )

    def with_prefix(self, texts: Sequence[str], *, is_query: bool) -> list[str]:
        prefix = self.query_prefix if is_query else self.document_prefix
        return [prefix + t for t in texts]

    def embed_documents(
        self, texts: Sequence[str], *, progress: ProgressCallback | None = None
    ) -> np.ndarray:
        """``[len(texts), dim]`` float32, L2-normalised, embedded in batches."""
        texts = list(texts)
        total = len(texts)
        if total == 0:
            return np.zeros((0, self.dim), dtype=np.float32)
        parts = []
        for start in range(0, total, max(1, self.batch_size)):
            batch = texts[start : start + self.batch_size]
            parts.append(self._checked(self._embed(batch, is_query=False), len(batch)))
            if progress is not None:
                progress(min(start + len(batch), total), total)
        return l2_normalise(np.vstack(parts))

    def embed_query(self, text: str) -> np.ndarray:
        """``[dim]`` float32, L2-normalised."""
        return l2_normalise(self._checked(self._embed([text], is_query=True), 1)[0])

    def _checked(self, vectors: np.ndarray, n: int) -> np.ndarray:
        arr = np.asarray(vectors, dtype=np.float32)
        if arr.ndim != 2 or arr.shape[0] != n:
            raise InvalidInput(
                f"embedder {self.name!r} returned shape {arr.shape} for {n} texts; "
                "check the model or server"
            )
        return arr

    def __repr__(self) -> str:
        return f"{type(self).__name__}(name={self.name!r})"
