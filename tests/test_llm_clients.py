"""Both model clients against a real HTTP server on 127.0.0.1 speaking their wire protocols."""

from __future__ import annotations

import json
from collections.abc import Iterator

import pytest

from citerag.errors import GenerationError, InvalidInput
from citerag.generation.llm import (
    LLMClient,
    LLMHTTPError,
    LLMMalformedReply,
    LLMModelNotFound,
    LLMTimeout,
    LLMUnreachable,
    Message,
    make_llm,
)
from fake_llm_server import DEFAULT_REPLY, FakeLLMServer

MESSAGES = [Message("system", "Отвечай только по источникам."), Message("user", "Сколько дней отпуска?")]
PROVIDERS = ["openai", "ollama"]


@pytest.fixture(scope="module")
def server() -> Iterator[FakeLLMServer]:
    with FakeLLMServer(slow_seconds=1.0) as srv:
        yield srv


def client(server: FakeLLMServer, provider: str, model: str, **kw: object) -> LLMClient:
    kw.setdefault("retry_delay", 0.001)
    llm = make_llm(f"{provider}:{model}", base_url=server.url, **kw)  # type: ignore[arg-type]
    assert llm is not None
    return llm


def last_request(server: FakeLLMServer) -> dict:
    return server.requests[-1]


@pytest.mark.parametrize("provider", PROVIDERS)
def test_chat_returns_the_reply_text(server: FakeLLMServer, provider: str) -> None:
    llm = client(server, provider, "good")
    assert llm.name == f"{provider}:good"
    assert isinstance(llm, LLMClient)
    assert llm.chat(MESSAGES, temperature=0.2, max_tokens=50) == DEFAULT_REPLY
    sent = last_request(server)["json"]
    assert sent["messages"][1] == {"role": "user", "content": "Сколько дней отпуска?"}
    assert sent["stream"] is False
    if provider == "openai":
        assert last_request(server)["path"] == "/v1/chat/completions"
        assert sent["max_tokens"] == 50 and sent["temperature"] == 0.2
    else:
        assert last_request(server)["path"] == "/api/chat"
        assert sent["options"] == {"temperature": 0.2, "num_predict": 50, "num_ctx": 4096}


@pytest.mark.parametrize("provider", PROVIDERS)
def test_stream_yields_pieces_that_join_to_the_reply(server: FakeLLMServer, provider: str) -> None:
    pieces = list(client(server, provider, "good-stream").stream(MESSAGES))
    assert len(pieces) > 3
    assert "".join(pieces) == DEFAULT_REPLY
    assert last_request(server)["json"]["stream"] is True


@pytest.mark.parametrize("provider", PROVIDERS)
def test_429_is_retried_until_success(server: FakeLLMServer, provider: str) -> None:
    server.calls["flaky"] = 0
    assert client(server, provider, "flaky").chat(MESSAGES) == DEFAULT_REPLY
    assert server.calls["flaky"] == 3


@pytest.mark.parametrize("provider", PROVIDERS)
def test_5xx_is_retried_for_streams_too(server: FakeLLMServer, provider: str) -> None:
    server.calls["flaky5xx"] = 0
    assert "".join(client(server, provider, "flaky5xx").stream(MESSAGES)) == DEFAULT_REPLY
    assert server.calls["flaky5xx"] == 2


@pytest.mark.parametrize("provider", PROVIDERS)
def test_persistent_500_gives_up_after_max_retries(server: FakeLLMServer, provider: str) -> None:
    server.calls["broken"] = 0
    with pytest.raises(LLMHTTPError, match="500.*internal failure") as info:
        client(server, provider, "broken", max_retries=2).chat(MESSAGES)
    assert info.value.status == 500
    assert server.calls["broken"] == 3  # one try + two retries


def test_a_long_retry_after_is_not_waited_for(server: FakeLLMServer) -> None:
    server.calls["patient"] = 0
    with pytest.raises(LLMHTTPError, match="429.*3600"):
        client(server, "openai", "patient").chat(MESSAGES)
    assert server.calls["patient"] == 1


def test_backoff_delays_grow_exponentially() -> None:
    from citerag.generation.llm import RetryPolicy

    policy = RetryPolicy(max_retries=3, base_delay=0.5, max_delay=1.5)
    assert [policy.delay(i) for i in range(4)] == [0.5, 1.0, 1.5, None]
    assert policy.delay(0, "2") == 2.0
    assert policy.delay(0, "3600") is None


@pytest.mark.parametrize("provider", PROVIDERS)
def test_slow_reply_past_the_timeout_says_timed_out(server: FakeLLMServer, provider: str) -> None:
    with pytest.raises(LLMTimeout, match="timed out: .* did not answer within 0.2 s"):
        client(server, provider, "slow", timeout=0.2).chat(MESSAGES)


@pytest.mark.parametrize("provider", PROVIDERS)
def test_malformed_json_is_reported(server: FakeLLMServer, provider: str) -> None:
    with pytest.raises(LLMMalformedReply, match="malformed reply.*not JSON"):
        client(server, provider, "garbage").chat(MESSAGES)
    with pytest.raises(LLMMalformedReply, match="malformed stream"):
        list(client(server, provider, "garbage").stream(MESSAGES))
    with pytest.raises(LLMMalformedReply, match="malformed reply"):
        client(server, provider, "empty").chat(MESSAGES)


@pytest.mark.parametrize("provider", PROVIDERS)
def test_unknown_model_is_named(server: FakeLLMServer, provider: str) -> None:
    with pytest.raises(LLMModelNotFound, match="'no-such-model' is not known"):
        client(server, provider, "no-such-model").chat(MESSAGES)
    with pytest.raises(LLMModelNotFound):
        list(client(server, provider, "no-such-model").stream(MESSAGES))


@pytest.mark.parametrize("provider", PROVIDERS)
def test_error_in_the_middle_of_a_stream_is_raised(server: FakeLLMServer, provider: str) -> None:
    received: list[str] = []
    with pytest.raises(GenerationError, match="backend crashed"):
        for piece in client(server, provider, "midstream").stream(MESSAGES):
            received.append(piece)
    assert received  # what arrived before the failure was delivered


def test_wrong_base_path_is_not_mistaken_for_unknown_model(server: FakeLLMServer) -> None:
    llm = make_llm("openai:good", base_url=server.url + "/wrong/v1")
    with pytest.raises(LLMHTTPError, match="check the base URL"):
        llm.chat(MESSAGES)  # type: ignore[union-attr]


@pytest.mark.parametrize("provider", PROVIDERS)
def test_unreachable_server_names_the_url(provider: str) -> None:
    import socket

    with socket.socket() as s:  # a port nobody listens on
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    llm = make_llm(f"{provider}:good", base_url=f"http://127.0.0.1:{port}")
    with pytest.raises(LLMUnreachable, match=f"unreachable at http://127.0.0.1:{port}"):
        llm.chat(MESSAGES)  # type: ignore[union-attr]


def test_structured_output_is_requested_and_falls_back(server: FakeLLMServer) -> None:
    schema = {"type": "object", "properties": {"answer": {"type": "string"}}, "required": ["answer"]}
    reply = client(server, "openai", "good").chat(MESSAGES, json_schema=schema)
    assert json.loads(reply) == {"answer": DEFAULT_REPLY}
    assert last_request(server)["json"]["response_format"]["json_schema"]["schema"] == schema
    # a server without structured output still answers (plain generation)
    assert client(server, "openai", "nostructured").chat(MESSAGES, json_schema=schema) == DEFAULT_REPLY
    assert "response_format" not in last_request(server)["json"]
    client(server, "ollama", "good").chat(MESSAGES, json_schema=schema)
    assert last_request(server)["json"]["format"] == schema


def test_json_object_servers_get_the_schema_in_that_form(server: FakeLLMServer) -> None:
    schema = {"type": "object", "properties": {"answer": {"type": "string"}}, "required": ["answer"]}
    llm = make_llm("openai:jsonobject", base_url=server.url, retry_delay=0.0)
    assert json.loads(llm.chat(MESSAGES, json_schema=schema)) == {"answer": DEFAULT_REPLY}  # type: ignore[union-attr]
    assert last_request(server)["json"]["response_format"] == {"type": "json_object", "schema": schema}
    asked = server.calls["jsonobject"]
    llm.chat(MESSAGES, json_schema=schema)  # type: ignore[union-attr]
    assert server.calls["jsonobject"] == asked + 1  # the rejected form is not tried again


def test_api_key_is_sent_as_bearer_only_when_given(server: FakeLLMServer, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    monkeypatch.delenv("CITERAG_OPENAI_API_KEY", raising=False)
    client(server, "openai", "good").chat(MESSAGES)
    assert "authorization" not in {k.lower() for k in last_request(server)["headers"]}
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test")
    client(server, "openai", "good").chat(MESSAGES)
    headers = {k.lower(): v for k, v in last_request(server)["headers"].items()}
    assert headers["authorization"] == "Bearer sk-test"


def test_environment_configures_the_client(server: FakeLLMServer, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("CITERAG_LLM", raising=False)
    assert make_llm() is None  # offline by default
    monkeypatch.setenv("CITERAG_LLM", "openai:good")
    monkeypatch.setenv("CITERAG_OPENAI_BASE_URL", server.url + "/v1")
    llm = make_llm()
    assert llm is not None and llm.name == "openai:good"
    assert llm.chat(MESSAGES) == DEFAULT_REPLY
    monkeypatch.setenv("CITERAG_LLM", "ollama:good")
    monkeypatch.setenv("OLLAMA_HOST", server.url.removeprefix("http://"))
    assert make_llm().chat(MESSAGES) == DEFAULT_REPLY  # type: ignore[union-attr]
    monkeypatch.setenv("CITERAG_LLM", "none")
    assert make_llm() is None


@pytest.mark.parametrize(
    ("spec", "message"),
    [("gpt-4o", "unknown LLM provider"), ("vertex:x", "openai:<model>, ollama:<model>"), ("ollama:", "names no model")],
)
def test_bad_specs_say_how_to_fix_them(spec: str, message: str) -> None:
    with pytest.raises(InvalidInput, match=message):
        make_llm(spec)


def test_ollama_model_names_keep_their_tag() -> None:
    llm = make_llm("ollama:qwen2.5:7b", base_url="localhost")
    assert llm is not None and llm.name == "ollama:qwen2.5:7b"
    assert llm.base_url == "http://localhost:11434"  # type: ignore[attr-defined]


@pytest.mark.parametrize(
    ("spec", "given", "expected"),
    [
        ("ollama:m", "0.0.0.0:11434", "http://127.0.0.1:11434"),  # OLLAMA_HOST as a bind address
        ("ollama:m", "https://ollama.example.org", "https://ollama.example.org"),
        ("openai:m", "127.0.0.1:8080", "http://127.0.0.1:8080/v1"),  # llama-server given as host:port
        ("openai:m", "http://127.0.0.1:1234/v1/", "http://127.0.0.1:1234/v1"),
        ("openai:m", "https://gateway.example.org/openai/v1", "https://gateway.example.org/openai/v1"),
    ],
)
def test_server_addresses_are_normalised(spec: str, given: str, expected: str) -> None:
    llm = make_llm(spec, base_url=given)
    assert llm.base_url == expected  # type: ignore[union-attr]


def test_retry_after_as_an_http_date() -> None:
    from email.utils import format_datetime
    from datetime import datetime, timedelta, timezone

    from citerag.generation.llm.retry import parse_retry_after

    soon = format_datetime(datetime.now(timezone.utc) + timedelta(seconds=20), usegmt=True)
    assert 15 <= parse_retry_after(soon) <= 20  # type: ignore[operator]
    assert parse_retry_after("garbage") is None
    assert parse_retry_after(None) is None


def test_ollama_context_window_fits_long_prompts(server: FakeLLMServer) -> None:
    long = [Message("user", "Отпуск сотрудника длится 28 календарных дней. " * 800)]  # ~17k estimated tokens
    client(server, "ollama", "good").chat(long, max_tokens=500)
    assert last_request(server)["json"]["options"]["num_ctx"] == 32768
    from citerag.generation.llm import OllamaClient

    OllamaClient("good", host=server.url, context_window=8192).chat(long)
    assert last_request(server)["json"]["options"]["num_ctx"] == 8192
