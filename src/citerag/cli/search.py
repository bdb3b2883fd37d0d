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
    retriever: str = typer.Option(None, "--retriever", "-r", help="bm25 or tfidf (default: the index's setting, else bm25)."),
    min_score: float = typer.Option(None, "--min-score", help="Drop hits scoring below this."),
    as_json: bool = JsonOption,
) -> None:
    """Search an index and show the best chunks."""
    from citerag import Index

    index = Index.load(index_dir)
    hits = index.search(query, k=k, retriever=retriever, min_score=min_score)
    out = console()
    if as_json:
        out.print_json(json.dumps({"query": query, "hits": [h.to_json() for h in hits]}, ensure_ascii=False))
        return
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
