"""The ``Index`` facade: build, search, save and load.

It wires the stages together (loaders → chunking → text → lexical → store)
and owns nothing but the list of chunks and the components built over it;
each stage stays usable on its own.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from citerag import __version__
from citerag.dense import Embedder
from citerag.dense.retriever import DenseRetriever, make_dense
from citerag.errors import EmptyQuery, IndexIncompatible, InvalidInput, NoDocuments
from citerag.lexical import BM25Params, LexicalIndex, TermCounts, count_terms, stack_counts
from citerag.store import (
    CHUNKS_FILE,
    DocumentRecord,
    IndexSettings,
    Manifest,
    atomic_directory,
    load_counts,
    read_chunks,
    save_counts,
    write_chunks,
)
from citerag.store.vectors_io import load_vectors, save_vectors
from citerag.text import Analyzer, AnalyzerConfig
from citerag.types import Chunk, Document, Hit

# (stage, done, total): stages are "load", "chunk", "analyse", "embed".
BuildProgress = Callable[[str, int, int], None]


@dataclass(frozen=True)
class BuildReport:
    """What a build did: counts, reused documents and unreadable files."""

    documents: int = 0
    reused_documents: int = 0
    chunks: int = 0
    failures: tuple[Any, ...] = ()  # citerag.loaders.LoadFailure


class Index:
    """Chunks plus the retrieval structures built over them (row i ↔ chunk i)."""

    def __init__(
        self,
        chunks: Sequence[Chunk],
        *,
        analyzer: Analyzer,
        lexical: LexicalIndex,
        documents: Sequence[DocumentRecord] = (),
        chunking: Mapping[str, Any] | None = None,
        settings: IndexSettings | None = None,
        report: BuildReport | None = None,
        dense: DenseRetriever | None = None,
    ) -> None:
        if lexical.n_docs != len(chunks):
            raise ValueError(f"lexical index has {lexical.n_docs} rows for {len(chunks)} chunks")
        if dense is not None and dense.size != len(chunks):
            raise ValueError(f"dense index has {dense.size} rows for {len(chunks)} chunks")
        self.dense = dense
        self.chunks: list[Chunk] = list(chunks)
        self.analyzer = analyzer
        self.lexical = lexical
        self.documents: list[DocumentRecord] = list(documents)
        self.chunking: dict[str, Any] = dict(chunking or {})
        self.settings = settings or IndexSettings()
        self.report = report or BuildReport(documents=len(self.documents), chunks=len(self.chunks))
        self._rows_by_id: dict[str, int] | None = None
        self._term_rows: Any = None

    def __len__(self) -> int:
        return len(self.chunks)

    def __repr__(self) -> str:
        return f"Index({len(self.chunks)} chunks, {len(self.lexical.vocabulary)} terms)"

    # -- construction ---------------------------------------------------
    @classmethod
    def from_chunks(
        cls,
        chunks: Sequence[Chunk],
        *,
        analyzer: Analyzer | None = None,
        bm25: BM25Params | None = None,
        documents: Sequence[DocumentRecord] = (),
        chunking: Mapping[str, Any] | None = None,
        progress: BuildProgress | None = None,
        embedder: Embedder | str | None = None,
    ) -> "Index":
        """Index ready-made chunks as they are (with vectors when given an ``embedder``)."""
        _check_unique_ids(chunks)
        analyzer = analyzer or Analyzer()
        stage_progress = (lambda d, t: progress("analyse", d, t)) if progress else None
        counts = count_terms(analyzer.analyze_many([c.text for c in chunks], stage_progress))
        embed_progress = (lambda d, t: progress("embed", d, t)) if progress else None
        return cls(
            chunks,
            analyzer=analyzer,
            lexical=LexicalIndex(counts, bm25),
            documents=documents,
            chunking=chunking,
            dense=make_dense(chunks, embedder, progress=embed_progress) if embedder else None,
        )

    @classmethod
    def from_texts(
        cls,
        texts: Sequence[str],
        ids: Sequence[str] | None = None,
        metadata: Sequence[Mapping[str, Any]] | None = None,
        **options: Any,
    ) -> "Index":
        """Index short texts, one chunk each (ids default to "0", "1", ...)."""
        if isinstance(texts, str):
            raise InvalidInput("texts must be a list of strings, got a single string")
        if ids is not None and len(ids) != len(texts):
            raise InvalidInput(f"got {len(ids)} ids for {len(texts)} texts")
        if metadata is not None and len(metadata) != len(texts):
            raise InvalidInput(f"got {len(metadata)} metadata entries for {len(texts)} texts")
        chunks = [
            Chunk(
                id=str(ids[i]) if ids is not None else str(i),
                text=text,
                doc_id=str(ids[i]) if ids is not None else str(i),
                start=0,
                end=len(text),
                metadata=metadata[i] if metadata is not None else {},
            )
            for i, text in enumerate(texts)
        ]
        return cls.from_chunks(chunks, **options)

    @classmethod
    def build(
        cls,
        paths: Sequence[str | Path],
        *,
        chunker: Any = None,
        include: Sequence[str] = (),
        exclude: Sequence[str] = (),
        strict: bool = False,
        analyzer: Analyzer | None = None,
        bm25: BM25Params | None = None,
        previous: "Index | None" = None,
        progress: BuildProgress | None = None,
        embedder: Embedder | str | None = None,
    ) -> "Index":
        """Load, chunk and index files and folders (with vectors when given an ``embedder``).

        With ``previous`` (an index of an earlier run with the same analyser
        and chunking), documents whose content hash is unchanged keep their
        chunks and term counts; only new or changed files are processed.
        """
        from citerag.chunking import chunk_documents, make_chunker
        from citerag.loaders import load_paths

        if isinstance(paths, (str, Path)):
            paths = [paths]
        chunker = chunker if chunker is not None and not isinstance(chunker, str) else make_chunker(chunker or "auto")
        analyzer = analyzer or (previous.analyzer if previous else Analyzer())
        loaded = load_paths(
            paths,
            include=include,
            exclude=exclude,
            strict=strict,
            progress=(lambda d, t: progress("load", d, t)) if progress else None,
        )
        if not loaded.documents and not loaded.records:
            reasons = "; ".join(str(f) for f in loaded.failures[:3])
            raise NoDocuments(
                "nothing to index in " + ", ".join(str(p) for p in paths) + (f" ({reasons})" if reasons else "")
            )
        chunking = {"strategy": chunker.name, **chunker.params}
        reusable = previous._reusable_documents(loaded.documents, analyzer, chunking) if previous else {}
        fresh_docs = [d for d in loaded.documents if d.id not in reusable]
        new_chunks = chunk_documents(
            fresh_docs, chunker, progress=(lambda d, t: progress("chunk", d, t)) if progress else None
        )
        new_chunks = new_chunks + list(loaded.records)
        _check_unique_ids(new_chunks)
        stage_progress = (lambda d, t: progress("analyse", d, t)) if progress else None
        new_counts = count_terms(analyzer.analyze_many([c.text for c in new_chunks], stage_progress))
        if reusable:
            assert previous is not None
            kept_rows = np.asarray(
                [i for i, c in enumerate(previous.chunks) if c.doc_id in reusable], dtype=np.int64
            )
            kept_chunks = [previous.chunks[i] for i in kept_rows]
            counts = stack_counts([_select_rows(previous.lexical.counts, kept_rows), new_counts])
            chunks = kept_chunks + new_chunks
        else:
            counts, chunks = new_counts, new_chunks
        per_doc: dict[str, int] = {}
        for c in chunks:
            per_doc[c.doc_id] = per_doc.get(c.doc_id, 0) + 1
        documents = [_document_record(d, per_doc.get(d.id, 0)) for d in loaded.documents]
        index = cls(
            chunks,
            analyzer=analyzer,
            lexical=LexicalIndex(counts, bm25 or (previous.lexical.bm25 if previous else None)),
            documents=documents,
            chunking=chunking,
            settings=previous.settings if previous else None,
            dense=_build_dense(chunks, embedder, previous, progress),
            report=BuildReport(
                documents=len(loaded.documents) + len({r.doc_id for r in loaded.records}),
                reused_documents=len(reusable),
                chunks=len(chunks),
                failures=tuple(loaded.failures),
            ),
        )
        return index

    def _reusable_documents(
        self, documents: Sequence[Document], analyzer: Analyzer, chunking: Mapping[str, Any]
    ) -> dict[str, DocumentRecord]:
        if analyzer.fingerprint != self.analyzer.fingerprint or dict(chunking) != self.chunking:
            return {}
        known = {d.id: d for d in self.documents}
        return {
            d.id: known[d.id]
            for d in documents
            if d.id in known and known[d.id].content_hash == d.metadata.get("content_hash")
        }

    # -- search ---------------------------------------------------------
    def query_terms(self, query: str) -> list[str]:
        """Analysed terms of a query; raises ``EmptyQuery`` when there are none."""
        if not isinstance(query, str) or not query.strip():
            raise EmptyQuery("the query is empty: type the words to search for")
        terms = self.analyzer.analyze(query)
        if not terms:
            tokens = self.analyzer.tokens(query)
            if tokens:
                raise EmptyQuery(
                    f"the query has only stop words ({' '.join(tokens)}): add a word that carries meaning"
                )
            raise EmptyQuery("the query has no words or numbers to search for")
        return terms

    def search(
        self,
        query: str,
        k: int = 10,
        *,
        retriever: str | None = None,
        min_score: float | None = None,
        filters: Sequence[Any] = (),
        settings: Any = None,
        reranker: Any = None,
    ) -> list[Hit]:
        """The ``k`` best chunks for ``query``, best first.

        ``retriever`` is "bm25", "tfidf", "dense" or "hybrid" (default: the
        index's setting, else hybrid when the index has vectors, else bm25).
        ``filters`` are ``key=value`` strings or ``MetadataFilter`` values.
        Hits scoring below ``min_score`` (default: the index settings) are
        dropped, so an empty list means nothing relevant was found.
        """
        result = self.retrieve(
            query, k, retriever=retriever, min_score=min_score, filters=filters, settings=settings, reranker=reranker
        )
        return list(result.hits)

    def retrieve(
        self,
        query: str,
        k: int = 10,
        *,
        retriever: str | None = None,
        min_score: float | None = None,
        filters: Sequence[Any] = (),
        settings: Any = None,
        reranker: Any = None,
    ) -> Any:
        """Like ``search`` but returns a ``citerag.retrieval.SearchResult`` that also
        tells which retrievers ranked each hit, typo corrections and filter counts."""
        from citerag.retrieval import search as hybrid_search
        from citerag.retrieval.search_options import search_settings

        cfg = search_settings(
            settings,
            retriever=retriever or self.settings.retriever,
            min_score=self.settings.min_score if min_score is None else min_score,
            filters=filters,
            default_thresholds=getattr(self.settings, "thresholds", None),  # settings.json, e.g. {"dense": 0.82}
        )
        return hybrid_search(self, query, k, cfg, reranker=reranker)

    def matched_terms(self, row: int, terms: Sequence[str]) -> tuple[str, ...]:
        """Which of the analysed query ``terms`` occur in chunk ``row``."""
        if self._term_rows is None:
            self._term_rows = self.lexical.counts.matrix.tocsr()
        m = self._term_rows
        present = set(m.indices[m.indptr[row] : m.indptr[row + 1]].tolist())
        vocab = self.lexical.vocabulary
        return tuple(dict.fromkeys(t for t in terms if vocab.get(t, -1) in present))

    def get(self, chunk_id: str) -> Chunk:
        if self._rows_by_id is None:
            self._rows_by_id = {c.id: i for i, c in enumerate(self.chunks)}
        try:
            return self.chunks[self._rows_by_id[chunk_id]]
        except KeyError:
            raise InvalidInput(f"no chunk with id {chunk_id!r} in this index") from None

    # -- persistence ----------------------------------------------------
    def save(self, directory: str | Path) -> Path:
        """Write the index directory atomically (the old one stays until the new one is complete)."""
        directory = Path(directory)
        with atomic_directory(directory) as staging:
            write_chunks(staging / CHUNKS_FILE, self.chunks, self.documents)
            save_counts(staging, self.lexical.counts)
            components: dict[str, Any] = {}
            if self.dense is not None:
                components["dense"] = save_vectors(staging, self.dense)
            if self.settings.model_dump(exclude_none=True):
                self.settings.write(staging)
            Manifest(
                citerag_version=__version__,
                analyzer={"fingerprint": self.analyzer.fingerprint, **self.analyzer.describe()},
                components={
                    "lexical": {"bm25": self.lexical.bm25.model_dump(), "terms": len(self.lexical.vocabulary)},
                    "chunking": self.chunking,
                    **components,
                },
                stats={"chunks": len(self.chunks), "documents": len(self.documents)},
            ).write(staging)
        return directory

    @classmethod
    def load(cls, directory: str | Path) -> "Index":
        """Open an index directory, checking format, checksums and analyser."""
        directory = Path(directory)
        manifest = Manifest.read(directory)
        config = AnalyzerConfig.model_validate(manifest.analyzer.get("config", {}))
        analyzer = Analyzer(config)
        if analyzer.fingerprint != manifest.analyzer.get("fingerprint"):
            raise IndexIncompatible(
                f"the index in {directory} was built with another text analyser "
                f"({manifest.analyzer.get('russian')}, {manifest.analyzer.get('english')}) than this "
                f"installation's ({analyzer.describe()['russian']}, {analyzer.describe()['english']}): "
                f"rebuild it with `citerag index ... --index {directory}`"
            )
        chunks, documents = read_chunks(directory / CHUNKS_FILE)
        counts = load_counts(directory)
        lexical_meta = manifest.components.get("lexical", {})
        dense_meta = manifest.components.get("dense")
        return cls(
            chunks,
            analyzer=analyzer,
            lexical=LexicalIndex(counts, BM25Params.model_validate(lexical_meta.get("bm25", {}))),
            documents=documents,
            chunking=manifest.components.get("chunking", {}),
            settings=IndexSettings.read(directory),
            dense=load_vectors(directory, dense_meta, len(chunks)) if dense_meta else None,
        )


def _build_dense(
    chunks: Sequence[Chunk], embedder: Embedder | str | None, previous: "Index | None", progress: BuildProgress | None
) -> DenseRetriever | None:
    """Vectors for a build; chunks unchanged since ``previous`` keep theirs."""
    if embedder is None:
        return None
    old = (previous.chunks, previous.dense) if previous is not None and previous.dense is not None else None
    embed_progress = (lambda d, t: progress("embed", d, t)) if progress else None
    return make_dense(chunks, embedder, previous=old, progress=embed_progress)


def _check_unique_ids(chunks: Sequence[Chunk]) -> None:
    seen: set[str] = set()
    for chunk in chunks:
        if chunk.id in seen:
            raise InvalidInput(f"duplicate chunk id {chunk.id!r}: every chunk needs its own id")
        seen.add(chunk.id)


def _select_rows(counts: TermCounts, rows: np.ndarray) -> TermCounts:
    return TermCounts(matrix=counts.matrix[rows].tocsc(), doc_len=counts.doc_len[rows], terms=counts.terms)


def _document_record(doc: Document, n_chunks: int) -> DocumentRecord:
    meta = doc.metadata
    mtime = meta.get("mtime")
    return DocumentRecord(
        id=doc.id,
        source=str(meta.get("source", doc.source)),
        content_hash=str(meta.get("content_hash", "")),
        mtime=float(mtime) if isinstance(mtime, (int, float)) else None,
        chunks=n_chunks,
    )
