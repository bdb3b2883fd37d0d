"""How much a source backs a sentence: shared lemmas, and embedding similarity when available."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

import numpy as np

CACHE_LIMIT = 20_000  # texts whose terms / vectors are kept between questions


class TermAnalyzer(Protocol):
    def analyze(self, text: str) -> list[str]: ...


class TextEmbedder(Protocol):
    """The part of ``citerag.dense`` embedders used here (vectors are L2-normalised)."""

    def embed_documents(self, texts: Sequence[str]) -> np.ndarray: ...

    def embed_query(self, text: str) -> np.ndarray: ...


class SupportScorer:
    """Lemma overlap through the index's analyser; cosine through an optional embedder.

    Terms of each text are computed once per scorer (sources are compared
    with many sentences).
    """

    def __init__(self, analyzer: TermAnalyzer, embedder: TextEmbedder | None = None) -> None:
        self.analyzer = analyzer
        self.embedder = embedder
        self._terms: dict[str, frozenset[str]] = {}
        self._vectors: dict[str, np.ndarray] = {}  # sentences recur between selection and check

    def terms(self, text: str) -> frozenset[str]:
        found = self._terms.get(text)
        if found is None:
            if len(self._terms) >= CACHE_LIMIT:
                self._terms.clear()  # a long-running server must not grow without bound
            found = self._terms[text] = frozenset(self.analyzer.analyze(text))
        return found

    def overlap(self, claim: str, evidence: str) -> float:
        """Share of the claim's content lemmas that occur in the evidence (0 when it has none)."""
        claim_terms = self.terms(claim)
        if not claim_terms:
            return 0.0
        return len(claim_terms & self.terms(evidence)) / len(claim_terms)

    def similarities(self, pairs: Sequence[tuple[str, str]]) -> list[float | None]:
        """Cosine of each (claim, evidence) pair, or None for all without an embedder."""
        if self.embedder is None or not pairs:
            return [None] * len(pairs)
        vectors = self._document_vectors([t for pair in pairs for t in pair])
        return [float(vectors[a] @ vectors[b]) for a, b in pairs]

    def query_similarities(self, query: str, texts: Sequence[str]) -> list[float | None]:
        """Cosine of the question (embedded as a query) with each text."""
        if self.embedder is None or not texts:
            return [None] * len(texts)
        q = np.asarray(self.embedder.embed_query(query), dtype=np.float32)
        vectors = self._document_vectors(texts)
        return [float(vectors[t] @ q) for t in texts]

    def _document_vectors(self, texts: Sequence[str]) -> dict[str, np.ndarray]:
        """Vectors of ``texts``, embedding in one batch only those not seen before."""
        assert self.embedder is not None
        missing = [t for t in dict.fromkeys(texts) if t not in self._vectors]
        if missing and len(self._vectors) + len(missing) > CACHE_LIMIT:
            self._vectors.clear()
            missing = list(dict.fromkeys(texts))
        if missing:
            rows = np.asarray(self.embedder.embed_documents(missing), dtype=np.float32)
            self._vectors.update(zip(missing, rows))
        return {t: self._vectors[t] for t in texts}
