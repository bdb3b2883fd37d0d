"""Request bodies of the HTTP API (responses reuse the library's ``to_json``)."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field


class SearchRequest(BaseModel):
    model_config = ConfigDict(extra="forbid")

    query: str = Field(..., description="What to look for.")
    k: int = Field(10, ge=1, le=200)
    retriever: str | None = Field(None, description="bm25, tfidf, dense or hybrid")
    min_score: float | None = None
    filters: list[str] = Field(default_factory=list, description='e.g. ["format=md", "page>=2"]')


class AskRequest(BaseModel):
    model_config = ConfigDict(extra="forbid")

    question: str
    k: int = Field(5, ge=1, le=50)
    retriever: str | None = None
    min_score: float | None = None
