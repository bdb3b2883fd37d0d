"""Load a retrieval test set in the BEIR layout.

A folder holds ``corpus.jsonl`` (``{"_id", "title", "text"}``), ``queries.jsonl``
(``{"_id", "text"}``) and the judgements in ``qrels/<split>.tsv`` or
``qrels.tsv`` (tab-separated, header ``query-id corpus-id score``).
"""

from __future__ import annotations

import csv
import json
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from citerag.errors import InvalidInput
from citerag.types import Document

LAYOUT_HINT = (
    "a BEIR folder holds corpus.jsonl, queries.jsonl and qrels/<split>.tsv or qrels.tsv"
)


@dataclass(frozen=True)
class BeirSet:
    """A corpus, its judged queries and the judgements (query id -> doc id -> grade)."""

    name: str
    corpus: list[Document]
    queries: dict[str, str]
    qrels: dict[str, dict[str, int]]


def doc_text(doc: Document) -> str:
    """The text BEIR evaluates on: the title (if any) followed by the body."""
    return (doc.title + " " + doc.text).strip()


def _read_jsonl(path: Path) -> Iterator[dict[str, Any]]:
    # utf-8-sig: some exports start the file with a byte-order mark.
    with path.open(encoding="utf-8-sig") as handle:
        for number, line in enumerate(handle, start=1):
            if not line.strip():
                continue
            try:
                record = json.loads(line)
            except json.JSONDecodeError as e:
                raise InvalidInput(f"{path}:{number}: not a JSON line ({e.msg}); {LAYOUT_HINT}") from e
            if not isinstance(record, dict) or "_id" not in record:
                raise InvalidInput(f'{path}:{number}: a record needs an "_id" field; {LAYOUT_HINT}')
            yield record


def _qrels_path(folder: Path, split: str) -> Path:
    candidates = [folder / "qrels" / f"{split}.tsv"]
    # A lone qrels.tsv is the evaluation split, so it only stands in for "test".
    if split == "test":
        candidates.append(folder / "qrels.tsv")
    for path in candidates:
        if path.is_file():
            return path
    tried = ", ".join(str(p) for p in candidates)
    raise InvalidInput(f"no judgements for split {split!r} in {folder} (looked for {tried}); {LAYOUT_HINT}")


def load_qrels(path: str | Path) -> dict[str, dict[str, int]]:
    """Read a BEIR qrels TSV: query id -> document id -> relevance grade."""
    path = Path(path)
    qrels: dict[str, dict[str, int]] = {}
    with path.open(encoding="utf-8-sig", newline="") as handle:
        reader = csv.reader(handle, delimiter="\t")
        for number, row in enumerate(reader, start=1):
            if not row or not "".join(row).strip():
                continue
            if number == 1 and row[0].strip().lower() in {"query-id", "query_id", "qid"}:
                continue
            if len(row) < 3:
                raise InvalidInput(f"{path}:{number}: expected query-id, corpus-id, score separated by tabs")
            try:
                grade = int(float(row[2]))
            except ValueError as e:
                raise InvalidInput(f"{path}:{number}: score {row[2]!r} is not a number") from e
            qrels.setdefault(row[0].strip(), {})[row[1].strip()] = grade
    return qrels


def load_beir(folder: str | Path, split: str = "test") -> BeirSet:
    """Load a BEIR folder; keeps only the queries that have judgements in ``split``."""
    folder = Path(folder)
    if not folder.is_dir():
        raise InvalidInput(f"{folder} is not a folder; {LAYOUT_HINT}")
    corpus_path, queries_path = folder / "corpus.jsonl", folder / "queries.jsonl"
    for path in (corpus_path, queries_path):
        if not path.is_file():
            raise InvalidInput(f"{folder} is not a BEIR folder: {path.name} is missing; {LAYOUT_HINT}")
    qrels = load_qrels(_qrels_path(folder, split))
    corpus = [
        Document(
            id=str(rec["_id"]),
            text=str(rec.get("text") or ""),
            source=folder.name,
            title=str(rec.get("title") or ""),
            metadata={k: v for k, v in rec.items() if k not in {"_id", "text", "title"}},
        )
        for rec in _read_jsonl(corpus_path)
    ]
    all_queries = {str(rec["_id"]): str(rec.get("text") or "") for rec in _read_jsonl(queries_path)}
    queries = {qid: all_queries[qid] for qid in qrels if qid in all_queries}
    if not queries:
        raise InvalidInput(f"no query in {queries_path} has a judgement in split {split!r}; check the split name")
    return BeirSet(
        name=folder.name,
        corpus=corpus,
        queries=queries,
        qrels={qid: qrels[qid] for qid in queries},
    )
