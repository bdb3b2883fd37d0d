"""The index manifest: what wrote the index, with what settings, and checksums.

``manifest.json`` is written last, so a directory without one is not an
index. Components (lexical, dense, ...) each own a section.
"""

from __future__ import annotations

import json
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from citerag.errors import IndexCorrupted, IndexIncompatible, IndexNotFound
from citerag.store.files import sha256_file

FORMAT_NAME = "citerag-index"
FORMAT_VERSION = 1
MANIFEST_FILE = "manifest.json"
# Edited by users and tools after the build, so not checksummed (see settings.py).
UNCHECKED_FILES = frozenset({MANIFEST_FILE, "settings.json"})


class Manifest(BaseModel):
    model_config = ConfigDict(extra="forbid")

    format: str = FORMAT_NAME
    format_version: int = FORMAT_VERSION
    citerag_version: str
    created_at: str = Field(default_factory=lambda: datetime.now(timezone.utc).isoformat(timespec="seconds"))
    analyzer: dict[str, Any]
    components: dict[str, dict[str, Any]] = Field(default_factory=dict)
    stats: dict[str, Any] = Field(default_factory=dict)
    files: dict[str, str] = Field(default_factory=dict)  # file name -> sha256

    def write(self, directory: Path) -> None:
        """Checksum every other file of ``directory``, then write the manifest."""
        self.files = {
            p.name: sha256_file(p)
            for p in sorted(directory.iterdir())
            if p.is_file() and p.name not in UNCHECKED_FILES
        }
        (directory / MANIFEST_FILE).write_text(
            json.dumps(self.model_dump(), ensure_ascii=False, indent=2) + "\n", encoding="utf-8"
        )

    @classmethod
    def read(cls, directory: Path, verify: bool = True) -> "Manifest":
        directory = Path(directory)
        path = directory / MANIFEST_FILE
        if not directory.is_dir():
            raise IndexNotFound(f"no index at {directory}: run `citerag index PATH --index {directory}` first")
        if not path.is_file():
            raise IndexNotFound(f"{directory} is not a citerag index (no {MANIFEST_FILE})")
        try:
            raw = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
            raise IndexCorrupted(f"{path} is unreadable ({exc}); rebuild the index") from exc
        if not isinstance(raw, dict) or raw.get("format") != FORMAT_NAME:
            raise IndexNotFound(f"{directory} is not a citerag index")
        version = raw.get("format_version")
        if version != FORMAT_VERSION:
            raise IndexIncompatible(
                f"index format version {version} in {directory}, this citerag reads version "
                f"{FORMAT_VERSION}: rebuild it with `citerag index`"
            )
        try:
            manifest = cls.model_validate(raw)
        except ValidationError as exc:
            raise IndexCorrupted(f"{path} is malformed: {exc.errors()[0]['msg']}; rebuild the index") from exc
        if verify:
            manifest.verify(directory)
        return manifest

    def verify(self, directory: Path) -> None:
        for name, expected in self.files.items():
            path = directory / name
            if not path.is_file():
                raise IndexCorrupted(f"index file {path} is missing; rebuild the index")
            if sha256_file(path) != expected:
                raise IndexCorrupted(f"index file {path} fails its checksum (changed or truncated); rebuild the index")
