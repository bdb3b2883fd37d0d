"""citerag: answers from your own documents, with numbered sources you can check."""

__version__ = "0.1.0"  # before the imports below: citerag.index reads it

from citerag.errors import (
    CiteragError,
    EmptyQuery,
    IndexCorrupted,
    IndexIncompatible,
    IndexNotFound,
    InvalidInput,
    NoDocuments,
)
from citerag.types import Chunk, Document, Hit
from citerag.index import Index  # noqa: E402  (after the types it uses)

__all__ = [
    "Chunk",
    "CiteragError",
    "Document",
    "EmptyQuery",
    "Hit",
    "Index",
    "IndexCorrupted",
    "IndexIncompatible",
    "IndexNotFound",
    "InvalidInput",
    "NoDocuments",
    "__version__",
]
