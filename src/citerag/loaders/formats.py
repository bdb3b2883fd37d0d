"""Which parser reads which file extension.

Parsers for PDF, HTML and DOCX import their libraries lazily, so loading a
folder of plain text never pays for them.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from types import MappingProxyType

from citerag.loaders.parsed import Parsed

Parser = Callable[[bytes], Parsed]


def _txt(data: bytes) -> Parsed:
    from citerag.loaders.plain import parse_txt

    return parse_txt(data)


def _md(data: bytes) -> Parsed:
    from citerag.loaders.plain import parse_md

    return parse_md(data)


def _pdf(data: bytes) -> Parsed:
    from citerag.loaders.pdf import parse_pdf

    return parse_pdf(data)


def _html(data: bytes) -> Parsed:
    from citerag.loaders.html import parse_html

    return parse_html(data)


def _docx(data: bytes) -> Parsed:
    from citerag.loaders.docx import parse_docx

    return parse_docx(data)


PARSERS: Mapping[str, Parser] = MappingProxyType({
    ".txt": _txt,
    ".text": _txt,
    ".md": _md,
    ".markdown": _md,
    ".pdf": _pdf,
    ".html": _html,
    ".htm": _html,
    ".docx": _docx,
})

RECORD_SUFFIXES = (".jsonl",)

SUPPORTED_SUFFIXES: tuple[str, ...] = tuple(sorted(PARSERS)) + RECORD_SUFFIXES


def parser_for(suffix: str) -> Parser | None:
    return PARSERS.get(suffix.lower())
