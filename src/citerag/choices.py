"""Named modes given by users (retrievers, strategies, fusion methods, ...).

One ``parse`` for all of them, so every bad value gets the same kind of
message: what was wrong and the valid names.
"""

from __future__ import annotations

from enum import Enum
from typing import TypeVar

from citerag.errors import InvalidInput

C = TypeVar("C", bound="Choice")


class Choice(str, Enum):
    """A ``str`` enum whose ``parse`` accepts any case and names the valid values on error."""

    @classmethod
    def kind(cls) -> str:
        """How the value is called in messages (e.g. "fusion method")."""
        return cls.__name__.lower()

    @classmethod
    def parse(cls: type[C], value: "str | C") -> C:
        if isinstance(value, cls):
            return value
        try:
            return cls(str(value).strip().lower())
        except ValueError:
            valid = ", ".join(member.value for member in cls)
            raise InvalidInput(f"unknown {cls.kind()} {value!r}; use one of: {valid}") from None
