"""Calibrating the offline answer's "not found" gate.

The extractive answer is given only when its best sentence holds a share of
the question's content lemmas (and a minimum number of them). This script
measures, for several gates, the share of questions that get an answer:

- asked of their own corpus (XQuAD-ru, XQuAD-en): should be high;
- asked of documents that do not answer them (the bundled sample documents;
  SciFact questions asked of XQuAD-en): should be low.

    python bench/not_found.py
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from answers import DEFAULT_BENCH_DIR, build  # noqa: E402

from citerag import Index  # noqa: E402
from citerag.data import sample_dir  # noqa: E402
from citerag.evaluation.beir import load_beir  # noqa: E402
from citerag.generation import Pipeline  # noqa: E402
from citerag.generation.extractive import candidates  # noqa: E402
from citerag.generation.language import detect_language  # noqa: E402
from citerag.generation.prompt import build_prompt  # noqa: E402

GATES = (("any shared lemma", 1e-6, 0), ("1/4", 1 / 4, 0), ("1/3", 1 / 3, 0), ("1/3 + 2 lemmas", 1 / 3, 2), ("0.4", 0.4, 0))


def best_overlap(pipe: Pipeline, question: str) -> tuple[float, int]:
    """Coverage of the question by its best candidate sentence, and the question's lemma count."""
    hits = pipe.index.search(question, k=pipe.config.k)
    if not hits:
        return 0.0, 1
    language = detect_language(question)
    sources = build_prompt(question, hits, language=language, context_tokens=pipe.config.context_tokens).sources
    found = candidates(question, sources, pipe.scorer)
    return max((c.overlap for c in found), default=0.0), len(pipe.scorer.terms(question))


def answered(values: list[tuple[float, int]], share: float, terms: int) -> float:
    ok = [o >= share - 1e-9 and (n == 0 or round(o * n) >= min(terms, n)) for o, n in values]
    return sum(ok) / len(ok)


def main() -> None:
    sample = Pipeline(Index.build([sample_dir()]))
    rows: dict[str, list[tuple[float, int]]] = {}
    for name in ("xquad-ru", "xquad-en"):
        index, data = build(DEFAULT_BENCH_DIR / name)
        questions = list(data.queries.values())
        own = Pipeline(index)
        rows[f"{name} own corpus"] = [best_overlap(own, q) for q in questions]
        rows[f"{name} → sample docs"] = [best_overlap(sample, q) for q in questions[:400]]
    index, _ = build(DEFAULT_BENCH_DIR / "xquad-en")
    other = Pipeline(index)
    rows["scifact → xquad-en"] = [best_overlap(other, q) for q in load_beir(DEFAULT_BENCH_DIR / "scifact").queries.values()]
    print(f"{'questions':26} " + " ".join(f"{g[0]:>15}" for g in GATES))
    for label, values in rows.items():
        print(f"{label:26} " + " ".join(f"{answered(values, share, terms):15.3f}" for _, share, terms in GATES))


if __name__ == "__main__":
    main()
