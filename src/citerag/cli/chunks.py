"""``citerag chunks``: see how documents would be chunked, before indexing them."""

from __future__ import annotations

import json
from dataclasses import asdict
from pathlib import Path

import typer
from rich.table import Table
from rich.text import Text

from citerag.chunking.stats import ChunkStats
from citerag.cli import app
from citerag.cli.options import JsonOption
from citerag.cli.render import console, error_console
from citerag.errors import InvalidInput, NoDocuments
from citerag.types import Chunk

_BAR_WIDTH = 40


@app.command("chunks")
def chunks_command(
    paths: list[Path] = typer.Argument(..., help="Files and folders to chunk (nothing is indexed)."),
    strategy: str = typer.Option("auto", "--strategy", "-s", help="auto, markdown, sentences, recursive, words, chars."),
    size: int = typer.Option(None, "--size", help="Maximum chunk size (characters; words for --strategy words)."),
    overlap: int = typer.Option(None, "--overlap", help="Overlap between neighbouring chunks (same unit as --size)."),
    levels: int = typer.Option(None, "--levels", help="markdown/auto: deepest heading level that starts a section (1-6)."),
    no_prefix: bool = typer.Option(False, "--no-heading-prefix", help="markdown/auto: do not prepend the heading path to chunk text."),
    include: list[str] = typer.Option([], "--include", help="Only files matching this glob (repeatable)."),
    exclude: list[str] = typer.Option([], "--exclude", help="Skip files matching this glob (repeatable)."),
    bins: int = typer.Option(12, "--bins", min=1, help="Histogram bins."),
    show: int = typer.Option(0, "--show", min=0, help="Print the first N chunks with their metadata."),
    plot: Path = typer.Option(None, "--plot", help="Write the length histogram to an image (.png/.svg/.pdf; needs matplotlib)."),
    as_json: bool = JsonOption,
) -> None:
    """Chunk files and print statistics (count; min / median / p95 / max length) and a length histogram."""
    from citerag.chunking import chunk_documents, chunk_stats, make_chunker
    from citerag.loaders import load_paths

    options: dict[str, object] = {}
    if levels is not None:
        options["levels"] = levels
    if no_prefix:
        options["prepend_headings"] = False
    chunker = make_chunker(strategy, size=size, overlap=overlap, **options)  # validated before any work
    if plot is not None and plot.suffix.lower() not in (".png", ".svg", ".pdf"):
        raise InvalidInput(f"--plot {str(plot)!r}: the file must end in .png, .svg or .pdf")
    loaded = load_paths(paths, include=include, exclude=exclude)
    chunks = chunk_documents(loaded.documents, chunker) + list(loaded.records)
    if not chunks:
        reasons = "; ".join(str(f) for f in loaded.failures[:3])
        raise NoDocuments("no chunks from " + ", ".join(map(str, paths)) + (f" ({reasons})" if reasons else ""))
    stats = chunk_stats(chunks)
    out = console()
    if as_json:
        payload = {
            "chunker": {"strategy": chunker.name, **chunker.params},
            "stats": stats.to_json(),
            "histogram": {unit: asdict(stats.histogram(bins, unit)) for unit in ("chars", "words")},
            "failures": [{"path": f.path, "reason": f.reason} for f in loaded.failures],
            "chunks": [c.to_json() for c in chunks[:show]],
        }
        out.print_json(json.dumps(payload, ensure_ascii=False))
    else:
        params = ", ".join(f"{k}={v}" for k, v in chunker.params.items())
        out.print(Text(f"{chunker.name} ({params}): {stats.count} chunks from {stats.documents} documents", style="bold"))
        out.print(_summary_table(stats))
        out.print(_histogram_table(stats, bins))
        for chunk in chunks[:show]:
            out.print(_chunk_panel(chunk))
        for failure in loaded.failures:
            error_console().print(Text.assemble(("skipped ", "yellow"), f"{failure.path}: {failure.reason}"))
    if plot is not None:
        from citerag.chunking.plot import save_histogram

        written = save_histogram(stats, plot, bins=bins, title=f"{chunker.name}: {stats.count} chunks")
        error_console().print(f"histogram written to {written}")


def _summary_table(stats: ChunkStats) -> Table:
    table = Table(title="chunk length", title_justify="left")
    for column in ("unit", "min", "median", "p95", "max", "mean"):
        table.add_column(column, justify="right" if column != "unit" else "left")
    for unit, s in (("characters", stats.chars), ("words", stats.words)):
        table.add_row(unit, str(s.min), f"{s.median:g}", f"{s.p95:.0f}", str(s.max), f"{s.mean:.0f}")
    return table


def _histogram_table(stats: ChunkStats, bins: int) -> Table:
    hist = stats.histogram(bins, "chars")
    table = Table(title="length histogram (characters)", title_justify="left", show_edge=False)
    table.add_column("length", justify="right")
    table.add_column("chunks", justify="right")
    table.add_column("")
    peak = max(hist.counts) or 1
    for i, count in enumerate(hist.counts):
        label = f"{hist.edges[i]:.0f}–{hist.edges[i + 1]:.0f}"
        bar = "█" * round(_BAR_WIDTH * count / peak) if count else ""
        table.add_row(label, str(count), Text(bar, style="cyan"))
    return table


def _chunk_panel(chunk: Chunk) -> Table:
    title = Text(f"{chunk.id}  [{chunk.start}:{chunk.end}]  {len(chunk.text)} chars", style="bold")
    table = Table(title=title, title_justify="left", show_header=False, show_edge=False)
    table.add_column("key", style="dim")
    table.add_column("value", overflow="fold")
    for key, value in chunk.metadata.items():
        if key == "prefix":
            value = repr(value)
        elif isinstance(value, list):
            value = " / ".join(map(str, value)) if key == "headings" else json.dumps(value, ensure_ascii=False)
        table.add_row(key, Text(str(value)))
    table.add_row("text", Text(chunk.text))
    return table
