"""Rerankers: rescore the first ``top_k_retrieve`` hits with a slower, better
judge and keep the best ``top_k_final``.

* ``CrossEncoderReranker``: a local sentence-transformers cross-encoder
  directory (optional extra ``st``).
* ``LLMReranker``: a chat model rates each passage's relevance 0–10
  (any ``citerag.generation.llm`` client).
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any, Protocol

import numpy as np

from citerag.errors import GenerationError, InvalidInput
from citerag.types import Hit


class Reranker(Protocol):
    name: str

    def score(self, query: str, texts: Sequence[str]) -> np.ndarray:
        """One relevance score per text (higher is better)."""
        ...


def rerank(query: str, hits: Sequence[Hit], reranker: Reranker, top_k: int | None = None) -> list[Hit]:
    """Hits reordered by the reranker's score; the previous rank and score are kept
    in ``ranks["retrieval"]`` / ``scores["retrieval"]``; ties keep the old order."""
    if not hits:
        return []
    values = np.asarray(reranker.score(query, [h.chunk.text for h in hits]), dtype=np.float64)
    if values.shape != (len(hits),):
        raise InvalidInput(
            f"reranker {reranker.name!r} gave {values.shape} scores for {len(hits)} passages"
        )
    order = sorted(range(len(hits)), key=lambda i: (-values[i], i))
    out = []
    for new_rank, i in enumerate(order[: top_k or len(hits)], 1):
        h = hits[i]
        out.append(
            replace(
                h,
                score=float(values[i]),
                rank=new_rank,
                scores={**h.scores, "retrieval": h.score, "rerank": float(values[i])},
                ranks={**h.ranks, "retrieval": h.rank, "rerank": new_rank},
            )
        )
    return out


class CrossEncoderReranker:
    def __init__(self, path: str | Path, *, batch_size: int = 16, max_length: int = 512) -> None:
        self.path = Path(path)
        self.name = f"cross-encoder:{self.path.name}"
        self.batch_size = batch_size
        self.max_length = max_length
        self._model: Any = None

    def _load(self) -> Any:
        if self._model is None:
            if not self.path.is_dir():
                raise InvalidInput(f"cross-encoder model directory {str(self.path)!r} does not exist")
            try:
                from sentence_transformers import CrossEncoder
            except ImportError as e:
                raise InvalidInput(
                    "the cross-encoder reranker needs sentence-transformers: pip install 'citerag[st]'"
                ) from e
            self._model = CrossEncoder(str(self.path), device="cpu", max_length=self.max_length)
        return self._model

    def score(self, query: str, texts: Sequence[str]) -> np.ndarray:
        pairs = [(query, t) for t in texts]
        scores = self._load().predict(pairs, batch_size=self.batch_size, show_progress_bar=False)
        return np.asarray(scores, dtype=np.float64).reshape(len(texts))


_SYSTEM = (
    "You judge search results. For each numbered passage, rate how well it answers "
    "the question: 0 = unrelated, 10 = answers it fully. Reply with JSON only: "
    '{"scores": [<one integer per passage, in order>]}'
)
_SCHEMA = {
    "type": "object",
    "properties": {"scores": {"type": "array", "items": {"type": "number"}}},
    "required": ["scores"],
}


class LLMReranker:
    """Scores passages in small groups (one chat call per group)."""

    def __init__(self, client: Any, *, group_size: int = 8, max_chars: int = 1200) -> None:
        self.client = client
        self.name = f"llm:{getattr(client, 'name', 'model')}"
        self.group_size = group_size
        self.max_chars = max_chars

    def score(self, query: str, texts: Sequence[str]) -> np.ndarray:
        out: list[float] = []
        for start in range(0, len(texts), self.group_size):
            out.extend(self._score_group(query, texts[start : start + self.group_size]))
        return np.asarray(out, dtype=np.float64)

    def _score_group(self, query: str, texts: Sequence[str]) -> list[float]:
        from citerag.generation.llm.base import Message

        passages = "\n\n".join(
            f"[{i}] {' '.join(t.split())[: self.max_chars]}" for i, t in enumerate(texts, 1)
        )
        messages = [
            Message("system", _SYSTEM),
            Message("user", f"Question: {query}\n\nPassages:\n{passages}"),
        ]
        reply = self.client.chat(messages, temperature=0.0, json_schema=_SCHEMA)
        return parse_scores(reply, len(texts), self.name)


def parse_scores(reply: str, n: int, name: str = "llm") -> list[float]:
    """Scores from a JSON reply, or the first ``n`` numbers of a free-text one."""
    values: list[Any] | None = None
    match = re.search(r"\{.*\}", reply, re.DOTALL)
    if match:
        try:
            data = json.loads(match.group(0))
            values = data.get("scores") if isinstance(data, dict) else None
        except json.JSONDecodeError:
            values = None
    if values is None:
        values = re.findall(r"-?\d+(?:\.\d+)?", reply)
    try:
        numbers = [float(v) for v in values][:n]
    except (TypeError, ValueError):
        numbers = []
    if len(numbers) != n:
        raise GenerationError(
            f"reranker {name} gave {len(numbers)} scores for {n} passages: {reply[:120]!r}"
        )
    return numbers


RERANKER_SPECS = ("cross-encoder:<model dir>", "llm:<openai|ollama>:<model>")


def make_reranker(spec: str) -> Reranker:
    """``cross-encoder:<path>`` or ``llm:<llm spec>`` (e.g. ``llm:ollama:qwen2.5``)."""
    kind, _, arg = spec.strip().partition(":")
    if kind == "cross-encoder" and arg:
        return CrossEncoderReranker(arg)
    if kind == "llm" and arg:
        from citerag.generation.llm import make_llm

        client = make_llm(arg)
        if client is None:
            raise InvalidInput(f"reranker {spec!r} names no model: use llm:<openai|ollama>:<model>")
        return LLMReranker(client)
    raise InvalidInput(f"unknown reranker {spec!r}: use one of {', '.join(RERANKER_SPECS)}")
