"""The ``perceptronlab`` command line (Typer).

Each command group lives in its own module ``perceptronlab.cli.<name>`` that exposes
``register(app: typer.Typer) -> None``; the names are listed in :data:`COMMAND_MODULES` and
registered when this package is imported. Faces hold no logic: they parse, call the API and
format. Shared helpers (reading a data file, ``--json``, ``--quiet``, the Rich consoles) are in
:mod:`perceptronlab.cli._common`. Flags that several commands share are declared once, as option
groups (:mod:`perceptronlab.cli._groups`: the input table, the output, the learning rule): a
command takes a group as one parameter, and ``--help`` shows its flags under the group's heading.

Exit codes: 0 ok, 1 bad input (a one-line message on stderr, no traceback), 2 usage error,
130 interrupted (Ctrl-C: the line ``Interrupted.``, no traceback).
Messages name the command's flags (:mod:`perceptronlab.cli._wording`); every command's help ends
with examples (:mod:`perceptronlab.cli._examples`).
"""

from __future__ import annotations

import importlib
import inspect
import re
import sys
import warnings
from collections.abc import Sequence
from typing import Any

import typer
from typer.core import TyperCommand, TyperGroup

from perceptronlab.cli._examples import epilog
from perceptronlab.cli._groups import expand_groups
from perceptronlab.cli._wording import flags_of, to_command_line
from perceptronlab.core.interrupt import caused_by_interrupt, ctrl_c_from_finalizers
from perceptronlab.exceptions import PerceptronLabError

#: command-group modules under ``perceptronlab.cli``; each has ``register(app)``.
COMMAND_MODULES: tuple[str, ...] = (
    "train",
    "predict",
    "trace",
    "demo",
    "evaluate",
    "teach",
    "web",
    "exams",
    "check",
    "theory",
    "quiz",
)
#: commands that need an optional extra (:data:`perceptronlab.cli._common.EXTRAS`), checked before they start
NEEDS_EXTRA: dict[str, str] = {"report": "plots", "experiment": "plots", "serve": "web"}


def _one_line(text: str) -> str:
    return " ".join(str(text).split())


_LIST_ITEM = re.compile(r"^\s*(?:[-*•]|\d+[.)])\s")


def reflow(text: str | None) -> str | None:
    """Help text as paragraphs: the line breaks of a docstring's source joined within a paragraph,
    so that Rich wraps each paragraph to the terminal (no ragged half-lines at 80 columns); blank
    lines and list items (``-``, ``*``, ``1.``) keep their breaks."""
    if not text:
        return text
    paragraphs = []
    for paragraph in re.split(r"\n\s*\n", inspect.cleandoc(text)):
        lines: list[str] = []
        for line in paragraph.splitlines():
            if lines and not _LIST_ITEM.match(line):
                lines[-1] = f"{lines[-1]} {line.strip()}"
            else:
                lines.append(line.rstrip())
        paragraphs.append("\n".join(lines))
    return "\n\n".join(paragraphs)


def _plain_flags(params: list) -> list:
    """Flags take no value, so their help shows no type.

    Typer's Rich help asks every option for ``display_type_rich()``, and for a boolean flag that is
    ``<bool>`` (its plain-text help skips flags; the Rich panel does not). An empty metavar is what
    the panel shows for an option's type, so a flag gets one; options with values keep theirs.
    """
    for param in params:
        if getattr(param, "is_flag", False) and getattr(param, "metavar", "") is None:
            param.metavar = ""
        if getattr(param, "help", None):
            param.help = reflow(param.help)
    return params


class _Command(TyperCommand):
    """Every ``perceptronlab`` command: plain flags in ``--help``, its text reflowed."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs["help"] = reflow(kwargs.get("help"))
        super().__init__(*args, **kwargs)

    def get_params(self, ctx: Any) -> list:
        return _plain_flags(super().get_params(ctx))


class _Group(TyperGroup):
    """The top-level group: package errors and file errors become one line and exit code 1;
    warnings become one line on stderr; both in command-line wording (the command's flags, not
    the library's parameter names)."""

    def get_params(self, ctx: Any) -> list:
        return _plain_flags(super().get_params(ctx))

    def _wording(self, ctx: Any, message: str) -> str:
        name = getattr(ctx, "invoked_subcommand", None)
        command = self.commands.get(name) if name else None
        return _one_line(to_command_line(str(message), flags_of(command)) if command else message)

    def invoke(self, ctx: Any) -> Any:
        def show(message, category, filename, lineno, file=None, line=None):
            typer.echo(f"Warning: {self._wording(ctx, str(message))}", err=True)

        with warnings.catch_warnings(), ctrl_c_from_finalizers():
            warnings.showwarning = show
            try:
                return super().invoke(ctx)
            except PerceptronLabError as exc:
                typer.echo(f"Error: {self._wording(ctx, str(exc))}", err=True)
                raise typer.Exit(1) from None
            except OSError as exc:
                if exc.filename is None:  # not about a file the user named: a real fault
                    raise
                reason = exc.strerror or type(exc).__name__
                typer.echo(
                    f"Error: {exc.filename}: {reason}. Check the path and its permissions.",
                    err=True,
                )
                raise typer.Exit(1) from None
            except KeyboardInterrupt:
                raise _interrupted() from None
            except Exception as exc:
                if caused_by_interrupt(
                    exc
                ):  # Ctrl-C that surfaced as another error (a compiled kernel's)
                    raise _interrupted() from None
                raise


def _interrupted() -> typer.Exit:
    """One line on stderr and the shell's exit code for Ctrl-C (128 + SIGINT)."""
    typer.echo("Interrupted.", err=True)
    return typer.Exit(130)


app = typer.Typer(
    name="perceptronlab",
    cls=_Group,
    help="The perceptron family, exactly as the textbooks define it.",
    no_args_is_help=True,
    add_completion=True,
    pretty_exceptions_enable=False,
)


@app.callback(invoke_without_command=True, epilog=epilog(None))
def _root(
    ctx: typer.Context,
    version: bool = typer.Option(
        False,
        "--version",
        "-V",
        help="Show the version and exit (with --verbose: the processor and the kernels chosen on it).",
    ),
    verbose: bool = typer.Option(
        False,
        "--verbose",
        help="With --version: the versions of NumPy, SciPy and Numba, the processor and the kernels chosen.",
    ),
) -> None:
    """The perceptron family, exactly as the textbooks define it."""
    if version:
        if verbose:
            from perceptronlab.core.config import show_config

            show_config()
        else:
            from perceptronlab import __version__

            typer.echo(f"perceptronlab {__version__}")
        raise typer.Exit(0)
    if ctx.invoked_subcommand is None:
        if verbose:
            raise typer.BadParameter(
                "--verbose goes with --version: perceptronlab --version --verbose"
            )
        typer.echo(ctx.get_help())
        raise typer.Exit(0)


def register_commands(target: typer.Typer | None = None) -> typer.Typer:
    """Import every module of :data:`COMMAND_MODULES` and call its ``register(app)``.

    Each registered command then gets its option groups spread into their flags
    (:func:`perceptronlab.cli._groups.expand_groups`), the shared command class (plain flags in
    ``--help``) and its examples (:mod:`perceptronlab.cli._examples`) at the end of its help,
    unless its module gave it its own.
    """
    target = app if target is None else target
    for name in COMMAND_MODULES:
        module = importlib.import_module(f"perceptronlab.cli.{name}")
        module.register(target)
    for info in target.registered_commands:
        if info.cls in (None, TyperCommand):  # Typer's default class: ours adds plain flags
            info.cls = _Command
        assert info.callback is not None  # every command is registered with its function
        name = info.name or info.callback.__name__.replace("_", "-")
        info.epilog = info.epilog or epilog(name)
        info.callback = expand_groups(info.callback)
        if name in NEEDS_EXTRA and not hasattr(info.callback, _NEEDS):
            info.callback = _needing(NEEDS_EXTRA[name], name, info.callback)
    return target


#: the attribute that marks a command wrapped by :func:`_needing` (wrapped once)
_NEEDS = "__needs_extra__"


def _needing(extra: str, name: str, callback: Any) -> Any:
    """``callback`` that first checks its extra is installed (one line, before any work)."""
    import functools

    from perceptronlab.cli._common import require_extra

    @functools.wraps(callback)
    def command(*args: Any, **kwargs: Any) -> Any:
        require_extra(extra, name)
        return callback(*args, **kwargs)

    setattr(command, _NEEDS, extra)
    return command


register_commands()


def main(argv: Sequence[str] | None = None, prog_name: str = "perceptronlab") -> None:
    """Entry point of the ``perceptronlab`` console script (and of ``python -m perceptronlab``)."""
    try:
        command = typer.main.get_command(app)
        command.main(args=list(argv) if argv is not None else None, prog_name=prog_name)
    except KeyboardInterrupt:  # Ctrl-C outside a command (while parsing or starting up)
        typer.echo("Interrupted.", err=True)
        sys.exit(130)
    sys.exit(0)  # pragma: no cover - click exits itself in standalone mode
