"""The LangChain retriever adapter, with the real langchain-core."""

from __future__ import annotations

from pathlib import Path

import pytest

pytest.importorskip("langchain_core")

from langchain_core.retrievers import BaseRetriever  # noqa: E402
from langchain_core.runnables import RunnableLambda  # noqa: E402

from citerag import Index  # noqa: E402
from citerag.integrations.langchain import CiteragRetriever  # noqa: E402

TEXTS = [
    "Отпуск сотрудника длится 28 календарных дней.",
    "Больничный оплачивается с первого дня болезни.",
    "Командировки оформляются приказом директора.",
]


@pytest.fixture(scope="module")
def index() -> Index:
    return Index.from_texts(TEXTS, ids=["vacation", "sick", "trip"], metadata=[{"source": "hr.md"}] * 3)


def test_is_a_langchain_retriever_with_scores_in_metadata(index: Index) -> None:
    retriever = CiteragRetriever(index=index, k=2)
    assert isinstance(retriever, BaseRetriever)
    docs = retriever.invoke("Сколько дней длится отпуск?")
    assert docs[0].page_content == TEXTS[0]
    meta = docs[0].metadata
    assert meta["chunk_id"] == "vacation" and docs[0].id == "vacation"
    assert meta["source"] == "hr.md"
    assert meta["rank"] == 1 and meta["score"] > 0
    assert "bm25" in meta["scores"]
    assert len(docs) <= 2


def test_plugs_into_a_chain(index: Index) -> None:
    retriever = CiteragRetriever(index=index, k=1, retriever="bm25")
    chain = retriever | RunnableLambda(lambda docs: [d.metadata["chunk_id"] for d in docs])
    assert chain.invoke("Как оформить командировку?") == ["trip"]


def test_stop_words_only_query_gives_no_documents(index: Index) -> None:
    assert CiteragRetriever(index=index).invoke("и в на") == []


def test_min_score_drops_weak_hits(index: Index) -> None:
    assert CiteragRetriever(index=index, min_score=1e9).invoke("отпуск") == []


def test_from_directory(index: Index, tmp_path: Path) -> None:
    index.save(tmp_path / "idx")
    retriever = CiteragRetriever.from_directory(tmp_path / "idx", k=1)
    assert retriever.invoke("больничный")[0].metadata["chunk_id"] == "sick"
