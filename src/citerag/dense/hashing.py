"""``hash``: a deterministic bag of hashed words and character n-grams.

No model, numpy only: a baseline to measure real models against and a fast
embedder for tests. Signed feature hashing keeps collisions unbiased; the
character n-grams make it tolerant to inflection and small typos.
"""

from __future__ import annotations

import re
import zlib

import numpy as np

from citerag.dense.base import Embedder
from citerag.errors import InvalidInput

_WORD = re.compile(r"\w+", re.UNICODE)


class HashEmbedder(Embedder):
    def __init__(self, dim: int = 384, ngram: int = 3) -> None:
        if dim < 8:
            raise InvalidInput(f"hash embedder dimension {dim} is too small: use at least 8")
        if ngram < 2:
            raise InvalidInput(f"hash embedder n-gram size {ngram} is too small: use 2 or more")
        self._dim = dim
        self.ngram = ngram
        self.name = "hash" if dim == 384 else f"hash:{dim}"
        self.batch_size = 256

    @property
    def dim(self) -> int:
        return self._dim

    def identity(self) -> dict[str, object]:
        return {**super().identity(), "dim": self._dim, "ngram": self.ngram, "version": 1}

    def _features(self, text: str) -> list[tuple[str, float]]:
        words = _WORD.findall(text.lower().replace("ё", "е"))
        feats: list[tuple[str, float]] = [("w:" + w, 1.0) for w in words]
        n = self.ngram
        for w in words:
            padded = f"<{w}>"
            feats.extend(("c:" + padded[i : i + n], 0.5) for i in range(max(1, len(padded) - n + 1)))
        return feats

    def _embed(self, texts: list[str], *, is_query: bool) -> np.ndarray:
        out = np.zeros((len(texts), self._dim), dtype=np.float32)
        for row, text in enumerate(texts):
            for feat, weight in self._features(text):
                h = zlib.crc32(feat.encode("utf-8"))
                sign = 1.0 if (h >> 31) & 1 else -1.0
                out[row, h % self._dim] += sign * weight
        # Sublinear term frequency: a repeated word should not dominate.
        return np.sign(out) * np.log1p(np.abs(out))
