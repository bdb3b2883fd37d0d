"""A small HTTP server on 127.0.0.1 that speaks the OpenAI and Ollama chat wire protocols.

The model name picks the behaviour, so one server covers every case:

- ``good`` (or ``good-*``): a normal reply; streamed as SSE / NDJSON pieces
- ``flaky``: 429 (``Retry-After: 0``) for the first two requests, then ``good``
- ``flaky5xx``: 503 for the first request, then ``good``
- ``broken``: always 500
- ``patient``: 429 with ``Retry-After: 3600``
- ``slow``: waits ``slow_seconds`` before answering
- ``garbage``: 200 with a body that is not JSON (or a broken stream event)
- ``empty``: 200 JSON without the reply field
- ``nostructured``: 400 when structured output is requested, else ``good``
- ``jsonobject``: like llama.cpp's Python server: 500 naming ``response_format``
  for the ``json_schema`` form, structured replies for ``json_object``
- ``midstream``: a streamed reply that turns into an error event
- anything else: 404 "model not found", worded as each server does
"""

from __future__ import annotations

import json
import threading
import time
from collections import Counter
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

DEFAULT_REPLY = "Отпуск длится 28 календарных дней [1]. Перенос возможен [2]."


class _QuietServer(ThreadingHTTPServer):
    daemon_threads = True

    def handle_error(self, request: Any, client_address: Any) -> None:
        import sys

        if isinstance(sys.exc_info()[1], (BrokenPipeError, ConnectionResetError)):
            return  # the client gave up first (the timeout tests): expected
        super().handle_error(request, client_address)


class FakeLLMServer:
    def __init__(self, reply: str = DEFAULT_REPLY, slow_seconds: float = 1.0) -> None:
        self.reply = reply
        self.slow_seconds = slow_seconds
        self.requests: list[dict[str, Any]] = []
        self.calls: Counter[str] = Counter()
        self._lock = threading.Lock()
        self._httpd = _QuietServer(("127.0.0.1", 0), _handler_for(self))
        self._thread = threading.Thread(target=self._httpd.serve_forever, daemon=True)

    @property
    def url(self) -> str:
        host, port = self._httpd.server_address[:2]
        return f"http://{host}:{port}"

    def start(self) -> "FakeLLMServer":
        self._thread.start()
        return self

    def stop(self) -> None:
        self._httpd.shutdown()
        self._httpd.server_close()

    def __enter__(self) -> "FakeLLMServer":
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    def count(self, model: str) -> int:
        with self._lock:
            self.calls[model] += 1
            return self.calls[model]

    def pieces(self) -> list[str]:
        # split after spaces so the concatenation is exactly the reply
        words = self.reply.split(" ")
        return [w + (" " if i < len(words) - 1 else "") for i, w in enumerate(words)]


def _handler_for(server: FakeLLMServer) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, *args: object) -> None:  # keep test output clean
            pass

        def do_POST(self) -> None:  # noqa: N802 (http.server naming)
            body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
            payload = json.loads(body or b"{}")
            server.requests.append(
                {"path": self.path, "headers": dict(self.headers), "json": payload}
            )
            if self.path == "/v1/chat/completions":
                self._serve(payload, openai=True)
            elif self.path == "/api/chat":
                self._serve(payload, openai=False)
            else:
                self._send(404, "404 page not found")

        # -- behaviours --------------------------------------------------
        def _serve(self, payload: dict[str, Any], openai: bool) -> None:
            model = str(payload.get("model", ""))
            n = server.count(model)
            stream = bool(payload.get("stream"))
            structured = "response_format" in payload or "format" in payload
            if model == "flaky" and n <= 2:
                return self._send(429, {"error": {"message": "slow down"}}, {"Retry-After": "0"})
            if model == "flaky5xx" and n <= 1:
                return self._send(503, {"error": {"message": "overloaded"}})
            if model == "broken":
                return self._send(500, {"error": {"message": "internal failure"}})
            if model == "patient":
                return self._send(429, {"error": {"message": "quota"}}, {"Retry-After": "3600"})
            if model == "slow":
                time.sleep(server.slow_seconds)
            if model == "garbage":
                if stream:
                    return self._stream(["data: {not json\n\n"] if openai else ["{not json\n"])
                return self._send(200, "<html>oops</html>")
            if model == "empty":
                return self._send(200, {"id": "x", "object": "chat.completion"} if openai else {"done": True, "x": 1})
            if model == "nostructured" and structured:
                return self._send(400, {"error": {"message": "response_format is not supported"}})
            if model == "jsonobject" and structured and payload["response_format"].get("type") != "json_object":
                detail = "('body', 'response_format', 'type'): Input should be 'text' or 'json_object'"
                return self._send(500, {"error": {"message": f"1 validation error: {detail}"}})
            known = {"flaky", "flaky5xx", "slow", "nostructured", "jsonobject", "midstream"}
            known = model in known or model.startswith("good")
            if not known:
                if openai:
                    err = {"error": {"message": f"The model `{model}` does not exist", "code": "model_not_found"}}
                else:
                    err = {"error": f"model '{model}' not found, try pulling it first"}
                return self._send(404, err)
            text = server.reply
            if structured:
                text = json.dumps({"answer": server.reply}, ensure_ascii=False)
            if not stream:
                if openai:
                    body = {"choices": [{"index": 0, "message": {"role": "assistant", "content": text}}]}
                else:
                    body = {"model": model, "message": {"role": "assistant", "content": text}, "done": True}
                return self._send(200, body)
            events: list[str] = []
            for piece in server.pieces():
                if openai:
                    chunk = {"choices": [{"index": 0, "delta": {"content": piece}}]}
                    events.append(f"data: {json.dumps(chunk, ensure_ascii=False)}\n\n")
                else:
                    line = {"message": {"role": "assistant", "content": piece}, "done": False}
                    events.append(json.dumps(line, ensure_ascii=False) + "\n")
                if model == "midstream":
                    err = {"error": {"message": "backend crashed"}} if openai else {"error": "backend crashed"}
                    events.append(
                        f"data: {json.dumps(err)}\n\n" if openai else json.dumps(err) + "\n"
                    )
                    break
            if openai:
                events.append('data: {"choices": []}\n\n')  # usage-only chunk, as OpenAI sends
                events.append("data: [DONE]\n\n")
            else:
                events.append(json.dumps({"done": True, "eval_count": 7}) + "\n")
            self._stream(events)

        # -- wire format --------------------------------------------------
        def _send(self, status: int, body: Any, headers: dict[str, str] | None = None) -> None:
            data = (body if isinstance(body, str) else json.dumps(body, ensure_ascii=False)).encode()
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            for key, value in (headers or {}).items():
                self.send_header(key, value)
            self.end_headers()
            self.wfile.write(data)

        def _stream(self, events: list[str]) -> None:
            self.send_response(200)
            self.send_header("Content-Type", "text/event-stream")
            self.send_header("Connection", "close")
            self.end_headers()
            for event in events:
                self.wfile.write(event.encode())
                self.wfile.flush()
            self.close_connection = True

    return Handler
