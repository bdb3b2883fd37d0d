"""The offline answer: the source sentences that best answer the question, each with its [n].

Used when no model is configured, so ``citerag ask`` works on any machine.
A sentence is scored by the share of the question's content lemmas it
contains, plus half its embedding similarity to the question when an
embedder is available; ties go to the better-ranked source.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from rapidfuzz import fuzz

from citerag.generation.answer import Source
from citerag.generation.sentences import split_sentences, strip_bullet
from citerag.generation.support import SupportScorer

_END = re.compile(r"([.!?…]+)$")
MIN_WORDS = 3
MAX_WORDS = 80
NEAR_DUPLICATE = 90  # rapidfuzz ratio above which two sentences say the same
RELATIVE_FLOOR = 0.5  # a sentence scoring under half the best one is left out
EMBED_TOP = 12


@dataclass(frozen=True, slots=True)
class Candidate:
    source: int
    position: int
    text: str
    overlap: float
    similarity: float | None

    @property
    def score(self) -> float:
        return self.overlap + (0.5 * self.similarity if self.similarity is not None else 0.0)


def candidates(
    question: str, sources: Sequence[Source], scorer: SupportScorer, *, embed_top: int = EMBED_TOP
) -> list[Candidate]:
    """Usable sentences sharing a word with the question, scored against it.

    Only the ``embed_top`` best by lemma overlap are embedded: on a CPU each
    sentence costs tens of milliseconds, and the rest would not be chosen.
    """
    found: list[tuple[int, int, str, float]] = []
    for source in sources:
        for position, sentence in enumerate(split_sentences(source.text)):
            text = strip_bullet(sentence.text).strip()
            words = len(text.split())
            if text.startswith("#") or not MIN_WORDS <= words <= MAX_WORDS:
                continue
            if not _END.search(text) and words < 6:
                continue  # a heading or a label, not a statement
            overlap = scorer.overlap(question, text)
            if overlap > 0:
                found.append((source.number, position, text, overlap))
    found.sort(key=lambda f: (-f[3], f[0], f[1]))
    found = found[:embed_top] if scorer.embedder is not None else found
    sims = scorer.query_similarities(question, [f[2] for f in found])
    return [Candidate(n, pos, text, ov, sim) for (n, pos, text, ov), sim in zip(found, sims)]


def extractive_answer(
    question: str,
    sources: Sequence[Source],
    scorer: SupportScorer,
    *,
    max_sentences: int = 3,
) -> str:
    """Up to ``max_sentences`` best sentences with [n]; "" when none shares a word with the question."""
    ranked = sorted(
        candidates(question, sources, scorer),
        key=lambda c: (-c.score, c.source, c.position),
    )
    chosen: list[Candidate] = []
    for cand in ranked:
        if chosen and cand.score < RELATIVE_FLOOR * chosen[0].score:
            break  # far weaker than the best sentence: more likely noise than answer
        if len(chosen) >= max_sentences:
            break
        if any(fuzz.ratio(cand.text, c.text) >= NEAR_DUPLICATE for c in chosen):
            continue
        chosen.append(cand)
    return " ".join(_cite(c.text, c.source) for c in chosen)


def _cite(text: str, number: int) -> str:
    """``"… дней."`` → ``"… дней [1]."``: the marker goes before the closing punctuation."""
    text = " ".join(text.split())
    end = _END.search(text)
    if end:
        return f"{text[: end.start()]} [{number}]{end.group(1)}"
    return f"{text} [{number}]."
