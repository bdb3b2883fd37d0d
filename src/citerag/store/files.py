"""File helpers: checksums and atomic replacement of a whole index directory."""

from __future__ import annotations

import hashlib
import os
import shutil
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path


def sha256_file(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as fh:
        for block in iter(lambda: fh.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def _fsync_dir(path: Path) -> None:
    try:
        fd = os.open(path, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


@contextmanager
def atomic_directory(target: Path) -> Iterator[Path]:
    """Yield a fresh sibling directory; on success it replaces ``target``.

    Readers see either the old index or the new one, never a mix: the new
    directory is complete and synced before two renames swap it in. On any
    error the temporary directory is removed and ``target`` is untouched.
    """
    target = Path(target)
    target.parent.mkdir(parents=True, exist_ok=True)
    token = uuid.uuid4().hex[:8]
    staging = target.parent / f".{target.name}.new-{token}"
    staging.mkdir()
    try:
        yield staging
        for item in staging.iterdir():
            if item.is_file():
                with item.open("rb") as fh:
                    os.fsync(fh.fileno())
        _fsync_dir(staging)
        old = target.parent / f".{target.name}.old-{token}"
        if target.exists():
            target.rename(old)
        staging.rename(target)
        _fsync_dir(target.parent)
        shutil.rmtree(old, ignore_errors=True)
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        raise
