"""Term counts on disk: ``lexical.npz`` (sparse arrays) + ``terms.json`` (vocabulary)."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import scipy.sparse as sp

from citerag.errors import IndexCorrupted
from citerag.lexical import TermCounts

LEXICAL_FILE = "lexical.npz"
TERMS_FILE = "terms.json"


def save_counts(directory: Path, counts: TermCounts) -> None:
    m = counts.matrix
    np.savez(
        directory / LEXICAL_FILE,
        indptr=m.indptr.astype(np.int64),
        indices=m.indices.astype(np.int32),
        data=m.data.astype(np.float32),
        shape=np.asarray(m.shape, dtype=np.int64),
        doc_len=counts.doc_len.astype(np.int32),
    )
    (directory / TERMS_FILE).write_text(json.dumps(list(counts.terms), ensure_ascii=False), encoding="utf-8")


def load_counts(directory: Path) -> TermCounts:
    try:
        with np.load(directory / LEXICAL_FILE, allow_pickle=False) as z:
            shape = tuple(int(x) for x in z["shape"])
            matrix = sp.csc_matrix((z["data"], z["indices"], z["indptr"]), shape=shape)
            doc_len = z["doc_len"]
        terms = json.loads((directory / TERMS_FILE).read_text(encoding="utf-8"))
    except (OSError, ValueError, KeyError) as exc:
        raise IndexCorrupted(f"lexical index in {directory} is unreadable ({exc}); rebuild the index") from exc
    if len(terms) != shape[1] or doc_len.shape[0] != shape[0]:
        raise IndexCorrupted(f"lexical index in {directory} is inconsistent; rebuild the index")
    return TermCounts(matrix=matrix, doc_len=doc_len, terms=tuple(terms))
