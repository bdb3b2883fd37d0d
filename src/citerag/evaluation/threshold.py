"""The "not found" threshold: how it errs on answerable and unanswerable questions.

A question is answered when its best hit scores at least the threshold,
otherwise the system says "not found". Two errors follow: a *false answer*
(an unanswerable question gets an answer) and a *false refusal* (an
answerable question is refused). ``best_threshold`` minimises their mean.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from citerag.errors import InvalidInput

NO_HIT = float("-inf")  # the best score of a query that retrieved nothing: always refused


@dataclass(frozen=True)
class ThresholdOutcome:
    """Error rates of one threshold on a labelled set."""

    threshold: float
    false_answer_rate: float  # share of unanswerable questions that were answered
    false_refusal_rate: float  # share of answerable questions that were refused
    n_positive: int
    n_negative: int

    @property
    def balanced_error(self) -> float:
        return (self.false_answer_rate + self.false_refusal_rate) / 2

    def to_json(self) -> dict[str, float | int]:
        return {
            "threshold": self.threshold,
            "false_answer_rate": self.false_answer_rate,
            "false_refusal_rate": self.false_refusal_rate,
            "balanced_error": self.balanced_error,
            "n_positive": self.n_positive,
            "n_negative": self.n_negative,
        }


def outcome_at(
    threshold: float, positive_scores: Sequence[float], negative_scores: Sequence[float]
) -> ThresholdOutcome:
    """Error rates when answering every question whose best score is >= threshold."""
    refused = sum(1 for s in positive_scores if s < threshold)
    answered = sum(1 for s in negative_scores if s >= threshold)
    return ThresholdOutcome(
        threshold=threshold,
        false_answer_rate=answered / len(negative_scores) if negative_scores else 0.0,
        false_refusal_rate=refused / len(positive_scores) if positive_scores else 0.0,
        n_positive=len(positive_scores),
        n_negative=len(negative_scores),
    )


def candidate_thresholds(scores: Sequence[float]) -> list[float]:
    """Midpoints between neighbouring distinct scores, plus one below and one above all.

    Midpoints keep a margin on both sides, so the choice does not sit exactly
    on one question's score and flip with the smallest change.
    """
    finite = sorted({s for s in scores if s != NO_HIT})
    if not finite:
        return [0.0]
    spread = (finite[-1] - finite[0]) or 1.0
    mids = [(a + b) / 2 for a, b in zip(finite, finite[1:])]
    return [finite[0] - 0.01 * spread, *mids, finite[-1] + 0.01 * spread]


def sweep(positive_scores: Sequence[float], negative_scores: Sequence[float]) -> list[ThresholdOutcome]:
    """The outcome of every candidate threshold, lowest threshold first."""
    return [
        outcome_at(t, positive_scores, negative_scores)
        for t in candidate_thresholds([*positive_scores, *negative_scores])
    ]


def best_threshold(positive_scores: Sequence[float], negative_scores: Sequence[float]) -> ThresholdOutcome:
    """The threshold with the lowest mean of false-answer and false-refusal rates.

    Among equally good thresholds the middle one is taken (largest margin).
    """
    if not positive_scores or not negative_scores:
        raise InvalidInput(
            f"tuning needs both answerable and unanswerable questions, got {len(positive_scores)} "
            f"answerable and {len(negative_scores)} unanswerable; add negatives with "
            "`citerag questions negatives`"
        )
    outcomes = sweep(positive_scores, negative_scores)
    best = min(o.balanced_error for o in outcomes)
    tied = [o for o in outcomes if o.balanced_error <= best + 1e-12]
    return tied[(len(tied) - 1) // 2]
