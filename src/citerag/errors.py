"""Domain errors. The CLI turns each into a one-line message and an exit code;
the library never prints."""

from __future__ import annotations


class CiteragError(Exception):
    """Base class: a problem the user can fix, described in one line."""

    exit_code = 1


class InvalidInput(CiteragError, ValueError):
    """A parameter or input value that cannot be used (names the value and the fix)."""

    exit_code = 2


class EmptyQuery(InvalidInput):
    """The query has no searchable words (empty, punctuation or only stop words)."""


class NoDocuments(CiteragError):
    """Nothing could be indexed from the given paths."""


class IndexNotFound(CiteragError, FileNotFoundError):
    """The index directory does not exist or holds no index."""


class IndexCorrupted(CiteragError):
    """An index file is missing, truncated or fails its checksum."""


class IndexIncompatible(CiteragError):
    """The index was written by another format version, analyser or embedder."""


class DocumentError(CiteragError):
    """One input file could not be read (the reason is in the message)."""


class GenerationError(CiteragError):
    """The language model could not be reached or gave an unusable reply."""


class EmbeddingError(CiteragError):
    """The embedding model or server could not be reached or gave unusable vectors."""
