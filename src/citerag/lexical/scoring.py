"""Term weighting formulas as small pure functions over numpy arrays.

Each takes document frequencies / term frequencies and returns weights; the
index applies them once to every non-zero of the term-count matrix, so a
query only sums precomputed columns.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

IdfFunction = Callable[[np.ndarray, int], np.ndarray]


def idf_lucene(df: np.ndarray, n_docs: int) -> np.ndarray:
    """Lucene's BM25 IDF, log(1 + (N - df + 0.5) / (df + 0.5)); always positive.

    Lucene ``BM25Similarity.idf``; also bm25s ``_score_idf_lucene``.
    """
    return np.log1p((n_docs - df + 0.5) / (df + 0.5))


def idf_robertson(df: np.ndarray, n_docs: int) -> np.ndarray:
    """Robertson–Spärck Jones IDF, log((N - df + 0.5) / (df + 0.5)), clipped at 0.

    Robertson & Zaragoza (2009), "The Probabilistic Relevance Framework", eq. 3.3;
    negative for terms in more than half of the documents, hence the clip.
    """
    return np.maximum(np.log((n_docs - df + 0.5) / (df + 0.5)), 0.0)


def idf_smooth(df: np.ndarray, n_docs: int) -> np.ndarray:
    """Smoothed TF-IDF IDF, ln((1 + N) / (1 + df)) + 1 (scikit-learn's default)."""
    return np.log((1.0 + n_docs) / (1.0 + df)) + 1.0


IDF_FUNCTIONS: dict[str, IdfFunction] = {
    "lucene": idf_lucene,
    "robertson": idf_robertson,
    "smooth": idf_smooth,
}


def bm25_tf(tf: np.ndarray, doc_len: np.ndarray, avg_len: float, k1: float, b: float) -> np.ndarray:
    """Okapi BM25 saturated term frequency, tf·(k1+1) / (tf + k1·(1 − b + b·|d|/avgdl)).

    Robertson & Zaragoza (2009), eq. 3.15 with the (k1+1) numerator as in Lucene < 8.
    """
    norm = k1 * (1.0 - b + b * (doc_len / max(avg_len, 1e-9)))
    return tf * (k1 + 1.0) / (tf + norm)
