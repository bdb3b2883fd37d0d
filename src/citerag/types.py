"""Plain values that flow between the pipeline stages.

Load -> ``Document``; chunk -> ``Chunk``; retrieve -> ``Hit``. They are frozen
so that no stage can change what an earlier stage produced: a stage that
needs a different value builds a new one (``dataclasses.replace``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, Mapping


def _frozen_mapping(value: Mapping[str, Any] | None) -> Mapping[str, Any]:
    return MappingProxyType(dict(value or {}))


@dataclass(frozen=True, slots=True)
class Document:
    """One source file (or one record) as loaded, before chunking."""

    id: str
    text: str
    source: str = ""
    title: str = ""
    metadata: Mapping[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        object.__setattr__(self, "metadata", _frozen_mapping(self.metadata))


@dataclass(frozen=True, slots=True)
class Chunk:
    """A retrievable span of a document.

    ``start``/``end`` are character offsets into the document text, so the
    exact span can be shown and highlighted. ``text`` is what is indexed and
    may carry a prefix (e.g. the heading path) that is not in the document.
    """

    id: str
    text: str
    doc_id: str = ""
    ordinal: int = 0
    start: int = 0
    end: int = 0
    metadata: Mapping[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        object.__setattr__(self, "metadata", _frozen_mapping(self.metadata))

    @property
    def source(self) -> str:
        return str(self.metadata.get("source", ""))

    @property
    def headings(self) -> tuple[str, ...]:
        return tuple(self.metadata.get("headings", ()) or ())

    @property
    def length(self) -> int:
        """Characters of the document span (a retrieval prefix is not counted)."""
        return self.end - self.start

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "text": self.text,
            "doc_id": self.doc_id,
            "ordinal": self.ordinal,
            "start": self.start,
            "end": self.end,
            "length": self.length,
            "metadata": dict(self.metadata),
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> "Chunk":
        return cls(
            id=str(data["id"]),
            text=str(data["text"]),
            doc_id=str(data.get("doc_id", "")),
            ordinal=int(data.get("ordinal", 0)),
            start=int(data.get("start", 0)),
            end=int(data.get("end", 0)),
            metadata=data.get("metadata") or {},
        )


@dataclass(frozen=True, slots=True)
class Hit:
    """A chunk found for a query, with its score and how each retriever saw it.

    ``scores``/``ranks`` hold every retriever's own view (e.g. ``{"bm25": 7.1,
    "dense": 0.83}``) beside the final ``score``, so results can be explained.
    """

    chunk: Chunk
    score: float
    rank: int = 0
    scores: Mapping[str, float] = field(default_factory=dict)
    ranks: Mapping[str, int] = field(default_factory=dict)
    matched_terms: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        object.__setattr__(self, "scores", _frozen_mapping(self.scores))
        object.__setattr__(self, "ranks", _frozen_mapping(self.ranks))

    def to_json(self) -> dict[str, Any]:
        return {
            "rank": self.rank,
            "score": self.score,
            "scores": dict(self.scores),
            "ranks": dict(self.ranks),
            "matched_terms": list(self.matched_terms),
            "chunk": self.chunk.to_json(),
        }
