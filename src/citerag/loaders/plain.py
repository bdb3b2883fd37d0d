"""``.txt`` and ``.md`` parsers."""

from __future__ import annotations

import re

from citerag.loaders.parsed import Parsed
from citerag.loaders.text import decode_text, first_title, markdown_outline

# YAML front matter (Jekyll, Hugo, Obsidian): only its title is used.
_FRONT_MATTER = re.compile(r"\A---[ \t]*\n(.*?\n)(?:---|\.\.\.)[ \t]*(?:\n|\Z)", re.DOTALL)
_TITLE_KEY = re.compile(r"^title:[ \t]*(.+?)[ \t]*$", re.MULTILINE)


def parse_txt(data: bytes) -> Parsed:
    return Parsed(text=decode_text(data), format="txt")


def parse_md(data: bytes) -> Parsed:
    text = decode_text(data)
    outline = markdown_outline(text)
    return Parsed(text=text, format="md", title=front_matter_title(text) or first_title(outline), outline=outline)


def front_matter_title(text: str) -> str:
    match = _FRONT_MATTER.match(text)
    if not match:
        return ""
    title = _TITLE_KEY.search(match.group(1))
    return title.group(1).strip("'\"") if title else ""
