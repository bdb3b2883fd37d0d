"""The lexical index: BM25 and TF-IDF cosine over one term-count matrix.

Weights are computed once per scheme for every non-zero of the count matrix
(vectorised), so answering a query is a sum of a few sparse columns and a
top-k selection; no Python loop ever runs over documents.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

import numpy as np
import scipy.sparse as sp
from pydantic import BaseModel, ConfigDict, Field

from citerag.choices import Choice
from citerag.errors import InvalidInput
from citerag.lexical.counts import TermCounts
from citerag.lexical.scoring import IDF_FUNCTIONS, bm25_tf, idf_smooth
from citerag.lexical.selection import top_k


class Scheme(Choice):
    BM25 = "bm25"
    TFIDF = "tfidf"

    @classmethod
    def kind(cls) -> str:
        return "lexical retriever"


class BM25Params(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    # k1 = 0.9 as in Anserini's defaults; b = 0.75 as in Lucene. On the bundled
    # benchmark sets this beats k1 = 1.2 on all three (bench/lexical.py prints both).
    k1: float = Field(0.9, ge=0.0, description="term-frequency saturation")
    b: float = Field(0.75, ge=0.0, le=1.0, description="document-length normalisation")
    idf: str = Field("lucene", description=f"one of {sorted(IDF_FUNCTIONS)}")

    def model_post_init(self, __context: object) -> None:
        if self.idf not in IDF_FUNCTIONS:
            raise InvalidInput(f"unknown BM25 idf {self.idf!r}; valid: {', '.join(sorted(IDF_FUNCTIONS))}")


class LexicalIndex:
    """Sparse lexical retrieval over analysed chunks (rows)."""

    def __init__(self, counts: TermCounts, bm25: BM25Params | None = None) -> None:
        self.counts = counts
        self.bm25 = bm25 or BM25Params()
        self.vocabulary = counts.vocabulary()
        self._weights: dict[Scheme, sp.csc_matrix] = {}
        self._idf: dict[Scheme, np.ndarray] = {}

    @property
    def n_docs(self) -> int:
        return self.counts.n_docs

    @property
    def doc_freq(self) -> np.ndarray:
        return self.counts.doc_freq

    # -- weighting ------------------------------------------------------
    def _prepare(self, scheme: Scheme) -> sp.csc_matrix:
        weights = self._weights.get(scheme)
        if weights is not None:
            return weights
        counts = self.counts
        matrix = counts.matrix
        df = counts.doc_freq
        n = counts.n_docs
        per_nnz_term = np.repeat(np.arange(matrix.shape[1]), np.diff(matrix.indptr))
        tf = matrix.data.astype(np.float64)
        if scheme is Scheme.BM25:
            p = self.bm25
            idf = IDF_FUNCTIONS[p.idf](df.astype(np.float64), n)
            avg = float(counts.doc_len.mean()) if n else 0.0
            data = idf[per_nnz_term] * bm25_tf(tf, counts.doc_len[matrix.indices], avg, p.k1, p.b)
        else:
            idf = idf_smooth(df.astype(np.float64), n)
            data = tf * idf[per_nnz_term]
            norms = np.sqrt(np.bincount(matrix.indices, weights=data * data, minlength=n))
            data = data / np.maximum(norms[matrix.indices], 1e-12)
        weights = sp.csc_matrix((data.astype(np.float32), matrix.indices, matrix.indptr), shape=matrix.shape)
        self._weights[scheme] = weights
        self._idf[scheme] = idf
        return weights

    def _query_vector(self, terms: Sequence[str], scheme: Scheme) -> tuple[np.ndarray, np.ndarray]:
        """Term ids and query weights (repeated query terms count repeatedly)."""
        known = Counter(t for t in terms if t in self.vocabulary)
        ids = np.fromiter((self.vocabulary[t] for t in known), dtype=np.int64, count=len(known))
        qtf = np.fromiter(known.values(), dtype=np.float32, count=len(known))
        if scheme is Scheme.TFIDF and ids.size:
            self._prepare(scheme)
            q = qtf * self._idf[scheme][ids].astype(np.float32)
            qtf = q / max(float(np.linalg.norm(q)), 1e-12)
        return ids, qtf

    # -- search ---------------------------------------------------------
    def scores(self, terms: Sequence[str], scheme: str | Scheme = Scheme.BM25) -> np.ndarray:
        """Score of every row for analysed query ``terms`` (0 for rows with no match)."""
        scheme = Scheme.parse(scheme)
        weights = self._prepare(scheme)
        ids, qw = self._query_vector(terms, scheme)
        scores = np.zeros(self.n_docs, dtype=np.float32)
        indptr, indices, data = weights.indptr, weights.indices, weights.data
        for term_id, w in zip(ids.tolist(), qw.tolist()):
            lo, hi = indptr[term_id], indptr[term_id + 1]
            # rows are unique within a column, so fancy-index += is exact
            scores[indices[lo:hi]] += w * data[lo:hi]
        return scores

    def search_rows(
        self,
        terms: Sequence[str],
        k: int,
        allowed: np.ndarray | None = None,
        scheme: str | Scheme = Scheme.BM25,
    ) -> tuple[np.ndarray, np.ndarray]:
        """Best ``k`` rows and their scores; ``allowed`` (bool mask) filters before top-k."""
        scores = self.scores(terms, scheme)
        if allowed is not None:
            scores[~allowed] = 0.0
        return top_k(scores, k)

    def search_many(
        self, queries: Sequence[Sequence[str]], k: int, scheme: str | Scheme = Scheme.BM25
    ) -> list[tuple[np.ndarray, np.ndarray]]:
        """Batch search: one sparse product for all queries, then top-k per query."""
        scheme = Scheme.parse(scheme)
        weights = self._prepare(scheme)
        indptr = [0]
        cols: list[np.ndarray] = []
        vals: list[np.ndarray] = []
        for terms in queries:
            ids, qw = self._query_vector(terms, scheme)
            cols.append(ids)
            vals.append(qw)
            indptr.append(indptr[-1] + ids.size)
        q = sp.csr_matrix(
            (
                np.concatenate(vals) if vals else np.empty(0, np.float32),
                np.concatenate(cols) if cols else np.empty(0, np.int64),
                np.asarray(indptr),
            ),
            shape=(len(queries), weights.shape[1]),
        )
        product = (q @ weights.T).tocsr()
        product.sort_indices()  # position order == row order, for the tie-break
        out = []
        for i in range(len(queries)):
            lo, hi = product.indptr[i], product.indptr[i + 1]
            rows = product.indices[lo:hi]
            vals_i = product.data[lo:hi].astype(np.float32)
            sel_rows, sel_scores = top_k(vals_i, k, np.flatnonzero(vals_i > 0))
            out.append((rows[sel_rows].astype(np.int64), sel_scores))
        return out
