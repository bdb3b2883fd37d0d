"""``citerag search``: the best chunks for a query, with sources and highlighted snippets."""

from __future__ import annotations

import json
from pathlib import Path

import typer
from rich.table import Table

from citerag.cli import app
from citerag.cli.options import IndexDirOption, JsonOption, TopKOption
from citerag.cli.render import chunk_body, console, display_source, snippet


@app.command("search")
def search_command(
    query: str = typer.Argument(..., help="What to look for, in your own words."),
    index_dir: Path = IndexDirOption,
    k: int = TopKOption,
    retriever: str = typer.Option(
        None, "--retriever", "-r",
        help="bm25, tfidf, dense or hybrid (default: the index's setting, else hybrid when it has vectors, else bm25).",
    ),
    min_score: float = typer.Option(None, "--min-score", help="Drop hits scoring below this (the final score)."),
    filters: list[str] = typer.Option(
        [], "--filter", "-f", help="Metadata filter, repeatable: key=value, key=a|b, key>=x, key<=x, key=lo..hi."
    ),
    thresholds: list[str] = typer.Option(
        [], "--threshold", "-t", help="Per-retriever minimum score, repeatable: dense=0.8, bm25=5."
    ),
    explain: bool = typer.Option(False, "--explain", help="Show each retriever's score and rank, typo corrections, filters."),
    fusion: str = typer.Option("zscore", "--fusion", help="Hybrid fusion: zscore, minmax or rrf."),
    rrf_k: float = typer.Option(60.0, "--rrf-k", help="The k of reciprocal rank fusion."),
    embedder_spec: str = typer.Option(
        None, "--embedder", "-e", help="Query embedder (default: the one the index was built with; must match it)."
    ),
    rerank_spec: str = typer.Option(
        None, "--rerank", help="Rerank with cross-encoder:<model dir> or llm:<openai|ollama>:<model>."
    ),
    top_k_retrieve: int = typer.Option(50, "--top-k-retrieve", min=1, help="Candidates per retriever (and for the reranker)."),
    no_typos: bool = typer.Option(False, "--no-typo-correction", help="Search the query words exactly as typed."),
    as_json: bool = JsonOption,
) -> None:
    """Search an index and show the best chunks."""
    from citerag import Index
    from citerag.cli.explain import explain_json, print_explain
    from citerag.retrieval import FusionSettings, RetrievalSettings, Thresholds, parse_threshold
    from citerag.retrieval.rerank import make_reranker

    index = Index.load(index_dir)
    if embedder_spec and index.dense is not None:
        from citerag.dense import make_embedder

        index.dense = index.dense.with_embedder(make_embedder(embedder_spec))
    limits = dict(parse_threshold(t) for t in thresholds)
    fused_limit = limits.pop("fused", None)
    settings = RetrievalSettings(
        thresholds=Thresholds(per_retriever=limits, fused=fused_limit),
        fusion=FusionSettings(method=fusion, rrf_k=rrf_k),  # type: ignore[arg-type]
        top_k_retrieve=top_k_retrieve,
        correct_typos=not no_typos,
    )
    reranker = make_reranker(rerank_spec) if rerank_spec else None
    result = index.retrieve(
        query, k=k, retriever=retriever, min_score=min_score, filters=filters, settings=settings, reranker=reranker
    )
    hits = result.hits
    for note in result.notes:
        from citerag.cli.render import error_console

        error_console().print(f"[yellow]note:[/] {note}")
    out = console()
    if as_json:
        data = {"query": query, "hits": [h.to_json() for h in hits]}
        if explain:
            data["explain"] = explain_json(result)
        out.print_json(json.dumps(data, ensure_ascii=False))
        return
    if explain:
        print_explain(out, result, len(index.chunks), settings.fusion.method.value)
    if not hits:
        out.print("[yellow]Nothing found.[/]")
        return
    table = Table(show_lines=True, expand=True)
    table.add_column("#", justify="right", width=3)
    table.add_column("score", justify="right", width=7)
    table.add_column("source", overflow="fold", ratio=1)
    table.add_column("text", ratio=3)
    for hit in hits:
        meta = hit.chunk.metadata
        where = display_source(str(meta.get("source") or ""), hit.chunk.doc_id)
        headings = " / ".join(meta.get("headings") or ())
        if headings:
            where += f"\n[dim]{headings}[/]"
        if meta.get("page"):
            where += f"\n[dim]p. {meta['page']}[/]"
        body = chunk_body(hit.chunk.text, meta)
        words = index.analyzer.matching_words(body, hit.matched_terms)
        table.add_row(str(hit.rank), f"{hit.score:.3f}", where, snippet(body, words))
    out.print(table)
