"""The common shape every format parser returns."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from citerag.loaders.text import Heading


@dataclass(frozen=True)
class Parsed:
    """Text extracted from one file, before it becomes a ``Document``.

    ``outline`` holds the headings with their offsets into ``text`` (the
    markdown chunker splits on them); ``extra`` is format-specific metadata,
    e.g. ``pages`` for PDF.
    """

    text: str
    format: str
    title: str = ""
    outline: list[Heading] = field(default_factory=list)
    extra: dict[str, Any] = field(default_factory=dict)
