"""``auto``: the markdown strategy for documents with headings, sentences otherwise."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from citerag.chunking.base import is_markdownish
from citerag.chunking.markdown import MarkdownChunker
from citerag.chunking.sentences import SentenceChunker
from citerag.types import Chunk, Document


@dataclass(frozen=True)
class AutoChunker:
    markdown: MarkdownChunker
    sentences: SentenceChunker
    name: str = field(default="auto", init=False)

    @property
    def params(self) -> dict[str, Any]:
        return dict(self.markdown.params)

    def split(self, doc: Document) -> list[Chunk]:
        if is_markdownish(doc):
            return self.markdown.split(doc)
        return self.sentences.split(doc)
