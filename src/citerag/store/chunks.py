"""Chunks and documents in SQLite (``chunks.sqlite``): inspectable with any SQLite tool."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from citerag.errors import IndexCorrupted
from citerag.types import Chunk

CHUNKS_FILE = "chunks.sqlite"
SCHEMA_VERSION = 1

_SCHEMA = """
CREATE TABLE chunks (
    row INTEGER PRIMARY KEY,
    id TEXT NOT NULL UNIQUE,
    doc_id TEXT NOT NULL,
    ordinal INTEGER NOT NULL,
    start INTEGER NOT NULL,
    "end" INTEGER NOT NULL,
    text TEXT NOT NULL,
    metadata TEXT NOT NULL
);
CREATE INDEX chunks_doc ON chunks(doc_id);
CREATE TABLE documents (
    id TEXT PRIMARY KEY,
    source TEXT NOT NULL,
    content_hash TEXT NOT NULL,
    mtime REAL,
    chunks INTEGER NOT NULL
);
"""


@dataclass(frozen=True)
class DocumentRecord:
    """What the index remembers of a source document, to skip it when unchanged."""

    id: str
    source: str
    content_hash: str
    mtime: float | None
    chunks: int


def write_chunks(path: Path, chunks: Sequence[Chunk], documents: Sequence[DocumentRecord] = ()) -> None:
    con = sqlite3.connect(path)
    try:
        con.executescript(_SCHEMA)
        con.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
        con.executemany(
            'INSERT INTO chunks (row, id, doc_id, ordinal, start, "end", text, metadata) VALUES (?,?,?,?,?,?,?,?)',
            (
                (
                    i,
                    c.id,
                    c.doc_id,
                    c.ordinal,
                    c.start,
                    c.end,
                    c.text,
                    json.dumps(dict(c.metadata), ensure_ascii=False, default=str),
                )
                for i, c in enumerate(chunks)
            ),
        )
        con.executemany(
            "INSERT INTO documents (id, source, content_hash, mtime, chunks) VALUES (?,?,?,?,?)",
            ((d.id, d.source, d.content_hash, d.mtime, d.chunks) for d in documents),
        )
        con.commit()
    finally:
        con.close()


def read_chunks(path: Path) -> tuple[list[Chunk], list[DocumentRecord]]:
    try:
        con = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    except sqlite3.Error as exc:
        raise IndexCorrupted(f"cannot open {path}: {exc}; rebuild the index") from exc
    try:
        version = con.execute("PRAGMA user_version").fetchone()[0]
        if version != SCHEMA_VERSION:
            raise IndexCorrupted(f"{path} has chunk-store schema {version}, expected {SCHEMA_VERSION}")
        chunks = [
            Chunk(
                id=cid,
                text=text,
                doc_id=doc_id,
                ordinal=ordinal,
                start=start,
                end=end,
                metadata=json.loads(meta),
            )
            for cid, doc_id, ordinal, start, end, text, meta in con.execute(
                'SELECT id, doc_id, ordinal, start, "end", text, metadata FROM chunks ORDER BY row'
            )
        ]
        documents = [DocumentRecord(*row) for row in con.execute(
            "SELECT id, source, content_hash, mtime, chunks FROM documents ORDER BY id"
        )]
    except (sqlite3.Error, json.JSONDecodeError) as exc:
        raise IndexCorrupted(f"{path} is unreadable: {exc}; rebuild the index") from exc
    finally:
        con.close()
    return chunks, documents
