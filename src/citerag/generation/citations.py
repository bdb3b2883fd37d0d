"""The citation check: valid numbers, renumbering, uncited and unsupported sentences."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, replace

from citerag.generation.answer import (
    CitationReport,
    CitationSupport,
    Flag,
    FlagKind,
    SentenceCheck,
    Source,
)
from citerag.generation.sentences import (
    CITATION,
    citation_numbers,
    split_sentences,
    strip_bullet,
    strip_citations,
)
from citerag.generation.support import SupportScorer


_LIST_LABEL = re.compile(
    r"^\W*(?:источники|источник|ссылки|литература|sources?|references?|citations?)\W*$", re.IGNORECASE
)


@dataclass(frozen=True, slots=True)
class CheckConfig:
    """When a citation counts as supported.

    ``min_support``: share of the sentence's content lemmas found in the cited
    source; 0.6 has the lowest balanced error on XQuAD question+answer claims
    (``bench/support.py``: 90-93 % of true citations pass, 4-5 % of citations
    of a same-topic wrong paragraph do). ``min_similarity``: a cosine that also counts as support when an
    embedder is available (paraphrases share few lemmas). It is off by
    default because cosines are not comparable across models: with e5-small
    an unrelated sentence and chunk of the same corpus already score about
    0.78 (median), related ones 0.85-0.88. The cosine is always reported; set
    a threshold after looking at ``citerag ask --json`` on your documents.
    """

    min_support: float = 0.6
    min_similarity: float | None = None


@dataclass(frozen=True, slots=True)
class CheckedText:
    text: str  # the answer with invalid markers removed and numbers renumbered
    sources: tuple[Source, ...]  # renumbered to match: cited first, then the rest
    report: CitationReport
    flags: tuple[Flag, ...]


def check_citations(
    text: str,
    sources: Sequence[Source],
    scorer: SupportScorer,
    config: CheckConfig = CheckConfig(),
    *,
    flag_uncited: bool = True,
) -> CheckedText:
    """Check ``text`` against the numbered ``sources`` it was written from."""
    valid = {s.number for s in sources}
    invalid: list[int] = []
    order: dict[int, int] = {}  # prompt number -> final number, by first appearance
    for match in CITATION.finditer(text):
        for n in citation_numbers(match.group(1)):
            if n in valid:
                order.setdefault(n, len(order) + 1)
            elif n not in invalid:
                invalid.append(n)

    def rewrite(match: re.Match[str]) -> str:
        numbers = dict.fromkeys(order[n] for n in citation_numbers(match.group(1)) if n in order)
        return "".join(f"[{n}]" for n in numbers)

    new_text = CITATION.sub(rewrite, text)
    new_text = re.sub(r"[ \t]+([.,;:!?…])", r"\1", re.sub(r"[ \t]{2,}", " ", new_text)).strip()

    renumbered = _renumber(sources, order)
    final = {s.number: s for s in renumbered}
    checks, flags = _check_sentences(new_text, final, scorer, config, flag_uncited)
    flags = [
        Flag(
            FlagKind.INVALID_CITATION,
            f"[{n}] names no source (there were {len(sources)}); removed",
            detail=str(n),
        )
        for n in invalid
    ] + flags
    report = CitationReport(
        sentences=tuple(checks),
        invalid=tuple(invalid),
        renumbering=dict(order),
        min_support=config.min_support,
    )
    return CheckedText(new_text, renumbered, report, tuple(flags))


def _renumber(sources: Sequence[Source], order: dict[int, int]) -> tuple[Source, ...]:
    cited = sorted((s for s in sources if s.number in order), key=lambda s: order[s.number])
    rest = [s for s in sources if s.number not in order]
    out = [replace(s, number=order[s.number], cited=True) for s in cited]
    out += [replace(s, number=len(cited) + i, cited=False) for i, s in enumerate(rest, 1)]
    return tuple(out)


def _check_sentences(
    text: str,
    sources: dict[int, Source],
    scorer: SupportScorer,
    config: CheckConfig,
    flag_uncited: bool,
) -> tuple[list[SentenceCheck], list[Flag]]:
    pending: list[tuple[int, str, tuple[int, ...]]] = []
    for sentence in split_sentences(text):
        numbers = tuple(
            dict.fromkeys(
                n for m in CITATION.finditer(sentence.text) for n in citation_numbers(m.group(1))
            )
        )
        claim = strip_bullet(strip_citations(sentence.text))
        if not claim or not scorer.terms(claim):
            continue  # only markers or only stop words: nothing to check
        if not numbers and claim.rstrip().endswith(":"):
            continue  # "Порядок такой:" introduces a list; the items carry the claims
        if _LIST_LABEL.match(claim):
            continue  # "Источники: [1], [2]" lists sources, it claims nothing
        pending.append((len(pending), claim, numbers))

    pairs = [(claim, sources[n].text) for _, claim, numbers in pending for n in numbers]
    sims = iter(scorer.similarities(pairs))
    checks: list[SentenceCheck] = []
    flags: list[Flag] = []
    for index, claim, numbers in pending:
        support = []
        for n in numbers:
            overlap = scorer.overlap(claim, sources[n].text)
            sim = next(sims)
            ok = overlap >= config.min_support or (
                sim is not None and config.min_similarity is not None and sim >= config.min_similarity
            )
            support.append(CitationSupport(n, overlap, sim, ok))
            if not ok:
                flags.append(
                    Flag(
                        FlagKind.UNSUPPORTED_CITATION,
                        f"sentence {index + 1} cites [{n}], which shares only {overlap:.0%} of its words",
                        source=n,
                        sentence=index,
                        detail=claim,
                    )
                )
        checks.append(SentenceCheck(index, claim, numbers, tuple(support)))
        if not numbers and flag_uncited:
            flags.append(
                Flag(
                    FlagKind.UNCITED_SENTENCE,
                    f"sentence {index + 1} cites no source",
                    sentence=index,
                    detail=claim,
                )
            )
    return checks, flags
