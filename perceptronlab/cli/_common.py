"""Helpers shared by every command group: options, data files, ``--json`` and the consoles.

The option groups :class:`TableOptions` (--label, --data-format, --max-bytes: how a data file is
read, and its one reader) and :class:`OutputOptions` (--json, --quiet) are declared here.

Results go to stdout (plain text, a Rich table or JSON); progress, status and messages go to
stderr, so ``perceptronlab ... --json > out.json`` stays clean.
"""

from __future__ import annotations

import contextlib
import enum
import json
import math
from collections.abc import Iterator
from fractions import Fraction
from pathlib import Path
from typing import Annotated, Any

import typer

from perceptronlab.cli._groups import option_group

#: the most sweeps when --max-sweeps is not given: the library's defaults (perceptron(max_sweeps=1000),
#: pocket(max_sweeps=100), averaged_perceptron and multiclass_perceptron(max_sweeps=100)), for every command
#: and backend; a test holds them equal.
DEFAULT_MAX_SWEEPS: dict[str, int] = {
    "perceptron": 1000,
    "pocket": 100,
    "averaged": 100,
    "multiclass": 100,
}

# ---------------------------------------------------------------- common options (Annotated)

#: the ``--help`` heading of --json and --quiet, in a group (:class:`OutputOptions`) or alone
OUTPUT_PANEL = "Output"
JsonOpt = Annotated[
    bool,
    typer.Option(
        "--json", help="Print the result as JSON on stdout.", rich_help_panel=OUTPUT_PANEL
    ),
]
QuietOpt = Annotated[
    bool,
    typer.Option(
        "--quiet", "-q", help="No progress or status output.", rich_help_panel=OUTPUT_PANEL
    ),
]
LabelOpt = Annotated[
    str | None,
    typer.Option("--label", help="Name of the label column of a CSV file (default: the last)."),
]
DataFormatOpt = Annotated[
    str | None,
    typer.Option(
        "--data-format",
        help="Data file format: csv, tsv, libsvm, npy or npz (default: from the extension).",
    ),
]
InterceptOpt = Annotated[
    bool,
    typer.Option(
        "--intercept/--no-intercept",
        help="Fit an intercept b (the bias trick: x gets a constant 1). Default: none, as in the lecture notes.",
    ),
]
SeedOpt = Annotated[
    int | None,
    typer.Option(
        "--seed",
        min=0,
        help="Seed of the shuffle and random-mistake orders (the same seed, the same run).",
    ),
]
MaxBytesOpt = Annotated[
    str | None,
    typer.Option(
        "--max-bytes",
        metavar="SIZE",
        help="Memory budget for reading the data, e.g. 2G or 500M (K, M, G, T: powers of 1024). A file that "
        "needs more is refused before it is read. Default: half of the available memory, and at most 200 "
        "times the file's size.",
    ),
]
DataArg = Annotated[
    Path,
    typer.Argument(
        metavar="DATA", help="Data file: .csv/.tsv (header), .libsvm/.svm/.svmlight, .npy or .npz."
    ),
]
ModelArg = Annotated[
    Path,
    typer.Argument(metavar="MODEL", help="Model file (JSON) from `perceptronlab train --out`."),
]


@option_group(OUTPUT_PANEL)
class OutputOptions:
    """--json and --quiet: the result as JSON on stdout, no progress or status on stderr."""

    json_output: JsonOpt = False
    quiet: QuietOpt = False

    @property
    def silent(self) -> bool:
        """Nothing on stderr but errors: --quiet, or --json (whose stdout a program reads)."""
        return self.quiet or self.json_output


@option_group("Input table")
class TableOptions:
    """How a data file is read: its label column, its format and the memory budget."""

    label: LabelOpt = None
    data_format: DataFormatOpt = None
    max_bytes: MaxBytesOpt = None

    def read(self, path: Path | str, *, exact: bool = False) -> tuple[Any, Any]:
        """The file as ``(X, y)`` (:func:`perceptronlab.io.read_data`), exactly (fractions)
        with ``exact``."""
        from perceptronlab.io import read_data

        return read_data(
            path, label=self.label, fmt=self.data_format, exact=exact, max_bytes=self.max_bytes
        )

    def columns(self, path: Path | str) -> tuple[list[str] | None, str | None]:
        """The file's feature names and label column's name (:func:`column_names`)."""
        return column_names(path, label=self.label, fmt=self.data_format)

    def feature_names(self, path: Path | str) -> list[str] | None:
        """The feature columns' names of a CSV/TSV file (:func:`column_names`), or None."""
        return self.columns(path)[0]


class Scale(str, enum.Enum):
    standard = "standard"
    maxabs = "maxabs"
    none = "none"


ScaleOpt = Annotated[
    Scale,
    typer.Option(
        "--scale",
        help="Scale the features first: standard (StandardScaler: each to mean 0, variance 1), maxabs "
        "(MaxAbsScaler: each into [-1, 1]) or none. A model saved by train keeps its scaler, and "
        "predict applies it.",
    ),
]


class ExportFormat(str, enum.Enum):
    """``--export`` of ``exam`` and ``quiz``: Moodle XML or a QTI 1.2 zip."""

    moodle = "moodle"
    qti = "qti"


def export_out(out: Path | None, stem: str) -> Path:
    """The file ``--export`` writes: ``--out``, or one line saying it is missing.

    >>> export_out(Path("quiz.xml"), "quiz")
    PosixPath('quiz.xml')
    """
    from perceptronlab._ground.validation import fail

    if out is None:
        raise fail(
            "--export",
            "--out FILE",
            "no --out",
            f"Add e.g. --out {stem}.xml (moodle) or --out {stem}.zip (qti).",
        )
    return out


#: the optional extras the commands need: extra → the modules it brings (checked, not imported)
EXTRAS: dict[str, tuple[str, ...]] = {
    "plots": ("matplotlib",),
    "web": ("fastapi", "uvicorn"),
    "dask": ("dask", "distributed", "pandas"),
}


def _installed(module: str) -> bool:
    import importlib.util

    try:
        return importlib.util.find_spec(module) is not None
    except (ImportError, ValueError):  # a parent package missing, or a module without a spec
        return False


def require_extra(extra: str, what: str) -> None:
    """Refuse, before any work, what needs an extra that is not installed: one line naming the
    ``pip install`` that brings it.

    >>> require_extra("plots", "report") is None  # matplotlib is installed here
    True
    """
    from perceptronlab._ground.validation import fail

    missing = [module for module in EXTRAS[extra] if not _installed(module)]
    if missing:
        raise fail(
            what,
            f"the {extra} extra (" + ", ".join(EXTRAS[extra]) + ")",
            " and ".join(missing) + " not installed",
            f"Install it: pip install 'perceptronlab[{extra}]'.",
        )


def parse_number(text: str, flag: str) -> Fraction:
    """A number option (``--eta``, ``--margin``) as written: ``2``, ``0.5`` or ``1/2``, exactly.

    >>> parse_number("1/2", "--eta"), parse_number("0.1", "--eta")
    (Fraction(1, 2), Fraction(1, 10))
    """
    from perceptronlab._ground.numbers import parse_exact

    return parse_exact(
        text, flag, expected="a number such as 2, 0.5 or 1/2", fix=f"Pass e.g. {flag} 1."
    )


# ---------------------------------------------------------------- consoles


def console():
    """A Rich console on stdout (for results)."""
    from rich.console import Console

    return Console(highlight=False)


def err_console():
    """A Rich console on stderr (for progress and status)."""
    from rich.console import Console

    return Console(stderr=True, highlight=False)


@contextlib.contextmanager
def status(message: str, *, quiet: bool = False) -> Iterator[None]:
    """Show a Rich spinner with ``message`` on stderr while the block runs (nothing if quiet)."""
    if quiet:
        yield
        return
    con = err_console()
    if not con.is_terminal:
        yield
        return
    with con.status(message):
        yield


def info(message: str, *, quiet: bool = False) -> None:
    """Print a one-line note on stderr unless ``quiet``."""
    if not quiet:
        typer.echo(message, err=True)


# ---------------------------------------------------------------- data


def column_names(
    path: Path | str, *, label: str | None = None, fmt: str | None = None
) -> tuple[list[str] | None, str | None]:
    """A CSV/TSV file's feature names (its header without the label column) and its label column's
    name; (None, None) for formats without names or an unreadable header, and no feature names for
    a header with empty or repeated names."""
    from perceptronlab.exceptions import InputError
    from perceptronlab.io import read_columns

    try:
        header = read_columns(path, fmt=fmt)
    except InputError:
        return None, None
    if header is None:
        return None, None
    label_name = label if label is not None else header[-1]
    names = [c for c in header if c != label_name]
    return (names if all(names) and len(set(names)) == len(names) else None), label_name


# ---------------------------------------------------------------- JSON


def to_jsonable(obj: Any) -> Any:
    """Convert NumPy arrays/scalars, Fractions, Paths and tuples into JSON-ready values.

    Fractions become strings ``"p/q"`` (or ``"p"``), exactly; non-finite floats become strings.

    >>> to_jsonable({"w": (Fraction(1, 2), 3), "ok": True})
    {'w': ['1/2', 3], 'ok': True}
    """
    import numpy as np

    if isinstance(obj, Fraction):
        return str(obj)
    if isinstance(obj, bool | str | int) or obj is None:
        return obj
    if isinstance(obj, float):
        return obj if math.isfinite(obj) else str(obj)
    if isinstance(obj, np.generic):
        return to_jsonable(obj.item())
    if isinstance(obj, np.ndarray):
        return [to_jsonable(v) for v in obj.tolist()]
    if isinstance(obj, dict):
        return {str(k): to_jsonable(v) for k, v in obj.items()}
    if isinstance(obj, list | tuple | set | frozenset):
        return [to_jsonable(v) for v in obj]
    if isinstance(obj, Path):
        return str(obj)
    return str(obj)


def record(obj: Any, *names: str) -> dict:
    """The named attributes of a result, in that order, as a record for ``--json``.

    >>> record(Path("runs/a.csv"), "stem", "suffix")
    {'stem': 'a', 'suffix': '.csv'}
    """
    return {name: getattr(obj, name) for name in names}


def print_json(obj: Any) -> None:
    """Print ``obj`` as indented JSON on stdout."""
    typer.echo(json.dumps(to_jsonable(obj), indent=2))
