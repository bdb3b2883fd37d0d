"""The offline answer: the source sentences that best answer the question, each with its [n].

Used when no model is configured, so ``citerag ask`` works on any machine.
A sentence is scored by the share of the question's content lemmas it
contains (the best one must hold a third of them and at least two, else
"not found"), plus half its embedding similarity to the question when an
embedder is available, plus a little for a matching heading path; ties go
to the better-ranked source.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, replace

from rapidfuzz import fuzz

from citerag.generation.answer import Source
from citerag.generation.sentences import BULLET, split_sentences, strip_bullet
from citerag.generation.support import SupportScorer

_END = re.compile(r"([.!?…]+)$")
MIN_WORDS = 3
MAX_WORDS = 80
NEAR_DUPLICATE = 90  # rapidfuzz ratio above which two sentences say the same
RELATIVE_FLOOR = 0.5  # a sentence scoring under half the best one is left out
EMBED_TOP = 12
MAX_ITEMS = 8  # list items joined to the sentence that introduces them
SECTION_WEIGHT = 0.3  # a sentence under a heading that matches the question is preferred


@dataclass(frozen=True, slots=True)
class Candidate:
    source: int
    position: int
    text: str
    overlap: float  # share of the question's lemmas in the sentence
    similarity: float | None  # embedding cosine with the question
    section: float = 0.0  # share of the question's lemmas in the source's heading path

    @property
    def score(self) -> float:
        sim = 0.5 * self.similarity if self.similarity is not None else 0.0
        return self.overlap + sim + SECTION_WEIGHT * self.section


def statements(text: str) -> list[tuple[int, str]]:
    """Sentences fit to quote, by position; a sentence ending in ":" takes the list after it.

    "Суточные выплачиваются: - 700 ₽ …; - 2 500 ₽ …" is one statement: its
    items alone lose the subject, the intro alone loses the numbers.
    """
    sentences = split_sentences(text)
    out: list[tuple[int, str]] = []
    i = 0
    while i < len(sentences):
        body = strip_bullet(sentences[i].text).strip()
        j = i + 1
        if body.endswith(":"):
            items = []
            while j < len(sentences) and BULLET.match(sentences[j].text) and len(items) < MAX_ITEMS:
                items.append(strip_bullet(sentences[j].text).strip().rstrip(".;,"))
                j += 1
            if items:
                body = f"{body} {'; '.join(items)}."
        words = len(body.split())
        heading = body.startswith("#") or (not _END.search(body) and words < 6)
        if MIN_WORDS <= words <= MAX_WORDS and not heading:
            out.append((i, body))
        i = j if body.endswith(".") and j > i + 1 else i + 1
    return out


def candidates(
    question: str, sources: Sequence[Source], scorer: SupportScorer, *, embed_top: int = EMBED_TOP
) -> list[Candidate]:
    """Usable sentences sharing a word with the question, scored against it.

    Only the ``embed_top`` best by lemma overlap are embedded: on a CPU each
    sentence costs tens of milliseconds, and the rest would not be chosen.
    """
    found: list[Candidate] = []
    for source in sources:
        section = scorer.overlap(question, " ".join(source.headings)) if source.headings else 0.0
        for position, text in statements(source.text):
            overlap = scorer.overlap(question, text)
            if overlap > 0:
                found.append(Candidate(source.number, position, text, overlap, None, section))
    found.sort(key=lambda c: (-c.score, c.source, c.position))
    found = found[:embed_top] if scorer.embedder is not None else found
    sims = scorer.query_similarities(question, [c.text for c in found])
    return [replace(c, similarity=sim) for c, sim in zip(found, sims)]


def extractive_answer(
    question: str,
    sources: Sequence[Source],
    scorer: SupportScorer,
    *,
    max_sentences: int = 3,
    min_overlap: float = 0.0,
    min_terms: int = 1,
) -> str:
    """Up to ``max_sentences`` best sentences with [n].

    "" (not found) when no sentence holds at least ``min_overlap`` of the
    question's content lemmas and at least ``min_terms`` of them (fewer when
    the question has fewer): then the sources share only a word with the
    question ("refund policy" vs "the policy is effective…"), and quoting
    them would answer something else.
    """
    ranked = sorted(
        candidates(question, sources, scorer),
        key=lambda c: (-c.score, c.source, c.position),
    )
    n_terms = len(scorer.terms(question))
    need = min(min_terms, n_terms) / n_terms if n_terms else 0.0
    if not ranked or max(c.overlap for c in ranked) < max(min_overlap, need) - 1e-9:
        return ""
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
    text = " ".join(text.split()).rstrip(":;,")
    text = text[:1].upper() + text[1:]  # list items often start in lower case
    end = _END.search(text)
    if end:
        return f"{text[: end.start()]} [{number}]{end.group(1)}"
    return f"{text} [{number}]."
