"""Persistence stage: the index directory (manifest, chunks, lexical arrays)."""

from citerag.store.chunks import CHUNKS_FILE, DocumentRecord, read_chunks, write_chunks
from citerag.store.files import atomic_directory, sha256_file
from citerag.store.lexical_io import load_counts, save_counts
from citerag.store.manifest import FORMAT_VERSION, MANIFEST_FILE, Manifest
from citerag.store.settings import SETTINGS_FILE, IndexSettings

__all__ = [
    "CHUNKS_FILE",
    "FORMAT_VERSION",
    "IndexSettings",
    "SETTINGS_FILE",
    "MANIFEST_FILE",
    "DocumentRecord",
    "Manifest",
    "atomic_directory",
    "load_counts",
    "read_chunks",
    "save_counts",
    "sha256_file",
    "write_chunks",
]
