"""``citerag questions generate|negatives``: build labelled question sets for ``citerag eval``."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import typer

from citerag.cli import app
from citerag.cli.options import IndexDirOption
from citerag.cli.progress import stage_progress
from citerag.cli.render import console
from citerag.errors import InvalidInput

if TYPE_CHECKING:
    from citerag.generation.llm import LLMClient

questions_app = typer.Typer(
    help="Build labelled question sets (CSV `question;chunk_id`) for `citerag eval`.",
    no_args_is_help=True,
)
app.add_typer(questions_app, name="questions")

LlmOption = typer.Option(
    None, "--llm", help="Model, e.g. openai:gpt-4o-mini or ollama:qwen2.5 (default: $CITERAG_LLM)."
)
BaseUrlOption = typer.Option(None, "--base-url", help="Model server URL (default: from the environment).")
SeedOption = typer.Option(0, "--seed", help="Seed for the choice of chunks or questions (same seed, same set).")


def _client(llm: str | None, base_url: str | None, timeout: float) -> LLMClient:
    from citerag.generation.llm import make_llm

    client = make_llm(llm, base_url=base_url, timeout=timeout)
    if client is None:
        raise InvalidInput("questions are written by a language model: give --llm (e.g. ollama:qwen2.5) or set $CITERAG_LLM")
    return client


def _generate(
    kind: str,
    index_dir: Path,
    out: Path,
    llm: str | None,
    base_url: str | None,
    per_chunk: int,
    min_chars: int,
    limit: int | None,
    seed: int,
    restart: bool,
    timeout: float,
    quiet: bool,
) -> None:
    from citerag import Index
    from citerag.evaluation.question_file import generate_question_file
    from citerag.evaluation.questions import QuestionKind, QuestionSettings

    settings = QuestionSettings(
        kind=QuestionKind.parse(kind), per_chunk=per_chunk, min_chunk_chars=min_chars, limit=limit, seed=seed
    )
    client = _client(llm, base_url, timeout)
    index = Index.load(index_dir)
    with stage_progress(not quiet) as progress:
        report = generate_question_file(
            client,
            index.chunks,
            out,
            settings,
            resume=not restart,
            progress=(lambda d, t: progress("questions", d, t)) if progress else None,  # type: ignore[operator]
        )
    c = report.counts
    resumed = f", {report.chunks_resumed} done earlier" if report.chunks_resumed else ""
    console().print(
        f"[green]Wrote[/] {c.kept} questions from {report.chunks_done} chunks{resumed} → [bold]{out}[/]\n"
        f"[dim]dropped: {c.too_short} too short, {c.self_reference} referring to 'the text', "
        f"{c.duplicate} duplicates[/]"
    )
    if report.chunks_failed:
        console().print(
            f"[yellow]{report.chunks_failed} chunk(s) got no valid reply;[/] run the same command again to retry them"
        )


@questions_app.command("generate")
def generate_command(
    index_dir: Path = IndexDirOption,
    out: Path = typer.Option(Path("questions.csv"), "--out", "-o", help="CSV to write (appended to when resuming)."),
    llm: str = LlmOption,
    base_url: str = BaseUrlOption,
    per_chunk: int = typer.Option(2, "--per-chunk", "-n", min=1, max=10, help="Ask for up to this many questions per chunk."),
    min_chars: int = typer.Option(200, "--min-chars", min=1, help="Skip chunks shorter than this."),
    limit: int = typer.Option(None, "--limit", min=1, help="Use a seeded sample of this many chunks."),
    seed: int = SeedOption,
    restart: bool = typer.Option(False, "--restart", help="Start over instead of resuming an interrupted run."),
    timeout: float = typer.Option(120.0, "--timeout", min=0.1, help="Seconds to wait for each reply."),
    quiet: bool = typer.Option(False, "--quiet", help="No progress bar."),
) -> None:
    """Ask the model for questions each chunk answers; write `question;chunk_id` rows.

    Interrupted runs resume where they stopped (finished chunks are listed in `<out>.done`).
    """
    _generate("answerable", index_dir, out, llm, base_url, per_chunk, min_chars, limit, seed, restart, timeout, quiet)


@questions_app.command("negatives")
def negatives_command(
    index_dir: Path = IndexDirOption,
    out: Path = typer.Option(Path("negatives.csv"), "--out", "-o", help="CSV to write (question;chunk_id with empty chunk_id)."),
    source: Path = typer.Option(None, "--from", help="Take questions of another corpus: a BEIR folder, a labelled CSV or a .txt file."),
    count: int = typer.Option(100, "--count", min=1, help="With --from: how many questions to sample."),
    exclude: Path = typer.Option(None, "--exclude", help="With --from: a labelled CSV whose questions must not be used."),
    llm: str = LlmOption,
    base_url: str = BaseUrlOption,
    per_chunk: int = typer.Option(1, "--per-chunk", "-n", min=1, max=10, help="Without --from: questions asked per chunk."),
    min_chars: int = typer.Option(200, "--min-chars", min=1, help="Without --from: skip chunks shorter than this."),
    limit: int = typer.Option(None, "--limit", min=1, help="Without --from: use a seeded sample of this many chunks."),
    seed: int = SeedOption,
    restart: bool = typer.Option(False, "--restart", help="Without --from: start over instead of resuming."),
    timeout: float = typer.Option(120.0, "--timeout", min=0.1, help="Seconds to wait for each reply."),
    quiet: bool = typer.Option(False, "--quiet", help="No progress bar."),
) -> None:
    """Questions the documents cannot answer, to judge the "not found" threshold.

    With --from, sampled from another corpus (no model needed); otherwise a model
    writes, for each chunk, questions on its subject that it does not answer.
    """
    if source is None:
        _generate("unanswerable", index_dir, out, llm, base_url, per_chunk, min_chars, limit, seed, restart, timeout, quiet)
        return
    from citerag.evaluation.labelled import write_labelled_csv
    from citerag.evaluation.negatives import read_questions, sample_foreign

    banned = read_questions(exclude) if exclude is not None else []
    picked = sample_foreign(read_questions(source), count, seed=seed, exclude=banned)
    write_labelled_csv(out, picked)
    console().print(f"[green]Wrote[/] {len(picked)} questions from {source} → [bold]{out}[/]")
