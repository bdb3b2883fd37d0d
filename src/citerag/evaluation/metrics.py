"""Ranking metrics over ranked ids and graded relevance judgements (qrels).

Pure functions, no I/O. The formulations follow trec_eval (and therefore BEIR):
nDCG uses gain = relevance and discount log2(rank + 1), with the ideal ranking
built from the judgements; a judgement <= 0 means "not relevant".
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from citerag.errors import InvalidInput

METRIC_NAMES = ("hit", "mrr", "ndcg", "recall")
DEFAULT_KS = (1, 3, 5, 10, 100)


def _check_k(k: int) -> None:
    if k < 1:
        raise InvalidInput(f"k must be a positive integer, got {k}; use e.g. k=10")


def _top(ranked: Sequence[str], k: int) -> list[str]:
    """The first k distinct ids: a duplicate must not count twice as relevant."""
    seen: set[str] = set()
    out: list[str] = []
    for doc_id in ranked:
        if doc_id in seen:
            continue
        seen.add(doc_id)
        out.append(doc_id)
        if len(out) == k:
            break
    return out


def _relevant(relevant: Mapping[str, int]) -> dict[str, int]:
    return {doc_id: rel for doc_id, rel in relevant.items() if rel > 0}


def first_relevant_rank(ranked: Sequence[str], relevant: Mapping[str, int]) -> int | None:
    """1-based rank of the first relevant id, or None when none was retrieved."""
    rel = _relevant(relevant)
    for rank, doc_id in enumerate(_top(ranked, len(ranked)), start=1):
        if doc_id in rel:
            return rank
    return None


def hit_at_k(ranked: Sequence[str], relevant: Mapping[str, int], k: int) -> float:
    """1.0 if any relevant id is among the first k, else 0.0."""
    _check_k(k)
    rel = _relevant(relevant)
    return 1.0 if any(doc_id in rel for doc_id in _top(ranked, k)) else 0.0


def mrr_at_k(ranked: Sequence[str], relevant: Mapping[str, int], k: int) -> float:
    """Reciprocal rank of the first relevant id within the first k (0.0 if none)."""
    _check_k(k)
    rel = _relevant(relevant)
    for rank, doc_id in enumerate(_top(ranked, k), start=1):
        if doc_id in rel:
            return 1.0 / rank
    return 0.0


def recall_at_k(ranked: Sequence[str], relevant: Mapping[str, int], k: int) -> float:
    """Share of the relevant ids found among the first k (0.0 when nothing is relevant)."""
    _check_k(k)
    rel = _relevant(relevant)
    if not rel:
        return 0.0
    found = sum(1 for doc_id in _top(ranked, k) if doc_id in rel)
    return found / len(rel)


def ndcg_at_k(ranked: Sequence[str], relevant: Mapping[str, int], k: int) -> float:
    """nDCG@k with linear gain (gain = relevance), as trec_eval's ndcg_cut."""
    _check_k(k)
    rel = _relevant(relevant)
    if not rel:
        return 0.0
    dcg = sum(
        rel.get(doc_id, 0) / math.log2(rank + 1)
        for rank, doc_id in enumerate(_top(ranked, k), start=1)
    )
    ideal = sorted(rel.values(), reverse=True)[:k]
    idcg = sum(gain / math.log2(rank + 1) for rank, gain in enumerate(ideal, start=1))
    return dcg / idcg


_FUNCTIONS = {"hit": hit_at_k, "mrr": mrr_at_k, "ndcg": ndcg_at_k, "recall": recall_at_k}


@dataclass(frozen=True)
class EvalReport:
    """Mean metrics over the judged queries, and each query's own values.

    Keys look like ``"ndcg@10"``, ``"mrr@10"``, ``"recall@100"``, ``"hit@1"``.
    """

    metrics: dict[str, float]
    per_query: dict[str, dict[str, float]] = field(default_factory=dict)
    n_queries: int = 0

    def to_json(self) -> dict[str, object]:
        return {
            "metrics": dict(self.metrics),
            "per_query": {q: dict(v) for q, v in self.per_query.items()},
            "n_queries": self.n_queries,
        }


def metric_keys(ks: Sequence[int]) -> list[str]:
    return [f"{name}@{k}" for name in METRIC_NAMES for k in ks]


def evaluate_query(
    ranked: Sequence[str], relevant: Mapping[str, int], ks: Sequence[int] = DEFAULT_KS
) -> dict[str, float]:
    """Every metric at every k for one query."""
    return {f"{name}@{k}": _FUNCTIONS[name](ranked, relevant, k) for name in METRIC_NAMES for k in ks}


def evaluate_run(
    run: Mapping[str, Sequence[str]],
    qrels: Mapping[str, Mapping[str, int]],
    ks: Sequence[int] = DEFAULT_KS,
) -> EvalReport:
    """Mean metrics of a run (query id -> ranked ids) against qrels.

    A judged query missing from the run scores zero (so a retriever cannot
    look better by skipping hard queries). Queries without any relevant id
    (all judgements <= 0) are left out: no metric is defined for them.
    """
    ks = tuple(sorted(set(ks)))
    if not ks:
        raise InvalidInput("ks is empty; pass at least one cutoff, e.g. ks=(1, 10)")
    for k in ks:
        _check_k(k)
    per_query: dict[str, dict[str, float]] = {}
    for query_id, judged in qrels.items():
        if not _relevant(judged):
            continue
        per_query[query_id] = evaluate_query(run.get(query_id, ()), judged, ks)
    keys = metric_keys(ks)
    n = len(per_query)
    means = {key: (sum(v[key] for v in per_query.values()) / n if n else 0.0) for key in keys}
    return EvalReport(metrics=means, per_query=per_query, n_queries=n)
