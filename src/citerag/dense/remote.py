"""Embedders behind an HTTP API: Ollama (``/api/embed``) and any
OpenAI-compatible server (``/v1/embeddings``).

Base URL and key come from the arguments or the environment
(``OLLAMA_HOST``; ``CITERAG_OPENAI_BASE_URL`` or ``OPENAI_BASE_URL``,
``CITERAG_OPENAI_API_KEY`` or ``OPENAI_API_KEY``). The vector
dimension is learnt from the first reply unless given.
"""

from __future__ import annotations

import os
from typing import Any

import httpx
import numpy as np

from citerag.dense.base import Embedder
from citerag.errors import EmbeddingError

# Models trained with instruction prefixes; used when the caller gives none.
KNOWN_PREFIXES: dict[str, tuple[str, str]] = {
    "nomic-embed": ("search_query: ", "search_document: "),
    "e5": ("query: ", "passage: "),
    "mxbai-embed-large": ("Represent this sentence for searching relevant passages: ", ""),
    "snowflake-arctic-embed": ("Represent this sentence for searching relevant passages: ", ""),
}


def default_prefixes(model: str) -> tuple[str, str]:
    lowered = model.lower()
    for key, prefixes in KNOWN_PREFIXES.items():
        if key in lowered:
            return prefixes
    return ("", "")


class _HttpEmbedder(Embedder):
    kind = "http"

    def __init__(
        self,
        model: str,
        *,
        base_url: str,
        api_key: str | None = None,
        query_prefix: str | None = None,
        document_prefix: str | None = None,
        dim: int | None = None,
        batch_size: int = 32,
        timeout: float = 60.0,
    ) -> None:
        known_q, known_d = default_prefixes(model)
        self.model = model
        self.name = f"{self.kind}:{model}"
        self.base_url = base_url.rstrip("/")
        self.api_key = api_key
        self.query_prefix = known_q if query_prefix is None else query_prefix
        self.document_prefix = known_d if document_prefix is None else document_prefix
        self._dim = dim
        self.batch_size = batch_size
        self.timeout = timeout

    @property
    def dim(self) -> int:
        if self._dim is None:
            # One tiny request tells the dimension; only needed before any embedding.
            self._dim = int(self._request(["dimension probe"]).shape[1])
        return self._dim

    def identity(self) -> dict[str, Any]:
        return {**super().identity(), "model": self.model}

    def _embed(self, texts: list[str], *, is_query: bool) -> np.ndarray:
        vectors = self._request(self.with_prefix(texts, is_query=is_query))
        if self._dim is None:
            self._dim = int(vectors.shape[1])
        elif vectors.shape[1] != self._dim:
            raise EmbeddingError(
                f"{self.name} returned {vectors.shape[1]}-dimensional vectors, expected {self._dim}"
            )
        return vectors

    def _headers(self) -> dict[str, str]:
        return {"Authorization": f"Bearer {self.api_key}"} if self.api_key else {}

    def _post(self, url: str, payload: dict[str, Any]) -> Any:
        try:
            response = httpx.post(url, json=payload, headers=self._headers(), timeout=self.timeout)
            response.raise_for_status()
            return response.json()
        except httpx.HTTPStatusError as e:
            raise EmbeddingError(
                f"{self.name}: {url} answered {e.response.status_code}: "
                f"{e.response.text[:200]!r}; check the model name and key"
            ) from e
        except (httpx.HTTPError, ValueError) as e:
            raise EmbeddingError(
                f"{self.name}: cannot get embeddings from {url} ({e}); is the server running?"
            ) from e

    def _request(self, texts: list[str]) -> np.ndarray:
        raise NotImplementedError


class OllamaEmbedder(_HttpEmbedder):
    kind = "ollama"

    def __init__(self, model: str, *, base_url: str | None = None, **kwargs: Any) -> None:
        url = base_url or os.environ.get("OLLAMA_HOST") or "http://127.0.0.1:11434"
        if not url.startswith(("http://", "https://")):
            url = "http://" + url  # OLLAMA_HOST is often given as host:port
        super().__init__(model, base_url=url, **kwargs)

    def _request(self, texts: list[str]) -> np.ndarray:
        data = self._post(f"{self.base_url}/api/embed", {"model": self.model, "input": texts})
        try:
            return np.asarray(data["embeddings"], dtype=np.float32).reshape(len(texts), -1)
        except (KeyError, TypeError, ValueError) as e:
            raise EmbeddingError(f"{self.name}: unexpected reply without 'embeddings'") from e


class OpenAIEmbedder(_HttpEmbedder):
    kind = "openai"

    def __init__(
        self, model: str, *, base_url: str | None = None, api_key: str | None = None, **kwargs: Any
    ) -> None:
        env = os.environ
        url = (
            base_url
            or env.get("CITERAG_OPENAI_BASE_URL")
            or env.get("OPENAI_BASE_URL")
            or "https://api.openai.com/v1"
        )
        key = api_key or env.get("CITERAG_OPENAI_API_KEY") or env.get("OPENAI_API_KEY")
        super().__init__(model, base_url=url, api_key=key, **kwargs)

    def _request(self, texts: list[str]) -> np.ndarray:
        data = self._post(f"{self.base_url}/embeddings", {"model": self.model, "input": texts})
        try:
            items = sorted(data["data"], key=lambda item: int(item.get("index", 0)))
            return np.asarray([item["embedding"] for item in items], dtype=np.float32).reshape(
                len(texts), -1
            )
        except (KeyError, TypeError, ValueError) as e:
            raise EmbeddingError(f"{self.name}: unexpected reply without 'data[].embedding'") from e
