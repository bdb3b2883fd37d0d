"""Exact top-k selection over a score vector, honouring an ``allowed`` mask."""

from __future__ import annotations

import numpy as np

_SAMPLE_STEP = 64  # sample size for the pre-threshold; only used on large inputs


def top_k(scores: np.ndarray, k: int, allowed: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray]:
    """Rows and scores of the ``k`` best, best first; rows not ``allowed`` never appear.

    On large arrays a threshold taken from a strided sample (its k-th best can
    only be lower than or equal to the true k-th best) discards most rows with
    one comparison before the exact partial sort, which is several times faster
    than ``argpartition`` over everything and still exact.
    """
    scores = np.asarray(scores)
    if allowed is not None:
        scores = np.where(allowed, scores, -np.inf)
    n = scores.shape[0]
    k = min(k, n)
    if k <= 0:
        return np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.float32)
    candidates: np.ndarray | None = None
    if n > 64 * _SAMPLE_STEP and k * _SAMPLE_STEP * 4 < n:
        sample = scores[::_SAMPLE_STEP]
        threshold = np.partition(sample, sample.shape[0] - k)[sample.shape[0] - k]
        if np.isfinite(threshold):
            candidates = np.flatnonzero(scores >= threshold)
    if candidates is None:
        candidates = np.arange(n)
    sub = scores[candidates]
    if sub.shape[0] > k:
        part = np.argpartition(-sub, k - 1)[:k]
    else:
        part = np.arange(sub.shape[0])
    order = part[np.argsort(-sub[part], kind="stable")]
    rows = candidates[order]
    keep = np.isfinite(scores[rows])
    return rows[keep].astype(np.int64), scores[rows][keep].astype(np.float32)
