"""The HTTP API and its small web page.

``create_app`` takes an already-loaded index (cheap to test, no globals);
the CLI's ``citerag serve`` loads the index and runs uvicorn.
"""

from __future__ import annotations

from importlib.resources import files
from typing import Any

from fastapi import FastAPI, Request
from fastapi.responses import HTMLResponse, JSONResponse

from citerag import __version__
from citerag.errors import CiteragError, InvalidInput
from citerag.index import Index
from citerag.server.schemas import AskRequest, SearchRequest


def create_app(index: Index, llm: Any = None, index_name: str = "") -> FastAPI:
    """An app answering ``/api/search`` and ``/api/ask`` over ``index``."""
    from citerag.generation import Pipeline, PipelineConfig

    app = FastAPI(title="citerag", version=__version__, description="Search and answers with numbered sources.")

    @app.exception_handler(CiteragError)
    async def domain_error(_: Request, exc: CiteragError) -> JSONResponse:
        status = 400 if isinstance(exc, InvalidInput) else 500
        return JSONResponse({"error": str(exc), "type": type(exc).__name__}, status_code=status)

    @app.get("/", response_class=HTMLResponse, include_in_schema=False)
    def page() -> str:
        return (files("citerag.server") / "static" / "index.html").read_text(encoding="utf-8")

    @app.get("/api/health")
    def health() -> dict[str, Any]:
        return {
            "status": "ok",
            "version": __version__,
            "index": index_name,
            "chunks": len(index),
            "vectors": index.dense is not None,
            "llm": getattr(llm, "name", None),
        }

    @app.post("/api/search")
    def search(body: SearchRequest) -> dict[str, Any]:
        hits = index.search(
            body.query, k=body.k, retriever=body.retriever, min_score=body.min_score, filters=body.filters
        )
        return {"query": body.query, "hits": [hit.to_json() for hit in hits]}

    @app.post("/api/ask")
    def ask(body: AskRequest) -> dict[str, Any]:
        config = PipelineConfig(k=body.k, min_score=body.min_score)
        options = {"retriever": body.retriever} if body.retriever else {}
        answer = Pipeline(index, llm=llm, config=config, search_options=options).answer(body.question)
        return answer.to_json()

    return app
