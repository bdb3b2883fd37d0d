"""When to try a request again, and how long to wait first."""

from __future__ import annotations

from dataclasses import dataclass
from email.utils import parsedate_to_datetime
from datetime import datetime, timezone

RETRY_STATUSES = frozenset({429, 500, 502, 503, 504})


@dataclass(frozen=True, slots=True)
class RetryPolicy:
    """Exponential backoff on 429 and 5xx.

    ``Retry-After`` from the server wins when it is at most
    ``max_retry_after`` seconds; a longer demand stops retrying, because
    silently waiting minutes in a terminal looks like a hang.
    """

    max_retries: int = 3
    base_delay: float = 0.5
    max_delay: float = 8.0
    max_retry_after: float = 30.0

    def __post_init__(self) -> None:
        if self.max_retries < 0:
            from citerag.errors import InvalidInput

            raise InvalidInput(f"max_retries must be >= 0, got {self.max_retries}")

    def should_retry(self, status: int) -> bool:
        return status in RETRY_STATUSES

    def delay(self, attempt: int, retry_after: str | None = None) -> float | None:
        """Seconds to wait before retry number ``attempt`` (0-based), or None to give up."""
        if attempt >= self.max_retries:
            return None
        asked = parse_retry_after(retry_after)
        if asked is not None:
            return asked if asked <= self.max_retry_after else None
        return min(self.max_delay, self.base_delay * (2**attempt))


def parse_retry_after(value: str | None) -> float | None:
    """Seconds from a ``Retry-After`` header (delta-seconds or an HTTP date)."""
    if not value:
        return None
    value = value.strip()
    try:
        return max(0.0, float(value))
    except ValueError:
        pass
    try:
        when = parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    if when.tzinfo is None:
        when = when.replace(tzinfo=timezone.utc)
    return max(0.0, (when - datetime.now(timezone.utc)).total_seconds())
