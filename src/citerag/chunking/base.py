"""What every chunker shares: the strategy names, the protocol, and chunk building."""

from __future__ import annotations

import bisect
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from citerag.choices import Choice
from citerag.loaders.text import Heading, markdown_outline
from citerag.types import Chunk, Document

Progress = Callable[[int, int], None]

HEADING_SEPARATOR = " / "


class Strategy(Choice):
    """How a document is cut into chunks."""

    AUTO = "auto"
    WORDS = "words"
    CHARS = "chars"
    RECURSIVE = "recursive"
    SENTENCES = "sentences"
    MARKDOWN = "markdown"

    @classmethod
    def kind(cls) -> str:
        return "chunking strategy"


class Chunker(Protocol):
    name: str
    params: dict[str, Any]

    def split(self, doc: Document) -> list[Chunk]: ...


@dataclass(frozen=True)
class Piece:
    """A chunk before it gets its id: a span of the document text.

    ``headings`` is ``None`` when the chunker does not know the heading path;
    it is then looked up in the document outline at ``start``.
    """

    start: int
    end: int
    headings: tuple[str, ...] | None = None
    prefix: str = ""


def trim(text: str, start: int, end: int) -> tuple[int, int]:
    """Shrink a span so that it neither starts nor ends with whitespace."""
    while start < end and text[start].isspace():
        start += 1
    while end > start and text[end - 1].isspace():
        end -= 1
    return start, end


def document_outline(doc: Document) -> list[Heading]:
    """The document's headings with offsets: from the loader, else parsed as Markdown."""
    stored = doc.metadata.get("outline")
    if stored:
        return [
            Heading(int(h["level"]), str(h["title"]), int(h["start"]), int(h["end"]))
            for h in stored
        ]
    # Text without a known format (``Index.from_texts``) may still be Markdown.
    if doc.metadata.get("format") in (None, "", "md"):
        return markdown_outline(doc.text)
    return []


class HeadingPaths:
    """Heading path lookups by offset: O(log n) each, for documents with many headings."""

    def __init__(self, outline: Sequence[Heading], levels: int = 6) -> None:
        self._starts: list[int] = []
        self._paths: list[list[Heading]] = []
        path: list[Heading] = []
        for heading in sorted(outline, key=lambda h: h.start):
            if heading.level > levels:
                continue
            while path and path[-1].level >= heading.level:
                path.pop()
            path.append(heading)
            self._starts.append(heading.start)
            self._paths.append(list(path))

    def at(self, offset: int) -> list[Heading]:
        i = bisect.bisect_right(self._starts, offset) - 1
        return list(self._paths[i]) if i >= 0 else []


def build_chunks(doc: Document, pieces: Sequence[Piece]) -> list[Chunk]:
    """Number the pieces and attach the metadata every chunk carries."""
    meta = doc.metadata
    base: dict[str, Any] = {
        "source": doc.source or meta.get("source", ""),
        "title": doc.title or meta.get("title", ""),
        "format": meta.get("format", ""),
        "doc_id": doc.id,
    }
    pages: Sequence[int] | None = meta.get("pages")
    paths = HeadingPaths(document_outline(doc) if any(p.headings is None for p in pieces) else [])
    chunks: list[Chunk] = []
    for ordinal, piece in enumerate(pieces):
        headings = piece.headings
        if headings is None:
            headings = tuple(h.title for h in paths.at(piece.start))
        metadata = dict(base, headings=list(headings))
        if pages:
            metadata["page"] = bisect.bisect_right(pages, piece.start)
        if piece.prefix:
            metadata["prefix"] = piece.prefix
        chunks.append(
            Chunk(
                id=f"{doc.id}#{ordinal}",
                text=piece.prefix + doc.text[piece.start : piece.end],
                doc_id=doc.id,
                ordinal=ordinal,
                start=piece.start,
                end=piece.end,
                metadata=metadata,
            )
        )
    return chunks


def chunk_documents(
    docs: Sequence[Document], chunker: Chunker, progress: Progress | None = None
) -> list[Chunk]:
    """Chunk every document in order; ``progress(done, total)`` after each one."""
    chunks: list[Chunk] = []
    for done, doc in enumerate(docs, start=1):
        chunks.extend(chunker.split(doc))
        if progress is not None:
            progress(done, len(docs))
    return chunks


def params_of(size: int, overlap: int, **options: Any) -> dict[str, Any]:
    return {"size": size, "overlap": overlap, **options}


def is_markdownish(doc: Document) -> bool:
    """Markdown files, and any document whose loader (or text) shows headings."""
    if doc.metadata.get("format") == "md" or doc.metadata.get("outline"):
        return True
    return not doc.metadata.get("format") and bool(document_outline(doc))
