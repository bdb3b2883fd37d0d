"""Turning files into ``Document`` values (and ``.jsonl`` files into records)."""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Sequence
from datetime import datetime, timezone
from pathlib import Path

from citerag.errors import DocumentError
from citerag.loaders.formats import RECORD_SUFFIXES, SUPPORTED_SUFFIXES, parser_for
from citerag.loaders.records import load_records
from citerag.loaders.result import LoadFailure, LoadResult
from citerag.loaders.walk import FoundFile, walk
from citerag.types import Chunk, Document

Progress = Callable[[int, int], None]


def load_file(path: Path, *, root: Path | None = None, source: str | None = None) -> Document:
    """Read one file into a ``Document``; raises ``DocumentError`` with the reason.

    The id is the path relative to ``root`` (posix), or the file name when
    no root is given; ``source`` defaults to the path as passed.
    """
    path = Path(path)
    parser = parser_for(path.suffix)
    if parser is None:
        if path.suffix.lower() in RECORD_SUFFIXES:
            raise DocumentError(
                f"{path.name} holds pre-chunked records: load it with load_paths(), not load_file()"
            )
        raise DocumentError(_unsupported(path))
    try:
        data = path.read_bytes()
        stat = path.stat()
    except OSError as e:
        raise DocumentError(f"cannot read file: {e.strerror or e}") from e
    try:
        parsed = parser(data)
    except DocumentError:
        raise
    except Exception as e:  # third-party parsers on arbitrary bytes: any failure is this file's
        raise DocumentError(f"cannot parse {path.suffix} file ({type(e).__name__}: {e})") from e
    doc_id = _relative_id(path, root)
    metadata = {
        "source": source if source is not None else path.as_posix(),
        "title": parsed.title or path.stem,
        "format": parsed.format,
        "content_hash": hashlib.sha256(parsed.text.encode("utf-8")).hexdigest(),
        "mtime": datetime.fromtimestamp(stat.st_mtime, tz=timezone.utc).isoformat(timespec="seconds"),
        "size_bytes": stat.st_size,
        **parsed.extra,
    }
    if parsed.outline:
        metadata["headings"] = [h.title for h in parsed.outline]
        metadata["outline"] = [h.to_json() for h in parsed.outline]
    return Document(
        id=doc_id,
        text=parsed.text,
        source=metadata["source"],
        title=metadata["title"],
        metadata=metadata,
    )


def _relative_id(path: Path, root: Path | None) -> str:
    if root is None:
        return path.name
    try:
        return path.relative_to(root).as_posix()
    except ValueError as e:
        raise DocumentError(f"{path} is not inside the root folder {root}") from e


def _unsupported(path: Path) -> str:
    kind = f"file type {path.suffix!r}" if path.suffix else "file without an extension"
    return f"unsupported {kind} (supported: {', '.join(SUPPORTED_SUFFIXES)})"


def load_paths(
    paths: Sequence[str | Path],
    *,
    include: Sequence[str] = (),
    exclude: Sequence[str] = (),
    strict: bool = False,
    progress: Progress | None = None,
) -> LoadResult:
    """Load every file under ``paths`` (files or folders, walked recursively).

    Unreadable files are collected in ``failures`` with the reason; with
    ``strict=True`` the first one raises ``DocumentError`` instead.
    ``include``/``exclude`` are globs (``*.md``, ``drafts``, ``notes/**/*.txt``)
    applied inside folders; a file named directly is always loaded. Hidden
    files and folders are skipped.
    """
    if isinstance(paths, (str, Path)):
        paths = [paths]
    found: list[FoundFile] = []
    failures: list[LoadFailure] = []
    for given in paths:
        root = Path(given)
        if not root.exists():
            _fail(failures, LoadFailure(Path(given).as_posix(), "no such file or folder"), strict)
            continue
        found.extend(walk(root, str(given), include, exclude))
    documents: list[Document] = []
    records: list[Chunk] = []
    ids: set[str] = set()
    for done, item in enumerate(found, start=1):
        bad: list[LoadFailure] = []
        try:
            if item.path.suffix.lower() in RECORD_SUFFIXES:
                chunks, bad = load_records(item.path, item.source)
                records.extend(chunks)
            else:
                doc = load_file(item.path, source=item.source)
                documents.append(_with_id(doc, _unique_id(item, ids)))
        except DocumentError as e:
            _fail(failures, LoadFailure(item.source, str(e)), strict, e)
        for failure in bad:
            _fail(failures, failure, strict)
        if progress is not None:
            progress(done, len(found))
    return LoadResult(documents=documents, records=records, failures=failures)


def _fail(
    failures: list[LoadFailure], failure: LoadFailure, strict: bool, cause: Exception | None = None
) -> None:
    if strict:
        raise DocumentError(f"{failure.path}: {failure.reason} (drop --strict to skip such files)") from cause
    failures.append(failure)


def _unique_id(item: FoundFile, seen: set[str]) -> str:
    # Two roots may hold the same relative path (a/README.md, b/README.md):
    # fall back to the path as given, which tells them apart.
    candidate = item.relative
    if candidate in seen:
        candidate = item.source
    base, n = candidate, 2
    while candidate in seen:
        candidate, n = f"{base}~{n}", n + 1
    seen.add(candidate)
    return candidate


def _with_id(doc: Document, doc_id: str) -> Document:
    if doc.id == doc_id:
        return doc
    return Document(id=doc_id, text=doc.text, source=doc.source, title=doc.title, metadata=doc.metadata)
