"""``.txt`` and ``.md`` parsers."""

from __future__ import annotations

from citerag.loaders.parsed import Parsed
from citerag.loaders.text import decode_text, first_title, markdown_outline


def parse_txt(data: bytes) -> Parsed:
    return Parsed(text=decode_text(data), format="txt")


def parse_md(data: bytes) -> Parsed:
    text = decode_text(data)
    outline = markdown_outline(text)
    return Parsed(text=text, format="md", title=first_title(outline), outline=outline)
