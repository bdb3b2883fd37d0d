"""``citerag tune-threshold``: pick the "not found" threshold from labelled questions."""

from __future__ import annotations

import json
from pathlib import Path

import typer
from rich.table import Table

from citerag.cli import app
from citerag.cli.options import IndexDirOption, JsonOption
from citerag.cli.progress import stage_progress
from citerag.cli.render import console
from citerag.errors import InvalidInput


@app.command("tune-threshold")
def tune_threshold_command(
    questions: Path = typer.Option(..., "--questions", "-q", help="Labelled CSV `question;chunk_id`; rows with an empty chunk_id are unanswerable."),
    negatives: Path = typer.Option(None, "--negatives", help="More unanswerable questions: CSV from `citerag questions negatives`, a BEIR folder or a .txt file."),
    index_dir: Path = IndexDirOption,
    retriever: str = typer.Option(None, "--retriever", "-r", help="Retriever whose scores are thresholded (default: the index's)."),
    write: bool = typer.Option(False, "--write", help="Save the threshold as min_score in the index's settings.json."),
    as_json: bool = JsonOption,
    quiet: bool = typer.Option(False, "--quiet", help="No progress bar."),
) -> None:
    """Find the min_score that best separates answerable from unanswerable questions.

    It minimises the mean of two error rates: unanswerable questions answered,
    and answerable ones refused. `search` and `ask` read the saved value.
    """
    from citerag import Index
    from citerag.evaluation.benchmark import evaluate_labelled
    from citerag.evaluation.labelled import LabelledQuestion, LabelledSet, read_labelled_csv
    from citerag.store import IndexSettings

    labelled = read_labelled_csv(questions)
    if negatives is not None:
        from citerag.evaluation.negatives import read_questions

        extra = read_questions(negatives)
        labelled = LabelledSet(
            labelled.questions + tuple(LabelledQuestion(f"neg{i}", q) for i, q in enumerate(extra, start=1))
        )
    if not labelled.positives or not labelled.negatives:
        raise InvalidInput(
            f"tuning needs answerable and unanswerable questions; {questions} has {len(labelled.positives)} "
            f"answerable and {len(labelled.negatives)} unanswerable: add --negatives (see `citerag questions negatives`)"
        )
    index = Index.load(index_dir)
    default = index.settings.retriever or ("hybrid" if index.dense is not None else "bm25")
    chosen = retriever or default
    with stage_progress(not quiet and not as_json) as progress:
        result = evaluate_labelled(index, labelled, [chosen], ks=(1, 10), progress=progress)[0]  # type: ignore[arg-type]
    best, current = result.best, result.threshold
    assert best is not None and current is not None  # both exist: there are negatives
    written = False
    if write:
        changes: dict[str, object] = {"min_score": best.threshold}
        if chosen != default:
            changes["retriever"] = chosen  # a threshold only means something on its retriever's scale
        IndexSettings.read(index_dir).model_copy(update=changes).write(index_dir)
        written = True
    if as_json:
        figures = {
            "retriever": chosen,
            "current": {**current.to_json(), "threshold": index.settings.min_score},
            "best": best.to_json(),
            "written": written,
            "hit@1": result.report.metrics["hit@1"],
        }
        console().print_json(json.dumps(figures, ensure_ascii=False))
        return
    table = Table(title=f"not-found threshold on {chosen} scores: {best.n_positive} answerable, {best.n_negative} unanswerable", title_justify="left")
    table.add_column("threshold")
    table.add_column("value", justify="right")
    table.add_column("false answers", justify="right")
    table.add_column("false refusals", justify="right")
    now = index.settings.min_score
    table.add_row("current", "none" if now is None else f"{now:.4g}", f"{current.false_answer_rate:.1%}", f"{current.false_refusal_rate:.1%}")
    table.add_row("best", f"{best.threshold:.4g}", f"{best.false_answer_rate:.1%}", f"{best.false_refusal_rate:.1%}")
    console().print(table)
    if written:
        note = f" and retriever {chosen}" if chosen != default else ""
        console().print(f"[green]Saved[/] min_score {best.threshold:.4g}{note} in {index_dir / 'settings.json'}")
    else:
        console().print("[dim]add --write to save it in the index settings[/]")
