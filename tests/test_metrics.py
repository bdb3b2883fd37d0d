"""Ranking metrics: hand-computed cases and agreement with trec_eval."""

from __future__ import annotations

import math
import random
from pathlib import Path

import pytest

from citerag.errors import InvalidInput
from citerag.evaluation.beir import load_beir
from citerag.evaluation.metrics import (
    evaluate_run,
    first_relevant_rank,
    hit_at_k,
    mrr_at_k,
    ndcg_at_k,
    recall_at_k,
)

BENCH = Path(__file__).resolve().parents[1].parent / "shared" / "bench"

RANKED = ["кошка", "собака", "мышь", "ёж", "лиса"]
QRELS = {"мышь": 1, "лиса": 2, "волк": 1, "собака": 0}


def test_hit_at_k_needs_a_relevant_id_within_k() -> None:
    assert hit_at_k(RANKED, QRELS, 2) == 0.0  # "собака" is judged 0: not relevant
    assert hit_at_k(RANKED, QRELS, 3) == 1.0


def test_mrr_is_reciprocal_rank_of_first_relevant() -> None:
    assert mrr_at_k(RANKED, QRELS, 10) == pytest.approx(1 / 3)
    assert mrr_at_k(RANKED, QRELS, 2) == 0.0


def test_recall_counts_unretrieved_relevant_ids() -> None:
    # three relevant ids ("мышь", "лиса", "волк"); two are retrieved in the top 5
    assert recall_at_k(RANKED, QRELS, 5) == pytest.approx(2 / 3)
    assert recall_at_k(RANKED, QRELS, 3) == pytest.approx(1 / 3)


def test_ndcg_uses_linear_gain_and_ideal_from_qrels() -> None:
    dcg = 1 / math.log2(4) + 2 / math.log2(6)
    idcg = 2 / math.log2(2) + 1 / math.log2(3) + 1 / math.log2(4)
    assert ndcg_at_k(RANKED, QRELS, 5) == pytest.approx(dcg / idcg)
    # cut at 2: ideal keeps only the two best grades
    assert ndcg_at_k(["лиса", "мышь"], QRELS, 2) == pytest.approx(1.0)
    assert ndcg_at_k(["мышь", "лиса"], QRELS, 2) == pytest.approx(
        (1 + 2 / math.log2(3)) / (2 + 1 / math.log2(3))
    )


def test_duplicates_in_a_ranking_count_once() -> None:
    assert recall_at_k(["мышь", "мышь", "мышь"], {"мышь": 1, "лиса": 1}, 3) == pytest.approx(0.5)
    assert ndcg_at_k(["мышь", "мышь"], {"мышь": 1}, 2) == pytest.approx(1.0)


def test_first_relevant_rank() -> None:
    assert first_relevant_rank(RANKED, QRELS) == 3
    assert first_relevant_rank(["кошка"], QRELS) is None


def test_bad_k_is_rejected_with_the_value() -> None:
    with pytest.raises(InvalidInput, match="0"):
        hit_at_k(RANKED, QRELS, 0)


def test_evaluate_run_counts_missing_queries_as_zero() -> None:
    qrels = {"q1": {"d1": 1}, "q2": {"d2": 1}, "q3": {"d3": 0}}
    report = evaluate_run({"q1": ["d1", "d9"]}, qrels, ks=(1, 10))
    assert report.n_queries == 2  # q3 has nothing relevant: no metric is defined
    assert report.metrics["hit@1"] == pytest.approx(0.5)
    assert report.metrics["mrr@10"] == pytest.approx(0.5)
    assert report.per_query["q2"]["ndcg@10"] == 0.0
    assert set(report.metrics) == {
        f"{m}@{k}" for m in ("hit", "mrr", "ndcg", "recall") for k in (1, 10)
    }


def _trec(run: dict[str, list[str]], qrels: dict[str, dict[str, int]], ks: tuple[int, ...]) -> dict[str, float]:
    """Mean metrics computed by trec_eval (through pytrec_eval)."""
    pytrec_eval = pytest.importorskip("pytrec_eval")
    out: dict[str, float] = {}
    for k in ks:
        cut = {
            q: {d: float(len(ids) - i) for i, d in enumerate(ids[:k])} or {"__none__": 0.0}
            for q, ids in run.items()
        }
        ev = pytrec_eval.RelevanceEvaluator(qrels, {f"ndcg_cut.{k}", f"recall.{k}", "recip_rank", "success.1"})
        per = ev.evaluate(cut)
        n = len(qrels)
        out[f"ndcg@{k}"] = sum(v[f"ndcg_cut_{k}"] for v in per.values()) / n
        out[f"recall@{k}"] = sum(v[f"recall_{k}"] for v in per.values()) / n
        out[f"mrr@{k}"] = sum(v["recip_rank"] for v in per.values()) / n
        # success@k on a run cut at k is "hit@k"
        out[f"hit@{k}"] = sum(1.0 if v["recip_rank"] > 0 else 0.0 for v in per.values()) / n
    return out


def _synthetic_run(qrels: dict[str, dict[str, int]], doc_ids: list[str], seed: int) -> dict[str, list[str]]:
    """Random rankings with relevant ids scattered at random depths (some missing)."""
    rng = random.Random(seed)
    run: dict[str, list[str]] = {}
    for q, judged in qrels.items():
        ids = rng.sample(doc_ids, 120)
        for d in judged:
            if rng.random() < 0.8:
                ids.insert(rng.randrange(0, 60), d)
        seen: dict[str, None] = dict.fromkeys(ids)
        run[q] = list(seen)[:100]
    return run


def test_graded_random_runs_agree_with_trec_eval() -> None:
    rng = random.Random(7)
    doc_ids = [f"д{i}" for i in range(400)]
    qrels = {
        f"в{q}": {d: rng.choice([1, 2, 3]) for d in rng.sample(doc_ids, rng.randint(1, 6))}
        for q in range(60)
    }
    run = _synthetic_run(qrels, doc_ids, seed=11)
    ks = (1, 3, 10, 100)
    ours = evaluate_run(run, qrels, ks).metrics
    theirs = _trec(run, qrels, ks)
    for key, value in theirs.items():
        assert ours[key] == pytest.approx(value, abs=1e-9), key


@pytest.mark.parametrize("name", ["scifact", "xquad-ru"])
def test_agrees_with_trec_eval_on_shared_beir_sets(name: str) -> None:
    folder = BENCH / name
    if not folder.is_dir():
        pytest.skip(f"benchmark set {name} not available")
    data = load_beir(folder)
    run = _synthetic_run(data.qrels, [d.id for d in data.corpus], seed=3)
    ks = (1, 5, 10, 100)
    ours = evaluate_run(run, data.qrels, ks)
    assert ours.n_queries == len(data.queries)
    theirs = _trec(run, data.qrels, ks)
    for key, value in theirs.items():
        assert ours.metrics[key] == pytest.approx(value, abs=1e-9), key


# -- properties ------------------------------------------------------------------

from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

_ids = st.sampled_from([f"д{i}" for i in range(12)])
_rankings = st.lists(_ids, max_size=15)
_qrels = st.dictionaries(_ids, st.integers(min_value=-1, max_value=3), max_size=8)


@settings(max_examples=200, deadline=None)
@given(_rankings, _qrels, st.integers(min_value=1, max_value=15))
def test_every_metric_is_a_share(ranked: list[str], qrels: dict[str, int], k: int) -> None:
    for fn in (hit_at_k, mrr_at_k, ndcg_at_k, recall_at_k):
        assert 0.0 <= fn(ranked, qrels, k) <= 1.0 + 1e-12


@settings(max_examples=200, deadline=None)
@given(_rankings, _qrels, st.integers(min_value=1, max_value=14))
def test_hit_and_recall_never_drop_with_a_deeper_cutoff(ranked: list[str], qrels: dict[str, int], k: int) -> None:
    assert hit_at_k(ranked, qrels, k) <= hit_at_k(ranked, qrels, k + 1)
    assert recall_at_k(ranked, qrels, k) <= recall_at_k(ranked, qrels, k + 1) + 1e-12
    assert mrr_at_k(ranked, qrels, k) <= mrr_at_k(ranked, qrels, k + 1)


@settings(max_examples=200, deadline=None)
@given(_qrels, st.integers(min_value=1, max_value=15))
def test_the_ideal_ranking_has_ndcg_one(qrels: dict[str, int], k: int) -> None:
    ideal = sorted((d for d, r in qrels.items() if r > 0), key=lambda d: -qrels[d])
    if ideal:
        assert ndcg_at_k(ideal, qrels, k) == pytest.approx(1.0)
        assert mrr_at_k(ideal, qrels, k) == 1.0
