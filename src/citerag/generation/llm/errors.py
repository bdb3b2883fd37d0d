"""What can go wrong when talking to a model server, one class per cause.

All are ``GenerationError`` so the CLI prints them as one line; the class
lets callers (and tests) tell an unreachable server from a bad reply.
"""

from __future__ import annotations

from citerag.errors import GenerationError


class LLMUnreachable(GenerationError):
    """No connection could be made to the server URL."""


class LLMTimeout(GenerationError):
    """The server accepted the request but did not answer in time."""


class LLMModelNotFound(GenerationError):
    """The server does not know the requested model."""


class LLMMalformedReply(GenerationError):
    """The server answered with something that is not the expected JSON."""


class LLMHTTPError(GenerationError):
    """The server refused the request (auth, bad request, rate limit, server error)."""

    def __init__(self, message: str, status: int) -> None:
        super().__init__(message)
        self.status = status
