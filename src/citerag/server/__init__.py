"""Serve stage: an HTTP API (FastAPI) and a small web page over one index."""

from citerag.server.app import create_app

__all__ = ["create_app"]
