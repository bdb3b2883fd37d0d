"""Metadata filters, turned into a boolean row mask that each retriever
applies before its top-k (so a filter never empties an otherwise full page).

Text syntax (``--filter``)::

    format=pdf               equality (any element, when the value is a list)
    format=pdf|docx          one of
    page>=3   page<10        numeric bounds
    date>=2024-01-01         date bounds (ISO dates; datetimes compare by day)
    year=2019..2021          inclusive range (numbers or dates)
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Sequence
from dataclasses import dataclass
from enum import Enum
from typing import Any

import numpy as np

from citerag.errors import InvalidInput
from citerag.types import Chunk


class FilterOp(str, Enum):
    EQ = "="
    ONE_OF = "one-of"
    RANGE = "range"


_SYNTAX = "use key=value, key=a|b, key>=x, key<=x, key>x, key<x or key=lo..hi"
_PATTERN = re.compile(r"^\s*([^=<>!\s]+)\s*(>=|<=|=|>|<)\s*(.*?)\s*$", re.DOTALL)
_ATTRIBUTES = ("id", "doc_id", "ordinal", "source")


def _scalar(value: Any) -> Any:
    """A comparable form: number, date, or case-folded text."""
    if isinstance(value, bool):
        return str(value).lower()
    if isinstance(value, (int, float)):
        return float(value)
    if isinstance(value, dt.datetime):
        return value.date()
    if isinstance(value, dt.date):
        return value
    text = str(value).strip()
    try:
        return float(text)
    except ValueError:
        pass
    try:
        return dt.date.fromisoformat(text[:10]) if len(text) >= 10 else dt.date.fromisoformat(text)
    except ValueError:
        return text.casefold()


def _compare(a: Any, b: Any) -> int | None:
    """-1/0/1, or None when the two are not comparable (number vs text...)."""
    if type(a) is not type(b):
        return None
    return (a > b) - (a < b)


@dataclass(frozen=True, slots=True)
class MetadataFilter:
    key: str
    op: FilterOp
    values: tuple[Any, ...] = ()
    low: Any = None
    high: Any = None
    low_inclusive: bool = True
    high_inclusive: bool = True

    def matches_value(self, value: Any) -> bool:
        if value is None:
            return False
        if isinstance(value, (list, tuple, set, frozenset)):
            return any(self.matches_value(v) for v in value)
        v = _scalar(value)
        if self.op in (FilterOp.EQ, FilterOp.ONE_OF):
            return any(_compare(v, _scalar(want)) == 0 for want in self.values)
        if self.low is not None:
            c = _compare(v, _scalar(self.low))
            if c is None or c < 0 or (c == 0 and not self.low_inclusive):
                return False
        if self.high is not None:
            c = _compare(v, _scalar(self.high))
            if c is None or c > 0 or (c == 0 and not self.high_inclusive):
                return False
        return True

    def matches(self, chunk: Chunk) -> bool:
        if self.key in chunk.metadata:
            return self.matches_value(chunk.metadata[self.key])
        if self.key in _ATTRIBUTES:
            return self.matches_value(getattr(chunk, self.key))
        return False

    def describe(self) -> str:
        if self.op is FilterOp.EQ:
            return f"{self.key}={self.values[0]}"
        if self.op is FilterOp.ONE_OF:
            return f"{self.key}=" + "|".join(map(str, self.values))
        low = "" if self.low is None else str(self.low)
        high = "" if self.high is None else str(self.high)
        return f"{self.key}={low}..{high}"


def parse_filter(text: str) -> MetadataFilter:
    match = _PATTERN.match(text)
    if not match or not match.group(3):
        raise InvalidInput(f"cannot read filter {text!r}: {_SYNTAX}")
    key, op, value = match.groups()
    if op == "=":
        if ".." in value:
            low, _, high = value.partition("..")
            if not low and not high:
                raise InvalidInput(f"filter {text!r} has an empty range: {_SYNTAX}")
            return MetadataFilter(key, FilterOp.RANGE, low=low or None, high=high or None)
        options = tuple(v.strip() for v in value.split("|") if v.strip())
        if len(options) > 1:
            return MetadataFilter(key, FilterOp.ONE_OF, values=options)
        return MetadataFilter(key, FilterOp.EQ, values=options)
    if op.startswith(">"):
        return MetadataFilter(key, FilterOp.RANGE, low=value, low_inclusive=op == ">=")
    return MetadataFilter(key, FilterOp.RANGE, high=value, high_inclusive=op == "<=")


def build_mask(chunks: Sequence[Chunk], filters: Sequence[MetadataFilter]) -> np.ndarray | None:
    """Rows passing every filter (``None`` when there are no filters: all rows)."""
    if not filters:
        return None
    return np.fromiter(
        (all(f.matches(c) for f in filters) for c in chunks), dtype=bool, count=len(chunks)
    )
