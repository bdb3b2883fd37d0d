"""``citerag eval``: retrieval quality on labelled questions, several configurations side by side."""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

import typer
from rich.table import Table

from citerag.cli import app
from citerag.cli.options import IndexDirOption, JsonOption
from citerag.cli.progress import stage_progress
from citerag.cli.render import console, error_console
from citerag.errors import InvalidInput

if TYPE_CHECKING:
    from citerag.evaluation.labelled import LabelledSet
    from citerag.evaluation.runner import ConfigResult
    from citerag.index import Index


def parse_chunking(spec: str) -> tuple[str, int | None, int | None]:
    """``"sentences:400:50"`` → ``("sentences", 400, 50)``; size and overlap are optional."""
    parts = spec.split(":")
    if not parts[0] or len(parts) > 3:
        raise InvalidInput(f"chunking variant {spec!r} is not strategy[:size[:overlap]], e.g. sentences:400:50")
    try:
        numbers = [int(p) if p else None for p in parts[1:]]
    except ValueError as e:
        raise InvalidInput(f"chunking variant {spec!r}: size and overlap must be integers, e.g. words:200:40") from e
    numbers += [None] * (2 - len(numbers))
    return parts[0], numbers[0], numbers[1]


def _negatives(path: Path | None) -> dict[str, str]:
    if path is None:
        return {}
    from citerag.evaluation.negatives import read_questions

    # Every question of this source counts as unanswerable, whatever a chunk_id column says.
    return {f"neg{i}": q for i, q in enumerate(read_questions(path), start=1)}


@app.command("eval")
def eval_command(
    questions: Path = typer.Option(None, "--questions", "-q", help="CSV of labelled questions `question;chunk_id` (evaluated against --index)."),
    beir: Path = typer.Option(None, "--beir", help="A BEIR folder (corpus.jsonl, queries.jsonl, qrels); indexed here."),
    index_dir: Path = IndexDirOption,
    split: str = typer.Option("test", "--split", help="BEIR judgement split (qrels/<split>.tsv)."),
    retrievers: list[str] = typer.Option(None, "--retriever", "-r", help="Retriever to compare; repeat for several (bm25, tfidf, ...)."),
    chunkings: list[str] = typer.Option(None, "--chunking", "-c", help="BEIR only: chunking variant strategy[:size[:overlap]]; repeat for several."),
    ks: list[int] = typer.Option([1, 3, 5, 10, 100], "--k", "-k", help="Cut-offs for the metrics; repeat for several."),
    embedder: str = typer.Option(None, "--embedder", help="BEIR only: embedder for the dense/hybrid retrievers (e.g. e5, hash)."),
    plain: bool = typer.Option(False, "--plain", help="Measure the bare ranking: no typo correction, no near-duplicate removal."),
    negatives: Path = typer.Option(None, "--negatives", help="Unanswerable questions (CSV, BEIR folder or .txt), to judge the not-found threshold."),
    min_score: float = typer.Option(None, "--min-score", help="The not-found threshold to judge (default: the index setting)."),
    answers: bool = typer.Option(False, "--answers", help="--questions only: also answer each question and score citations and 'not found'."),
    llm: str = typer.Option(None, "--llm", help="With --answers: model, e.g. ollama:qwen2.5 (default: $CITERAG_LLM; none → extractive)."),
    base_url: str = typer.Option(None, "--base-url", help="With --answers: model server URL."),
    answers_limit: int = typer.Option(None, "--answers-limit", min=1, help="With --answers: answer only the first N questions (and N negatives)."),
    out: Path = typer.Option(None, "--out", "-o", help="Also write every figure (per-question ranks included) as JSON here."),
    plot: Path = typer.Option(None, "--plot", help="Write a bar chart PNG of the headline metrics here."),
    show_ranks: bool = typer.Option(False, "--ranks", help="Print each question's rank of its first relevant chunk."),
    as_json: bool = JsonOption,
    quiet: bool = typer.Option(False, "--quiet", help="No progress bars."),
) -> None:
    """Measure Hit@k, MRR@k, nDCG@k, Recall@k, latency and build time; compare configurations."""
    from citerag.evaluation.benchmark import evaluate_beir, evaluate_labelled
    from citerag.evaluation.report import headline_metrics, plot_results, results_to_json
    from citerag.evaluation.runner import EvalConfig

    if (questions is None) == (beir is None):
        raise InvalidInput("give exactly one of --questions CSV (with --index) or --beir FOLDER")
    if answers and questions is None:
        raise InvalidInput("--answers needs --questions and an index (a BEIR folder is only scored on retrieval)")
    if any(k < 1 for k in ks):
        raise InvalidInput(f"--k values must be positive, got {sorted(ks)}")
    extra_negatives = _negatives(negatives)
    with stage_progress(not quiet and not as_json) as progress:
        if beir is not None:
            from citerag.evaluation.beir import load_beir

            data = load_beir(beir, split=split)
            variants = [parse_chunking(c) for c in chunkings or []] or [(None, None, None)]
            configs = [
                EvalConfig(r, chunking=c, chunk_size=s, chunk_overlap=o, plain=plain)
                for c, s, o in variants
                for r in (retrievers or ["bm25"])
            ]
            embed = None
            if embedder:
                from citerag.dense.factory import make_embedder

                embed = make_embedder(embedder)
            results = evaluate_beir(
                data,
                configs,
                ks=ks,
                negatives=extra_negatives,
                min_score=min_score,
                embedder=embed,
                progress=progress,  # type: ignore[arg-type]
            )
            source, texts = f"beir:{beir}", data.queries
        else:
            from citerag import Index
            from citerag.evaluation.labelled import LabelledQuestion, LabelledSet, read_labelled_csv

            if chunkings:
                raise InvalidInput("--chunking compares chunkings of a BEIR folder; with --questions the index's own chunks are used")
            labelled = read_labelled_csv(questions)
            labelled = LabelledSet(
                labelled.questions + tuple(LabelledQuestion(i, q) for i, q in extra_negatives.items())
            )
            index = Index.load(index_dir)
            results = evaluate_labelled(
                index,
                labelled,
                retrievers or [index.settings.retriever or "bm25"],
                plain=plain,
                ks=ks,
                min_score=min_score,
                progress=progress,  # type: ignore[arg-type]
            )
            if answers:
                results = _with_answer_metrics(
                    index, labelled, results, llm, base_url, min_score, answers_limit, progress
                )
            source = f"questions:{questions}"
            texts = {q.id: q.question for q in labelled.questions}
    figures = results_to_json(results, source=source, ks=ks, questions=texts)
    if out is not None:
        out.parent.mkdir(parents=True, exist_ok=True)
        out.write_text(json.dumps(figures, ensure_ascii=False, indent=2) + "\n", encoding="utf-8")
    headline = headline_metrics(ks)
    if plot is not None:
        plot_results(results, plot, headline)
    if as_json:
        console().print_json(json.dumps(figures, ensure_ascii=False))
        return
    _print_table(results, headline, source)
    if show_ranks:
        _print_ranks(results, texts)
    unknown = max((r.extra.get("unknown_chunk_ids", 0) for r in results), default=0)
    if unknown:
        error_console().print(
            f"[yellow]note:[/] {int(unknown)} question(s) name chunk ids missing from the index; they count as misses"
        )
    for path in (out, plot):
        if path is not None:
            console().print(f"wrote {path}")


def _with_answer_metrics(
    index: Index,
    labelled: LabelledSet,
    results: list[ConfigResult],
    llm: str | None,
    base_url: str | None,
    min_score: float | None,
    limit: int | None,
    progress: object,
) -> list[ConfigResult]:
    """Each retriever's result, with answer-level figures added to its ``extra``."""
    from dataclasses import replace
    from itertools import islice

    from citerag.evaluation.answers import evaluate_answers
    from citerag.generation import Pipeline, PipelineConfig, make_llm

    client = make_llm(llm, base_url=base_url)
    queries = dict(islice(labelled.queries.items(), limit))
    negatives = dict(islice(labelled.negative_queries.items(), limit))
    out = []
    for result in results:
        pipeline = Pipeline(
            index,
            client,
            config=PipelineConfig(min_score=min_score),
            search_options={"retriever": result.config.retriever},
        )
        stage = f"answer {result.config.name}"
        metrics = evaluate_answers(
            pipeline,
            queries,
            labelled.qrels,
            negatives,
            progress=(lambda d, t, s=stage: progress(s, d, t)) if callable(progress) else None,
        )
        out.append(replace(result, extra={**result.extra, **metrics.to_extra()}))
    return out


ANSWER_ROWS = (
    ("answers: valid citations", "answers.valid_citation_share"),
    ("answers: supported sentences", "answers.supported_sentence_share"),
    ("answers: cite a labelled chunk", "answers.cites_labelled_chunk"),
    ("answers: 'not found' on negatives", "answers.not_found_on_negatives"),
    ("answers: refused answerable", "answers.not_found_on_positives"),
)


def _print_table(results: Sequence[ConfigResult], headline: list[str], source: str) -> None:
    """Configurations as columns, measures as rows: stays readable in a narrow terminal."""
    n = results[0].report.n_queries if results else 0
    table = Table(title=f"{source}: {n} questions", title_justify="left")
    table.add_column("measure")
    for r in results:
        table.add_column(r.config.name, justify="right", overflow="fold")
    rows: list[tuple[str, list[str]]] = [
        (name, [f"{r.report.metrics[name]:.3f}" for r in results]) for name in headline
    ]
    rows.append(("p50 ms", [f"{r.latency_p50_ms:.2f}" for r in results]))
    rows.append(("p95 ms", [f"{r.latency_p95_ms:.2f}" for r in results]))
    if any(r.build_seconds is not None for r in results):
        rows.append(("build s", ["" if r.build_seconds is None else f"{r.build_seconds:.2f}" for r in results]))
    rows.append(("chunks", ["" if r.n_chunks is None else str(r.n_chunks) for r in results]))
    judged = any(r.threshold is not None for r in results)
    if judged:
        rows.append(("false answers", [f"{r.threshold.false_answer_rate:.1%}" if r.threshold else "" for r in results]))
        rows.append(("false refusals", [f"{r.threshold.false_refusal_rate:.1%}" if r.threshold else "" for r in results]))
        rows.append(("best threshold", [f"{r.best.threshold:.4g}" if r.best else "" for r in results]))
        rows.append(("  its error", [f"{r.best.balanced_error:.1%}" if r.best else "" for r in results]))
    for label, key in ANSWER_ROWS:
        if any(key in r.extra for r in results):
            rows.append((label, [f"{r.extra[key]:.1%}" if key in r.extra else "" for r in results]))
    for name, cells in rows:
        table.add_row(name, *cells)
    console().print(table)
    if judged:
        console().print(
            "[dim]false answers: unanswerable questions answered at the threshold; false refusals: answerable "
            "questions refused. `citerag tune-threshold` writes the best threshold into the index.[/]"
        )


def _print_ranks(results: Sequence[ConfigResult], texts: dict[str, str]) -> None:
    table = Table(title="rank of the first relevant chunk (— = not retrieved)", title_justify="left")
    table.add_column("question", overflow="fold", ratio=3)
    for r in results:
        table.add_column(r.config.name, justify="right")
    for qid in results[0].ranks if results else []:
        cells = []
        for r in results:
            rank = r.ranks.get(qid)
            cells.append("—" if rank is None else str(rank))
        table.add_row(texts.get(qid, qid), *cells)
    console().print(table)
