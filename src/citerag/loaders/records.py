"""Pre-chunked ``.jsonl`` files: one ``{"id", "text", "metadata"}`` record a line."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from citerag.errors import DocumentError
from citerag.loaders.result import LoadFailure
from citerag.types import Chunk


def load_records(path: Path, source: str) -> tuple[list[Chunk], list[LoadFailure]]:
    """Read the records of one file; a bad line is a failure, the others still load."""
    try:
        raw = path.read_bytes()
    except OSError as e:
        raise DocumentError(f"cannot read file: {e.strerror or e}") from e
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as e:
        raise DocumentError(f"not UTF-8 (JSON Lines must be UTF-8): {e.reason} at byte {e.start}") from e
    chunks: list[Chunk] = []
    failures: list[LoadFailure] = []
    seen: set[str] = set()
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        try:
            chunk = _record(line, source, len(chunks))
        except ValueError as e:
            failures.append(LoadFailure(f"{source}:{number}", f"line {number}: {e}"))
            continue
        if chunk.id in seen:
            failures.append(
                LoadFailure(f"{source}:{number}", f"line {number}: duplicate id {chunk.id!r}")
            )
            continue
        seen.add(chunk.id)
        chunks.append(chunk)
    if not chunks and not failures:
        raise DocumentError("empty file (no records)")
    return chunks, failures


def _record(line: str, source: str, ordinal: int) -> Chunk:
    try:
        data: Any = json.loads(line)
    except json.JSONDecodeError as e:
        raise ValueError(f"invalid JSON ({e.msg} at column {e.colno})") from e
    if not isinstance(data, dict):
        raise ValueError('expected an object {"id", "text", "metadata"}')
    record_id, text = data.get("id"), data.get("text")
    if not isinstance(record_id, (str, int)) or isinstance(record_id, bool) or str(record_id) == "":
        raise ValueError('missing or empty "id" (a string)')
    if not isinstance(text, str) or not text.strip():
        raise ValueError('missing or empty "text" (a string)')
    metadata = data.get("metadata") or {}
    if not isinstance(metadata, dict):
        raise ValueError('"metadata" must be an object')
    chunk_id = str(record_id)
    doc_id = str(metadata.get("doc_id", chunk_id))
    return Chunk(
        id=chunk_id,
        text=text,
        doc_id=doc_id,
        ordinal=ordinal,
        start=0,
        end=len(text),
        metadata={"format": "jsonl", **metadata, "doc_id": doc_id, "source": source},
    )
