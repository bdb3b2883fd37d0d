"""``.docx``: paragraphs and tables in order; heading styles become headings."""

from __future__ import annotations

import io
import re
import zipfile
from typing import Any

from citerag.errors import DocumentError
from citerag.loaders.builder import TextBuilder, clean_inline
from citerag.loaders.parsed import Parsed
from citerag.loaders.text import first_title

# Built-in heading styles, also as Word names them in a Russian interface.
_HEADING_STYLE = re.compile(r"^(?:heading|заголовок)\s*(\d)$", re.IGNORECASE)


def parse_docx(data: bytes) -> Parsed:
    import docx
    from docx.table import Table

    try:
        document = docx.Document(io.BytesIO(data))
        blocks: list[tuple[int | None, str]] = []
        for block in document.iter_inner_content():
            if isinstance(block, Table):
                blocks.extend((None, " | ".join(_unique_cells(row))) for row in block.rows)
            else:
                blocks.append((_heading_level(block), clean_inline(block.text)))
        core_title = (document.core_properties.title or "").strip()
    except (zipfile.BadZipFile, KeyError, ValueError) as e:
        raise DocumentError(f"corrupt or unreadable DOCX ({type(e).__name__}: {e})") from e
    # A "Title" paragraph sits above "Heading 1" in the heading path.
    shift = 1 if any(level == 0 for level, text in blocks if text) else 0
    builder = TextBuilder()
    for level, text in blocks:
        if level is None:
            builder.paragraph(text)
        else:
            builder.heading(level + shift, text)
    doc_title = next((text for level, text in blocks if level == 0 and text), "")
    if not builder.text().strip():
        raise DocumentError("DOCX has no text")
    return builder.build("docx", core_title or doc_title or first_title(builder.outline))


def _heading_level(paragraph: Any) -> int | None:
    """0 for the Title style, 1-9 for Heading N, None for body text."""
    name = (paragraph.style.name if paragraph.style is not None else "") or ""
    if name.lower() in ("title", "название", "заголовок"):
        return 0
    match = _HEADING_STYLE.match(name.strip())
    return int(match.group(1)) if match else None


def _unique_cells(row: Any) -> list[str]:
    # Merged cells repeat the same cell object; show each once.
    seen: list[Any] = []
    texts: list[str] = []
    for cell in row.cells:
        if any(cell._tc is s for s in seen):
            continue
        seen.append(cell._tc)
        text = clean_inline(cell.text)
        if text:
            texts.append(text)
    return texts
