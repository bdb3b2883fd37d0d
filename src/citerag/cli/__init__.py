"""The ``citerag`` command line: parse, call the library, print.

Each command lives in its own module and registers itself on ``app``; this
module only builds the app and turns domain errors into one-line messages.
"""

from __future__ import annotations

import sys

import typer

from citerag.errors import CiteragError

app = typer.Typer(
    name="citerag",
    help=(
        "Answers from your own documents, with numbered sources you can check.\n\n"
        "Typical use: `citerag index docs/` once, then `citerag search \"...\"` "
        "or `citerag ask \"...\"`."
    ),
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    rich_markup_mode="rich",
)


def main(argv: list[str] | None = None) -> int:
    """Console-script entry point: domain errors become one line and an exit code."""
    from rich.markup import escape

    from citerag.cli.render import error_console

    try:
        result = app(args=argv, standalone_mode=False)
        if result == 130:  # typer turns Ctrl-C into this exit code when not standalone
            raise KeyboardInterrupt
    except CiteragError as exc:
        error_console().print(f"[bold red]error:[/] {escape(str(exc))}")
        return exc.exit_code
    except _validation_error() as exc:  # a bad setting passed through to a config model
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first.get("loc", ())) or "setting"
        error_console().print(f"[bold red]error:[/] {escape(where)}: {escape(first['msg'])}")
        return 2
    except KeyboardInterrupt:
        error_console().print("[yellow]interrupted[/]")
        return 130
    except typer.Abort:
        return 1
    except SystemExit as exc:  # typer/click exits (--help, usage errors)
        return int(exc.code or 0)
    except _click_errors() as exc:
        exc.show()
        return exc.exit_code
    return 0


def _validation_error() -> type[Exception]:
    from pydantic import ValidationError

    return ValidationError


def _click_errors() -> type[Exception]:
    import click

    return click.ClickException


def run() -> None:
    sys.exit(main())


# Command modules register themselves on ``app`` when imported.
# --- command modules (one import line each) ---
from citerag.cli import index_cmd as _index_cmd  # noqa: E402,F401
from citerag.cli import search as _search  # noqa: E402,F401
from citerag.cli import eval as _eval  # noqa: E402,F401
from citerag.cli import questions as _questions  # noqa: E402,F401
from citerag.cli import tune as _tune  # noqa: E402,F401
from citerag.cli import chunks as _chunks  # noqa: E402,F401
from citerag.cli import ask as _ask  # noqa: E402,F401
from citerag.cli import serve as _serve  # noqa: E402,F401
# --- end of command modules ---
