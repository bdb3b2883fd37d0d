"""Fusing several retrievers' ranked lists into one.

* ``rrf``: reciprocal rank fusion, ``sum_i w_i / (k + rank_i)``; only ranks
  matter, so score scales never need calibrating.
* ``zscore`` (default) / ``minmax``: each list's scores are standardised (or
  scaled to [0, 1]) over its own candidates, then summed with weights. A
  candidate a retriever did not return counts as that list's lowest
  normalised score. Unlike RRF this keeps how far ahead a clear winner is;
  it measured better on every benchmark set (see bench/dense.py).

Every fused item keeps each retriever's own score and 1-based rank.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

import numpy as np

from citerag.choices import Choice
from citerag.errors import InvalidInput
from citerag.retrieval.candidates import Candidates


class FusionMethod(Choice):
    RRF = "rrf"
    ZSCORE = "zscore"
    MINMAX = "minmax"

    @classmethod
    def kind(cls) -> str:
        return "fusion method"


@dataclass(frozen=True, slots=True)
class FusionSettings:
    method: FusionMethod = FusionMethod.ZSCORE
    rrf_k: float = 60.0
    weights: Mapping[str, float] = field(default_factory=dict)  # retriever -> weight (default 1)

    def __post_init__(self) -> None:
        object.__setattr__(self, "method", FusionMethod.parse(self.method))
        if self.rrf_k < 0:
            raise InvalidInput(f"RRF k must be 0 or more, got {self.rrf_k}")
        bad = {name: w for name, w in self.weights.items() if w < 0}
        if bad:
            raise InvalidInput(f"fusion weights must not be negative: {bad}")

    def weight(self, name: str) -> float:
        return float(self.weights.get(name, 1.0))


@dataclass(frozen=True, slots=True)
class Fused:
    row: int
    score: float
    scores: dict[str, float]
    ranks: dict[str, int]


def _normalised(scores: np.ndarray, method: FusionMethod) -> tuple[np.ndarray, float]:
    """Normalised scores and the value a missing candidate gets."""
    s = scores.astype(np.float64)
    if s.size == 0:
        return s, 0.0
    spread = s.max() - s.min()
    if spread == 0:
        # One candidate (or all tied): being returned still beats being missing.
        return np.ones_like(s), 0.0
    if method is FusionMethod.MINMAX:
        return (s - s.min()) / spread, 0.0
    z = (s - s.mean()) / s.std()
    return z, float(z.min())


def fuse(lists: Sequence[Candidates], settings: FusionSettings | None = None) -> list[Fused]:
    """One list, best first; ties broken by the best single-retriever rank, then row."""
    cfg = settings or FusionSettings()
    scores: dict[int, dict[str, float]] = {}
    ranks: dict[int, dict[str, int]] = {}
    contrib: dict[str, dict[int, float]] = {}
    floors: dict[str, float] = {}
    for cands in lists:
        if cfg.method is FusionMethod.RRF:
            values = 1.0 / (cfg.rrf_k + np.arange(1, len(cands) + 1, dtype=np.float64))
            floors[cands.name] = 0.0
        else:
            values, floors[cands.name] = _normalised(cands.scores, cfg.method)
        contrib[cands.name] = {}
        for rank, (row, raw, value) in enumerate(zip(cands.rows.tolist(), cands.scores.tolist(), values), 1):
            scores.setdefault(row, {})[cands.name] = float(raw)
            ranks.setdefault(row, {})[cands.name] = rank
            contrib[cands.name][row] = float(value)
    fused = []
    for row in scores:
        total = sum(
            cfg.weight(name) * contrib[name].get(row, floors[name]) for name in contrib
        )
        fused.append(Fused(row=row, score=total, scores=scores[row], ranks=ranks[row]))
    fused.sort(key=lambda f: (-f.score, min(f.ranks.values()), f.row))
    return fused
