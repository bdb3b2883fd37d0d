"""Calibrating the citation check's lemma-overlap threshold on XQuAD.

A model's sentence usually reuses the question's words and adds the answer, so
each XQuAD question becomes a claim: ``"<question without ?> — <answer>."``.
It is compared with the paragraph that holds the answer (should be supported)
and with the best-ranked *other* paragraph by BM25 for the same question (a
hard negative: same article, other facts; should not be). For each threshold
the table gives the share of true citations accepted (TPR) and of wrong ones
accepted (FPR).

    python bench/support.py
"""

from __future__ import annotations

import json
from pathlib import Path

from citerag import Index
from citerag.evaluation.beir import doc_text, load_beir
from citerag.generation.support import SupportScorer

BENCH_DIR = Path(__file__).resolve().parents[1].parent / "shared" / "bench"
THRESHOLDS = (0.3, 0.4, 0.5, 0.6, 0.7)


def overlaps(folder: Path) -> tuple[list[float], list[float]]:
    data = load_beir(folder)
    answers = {}
    with (folder / "queries.jsonl").open(encoding="utf-8") as fh:
        for line in fh:
            rec = json.loads(line)
            answers[str(rec["_id"])] = rec.get("answers") or []
    texts = {d.id: doc_text(d) for d in data.corpus}
    index = Index.from_texts(list(texts.values()), ids=list(texts))
    scorer = SupportScorer(index.analyzer)
    positive, negative = [], []
    for qid, question in data.queries.items():
        if not answers.get(qid):
            continue
        gold = next(iter(data.qrels[qid]))
        claim = f"{question.rstrip('?')} — {answers[qid][0]}."
        other = next((h.chunk.id for h in index.search(question, k=5) if h.chunk.id != gold), None)
        positive.append(scorer.overlap(claim, texts[gold]))
        if other is not None:
            negative.append(scorer.overlap(claim, texts[other]))
    return positive, negative


def main() -> None:
    print(f"{'set':9} {'threshold':>9} {'TPR':>6} {'FPR':>6} {'balanced error':>15}")
    for name in ("xquad-ru", "xquad-en"):
        positive, negative = overlaps(BENCH_DIR / name)
        for t in THRESHOLDS:
            tpr = sum(p >= t for p in positive) / len(positive)
            fpr = sum(n >= t for n in negative) / len(negative)
            print(f"{name:9} {t:9.1f} {tpr:6.3f} {fpr:6.3f} {((1 - tpr) + fpr) / 2:15.3f}")


if __name__ == "__main__":
    main()
