"""Lexical retrieval benchmark: quality and speed against bm25s and rank_bm25.

Runs on the BEIR-layout sets next to the repository (``../shared/bench``):
each document is one chunk with text ``title + " " + text``; the evaluation
queries are those in ``qrels.tsv``. Prints a table and writes JSON.

    python bench/lexical.py                    # all sets
    python bench/lexical.py --sets xquad-ru    # one set
    python bench/lexical.py --json out.json    # also write the figures

Speed figures are measured in the same run for every library, so the ratios
hold on whatever machine runs this; each timing is the best of ``--repeat``.
"""

from __future__ import annotations

import argparse
import gc
import json
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
from rich.console import Console
from rich.table import Table

from citerag import Index
from citerag.evaluation.beir import doc_text, load_beir
from citerag.evaluation.metrics import evaluate_run
from citerag.text import Analyzer

DEFAULT_BENCH_DIR = Path(__file__).resolve().parents[1].parent / "shared" / "bench"
SETS = {"scifact": "english", "xquad-ru": "russian", "xquad-en": "english"}
BM25S_STOPWORDS = {"english": "en", "russian": "ru"}
KS = (1, 10, 100)
REPORTED = ("ndcg@10", "mrr@10", "recall@100", "hit@1")


def best_time(fn: Callable[[], Any], repeat: int) -> tuple[float, Any]:
    """Best wall time of ``repeat`` runs (and the last result)."""
    best, result = float("inf"), None
    for _ in range(repeat):
        gc.collect()
        start = time.perf_counter()
        result = fn()
        best = min(best, time.perf_counter() - start)
    return best, result


def run_citerag(texts: list[str], ids: list[str], queries: dict[str, str], repeat: int) -> dict[str, Any]:
    analyzer = Analyzer()
    # Loading the dictionaries is a one-off per process, reported separately;
    # every timed build starts with an empty per-word cache.
    warm_up_s, _ = best_time(analyzer.warm_up, 1)

    def build() -> Index:
        analyzer.clear_cache()
        return Index.from_texts(texts, ids=ids, analyzer=analyzer)

    index_s, index = best_time(build, repeat)
    qids = list(queries)
    qtexts = [queries[q] for q in qids]
    analysed = [index.analyzer.analyze(q) for q in qtexts]

    def retrieve_only() -> list[tuple[np.ndarray, np.ndarray]]:
        return [index.lexical.search_rows(terms, 100) for terms in analysed]

    def retrieve_batch() -> list[tuple[np.ndarray, np.ndarray]]:
        return index.lexical.search_many(analysed, 100)

    def end_to_end() -> list[list[str]]:
        analyzer = index.analyzer
        return [[index.chunks[r].id for r in index.lexical.search_rows(analyzer.analyze(q), 100)[0]] for q in qtexts]

    retrieve_s, results = best_time(retrieve_only, repeat)
    batch_s, _ = best_time(retrieve_batch, repeat)
    e2e_s, _ = best_time(end_to_end, repeat)
    run = {qid: [index.chunks[r].id for r in rows] for qid, (rows, _) in zip(qids, results)}
    return {
        "run": run,
        "index_s": index_s,
        "warm_up_s": warm_up_s,
        "retrieve_s": retrieve_s,
        "retrieve_batch_s": batch_s,
        "e2e_s": e2e_s,
    }


def run_bm25s(texts: list[str], ids: list[str], queries: dict[str, str], language: str, repeat: int) -> dict[str, Any]:
    import bm25s
    import Stemmer

    stemmer = Stemmer.Stemmer(language)
    stop = BM25S_STOPWORDS[language]

    def build() -> Any:
        tokens = bm25s.tokenize(texts, stopwords=stop, stemmer=stemmer, show_progress=False)
        retriever = bm25s.BM25(k1=1.2, b=0.75)
        retriever.index(tokens, show_progress=False)
        return retriever

    index_s, retriever = best_time(build, repeat)
    qids = list(queries)
    qtexts = [queries[q] for q in qids]
    k = min(100, len(texts))

    def tokenize_queries() -> list[list[str]]:
        return bm25s.tokenize(qtexts, stopwords=stop, stemmer=stemmer, return_ids=False, show_progress=False)

    def retrieve(query_tokens: list[list[str]]) -> Any:
        return retriever.retrieve(query_tokens, k=k, show_progress=False, n_threads=1)

    q_tokens = tokenize_queries()
    retrieve_s, (docs, _) = best_time(lambda: retrieve(q_tokens), repeat)
    e2e_s, _ = best_time(lambda: retrieve(tokenize_queries()), repeat)
    run = {qid: [ids[int(d)] for d in row] for qid, row in zip(qids, docs)}
    return {"run": run, "index_s": index_s, "retrieve_s": retrieve_s, "e2e_s": e2e_s}


def run_rank_bm25(texts: list[str], ids: list[str], queries: dict[str, str], language: str) -> dict[str, Any]:
    import bm25s
    import Stemmer
    from rank_bm25 import BM25Okapi

    stemmer = Stemmer.Stemmer(language)
    stop = BM25S_STOPWORDS[language]
    start = time.perf_counter()
    corpus_tokens = bm25s.tokenize(texts, stopwords=stop, stemmer=stemmer, return_ids=False, show_progress=False)
    model = BM25Okapi(corpus_tokens, k1=1.2, b=0.75)
    index_s = time.perf_counter() - start
    qids = list(queries)
    q_tokens = bm25s.tokenize([queries[q] for q in qids], stopwords=stop, stemmer=stemmer, return_ids=False, show_progress=False)
    start = time.perf_counter()
    run = {}
    for qid, tokens in zip(qids, q_tokens):
        scores = model.get_scores(tokens)
        top = np.argsort(-scores, kind="stable")[:100]
        run[qid] = [ids[i] for i in top]
    retrieve_s = time.perf_counter() - start
    return {"run": run, "index_s": index_s, "retrieve_s": retrieve_s, "e2e_s": retrieve_s}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--bench-dir", type=Path, default=DEFAULT_BENCH_DIR)
    parser.add_argument("--sets", nargs="*", default=list(SETS))
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--no-rank-bm25", action="store_true", help="skip rank_bm25 (slow on scifact)")
    parser.add_argument("--json", type=Path, help="write all figures here")
    args = parser.parse_args(argv)
    console = Console()
    if not args.bench_dir.is_dir():
        console.print(f"[red]benchmark data not found at {args.bench_dir}[/]")
        return 2
    figures: dict[str, Any] = {}
    for name in args.sets:
        data = load_beir(args.bench_dir / name)
        texts = [doc_text(d) for d in data.corpus]
        ids = [d.id for d in data.corpus]
        language = SETS.get(name, "english")
        n_docs, n_queries = len(texts), len(data.queries)
        systems = {
            "citerag": run_citerag(texts, ids, data.queries, args.repeat),
            "bm25s": run_bm25s(texts, ids, data.queries, language, args.repeat),
        }
        if not args.no_rank_bm25:
            systems["rank_bm25"] = run_rank_bm25(texts, ids, data.queries, language)
        set_figures: dict[str, Any] = {"documents": n_docs, "queries": n_queries, "systems": {}}
        for system, result in systems.items():
            report = evaluate_run(result["run"], data.qrels, ks=KS)
            entry = {key: round(report.metrics[key], 4) for key in REPORTED}
            entry["docs_per_s"] = round(n_docs / result["index_s"], 1)
            entry["queries_per_s_retrieve"] = round(n_queries / result["retrieve_s"], 1)
            entry["queries_per_s_e2e"] = round(n_queries / result["e2e_s"], 1)
            for extra in ("warm_up_s", "retrieve_batch_s"):
                if extra in result:
                    entry[extra] = round(result[extra], 4)
            if "retrieve_batch_s" in result:
                entry["queries_per_s_batch"] = round(n_queries / result["retrieve_batch_s"], 1)
            set_figures["systems"][system] = entry
        ours, peer = set_figures["systems"]["citerag"], set_figures["systems"]["bm25s"]
        set_figures["ratios_vs_bm25s"] = {
            "retrieve": round(ours["queries_per_s_retrieve"] / peer["queries_per_s_retrieve"], 2),
            "retrieve_batch": round(ours["queries_per_s_batch"] / peer["queries_per_s_retrieve"], 2),
            "end_to_end": round(ours["queries_per_s_e2e"] / peer["queries_per_s_e2e"], 2),
            "indexing": round(ours["docs_per_s"] / peer["docs_per_s"], 2),
        }
        figures[name] = set_figures
        print_set(console, name, set_figures)
    if args.json:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(json.dumps(figures, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    console.print_json(json.dumps(figures, ensure_ascii=False))
    return 0


def print_set(console: Console, name: str, figures: dict[str, Any]) -> None:
    table = Table(title=f"{name}: {figures['documents']} documents, {figures['queries']} queries", title_justify="left")
    columns = [*REPORTED, "docs_per_s", "queries_per_s_retrieve", "queries_per_s_e2e"]
    table.add_column("system")
    for column in columns:
        table.add_column(column, justify="right")
    for system, entry in figures["systems"].items():
        table.add_row(system, *(str(entry.get(c, "")) for c in columns))
    console.print(table)
    ratios = figures["ratios_vs_bm25s"]
    console.print(
        "citerag / bm25s: retrieval ×{retrieve} (batch ×{retrieve_batch}), end to end ×{end_to_end}, "
        "indexing ×{indexing}".format(**ratios)
    )


if __name__ == "__main__":
    sys.exit(main())
