"""Run labelled questions through one or more configurations and score them.

A configuration is a retriever (``bm25``, ``tfidf``, ``dense``, ``hybrid``)
and, for document sets, a chunking variant. Each run records the ranked ids,
the best score (for the "not found" threshold) and the latency of every
question, so the report can show per-question ranks and p50/p95 timings.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

import numpy as np

from citerag.errors import EmptyQuery
from citerag.evaluation.metrics import DEFAULT_KS, EvalReport, evaluate_run, first_relevant_rank
from citerag.evaluation.threshold import NO_HIT, ThresholdOutcome, best_threshold, outcome_at
from citerag.types import Hit

Progress = Callable[[int, int], None]


class Searchable(Protocol):
    def search(
        self,
        query: str,
        k: int = 10,
        *,
        retriever: str | None = None,
        min_score: float | None = None,
        settings: Any = None,
    ) -> list[Hit]: ...


def plain_settings() -> Any:
    """Search settings without query rewriting or result pruning, to measure the ranking alone."""
    from citerag.retrieval.settings import RetrievalSettings

    return RetrievalSettings(correct_typos=False, dedup=False)


@dataclass(frozen=True)
class EvalConfig:
    """One column of the comparison: a retriever, optionally a chunking variant."""

    retriever: str = "bm25"
    chunking: str | None = None
    chunk_size: int | None = None
    chunk_overlap: int | None = None
    plain: bool = False  # the bare ranking: no typo correction, no near-duplicate removal

    @property
    def chunk_key(self) -> tuple[str | None, int | None, int | None]:
        """Configurations with equal keys share one built index."""
        return (self.chunking, self.chunk_size, self.chunk_overlap)

    @property
    def name(self) -> str:
        """``bm25`` or ``bm25 / words:120:20`` (the chunking as ``citerag eval --chunking`` spells it)."""
        base = self.retriever + (" plain" if self.plain else "")
        if self.chunking is None:
            return base
        spec = self.chunking
        if self.chunk_size is not None or self.chunk_overlap is not None:
            spec += f":{'' if self.chunk_size is None else self.chunk_size}"
        if self.chunk_overlap is not None:
            spec += f":{self.chunk_overlap}"
        return f"{base} / {spec}"


@dataclass(frozen=True)
class QueryOutcome:
    """What one question retrieved, its best score and how long the search took."""

    query_id: str
    ranked: tuple[str, ...]
    top_score: float
    seconds: float


@dataclass(frozen=True)
class ConfigResult:
    """Everything measured for one configuration."""

    config: EvalConfig
    report: EvalReport
    ranks: dict[str, int | None]  # query id -> rank of the first relevant id (None: not retrieved)
    latency_p50_ms: float
    latency_p95_ms: float
    build_seconds: float | None = None
    n_chunks: int | None = None
    positive_scores: tuple[float, ...] = ()
    negative_scores: tuple[float, ...] = ()
    threshold: ThresholdOutcome | None = None  # outcome of the configured threshold
    best: ThresholdOutcome | None = None  # the best threshold on this set
    extra: dict[str, float] = field(default_factory=dict)  # e.g. answer-level metrics

    def to_json(self) -> dict[str, object]:
        return {
            "config": self.config.name,
            "retriever": self.config.retriever,
            "chunking": self.config.chunking,
            "chunk_size": self.config.chunk_size,
            "chunk_overlap": self.config.chunk_overlap,
            "plain": self.config.plain,
            "n_queries": self.report.n_queries,
            "metrics": dict(self.report.metrics),
            "latency_ms": {"p50": self.latency_p50_ms, "p95": self.latency_p95_ms},
            "build_seconds": self.build_seconds,
            "n_chunks": self.n_chunks,
            "threshold": self.threshold.to_json() if self.threshold else None,
            "best_threshold": self.best.to_json() if self.best else None,
            "extra": dict(self.extra),
            "ranks": dict(self.ranks),
        }


def _unique(ids: Sequence[str]) -> tuple[str, ...]:
    return tuple(dict.fromkeys(ids))


def run_queries(
    index: Searchable,
    queries: Mapping[str, str],
    *,
    k: int,
    retriever: str | None = None,
    plain: bool = False,
    by_document: bool = False,
    progress: Progress | None = None,
) -> dict[str, QueryOutcome]:
    """Search every query; ``by_document`` ranks document ids (first chunk wins).

    A query with no searchable words (only stop words, say) retrieves nothing
    rather than stopping the run: that is a result worth seeing in the report.
    """
    out: dict[str, QueryOutcome] = {}
    total = len(queries)
    options: dict[str, Any] = {"settings": plain_settings()} if plain else {}
    for done, (query_id, text) in enumerate(queries.items(), start=1):
        started = time.perf_counter()
        try:
            # No score cut-off here: the threshold is judged separately, on the best scores.
            hits = index.search(text, k=k, retriever=retriever, min_score=NO_HIT, **options)
        except EmptyQuery:
            hits = []
        seconds = time.perf_counter() - started
        ids = [(h.chunk.doc_id or h.chunk.id) if by_document else h.chunk.id for h in hits]
        out[query_id] = QueryOutcome(
            query_id=query_id,
            ranked=_unique(ids),
            top_score=float(hits[0].score) if hits else NO_HIT,
            seconds=seconds,
        )
        if progress is not None:
            progress(done, total)
    return out


def _percentile_ms(values: Sequence[float], q: float) -> float:
    return float(np.percentile(np.asarray(values, dtype=float), q) * 1000.0) if values else 0.0


def evaluate_config(
    index: Searchable,
    config: EvalConfig,
    queries: Mapping[str, str],
    qrels: Mapping[str, Mapping[str, int]],
    *,
    negatives: Mapping[str, str] | None = None,
    ks: Sequence[int] = DEFAULT_KS,
    min_score: float | None = None,
    by_document: bool = False,
    build_seconds: float | None = None,
    n_chunks: int | None = None,
    progress: Progress | None = None,
) -> ConfigResult:
    """Score one configuration; with ``negatives``, judge the "not found" threshold too."""
    depth = max(ks)
    every = {**queries, **(negatives or {})}
    outcomes = run_queries(
        index,
        every,
        k=depth,
        retriever=config.retriever,
        plain=config.plain,
        by_document=by_document,
        progress=progress,
    )
    run = {q: outcomes[q].ranked for q in queries}
    report = evaluate_run(run, qrels, ks)
    positive = tuple(outcomes[q].top_score for q in queries)
    negative = tuple(outcomes[q].top_score for q in (negatives or {}))
    threshold = best = None
    if negative:
        threshold = outcome_at(min_score if min_score is not None else NO_HIT, positive, negative)
        best = best_threshold(positive, negative)
    latencies = [o.seconds for o in outcomes.values()]
    return ConfigResult(
        config=config,
        report=report,
        ranks={q: first_relevant_rank(run[q], qrels.get(q, {})) for q in queries},
        latency_p50_ms=_percentile_ms(latencies, 50),
        latency_p95_ms=_percentile_ms(latencies, 95),
        build_seconds=build_seconds,
        n_chunks=n_chunks,
        positive_scores=positive,
        negative_scores=negative,
        threshold=threshold,
        best=best,
    )
