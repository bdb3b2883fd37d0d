"""Build a client from a spec string such as ``openai:gpt-4o-mini`` or ``ollama:qwen2.5``."""

from __future__ import annotations

import os
from enum import Enum

from citerag.errors import InvalidInput
from citerag.generation.llm.base import LLMClient
from citerag.generation.llm.ollama import DEFAULT_HOST, OllamaClient
from citerag.generation.llm.openai import DEFAULT_BASE_URL, OpenAIClient
from citerag.generation.llm.retry import RetryPolicy

ENV_SPEC = "CITERAG_LLM"
_OFF = frozenset({"", "none", "off", "offline", "extractive"})


class Provider(str, Enum):
    OPENAI = "openai"
    OLLAMA = "ollama"


def parse_spec(spec: str) -> tuple[Provider, str]:
    """``"ollama:qwen2.5:7b"`` → ``(Provider.OLLAMA, "qwen2.5:7b")`` (model names may hold colons)."""
    provider, sep, model = spec.strip().partition(":")
    valid = ", ".join(f"{p.value}:<model>" for p in Provider)
    try:
        kind = Provider(provider.strip().lower())
    except ValueError:
        raise InvalidInput(f"unknown LLM provider in {spec!r}; use one of {valid}") from None
    if not sep or not model.strip():
        raise InvalidInput(f"LLM spec {spec!r} names no model; use {kind.value}:<model>, e.g. {kind.value}:qwen2.5")
    return kind, model.strip()


def make_llm(
    spec: str | None = None,
    *,
    base_url: str | None = None,
    api_key: str | None = None,
    timeout: float = 60.0,
    max_retries: int = 3,
    retry_delay: float = 0.5,
) -> LLMClient | None:
    """A client for ``spec`` (or ``$CITERAG_LLM``), or None when no model is configured.

    None means "work offline": the pipeline then answers extractively.
    OpenAI-compatible: base URL from ``base_url``, ``$CITERAG_OPENAI_BASE_URL``,
    ``$OPENAI_BASE_URL``, else api.openai.com; key from ``api_key``,
    ``$CITERAG_OPENAI_API_KEY`` or ``$OPENAI_API_KEY`` (local servers need none).
    Ollama: host from ``base_url``, ``$OLLAMA_HOST``, else 127.0.0.1:11434.
    """
    if spec is None:
        spec = os.environ.get(ENV_SPEC)
    if spec is None or spec.strip().lower() in _OFF:
        return None
    if timeout <= 0:
        raise InvalidInput(f"LLM timeout must be positive, got {timeout}")
    kind, model = parse_spec(spec)
    retry = RetryPolicy(max_retries=max_retries, base_delay=retry_delay)
    if kind is Provider.OPENAI:
        url = (
            base_url
            or os.environ.get("CITERAG_OPENAI_BASE_URL")
            or os.environ.get("OPENAI_BASE_URL")
            or DEFAULT_BASE_URL
        )
        key = api_key or os.environ.get("CITERAG_OPENAI_API_KEY") or os.environ.get("OPENAI_API_KEY")
        return OpenAIClient(model, base_url=url, api_key=key, timeout=timeout, retry=retry)
    host = base_url or os.environ.get("OLLAMA_HOST") or DEFAULT_HOST
    return OllamaClient(model, host=host, timeout=timeout, retry=retry)
