"""Questions the corpus cannot answer, to judge the "not found" threshold.

Two sources: questions of *another* corpus (a BEIR folder, a labelled CSV or
a text file with one question per line), sampled with a seed; or questions a
model writes on a chunk's subject that the chunk does not answer (see
``QuestionKind.UNANSWERABLE`` in ``citerag.evaluation.questions``). Generated
negatives can still be answered elsewhere in the corpus: skim them.
"""

from __future__ import annotations

import json
import random
from collections.abc import Collection, Sequence
from pathlib import Path

from citerag.errors import InvalidInput
from citerag.evaluation.labelled import LabelledQuestion
from citerag.evaluation.questions import normalise_question

SOURCE_HINT = "a BEIR folder (queries.jsonl), a labelled CSV (question;chunk_id) or a .txt file, one question per line"


def read_questions(path: str | Path) -> list[str]:
    """Every question text in ``path``, in file order."""
    path = Path(path)
    if path.is_dir():
        queries = path / "queries.jsonl"
        if not queries.is_file():
            raise InvalidInput(f"{path} has no queries.jsonl; give {SOURCE_HINT}")
        out = []
        with queries.open(encoding="utf-8-sig") as handle:
            for number, line in enumerate(handle, start=1):
                if not line.strip():
                    continue
                try:
                    out.append(str(json.loads(line)["text"]))
                except (json.JSONDecodeError, KeyError, TypeError) as e:
                    raise InvalidInput(f"{queries}:{number}: not a query record with a \"text\" field") from e
        return out
    if not path.is_file():
        raise InvalidInput(f"{path} does not exist; give {SOURCE_HINT}")
    if path.suffix.lower() == ".csv":
        from citerag.evaluation.labelled import read_labelled_csv

        return [q.question for q in read_labelled_csv(path).questions]
    return [line.strip() for line in path.read_text(encoding="utf-8-sig").splitlines() if line.strip()]


def sample_foreign(
    questions: Sequence[str], count: int, *, seed: int = 0, exclude: Collection[str] = ()
) -> list[LabelledQuestion]:
    """``count`` distinct questions drawn with ``seed``, none equal to one in ``exclude``.

    ``exclude`` holds questions of the evaluated set: a question both labelled
    and negative would contradict itself.
    """
    if count < 1:
        raise InvalidInput(f"count must be at least 1, got {count}")
    banned = {normalise_question(q) for q in exclude}
    unique: dict[str, str] = {}
    for question in questions:
        key = normalise_question(question)
        if key and key not in banned:
            unique.setdefault(key, question.strip())
    pool = list(unique.values())
    picked = random.Random(seed).sample(pool, min(count, len(pool)))
    return [LabelledQuestion(id=f"neg{i}", question=q) for i, q in enumerate(picked, start=1)]
