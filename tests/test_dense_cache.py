"""The embedding cache: unchanged text is never embedded twice."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from citerag.dense import CachedEmbedder, EmbeddingCache, HashEmbedder


class CountingEmbedder(HashEmbedder):
    def __init__(self, dim: int = 32) -> None:
        super().__init__(dim)
        self.embedded: list[str] = []

    def _embed(self, texts: list[str], *, is_query: bool) -> np.ndarray:
        self.embedded.extend(texts)
        return super()._embed(texts, is_query=is_query)


def test_second_run_embeds_only_new_text(tmp_path: Path) -> None:
    path = tmp_path / "cache.sqlite"
    texts = ["Отпуск 28 дней", "Пароль меняется раз в 90 дней", "VPN"]
    first = CountingEmbedder()
    with EmbeddingCache(path) as cache:
        a = CachedEmbedder(first, cache).embed_documents(texts)
    assert first.embedded == texts

    second = CountingEmbedder()
    progress: list[tuple[int, int]] = []
    with EmbeddingCache(path) as cache:  # a new process would open the file again
        wrapped = CachedEmbedder(second, cache)
        b = wrapped.embed_documents([*texts, "Новый абзац"], progress=lambda d, t: progress.append((d, t)))
    assert second.embedded == ["Новый абзац"]
    assert (wrapped.hits, wrapped.misses) == (3, 1)
    np.testing.assert_array_equal(a, b[:3])  # float32 blobs round-trip exactly
    assert progress[-1] == (4, 4)


def test_cache_is_keyed_by_model_fingerprint(tmp_path: Path) -> None:
    cache = EmbeddingCache(tmp_path / "c.sqlite")
    CachedEmbedder(CountingEmbedder(32), cache).embed_documents(["текст"])
    other = CountingEmbedder(64)
    vectors = CachedEmbedder(other, cache).embed_documents(["текст"])
    assert other.embedded == ["текст"] and vectors.shape == (1, 64)
    assert cache.count() == 2


def test_duplicate_texts_are_embedded_once(tmp_path: Path) -> None:
    inner = CountingEmbedder()
    vectors = CachedEmbedder(inner, EmbeddingCache(tmp_path / "c.sqlite")).embed_documents(["а б", "а б", "в г"])
    assert inner.embedded == ["а б", "в г"]
    np.testing.assert_array_equal(vectors[0], vectors[1])


def test_queries_match_the_inner_embedder(tmp_path: Path) -> None:
    inner = HashEmbedder(32)
    wrapped = CachedEmbedder(inner, EmbeddingCache(tmp_path / "c.sqlite"))
    np.testing.assert_array_equal(wrapped.embed_query("отпуск"), inner.embed_query("отпуск"))
    assert wrapped.info() == inner.info()
