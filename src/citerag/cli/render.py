"""Terminal rendering helpers shared by the commands (rich)."""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from pathlib import Path

from rich.console import Console
from rich.text import Text


def console() -> Console:
    return Console(highlight=False, soft_wrap=False)


def error_console() -> Console:
    # soft_wrap: an error stays one line however narrow the terminal
    return Console(stderr=True, highlight=False, soft_wrap=True)


def display_source(source: str, fallback: str = "") -> str:
    """A short form of a source path: relative to the working folder when inside it."""
    if not source:
        return fallback
    path = Path(source)
    if path.is_absolute():
        try:
            return str(path.relative_to(Path.cwd()))
        except ValueError:
            parts = path.parts
            return source if len(parts) <= 3 else str(Path("…", *parts[-2:]))
    return source


def chunk_body(text: str, metadata: Mapping[str, object]) -> str:
    """The chunk's own text, without the heading prefix added for retrieval."""
    prefix = metadata.get("prefix")
    if isinstance(prefix, str) and prefix and text.startswith(prefix):
        return text[len(prefix) :]
    return text


def snippet(text: str, words: Iterable[str], width: int = 240) -> Text:
    """A one-paragraph snippet around the first matched word, matches in bold.

    ``words`` are surface forms found in the text (not lemmas), so the
    highlight shows exactly what the user will see in the source.
    """
    flat = " ".join(text.split())
    needles = sorted({w for w in words if w}, key=len, reverse=True)
    pattern = (
        re.compile("|".join(rf"(?<!\w){re.escape(w)}(?!\w)" for w in needles), re.IGNORECASE)
        if needles
        else None
    )
    first = pattern.search(flat) if pattern else None
    start = 0
    if first and first.start() > width // 3:
        start = flat.rfind(" ", 0, first.start() - width // 4) + 1
    piece = flat[start : start + width]
    if start + width < len(flat):
        piece = piece.rsplit(" ", 1)[0] + " …"
    if start > 0:
        piece = "… " + piece
    out = Text(piece)
    if pattern:
        out.highlight_regex(pattern, style="bold yellow")
    return out
