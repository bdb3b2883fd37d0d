"""Finding the files under the paths the user gave, with include/exclude globs."""

from __future__ import annotations

import fnmatch
import os
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path, PurePosixPath


@dataclass(frozen=True)
class FoundFile:
    """One file to load: where it is, and how to name it."""

    path: Path
    source: str  # the path as the user would write it (given root + relative part), posix
    relative: str  # relative to the root folder given, or the file name for a single file


def matches(relative: str, patterns: Sequence[str]) -> bool:
    """Does a posix relative path match any glob?

    A pattern without ``/`` is tried against every path component (so
    ``*.md`` and ``drafts`` work at any depth); one with ``/`` against the
    whole relative path, where a leading ``**/`` also matches no folder.
    """
    parts = PurePosixPath(relative).parts
    return any(
        any(fnmatch.fnmatchcase(part, p) for part in parts) if "/" not in p else _path_match(relative, p)
        for p in _clean(patterns)
    )


def _included(relative: str, include: Sequence[str]) -> bool:
    """With no include globs everything is in; a pattern without ``/`` names files."""
    patterns = _clean(include)
    if not patterns:
        return True
    name = PurePosixPath(relative).name
    return any(
        fnmatch.fnmatchcase(name, p) if "/" not in p else _path_match(relative, p) for p in patterns
    )


def _path_match(relative: str, pattern: str) -> bool:
    return fnmatch.fnmatchcase(relative, pattern) or (
        pattern.startswith("**/") and fnmatch.fnmatchcase(relative, pattern[3:])
    )


def _clean(patterns: Sequence[str]) -> list[str]:
    return [p.strip().rstrip("/") for p in patterns if p.strip().rstrip("/")]


def walk(
    root: Path, given: str, include: Sequence[str] = (), exclude: Sequence[str] = ()
) -> Iterator[FoundFile]:
    """Files under ``root`` in a stable (sorted) order.

    Hidden files and folders (``.git``, ``.citerag``) are skipped: they are
    tool state, not documents.
    """
    if root.is_file():
        yield FoundFile(root, PurePosixPath(Path(given).as_posix()).as_posix(), root.name)
        return
    for dirpath, dirnames, filenames in os.walk(root):
        base = Path(dirpath)
        rel_dir = base.relative_to(root).as_posix()
        dirnames[:] = sorted(
            d
            for d in dirnames
            if not d.startswith(".") and not matches(_join(rel_dir, d), exclude)
        )
        for name in sorted(filenames):
            if name.startswith("."):
                continue
            relative = _join(rel_dir, name)
            if matches(relative, exclude) or not _included(relative, include):
                continue
            source = (PurePosixPath(Path(given).as_posix()) / relative).as_posix()
            yield FoundFile(base / name, source, relative)


def _join(rel_dir: str, name: str) -> str:
    return name if rel_dir in ("", ".") else f"{rel_dir}/{name}"
