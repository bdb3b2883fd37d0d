"""Fusion of ranked lists: RRF and normalised score fusion."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from citerag.errors import InvalidInput
from citerag.retrieval import Candidates, FusionMethod, FusionSettings, fuse


def _c(name: str, rows: list[int], scores: list[float]) -> Candidates:
    return Candidates(name, np.asarray(rows, dtype=np.int64), np.asarray(scores, dtype=np.float32))


BM25 = _c("bm25", [10, 20, 30], [9.0, 5.0, 1.0])
DENSE = _c("dense", [30, 10, 40], [0.9, 0.8, 0.7])


def test_rrf_scores_and_keeps_each_retrievers_view() -> None:
    fused = fuse([BM25, DENSE], FusionSettings(method=FusionMethod.RRF, rrf_k=60))
    by_row = {f.row: f for f in fused}
    assert by_row[10].score == pytest.approx(1 / 61 + 1 / 62)
    assert by_row[20].score == pytest.approx(1 / 62)
    assert [f.row for f in fused] == [10, 30, 20, 40]  # 20 and 40 tie; bm25 rank 2 beats dense rank 3
    assert by_row[30].ranks == {"bm25": 3, "dense": 1}
    assert by_row[30].scores == {"bm25": 1.0, "dense": pytest.approx(0.9)}
    assert by_row[40].ranks == {"dense": 3}


def test_rrf_weights_change_the_order() -> None:
    fused = fuse([BM25, DENSE], FusionSettings(method=FusionMethod.RRF, weights={"dense": 3.0}))
    assert fused[0].row == 30


def test_minmax_fusion_weights_normalised_scores() -> None:
    fused = fuse([BM25, DENSE], FusionSettings(method="minmax"))
    by_row = {f.row: f.score for f in fused}
    assert by_row[10] == pytest.approx(1.0 + 0.5)  # top of bm25, middle of dense
    assert by_row[40] == pytest.approx(0.0 + 0.0)  # missing from bm25 counts as its lowest
    assert fused[0].row == 10


def test_zscore_fusion_is_scale_free() -> None:
    scaled = _c("bm25", [10, 20, 30], [900.0, 500.0, 100.0])
    a = [f.row for f in fuse([BM25, DENSE], FusionSettings(method=FusionMethod.ZSCORE))]
    b = [f.row for f in fuse([scaled, DENSE], FusionSettings(method=FusionMethod.ZSCORE))]
    assert a == b


def test_empty_lists_fuse_to_nothing() -> None:
    assert fuse([Candidates.empty("bm25"), Candidates.empty("dense")]) == []


def test_bad_settings_name_the_fix() -> None:
    with pytest.raises(InvalidInput, match="rrf, zscore, minmax"):
        FusionSettings(method="sum")  # type: ignore[arg-type]
    with pytest.raises(InvalidInput, match="negative"):
        FusionSettings(weights={"dense": -1})


@pytest.mark.parametrize("method", ["zscore", "minmax"])
def test_a_lone_candidate_still_counts_for_its_retriever(method: str) -> None:
    only = _c("bm25", [20], [4.2])
    fused = fuse([only, DENSE], FusionSettings(method=method))  # type: ignore[arg-type]
    by_row = {f.row: f.score for f in fused}
    # Row 20 is the only lexical match; rows 30 and 10 are dense's best two.
    assert by_row[20] > by_row[40]
    assert fused[0].row in (20, 30)


def test_default_fusion_is_zscore() -> None:
    assert FusionSettings().method is FusionMethod.ZSCORE


@settings(max_examples=80, deadline=None)
@given(
    a=st.lists(st.tuples(st.integers(0, 30), st.floats(-5, 5)), max_size=12, unique_by=lambda t: t[0]),
    b=st.lists(st.tuples(st.integers(0, 30), st.floats(-5, 5)), max_size=12, unique_by=lambda t: t[0]),
    method=st.sampled_from(list(FusionMethod)),
)
def test_fusion_keeps_every_candidate_once_with_its_own_ranks(
    a: list[tuple[int, float]], b: list[tuple[int, float]], method: FusionMethod
) -> None:
    a.sort(key=lambda t: -t[1])
    b.sort(key=lambda t: -t[1])
    lists = [_c("bm25", [r for r, _ in a], [s for _, s in a]), _c("dense", [r for r, _ in b], [s for _, s in b])]
    fused = fuse(lists, FusionSettings(method=method))
    assert sorted(f.row for f in fused) == sorted({r for r, _ in a} | {r for r, _ in b})
    assert all(x.score >= y.score for x, y in zip(fused, fused[1:]))
    for f in fused:
        for name, pairs in (("bm25", a), ("dense", b)):
            rows = [r for r, _ in pairs]
            assert f.ranks.get(name) == (rows.index(f.row) + 1 if f.row in rows else None)
