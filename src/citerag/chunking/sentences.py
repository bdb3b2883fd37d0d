"""``sentences``: pack whole sentences up to a maximum size."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from citerag.chunking.base import Piece, build_chunks, params_of
from citerag.chunking.spans import Span, fit_sentences, pack, paragraphs
from citerag.types import Chunk, Document


@dataclass(frozen=True)
class SentenceChunker:
    """Whole sentences (razdel) packed up to ``size`` characters.

    Paragraphs (blank-line separated) are the units when they fit in
    ``size``, so a chunk never ends in the middle of a paragraph it could
    have held; longer paragraphs are cut into sentences. A sentence longer
    than ``size`` is split between words (a word longer than ``size``
    between characters), so no chunk exceeds ``size``. ``overlap`` repeats
    trailing units of up to that many characters.
    """

    size: int = 1000
    overlap: int = 0
    name: str = field(default="sentences", init=False)

    @property
    def params(self) -> dict[str, Any]:
        return params_of(self.size, self.overlap)

    def spans(self, text: str, start: int = 0, end: int | None = None) -> list[Span]:
        end = len(text) if end is None else end
        units: list[Span] = []
        for p_start, p_end in paragraphs(text, start, end):
            # Sentence-splitting only paragraphs that cannot go whole keeps
            # razdel (the slow part) off most of the text.
            units.extend(fit_sentences(text, p_start, p_end, self.size))
        return pack(units, self.size, self.overlap)

    def split(self, doc: Document) -> list[Chunk]:
        return build_chunks(doc, [Piece(s, e) for s, e in self.spans(doc.text)])
