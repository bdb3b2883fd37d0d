"""Labelled questions in a CSV file: ``question;chunk_id`` with a header row.

One row per (question, relevant chunk); a question with several relevant
chunks takes several rows. An empty ``chunk_id`` marks a question the
documents cannot answer (a "negative"): retrieval metrics skip it, the
"not found" threshold is judged on it. Extra columns are ignored, except an
optional ``id`` column that names the question.
"""

from __future__ import annotations

import csv
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from citerag.errors import InvalidInput

DELIMITER = ";"
QUESTION, CHUNK_ID, QID = "question", "chunk_id", "id"
HEADER = (QUESTION, CHUNK_ID)


@dataclass(frozen=True)
class LabelledQuestion:
    """A question and the ids of the chunks that answer it (none for a negative)."""

    id: str
    question: str
    chunk_ids: tuple[str, ...] = ()

    @property
    def negative(self) -> bool:
        return not self.chunk_ids


@dataclass(frozen=True)
class LabelledSet:
    """Questions split the way the evaluation needs them."""

    questions: tuple[LabelledQuestion, ...]

    @property
    def positives(self) -> tuple[LabelledQuestion, ...]:
        return tuple(q for q in self.questions if not q.negative)

    @property
    def negatives(self) -> tuple[LabelledQuestion, ...]:
        return tuple(q for q in self.questions if q.negative)

    @property
    def queries(self) -> dict[str, str]:
        """Answerable questions only: query id -> text."""
        return {q.id: q.question for q in self.positives}

    @property
    def qrels(self) -> dict[str, dict[str, int]]:
        return {q.id: {c: 1 for c in q.chunk_ids} for q in self.positives}

    @property
    def negative_queries(self) -> dict[str, str]:
        return {q.id: q.question for q in self.negatives}


def read_labelled_csv(path: str | Path) -> LabelledSet:
    """Read a ``question;chunk_id`` CSV; rows of the same question are merged."""
    path = Path(path)
    if not path.is_file():
        raise InvalidInput(f"labelled questions file {path} does not exist; expected a CSV `question;chunk_id`")
    order: list[str] = []
    chunks: dict[str, list[str]] = {}
    ids: dict[str, str] = {}
    with path.open(encoding="utf-8-sig", newline="") as handle:
        reader = csv.DictReader(handle, delimiter=DELIMITER)
        fields = [f.strip().lower() for f in (reader.fieldnames or [])]
        if QUESTION not in fields or CHUNK_ID not in fields:
            raise InvalidInput(
                f"{path}: header {DELIMITER.join(fields) or '(empty)'!r} lacks "
                f"'{QUESTION}' and '{CHUNK_ID}'; the first row must be `question;chunk_id` (semicolons)"
            )
        reader.fieldnames = fields
        for row in reader:
            question = (row.get(QUESTION) or "").strip()
            if not question:
                continue
            chunk_id = (row.get(CHUNK_ID) or "").strip()
            if question not in chunks:
                order.append(question)
                chunks[question] = []
                ids[question] = (row.get(QID) or "").strip() or f"q{len(order)}"
            if chunk_id and chunk_id not in chunks[question]:
                chunks[question].append(chunk_id)
    if not order:
        raise InvalidInput(f"{path} holds no questions")
    return LabelledSet(
        tuple(LabelledQuestion(id=ids[q], question=q, chunk_ids=tuple(chunks[q])) for q in order)
    )


def write_labelled_csv(
    path: str | Path, questions: Iterable[LabelledQuestion], *, append: bool = False
) -> int:
    """Write (or append) rows ``question;chunk_id``; returns the number of rows written.

    The header is written only when the file is new or empty, so appending
    batch by batch keeps one valid file (this is what makes generation resumable).
    """
    path = Path(path)
    fresh = not append or not path.exists() or path.stat().st_size == 0
    rows = 0
    with path.open("w" if not append else "a", encoding="utf-8", newline="") as handle:
        writer = csv.writer(handle, delimiter=DELIMITER)
        if fresh:
            writer.writerow(HEADER)
        for q in questions:
            for chunk_id in q.chunk_ids or ("",):
                writer.writerow((q.question, chunk_id))
                rows += 1
    return rows
