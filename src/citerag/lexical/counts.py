"""Term counting: analysed documents → a sparse document × term count matrix."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from itertools import chain

import numpy as np
import scipy.sparse as sp


@dataclass(frozen=True)
class TermCounts:
    """Raw term frequencies, the one thing every lexical weighting is built from.

    ``matrix`` is CSC (documents × terms) so that a term's postings are one
    contiguous slice of ``indices``/``data``.
    """

    matrix: sp.csc_matrix
    doc_len: np.ndarray  # terms per document (after stop words)
    terms: tuple[str, ...]  # term id -> term

    @property
    def n_docs(self) -> int:
        return self.matrix.shape[0]

    @property
    def doc_freq(self) -> np.ndarray:
        return np.diff(self.matrix.indptr).astype(np.int64)

    def vocabulary(self) -> dict[str, int]:
        return {term: i for i, term in enumerate(self.terms)}


def count_terms(docs: Sequence[Sequence[str]], terms: Sequence[str] = ()) -> TermCounts:
    """Count terms of analysed documents; ``terms`` seeds the vocabulary order."""
    vocabulary: dict[str, int] = {t: i for i, t in enumerate(terms)}
    setdefault = vocabulary.setdefault
    lengths = np.fromiter((len(d) for d in docs), dtype=np.int64, count=len(docs))
    ids = np.fromiter(
        (setdefault(t, len(vocabulary)) for t in chain.from_iterable(docs)),
        dtype=np.int64,
        count=int(lengths.sum()),
    )
    rows = np.repeat(np.arange(len(docs), dtype=np.int64), lengths)
    matrix = sp.csc_matrix(
        (np.ones(ids.size, dtype=np.float32), (rows, ids)),
        shape=(len(docs), len(vocabulary)),
    )
    matrix.sum_duplicates()
    matrix.sort_indices()
    return TermCounts(matrix=matrix, doc_len=lengths.astype(np.int32), terms=tuple(vocabulary))


def stack_counts(parts: Sequence[TermCounts]) -> TermCounts:
    """Concatenate count matrices of disjoint document sets (for incremental updates)."""
    vocabulary: dict[str, int] = {}
    blocks = []
    for part in parts:
        for term in part.terms:
            vocabulary.setdefault(term, len(vocabulary))
        remap = np.fromiter((vocabulary[t] for t in part.terms), dtype=np.int64, count=len(part.terms))
        coo = part.matrix.tocoo()
        blocks.append((coo.row, remap[coo.col], coo.data, part.n_docs))
    offsets = np.cumsum([0] + [b[3] for b in blocks])
    rows = np.concatenate([b[0] + off for b, off in zip(blocks, offsets)]) if blocks else np.empty(0, np.int64)
    cols = np.concatenate([b[1] for b in blocks]) if blocks else np.empty(0, np.int64)
    data = np.concatenate([b[2] for b in blocks]) if blocks else np.empty(0, np.float32)
    matrix = sp.csc_matrix((data, (rows, cols)), shape=(int(offsets[-1]), len(vocabulary)))
    matrix.sort_indices()
    # Terms of documents that were dropped would linger with df = 0: prune them.
    used = np.flatnonzero(np.diff(matrix.indptr) > 0)
    terms = tuple(vocabulary)
    if used.size < len(terms):
        matrix = matrix[:, used]
        terms = tuple(terms[i] for i in used.tolist())
    doc_len = np.concatenate([p.doc_len for p in parts]) if parts else np.empty(0, np.int32)
    return TermCounts(matrix=matrix, doc_len=doc_len, terms=terms)
