"""The lab's computation: one request (points, labels, options) in, the whole run and the cards out.

The server and the Jupyter widget both call :func:`compute`. It validates the request at the
boundary (every message: what, expected, got, how to fix), runs the engine
(:func:`perceptronlab.perceptron` or :func:`perceptronlab.pocket`) with ``trace=True``, asks the
theory toolkit for R, ρ*, Novikoff's bound and separability, and returns plain JSON-ready data.
Nothing here re-implements the rule: the page then only draws and animates this answer.

The request
-----------
``{"points": [[x, y], ...], "labels": [1, -1, ...], "options": {...}}``. Coordinates are numbers
or strings (``"1/2"``, ``"0.5"``); JSON numbers are taken as the decimals they spell. Options
(all optional):

=================  ==========================================================================
``order``          "cyclic" (default), "shuffle", "random-mistake", or "pick": the user's
                   own cyclic order, given in ``sequence``
``sequence``       with "pick": the point indices in visiting order (distinct); points left out
                   are visited after them in index order. Each sweep follows this order.
``fit_intercept``  the bias trick (x augmented with 1); default false, as in the exam task
``eta``            learning rate η > 0 (default 1)
``margin``         ρ₀ ≥ 0 of the margin perceptron (default 0)
``pocket``         run Pocket (Gallant 1990) instead (default false)
``check``          when Pocket counts its errors: "update" (after every update, the default),
                   "sweep" (after every sweep) or "ratchet" (Gallant's ratchet), as
                   :func:`perceptronlab.pocket`'s ``check``
``max_sweeps``     1 … 1000 (default 100)
``seed``           integer ≥ 0 for the shuffle and random-mistake orders (default 0)
``arithmetic``     "auto" (default: exact Fractions when every coordinate is an integer or a
                   half-integer and there are at most 200 points), "exact" or "float"
=================  ==========================================================================

The answer
----------
``run``: the result (mistakes, sweeps, converged/cycled, final ``w`` and ``b`` with their exact
text) and the trace as columns: ``steps`` (sweep, point index, y⟨w,x⟩ as a number and as the
worksheet writes it, mistake?, and how many updates were made so far) and ``weights`` (every
weight vector of the run from w = 0, its text, and which points it misclassifies: the page marks
them without computing a single score). ``log`` says how the worksheet ends (the last clean sweep
collapses into one "all … stop" row, exactly as :meth:`perceptronlab.Run.worksheet_rows`).
``cards``: R, ρ*, the bound R²/ρ*² (or the margin perceptron's), mistakes, separability (with
Gordan's certificate when not separable), each with a display text: exact fractions on the grid
("1/√5", "10"), decimals otherwise. ``max_margin``: the best separating line and its band (null
when not separable). ``plots``: the squeeze plot (‖w_k‖ with kηρ* and √(k(η²R² + 2ηρ₀))) and
the training errors after each sweep (and the pocket's). ``limits``: how much was traced.

"I pick the next point"
-----------------------
The page sends the order the user clicked as ``sequence``; the engine runs its cyclic order on
the points in that order, and the answer maps every index back to the user's numbering.

Limits
------
At most :data:`MAX_POINTS` points (the server also refuses bodies over :data:`MAX_BODY_BYTES`),
coordinates within ±:data:`MAX_COORDINATE`. So that the page stays quick, a run is traced step
by step for at most :data:`TRACE_STEPS` steps (at least one sweep; random-mistake order and
Pocket, which score every point at each update, within :data:`TRACE_WORK` scores); a longer run
is then finished by the compiled engine and the cards and the final w come from that whole run,
with a note saying so. Exact runs stop within :data:`EXACT_WORK` scores, and exact arithmetic is
used only while every coordinate, η and ρ₀ share a common denominator below
:data:`EXACT_DENOMINATOR` (Fractions then stay small; "auto" falls back to floats, "exact" is
refused with the budget in the message). Integers are refused past ±:data:`MAX_COORDINATE` with a
short message (a 4,000-digit integer is described, not echoed), and past :data:`MAX_INT_DIGITS`
digits while the JSON is parsed. The server (:mod:`perceptronlab.web.app`) adds a deadline.
"""

from __future__ import annotations

import json
import math
import numbers
import warnings
from collections.abc import Mapping
from decimal import Decimal
from fractions import Fraction
from typing import Any

import numpy as np

from perceptronlab._ground.numbers import format_number, format_vector, parse_exact
from perceptronlab._ground.numbers import format_sqrt as sqrt_text
from perceptronlab._ground.validation import POCKET_CHECKS, fail
from perceptronlab.core.threads import numba_threads
from perceptronlab.exceptions import InputError, NotSeparableError

MAX_POINTS = 10_000
MAX_BODY_BYTES = 1_000_000
#: the run is traced step by step for at most this many steps (at least one sweep).
TRACE_STEPS = 5_000
#: random-mistake and Pocket score every point at each update: traced while updates·n ≤ this.
TRACE_WORK = 100_000
#: the compiled (untraced) whole run scores at most this many points.
WHOLE_WORK = 50_000_000
#: "auto" arithmetic is exact for at most this many points; "exact" for at most EXACT_MAX_POINTS.
EXACT_AUTO_POINTS = 200
EXACT_MAX_POINTS = 500
#: exact runs score at most this many points (Fractions are slow; grid data rarely needs more).
EXACT_WORK = 20_000
#: which points are misclassified is listed for every weight vector while n·(updates+1) ≤ this.
WRONG_WORK = 400_000
MAX_COORDINATE = 1_000_000
#: JSON integers longer than this are refused while parsing (Python's own limit for decimal text);
#: shorter ones beyond ±MAX_COORDINATE are refused with the cell they are in.
MAX_INT_DIGITS = 4300
#: exact arithmetic only when every coordinate, η and ρ₀ share a common denominator below this:
#: Fractions then stay small (the numbers of a 36-digit fraction per coordinate grow without bound).
EXACT_DENOMINATOR = 10**18
MAX_SWEEPS = 1000

ORDERS = ("cyclic", "shuffle", "random-mistake", "pick")
ARITHMETIC = ("auto", "exact", "float")
OPTION_DEFAULTS: dict[str, Any] = {
    "order": "cyclic",
    "sequence": [],
    "fit_intercept": False,
    "eta": 1,
    "margin": 0,
    "pocket": False,
    "check": "update",
    "max_sweeps": 100,
    "seed": 0,
    "arithmetic": "auto",
}
REQUEST_KEYS = ("points", "labels", "options")


# ---------------------------------------------------------------- parsing the request


def parse_body(body: bytes) -> dict:
    """Decode a JSON request body (at most :data:`MAX_BODY_BYTES`); NaN and Infinity are refused.

    JSON numbers become ints and floats; a float counts as the decimal it spells (its shortest
    repr), so ``0.5`` is exactly 1/2.

    >>> parse_body(b'{"points": [[0.5, 1]], "labels": [1]}')["points"]
    [[0.5, 1]]
    """
    if len(body) > MAX_BODY_BYTES:
        raise fail("request", f"at most {MAX_BODY_BYTES:,} bytes", f"{len(body):,} bytes",
                   f"Send at most {MAX_POINTS:,} points.")

    def no_constants(name: str) -> Any:
        raise fail("request", "finite numbers", name, "Remove NaN and infinite coordinates.")

    def bounded_int(text: str) -> int:
        # Python refuses to convert more than 4,300 digits (with advice about sys); say it our way
        digits = len(text.lstrip("-"))
        if digits > MAX_INT_DIGITS:
            raise fail("request", f"integers of at most {MAX_INT_DIGITS:,} digits", f"an integer of {digits:,} digits",
                       f"Rescale the data: coordinates lie within ±{MAX_COORDINATE:,}.")
        return int(text)

    try:
        data = json.loads(body, parse_constant=no_constants, parse_int=bounded_int)
    except (ValueError, RecursionError) as exc:
        if isinstance(exc, InputError):
            raise
        raise fail("request", "a JSON object", f"invalid JSON ({exc})",
                   'Send {"points": [[x, y], ...], "labels": [1, -1, ...], "options": {}}.') from None
    return data


def _number(value: Any, where: str) -> Fraction:
    """An exact number from a JSON value: int, decimal, float (as its shortest decimal) or string."""
    if isinstance(value, str) and (not value.strip() or len(value.strip()) > 40):
        raise fail(where, "a number or a fraction like '1/2' (at most 40 characters)",
                   repr(value[:50]), "Fix the value.")
    number = parse_exact(value, where, floats="decimal", expected="a number or a fraction like '1/2'",
                         fix="Use numbers like 1, -0.5 or '1/2'.")
    if abs(number) > MAX_COORDINATE:
        raise fail(where, f"a number between -{MAX_COORDINATE:,} and {MAX_COORDINATE:,}",
                   format_number(number), "Rescale the data.")
    if isinstance(value, str | Decimal) and "/" not in str(value) and 0 < abs(number) < Fraction(1, 10**15):
        raise fail(where, "a number with at most 15 decimal places", str(value).strip(),
                   "Round the value or rescale the data.")
    return number


def _within_range(value: Any, where: str) -> None:
    """The size check at the request boundary: an int or float beyond ±:data:`MAX_COORDINATE` is
    refused with a short message (a 4,000-digit integer is described, not echoed back)."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        return
    if isinstance(value, float) and not math.isfinite(value):
        return  # _number says "a finite number"
    if abs(value) <= MAX_COORDINATE:
        return
    if isinstance(value, int) and abs(value) >= 10**15:
        try:
            got = f"an integer of {len(str(abs(value))):,} digits"
        except ValueError:  # beyond Python's own limit for decimal text
            got = f"an integer of more than {MAX_INT_DIGITS:,} digits"
    else:
        got = f"{value:.6g}"
    raise fail(where, f"a number between -{MAX_COORDINATE:,} and {MAX_COORDINATE:,}", got, "Rescale the data.")


def _flag(value: Any, name: str) -> bool:
    if not isinstance(value, bool):
        raise fail(f"options.{name}", "true or false", repr(value), f"Send {name}: false or {name}: true.")
    return value


def _integer(value: Any, name: str, low: int, high: int) -> int:
    if isinstance(value, Decimal) and value == value.to_integral_value():
        value = int(value)
    if isinstance(value, bool) or not isinstance(value, numbers.Integral) or not low <= int(value) <= high:
        raise fail(f"options.{name}", f"an integer from {low} to {high:,}", repr(value),
                   f"Send e.g. {name}: {OPTION_DEFAULTS[name] or low}.")
    return int(value)


def parse_request(payload: Any) -> tuple[Points, list[int], dict]:
    """Validate a request; return (the points, labels in {-1, +1}, options with their defaults).

    >>> points, labels, options = parse_request({"points": [[1, 0], ["1/2", 1]], "labels": [1, -1]})
    >>> [[str(c) for c in p] for p in points.fractions()], points.on_grid, labels, options["order"]
    ([['1', '0'], ['1/2', '1']], True, [1, -1], 'cyclic')
    """
    if not isinstance(payload, Mapping):
        raise fail("request", "a JSON object with points, labels and options", type(payload).__name__,
                   'Send {"points": [[x, y], ...], "labels": [1, -1, ...], "options": {}}.')
    unknown = sorted(set(payload) - set(REQUEST_KEYS))
    if unknown:
        raise fail("request", "the keys points, labels, options", f"unknown key {unknown[0]!r}",
                   "Remove it (options go inside \"options\").")
    points = payload.get("points")
    labels = payload.get("labels")
    if not isinstance(points, list):
        raise fail("points", "a list of [x, y] pairs", type(points).__name__ if points is not None else "nothing",
                   'Send "points": [[1, 0], [1, 1]].')
    if not points:
        raise fail("points", "at least one point", "none", "Add a point (click in the plane).")
    if len(points) > MAX_POINTS:
        raise fail("points", f"at most {MAX_POINTS:,} points", f"{len(points):,}", "Send fewer points.")
    if not isinstance(labels, list):
        raise fail("labels", "a list of labels, 1 or -1", type(labels).__name__ if labels is not None else "nothing",
                   'Send "labels": [1, -1] with one label per point.')
    if len(labels) != len(points):
        raise fail("labels", f"{len(points)} labels, one per point", f"{len(labels)}",
                   "Send one label (1 or -1) per point.")
    if not all(type(point) is list and len(point) == 2 for point in points):
        for i, point in enumerate(points):
            if not isinstance(point, list | tuple) or len(point) != 2:
                got = f"{len(point)} numbers" if isinstance(point, list | tuple) else repr(point)[:40]
                raise fail(f"points[{i}]", "a pair [x, y]", got, "The lab works in the plane: send two coordinates.")
    if all(type(label) is int and (label == 1 or label == -1) for label in labels):
        signs = list(labels)
    else:
        signs = []
        for i, label in enumerate(labels):
            if isinstance(label, bool) or not isinstance(label, numbers.Real | Decimal) or label not in (1, -1):
                raise fail(f"labels[{i}]", "1 or -1", repr(label)[:40], "Label every point +1 or -1.")
            signs.append(1 if label == 1 else -1)
    return Points(points), signs, parse_options(payload.get("options") or {}, len(points))


def _exact_cell(value: Any, i: int, j: int) -> Fraction:
    where = f"points[{i}][{j}]"
    _within_range(value, where)
    return _number(value, where)


class Points:
    """The request's points as floats (always) and as Fractions (built only when needed).

    Plain ints and floats (what JSON and the widget send) take a vectorised path; strings such
    as ``"1/3"`` and Decimals are read exactly, one by one.
    """

    def __init__(self, raw: list):
        self.raw = raw
        self._fractions: list[list[Fraction]] | None = None
        plain = all(type(c) is int or type(c) is float for point in raw for c in point)
        if plain:
            try:
                floats = np.array(raw, dtype=np.float64).reshape(len(raw), 2)
            except OverflowError:  # an integer beyond float range: name the cell
                for i, point in enumerate(raw):
                    for j, c in enumerate(point):
                        _within_range(c, f"points[{i}][{j}]")
                raise
            bad = ~np.isfinite(floats) | (np.abs(floats) > MAX_COORDINATE)
            if bad.any():
                i, j = (int(k) for k in np.argwhere(bad)[0])
                _within_range(raw[i][j], f"points[{i}][{j}]")
                _number(raw[i][j], f"points[{i}][{j}]")  # raises the message for that cell
        else:
            self._fractions = [[_exact_cell(c, i, j) for j, c in enumerate(point)] for i, point in enumerate(raw)]
            floats = np.array([[float(c) for c in row] for row in self._fractions], dtype=np.float64)
        self.floats = floats
        if self._fractions is not None:
            self.on_grid = all((2 * c).denominator == 1 for row in self._fractions for c in row)
        else:
            twice = floats * 2
            self.on_grid = bool(np.all(twice == np.round(twice)))

    def __len__(self) -> int:
        return self.floats.shape[0]

    def fractions(self) -> list[list[Fraction]]:
        if self._fractions is None:
            self._fractions = [[_exact_cell(c, i, j) for j, c in enumerate(point)] for i, point in enumerate(self.raw)]
        return self._fractions

    def rows(self, exact: bool, order: list[int] | None = None, lift: bool = False):
        """The rows for the engine or the theory: Fractions when exact, else a float array."""
        if exact:
            rows = self.fractions()
            rows = rows if order is None else [rows[i] for i in order]
            return [[Fraction(1), *row] for row in rows] if lift else rows
        X = self.floats if order is None else self.floats[order]
        return np.hstack([np.ones((X.shape[0], 1)), X]) if lift else np.ascontiguousarray(X)


def parse_options(options: Any, n_points: int) -> dict:
    """Fill in the defaults of :data:`OPTION_DEFAULTS` and check every option."""
    if not isinstance(options, Mapping):
        raise fail("options", "an object", type(options).__name__, 'Send "options": {} for the defaults.')
    unknown = sorted(set(options) - set(OPTION_DEFAULTS))
    if unknown:
        raise fail("options", "only the keys " + ", ".join(OPTION_DEFAULTS), f"unknown key {unknown[0]!r}",
                   "Remove it or fix its spelling.")
    opts = {**OPTION_DEFAULTS, **options}
    if opts["order"] not in ORDERS:
        raise fail("options.order", "one of " + ", ".join(repr(o) for o in ORDERS), repr(opts["order"])[:40],
                   'Send "order": "cyclic".')
    if opts["check"] not in POCKET_CHECKS:
        raise fail("options.check", "one of " + ", ".join(repr(c) for c in POCKET_CHECKS), repr(opts["check"])[:40],
                   'Send "check": "update".')
    if opts["arithmetic"] not in ARITHMETIC:
        raise fail("options.arithmetic", "one of " + ", ".join(repr(a) for a in ARITHMETIC),
                   repr(opts["arithmetic"])[:40], 'Send "arithmetic": "auto".')
    for name in ("fit_intercept", "pocket"):
        opts[name] = _flag(opts[name], name)
    _within_range(opts["eta"], "options.eta")
    opts["eta"] = _number(opts["eta"], "options.eta")
    if opts["eta"] <= 0:
        raise fail("options.eta", "a number > 0", format_number(opts["eta"]),
                   "Use η = 1: from w = 0 any η > 0 gives the same mistakes.")
    _within_range(opts["margin"], "options.margin")
    opts["margin"] = _number(opts["margin"], "options.margin")
    if opts["margin"] < 0:
        raise fail("options.margin (rho0)", "a number >= 0", format_number(opts["margin"]),
                   "Use ρ₀ = 0 for the plain perceptron.")
    opts["max_sweeps"] = _integer(opts["max_sweeps"], "max_sweeps", 1, MAX_SWEEPS)
    opts["seed"] = _integer(opts["seed"], "seed", 0, 2**32 - 1)
    sequence = opts["sequence"]
    if not isinstance(sequence, list):
        raise fail("options.sequence", "a list of point indices", type(sequence).__name__,
                   'Send "sequence": [2, 0, 1] with order "pick".')
    seen: set[int] = set()
    for position, index in enumerate(sequence):
        if isinstance(index, bool) or not isinstance(index, numbers.Integral) or not 0 <= int(index) < n_points:
            raise fail(f"options.sequence[{position}]", f"a point index from 0 to {n_points - 1}",
                       repr(index)[:40], "Pick only existing points.")
        if index in seen:
            raise fail(f"options.sequence[{position}]", "each point at most once", f"point {index} again",
                       "Remove the repeated index.")
        seen.add(int(index))
    opts["sequence"] = [int(i) for i in sequence]
    if opts["arithmetic"] == "exact" and n_points > EXACT_MAX_POINTS:
        raise fail("options.arithmetic", f"'exact' with at most {EXACT_MAX_POINTS} points", f"{n_points} points",
                   'Choose auto or float arithmetic ("arithmetic": "auto").')
    return opts


def use_exact(points: Points, opts: dict) -> bool:
    """The arithmetic of the run: exact on the half-integer grid (hand-checkable), else floats.

    Exact arithmetic is only used where it is cheap: every coordinate, η and ρ₀ must share a
    common denominator below :data:`EXACT_DENOMINATOR` ("auto" then falls back to floats, and an
    explicit "exact" is refused with the budget in the message).

    >>> opts = {"arithmetic": "exact", "eta": Fraction(1), "margin": Fraction(0)}
    >>> use_exact(Points([["1/3", "1/7"]]), opts)
    True
    >>> use_exact(Points([["1/123456789012", "1/987654321098"]]), opts)
    Traceback (most recent call last):
    ...
    perceptronlab.exceptions.InputError: options.arithmetic: expected 'exact' only for numbers with a common denominator of at most 18 digits (the lab's budget for exact arithmetic), got a common denominator of more than 18 digits. Choose float arithmetic ("arithmetic": "float"), or round the coordinates (e.g. to 6 decimals).
    """
    if opts["arithmetic"] == "float":
        return False
    if opts["arithmetic"] == "auto" and not (len(points) <= EXACT_AUTO_POINTS and points.on_grid):
        return False
    numbers = [opts["eta"], opts["margin"], *(c for row in points.fractions() for c in row)]
    if _common_denominator(numbers, EXACT_DENOMINATOR) is not None:
        return True
    if opts["arithmetic"] == "auto":
        return False
    digits = len(str(EXACT_DENOMINATOR)) - 1
    raise fail("options.arithmetic", f"'exact' only for numbers with a common denominator of at most {digits} digits "
               "(the lab's budget for exact arithmetic)", f"a common denominator of more than {digits} digits",
               'Choose float arithmetic ("arithmetic": "float"), or round the coordinates (e.g. to 6 decimals).')


def _common_denominator(values: list[Fraction], limit: int) -> int | None:
    """The least common multiple of the denominators, or None as soon as it exceeds ``limit``."""
    common = 1
    for value in values:
        denominator = value.denominator
        if common % denominator:
            common = common // math.gcd(common, denominator) * denominator
            if common > limit:
                return None
    return common


# ---------------------------------------------------------------- display texts


def _count(n: int, word: str) -> str:
    """``1 mistake``, ``2 mistakes``, ``1,000 sweeps``.

    >>> _count(1, "mistake"), _count(0, "error"), _count(12000, "step")
    ('1 mistake', '0 errors', '12,000 steps')
    """
    return f"{n:,} {word}" + ("" if n == 1 else "s")


def _names(indices: list[int]) -> str:
    """Points as the page names them (x1 … xn), never 0-based indices: [0, 4] -> 'x1, x5'."""
    shown = ", ".join(f"x{i + 1}" for i in indices[:12])
    return shown + (f" and {len(indices) - 12} more" if len(indices) > 12 else "")


def _decimal(value: float) -> str:
    return f"{value:.4g}"


def _card_number(value: Any) -> str:
    """A card's big number: the exact fraction on the grid (27/2), else 4 significant digits."""
    return format_number(value) if isinstance(value, Fraction) else _decimal(float(value))


def _approx(value: Any) -> str:
    """'≈ 13.5 · ' for a non-integer fraction (the decimal goes in the card's small print)."""
    if isinstance(value, Fraction) and value.denominator != 1:
        return f"≈ {_decimal(float(value))} · "
    return ""


def _w_text(w: Any, b: Any, fit_intercept: bool) -> str:
    text = format_vector(w)
    return text + f", b = {format_number(b)}" if fit_intercept else text


# ---------------------------------------------------------------- running the engine


def _engine_order(opts: dict, n: int) -> tuple[str, list[int] | None]:
    """The engine's order, and for "pick" the full visiting order (the picks, then the rest)."""
    if opts["order"] != "pick":
        return opts["order"], None
    picked = list(opts["sequence"])
    chosen = set(picked)
    return "cyclic", picked + [i for i in range(n) if i not in chosen]


def _run(X, y, opts: dict, exact: bool, order: str, max_sweeps: int, trace: bool, max_updates=None):
    from perceptronlab import perceptron, pocket

    common = dict(eta=opts["eta"] if exact else float(opts["eta"]), fit_intercept=opts["fit_intercept"],
                  order=order, max_sweeps=max_sweeps, seed=opts["seed"], exact=exact, trace=trace, n_jobs=1)
    if opts["pocket"]:
        return pocket(X, y, check=opts["check"], max_updates=max_updates, **common)
    margin = opts["margin"] if exact else float(opts["margin"])
    return perceptron(X, y, margin=margin, warn=False, **common)


def _traced_runs(X, y, opts: dict, exact: bool, order: str, n: int):
    """The traced run, the whole run (the same object when the trace covers it) and a note.

    Work is counted in scored points: a cyclic or shuffled step scores one point; random-mistake
    and Pocket score every point at each update. The trace stays within :data:`TRACE_STEPS`
    (:data:`TRACE_WORK` for the scoring orders), exact runs within :data:`EXACT_WORK`, and the
    compiled whole run within :data:`WHOLE_WORK`; the note says when a limit cut a run short.
    """
    max_sweeps, pocket = opts["max_sweeps"], opts["pocket"]
    scoring = pocket or order == "random-mistake"

    def limits(work: int) -> tuple[int, int | None]:
        if not scoring:
            return min(max_sweeps, max(1, work // n)), None
        updates = max(1, work // n)
        return (max_sweeps, updates) if pocket else (min(max_sweeps, max(1, updates // n)), None)

    def capped(run, sweeps: int, updates: int | None) -> bool:
        if run.converged or run.cycled:
            return False
        return (sweeps < max_sweeps and run.sweeps >= sweeps) or (updates is not None and run.mistakes >= updates)

    if exact:
        sweeps, updates = limits(EXACT_WORK)
        run = _run(X, y, opts, exact, order, sweeps, trace=True, max_updates=updates)
        note = ("Exact arithmetic stops after " + (_count(updates, "update") if updates else _count(sweeps, "sweep"))
                + f" for {_count(n, 'point')}; choose float arithmetic for a longer run.") if capped(run, sweeps, updates) else ""
        return run, run, note
    whole_sweeps, whole_updates = limits(WHOLE_WORK)
    if scoring and not pocket and n * n > TRACE_WORK:
        whole = _run(X, y, opts, exact, order, whole_sweeps, trace=False)
        note = (f"Random-mistake order with {_count(n, 'point')} is not traced (each update scores every point); "
                "the final w and the cards come from the whole run.")
        return None, whole, note
    sweeps, updates = limits(TRACE_WORK if scoring else TRACE_STEPS)
    traced = _run(X, y, opts, exact, order, sweeps, trace=True, max_updates=updates)
    if not capped(traced, sweeps, updates):
        return traced, traced, ""
    whole = _run(X, y, opts, exact, order, whole_sweeps, trace=False, max_updates=whole_updates)
    note = (f"The first {_count(len(traced.steps), 'step')} are traced; the cards and the final w come from the "
            f"whole run ({_count(whole.sweeps, 'sweep')}, {_count(whole.mistakes, 'update')}).")
    if capped(whole, whole_sweeps, whole_updates):
        note += " The lab stopped that run early; use the Python API or the CLI for longer runs."
    return traced, whole, note


def _wrong_lists(X, signs, history_w, history_b, exact: bool) -> list[list[int] | None]:
    """For every weight vector of the run: the points with y(⟨w,x⟩ + b) ≤ 0 (the engine's margins).

    Listed while n·(vectors) stays within :data:`WRONG_WORK` (a tenth of it in exact arithmetic);
    later vectors get ``None`` and the page then marks nothing.
    """
    from perceptronlab.core.scores import margins

    n = len(signs)
    y = list(signs) if exact else np.asarray(signs, dtype=np.float64)
    budget = (WRONG_WORK // 10 if exact else WRONG_WORK) // max(1, n)
    out: list[list[int] | None] = []
    for k, (w, b) in enumerate(zip(history_w, history_b, strict=True)):
        if k >= budget:
            out.append(None)
            continue
        scores = margins(X, y, w if exact else np.asarray(w, dtype=np.float64), b)
        out.append(np.flatnonzero(np.asarray(scores <= 0, dtype=bool)).tolist())
    return out


def _float_texts(values: np.ndarray) -> list[str]:
    """``format_number`` for many floats at once (integers without ".0", else the shortest repr)."""
    return [str(int(v)) if v.is_integer() and abs(v) < 1e15 else repr(v) for v in values.tolist()]


def _trace_columns(run, sequence: list[int] | None, fit_intercept: bool, d: int):
    """The step trace as columns, and every weight vector the run went through (w₀ = 0 first)."""
    steps = run.steps or []
    zero = Fraction(0) if run.exact else 0.0
    history_w: list[tuple] = [tuple([zero] * d)]
    history_b: list[Any] = [zero]
    updates = []
    for step in steps:
        if step.mistake:
            history_w.append(step.w)
            history_b.append(step.b)
        updates.append(len(history_w) - 1)
    index = [step.index for step in steps]
    if sequence is not None:
        index = [sequence[i] for i in index]
    scores = np.array([float(step.score) for step in steps], dtype=np.float64)
    score_text = [format_number(step.score) for step in steps] if run.exact else _float_texts(scores)
    columns = {"count": len(steps), "sweep": [step.sweep for step in steps], "index": index,
               "score": scores.tolist(), "score_text": score_text,
               "mistake": [bool(step.mistake) for step in steps], "updates": updates}
    if run.exact:
        w_text = [_w_text(w, b, fit_intercept) for w, b in zip(history_w, history_b, strict=True)]
    else:
        w_floats = np.array(history_w, dtype=np.float64).reshape(len(history_w), d)
        parts = [_float_texts(w_floats[:, j]) for j in range(d)]
        w_text = ["(" + ", ".join(column[k] for column in parts) + ")" for k in range(len(history_w))]
        if fit_intercept:
            b_text = _float_texts(np.asarray(history_b, dtype=np.float64))
            w_text = [f"{text}, b = {bt}" for text, bt in zip(w_text, b_text, strict=True)]
    weights = {"w": np.array(history_w, dtype=np.float64).reshape(len(history_w), d).tolist(),
               "b": [float(b) for b in history_b], "text": w_text}
    return columns, weights, history_w, history_b


def _log_tail(run, columns: dict) -> dict:
    """How the worksheet ends, as :meth:`Run.worksheet_rows` writes it.

    A converged run's last clean sweep is one row ``(sweep, all, scores, no, stop)``; a cycle or
    the sweep limit adds a closing row. ``collapse_from`` is the first step of that clean sweep.
    """
    collapse_from, final_row = None, None
    if run.algorithm == "perceptron" and run.converged and run.steps:
        collapse_from = columns["sweep"].index(run.sweeps)
        scores = ", ".join(columns["score_text"][collapse_from:])
        final_row = [str(run.sweeps), "all", scores, "no", "stop"]
    elif run.cycled:
        final_row = [str(run.sweeps + 1), "all", "", "", "cycle: w repeats, never converges"]
    elif not run.converged:
        final_row = [str(run.sweeps), "", "", "", "sweep limit reached"]
    return {"collapse_from": collapse_from, "final_row": final_row}


# ---------------------------------------------------------------- the theory cards


def _fmt_vector(values: Any) -> str:
    return "(" + ", ".join(_decimal(float(v)) for v in values) + ")"


def _theory(points: Points, signs, exact: bool, fit_intercept: bool, eta: Fraction, margin: Fraction,
            proof=None):
    """The cards R, ρ*, the bound and separability, and the max-margin line (theory toolkit calls).

    With the bias trick the perceptron runs on (1, x): Novikoff's bound then uses R and ρ* of those
    augmented points (the best margin of a plane through the origin of R³), so that is what the
    cards show; the drawn line is that plane's trace ⟨w, x⟩ + b = 0.

    ``proof`` is a converged run: its final weights separate every point strictly, which settles
    separability without the linear program (Gordan's certificate is only needed when a run fails).
    """
    from perceptronlab import bounds
    from perceptronlab.theory.geometry import max_margin, radius, radius_squared
    from perceptronlab.theory.separability import separable

    X = points.rows(exact)
    y = np.asarray(signs, dtype=np.int64)
    r_value = float(radius(X, fit_intercept=fit_intercept))
    r_square = radius_squared(X, fit_intercept=fit_intercept)
    aug = " of (1, x)" if fit_intercept else ""
    if isinstance(r_square, Fraction):
        card_r: dict[str, Any] = {"value": r_value, "text": sqrt_text(r_square),
                  "detail": f"R² = {format_number(r_square)}: the largest ‖x‖²{aug}"}
        if math.isqrt(r_square.numerator) ** 2 != r_square.numerator or r_square.denominator != 1:
            card_r["detail"] += f" · R ≈ {_decimal(r_value)}"
    else:
        card_r = {"value": r_value, "text": _decimal(r_value),
                  "detail": f"R² = {_decimal(float(r_square))}: the largest ‖x‖²{aug}"}

    if proof is not None:
        is_separable = True
        card_sep = {"separable": True, "text": "separable",
                    "detail": f"the run's final w = {_w_text(proof.w, proof.b, fit_intercept)} puts every "
                              "point strictly on its side",
                    "certificate": [], "certificate_weights": []}
    else:
        sep = separable(X, y, fit_intercept=fit_intercept)
        is_separable = bool(sep.separable)
        support = _indices(sep.support)
        weights = []
        if not sep.separable and sep.certificate is not None:
            weights = [format_number(sep.certificate[i]) if sep.exact else _decimal(float(sep.certificate[i]))
                       for i in support]
        card_sep = {"separable": is_separable,
                    "text": "separable" if is_separable else "not separable",
                    "detail": str(sep.message) if is_separable else _gordan_text(points, support, weights, sep.exact,
                                                                                  fit_intercept),
                    "certificate": [] if is_separable else support,
                    "certificate_weights": weights}
        if not is_separable:
            card_sep["remedy"] = "Switch on pocket: it keeps the best weights seen."

    where = "plane through the origin of (1, x)" if fit_intercept else "line through the origin"
    card_rho: dict[str, Any] = {"value": None, "text": "none", "detail": f"no {where} separates the data"}
    card_bound: dict[str, Any] = {"value": None, "text": "∞", "detail": "no mistake bound: the data is not separable"}
    mm = None
    if is_separable:
        lifted = points.rows(exact, lift=True) if fit_intercept else X
        try:
            best = max_margin(lifted, y)
        except NotSeparableError:
            best = None
        if best is not None and best.rho > 0:
            rho = float(best.rho)
            rho_square = best.rho_squared
            w_star = _fmt_vector(best.w[1:] if fit_intercept else best.w)
            if fit_intercept:
                w_star += f", b* = {_decimal(float(best.w[0]))}"
            exact_square = rho_square if isinstance(rho_square, Fraction) and isinstance(r_square, Fraction) else None
            exact_pair = exact_square is not None
            card_rho = {"value": rho, "text": sqrt_text(exact_square) if exact_square is not None else _decimal(rho),
                        "detail": (f"ρ*² = {format_number(rho_square)} · ρ* ≈ {_decimal(rho)}" if exact_pair
                                   else f"ρ*² ≈ {_decimal(rho * rho)}") + f" · unit w* = {w_star}"}
            if not exact_pair:
                rho_square, r_square = float(rho_square), float(r_square)
            bound = bounds.novikoff(r_square, rho_square, squared=True)
            card_bound = {"value": float(bound), "text": _card_number(bound),
                          "detail": _approx(bound) + "Novikoff (1962): at most R²/ρ*² mistakes, in any order"}
            if margin > 0:
                # updates while y⟨w,x⟩ ≤ ρ₀ with step η: the same as ρ₀/η with step 1
                rho0 = margin / eta if exact_pair else float(margin) / float(eta)
                margin_bound = bounds.margin_perceptron(r_square, rho_square, rho0, squared=True)
                card_bound.update(value=float(margin_bound), text=_card_number(margin_bound),
                                  detail=_approx(margin_bound) + f"margin perceptron, ρ₀ = {format_number(margin)}: "
                                         "at most (R² + 2ρ₀/η)/ρ*² updates")
            w_line = [float(c) for c in (best.w[1:] if fit_intercept else best.w)]
            b_line = float(best.w[0]) if fit_intercept else 0.0
            mm = {"w": w_line, "b": b_line, "band": rho, "rho": rho, "support": _indices(best.support)}
    return {"R": card_r, "rho": card_rho, "bound": card_bound, "separable": card_sep}, mm


def _gordan_text(points: Points, support: list[int], weights: list[str], exact: bool, fit_intercept: bool) -> str:
    """Gordan's certificate in the page's words: the points by their x-names, the weights, the verdict."""
    where = "plane through the origin of (1, x)" if fit_intercept else "line through the origin"
    if len(support) == 1 and not fit_intercept and not points.floats[support[0]].any():
        return (f"{_names(support)} is the origin: every line through the origin passes through it, so none "
                "puts it strictly on its side. The perceptron never converges on this data.")
    if not weights:
        return f"No {where} puts every point strictly on its side. The perceptron never converges on this data."
    identity = "Σ αᵢyᵢxᵢ = 0" + (" and Σ αᵢyᵢ = 0" if fit_intercept else "")
    shown = ", ".join(weights[:12]) + (", …" if len(weights) > 12 else "")
    return (f"{_names(support)} with weights α = {shown} give {identity}: no {where} puts all of them strictly "
            f"on their side (Gordan's theorem{', checked exactly' if exact else ''}). "
            "The perceptron never converges on this data.")


def _indices(value: Any) -> list[int]:
    if value is None:
        return []
    if isinstance(value, Mapping):
        value = list(value)
    try:
        return sorted({int(i) for i in np.asarray(value).ravel().tolist()})
    except (TypeError, ValueError):
        return []


# ---------------------------------------------------------------- the one entry point


def compute(payload: Any) -> dict:
    """Run the lab on one request and return the whole answer (see the module docstring).

    Raises
    ------
    perceptronlab.InputError
        Bad request: the message says what, expected, got, and how to fix it.

    Examples
    --------
    The seeds' exam task:

    >>> answer = compute({"points": [[1, 0], [1, 1], [0, 1]], "labels": [1, -1, -1]})
    >>> answer["run"]["mistakes"], answer["run"]["w_text"], answer["cards"]["bound"]["text"]
    (5, '(1, -2)', '10')
    """
    # a lab request is small: thread start-up would cost more than it saves (requests run side by side)
    with numba_threads(1):
        return _compute(payload)


def _compute(payload: Any) -> dict:
    points, signs, opts = parse_request(payload)
    n, d = len(points), 2
    exact = use_exact(points, opts)
    fit = opts["fit_intercept"]
    order, sequence = _engine_order(opts, n)
    X = points.rows(exact, sequence)
    y = np.asarray(signs if sequence is None else [signs[i] for i in sequence], dtype=np.int64)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        traced, whole, note = _traced_runs(X, y, opts, exact, order, n)
    complete = traced is whole
    if traced is not None:
        columns, weights, history_w, history_b = _trace_columns(traced, sequence, fit, d)
    else:
        columns = {"count": 0, "sweep": [], "index": [], "score": [], "score_text": [], "mistake": [],
                   "updates": []}
        history_w, history_b = [(0.0, 0.0)], [0.0]
        weights = {"w": [[0.0, 0.0]], "b": [0.0], "text": [_w_text((0, 0), 0, fit)]}
    weights["wrong"] = _wrong_lists(points.rows(exact), signs, history_w, history_b, exact)

    if whole.algorithm == "pocket":
        state = ("found weights with 0 errors" if whole.converged
                 else f"the pocket keeps the best weights seen: {_count(whole.pocket_errors, 'error')}")
    else:
        state = ("converged" if whole.converged else "cycled: the weights repeat, it never converges"
                 if whole.cycled else "stopped at the sweep limit")
    proof = whole if whole.converged and whole.algorithm == "perceptron" else None
    cards, mm = _theory(points, signs, exact, fit, opts["eta"], opts["margin"], proof)
    mistakes = int(whole.mistakes)
    bound = cards["bound"]["value"]
    within = None if bound is None else mistakes <= bound * (1 + 1e-12)
    cards["mistakes"] = {
        "value": mistakes, "bound": bound, "within": within, "text": str(mistakes),
        "detail": ("no bound: not separable" if bound is None else
                   f"≤ {cards['bound']['text'].split(' ≈')[0]}, within the bound" if within
                   else f"above {cards['bound']['text'].split(' ≈')[0]}"),
    }
    if whole.algorithm == "pocket":
        cards["mistakes"]["detail"] = f"updates; the pocket's weights make {_count(whole.pocket_errors, 'error')}"

    norms = traced.norms.tolist() if traced is not None else []
    r_value, rho_value = cards["R"]["value"], cards["rho"]["value"]
    eta, margin = float(opts["eta"]), float(opts["margin"])
    ks = np.arange(len(norms) + 1, dtype=np.float64)
    squeeze = {"norms": [0.0, *norms],
               # ‖w_k‖² ≤ k(η²R² + 2ηρ₀) and ‖w_k‖ ≥ ⟨w*, w_k⟩ ≥ kηρ* (Novikoff's two steps)
               "upper": np.sqrt(ks * (eta * eta * r_value * r_value + 2 * eta * margin)).tolist(),
               "lower": (ks * eta * rho_value).tolist() if rho_value else None,
               "bound": bound}
    return {
        "n": n,
        "exact": exact,
        "options": {**opts, "eta": format_number(opts["eta"]), "margin": format_number(opts["margin"])},
        "visit_order": sequence,
        "run": {
            "algorithm": whole.algorithm,
            "mistakes": mistakes,
            "sweeps": int(whole.sweeps),
            "converged": bool(whole.converged),
            "cycled": bool(whole.cycled),
            "state": state,
            "summary": whole.summary(),
            "w": [float(c) for c in whole.w],
            "b": float(whole.b),
            "w_text": _w_text(whole.w, whole.b, fit),
            "pocket_errors": None if whole.pocket_errors is None else int(whole.pocket_errors),
            "steps": columns,
            "weights": weights,
            "log": _log_tail(traced, columns) if complete else {"collapse_from": None, "final_row": None},
            "complete": complete,
        },
        "cards": cards,
        "max_margin": mm,
        "plots": {"squeeze": squeeze, "errors": whole.errors_after_sweep.tolist(),
                  "pocket": whole.pocket_history.tolist() if whole.pocket_history is not None else None},
        "limits": {"traced_steps": columns["count"], "complete": complete, "note": note},
    }


def compute_body(body: bytes) -> dict:
    """:func:`compute` on a raw JSON body (the server's entry): size limit, then JSON, then checks."""
    return compute(parse_body(body))
