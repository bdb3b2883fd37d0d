"""Minimum scores: per retriever (before fusion) and on the fused score.

When nothing passes, the search result is explicitly empty, which answering
turns into "not found" instead of citing weak matches.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from citerag.errors import InvalidInput
from citerag.retrieval.candidates import Candidates


@dataclass(frozen=True, slots=True)
class Thresholds:
    per_retriever: Mapping[str, float] = field(default_factory=dict)  # e.g. {"dense": 0.8}
    fused: float | None = None

    def apply(self, candidates: Candidates) -> Candidates:
        return candidates.above(self.per_retriever.get(candidates.name))

    def passes_fused(self, score: float) -> bool:
        return self.fused is None or score >= self.fused

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
