"""Options shared by several commands, so they are spelled the same everywhere."""

from __future__ import annotations

from pathlib import Path

import typer

DEFAULT_INDEX_DIR = Path(".citerag")

IndexDirOption = typer.Option(
    DEFAULT_INDEX_DIR,
    "--index",
    "-i",
    help="Index directory.",
    envvar="CITERAG_INDEX",
    show_default=True,
)

JsonOption = typer.Option(False, "--json", help="Print machine-readable JSON instead of a table.")

TopKOption = typer.Option(10, "-k", "--top-k", min=1, help="How many results to return.")
