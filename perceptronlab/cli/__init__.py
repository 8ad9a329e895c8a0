"""The ``perceptronlab`` command line (Typer).

Each command group lives in its own module ``perceptronlab.cli.<name>`` that exposes
``register(app: typer.Typer) -> None``; the names are listed in :data:`COMMAND_MODULES` and
registered when this package is imported. Faces hold no logic: they parse, call the API and
format. Shared helpers (reading a data file, ``--json``, ``--quiet``, the Rich consoles) are in
:mod:`perceptronlab.cli._common`.

Exit codes: 0 ok, 1 bad input (a one-line message on stderr, no traceback), 2 usage error.
"""

from __future__ import annotations

import importlib
import sys
import warnings
from collections.abc import Sequence
from typing import Any

import click
import typer
from typer.core import TyperGroup

from perceptronlab.exceptions import PerceptronLabError

#: command-group modules under ``perceptronlab.cli``; each has ``register(app)``.
COMMAND_MODULES: tuple[str, ...] = ("engine", "teach", "web", "exams", "theory")


def _one_line(text: str) -> str:
    return " ".join(str(text).split())


class _Group(TyperGroup):
    """The top-level group: package errors and file errors become one line and exit code 1;
    warnings become one line on stderr."""

    def invoke(self, ctx: click.Context) -> Any:
        def show(message, category, filename, lineno, file=None, line=None):
            click.echo(f"Warning: {_one_line(str(message))}", err=True)

        with warnings.catch_warnings():
            warnings.showwarning = show
            try:
                return super().invoke(ctx)
            except PerceptronLabError as exc:
                click.echo(f"Error: {_one_line(str(exc))}", err=True)
                raise typer.Exit(1) from None
            except OSError as exc:
                if exc.filename is None:  # not about a file the user named: a real fault
                    raise
                reason = exc.strerror or type(exc).__name__
                click.echo(f"Error: {exc.filename}: {reason}. Check the path and its permissions.",
                           err=True)
                raise typer.Exit(1) from None


app = typer.Typer(
    name="perceptronlab",
    cls=_Group,
    help="The perceptron family, exactly as the textbooks define it.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)


def _version(value: bool) -> None:
    if value:
        from perceptronlab import __version__

        typer.echo(f"perceptronlab {__version__}")
        raise typer.Exit(0)


@app.callback()
def _root(
    version: bool = typer.Option(False, "--version", callback=_version, is_eager=True,
                                 help="Show the version and exit."),
) -> None:
    """The perceptron family, exactly as the textbooks define it."""


def register_commands(target: typer.Typer | None = None) -> typer.Typer:
    """Import every module of :data:`COMMAND_MODULES` and call its ``register(app)``."""
    target = app if target is None else target
    for name in COMMAND_MODULES:
        module = importlib.import_module(f"perceptronlab.cli.{name}")
        module.register(target)
    return target


register_commands()


def main(argv: Sequence[str] | None = None) -> None:
    """Entry point of the ``perceptronlab`` console script."""
    command = typer.main.get_command(app)
    command.main(args=list(argv) if argv is not None else None, prog_name="perceptronlab")
    sys.exit(0)  # pragma: no cover - click exits itself in standalone mode
