"""How many tokens a text costs, to decide how many sources fit in the prompt.

The default is a documented estimate that needs no tokenizer files:

    tokens ≈ Cyrillic letters / 1.8 + other letters / 4 + digits / 2 + other symbols

(one token per punctuation mark or symbol; whitespace is free). Measured with
``bench/tokens.py`` against OpenAI's vocabularies, the estimate over the real
count is 1.04 (cl100k, GPT-4) and 1.82 (o200k, GPT-4o) on Russian XQuAD
paragraphs, 1.13-1.14 for both on English ones: it errs on the side of more
tokens, so the prompt stays inside the model's window (vocabularies of local
models spend fewer tokens on Russian than cl100k). With the optional
``tiktoken`` package (``pip install citerag[tiktoken]``) and an OpenAI model
name, the real tokenizer counts instead (its vocabulary must already be in
tiktoken's cache: nothing is downloaded here).
"""

from __future__ import annotations

import math
import re
from enum import Enum
from typing import Protocol

from citerag.errors import InvalidInput

CYRILLIC_PER_TOKEN = 1.8
_CYRILLIC = re.compile(r"[\u0400-\u04FF]")
_LETTER = re.compile(r"[^\W\d_]", re.UNICODE)
_DIGIT = re.compile(r"\d")
_SYMBOL = re.compile(r"[^\w\s]", re.UNICODE)


class TokenCounter(Protocol):
    name: str

    def count(self, text: str) -> int: ...


class TokenizerMode(str, Enum):
    ESTIMATE = "estimate"
    TIKTOKEN = "tiktoken"
    AUTO = "auto"  # tiktoken for OpenAI model names when available, else the estimate


class EstimateCounter:
    """The character-class estimate described in the module docstring."""

    name = "estimate"

    def count(self, text: str) -> int:
        cyrillic = len(_CYRILLIC.findall(text))
        letters = len(_LETTER.findall(text)) - cyrillic
        digits = len(_DIGIT.findall(text))
        symbols = len(_SYMBOL.findall(text))
        return math.ceil(cyrillic / CYRILLIC_PER_TOKEN + letters / 4 + digits / 2 + symbols)


class TiktokenCounter:
    """OpenAI's tokenizer (optional dependency)."""

    def __init__(self, model: str) -> None:
        self.model = model
        self.name = f"tiktoken:{model}"
        self._encoding = None

    def _enc(self):  # type: ignore[no-untyped-def]
        if self._encoding is None:
            try:
                import tiktoken
            except ImportError as exc:
                raise InvalidInput(
                    "tokenizer 'tiktoken' needs the optional package: pip install 'citerag[tiktoken]'"
                ) from exc
            try:
                self._encoding = tiktoken.encoding_for_model(self.model)
            except KeyError:
                self._encoding = tiktoken.get_encoding("o200k_base")
        return self._encoding

    def count(self, text: str) -> int:
        return len(self._enc().encode(text, disallowed_special=()))


def _openai_model(model: str | None) -> str | None:
    if not model:
        return None
    provider, _, name = model.partition(":")
    name = name if provider in ("openai",) else ""
    return name if re.match(r"(gpt-|o\d|chatgpt)", name) else None


def make_counter(mode: TokenizerMode | str = TokenizerMode.ESTIMATE, model: str | None = None) -> TokenCounter:
    """A token counter for ``model`` (a spec such as ``openai:gpt-4o-mini``)."""
    try:
        mode = TokenizerMode(mode)
    except ValueError:
        valid = ", ".join(m.value for m in TokenizerMode)
        raise InvalidInput(f"unknown tokenizer {mode!r}; use one of {valid}") from None
    if mode is TokenizerMode.ESTIMATE:
        return EstimateCounter()
    name = _openai_model(model)
    if mode is TokenizerMode.TIKTOKEN:
        return TiktokenCounter(name or "gpt-4o")
    if name is None:
        return EstimateCounter()
    counter = TiktokenCounter(name)
    try:
        counter.count("probe")  # the vocabulary may be missing offline: then estimate
    except Exception:  # noqa: BLE001 - any failure means "not usable here"
        return EstimateCounter()
    return counter
