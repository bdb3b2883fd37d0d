"""``--explain`` rendering: how each retriever saw each hit, and what the
query became (terms, typo corrections, filters)."""

from __future__ import annotations

from typing import Any

from rich.console import Console
from rich.table import Table


def explain_json(result: Any) -> dict[str, Any]:
    return {
        "retriever": result.retriever,
        "terms": list(result.terms),
        "corrections": [
            {"word": c.word, "replacement": c.replacement, "distance": c.distance, "doc_freq": c.doc_freq}
            for c in result.corrections
        ],
        "candidates": dict(result.candidates),
        "allowed_rows": result.allowed_rows,
        "reranker": result.reranker,
    }


def print_explain(out: Console, result: Any, total_chunks: int, fusion: str) -> None:
    how = result.retriever + (f" ({fusion})" if result.retriever == "hybrid" else "")
    if result.reranker:
        how += f", reranked by {result.reranker}"
    out.print(f"[bold]retriever:[/] {how}")
    out.print(f"[bold]query terms:[/] {' '.join(result.terms) or '—'}")
    for c in result.corrections:
        out.print(f"[bold]typo corrected:[/] {c.describe()}")
    if result.allowed_rows is not None:
        out.print(f"[bold]filters:[/] {result.allowed_rows} of {total_chunks} chunks pass")
    counts = ", ".join(f"{name} {n}" for name, n in result.candidates.items())
    out.print(f"[bold]candidates:[/] {counts}")
    if not result.hits:
        return
    names = list(dict.fromkeys(name for h in result.hits for name in h.ranks))
    table = Table(title="How each retriever ranked the results", title_justify="left")
    table.add_column("#", justify="right")
    table.add_column("chunk", overflow="fold")
    table.add_column("score", justify="right")
    for name in names:
        table.add_column(name, justify="right")
    for hit in result.hits:
        cells = []
        for name in names:
            if name in hit.ranks:
                cells.append(f"{hit.scores.get(name, 0.0):.3f} (#{hit.ranks[name]})")
            elif name in hit.scores:  # scored for the check, not ranked by this retriever
                cells.append(f"[dim]{hit.scores[name]:.3f} (—)[/]")
            else:
                cells.append("[dim]—[/]")
        table.add_row(str(hit.rank), hit.chunk.id, f"{hit.score:.4f}", *cells)
    out.print(table)
