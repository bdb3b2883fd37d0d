"""Minimum scores: per retriever and on the fused score.

A per-retriever threshold applies to every hit, also to hits that retriever
did not rank itself (their score is computed for the check): ``dense=0.82``
keeps only hits whose cosine with the query reaches 0.82, whichever
retriever found them. That makes it a "not found" rule: measured on the
benchmark sets, the e5 cosine of the best hit separates answerable from
unanswerable questions better than fused scores, which are relative to each
query's candidates (see bench/dense.py). Thresholds on retrievers that took
no part in a search are ignored.

When nothing passes, the search result is explicitly empty, which answering
turns into "not found" instead of citing weak matches.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from dataclasses import dataclass, field

from citerag.errors import InvalidInput


@dataclass(frozen=True, slots=True)
class Thresholds:
    per_retriever: Mapping[str, float] = field(default_factory=dict)  # e.g. {"dense": 0.8}
    fused: float | None = None

    def passes(self, fused: float, scores: Mapping[str, float], retrievers: Collection[str]) -> bool:
        """Does a hit pass? ``retrievers`` took part in the search; a score
        missing for one of them fails its threshold."""
        if self.fused is not None and fused < self.fused:
            return False
        return all(
            scores.get(name, float("-inf")) >= minimum
            for name, minimum in self.per_retriever.items()
            if name in retrievers
        )

    @property
    def active(self) -> bool:
        return bool(self.per_retriever) or self.fused is not None


def parse_threshold(text: str) -> tuple[str, float]:
    """``"dense=0.8"`` → ``("dense", 0.8)``; ``"0.02"`` → ``("fused", 0.02)``."""
    name, sep, value = text.partition("=")
    if not sep:
        name, value = "fused", text
    try:
        return name.strip(), float(value)
    except ValueError:
        raise InvalidInput(
            f"threshold {text!r} is not <retriever>=<number> or <number>, e.g. dense=0.8"
        ) from None
