"""Hybrid search over an index: filter mask → (typo-corrected) lexical and
dense candidates → fusion → thresholds (per retriever, on every hit; fused) →
de-duplication → optional reranking → the best ``k``.

Works on anything shaped like ``citerag.Index`` (chunks, analyzer, lexical,
optional dense, ``query_terms`` and ``matched_terms``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, Protocol

import numpy as np

from citerag.errors import EmbeddingError, InvalidInput
from citerag.retrieval.candidates import Candidates
from citerag.retrieval.dedup import deduplicate
from citerag.retrieval.filters import build_mask
from citerag.retrieval.fusion import Fused, fuse
from citerag.retrieval.rerank import Reranker, rerank
from citerag.retrieval.settings import RetrievalSettings, Retriever
from citerag.retrieval.typos import Correction, TypoCorrector
from citerag.types import Chunk, Hit


class SearchableIndex(Protocol):
    chunks: list[Chunk]
    analyzer: Any
    lexical: Any
    dense: Any

    def query_terms(self, query: str) -> list[str]: ...

    def matched_terms(self, row: int, terms: Sequence[str]) -> tuple[str, ...]: ...


@dataclass(frozen=True, slots=True)
class SearchResult:
    """Hits plus how they were found (for ``--explain``). Empty hits = not found."""

    query: str
    retriever: str
    hits: tuple[Hit, ...]
    terms: tuple[str, ...] = ()
    corrections: tuple[Correction, ...] = ()
    candidates: Mapping[str, int] = field(default_factory=dict)  # retriever -> candidates it returned
    allowed_rows: int | None = None  # rows passing the filters (None: no filters)
    reranker: str | None = None
    notes: tuple[str, ...] = ()  # e.g. why an automatic hybrid search fell back to lexical

    @property
    def not_found(self) -> bool:
        return not self.hits


def resolve_retriever(index: SearchableIndex, settings: RetrievalSettings) -> Retriever:
    has_dense = getattr(index, "dense", None) is not None
    if settings.retriever is None:
        return Retriever.HYBRID if has_dense else Retriever.BM25
    if settings.retriever.uses_dense and not has_dense:
        raise InvalidInput(
            f"retriever {settings.retriever.value!r} needs vectors, and this index has none: "
            "rebuild it with an embedder (citerag index ... --embedder e5) or use bm25"
        )
    return settings.retriever


def search(
    index: SearchableIndex,
    query: str,
    k: int = 10,
    settings: RetrievalSettings | None = None,
    *,
    reranker: Reranker | None = None,
) -> SearchResult:
    if not isinstance(k, int) or k <= 0:
        raise InvalidInput(f"k must be a positive integer, got {k!r}")
    cfg = settings or RetrievalSettings()
    retriever = resolve_retriever(index, cfg)
    terms = index.query_terms(query)  # raises EmptyQuery
    mask = build_mask(index.chunks, cfg.filters)
    allowed_rows = None if mask is None else int(mask.sum())
    depth = max(k, cfg.top_k_retrieve)
    lists: list[Candidates] = []
    corrections: tuple[Correction, ...] = ()
    if allowed_rows == 0:
        return SearchResult(query, retriever.value, (), tuple(terms), allowed_rows=0)
    if retriever.uses_lexical:
        scheme = cfg.lexical if retriever is Retriever.HYBRID else retriever
        lexical, terms, corrections = _lexical(index, query, terms, depth, mask, scheme.value, cfg.correct_typos)
        lists.append(lexical)
    notes: tuple[str, ...] = ()
    query_vector: np.ndarray | None = None
    if retriever.uses_dense:
        try:
            query_vector = index.dense.query_vector(query)
            rows, scores = index.dense.vectors.search(query_vector, depth, mask)
            lists.append(Candidates("dense", rows, scores))
        except (InvalidInput, EmbeddingError) as exc:
            if cfg.retriever is not None:  # asked for explicitly: the caller must know
                raise
            # Hybrid by default only: a missing model or a down server still leaves lexical search.
            retriever = cfg.lexical
            notes = (f"searched lexically ({cfg.lexical.value}) only: {exc}",)
    if len(lists) > 1:
        fused = _complete(index, fuse(lists, cfg.fusion), lists, terms, query_vector)
    else:
        fused = _single(lists[0])
    names = {c.name for c in lists}
    fused = [f for f in fused if cfg.thresholds.passes(f.score, f.scores, names)]
    hits = [
        Hit(
            chunk=index.chunks[f.row],
            score=f.score,
            rank=i,
            scores=f.scores,
            ranks=f.ranks,
            matched_terms=index.matched_terms(f.row, terms),
        )
        for i, f in enumerate(fused, 1)
    ]
    if cfg.dedup:
        hits = deduplicate(hits)
    if reranker is not None:
        hits = rerank(query, hits[:depth], reranker)
    return SearchResult(
        query=query,
        retriever=retriever.value,
        hits=tuple(hits[:k]),
        terms=tuple(terms),
        corrections=corrections,
        candidates={c.name: len(c) for c in lists},
        allowed_rows=allowed_rows,
        reranker=None if reranker is None else reranker.name,
        notes=notes,
    )


def _complete(
    index: SearchableIndex,
    fused: list[Fused],
    lists: Sequence[Candidates],
    terms: Sequence[str],
    query_vector: np.ndarray | None,
) -> list[Fused]:
    """Hybrid hits get the score of the retriever that did not rank them (no
    rank): per-retriever thresholds and --explain then see every hit whole."""
    lexical = next((c.name for c in lists if c.name != "dense"), None)
    extra: dict[tuple[int, str], float] = {}
    need_dense = np.asarray([f.row for f in fused if "dense" not in f.scores], dtype=np.int64)
    if need_dense.size and query_vector is not None:
        for row, score in zip(need_dense.tolist(), index.dense.score_rows(query_vector, need_dense).tolist()):
            extra[(row, "dense")] = score
    need_lexical = [f.row for f in fused if lexical is not None and lexical not in f.scores]
    if need_lexical and lexical is not None:
        full = index.lexical.scores(terms, lexical)
        extra.update(((row, lexical), float(full[row])) for row in need_lexical)
    if not extra:
        return fused
    return [
        replace(f, scores={**f.scores, **{name: extra[(f.row, name)] for name in ("dense", lexical) if (f.row, name) in extra}})
        for f in fused
    ]


def _single(candidates: Candidates) -> list[Fused]:
    """One retriever: its own scores and ranks, nothing to fuse."""
    return [
        Fused(row=row, score=score, scores={candidates.name: score}, ranks={candidates.name: rank})
        for rank, (row, score) in enumerate(zip(candidates.rows.tolist(), candidates.scores.tolist()), 1)
    ]


def _lexical(
    index: SearchableIndex,
    query: str,
    terms: list[str],
    k: int,
    mask: np.ndarray | None,
    scheme: str,
    correct_typos: bool,
) -> tuple[Candidates, list[str], tuple[Correction, ...]]:
    rows, scores = index.lexical.search_rows(terms, k, allowed=mask, scheme=scheme)
    plain = Candidates(scheme, rows, scores)
    vocabulary = index.lexical.vocabulary
    if not correct_typos or all(t in vocabulary for t in terms):
        return plain, terms, ()
    words = index.analyzer.tokens(query)
    word_terms = [index.analyzer.term(w) for w in words]
    # Dictionary words absent from the documents are corrected too: measured on
    # xquad-ru, mapping them to a related indexed form helps more than it hurts.
    corrector = TypoCorrector(vocabulary, index.lexical.doc_freq)
    fixed_terms, corrections = corrector.correct(words, word_terms)
    if not corrections:
        return plain, terms, ()
    rows2, scores2 = index.lexical.search_rows(fixed_terms, k, allowed=mask, scheme=scheme)
    # Only when it helps: the corrected query must match better than the typed one.
    best_plain = float(scores[0]) if len(scores) else 0.0
    if len(scores2) and float(scores2[0]) > best_plain:
        return Candidates(scheme, rows2, scores2), fixed_terms, tuple(corrections)
    return plain, terms, ()
