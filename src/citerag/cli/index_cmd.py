"""``citerag index``: build or update an index directory from files and folders."""

from __future__ import annotations

import time
from pathlib import Path

import typer
from rich.table import Table

from citerag.cli import app
from citerag.cli.options import IndexDirOption
from citerag.cli.progress import stage_progress
from citerag.cli.render import console, error_console
from citerag.errors import CiteragError, InvalidInput


@app.command("index")
def index_command(
    paths: list[Path] = typer.Argument(None, help="Files and folders to index (txt, md, pdf, html, docx, jsonl)."),
    index_dir: Path = IndexDirOption,
    strategy: str = typer.Option("auto", "--strategy", "-s", help="Chunking: auto, markdown, sentences, recursive, words, chars."),
    size: int = typer.Option(None, "--size", help="Chunk size (characters; words for --strategy words)."),
    overlap: int = typer.Option(None, "--overlap", help="Overlap between neighbouring chunks (same unit as --size)."),
    include: list[str] = typer.Option([], "--include", help="Only files matching this glob (repeatable)."),
    exclude: list[str] = typer.Option([], "--exclude", help="Skip files matching this glob (repeatable)."),
    strict: bool = typer.Option(False, "--strict", help="Stop at the first file that cannot be read."),
    rebuild: bool = typer.Option(False, "--rebuild", help="Ignore the existing index and process every file again."),
    sample: bool = typer.Option(False, "--sample", help="Index the bundled sample documents."),
    quiet: bool = typer.Option(False, "--quiet", "-q", help="No progress bars."),
    embedder_spec: str = typer.Option(
        "auto", "--embedder", "-e", envvar="CITERAG_EMBEDDER",
        help="Vectors for dense/hybrid search: auto (the index's, else e5 when installed), e5, hash, "
        "ollama:<model>, openai:<model>, st:<path>, or none (lexical only).",
    ),
    embedding_cache: Path = typer.Option(
        None, "--embedding-cache", envvar="CITERAG_EMBEDDING_CACHE",
        help="Embedding cache file (default: the user cache folder); unchanged text is never embedded twice.",
    ),
    no_embedding_cache: bool = typer.Option(False, "--no-embedding-cache", help="Do not read or write the embedding cache."),
    float16_vectors: bool = typer.Option(False, "--float16-vectors", help="Store vectors as float16 (half the size)."),
    k1: float = typer.Option(None, "--k1", min=0.0, help="BM25 term-frequency saturation (default 0.9)."),
    b: float = typer.Option(None, "--b", min=0.0, max=1.0, help="BM25 length normalisation (default 0.75)."),
    russian: str = typer.Option(None, "--russian", help="Russian words: lemma (pymorphy3, default), stem (Snowball) or none."),
) -> None:
    """Index files and folders into an index directory (updated in place: unchanged files are reused)."""
    from citerag import Index
    from citerag.chunking import make_chunker
    from citerag.lexical import BM25Params
    from citerag.text import Analyzer, AnalyzerConfig

    paths = list(paths or [])
    if sample:
        from citerag.data import sample_dir

        paths.append(sample_dir())
    if not paths:
        raise InvalidInput("give at least one file or folder to index (or --sample)")
    missing = [str(p) for p in paths if not Path(p).exists()]
    if missing:
        raise InvalidInput(f"no such file or folder: {', '.join(missing)}")
    chunker = make_chunker(strategy, size=size, overlap=overlap)  # validated before any work
    previous = None
    if not rebuild and (index_dir / "manifest.json").exists():
        try:
            previous = Index.load(index_dir)
        except CiteragError as exc:
            error_console().print(f"[yellow]note:[/] rebuilding from scratch ({exc})")
    from citerag.dense import default_cache_path, resolve_embedder

    cache = None if no_embedding_cache else str(embedding_cache or default_cache_path())
    previous_embedder = None
    if previous is not None:  # an update keeps the index's choice, including "no vectors"
        previous_embedder = previous.dense.info.name if previous.dense is not None else "none"
    embedder, note = resolve_embedder(embedder_spec, previous=previous_embedder, cache_path=cache)
    if note:
        error_console().print(f"[yellow]note:[/] {note}")
    analyzer = Analyzer(AnalyzerConfig(russian=russian)) if russian else None
    bm25 = None
    if k1 is not None or b is not None:
        base = previous.lexical.bm25 if previous else BM25Params()
        bm25 = base.model_copy(update={k: v for k, v in (("k1", k1), ("b", b)) if v is not None})
    started = time.perf_counter()
    with stage_progress(not quiet) as progress:
        index = Index.build(
            paths,
            chunker=chunker,
            analyzer=analyzer,
            bm25=bm25,
            include=include,
            exclude=exclude,
            strict=strict,
            previous=previous,
            progress=progress,  # type: ignore[arg-type]
            embedder=embedder,
        )
    if float16_vectors and index.dense is not None:
        index.dense = index.dense.as_float16()
    index.save(index_dir)
    elapsed = time.perf_counter() - started
    report = index.report
    out = console()
    reused = f" ({report.reused_documents} unchanged, reused)" if report.reused_documents else ""
    out.print(
        f"[green]Indexed[/] {report.documents} documents{reused} → {report.chunks} chunks, "
        f"{len(index.lexical.vocabulary)} terms in {elapsed:.1f}s → [bold]{index_dir}[/]"
    )
    if index.dense is not None:
        info = index.dense.info
        cached = f", {embedder.hits} from the embedding cache" if getattr(embedder, "hits", 0) else ""
        out.print(f"Vectors: {info.name} ({info.dim} dimensions){cached}; search is hybrid")
    if report.failures:
        table = Table(title=f"{len(report.failures)} file(s) skipped", title_justify="left", show_lines=False)
        table.add_column("file", overflow="fold")
        table.add_column("reason", overflow="fold")
        for failure in report.failures:
            table.add_row(failure.path, failure.reason)
        error_console().print(table)
