"""Lexical scoring checked against reference formulas and bm25s."""

from __future__ import annotations

import math
from collections import Counter

import numpy as np
import pytest

from citerag.lexical import BM25Params, LexicalIndex, count_terms, stack_counts, top_k

DOCS = [
    ["отпуск", "день", "отпуск", "календарный"],
    ["vpn", "клиент", "подключение"],
    ["резервный", "копирование", "база", "данные", "день"],
    ["отпуск"],
    ["день", "день", "день", "неделя", "месяц", "год", "отпуск"],
]


def reference_bm25(docs: list[list[str]], query: list[str], k1: float, b: float) -> list[float]:
    """Okapi BM25 with Lucene's IDF, written the slow, obvious way."""
    n = len(docs)
    avg = sum(len(d) for d in docs) / n
    scores = []
    for doc in docs:
        tf = Counter(doc)
        total = 0.0
        for term in query:
            df = sum(term in d for d in docs)
            if df == 0 or tf[term] == 0:
                continue
            idf = math.log(1 + (n - df + 0.5) / (df + 0.5))
            total += idf * tf[term] * (k1 + 1) / (tf[term] + k1 * (1 - b + b * len(doc) / avg))
        scores.append(total)
    return scores


@pytest.mark.parametrize("k1,b", [(0.9, 0.75), (1.2, 0.75), (1.5, 0.3)])
def test_bm25_matches_the_formula(k1: float, b: float) -> None:
    index = LexicalIndex(count_terms(DOCS), BM25Params(k1=k1, b=b))
    query = ["отпуск", "день", "нет-такого"]
    np.testing.assert_allclose(index.scores(query), reference_bm25(DOCS, query, k1, b), rtol=1e-5)


def test_bm25_ranks_like_bm25s_on_real_text() -> None:
    bm25s = pytest.importorskip("bm25s")
    from citerag.data import sample_dir
    from citerag.text import Analyzer

    analyzer = Analyzer()
    texts = [p.read_text(encoding="utf-8") for p in sorted(sample_dir().iterdir())]
    docs = analyzer.analyze_many(texts)
    ours = LexicalIndex(count_terms(docs), BM25Params(k1=1.2, b=0.75))
    theirs = bm25s.BM25(k1=1.2, b=0.75, method="lucene")
    theirs.index(docs, show_progress=False)
    for query in ("сколько дней отпуска", "vpn подключение сервер", "резервное копирование"):
        terms = analyzer.analyze(query)
        # bm25s's Lucene variant omits the constant (k1 + 1) factor.
        np.testing.assert_allclose(ours.scores(terms), 2.2 * theirs.get_scores(terms), rtol=1e-4)


def test_tfidf_is_cosine_of_tfidf_vectors() -> None:
    index = LexicalIndex(count_terms(DOCS))
    vocab = index.vocabulary
    n = len(DOCS)
    df = np.zeros(len(vocab))
    for doc in DOCS:
        for term in set(doc):
            df[vocab[term]] += 1
    idf = np.log((1 + n) / (1 + df)) + 1
    matrix = np.zeros((n, len(vocab)))
    for i, doc in enumerate(DOCS):
        for term, count in Counter(doc).items():
            matrix[i, vocab[term]] = count * idf[vocab[term]]
    matrix /= np.linalg.norm(matrix, axis=1, keepdims=True)
    query = ["отпуск", "день"]
    q = np.zeros(len(vocab))
    for term in query:
        q[vocab[term]] += idf[vocab[term]]
    q /= np.linalg.norm(q)
    np.testing.assert_allclose(index.scores(query, "tfidf"), matrix @ q, rtol=1e-5)
    assert index.scores(["отпуск"], "tfidf").max() <= 1.0 + 1e-6


def test_search_rows_returns_best_first_and_only_matches() -> None:
    index = LexicalIndex(count_terms(DOCS))
    rows, scores = index.search_rows(["отпуск"], k=10)
    assert set(rows.tolist()) == {0, 3, 4}
    assert list(scores) == sorted(scores, reverse=True)


def test_allowed_mask_applies_before_top_k() -> None:
    index = LexicalIndex(count_terms(DOCS))
    allowed = np.array([False, True, True, True, True])
    rows, _ = index.search_rows(["отпуск", "день"], k=2, allowed=allowed)
    # Row 0 is the best match but not allowed: we still get two results.
    assert len(rows) == 2 and 0 not in rows.tolist()


def test_ties_are_broken_by_row_order() -> None:
    rows, scores = top_k(np.array([1.0, 2.0, 2.0, 2.0, 0.0], dtype=np.float32), k=2)
    assert rows.tolist() == [1, 2]
    assert scores.tolist() == [2.0, 2.0]


def test_batch_search_equals_single_queries() -> None:
    index = LexicalIndex(count_terms(DOCS))
    queries = [["отпуск"], ["день", "база"], ["нет"], []]
    for (rows_b, scores_b), query in zip(index.search_many(queries, k=3), queries):
        rows_s, scores_s = index.search_rows(query, k=3)
        assert rows_b.tolist() == rows_s.tolist()
        np.testing.assert_allclose(scores_b, scores_s, rtol=1e-6)


def test_stacking_counts_prunes_vanished_terms() -> None:
    first = count_terms(DOCS[:2])
    second = count_terms(DOCS[2:])
    kept_first_row_only = type(first)(matrix=first.matrix[[0]].tocsc(), doc_len=first.doc_len[[0]], terms=first.terms)
    stacked = stack_counts([kept_first_row_only, second])
    assert "vpn" not in stacked.terms  # only in the dropped document
    whole = count_terms([DOCS[0], *DOCS[2:]])
    a = LexicalIndex(stacked).scores(["отпуск", "день"])
    b = LexicalIndex(whole).scores(["отпуск", "день"])
    np.testing.assert_allclose(a, b, rtol=1e-6)


def test_unknown_idf_is_rejected_with_the_valid_names() -> None:
    with pytest.raises(ValueError, match="lucene"):
        BM25Params(idf="okapi-ish")
