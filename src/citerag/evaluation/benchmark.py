"""Evaluate configurations on a BEIR folder (indexed here) or on an existing index.

BEIR documents are indexed as the lexical benchmark does: one chunk per
document, text = title + " " + text, chunk id = the corpus ``_id``. A
chunking variant cuts each document instead; hits are then ranked by the
document they come from, so the BEIR judgements still apply.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from citerag.errors import InvalidInput
from citerag.evaluation.beir import BeirSet, doc_text
from citerag.evaluation.labelled import LabelledSet
from citerag.evaluation.metrics import DEFAULT_KS
from citerag.evaluation.runner import ConfigResult, EvalConfig, evaluate_config
from citerag.types import Document

if TYPE_CHECKING:
    from citerag.index import Index
    from citerag.text import Analyzer

# (stage, done, total); stages: "index <config>", "search <config>".
StageProgress = Callable[[str, int, int], None]

VECTOR_RETRIEVERS = frozenset({"dense", "hybrid"})


def _stage(progress: StageProgress | None, stage: str) -> Callable[[int, int], None] | None:
    if progress is None:
        return None
    return lambda done, total: progress(stage, done, total)


def build_beir_index(
    data: BeirSet,
    config: EvalConfig,
    analyzer: "Analyzer | None" = None,
    progress: Callable[[int, int], None] | None = None,
    embedder: Any = None,
) -> "tuple[Index, float]":
    """The index of a BEIR corpus for ``config``'s chunking, and its build time in seconds."""
    from citerag.index import Index
    from citerag.text import Analyzer

    analyzer = analyzer or Analyzer()
    # The dictionaries load once per process; that is not part of building an index.
    analyzer.warm_up()
    started = time.perf_counter()
    options: dict[str, Any] = {"analyzer": analyzer}
    if embedder is not None:
        options["embedder"] = embedder
    if progress is not None:
        options["progress"] = lambda _stage_name, done, total: progress(done, total)
    if config.chunking is None:
        index = Index.from_texts(
            [doc_text(d) for d in data.corpus], ids=[d.id for d in data.corpus], **options
        )
    else:
        from citerag.chunking import chunk_documents, make_chunker

        chunker = make_chunker(config.chunking, size=config.chunk_size, overlap=config.chunk_overlap)
        documents = [Document(id=d.id, text=doc_text(d), source=d.source, title=d.title) for d in data.corpus]
        chunks = chunk_documents(documents, chunker)
        index = Index.from_chunks(chunks, chunking={"strategy": chunker.name, **chunker.params}, **options)
    return index, time.perf_counter() - started


def evaluate_beir(
    data: BeirSet,
    configs: Sequence[EvalConfig],
    *,
    ks: Sequence[int] = DEFAULT_KS,
    negatives: dict[str, str] | None = None,
    min_score: float | None = None,
    embedder: Any = None,
    progress: StageProgress | None = None,
) -> list[ConfigResult]:
    """One result per configuration; configurations with the same chunking share an index.

    ``embedder`` (a ``citerag.dense`` embedder) is needed by the dense and
    hybrid retrievers; it embeds only the chunkings that one of them uses,
    and the embedding time counts as build time.
    """
    from citerag.text import Analyzer

    analyzer = Analyzer()  # shared, so its word cache serves every build
    built: dict[tuple[object, ...], tuple[Index, float]] = {}
    results = []
    needs_vectors = {c.chunk_key for c in configs if c.retriever in VECTOR_RETRIEVERS}
    if needs_vectors and embedder is None:
        raise InvalidInput("the dense and hybrid retrievers need an embedder, e.g. --embedder e5")
    for config in configs:
        if config.chunk_key not in built:
            built[config.chunk_key] = build_beir_index(
                data,
                config,
                analyzer,
                _stage(progress, f"index {config.name}"),
                embedder=embedder if config.chunk_key in needs_vectors else None,
            )
        index, seconds = built[config.chunk_key]
        results.append(
            evaluate_config(
                index,
                config,
                data.queries,
                data.qrels,
                negatives=negatives,
                ks=ks,
                min_score=min_score,
                by_document=True,
                build_seconds=seconds,
                n_chunks=len(index),
                progress=_stage(progress, f"search {config.name}"),
            )
        )
    return results


def evaluate_labelled(
    index: "Index",
    labelled: LabelledSet,
    retrievers: Sequence[str],
    *,
    plain: bool = False,
    ks: Sequence[int] = DEFAULT_KS,
    min_score: float | None = None,
    progress: StageProgress | None = None,
) -> list[ConfigResult]:
    """Labelled questions (chunk ids) against an existing index, one result per retriever.

    ``min_score`` defaults to the threshold in the index settings.
    """
    threshold = min_score if min_score is not None else index.settings.min_score
    known = {c.id for c in index.chunks}
    unknown = sum(1 for q in labelled.positives if not set(q.chunk_ids) & known)
    if labelled.positives and unknown == len(labelled.positives):
        example = labelled.positives[0].chunk_ids[0]
        raise InvalidInput(
            f"none of the labelled chunk ids (e.g. {example!r}) is in this index; the questions were "
            "made for another index or chunking: regenerate them with `citerag questions generate`"
        )
    results = []
    for retriever in retrievers:
        config = EvalConfig(retriever=retriever, plain=plain)
        result = evaluate_config(
            index,
            config,
            labelled.queries,
            labelled.qrels,
            negatives=labelled.negative_queries,
            ks=ks,
            min_score=threshold,
            n_chunks=len(index),
            progress=_stage(progress, f"search {config.name}"),
        )
        results.append(replace(result, extra={**result.extra, "unknown_chunk_ids": float(unknown)}))
    return results
