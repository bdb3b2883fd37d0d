"""Answer-level metrics: are the citations real and supported, and is "not found" said when it should be.

Runs the answer pipeline (``citerag.generation.Pipeline``; a model if one is
configured, else extractive answers) over answerable and unanswerable
questions and counts, over all answers:

- valid citations: citation numbers that named a real source, out of all the
  model wrote (invalid ones are removed by the citation check);
- supported sentences: cited sentences whose sources back them up;
- cites a labelled chunk: answers that cite one of the question's relevant chunks;
- "not found" accuracy: unanswerable questions answered "not found", and
  answerable questions wrongly refused.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np

from citerag.errors import EmptyQuery

Progress = Callable[[int, int], None]


@dataclass(frozen=True)
class AnswerMetrics:
    n_positive: int
    n_negative: int
    valid_citation_share: float
    supported_sentence_share: float
    cites_labelled_chunk: float  # share of answered, answerable questions citing a relevant chunk
    not_found_on_negatives: float  # correct: unanswerable questions refused
    not_found_on_positives: float  # wrong: answerable questions refused
    latency_p50_ms: float

    def to_extra(self) -> dict[str, float]:
        """Flat figures for ``ConfigResult.extra`` (and the JSON report)."""
        return {
            "answers.valid_citation_share": self.valid_citation_share,
            "answers.supported_sentence_share": self.supported_sentence_share,
            "answers.cites_labelled_chunk": self.cites_labelled_chunk,
            "answers.not_found_on_negatives": self.not_found_on_negatives,
            "answers.not_found_on_positives": self.not_found_on_positives,
            "answers.latency_p50_ms": self.latency_p50_ms,
            "answers.n_positive": float(self.n_positive),
            "answers.n_negative": float(self.n_negative),
        }


def _share(part: int, whole: int) -> float:
    return part / whole if whole else 0.0


def evaluate_answers(
    pipeline: Any,
    queries: Mapping[str, str],
    qrels: Mapping[str, Mapping[str, int]],
    negatives: Mapping[str, str] | None = None,
    *,
    progress: Progress | None = None,
) -> AnswerMetrics:
    """Answer every question with ``pipeline`` (a ``citerag.generation.Pipeline``) and score the answers."""
    negatives = dict(negatives or {})
    valid = invalid = cited_sentences = supported = 0
    answered = hits_label = refused_pos = refused_neg = 0
    seconds: list[float] = []
    every = [(qid, text, False) for qid, text in queries.items()] + [
        (qid, text, True) for qid, text in negatives.items()
    ]
    for done, (qid, text, negative) in enumerate(every, start=1):
        started = time.perf_counter()
        try:
            answer = pipeline.answer(text)
        except EmptyQuery:
            answer = None  # nothing to search for: the system cannot but refuse
        seconds.append(time.perf_counter() - started)
        not_found = answer is None or answer.not_found
        if negative:
            refused_neg += not_found
        elif not_found:
            refused_pos += 1
        else:
            answered += 1
            relevant = {c for c, rel in qrels.get(qid, {}).items() if rel > 0}
            hits_label += any(s.chunk_id in relevant for s in answer.cited_sources)
        if answer is not None:
            report = answer.citations
            valid += sum(len(s.citations) for s in report.sentences)
            invalid += len(report.invalid)
            cited = [s for s in report.sentences if s.cited]
            cited_sentences += len(cited)
            supported += sum(s.supported for s in cited)
        if progress is not None:
            progress(done, len(every))
    return AnswerMetrics(
        n_positive=len(queries),
        n_negative=len(negatives),
        valid_citation_share=_share(valid, valid + invalid),
        supported_sentence_share=_share(supported, cited_sentences),
        cites_labelled_chunk=_share(hits_label, answered),
        not_found_on_negatives=_share(refused_neg, len(negatives)),
        not_found_on_positives=_share(refused_pos, len(queries)),
        latency_p50_ms=float(np.percentile(seconds, 50) * 1000.0) if seconds else 0.0,
    )
