"""JSON over HTTP with retries and errors that say what went wrong.

Both wire protocols (OpenAI-compatible and Ollama) post JSON and read either
one JSON reply or a stream of lines; only the payloads differ, so the
transport, the retry loop and the error wording live here once.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Iterator, Mapping
from typing import Any

import httpx

from citerag.generation.llm.errors import (
    LLMHTTPError,
    LLMMalformedReply,
    LLMModelNotFound,
    LLMTimeout,
    LLMUnreachable,
)
from citerag.generation.llm.retry import RetryPolicy

_SNIPPET = 200


class JsonHttp:
    """A lazily opened ``httpx.Client`` bound to one server and one model."""

    def __init__(
        self,
        base_url: str,
        *,
        model: str,
        headers: Mapping[str, str] | None = None,
        timeout: float = 60.0,
        retry: RetryPolicy | None = None,
        sleep: Callable[[float], None] = time.sleep,
    ) -> None:
        self.base_url = base_url.rstrip("/")
        self.model = model
        self.timeout = timeout
        self.retry = retry or RetryPolicy()
        self._headers = dict(headers or {})
        self._sleep = sleep
        self._client: httpx.Client | None = None

    # -- lifecycle -----------------------------------------------------
    def _http(self) -> httpx.Client:
        if self._client is None:
            # connect fails fast: a missing server should not cost a full timeout
            timeout = httpx.Timeout(self.timeout, connect=min(self.timeout, 10.0))
            self._client = httpx.Client(timeout=timeout, headers=self._headers)
        return self._client

    def close(self) -> None:
        if self._client is not None:
            self._client.close()
            self._client = None

    def url(self, path: str) -> str:
        return f"{self.base_url}/{path.lstrip('/')}"

    # -- requests ------------------------------------------------------
    def post_json(self, path: str, payload: Mapping[str, Any]) -> Any:
        """POST ``payload`` and return the decoded JSON reply."""
        url = self.url(path)
        for attempt in range(self.retry.max_retries + 1):
            try:
                response = self._http().post(url, json=payload)
            except httpx.HTTPError as exc:
                raise self._transport_error(exc, url) from exc
            if self._wait_to_retry(response, attempt):
                continue
            self._raise_for_status(response, url)
            return decode_json(response.text, url)
        raise AssertionError("unreachable: the retry loop always returns or raises")

    def post_lines(self, path: str, payload: Mapping[str, Any]) -> Iterator[str]:
        """POST ``payload`` and yield the non-empty lines of a streamed reply.

        Retries happen only before the first line: once text has reached the
        caller, repeating the request would duplicate it.
        """
        url = self.url(path)
        for attempt in range(self.retry.max_retries + 1):
            try:
                with self._http().stream("POST", url, json=payload) as response:
                    if response.status_code >= 400:
                        response.read()
                        if self._wait_to_retry(response, attempt):
                            continue
                        self._raise_for_status(response, url)
                    for line in response.iter_lines():
                        if line.strip():
                            yield line
                    return
            except httpx.HTTPError as exc:
                raise self._transport_error(exc, url) from exc
        raise AssertionError("unreachable: the retry loop always returns or raises")

    # -- error handling ------------------------------------------------
    def _wait_to_retry(self, response: httpx.Response, attempt: int) -> bool:
        if not self.retry.should_retry(response.status_code):
            return False
        delay = self.retry.delay(attempt, response.headers.get("retry-after"))
        if delay is None:
            return False
        self._sleep(delay)
        return True

    def _transport_error(self, exc: httpx.HTTPError, url: str) -> Exception:
        if isinstance(exc, httpx.TimeoutException):
            if isinstance(exc, httpx.ConnectTimeout):
                return LLMUnreachable(f"LLM server unreachable at {url}: connection timed out")
            return LLMTimeout(
                f"timed out: the LLM server at {url} did not answer within {self.timeout:g} s "
                "(raise --timeout or use a smaller model)"
            )
        if isinstance(exc, (httpx.ConnectError, httpx.UnsupportedProtocol, httpx.InvalidURL)):
            return LLMUnreachable(
                f"LLM server unreachable at {url}: {exc} (is it running? check the base URL)"
            )
        return LLMUnreachable(f"LLM server at {url} dropped the connection: {exc}")

    def _raise_for_status(self, response: httpx.Response, url: str) -> None:
        status = response.status_code
        if status < 400:
            return
        detail = error_detail(response.text)
        if status == 404:
            if "model" in detail.lower():
                raise LLMModelNotFound(
                    f"model {self.model!r} is not known to the server at {self.base_url}: {detail}"
                )
            raise LLMHTTPError(
                f"{url} not found (404): check the base URL"
                + (f" — {detail}" if detail else ""),
                status,
            )
        if status in (401, 403):
            raise LLMHTTPError(
                f"the server at {self.base_url} refused the API key ({status}): "
                f"{detail or 'set OPENAI_API_KEY or pass --api-key'}",
                status,
            )
        if status == 429:
            after = response.headers.get("retry-after")
            hint = f"; the server asks to wait {after} s" if after else ""
            raise LLMHTTPError(f"rate limited by {self.base_url} (429){hint}: {detail}", status)
        raise LLMHTTPError(f"{url} answered HTTP {status}: {detail or response.reason_phrase}", status)


def decode_json(text: str, url: str) -> Any:
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise LLMMalformedReply(
            f"malformed reply from {url}: not JSON ({exc.msg}): {text[:_SNIPPET]!r}"
        ) from exc


def error_detail(text: str) -> str:
    """The human part of an error body: ``{"error": {"message": ...}}``, ``{"error": "..."}`` or raw text."""
    try:
        body = json.loads(text)
    except json.JSONDecodeError:
        return text.strip()[:_SNIPPET]
    if isinstance(body, dict):
        err = body.get("error", body.get("detail", body.get("message")))
        if isinstance(err, dict):
            err = err.get("message") or err.get("code") or json.dumps(err, ensure_ascii=False)
        if err:
            return str(err)[:_SNIPPET]
    return text.strip()[:_SNIPPET]


class HttpClientBase:
    """What every HTTP model client shares: its connection, base URL and closing."""

    _http: JsonHttp

    @property
    def base_url(self) -> str:
        return self._http.base_url

    def close(self) -> None:
        self._http.close()

    def __enter__(self) -> "HttpClientBase":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
