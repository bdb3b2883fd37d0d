"""The vector index: exact search, filters before top-k, float16, HNSW."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from citerag.dense import HnswSettings, VectorIndex, l2_normalise
from citerag.dense.topk import top_k
from citerag.errors import InvalidInput


def _vectors(n: int, dim: int, seed: int = 0) -> np.ndarray:
    return l2_normalise(np.random.default_rng(seed).standard_normal((n, dim)).astype(np.float32))


def test_exact_search_matches_brute_force() -> None:
    v = _vectors(2000, 24)
    q = v[7] + 0.1
    rows, scores = VectorIndex(v).search(q, 10)
    expected = np.argsort(-(v @ q.astype(np.float32)), kind="stable")[:10]
    assert rows.tolist() == expected.tolist()
    assert np.all(np.diff(scores) <= 0)


def test_allowed_mask_applies_before_top_k() -> None:
    v = _vectors(500, 16)
    allowed = np.zeros(500, dtype=bool)
    allowed[[3, 50, 499]] = True
    rows, _ = VectorIndex(v).search(v[0], 10, allowed)
    assert sorted(rows.tolist()) == [3, 50, 499]  # all three, though none is near v[0]
    rows, _ = VectorIndex(v).search(v[0], 10, np.zeros(500, dtype=bool))
    assert rows.size == 0


def test_float16_vectors_give_nearly_the_same_ranking() -> None:
    v = _vectors(1000, 32)
    rows32, _ = VectorIndex(v).search(v[1], 5)
    rows16, scores16 = VectorIndex(v.astype(np.float16)).search(v[1], 5)
    assert rows16[0] == rows32[0] == 1 and abs(scores16[0] - 1.0) < 1e-2


def test_wrong_query_dimension_is_refused() -> None:
    with pytest.raises(InvalidInput, match="dimension 8"):
        VectorIndex(_vectors(10, 16)).search(np.ones(8, dtype=np.float32), 3)


@settings(max_examples=60, deadline=None)
@given(
    n=st.integers(1, 9000),
    k=st.integers(1, 40),
    seed=st.integers(0, 1000),
    ties=st.booleans(),
)
def test_top_k_is_exact(n: int, k: int, seed: int, ties: bool) -> None:
    rng = np.random.default_rng(seed)
    scores = rng.integers(0, 5, n).astype(np.float32) if ties else rng.standard_normal(n).astype(np.float32)
    rows, values = top_k(scores, k)
    best = np.sort(scores)[::-1][: min(k, n)]
    np.testing.assert_array_equal(values, best)
    np.testing.assert_array_equal(scores[rows], values)
    assert len(set(rows.tolist())) == len(rows)


def test_hnsw_recall_and_persistence(tmp_path: Path) -> None:
    pytest.importorskip("hnswlib")
    v = _vectors(3000, 32, seed=1)
    queries = _vectors(50, 32, seed=2)
    exact = VectorIndex(v, mode="exact")
    approx = VectorIndex(v, mode="hnsw")
    recall = np.mean(
        [len(set(exact.search(q, 10)[0]) & set(approx.search(q, 10)[0])) / 10 for q in queries]
    )
    assert recall >= 0.9
    approx.save_hnsw(tmp_path / "g.hnsw")
    loaded = VectorIndex(v, mode="hnsw")
    loaded.load_hnsw(tmp_path / "g.hnsw")
    assert loaded.search(queries[0], 10)[0].tolist() == approx.search(queries[0], 10)[0].tolist()


def test_hnsw_used_only_above_threshold_and_filters_stay_complete() -> None:
    pytest.importorskip("hnswlib")
    v = _vectors(400, 16)
    small = VectorIndex(v, hnsw=HnswSettings(threshold=1000))
    big = VectorIndex(v, hnsw=HnswSettings(threshold=100, exact_below_allowed=10))
    assert not small.uses_hnsw() and big.uses_hnsw()
    allowed = np.arange(400) % 2 == 0
    rows, _ = big.search(v[1], 5, allowed)
    assert len(rows) == 5 and all(r % 2 == 0 for r in rows.tolist())


def test_unknown_mode_lists_valid_ones() -> None:
    with pytest.raises(InvalidInput, match="auto, exact, hnsw"):
        VectorIndex(_vectors(3, 4), mode="fast")
