"""What loading a set of paths produces."""

from __future__ import annotations

from dataclasses import dataclass, field

from citerag.types import Chunk, Document


@dataclass(frozen=True)
class LoadFailure:
    """A file that could not be read, with the reason in one line."""

    path: str
    reason: str

    def __str__(self) -> str:
        return f"{self.path}: {self.reason}"


@dataclass(frozen=True)
class LoadResult:
    """Everything found under the given paths.

    ``documents`` come from ordinary files and still need chunking;
    ``records`` come from pre-chunked ``.jsonl`` files and are indexed as is;
    ``failures`` lists what could not be read, so the caller can report it.
    """

    documents: list[Document] = field(default_factory=list)
    records: list[Chunk] = field(default_factory=list)
    failures: list[LoadFailure] = field(default_factory=list)
