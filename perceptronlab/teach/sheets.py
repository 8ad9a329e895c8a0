"""Worksheet files that carry their own data: write a blank one, check a filled one.

A worksheet is the CSV table of the exam task of the lecture notes “Perceptron Mistake Bound”
(header ``sweep,point,score,mistake,w_after``,
one row per step, then the stop row; see :mod:`perceptronlab.teach.checker`). A sheet may start
with comment lines (``#``) that say what run it traces, so that it can be checked without a
separate data file:

.. code-block:: text

    # perceptronlab worksheet: exam task trace, seed 7
    # eta: 1
    # intercept: no
    # data: x1,x2,y
    # data: 1,0,1
    # data: 1,1,-1
    # data: 0,1,-1
    sweep,point,score,mistake,w_after
    1,x1,,,

- ``# eta: VALUE``: the learning rate, exact (``1``, ``2``, ``0.5``, ``1/2``); default 1.
- ``# intercept: yes|no``: whether w cells carry ``, b = value``; default no.
- ``# data: ...``: the dataset as CSV, one line each: first the column names, then one row per
  example, the label last. Numbers are read exactly (``0.1`` is 1/10).
- Any other comment line is a note for the reader and is ignored; so are blank lines. The line
  numbers in the checker's messages stay those of the file.

:func:`blank_sheet` writes such a sheet (``perceptronlab exam --sheet-out``), :func:`read_header`
reads its header, and :func:`check_sheet` checks a filled sheet against the data it carries (or
against data you pass, which must then agree with it).

Examples
--------
>>> import io
>>> from perceptronlab import perceptron
>>> X, y = [[1, 0], [1, 1], [0, 1]], [1, -1, -1]
>>> sheet = blank_sheet(X, y, title="the exam task")
>>> print(sheet.splitlines()[3])
# data: x1,x2,y
>>> filled = sheet.split("sweep,")[0] + perceptron(X, y, exact=True, trace=True).table("csv")
>>> check_sheet(io.StringIO(filled)).ok
True
"""

from __future__ import annotations

import csv
import io
import os
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from perceptronlab._ground import validation as v
from perceptronlab._ground.numbers import format_number, parse_exact
from perceptronlab.exceptions import InputError
from perceptronlab.teach.checker import (
    HEADER,
    MAX_SHEET_ROWS,
    CheckResult,
    check_worksheet,
    csv_rows,
    read_sheet_file,
)

#: how the header lines begin
MARK = "#"
#: the most lines of a sheet file: its rows, its data and its notes (see checker.MAX_SHEET_ROWS)
MAX_SHEET_LINES = 2 * MAX_SHEET_ROWS


@dataclass(frozen=True)
class SheetHeader:
    """What a sheet's comment lines say about its run.

    Attributes
    ----------
    X : the examples, exact (tuples of Fractions); empty when the sheet has no ``# data:`` lines.
    y : the labels (ints where they are integers, else the text).
    names : the column names of the data, the label's last.
    eta : the learning rate (``# eta:``), None when the sheet does not say.
    fit_intercept : ``# intercept:``, None when the sheet does not say.
    """

    X: tuple
    y: tuple
    names: tuple
    eta: Fraction | None
    fit_intercept: bool | None

    @property
    def has_data(self) -> bool:
        return bool(self.X)


# ---------------------------------------------------------------- writing


def _cell(value: Any) -> str:
    return (
        format_number(parse_exact(value, "X, y (the sheet's data)"))
        if not isinstance(value, str)
        else value
    )


def blank_sheet(
    X: Any,
    y: Any,
    *,
    eta: Any = 1,
    fit_intercept: bool = False,
    title: str | None = None,
    names: list[str] | None = None,
) -> str:
    """A blank worksheet for the cyclic perceptron on ``(X, y)`` that carries its data.

    The header lines give the data, η and the intercept (the format of this module); the table
    has its column row and the first sweep's (sweep, point) cells, every other cell left to fill.

    Parameters
    ----------
    X, y : the examples (numbers, Fractions or decimal strings) and their labels.
    eta : the learning rate of the run the sheet traces.
    fit_intercept : the sheet's w cells carry ``, b = value``.
    title : a note for the first line (e.g. which exam task).
    names : the column names (default ``x1, ..., xd, y``).
    """
    rows = [list(x) for x in X]
    labels = list(y)
    if not rows or len(rows) != len(labels):
        raise v.fail(
            "X, y",
            "one label per example, at least one example",
            f"{len(rows)} examples and {len(labels)} labels",
            "Pass the data of the sheet's run.",
        )
    d = len(rows[0])
    names = list(names) if names is not None else [f"x{j + 1}" for j in range(d)] + ["y"]
    eta = parse_exact(eta, "eta (the learning rate)", floats="decimal")
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    lines = [
        f"{MARK} perceptronlab worksheet" + (f": {title}" if title else ""),
        f"{MARK} eta: {format_number(eta)}",
        f"{MARK} intercept: {'yes' if fit_intercept else 'no'}",
    ]
    for row in [names] + [
        [_cell(c) for c in x] + [_cell(label)] for x, label in zip(rows, labels, strict=True)
    ]:
        buffer = io.StringIO()
        csv.writer(buffer, lineterminator="").writerow(row)
        lines.append(f"{MARK} data: {buffer.getvalue()}")
    w_cell = "(w1, ..., wd)" + (", b = value" if fit_intercept else "")
    lines += [
        f"{MARK} One row per step: the score y<w,x> before the step, mistake yes/no, w after as "
        f"{w_cell}; then the stop row: sweep, all, the clean sweep's scores, no, stop.",
        f"{MARK} Check it with: perceptronlab check SHEET.csv",
    ]
    out.write("\n".join(lines) + "\n")
    writer.writerow(HEADER)
    for index in range(len(rows)):
        writer.writerow(["1", f"x{index + 1}", "", "", ""])
    return out.getvalue()


# ---------------------------------------------------------------- reading


def _text(sheet: Any) -> str:
    if isinstance(sheet, str | os.PathLike):
        return read_sheet_file(sheet)
    if hasattr(sheet, "read"):
        return sheet.read()
    raise v.fail(
        "worksheet",
        "a CSV path or an open text file",
        type(sheet).__name__,
        "Pass e.g. the path of the sheet.",
    )


def _number(text: str, where: str) -> Fraction:
    return parse_exact(
        text.replace("−", "-"),
        where,
        expected="a number like -2, 1/2 or 0.5",
        fix="Fix the header line.",
    )


def _label(text: str) -> Any:
    text = text.strip()
    try:
        return int(text)
    except ValueError:
        return text


def _split(text: str) -> tuple[list[tuple[int, str, str]], str]:
    """(line number, key, value) of every ``# key: value`` line, and the text with comments blanked."""
    lines = text.count("\n") + 1
    if lines > MAX_SHEET_LINES:  # counted before any line is split: a hostile sheet stays cheap
        raise v.fail(
            "worksheet",
            f"at most {MAX_SHEET_LINES:,} lines (a sheet is work by hand)",
            f"{lines:,} lines",
            "Check that this is the right file.",
        )
    entries, kept = [], []
    for number, line in enumerate(text.splitlines(), start=1):
        stripped = line.strip()
        if stripped.startswith(MARK):
            body = stripped[len(MARK) :].strip()
            key, sep, value = body.partition(":")
            if sep and key.strip().lower() in ("eta", "intercept", "data"):
                entries.append((number, key.strip().lower(), value.strip()))
            kept.append("")  # keep the line numbers of the table
        else:
            kept.append(line)
    return entries, "\n".join(kept) + "\n"


def sheet_parts(text: str) -> tuple[SheetHeader, str]:
    """A sheet's header (its ``#`` lines) and its table (the ``#`` lines blanked, so that line
    numbers stay the file's)."""
    entries, table = _split(text)
    return _header(entries), table


def read_header(sheet: Any) -> SheetHeader:
    """The data, η and intercept that a sheet's ``#`` lines carry (see the module's format)."""
    entries, _ = _split(_text(sheet))
    return _header(entries)


def _header(entries: list[tuple[int, str, str]]) -> SheetHeader:
    eta = fit_intercept = None
    data: list[tuple[int, list[str]]] = []
    for number, key, value in entries:
        where = f"worksheet line {number} ('# {key}:')"
        if key == "eta":
            eta = _number(value, where)
            v.check_eta(eta)
        elif key == "intercept":
            if value.lower() not in ("yes", "no"):
                raise v.fail(
                    where,
                    "yes or no",
                    repr(value),
                    "Write '# intercept: yes' or '# intercept: no'.",
                )
            fit_intercept = value.lower() == "yes"
        else:
            data.append((number, (csv_rows(value, f"worksheet line {number}") or [[]])[0]))
    if not data:
        return SheetHeader((), (), (), eta, fit_intercept)
    (_, names), rows = data[0], data[1:]
    if len(names) < 2 or not rows:
        raise v.fail(
            f"worksheet line {data[0][0]} ('# data:')",
            "a header of column names, then one line per example",
            f"{len(names)} column(s) and {len(rows)} example line(s)",
            "Write '# data: x1,x2,y' and then '# data: 1,0,1' for each example.",
        )
    X, y = [], []
    for number, cells in rows:
        if len(cells) != len(names):
            raise v.fail(
                f"worksheet line {number} ('# data:')",
                f"{len(names)} cells ({','.join(names)})",
                f"{len(cells)} cells",
                "Give every example all features and its label.",
            )
        X.append(tuple(_number(c, f"worksheet line {number} ('# data:')") for c in cells[:-1]))
        y.append(_label(cells[-1]))
    return SheetHeader(tuple(X), tuple(y), tuple(names), eta, fit_intercept)


# ---------------------------------------------------------------- checking


def _label_key(label: Any) -> Any:
    """A label compared by value: 1, 1.0 and "1" are one label; text labels by their text."""
    try:
        return parse_exact(str(label), "label")
    except InputError:
        return str(label)


def _same_data(header: SheetHeader, X: Any, y: Any) -> bool:
    try:
        rows = [tuple(parse_exact(c, "X", floats="decimal") for c in x) for x in X]
    except InputError:
        return False
    return rows == list(header.X) and [_label_key(label) for label in y] == [
        _label_key(label) for label in header.y
    ]


def check_sheet(
    sheet: Any, X: Any = None, y: Any = None, *, eta: Any = None, fit_intercept: bool | None = None
) -> CheckResult:
    """Check a filled worksheet against the run its header describes.

    Parameters
    ----------
    sheet : a CSV path or an open text file, with or without the ``#`` header of this module.
    X, y : the data of the sheet; needed when the sheet carries none, else optional and then
        they must be the sheet's own.
    eta, fit_intercept : the run's learning rate and intercept; default the sheet's (else 1 and
        no intercept). When given and the sheet says otherwise, the sheet is refused.

    Returns
    -------
    CheckResult
        As :func:`perceptronlab.teach.checker.check_worksheet` gives it.
    """
    entries, table = _split(_text(sheet))
    header = _header(entries)
    if X is None or y is None:
        if X is not None or y is not None:
            raise v.fail(
                "X, y (the sheet's data)",
                "both or neither",
                "only one of them",
                "Pass the examples and their labels together.",
            )
        if not header.has_data:
            raise v.fail(
                "X, y (the sheet's data)",
                "the data of the run the sheet traces",
                "none: the sheet has no '# data:' lines",
                "Pass the data file, or check a sheet written by `perceptronlab exam --sheet-out`, "
                "which carries its data.",
            )
        X, y = [list(x) for x in header.X], list(header.y)
    elif header.has_data and not _same_data(header, X, y):
        raise v.fail(
            "X, y (the sheet's data)",
            f"the {len(header.X)} examples the sheet carries in its '# data:' lines",
            "other data",
            "Check the sheet against the data it carries (leave the data out), or fix its '# data:' lines.",
        )
    if eta is None:
        eta = header.eta if header.eta is not None else 1
    elif (
        header.eta is not None
        and parse_exact(eta, "eta (the learning rate)", floats="decimal") != header.eta
    ):
        raise v.fail(
            "eta (the learning rate)",
            f"the sheet's eta {format_number(header.eta)}",
            str(eta),
            "Leave the learning rate out to use the sheet's, or fix its '# eta:' line.",
        )
    if fit_intercept is None:
        fit_intercept = bool(header.fit_intercept)
    elif header.fit_intercept is not None and bool(fit_intercept) != header.fit_intercept:
        raise v.fail(
            "fit_intercept",
            f"the sheet's intercept ({'yes' if header.fit_intercept else 'no'})",
            "yes" if fit_intercept else "no",
            "Leave the intercept choice out to use the sheet's, or fix its '# intercept:' line.",
        )
    return check_worksheet(io.StringIO(table), X, y, eta=eta, fit_intercept=fit_intercept)
