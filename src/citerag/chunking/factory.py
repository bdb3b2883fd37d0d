"""``make_chunker``: one entry point that checks every parameter before any work."""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import Any

from citerag.chunking.auto import AutoChunker
from citerag.chunking.base import Chunker, Strategy
from citerag.chunking.markdown import MarkdownChunker
from citerag.chunking.recursive import RecursiveChunker
from citerag.chunking.sentences import SentenceChunker
from citerag.chunking.windows import CharWindowChunker, WordWindowChunker
from citerag.errors import InvalidInput

# (size, overlap) when not given; words are counted in words, the rest in characters.
DEFAULTS: Mapping[Strategy, tuple[int, int]] = MappingProxyType({
    Strategy.AUTO: (1000, 0),
    Strategy.WORDS: (200, 40),
    Strategy.CHARS: (1000, 100),
    Strategy.RECURSIVE: (1000, 0),
    Strategy.SENTENCES: (1000, 0),
    Strategy.MARKDOWN: (1000, 0),
})

_MARKDOWN_OPTIONS = ("levels", "prepend_headings")
OPTIONS: Mapping[Strategy, tuple[str, ...]] = MappingProxyType({
    Strategy.AUTO: _MARKDOWN_OPTIONS,
    Strategy.MARKDOWN: _MARKDOWN_OPTIONS,
})


def parse_strategy(strategy: str | Strategy) -> Strategy:
    return Strategy.parse(strategy)


def make_chunker(
    strategy: str | Strategy = "auto",
    *,
    size: int | None = None,
    overlap: int | None = None,
    **options: Any,
) -> Chunker:
    """A chunker for ``strategy``, with every parameter checked up front.

    ``size`` is the maximum chunk length: in words for ``words``, in
    characters otherwise (the heading prefix of ``markdown`` chunks is not
    counted). Options: ``levels`` (1-6, deepest heading level that starts a
    section) and ``prepend_headings`` (bool) for ``markdown`` and ``auto``.
    """
    kind = parse_strategy(strategy)
    default_size, default_overlap = DEFAULTS[kind]
    unit = "words" if kind is Strategy.WORDS else "characters"
    size = _positive_int("size", default_size if size is None else size, unit)
    if overlap is None:
        # The default overlap is a share of the default size, so a smaller size keeps it valid.
        overlap = default_overlap * size // default_size
    overlap = _overlap(overlap, size, unit)
    allowed = OPTIONS.get(kind, ())
    unknown = sorted(set(options) - set(allowed))
    if unknown:
        hint = f"valid: {', '.join(allowed)}" if allowed else "it takes only size and overlap"
        raise InvalidInput(f"unknown option {unknown[0]!r} for the {kind.value} strategy ({hint})")
    if kind is Strategy.WORDS:
        return WordWindowChunker(size, overlap)
    if kind is Strategy.CHARS:
        return CharWindowChunker(size, overlap)
    if kind is Strategy.RECURSIVE:
        return RecursiveChunker(size, overlap)
    if kind is Strategy.SENTENCES:
        return SentenceChunker(size, overlap)
    markdown = MarkdownChunker(size, overlap, **_markdown_options(options))
    if kind is Strategy.MARKDOWN:
        return markdown
    return AutoChunker(markdown, SentenceChunker(size, overlap))


def _positive_int(name: str, value: Any, unit: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise InvalidInput(f"chunk {name} must be a whole number of {unit} >= 1, got {value!r}")
    return value


def _overlap(value: Any, size: int, unit: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise InvalidInput(f"chunk overlap must be a whole number of {unit} >= 0, got {value!r}")
    if value >= size:
        raise InvalidInput(
            f"chunk overlap {value} must be smaller than the size {size} "
            f"(each chunk has to move forward); try --overlap {size // 5}"
        )
    return value


def _markdown_options(options: dict[str, Any]) -> dict[str, Any]:
    result: dict[str, Any] = {}
    if "levels" in options:
        levels = options["levels"]
        if isinstance(levels, bool) or not isinstance(levels, int) or not 1 <= levels <= 6:
            raise InvalidInput(f"heading levels must be 1..6 (deepest level that starts a section), got {levels!r}")
        result["levels"] = levels
    if "prepend_headings" in options:
        value = options["prepend_headings"]
        if not isinstance(value, bool):
            raise InvalidInput(f"prepend_headings must be true or false, got {value!r}")
        result["prepend_headings"] = value
    return result
