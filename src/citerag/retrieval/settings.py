"""What a search should do: which retriever, how to fuse, filter and cut."""

from __future__ import annotations

from dataclasses import dataclass, field

from citerag.choices import Choice
from citerag.errors import InvalidInput
from citerag.retrieval.filters import MetadataFilter
from citerag.retrieval.fusion import FusionSettings
from citerag.retrieval.thresholds import Thresholds


class Retriever(Choice):
    BM25 = "bm25"
    TFIDF = "tfidf"
    DENSE = "dense"
    HYBRID = "hybrid"

    @property
    def uses_dense(self) -> bool:
        return self in (Retriever.DENSE, Retriever.HYBRID)

    @property
    def uses_lexical(self) -> bool:
        return self is not Retriever.DENSE


@dataclass(frozen=True, slots=True)
class RetrievalSettings:
    """``retriever=None``: hybrid when the index has vectors, else BM25.

    ``lexical`` is the lexical scheme used inside hybrid search.
    ``top_k_retrieve`` candidates are taken from each retriever (and given to
    the reranker); the caller's ``k`` results are kept at the end.
    """

    retriever: Retriever | None = None
    lexical: Retriever = Retriever.BM25
    fusion: FusionSettings = field(default_factory=FusionSettings)
    top_k_retrieve: int = 50
    thresholds: Thresholds = field(default_factory=Thresholds)
    filters: tuple[MetadataFilter, ...] = ()
    dedup: bool = True
    correct_typos: bool = True

    def __post_init__(self) -> None:
        if self.retriever is not None:
            object.__setattr__(self, "retriever", Retriever.parse(self.retriever))
        lexical = Retriever.parse(self.lexical)
        if lexical not in (Retriever.BM25, Retriever.TFIDF):
            raise InvalidInput(f"hybrid search's lexical part must be bm25 or tfidf, got {lexical.value!r}")
        object.__setattr__(self, "lexical", lexical)
        object.__setattr__(self, "filters", tuple(self.filters))
        if self.top_k_retrieve < 1:
            raise InvalidInput(f"top_k_retrieve must be at least 1, got {self.top_k_retrieve}")
