"""How much a source backs a sentence: shared lemmas, and embedding similarity when available."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

import numpy as np


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

    def terms(self, text: str) -> frozenset[str]:
        found = self._terms.get(text)
        if found is None:
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
        texts = list(dict.fromkeys(t for pair in pairs for t in pair))
        vectors = np.asarray(self.embedder.embed_documents(texts), dtype=np.float32)
        row = {t: i for i, t in enumerate(texts)}
        return [float(vectors[row[a]] @ vectors[row[b]]) for a, b in pairs]

    def query_similarities(self, query: str, texts: Sequence[str]) -> list[float | None]:
        """Cosine of the question (embedded as a query) with each text."""
        if self.embedder is None or not texts:
            return [None] * len(texts)
        q = np.asarray(self.embedder.embed_query(query), dtype=np.float32)
        docs = np.asarray(self.embedder.embed_documents(list(texts)), dtype=np.float32)
        return [float(v) for v in docs @ q]
