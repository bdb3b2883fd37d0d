"""``st:<path>``: a local sentence-transformers model directory (optional extra)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np

from citerag.dense.base import Embedder
from citerag.dense.remote import default_prefixes
from citerag.errors import InvalidInput


class SentenceTransformerEmbedder(Embedder):
    def __init__(
        self,
        path: str | Path,
        *,
        query_prefix: str | None = None,
        document_prefix: str | None = None,
        batch_size: int = 32,
    ) -> None:
        self.path = Path(path)
        # The name must rebuild the embedder at query time, so it keeps the path.
        self.name = f"st:{self.path}"
        known_q, known_d = default_prefixes(self.path.name)
        self.query_prefix = known_q if query_prefix is None else query_prefix
        self.document_prefix = known_d if document_prefix is None else document_prefix
        self.batch_size = batch_size
        self._model: Any = None

    def _load(self) -> Any:
        if self._model is None:
            if not self.path.is_dir():
                raise InvalidInput(
                    f"sentence-transformers model directory {str(self.path)!r} does not exist"
                )
            try:
                from sentence_transformers import SentenceTransformer
            except ImportError as e:
                raise InvalidInput(
                    "st: embedders need sentence-transformers: pip install 'citerag[st]'"
                ) from e
            self._model = SentenceTransformer(str(self.path), device="cpu")
        return self._model

    @property
    def dim(self) -> int:
        return int(self._load().get_sentence_embedding_dimension())

    def identity(self) -> dict[str, Any]:
        return {**super().identity(), "path": str(self.path.resolve())}

    def _embed(self, texts: list[str], *, is_query: bool) -> np.ndarray:
        return np.asarray(
            self._load().encode(
                self.with_prefix(texts, is_query=is_query),
                batch_size=self.batch_size,
                convert_to_numpy=True,
                show_progress_bar=False,
            ),
            dtype=np.float32,
        )
