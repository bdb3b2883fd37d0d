"""One retriever's ranked answer: rows (positions in ``index.chunks``) and scores."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np


@dataclass(frozen=True, slots=True)
class Candidates:
    """Best first. ``name`` is the retriever (``bm25``, ``tfidf``, ``dense``)."""

    name: str
    rows: np.ndarray
    scores: np.ndarray

    def __post_init__(self) -> None:
        if self.rows.shape != self.scores.shape:
            raise ValueError(f"{self.name}: {self.rows.shape[0]} rows but {self.scores.shape[0]} scores")

    def __len__(self) -> int:
        return int(self.rows.shape[0])

    @classmethod
    def empty(cls, name: str) -> "Candidates":
        return cls(name, np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.float32))
