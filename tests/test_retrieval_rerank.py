"""Reranking: the interface, the LLM judge (fake client) and the cross-encoder."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import pytest

from citerag.errors import GenerationError, InvalidInput
from citerag.retrieval import CrossEncoderReranker, LLMReranker, rerank
from citerag.retrieval.rerank import make_reranker, parse_scores
from citerag.types import Chunk, Hit

HITS = [
    Hit(Chunk("1", "Пароль меняется каждые 90 дней."), score=0.9, rank=1, scores={"bm25": 3.0}, ranks={"bm25": 1}),
    Hit(Chunk("2", "Отпуск составляет 28 календарных дней."), score=0.5, rank=2),
    Hit(Chunk("3", "VPN требует двухфакторной аутентификации."), score=0.4, rank=3),
]


class KeywordReranker:
    name = "keyword"

    def score(self, query: str, texts: Sequence[str]) -> np.ndarray:
        return np.array([float(query.lower() in t.lower()) for t in texts])


def test_rerank_reorders_and_keeps_the_earlier_view() -> None:
    out = rerank("отпуск", HITS, KeywordReranker(), top_k=2)
    assert [h.chunk.id for h in out] == ["2", "1"]
    assert out[0].ranks == {"retrieval": 2, "rerank": 1}
    assert out[1].scores["bm25"] == 3.0 and out[1].scores["retrieval"] == 0.9


class FakeLLM:
    name = "fake:judge"

    def __init__(self, replies: list[str]) -> None:
        self.replies = replies
        self.prompts: list[Any] = []

    def chat(self, messages: Any, **kwargs: Any) -> str:
        self.prompts.append((messages, kwargs))
        return self.replies.pop(0)


def test_llm_reranker_scores_passages_in_groups() -> None:
    llm = FakeLLM(['{"scores": [1, 9]}', "```json\n{\"scores\": [4]}\n```"])
    out = rerank("сколько дней отпуска", HITS, LLMReranker(llm, group_size=2))
    assert [h.chunk.id for h in out] == ["2", "3", "1"]
    messages, kwargs = llm.prompts[0]
    assert "сколько дней отпуска" in messages[1].content and "[2] Отпуск" in messages[1].content
    assert kwargs["json_schema"]["required"] == ["scores"]


def test_unusable_llm_reply_is_a_generation_error() -> None:
    assert parse_scores("7\n3", 2) == [7.0, 3.0]  # no JSON: the numbers in order
    with pytest.raises(GenerationError, match="1 scores for 3"):
        parse_scores('{"scores": [5]}', 3)


def test_reranker_specs() -> None:
    with pytest.raises(InvalidInput, match="cross-encoder:<model dir>"):
        make_reranker("bm25")
    assert isinstance(make_reranker("cross-encoder:/nowhere"), CrossEncoderReranker)


def test_cross_encoder_without_model_dir_is_clear(tmp_path: Any) -> None:
    with pytest.raises(InvalidInput, match="does not exist"):
        CrossEncoderReranker(tmp_path / "missing").score("q", ["t"])


def test_cross_encoder_with_a_tiny_random_model(tmp_path: Any) -> None:
    """Runs only where sentence-transformers and torch are installed (extra ``st``)."""
    st = pytest.importorskip("sentence_transformers")
    transformers = pytest.importorskip("transformers")
    config = transformers.BertConfig(
        vocab_size=64, hidden_size=16, num_hidden_layers=1, num_attention_heads=2, intermediate_size=32, num_labels=1
    )
    model = transformers.BertForSequenceClassification(config)
    model_dir = tmp_path / "tiny-ce"
    model.save_pretrained(model_dir)
    vocab = ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]", *[chr(c) for c in range(ord("а"), ord("я") + 1)]]
    (model_dir / "vocab.txt").write_text("\n".join(vocab), encoding="utf-8")
    transformers.BertTokenizer(str(model_dir / "vocab.txt")).save_pretrained(model_dir)
    assert st is not None
    scores = CrossEncoderReranker(model_dir).score("отпуск", ["отпуск", "пароль"])
    assert scores.shape == (2,) and np.isfinite(scores).all()
