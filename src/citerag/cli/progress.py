"""A rich progress bar behind the library's (stage, done, total) callbacks."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

from citerag.cli.render import error_console

STAGE_LABELS = {"load": "Loading files", "chunk": "Chunking", "analyse": "Analysing text", "embed": "Embedding"}


@contextmanager
def stage_progress(enabled: bool = True) -> Iterator[object]:
    """Yield a ``callback(stage, done, total)``; one bar per stage, on stderr."""
    if not enabled:
        yield None
        return
    bars = Progress(
        TextColumn("{task.description:<16}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeRemainingColumn(),
        console=error_console(),
        transient=False,
    )
    tasks: dict[str, object] = {}

    def callback(stage: str, done: int, total: int) -> None:
        if stage not in tasks:
            tasks[stage] = bars.add_task(STAGE_LABELS.get(stage, stage), total=total)
        bars.update(tasks[stage], completed=done, total=total)

    with bars:
        yield callback
