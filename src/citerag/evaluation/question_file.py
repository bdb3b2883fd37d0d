"""Write generated questions to the labelled CSV, resumably.

Questions are appended chunk by chunk, and the id of every finished chunk
goes to a sidecar file (``<csv>.done``). After an interruption the same
command skips finished chunks and keeps de-duplicating against the questions
already written.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from citerag.evaluation.labelled import LabelledQuestion, read_labelled_csv, write_labelled_csv
from citerag.evaluation.questions import (
    FilterCounts,
    QuestionKind,
    QuestionSettings,
    ask_questions,
    filter_questions,
    normalise_question,
    select_chunks,
)
from citerag.generation.llm.base import LLMClient
from citerag.generation.llm.errors import LLMMalformedReply
from citerag.types import Chunk

Progress = Callable[[int, int], None]


@dataclass(frozen=True)
class GenerationReport:
    path: Path
    chunks_selected: int
    chunks_resumed: int  # finished by an earlier run, skipped now
    chunks_done: int  # finished by this run
    chunks_failed: int  # the model never gave a valid reply (retried on the next run)
    counts: FilterCounts

    @property
    def questions_written(self) -> int:
        return self.counts.kept


def done_path(out: Path) -> Path:
    return out.with_name(out.name + ".done")


def _read_done(path: Path) -> set[str]:
    if not path.is_file():
        return set()
    return {line.strip() for line in path.read_text(encoding="utf-8").splitlines() if line.strip()}


def _existing_keys(out: Path) -> list[str]:
    """Questions already in the file, so a resumed run does not repeat them."""
    if not out.is_file() or len(out.read_text(encoding="utf-8").splitlines()) <= 1:
        return []  # absent, or only the header
    return [normalise_question(q.question) for q in read_labelled_csv(out).questions]


def generate_question_file(
    llm: LLMClient,
    chunks: Sequence[Chunk],
    out: str | Path,
    settings: QuestionSettings = QuestionSettings(),
    *,
    resume: bool = True,
    progress: Progress | None = None,
) -> GenerationReport:
    """Generate questions for the selected chunks into ``out`` (``question;chunk_id``).

    ``settings.kind`` picks answerable questions (labelled with their chunk)
    or unanswerable ones (empty chunk id). With ``resume=False`` an existing
    file is replaced.
    """
    out = Path(out)
    marker = done_path(out)
    if not resume:
        out.unlink(missing_ok=True)
        marker.unlink(missing_ok=True)
    finished = _read_done(marker) if out.is_file() else set()
    seen = _existing_keys(out)
    selected = select_chunks(chunks, settings)
    todo = [c for c in selected if c.id not in finished]
    counts = FilterCounts()
    done = failed = 0
    if not out.is_file():
        write_labelled_csv(out, [])  # the header, so an early stop still leaves a valid file
    for number, chunk in enumerate(todo, start=1):
        try:
            asked = ask_questions(llm, chunk, settings)
        except LLMMalformedReply:
            failed += 1
        else:
            kept, chunk_counts = filter_questions(asked, seen, settings)
            seen = [*seen, *(normalise_question(q) for q in kept)]
            counts = counts + chunk_counts
            # An unanswerable question is written without a chunk id: that marks it negative.
            label = (chunk.id,) if settings.kind is QuestionKind.ANSWERABLE else ()
            write_labelled_csv(out, [LabelledQuestion("", q, label) for q in kept], append=True)
            with marker.open("a", encoding="utf-8") as handle:
                handle.write(chunk.id + "\n")
            done += 1
        if progress is not None:
            progress(number, len(todo))
    return GenerationReport(
        path=out,
        chunks_selected=len(selected),
        chunks_resumed=len(selected) - len(todo),
        chunks_done=done,
        chunks_failed=failed,
        counts=counts,
    )
