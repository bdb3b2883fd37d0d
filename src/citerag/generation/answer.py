"""What the answer pipeline returns: plain, frozen, JSON-ready values."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import Enum
from typing import Any

from citerag.generation.language import Language
from citerag.generation.llm.base import Message


class AnswerMode(str, Enum):
    LLM = "llm"  # a model wrote the answer
    EXTRACTIVE = "extractive"  # sentences copied from the sources (no model configured)
    NOT_FOUND = "not_found"  # nothing relevant was retrieved; no model was called


class FlagKind(str, Enum):
    INVALID_CITATION = "invalid_citation"  # [n] names no provided source: removed
    UNCITED_SENTENCE = "uncited_sentence"  # a claim without any [n]
    UNSUPPORTED_CITATION = "unsupported_citation"  # the cited source barely shares its words
    PROMPT_INJECTION = "prompt_injection"  # a source addresses the model


@dataclass(frozen=True, slots=True)
class Flag:
    """One thing the user should look at. ``source``/``sentence`` are final numbers/indexes."""

    kind: FlagKind
    message: str
    source: int | None = None
    sentence: int | None = None
    detail: str = ""

    def to_json(self) -> dict[str, Any]:
        return {
            "kind": self.kind.value,
            "message": self.message,
            "source": self.source,
            "sentence": self.sentence,
            "detail": self.detail,
        }


@dataclass(frozen=True, slots=True)
class Source:
    """A retrieved chunk as shown to the model and to the user, under its number."""

    number: int
    chunk_id: str
    doc_id: str
    source: str  # file path or URL
    title: str
    headings: tuple[str, ...]
    page: int | None
    score: float
    text: str
    cited: bool = False
    injection: tuple[str, ...] = ()  # kinds of suspicious passages found in the text

    @property
    def label(self) -> str:
        """``title › heading › heading`` — how the source is named in prompt and output."""
        parts = [self.title or self.source or self.doc_id, *self.headings]
        seen: list[str] = []
        for part in parts:
            if part and part not in seen:
                seen.append(part)
        return " › ".join(seen)

    def to_json(self) -> dict[str, Any]:
        return {
            "number": self.number,
            "chunk_id": self.chunk_id,
            "doc_id": self.doc_id,
            "source": self.source,
            "title": self.title,
            "headings": list(self.headings),
            "page": self.page,
            "score": self.score,
            "cited": self.cited,
            "injection": list(self.injection),
            "text": self.text,
        }


@dataclass(frozen=True, slots=True)
class CutSource:
    """A retrieved chunk that did not reach the prompt, and why."""

    chunk_id: str
    source: str
    title: str
    score: float
    reason: str  # "below_min_score", "context_budget" or "weak_match" (offline: no sentence to quote)
    tokens: int = 0

    def to_json(self) -> dict[str, Any]:
        return {
            "chunk_id": self.chunk_id,
            "source": self.source,
            "title": self.title,
            "score": self.score,
            "reason": self.reason,
            "tokens": self.tokens,
        }


@dataclass(frozen=True, slots=True)
class CitationSupport:
    """How well one cited source backs one sentence."""

    source: int  # final number
    lemma_overlap: float  # share of the sentence's content lemmas found in the source
    embedding_similarity: float | None  # cosine, when an embedder is available
    supported: bool

    def to_json(self) -> dict[str, Any]:
        return {
            "source": self.source,
            "lemma_overlap": round(self.lemma_overlap, 4),
            "embedding_similarity": None
            if self.embedding_similarity is None
            else round(self.embedding_similarity, 4),
            "supported": self.supported,
        }


@dataclass(frozen=True, slots=True)
class SentenceCheck:
    """One sentence of the answer with its (renumbered) citations and their support."""

    index: int
    text: str
    citations: tuple[int, ...]
    support: tuple[CitationSupport, ...] = ()

    @property
    def cited(self) -> bool:
        return bool(self.citations)

    @property
    def best_support(self) -> float | None:
        return max((s.lemma_overlap for s in self.support), default=None)

    @property
    def supported(self) -> bool:
        return any(s.supported for s in self.support)

    def to_json(self) -> dict[str, Any]:
        return {
            "index": self.index,
            "text": self.text,
            "citations": list(self.citations),
            "supported": self.supported,
            "support": [s.to_json() for s in self.support],
        }


@dataclass(frozen=True, slots=True)
class CitationReport:
    """The check of every citation in the answer."""

    sentences: tuple[SentenceCheck, ...] = ()
    invalid: tuple[int, ...] = ()  # numbers the model used that named no source (removed)
    renumbering: Mapping[int, int] = field(default_factory=dict)  # prompt number -> final
    min_support: float = 0.0

    @property
    def uncited(self) -> tuple[int, ...]:
        return tuple(s.index for s in self.sentences if not s.cited)

    @property
    def unsupported(self) -> tuple[int, ...]:
        return tuple(s.index for s in self.sentences if s.cited and not s.supported)

    @property
    def coverage(self) -> float:
        """Share of sentences that carry at least one citation."""
        return sum(s.cited for s in self.sentences) / len(self.sentences) if self.sentences else 0.0

    @property
    def ok(self) -> bool:
        return not (self.invalid or self.uncited or self.unsupported)

    def to_json(self) -> dict[str, Any]:
        return {
            "ok": self.ok,
            "coverage": round(self.coverage, 4),
            "invalid": list(self.invalid),
            "uncited": list(self.uncited),
            "unsupported": list(self.unsupported),
            "renumbering": {str(k): v for k, v in self.renumbering.items()},
            "min_support": self.min_support,
            "sentences": [s.to_json() for s in self.sentences],
        }


@dataclass(frozen=True, slots=True)
class Timings:
    """Seconds spent in each stage."""

    retrieve: float = 0.0
    prompt: float = 0.0
    generate: float = 0.0
    check: float = 0.0

    @property
    def total(self) -> float:
        return self.retrieve + self.prompt + self.generate + self.check

    def to_json(self) -> dict[str, float]:
        return {
            "retrieve": round(self.retrieve, 4),
            "prompt": round(self.prompt, 4),
            "generate": round(self.generate, 4),
            "check": round(self.check, 4),
            "total": round(self.total, 4),
        }


@dataclass(frozen=True, slots=True)
class Answer:
    """Everything about one answered (or not found) question."""

    question: str
    text: str
    language: Language
    sources: tuple[Source, ...]
    citations: CitationReport
    not_found: bool
    flags: tuple[Flag, ...] = ()
    timings: Timings = Timings()
    cut_sources: tuple[CutSource, ...] = ()
    mode: AnswerMode = AnswerMode.LLM
    model: str | None = None
    raw_text: str = ""  # the model's reply before citations were checked
    prompt_tokens: int = 0  # size of the prompt, counted by ``token_counter``
    token_counter: str = ""
    prompt: tuple[Message, ...] = ()  # exactly what the model was sent (empty when none was)

    @property
    def cited_sources(self) -> tuple[Source, ...]:
        return tuple(s for s in self.sources if s.cited)

    def to_json(self) -> dict[str, Any]:
        return {
            "question": self.question,
            "answer": self.text,
            "language": self.language.value,
            "not_found": self.not_found,
            "mode": self.mode.value,
            "model": self.model,
            "sources": [s.to_json() for s in self.sources],
            "citations": self.citations.to_json(),
            "flags": [f.to_json() for f in self.flags],
            "cut_sources": [c.to_json() for c in self.cut_sources],
            "timings": self.timings.to_json(),
            "raw_answer": self.raw_text,
            "prompt": {
                "tokens": self.prompt_tokens,
                "counter": self.token_counter,
                "messages": [m.to_json() for m in self.prompt],
            },
        }
