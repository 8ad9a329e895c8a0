"""The worksheet checker: find a student's first wrong row and name the slip.

A worksheet is the table of the exam task of the lecture notes “Perceptron Mistake Bound”, one row
per step: (sweep, point, y⟨w,x⟩,
mistake?, w after), and a last row for the clean sweep, ``N, all, "s1, s2, s3", no, stop``. This
is the CSV layout of ``Run.table("csv")`` (header ``sweep,point,score,mistake,w_after``); with an
intercept the w cell reads ``(1, 0), b = 1``. The clean sweep may also be written out row by row.

:func:`check_worksheet` runs the exact engine on the data (``perceptron(..., exact=True,
trace=True)``) and walks the sheet against it. At the first row that differs, the student's
weights before that row are the engine's (every earlier row agreed), so the row can be explained
by replaying the wrong rules of the "mistakes to catch" of “Perceptron Algorithm for Halfspaces”
and the tie rule of the lecture notes:

============================  ===================================================================
``update-not-due``            an update although y⟨w,x⟩ > 0 ("updating when the condition is not
                              satisfied")
``x-instead-of-yx``           w ← w + ηx on a mistake with y = −1 ("adding xᵢ instead of yᵢxᵢ")
``update-subtracted``         w ← w − ηyx on a mistake with y = +1 (the update subtracted)
``early-stop``                a stop row for a sweep that still updates, or the sheet ends before
                              a clean sweep ("stopping immediately after an update")
``tie-as-correct``            y⟨w,x⟩ = 0 marked as no mistake (ties count: ≤, not <), also on a
                              stop row that lists the tie's 0 among the clean sweep's scores
``label-before-prediction``   the score is y⟨w + ηyx, x⟩: the label was used (to update w)
                              before the prediction was made, see below
``arithmetic``                anything else: a wrong product or sum, a misread sign, a wrong w
``layout``                    the rows do not follow the run (wrong sweep or point, extra rows)
============================  ===================================================================

The online slip in a sheet
--------------------------
The online protocol of “Perceptron Algorithm for Halfspaces” predicts sign⟨w, x_t⟩ from w and x_t
first and only then reads y_t.
A sheet records the score y⟨w,x⟩ *before* the step. A student who reads the label first and
updates before predicting writes the score of the already-updated weights,
y⟨w + ηyx, x⟩ = y⟨w,x⟩ + η‖x‖² (usually positive, so the step looks correct). The checker names a
wrong score ``label-before-prediction`` exactly when the step is a mistake (an update was due,
so there was an update to apply too early) and the score equals that value.
"""

from __future__ import annotations

import csv
import io
import os
import re
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

from perceptronlab._ground import validation as v
from perceptronlab._ground.numbers import format_number, format_vector, parse_exact, shown_value
from perceptronlab.core.exact import exact_score, exact_update
from perceptronlab.core.perceptron import perceptron
from perceptronlab.core.run import Run

if TYPE_CHECKING:
    from perceptronlab.core.run import Step

HEADER = ("sweep", "point", "score", "mistake", "w_after")

# The worksheet budget: a sheet is work by hand, so these bounds are far above any real one, and
# they keep a hostile sheet (2,000 points, a million rows) from running for minutes. The digits of
# every number are bounded by parse_exact, the size of the run's numbers by the exact engine's budget.
#: most data points and features of a checked sheet
MAX_SHEET_POINTS = 200
MAX_SHEET_FEATURES = 50
#: most rows of a sheet, and most steps (checks of a point) of the exact run it is checked against
MAX_SHEET_ROWS = 5_000
MAX_SHEET_STEPS = 20_000
#: largest sheet file read
MAX_SHEET_BYTES = 4 * 2**20

#: slip kind -> (the lectures' wording, how to fix it)
SLIPS: dict[str, tuple[str, str]] = {
    "update-not-due": (
        "Updating when the condition is not satisfied",
        "Check y<w,x> <= 0 first; update only then.",
    ),
    "x-instead-of-yx": (
        "Adding x_i instead of y_i x_i",
        "Use w <- w + eta * y_i * x_i: the label gives the sign of the contribution.",
    ),
    "update-subtracted": (
        "Subtracting the update: w - eta*y*x instead of w + eta*y*x",
        "Use w <- w + eta * y_i * x_i: on a mistake the update adds y_i x_i.",
    ),
    "early-stop": (
        "Stopping immediately after an update",
        "Return to checking after every update; stop only after a full sweep with no update.",
    ),
    "tie-as-correct": (
        "A tie y<w,x> = 0 treated as correct",
        "Ties count as mistakes (y<w,x> <= 0, not < 0): update on a tie.",
    ),
    "label-before-prediction": (
        "Using the true label before making the (online) prediction",
        "Compute the score from w before this step's update, then use y as feedback.",
    ),
    "arithmetic": ("Plain arithmetic", "Recompute the products and sums of this row."),
    "layout": (
        "The rows do not follow the run",
        "One row per point in the order x1, x2, ... of every sweep, then the stop row.",
    ),
}

_YES = {"yes", "y", "true", "1", "x", "✓", "ja", "j"}
_NO = {"no", "n", "false", "0", "-", "✗", "nein"}


@dataclass
class CheckResult:
    """The verdict on a worksheet.

    Attributes
    ----------
    ok : the sheet is fully correct.
    first_wrong_row : 1-based number of the first wrong data row (the header not counted); for a
        sheet that ends too early, one past its last row. ``None`` when ok.
    slip : the slip kind (a key of :data:`SLIPS`), ``None`` when ok.
    message : one paragraph: what is wrong, why, and how to fix it.
    expected : the correct row (cells as in ``Run.table("csv")``), ``None`` when ok.
    got : the student's row as read, ``None`` when it is missing or ok.
    run : the engine's exact traced run the sheet was checked against.
    """

    ok: bool
    first_wrong_row: int | None
    slip: str | None
    message: str
    expected: tuple | None = None
    got: tuple | None = None
    run: Run | None = field(default=None, repr=False)

    @property
    def slip_name(self) -> str | None:
        """The slip in words (the list of “Perceptron Algorithm for Halfspaces”), ``None`` when ok."""
        return SLIPS[self.slip][0] if self.slip else None

    def __bool__(self) -> bool:
        return self.ok

    def verdict(self) -> str:
        """A few lines for a terminal."""
        if self.ok:
            return f"correct: {self.message}"
        lines = [f"row {self.first_wrong_row}: {self.slip_name} [{self.slip}]", self.message]
        if self.got is not None:
            lines.append("  yours:    " + ", ".join(self.got))
        if self.expected is not None:
            lines.append("  expected: " + ", ".join(self.expected))
        return "\n".join(lines)


# ---------------------------------------------------------------- reading a sheet


@dataclass
class _Row:
    number: int
    cells: tuple
    sweep: int
    point: int | None  # 0-based index, None for the stop row ("all")
    score: Any = None  # Fraction, or a list of Fractions for the stop row
    mistake: bool | None = None
    w: tuple | None = None
    b: Fraction | None = None


#: what is wrong with a row: the slip's name (a key of :data:`SLIPS`) and the words that say it
Slip = tuple[str, str]


def _number(text: str, where: str) -> Fraction:
    cleaned = text.strip().replace("−", "-").replace("$", "").replace(" ", "")
    cleaned = re.sub(r"\\[td]?frac\{(-?\d+)\}\{(\d+)\}", r"\1/\2", cleaned)
    return parse_exact(cleaned, where, expected="a number like -2, 1/2 or 0.5", fix="Fix the cell.")


def _vector(text: str, where: str, d: int, fit_intercept: bool) -> tuple[tuple, Fraction | None]:
    raw = text.strip().replace("$", "")
    b = None
    match = re.search(r",?\s*b\s*=\s*([^,()]+)\s*$", raw)
    if match:
        b = _number(match.group(1), where + " (b)")
        raw = raw[: match.start()]
    raw = raw.strip()
    opened, closed = raw[:1] in ("(", "["), raw[-1:] in (")", "]")
    if (
        raw.count("(") != raw.count(")")
        or raw.count("[") != raw.count("]")
        or opened != closed
        or (opened and "([".index(raw[0]) != ")]".index(raw[-1]))
    ):
        raise v.fail(
            where,
            "a vector written (w1, ..., wd)",
            shown_value(text),
            "Close the parenthesis, e.g. (1, 0).",
        )
    raw = raw.strip("()[]").strip()
    parts = [p for p in raw.split(",")] if raw else []
    values = tuple(_number(p, where) for p in parts)
    if len(values) != d:
        fix = "Write w as (w1, ..., wd)" + (", b = value" if fit_intercept else "") + "."
        raise v.fail(
            where,
            f"a vector with {d} entries" + (" and b = value" if fit_intercept else ""),
            repr(text),
            fix,
        )
    if fit_intercept and b is None:
        raise v.fail(
            where,
            "the intercept as '(w1, ..., wd), b = value'",
            repr(text),
            "Add ', b = value' (the run has an intercept).",
        )
    return values, b


def _mistake(text: str, where: str) -> bool:
    cell = text.strip().lower().rstrip("?")
    if cell in _YES:
        return True
    if cell in _NO:
        return False
    raise v.fail(
        where, "yes or no", repr(text), "Write yes for a mistake (an update), no otherwise."
    )


def _point(text: str, where: str, n: int) -> int | None:
    cell = text.strip().replace("$", "").replace("_", "").replace("{", "").replace("}", "").lower()
    if cell == "all":
        return None
    match = re.fullmatch(r"x?(\d{1,9})", cell)
    if not match or not 1 <= int(match.group(1)) <= n:
        raise v.fail(
            where,
            f"a point x1 ... x{n} or 'all'",
            shown_value(text),
            "Name the point of the row, e.g. x2.",
        )
    return int(match.group(1)) - 1


def _is_header(cells: list[str]) -> bool:
    """A header row: its first cell is not a sweep number and its second is not a point name."""
    first = cells[0] if cells else ""
    second = cells[1].strip().lower().replace("_", "").replace("$", "") if len(cells) > 1 else ""
    return not re.match(r"\s*\d", first) and not re.fullmatch(r"x?\{?\d+\}?|all", second)


def read_sheet_file(source: str | os.PathLike) -> str:
    """The text of a worksheet file (UTF-8, a byte-order mark dropped), or a clear error."""
    path = Path(source)
    if not path.is_file():
        why = (
            "a directory"
            if path.is_dir()
            else "not a regular file"
            if path.exists()
            else "no such file"
        )
        fix = (
            "Name the sheet's file inside it."
            if path.is_dir()
            else "Check the path; write the sheet as CSV with the columns sweep,point,score,mistake,w_after."
        )
        raise v.fail("worksheet", "a CSV file", f"{str(path)!r} ({why})", fix)
    size = path.stat().st_size
    if size > MAX_SHEET_BYTES:
        raise v.fail(
            "worksheet",
            f"a sheet of at most {MAX_SHEET_BYTES // 2**20} MiB",
            f"{str(path)!r} of {size:,} bytes",
            "A worksheet is work by hand: check that this is the right file.",
        )
    try:
        return path.read_text(encoding="utf-8-sig")
    except (OSError, UnicodeDecodeError) as exc:
        raise v.fail(
            "worksheet",
            "a readable UTF-8 CSV file",
            f"{str(path)!r} ({exc})",
            "Save the sheet as CSV (UTF-8).",
        ) from exc


def csv_rows(text: str, what: str) -> list[list[str]]:
    """The rows of a CSV text, or one clear line for a cell past the csv module's field limit (or a
    NUL byte)."""
    try:
        return list(csv.reader(io.StringIO(text)))
    except csv.Error as exc:
        raise v.fail(
            what,
            f"CSV cells of at most {csv.field_size_limit():,} characters",
            f"a cell it cannot read ({exc})",
            "A worksheet is work by hand: check that this is the right file.",
        ) from None


def _read_rows(source: Any) -> list[tuple[int, list[str]]]:
    """(line number, cells) of every non-empty row; the header row, if any, dropped."""
    if isinstance(source, str | os.PathLike) or hasattr(source, "read"):
        text = read_sheet_file(source) if isinstance(source, str | os.PathLike) else source.read()
        rows = csv_rows(text, "worksheet")
    else:
        try:
            rows = [[str(c) for c in (r.values() if isinstance(r, dict) else r)] for r in source]
        except TypeError as exc:
            raise v.fail(
                "worksheet",
                "a CSV path, a file object or a list of rows",
                type(source).__name__,
                "Pass e.g. the path of the sheet.",
            ) from exc
    numbered = [
        (k + 1, [c.strip() for c in r]) for k, r in enumerate(rows) if any(c.strip() for c in r)
    ]
    if len(numbered) > MAX_SHEET_ROWS + 1:  # and a header
        raise v.fail(
            "worksheet",
            f"at most {MAX_SHEET_ROWS:,} rows",
            f"{len(numbered):,} rows",
            "A worksheet is work by hand: check a shorter run (fewer points or sweeps).",
        )
    header = None
    if numbered and _is_header(numbered[0][1]):
        header, numbered = numbered[0][1], numbered[1:]
    if not numbered:
        got = "an empty sheet" if header is None else f"only a header row ({','.join(header)!r})"
        raise v.fail(
            "worksheet",
            "at least one row (sweep, point, score, mistake, w_after)",
            got,
            "Write one row per step, as in `perceptronlab trace DATA --format csv`.",
        )
    return numbered


def _parse(source: Any, n: int, d: int, fit_intercept: bool) -> list[_Row]:
    parsed = []
    for number, (line, cells) in enumerate(_read_rows(source), start=1):
        where = f"worksheet row {number} (line {line})"
        if len(cells) != 5:
            raise v.fail(
                where,
                "5 cells: sweep, point, score, mistake, w_after",
                f"{len(cells)} cells",
                'Quote cells that contain commas, e.g. "(1, -2)".',
            )
        try:
            sweep = int(cells[0])
        except ValueError as exc:
            raise v.fail(
                f"{where}, sweep", "a whole number", repr(cells[0]), "Number the sweeps 1, 2, ..."
            ) from exc
        point = _point(cells[1], f"{where}, point", n)
        row = _Row(number, tuple(cells), sweep, point)
        if point is None:
            scores = [s for s in cells[2].replace(";", ",").split(",") if s.strip()]
            row.score = [_number(s, f"{where}, scores") for s in scores]
            row.mistake = _mistake(cells[3], f"{where}, mistake") if cells[3] else False
        else:
            row.score = _number(cells[2], f"{where}, score")
            row.mistake = _mistake(cells[3], f"{where}, mistake")
            row.w, row.b = _vector(cells[4], f"{where}, w after", d, fit_intercept)
        parsed.append(row)
    return parsed


# ---------------------------------------------------------------- checking


def _eta(value: Any) -> Fraction:
    """The learning rate as an exact Fraction: numbers (floats by their decimal text) or "1/2"."""
    if isinstance(value, str):
        value = _number(value, "eta (the learning rate)")
    v.check_eta(value)
    return parse_exact(value, "eta (the learning rate)", floats="decimal")


def check_worksheet(
    rows_or_csv_path: Any,
    X: Any,
    y: Any,
    *,
    eta: Any = 1,
    fit_intercept: bool = False,
    max_sweeps: int = 1000,
) -> CheckResult:
    """Check a student's worksheet against the exact engine run; name the first slip.

    Parameters
    ----------
    rows_or_csv_path : a CSV path (header ``sweep,point,score,mistake,w_after`` optional), an open
        text file, or rows of 5 cells (lists or dicts). Numbers may be integers, fractions or
        decimals ("-2", "1/2", "0.5").
    X, y : the data of the sheet (as for :func:`perceptronlab.perceptron`; exact values are best).
    eta : the learning rate of the sheet (a number or a string like "1/2").
    fit_intercept : the sheet carries an intercept ("(w1, w2), b = value").

    Returns
    -------
    CheckResult
        ``ok`` for a fully correct sheet; otherwise the first wrong row, the slip and a message.

    Examples
    --------
    >>> from perceptronlab import perceptron
    >>> X, y = [[1, 0], [1, 1], [0, 1]], [1, -1, -1]
    >>> sheet = perceptron(X, y, exact=True, trace=True).table("csv")
    >>> check_worksheet(io.StringIO(sheet), X, y).ok
    True
    >>> tie_missed = sheet.replace('2,x1,0,yes,"(1, -1)"', '2,x1,0,no,"(0, -1)"')
    >>> result = check_worksheet(io.StringIO(tie_missed), X, y)
    >>> result.first_wrong_row, result.slip
    (4, 'tie-as-correct')
    """
    eta = _eta(eta)
    max_sweeps = v.check_positive_int("max_sweeps", max_sweeps, "Pass e.g. max_sweeps=1000.")
    Xc, signs, _ = v.check_Xy(X, y, exact=True)
    n, d = len(Xc), len(Xc[0])
    if n > MAX_SHEET_POINTS or d > MAX_SHEET_FEATURES:
        raise v.fail(
            "worksheet data",
            f"at most {MAX_SHEET_POINTS} points and {MAX_SHEET_FEATURES} features "
            "(a sheet is work by hand)",
            f"{n:,} points and {d:,} features",
            "Check a smaller dataset, or train on it with `perceptronlab train`.",
        )
    run = perceptron(
        X,
        y,
        eta=eta,
        fit_intercept=bool(fit_intercept),
        exact=True,
        trace=True,
        max_sweeps=min(max_sweeps, max(1, MAX_SHEET_STEPS // n)),
        warn=False,
    )
    sheet = _parse(rows_or_csv_path, n, d, bool(fit_intercept))
    return _Walk(run, Xc, [int(s) for s in signs], eta, bool(fit_intercept), sheet).check()


class _Walk:
    """Walks the sheet along the engine's steps."""

    def __init__(self, run: Run, X, signs, eta: Fraction, fit_intercept: bool, sheet: list[_Row]):
        self.run, self.X, self.signs, self.eta, self.fit_intercept = (
            run,
            X,
            signs,
            eta,
            fit_intercept,
        )
        self.sheet = sheet
        self.steps = cast("list[Step]", run.steps)  # the expected run is traced
        self.n = len(X)
        self.final = run.sweeps if run.converged else None  # the clean sweep

    # -------------------------------------------------------- verdicts
    def fail(
        self, row_number: int, slip: str, message: str, expected=None, got=None
    ) -> CheckResult:
        return CheckResult(
            False, row_number, slip, f"{message} Fix: {SLIPS[slip][1]}", expected, got, self.run
        )

    def row_fail(self, row: _Row, slip: str, message: str, expected: tuple) -> CheckResult:
        """:meth:`fail` at ``row``, with what it should hold and what it holds."""
        return self.fail(row.number, slip, message, expected, row.cells)

    def expected_cells(self, k: int) -> tuple:
        step = self.steps[k]
        w_after = format_vector(step.w) + (
            f", b = {format_number(step.b)}" if self.fit_intercept else ""
        )
        return (
            str(step.sweep),
            f"x{step.index + 1}",
            format_number(step.score),
            "yes" if step.mistake else "no",
            w_after,
        )

    def stop_cells(self) -> tuple:
        scores = [format_number(s.score) for s in self.steps if s.sweep == self.final]
        return (str(self.final), "all", ", ".join(scores), "no", "stop")

    def state_before(self, k: int) -> tuple[tuple, Fraction]:
        if k == 0:
            return tuple(Fraction(0) for _ in self.X[0]), Fraction(0)
        return tuple(self.steps[k - 1].w), self.steps[k - 1].b

    def w_text(self, w, b) -> str:
        return format_vector(w) + (f", b = {format_number(b)}" if self.fit_intercept else "")

    # -------------------------------------------------------- the walk
    def check(self) -> CheckResult:
        k = 0  # the next engine step
        first_final = next((i for i, s in enumerate(self.steps) if s.sweep == self.final), None)
        for position, row in enumerate(self.sheet):
            if row.point is None:
                if first_final is not None and k >= first_final:
                    return self.stop_row(row, k, first_final, position)
                return self.early_stop(row, k)
            if k >= len(self.steps):
                return self.fail(
                    row.number,
                    "layout",
                    f"The run has ended ({self.ending()}), but the sheet goes on with sweep {row.sweep}, "
                    f"x{row.point + 1}.",
                    None,
                    row.cells,
                )
            result = self.step_row(row, k)
            if result is not None:
                return result
            k += 1
        if k == len(self.steps) and self.final is not None:
            return self.finish(len(self.sheet), written_out=True)
        return self.sheet_ended(k)

    def ending(self) -> str:
        if self.final is not None:
            return f"sweep {self.final} is clean"
        return "w repeats: it never converges" if self.run.cycled else "the sweep limit was reached"

    def finish(self, next_position: int, written_out: bool) -> CheckResult:
        if next_position < len(self.sheet):
            extra = self.sheet[next_position]
            return self.fail(
                extra.number,
                "layout",
                f"The run stops after the clean sweep {self.final}; row {extra.number} is one too many.",
                None,
                extra.cells,
            )
        how = "the clean sweep written out" if written_out else "the stop row"
        return CheckResult(
            True,
            None,
            None,
            f"all {len(self.sheet)} rows agree with the run ({self.run.mistakes} mistakes, "
            f"{self.run.sweeps} sweeps, final w = {self.w_text(self.run.w, self.run.b)}; {how}).",
            run=self.run,
        )

    def stop_row(self, row: _Row, k: int, first: int, position: int) -> CheckResult:
        """A stop row once the clean sweep has begun (after 0 to n of its rows written out)."""
        found = self.stop_slip(row, k, first)
        if found is not None:
            return self.row_fail(row, *found, self.stop_cells())
        return self.finish(position + 1, written_out=False)

    def stop_slip(self, row: _Row, k: int, first: int) -> Slip | None:
        """The first thing wrong with a stop row in the clean sweep, as (slip, words)."""
        done = k - first
        wanted = [s.score for s in self.steps[first:]]
        if row.sweep != self.final:
            return "layout", f"The stop row belongs to sweep {self.final}, not {row.sweep}."
        got_scores = row.score
        if len(got_scores) not in (len(wanted), len(wanted) - done):
            return (
                "layout",
                f"The stop row lists {len(got_scores)} scores; sweep {self.final} checks {self.n} "
                "points.",
            )
        offset = 0 if len(got_scores) == len(wanted) else done
        for j, (got, want) in enumerate(zip(got_scores, wanted[offset:], strict=True)):
            if got != want:
                index = self.steps[first + offset + j].index
                return (
                    "arithmetic",
                    f"In the clean sweep {self.final}, x{index + 1} has y<w,x> = {format_number(want)}, "
                    f"not {format_number(got)}.",
                )
        if row.mistake:
            return "layout", "The stop row has no mistake: mark it 'no'."
        return None

    def early_stop(self, row: _Row, k: int) -> CheckResult:
        """A stop row before the clean sweep has begun."""
        if k >= len(self.steps) or self.final is None:
            reason = (
                f"this run never has a clean sweep ({self.ending()})"
                if self.final is None
                else "the run already ended"
            )
            return self.fail(
                row.number,
                "early-stop",
                f"The sheet stops in sweep {row.sweep}, but {reason}.",
                None,
                row.cells,
            )
        pending = [s for s in self.steps[k:] if s.mistake]
        tie = self.tie_in_stop_row(row, k, pending[0] if pending else None)
        if tie is not None:
            return tie
        if pending:
            update = pending[0]
            why = (
                f"in sweep {update.sweep}, x{update.index + 1} has y<w,x> = {format_number(update.score)} <= 0, "
                "so w must still be updated"
            )
        else:
            update = next(s for s in reversed(self.steps[:k]) if s.mistake)
            why = (
                f"sweep {update.sweep} updated w at x{update.index + 1}, and an update does not show that every "
                f"point is now correct: finish sweep {self.steps[k].sweep}, then check a full sweep"
            )
        return self.fail(
            row.number,
            "early-stop",
            f"The sheet stops too early: {why}; the run stops only after the clean sweep {self.final}.",
            self.expected_cells(k),
            row.cells,
        )

    def tie_in_stop_row(self, row: _Row, k: int, update: Step | None) -> CheckResult | None:
        """A stop row whose scores are right up to the run's next update, a tie written as 0: the
        tie was taken for a correct point (the sweep looked clean), not a stop right after an update."""
        if update is None or update.score != 0 or update.sweep != row.sweep:
            return None
        if any(s.mistake for s in self.steps[:k] if s.sweep == row.sweep):
            return None  # this sweep already updated: the stop itself is the slip
        sweep = [s for s in self.steps[k:] if s.sweep == row.sweep]
        upto = [s.score for s in sweep[: sweep.index(update) + 1]]
        scores = list(row.score)
        if scores[-len(sweep) :][: len(upto)] != upto and scores[: len(upto)] != upto:
            return None
        return self.fail(
            row.number,
            "tie-as-correct",
            f"In sweep {row.sweep}, x{update.index + 1} has y<w,x> = 0, a tie: it counts as a "
            "mistake, so w must be updated and this sweep is not clean.",
            self.expected_cells(k),
            row.cells,
        )

    def sheet_ended(self, k: int) -> CheckResult:
        number = len(self.sheet) + 1
        if self.final is None:
            return self.fail(
                number, "early-stop", f"The sheet ends, but the run never stops ({self.ending()})."
            )
        last = self.sheet[-1] if self.sheet else None
        expected = (
            self.stop_cells() if self.steps[k].sweep == self.final else self.expected_cells(k)
        )
        after_update = last is not None and last.point is not None and last.mistake
        what = (
            "right after an update"
            if after_update
            else f"before sweep {self.final}, the clean sweep"
        )
        return self.fail(
            number,
            "early-stop",
            f"The sheet ends {what}: an update does not show that every point is now correct; "
            f"the next check is sweep {self.steps[k].sweep}, x{self.steps[k].index + 1}, and the run "
            f"stops only after the clean sweep {self.final}.",
            expected,
        )

    def step_row(self, row: _Row, k: int) -> CheckResult | None:
        """The first thing wrong with the row of step ``k``: its place, its score, its mistake
        mark, its w after (``None`` when it is right)."""
        assert row.point is not None  # the stop row ("all") is check()'s
        step = self.steps[k]
        for right, slip in (
            ((row.sweep, row.point) == (step.sweep, step.index), self.place_slip),
            (row.score == step.score, self.score_slip),
            (row.mistake == step.mistake, self.mark_slip),
            (self.written_w(row) == (tuple(step.w), step.b), self.w_slip),
        ):
            if not right:
                return self.row_fail(row, *slip(row, k), self.expected_cells(k))
        return None

    def written_w(self, row: _Row) -> tuple[Any, Any]:
        """The row's w after and b (0 without an intercept)."""
        return row.w, (row.b if self.fit_intercept else Fraction(0))

    def place_slip(self, row: _Row, k: int) -> Slip:
        """The row is not the next check's sweep and point."""
        step = self.steps[k]
        assert row.point is not None  # the stop row ("all") is check()'s
        return (
            "layout",
            f"The next check is sweep {step.sweep}, x{step.index + 1}, not sweep {row.sweep}, "
            f"x{row.point + 1}.",
        )

    def score_slip(self, row: _Row, k: int) -> Slip:
        """A wrong y<w,x>: the label used before the prediction, or plain arithmetic."""
        step = self.steps[k]
        w, b = self.state_before(k)
        x, label = self.X[step.index], self.signs[step.index]
        name = f"x{step.index + 1}"
        # the score after this step's update: the label used before the prediction
        early = exact_score(*exact_update(w, b, x, label, self.eta, self.fit_intercept), x, label)
        if step.mistake and row.score == early:
            return (
                "label-before-prediction",
                f"y<w,x> of {name} is computed with w = {self.w_text(w, b)} from before this step: "
                f"{format_number(step.score)}. Your {format_number(row.score)} is the score of "
                f"w + eta*y*x, i.e. the label was used to update w before the prediction.",
            )
        unsigned = label * step.score
        hint = (
            " (this is <w,x> without the label y)"
            if row.score == unsigned and label == -1 and unsigned != 0
            else ""
        )
        return (
            "arithmetic",
            f"y<w,x> of {name} with w = {self.w_text(w, b)} is {format_number(step.score)}, not "
            f"{format_number(row.score)}{hint}.",
        )

    def mark_slip(self, row: _Row, k: int) -> Slip:
        """A wrong mistake mark: a tie taken as correct, a missed mistake, an update not due."""
        step = self.steps[k]
        name = f"x{step.index + 1}"
        if step.mistake and step.score == 0:
            return (
                "tie-as-correct",
                f"y<w,x> of {name} is 0, a tie: it counts as a mistake and w must be updated.",
            )
        if step.mistake:
            return (
                "arithmetic",
                f"y<w,x> of {name} is {format_number(step.score)} < 0: a mistake, so w must be "
                "updated.",
            )
        return (
            "update-not-due",
            f"y<w,x> of {name} is {format_number(step.score)} > 0: correctly classified, so no "
            f"update; w stays {self.w_text(*self.state_before(k))}.",
        )

    def w_slip(self, row: _Row, k: int) -> Slip:
        """A wrong w after: an update where none is due, a missing one, or a wrong rule."""
        step = self.steps[k]
        if step.mistake:
            return self.wrong_update(row, k)
        got_w = row.w
        w, b = self.state_before(k)
        x, label = self.X[step.index], self.signs[step.index]
        name = f"x{step.index + 1}"
        updated = tuple(exact_update(w, b, x, label, self.eta, self.fit_intercept)[0])
        if got_w == updated:
            return (
                "update-not-due",
                f"{name} is marked as no mistake (y<w,x> = {format_number(step.score)} > 0), yet w "
                f"was updated; it stays {self.w_text(w, b)}.",
            )
        return "arithmetic", f"No update at {name}: w stays {self.w_text(w, b)}."

    def wrong_update(self, row: _Row, k: int) -> Slip:
        """A mistake's row whose w after is not w + eta*y*x: which wrong rule gives it."""
        step, (w, b) = self.steps[k], self.state_before(k)
        x, label, name = self.X[step.index], self.signs[step.index], f"x{step.index + 1}"
        got_w, got_b = self.written_w(row)
        plus_x = tuple(exact_update(w, b, x, 1, self.eta, self.fit_intercept)[0])  # as if y were +1
        subtracted = tuple(exact_update(w, b, x, -label, self.eta, self.fit_intercept)[0])
        if label == 1 and got_w == subtracted:
            return (
                "update-subtracted",
                f"{name} has label y = +1, so the update is w + eta*y*x = "
                f"{self.w_text(step.w, step.b)}; {format_vector(got_w)} is w - eta*y*x.",
            )
        if label == -1 and got_w == plus_x:
            return (
                "x-instead-of-yx",
                f"{name} has label y = -1, so the update is w - eta*x = {self.w_text(step.w, step.b)}; "
                f"{format_vector(got_w)} adds x.",
            )
        return (
            "arithmetic",
            f"The update at {name} gives w + eta*y*x = {self.w_text(step.w, step.b)}, not "
            f"{self.w_text(got_w, got_b)}.",
        )


# ---------------------------------------------------------------- follow-through


@dataclass(frozen=True)
class OwnRows:
    """A sheet read with follow-through: each row judged from the student's own w before it.

    Attributes
    ----------
    right : (sweep, right) of every row, in order; a row is right when its point follows the
        cyclic order and its score, mistake and w after are those of the student's own w before it.
    ends_right : the sheet ends as the student's own run does: with a right stop row, or with a
        written-out sweep that has no mistake.
    """

    right: tuple[tuple[int, bool], ...]
    ends_right: bool


def follow_through(
    rows_or_csv: Any, X: Any, y: Any, *, eta: Any = 1, fit_intercept: bool = False
) -> OwnRows:
    """Judge every row of a sheet from the student's own earlier w (follow-through credit): a row
    after a slip is right when it is the right step from the w the student wrote before it.

    >>> rows = [["1", "x1", "0", "yes", "(1, 0)"], ["1", "x2", "1", "no", "(1, 0)"]]
    >>> follow_through(rows + [["2", "all", "1, 0", "no", "stop"]], [[1, 0], [0, 1]], [1, 1]).right
    ((1, True), (1, False), (2, False))
    """
    eta = _eta(eta)
    Xc, signs, _ = v.check_Xy(X, y, exact=True)
    labels = [int(s) for s in signs]
    n, d = len(Xc), len(Xc[0])
    w, b = tuple(Fraction(0) for _ in range(d)), Fraction(0)
    right: list[tuple[int, bool]] = []
    clean = True  # no mistake written so far in the current sweep
    rows = _parse(rows_or_csv, n, d, fit_intercept)
    for position, row in enumerate(rows):
        j = len(right)  # the point rows so far: this row's place in the cyclic order
        sweep, index = j // n + 1, j % n
        if index == 0:
            clean = True
        if row.point is None:
            scores = [exact_score(w, b, Xc[i], labels[i]) for i in range(n)]
            ok = (
                position == len(rows) - 1
                and row.sweep == sweep
                and clean
                and not row.mistake
                and all(s > 0 for s in scores[index:])
                and list(row.score) in (scores, scores[index:])
            )
            right.append((row.sweep, ok))
            return OwnRows(tuple(right), ok)
        score = exact_score(w, b, Xc[index], labels[index])
        mistake = score <= 0
        due = (
            exact_update(w, b, Xc[index], labels[index], eta, fit_intercept) if mistake else (w, b)
        )
        got_b = row.b if fit_intercept and row.b is not None else Fraction(0)
        ok = (row.sweep, row.point, row.score, row.mistake) == (sweep, index, score, mistake) and (
            tuple(due[0]),
            due[1],
        ) == (row.w, got_b)
        right.append((row.sweep, ok))
        clean = clean and not row.mistake
        w, b = tuple(row.w or w), got_b
    written_clean = len(right) % n == 0 and clean and all(ok for _, ok in right[-n:])
    return OwnRows(tuple(right), bool(right) and written_clean)
