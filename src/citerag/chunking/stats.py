"""Length statistics and a histogram of chunks, for choosing a size sensibly."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import asdict, dataclass
from typing import Any

import numpy as np

from citerag.errors import InvalidInput
from citerag.types import Chunk


@dataclass(frozen=True)
class LengthSummary:
    """min / median / p95 / max (and mean) of a set of lengths."""

    min: int
    median: float
    p95: float
    max: int
    mean: float

    @classmethod
    def of(cls, lengths: Sequence[int]) -> "LengthSummary":
        if not lengths:
            return cls(0, 0.0, 0.0, 0, 0.0)
        values = np.asarray(lengths, dtype=np.int64)
        return cls(
            min=int(values.min()),
            median=float(np.median(values)),
            p95=float(np.percentile(values, 95)),
            max=int(values.max()),
            mean=float(values.mean()),
        )


@dataclass(frozen=True)
class Histogram:
    """``counts[i]`` lengths fall in ``[edges[i], edges[i + 1])`` (the last bin is closed)."""

    edges: list[float]
    counts: list[int]


@dataclass(frozen=True)
class ChunkStats:
    """How many chunks, how long in characters (of the indexed text) and in words."""

    count: int
    documents: int
    chars: LengthSummary
    words: LengthSummary
    char_lengths: tuple[int, ...]
    word_lengths: tuple[int, ...]

    def histogram(self, bins: int = 20, unit: str = "chars") -> Histogram:
        return length_histogram(self.char_lengths if unit == "chars" else self.word_lengths, bins)

    def to_json(self) -> dict[str, Any]:
        return {
            "count": self.count,
            "documents": self.documents,
            "chars": asdict(self.chars),
            "words": asdict(self.words),
        }


def chunk_stats(chunks: Sequence[Chunk]) -> ChunkStats:
    """Statistics of the chunks' text as indexed (heading prefix included)."""
    chars = tuple(len(c.text) for c in chunks)
    words = tuple(len(c.text.split()) for c in chunks)
    return ChunkStats(
        count=len(chunks),
        documents=len({c.doc_id for c in chunks}),
        chars=LengthSummary.of(chars),
        words=LengthSummary.of(words),
        char_lengths=chars,
        word_lengths=words,
    )


def length_histogram(lengths: Sequence[int], bins: int = 20) -> Histogram:
    """Equal-width bins from the shortest to the longest length."""
    if isinstance(bins, bool) or not isinstance(bins, int) or bins < 1:
        raise InvalidInput(f"histogram bins must be a whole number >= 1, got {bins!r}")
    if not lengths:
        return Histogram(edges=[0.0, 1.0], counts=[0])
    values = np.asarray(lengths, dtype=np.int64)
    low, high = int(values.min()), int(values.max())
    if low == high:
        return Histogram(edges=[float(low), float(high + 1)], counts=[len(values)])
    counts, edges = np.histogram(values, bins=min(bins, high - low + 1), range=(low, high))
    return Histogram(edges=[float(e) for e in edges], counts=[int(c) for c in counts])
