"""The one interface every model client implements, and the values it takes."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any, Protocol, runtime_checkable

ROLES = ("system", "user", "assistant")


@dataclass(frozen=True, slots=True)
class Message:
    """One chat turn: ``role`` is ``system``, ``user`` or ``assistant``."""

    role: str
    content: str

    def __post_init__(self) -> None:
        if self.role not in ROLES:
            from citerag.errors import InvalidInput

            raise InvalidInput(f"message role {self.role!r} is not one of {', '.join(ROLES)}")

    def to_json(self) -> dict[str, str]:
        return {"role": self.role, "content": self.content}


@runtime_checkable
class LLMClient(Protocol):
    """A chat model behind some server. ``name`` is the spec, e.g. ``ollama:qwen2.5``."""

    name: str

    def chat(
        self,
        messages: Sequence[Message],
        *,
        temperature: float = 0.0,
        max_tokens: int | None = None,
        json_schema: dict[str, Any] | None = None,
    ) -> str:
        """The whole reply. ``json_schema`` asks for structured output where supported."""
        ...

    def stream(
        self,
        messages: Sequence[Message],
        *,
        temperature: float = 0.0,
        max_tokens: int | None = None,
    ) -> Iterator[str]:
        """The reply piece by piece, as the server produces it."""
        ...
