"""Model clients behind one interface: ``make_llm("openai:<model>" | "ollama:<model>")``.

``make_llm()`` with no spec and no ``$CITERAG_LLM`` returns None: the caller
works offline (the answer pipeline then falls back to extractive answers).
"""

from citerag.generation.llm.base import LLMClient, Message
from citerag.generation.llm.errors import (
    LLMHTTPError,
    LLMMalformedReply,
    LLMModelNotFound,
    LLMTimeout,
    LLMUnreachable,
)
from citerag.generation.llm.factory import Provider, make_llm, parse_spec
from citerag.generation.llm.ollama import OllamaClient
from citerag.generation.llm.openai import OpenAIClient
from citerag.generation.llm.retry import RetryPolicy

__all__ = [
    "LLMClient",
    "LLMHTTPError",
    "LLMMalformedReply",
    "LLMModelNotFound",
    "LLMTimeout",
    "LLMUnreachable",
    "Message",
    "OllamaClient",
    "OpenAIClient",
    "Provider",
    "RetryPolicy",
    "make_llm",
    "parse_spec",
]
