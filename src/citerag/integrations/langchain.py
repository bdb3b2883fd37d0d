"""A LangChain ``BaseRetriever`` over a citerag index (``pip install 'citerag[langchain]'``).

Each hit becomes a LangChain ``Document`` whose metadata carries the chunk's
own metadata plus where it comes from and how it scored, so a chain can cite
and filter exactly as ``citerag search`` does.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from citerag.errors import EmptyQuery
from citerag.types import Hit

try:
    from langchain_core.callbacks import CallbackManagerForRetrieverRun
    from langchain_core.documents import Document as LangChainDocument
    from langchain_core.retrievers import BaseRetriever
except ImportError as e:  # pragma: no cover - depends on the environment
    raise ImportError(
        "the LangChain adapter needs langchain-core: pip install 'citerag[langchain]'"
    ) from e
from pydantic import ConfigDict, Field

if TYPE_CHECKING:
    from citerag.index import Index


def hit_to_document(hit: Hit) -> LangChainDocument:
    """The LangChain document of one hit; scores and position go into the metadata."""
    chunk = hit.chunk
    metadata: dict[str, Any] = {
        **dict(chunk.metadata),
        "chunk_id": chunk.id,
        "doc_id": chunk.doc_id,
        "start": chunk.start,
        "end": chunk.end,
        "score": hit.score,
        "rank": hit.rank,
        "scores": dict(hit.scores),
        "ranks": dict(hit.ranks),
        "matched_terms": list(hit.matched_terms),
    }
    if "headings" in metadata:
        metadata["headings"] = list(metadata["headings"] or ())
    return LangChainDocument(id=chunk.id, page_content=chunk.text, metadata=metadata)


class CiteragRetriever(BaseRetriever):
    """Retrieve chunks from a citerag ``Index``.

    ``retriever`` picks bm25/tfidf/dense/hybrid (default: the index's own
    setting); ``min_score`` overrides the index's "not found" threshold. A
    query without searchable words returns no documents instead of failing
    the chain.
    """

    model_config = ConfigDict(arbitrary_types_allowed=True)

    index: Any = Field(description="a citerag.Index")
    k: int = Field(4, ge=1)
    retriever: str | None = None
    min_score: float | None = None

    @classmethod
    def from_directory(cls, directory: str | Path, **kwargs: Any) -> "CiteragRetriever":
        """Open a saved index directory (``citerag index ... --index DIR``)."""
        from citerag.index import Index

        return cls(index=Index.load(directory), **kwargs)

    def _search(self, query: str) -> list[Hit]:
        index: Index = self.index
        try:
            return index.search(query, k=self.k, retriever=self.retriever, min_score=self.min_score)
        except EmptyQuery:
            return []

    def _get_relevant_documents(
        self, query: str, *, run_manager: CallbackManagerForRetrieverRun
    ) -> list[LangChainDocument]:
        return [hit_to_document(hit) for hit in self._search(query)]
