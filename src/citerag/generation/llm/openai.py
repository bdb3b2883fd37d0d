"""OpenAI-compatible ``/v1/chat/completions``: OpenAI, vLLM, llama.cpp server, LM Studio."""

from __future__ import annotations

import json
from collections.abc import Iterator, Sequence
from typing import Any
from urllib.parse import urlsplit

from citerag.generation.llm.base import Message
from citerag.generation.llm.errors import LLMHTTPError, LLMMalformedReply
from citerag.generation.llm.http import HttpClientBase, JsonHttp
from citerag.generation.llm.retry import RetryPolicy

DEFAULT_BASE_URL = "https://api.openai.com/v1"


def normalise_base_url(url: str) -> str:
    """``http://host:8080`` → ``http://host:8080/v1``; a URL with a path is kept as given.

    Local servers are usually given as bare host:port, while the OpenAI
    convention is a base URL ending in ``/v1``.
    """
    url = url.strip().rstrip("/")
    if "://" not in url:
        url = "http://" + url
    if urlsplit(url).path in ("", "/"):
        url += "/v1"
    return url


class OpenAIClient(HttpClientBase):
    """Chat completions over the OpenAI wire protocol (JSON and SSE streaming)."""

    def __init__(
        self,
        model: str,
        *,
        base_url: str = DEFAULT_BASE_URL,
        api_key: str | None = None,
        timeout: float = 60.0,
        retry: RetryPolicy | None = None,
    ) -> None:
        headers = {"Authorization": f"Bearer {api_key}"} if api_key else {}
        self.model = model
        self.name = f"openai:{model}"
        self._rejected_formats: set[str] = set()
        self._http = JsonHttp(
            normalise_base_url(base_url), model=model, headers=headers, timeout=timeout, retry=retry
        )

    def _payload(
        self, messages: Sequence[Message], temperature: float, max_tokens: int | None, stream: bool
    ) -> dict[str, Any]:
        payload: dict[str, Any] = {
            "model": self.model,
            "messages": [m.to_json() for m in messages],
            "temperature": temperature,
            "stream": stream,
        }
        if max_tokens is not None:
            payload["max_tokens"] = max_tokens
        return payload

    def chat(
        self,
        messages: Sequence[Message],
        *,
        temperature: float = 0.0,
        max_tokens: int | None = None,
        json_schema: dict[str, Any] | None = None,
    ) -> str:
        payload = self._payload(messages, temperature, max_tokens, stream=False)
        if json_schema is None:
            return self._content(self._http.post_json("chat/completions", payload))
        # json_schema is the OpenAI form; llama.cpp's Python server only takes
        # json_object (+ "schema"); some servers take neither. Formats a server
        # rejected are remembered so later calls go straight to one that works.
        formats = [
            {"type": "json_schema", "json_schema": {"name": "reply", "schema": json_schema, "strict": True}},
            {"type": "json_object", "schema": json_schema},
        ]
        for response_format in formats:
            if response_format["type"] in self._rejected_formats:
                continue
            try:
                return self._content(
                    self._http.post_json("chat/completions", {**payload, "response_format": response_format})
                )
            except LLMHTTPError as exc:
                if not _rejects_response_format(exc):
                    raise
                self._rejected_formats.add(response_format["type"])
        # The caller validates the JSON anyway, so plain generation is a fair fallback.
        return self._content(self._http.post_json("chat/completions", payload))

    def stream(
        self,
        messages: Sequence[Message],
        *,
        temperature: float = 0.0,
        max_tokens: int | None = None,
    ) -> Iterator[str]:
        payload = self._payload(messages, temperature, max_tokens, stream=True)
        url = self._http.url("chat/completions")
        for line in self._http.post_lines("chat/completions", payload):
            if not line.startswith("data:"):
                continue  # SSE comments, event names, keep-alives
            data = line[len("data:") :].strip()
            if data == "[DONE]":
                return
            try:
                event = json.loads(data)
            except json.JSONDecodeError as exc:
                raise LLMMalformedReply(
                    f"malformed stream event from {url}: {data[:200]!r}"
                ) from exc
            piece = _delta(event, url)
            if piece:
                yield piece

    def _content(self, reply: Any) -> str:
        url = self._http.url("chat/completions")
        try:
            content = reply["choices"][0]["message"]["content"]
        except (KeyError, IndexError, TypeError) as exc:
            raise LLMMalformedReply(
                f"malformed reply from {url}: no choices[0].message.content in "
                f"{json.dumps(reply, ensure_ascii=False)[:200]}"
            ) from exc
        if content is None:
            return ""
        if not isinstance(content, str):
            raise LLMMalformedReply(f"malformed reply from {url}: content is not text")
        return content


def _delta(event: Any, url: str) -> str:
    if isinstance(event, dict) and "error" in event:
        err = event["error"]
        message = err.get("message", err) if isinstance(err, dict) else err
        raise LLMHTTPError(f"{url} failed mid-stream: {message}", 500)
    try:
        choices = event["choices"]
        if not choices:  # usage-only chunks at the end of some streams
            return ""
        piece = choices[0].get("delta", {}).get("content")
    except (KeyError, TypeError, AttributeError) as exc:
        raise LLMMalformedReply(f"malformed stream event from {url}: {str(event)[:200]}") from exc
    return piece if isinstance(piece, str) else ""


def _rejects_response_format(exc: LLMHTTPError) -> bool:
    """Servers without a structured-output mode answer 400/422, or (llama.cpp) 500 naming the field."""
    return exc.status in (400, 422) or "response_format" in str(exc)
