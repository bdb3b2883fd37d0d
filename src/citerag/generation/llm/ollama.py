"""Ollama's native ``/api/chat`` (JSON and NDJSON streaming)."""

from __future__ import annotations

import json
from collections.abc import Iterator, Sequence
from typing import Any
from urllib.parse import urlsplit

from citerag.generation.llm.base import Message
from citerag.generation.llm.errors import LLMHTTPError, LLMMalformedReply, LLMModelNotFound
from citerag.generation.llm.http import HttpClientBase, JsonHttp
from citerag.generation.llm.retry import RetryPolicy

DEFAULT_HOST = "http://127.0.0.1:11434"


def normalise_host(host: str) -> str:
    """``OLLAMA_HOST`` may be ``0.0.0.0:11434`` or ``localhost``; make it a URL."""
    host = host.strip().rstrip("/")
    if "://" not in host:
        host = "http://" + host
    if host.startswith("http://0.0.0.0"):
        host = host.replace("0.0.0.0", "127.0.0.1", 1)  # a bind address, not a destination
    parts = urlsplit(host)
    if parts.port is None and parts.scheme == "http" and parts.path in ("", "/"):
        host += ":11434"  # Ollama's port; an https URL is a proxy on its own port
    return host


MIN_CONTEXT = 4096


def context_size(messages: Sequence[Message], max_tokens: int | None) -> int:
    """A ``num_ctx`` that holds the prompt and the answer, as a power of two.

    Ollama's default window (2048 or 4096 tokens, by version) silently drops the
    *start* of a longer prompt, which is where the instructions are. Powers of
    two keep the number of distinct sizes (each one reloads the model) small.
    """
    from citerag.generation.tokens import EstimateCounter

    counter = EstimateCounter()
    need = sum(counter.count(m.content) + 4 for m in messages) + (max_tokens or 1024)
    size = MIN_CONTEXT
    while size < need:
        size *= 2
    return size


class OllamaClient(HttpClientBase):
    """Chat over Ollama's own API.

    ``context_window`` fixes ``num_ctx``; by default it is sized per request
    to fit the prompt and ``max_tokens`` (see ``context_size``).
    """

    def __init__(
        self,
        model: str,
        *,
        host: str = DEFAULT_HOST,
        timeout: float = 60.0,
        retry: RetryPolicy | None = None,
        context_window: int | None = None,
    ) -> None:
        self.model = model
        self.context_window = context_window
        self.name = f"ollama:{model}"
        self._http = JsonHttp(normalise_host(host), model=model, timeout=timeout, retry=retry)

    def _payload(
        self, messages: Sequence[Message], temperature: float, max_tokens: int | None, stream: bool
    ) -> dict[str, Any]:
        options: dict[str, Any] = {
            "temperature": temperature,
            "num_ctx": self.context_window or context_size(messages, max_tokens),
        }
        if max_tokens is not None:
            options["num_predict"] = max_tokens
        return {
            "model": self.model,
            "messages": [m.to_json() for m in messages],
            "stream": stream,
            "options": options,
        }

    def chat(
        self,
        messages: Sequence[Message],
        *,
        temperature: float = 0.0,
        max_tokens: int | None = None,
        json_schema: dict[str, Any] | None = None,
    ) -> str:
        payload = self._payload(messages, temperature, max_tokens, stream=False)
        if json_schema is not None:
            payload["format"] = json_schema  # Ollama >= 0.5 constrains output to the schema
        return self._content(self._http.post_json("api/chat", payload))

    def stream(
        self,
        messages: Sequence[Message],
        *,
        temperature: float = 0.0,
        max_tokens: int | None = None,
    ) -> Iterator[str]:
        payload = self._payload(messages, temperature, max_tokens, stream=True)
        url = self._http.url("api/chat")
        for line in self._http.post_lines("api/chat", payload):
            try:
                event = json.loads(line)
            except json.JSONDecodeError as exc:
                raise LLMMalformedReply(f"malformed stream line from {url}: {line[:200]!r}") from exc
            self._check_error(event, url)
            piece = self._content(event, partial=True)
            if piece:
                yield piece
            if isinstance(event, dict) and event.get("done"):
                return

    def _check_error(self, event: Any, url: str) -> None:
        if isinstance(event, dict) and event.get("error"):
            message = str(event["error"])
            if "not found" in message and "model" in message:
                raise LLMModelNotFound(f"model {self.model!r} is not known to {self.base_url}: {message}")
            raise LLMHTTPError(f"{url} failed: {message}", 500)

    def _content(self, reply: Any, partial: bool = False) -> str:
        url = self._http.url("api/chat")
        if not partial:
            self._check_error(reply, url)
        try:
            content = reply["message"]["content"]
        except (KeyError, TypeError) as exc:
            if partial and isinstance(reply, dict) and reply.get("done"):
                return ""  # the final stream line may carry only statistics
            raise LLMMalformedReply(
                f"malformed reply from {url}: no message.content in "
                f"{json.dumps(reply, ensure_ascii=False)[:200]}"
            ) from exc
        if not isinstance(content, str):
            raise LLMMalformedReply(f"malformed reply from {url}: content is not text")
        return content
