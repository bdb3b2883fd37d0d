"""Top-k selection over a score vector (argpartition, then a stable sort)."""

from __future__ import annotations

import numpy as np


def top_k(scores: np.ndarray, k: int, candidates: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray]:
    """The ``k`` best rows among ``candidates`` (default: rows with a positive score).

    Ties are broken by row order so results never depend on partition order.
    Returns ``(rows, scores)``, best first.
    """
    if candidates is None:
        candidates = np.flatnonzero(scores > 0)
    if candidates.size == 0 or k <= 0:
        return np.empty(0, dtype=np.int64), np.empty(0, dtype=np.float32)
    cand_scores = scores[candidates]
    if candidates.size > k:
        # Keep everything tied with the k-th score so the tie-break is by row.
        kth = np.partition(cand_scores, cand_scores.size - k)[cand_scores.size - k]
        keep = cand_scores >= kth
        candidates, cand_scores = candidates[keep], cand_scores[keep]
    order = np.lexsort((candidates, -cand_scores))[:k]
    return candidates[order].astype(np.int64, copy=False), cand_scores[order]
