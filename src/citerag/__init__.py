"""citerag: answers from your own documents, with numbered sources you can check."""

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

__version__ = "0.1.0"

__all__ = [
    "Chunk",
    "CiteragError",
    "Document",
    "EmptyQuery",
    "Hit",
    "IndexCorrupted",
    "IndexIncompatible",
    "IndexNotFound",
    "InvalidInput",
    "NoDocuments",
    "__version__",
]
