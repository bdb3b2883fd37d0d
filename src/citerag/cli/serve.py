"""``citerag serve``: the HTTP API and web page over an index."""

from __future__ import annotations

from pathlib import Path

import typer

from citerag.cli import app
from citerag.cli.options import IndexDirOption
from citerag.cli.render import error_console


@app.command("serve")
def serve_command(
    index_dir: Path = IndexDirOption,
    host: str = typer.Option("127.0.0.1", "--host", help="Address to listen on (0.0.0.0 for every interface)."),
    port: int = typer.Option(8000, "--port", "-p", min=1, max=65535, help="Port to listen on."),
    llm: str = typer.Option(None, "--llm", help="Model for /api/ask (default: $CITERAG_LLM; none → extractive)."),
    base_url: str = typer.Option(None, "--base-url", help="Model server URL."),
) -> None:
    """Serve search and answers over HTTP, with a small web page at /."""
    import uvicorn

    from citerag import Index
    from citerag.generation import make_llm
    from citerag.server import create_app

    index = Index.load(index_dir)  # fail here, with one line, not on the first request
    client = make_llm(llm, base_url=base_url)
    error_console().print(f"Serving {len(index)} chunks from {index_dir} at http://{host}:{port}/ (Ctrl-C stops)")
    uvicorn.run(create_app(index, client, index_name=str(index_dir)), host=host, port=port, log_level="warning")
