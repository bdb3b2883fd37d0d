"""``.pdf``: the text layer page by page, with page offsets and bookmarks as headings."""

from __future__ import annotations

import io
import logging
from typing import Any

from citerag.errors import DocumentError
from citerag.loaders.builder import PARAGRAPH_BREAK, clean_inline
from citerag.loaders.parsed import Parsed
from citerag.loaders.text import Heading


def parse_pdf(data: bytes) -> Parsed:
    from pypdf import PdfReader
    from pypdf.errors import PyPdfError

    # pypdf logs warnings about odd but readable files; they are not ours to print.
    logging.getLogger("pypdf").setLevel(logging.ERROR)
    try:
        reader = PdfReader(io.BytesIO(data))
        if reader.is_encrypted and not _opens_without_password(reader):
            raise DocumentError("password-protected PDF (remove the password and try again)")
        page_texts = [_page_text(page) for page in reader.pages]
        title = _metadata_title(reader)
        bookmarks = _bookmarks(reader)
    except DocumentError:
        raise
    except (PyPdfError, ValueError, KeyError, TypeError, OSError, NotImplementedError) as e:
        raise DocumentError(f"corrupt or unreadable PDF ({type(e).__name__}: {e})") from e
    if not any(t.strip() for t in page_texts):
        raise DocumentError("PDF has no text layer (scanned? run OCR on it first)")
    parts: list[str] = []
    pages: list[int] = []
    length = 0
    for number, text in enumerate(page_texts):
        if number:
            parts.append(PARAGRAPH_BREAK)
            length += len(PARAGRAPH_BREAK)
        pages.append(length)
        parts.append(text)
        length += len(text)
    text = "".join(parts)
    outline = _locate(bookmarks, text, pages)
    return Parsed(
        text=text, format="pdf", title=title, outline=outline, extra={"pages": pages, "page_count": len(pages)}
    )


def _opens_without_password(reader: Any) -> bool:
    # Many PDFs are encrypted with an empty user password (only editing is locked).
    try:
        return bool(reader.decrypt(""))
    except Exception:  # e.g. AES without the optional crypto library
        return False


def _page_text(page: Any) -> str:
    text = page.extract_text() or ""
    return "\n".join(clean_inline(line) for line in text.splitlines()).strip()


def _metadata_title(reader: Any) -> str:
    try:
        meta = reader.metadata
    except Exception:  # broken info dictionary: the title is optional
        return ""
    title = getattr(meta, "title", None) if meta else None
    return clean_inline(str(title)) if title else ""


def _bookmarks(reader: Any) -> list[tuple[int, str, int]]:
    """(level, title, page index) of each bookmark, in reading order."""
    found: list[tuple[int, str, int]] = []

    def visit(items: list[Any], level: int) -> None:
        for item in items:
            if isinstance(item, list):
                visit(item, level + 1)
                continue
            try:
                page = reader.get_destination_page_number(item)
            except Exception:  # a bookmark without a page target is just skipped
                continue
            if page is not None and page >= 0 and getattr(item, "title", None):
                found.append((level, clean_inline(str(item.title)), page))

    try:
        visit(reader.outline, 1)
    except Exception:  # a broken outline must not make the text unreadable
        return []
    return found


def _locate(bookmarks: list[tuple[int, str, int]], text: str, pages: list[int]) -> list[Heading]:
    """Find each bookmark's title on its page, so headings get real offsets."""
    outline: list[Heading] = []
    for level, title, page in bookmarks:
        if page >= len(pages):
            continue
        page_end = pages[page + 1] if page + 1 < len(pages) else len(text)
        at = text.find(title, pages[page], page_end)
        if at < 0:
            continue
        outline.append(Heading(min(level, 6), title, at, at + len(title)))
    outline.sort(key=lambda h: h.start)
    return outline
