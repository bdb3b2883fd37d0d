"""Offline (extractive) answers on XQuAD: does the answer hold the gold answer string?

XQuAD questions come with their answer spans, so the extractive answer of
``citerag ask`` can be scored without a model or a judge:

- ``in_sources``: a gold answer occurs in the sources the answer was built from
  (the ceiling: retrieval and the context budget decide it);
- ``in_answer``: a gold answer occurs in the answer text;
- ``in_first``: ... in its first sentence;
- ``lead3``: baseline: ... in the first three sentences of the best-ranked source;
- ``not_found``: share of questions answered "not found";
- ``checks_ok``: share of the given answers whose citation check passed.

A second run asks the questions of one set against another set's corpus
(nothing there answers them) and reports how often an answer is still given
at the default ``min_score``: the "false answer" rate that ``--min-score``
exists to lower.

    python bench/answers.py                       # xquad-ru and xquad-en, all questions
    python bench/answers.py --limit 200 -k 3      # quicker
    python bench/answers.py --json answers.json
    python bench/answers.py --embedder e5 --limit 100   # with vectors (slow on a CPU)
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.table import Table

from citerag import Index
from citerag.evaluation.beir import doc_text, load_beir
from citerag.generation import Pipeline, PipelineConfig
from citerag.generation.sentences import split_sentences

DEFAULT_BENCH_DIR = Path(__file__).resolve().parents[1].parent / "shared" / "bench"


def norm(text: str) -> str:
    return " ".join(text.lower().replace("ё", "е").split())


def answers_of(folder: Path) -> dict[str, list[str]]:
    out = {}
    with (folder / "queries.jsonl").open(encoding="utf-8") as fh:
        for line in fh:
            rec = json.loads(line)
            out[str(rec["_id"])] = [str(a) for a in rec.get("answers") or []]
    return out


def build(folder: Path, embedder: str | None = None) -> tuple[Index, Any]:
    data = load_beir(folder)
    index = Index.from_texts(
        [doc_text(d) for d in data.corpus],
        ids=[d.id for d in data.corpus],
        metadata=[{"source": f"{data.name}/{d.id}", "title": d.title} for d in data.corpus],
        embedder=embedder,
    )
    return index, data


def answerable(folder: Path, k: int, limit: int | None, embedder: str | None = None) -> dict[str, Any]:
    index, data = build(folder, embedder)
    gold = answers_of(folder)
    pipe = Pipeline(index, config=PipelineConfig(k=k))
    counts = {"in_sources": 0, "in_answer": 0, "in_first": 0, "lead3": 0, "not_found": 0, "checks_ok": 0}
    items = [(qid, q) for qid, q in data.queries.items() if gold.get(qid)][:limit]
    t0 = time.perf_counter()
    for qid, question in items:
        answer = pipe.answer(question)
        wanted = [norm(a) for a in gold[qid]]
        sources = norm(" ".join(s.text for s in answer.sources))
        text = norm(answer.text)
        sentences = split_sentences(answer.text)
        first = norm(sentences[0].text) if sentences else ""
        counts["in_sources"] += any(a in sources for a in wanted)
        counts["in_answer"] += any(a in text for a in wanted) and not answer.not_found
        counts["in_first"] += any(a in first for a in wanted) and not answer.not_found
        if answer.sources:  # baseline: the first three sentences of the best-ranked source
            top = max(answer.sources, key=lambda s: s.score)
            lead = norm(" ".join(s.text for s in split_sentences(top.text)[:3]))
            counts["lead3"] += any(a in lead for a in wanted)
        counts["not_found"] += answer.not_found
        counts["checks_ok"] += answer.citations.ok and not answer.not_found
    seconds = time.perf_counter() - t0
    n = len(items)
    rates = {key: v / n for key, v in counts.items()}
    rates["checks_ok"] = counts["checks_ok"] / max(1, n - counts["not_found"])  # of the answered
    return {"set": data.name, "questions": n, "k": k, "embedder": embedder, **rates,
            "ms_per_question": 1000 * seconds / n}


def unanswerable(questions_from: Path, corpus_from: Path, k: int, limit: int | None) -> dict[str, Any]:
    index, _ = build(corpus_from)
    questions = list(load_beir(questions_from).queries.values())[:limit]
    pipe = Pipeline(index, config=PipelineConfig(k=k))
    answered = sum(not pipe.answer(q).not_found for q in questions)
    return {"questions": f"{questions_from.name} → corpus {corpus_from.name}", "n": len(questions),
            "false_answer_rate": answered / len(questions)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--bench-dir", type=Path, default=DEFAULT_BENCH_DIR)
    parser.add_argument("--sets", nargs="+", default=["xquad-ru", "xquad-en"])
    parser.add_argument("-k", type=int, default=5)
    parser.add_argument("--limit", type=int, default=None, help="Questions per set (default: all).")
    parser.add_argument("--json", type=Path, default=None)
    parser.add_argument("--embedder", default=None,
                        help="Also index vectors (e.g. e5): hybrid retrieval, and sentence choice by similarity.")
    args = parser.parse_args()
    out = Console(width=140)
    rows = [answerable(args.bench_dir / name, args.k, args.limit, args.embedder) for name in args.sets]
    table = Table(title=f"Extractive answers (no model), k={args.k}, embedder={args.embedder or 'none'}")
    for col in ("set", "questions", "in_sources", "in_answer", "in_first", "lead3", "not_found", "checks_ok",
                "ms/question"):
        table.add_column(col, justify="left" if col == "set" else "right")
    for r in rows:
        table.add_row(r["set"], str(r["questions"]), *(f"{r[c]:.3f}" for c in
                      ("in_sources", "in_answer", "in_first", "lead3", "not_found", "checks_ok")), f"{r['ms_per_question']:.1f}")
    out.print(table)
    negatives = [
        unanswerable(args.bench_dir / "scifact", args.bench_dir / "xquad-en", args.k, args.limit),
        unanswerable(args.bench_dir / "xquad-en", args.bench_dir / "xquad-ru", args.k, args.limit),
    ]
    for neg in negatives:
        out.print(f"False answers ({neg['questions']}, {neg['n']} questions, no --min-score, offline): "
                  f"{neg['false_answer_rate']:.3f}")
    if args.json:
        args.json.write_text(json.dumps({"answerable": rows, "unanswerable": negatives}, ensure_ascii=False, indent=2),
                             encoding="utf-8")


if __name__ == "__main__":
    main()
