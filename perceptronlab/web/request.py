"""A lab request checked at the boundary: the points, the labels, the options and the limits.

Every message says what was wrong, what was expected, what came and how to fix it (the checks of
:mod:`perceptronlab._ground.validation` where they apply). The request's shape and the options are
described in :mod:`perceptronlab.web.api`.
"""

from __future__ import annotations

import json
import math
import numbers
from collections.abc import Mapping
from decimal import Decimal
from fractions import Fraction
from typing import Any

from perceptronlab._ground.checks import POCKET_CHECKS, check_flag, check_int_between
from perceptronlab._ground.numbers import format_number, parse_exact
from perceptronlab.exceptions import InputError, fail

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


def parse_body(body: bytes) -> dict:
    """Decode a JSON request body (at most :data:`MAX_BODY_BYTES`); NaN and Infinity are refused.

    JSON numbers become ints and floats; a float counts as the decimal it spells (its shortest
    repr), so ``0.5`` is exactly 1/2.

    >>> parse_body(b'{"points": [[0.5, 1]], "labels": [1]}')["points"]
    [[0.5, 1]]
    """
    if len(body) > MAX_BODY_BYTES:
        raise fail(
            "request",
            f"at most {MAX_BODY_BYTES:,} bytes",
            f"{len(body):,} bytes",
            f"Send at most {MAX_POINTS:,} points.",
        )

    def no_constants(name: str) -> Any:
        raise fail("request", "finite numbers", name, "Remove NaN and infinite coordinates.")

    def bounded_int(text: str) -> int:
        # Python refuses to convert more than 4,300 digits (with advice about sys); say it our way
        digits = len(text.lstrip("-"))
        if digits > MAX_INT_DIGITS:
            raise fail(
                "request",
                f"integers of at most {MAX_INT_DIGITS:,} digits",
                f"an integer of {digits:,} digits",
                f"Rescale the data: coordinates lie within ±{MAX_COORDINATE:,}.",
            )
        return int(text)

    try:
        data = json.loads(body, parse_constant=no_constants, parse_int=bounded_int)
    except (ValueError, RecursionError) as exc:
        if isinstance(exc, InputError):
            raise
        raise fail(
            "request",
            "a JSON object",
            f"invalid JSON ({exc})",
            'Send {"points": [[x, y], ...], "labels": [1, -1, ...], "options": {}}.',
        ) from None
    return data


def _exact_number(value: Any, where: str) -> Fraction:
    """An exact number from a JSON value: int, decimal, float (as its shortest decimal) or string."""
    if isinstance(value, str) and (not value.strip() or len(value.strip()) > 40):
        raise fail(
            where,
            "a number or a fraction like '1/2' (at most 40 characters)",
            repr(value[:50]),
            "Fix the value.",
        )
    number = parse_exact(
        value,
        where,
        floats="decimal",
        expected="a number or a fraction like '1/2'",
        fix="Use numbers like 1, -0.5 or '1/2'.",
    )
    if abs(number) > MAX_COORDINATE:
        raise fail(
            where,
            f"a number between -{MAX_COORDINATE:,} and {MAX_COORDINATE:,}",
            format_number(number),
            "Rescale the data.",
        )
    if (
        isinstance(value, str | Decimal)
        and "/" not in str(value)
        and 0 < abs(number) < Fraction(1, 10**15)
    ):
        raise fail(
            where,
            "a number with at most 15 decimal places",
            str(value).strip(),
            "Round the value or rescale the data.",
        )
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
    raise fail(
        where,
        f"a number between -{MAX_COORDINATE:,} and {MAX_COORDINATE:,}",
        got,
        "Rescale the data.",
    )


def _json_int(value: Any) -> Any:
    """A JSON number that spells an integer (``3`` or ``3.0`` read as a Decimal) as an int."""
    if isinstance(value, Decimal) and value == value.to_integral_value():
        return int(value)
    return value


def parse_request(payload: Any) -> tuple[Points, list[int], dict]:
    """Validate a request; return (the points, labels in {-1, +1}, options with their defaults).

    >>> points, labels, options = parse_request({"points": [[1, 0], ["1/2", 1]], "labels": [1, -1]})
    >>> [[str(c) for c in p] for p in points.fractions()], points.on_grid, labels, options["order"]
    ([['1', '0'], ['1/2', '1']], True, [1, -1], 'cyclic')
    """
    points, labels = _points_and_labels(payload)
    _check_pairs(points)
    signs = _signs(labels)
    return Points(points), signs, parse_options(payload.get("options") or {}, len(points))


def _points_and_labels(payload: Any) -> tuple[list, list]:
    """The request's points and labels: lists of the same length, within :data:`MAX_POINTS`."""
    if not isinstance(payload, Mapping):
        raise fail(
            "request",
            "a JSON object with points, labels and options",
            type(payload).__name__,
            'Send {"points": [[x, y], ...], "labels": [1, -1, ...], "options": {}}.',
        )
    unknown = sorted(set(payload) - set(REQUEST_KEYS))
    if unknown:
        raise fail(
            "request",
            "the keys points, labels, options",
            f"unknown key {unknown[0]!r}",
            'Remove it (options go inside "options").',
        )
    points = payload.get("points")
    labels = payload.get("labels")
    if not isinstance(points, list):
        raise fail(
            "points",
            "a list of [x, y] pairs",
            type(points).__name__ if points is not None else "nothing",
            'Send "points": [[1, 0], [1, 1]].',
        )
    if not points:
        raise fail("points", "at least one point", "none", "Add a point (click in the plane).")
    if len(points) > MAX_POINTS:
        raise fail(
            "points", f"at most {MAX_POINTS:,} points", f"{len(points):,}", "Send fewer points."
        )
    if not isinstance(labels, list):
        raise fail(
            "labels",
            "a list of labels, 1 or -1",
            type(labels).__name__ if labels is not None else "nothing",
            'Send "labels": [1, -1] with one label per point.',
        )
    if len(labels) != len(points):
        raise fail(
            "labels",
            f"{len(points)} labels, one per point",
            f"{len(labels)}",
            "Send one label (1 or -1) per point.",
        )
    return points, labels


def _check_pairs(points: list) -> None:
    """Every point a pair [x, y]."""
    if not all(type(point) is list and len(point) == 2 for point in points):
        for i, point in enumerate(points):
            if not isinstance(point, list | tuple) or len(point) != 2:
                got = (
                    f"{len(point)} numbers" if isinstance(point, list | tuple) else repr(point)[:40]
                )
                raise fail(
                    f"points[{i}]",
                    "a pair [x, y]",
                    got,
                    "The lab works in the plane: send two coordinates.",
                )


def _signs(labels: list) -> list[int]:
    """The labels as ints in {-1, +1} (1.0 and Decimal 1 count as 1)."""
    if all(type(label) is int and (label == 1 or label == -1) for label in labels):
        return list(labels)
    signs = []
    for i, label in enumerate(labels):
        if (
            isinstance(label, bool)
            or not isinstance(label, numbers.Real | Decimal)
            or label not in (1, -1)
        ):
            raise fail(f"labels[{i}]", "1 or -1", repr(label)[:40], "Label every point +1 or -1.")
        signs.append(1 if label == 1 else -1)
    return signs


def _exact_cell(value: Any, i: int, j: int) -> Fraction:
    where = f"points[{i}][{j}]"
    _within_range(value, where)
    return _exact_number(value, where)


class Points:
    """The request's points as floats (always) and as Fractions (built only when needed).

    Plain ints and floats (what JSON and the widget send) take a vectorised path; strings such
    as ``"1/3"`` and Decimals are read exactly, one by one.
    """

    def __init__(self, raw: list):
        self.raw = raw
        self._fractions: list[list[Fraction]] | None = None
        self._array: Any = None
        plain = all(type(c) is int or type(c) is float for point in raw for c in point)
        if plain:
            for i, point in enumerate(raw):
                for j, c in enumerate(point):
                    if not -MAX_COORDINATE <= c <= MAX_COORDINATE:  # NaN fails too
                        _within_range(c, f"points[{i}][{j}]")
                        _exact_number(c, f"points[{i}][{j}]")  # raises the message for that cell
            self.float_rows = [(float(x), float(y)) for x, y in raw]
            self.on_grid = all((2 * c).is_integer() for row in self.float_rows for c in row)
        else:
            self._fractions = [
                [_exact_cell(c, i, j) for j, c in enumerate(point)] for i, point in enumerate(raw)
            ]
            self.float_rows = [(float(x), float(y)) for x, y in self._fractions]
            self.on_grid = all((2 * c).denominator == 1 for row in self._fractions for c in row)

    @property
    def floats(self):
        """The points as an (n, 2) float array (NumPy, for the server's float path)."""
        if self._array is None:
            import numpy as np

            self._array = np.array(self.float_rows, dtype=np.float64).reshape(len(self.raw), 2)
        return self._array

    def __len__(self) -> int:
        return len(self.raw)

    def fractions(self) -> list[list[Fraction]]:
        if self._fractions is None:
            self._fractions = [
                [_exact_cell(c, i, j) for j, c in enumerate(point)]
                for i, point in enumerate(self.raw)
            ]
        return self._fractions

    def rows(self, exact: bool, order: list[int] | None = None, lift: bool = False):
        """The rows for the engine or the theory: Fractions when exact, else a float array."""
        if exact:
            rows = self.fractions()
            rows = rows if order is None else [rows[i] for i in order]
            return [[Fraction(1), *row] for row in rows] if lift else rows
        import numpy as np

        X = self.floats if order is None else self.floats[order]
        return np.hstack([np.ones((X.shape[0], 1)), X]) if lift else np.ascontiguousarray(X)


def parse_options(options: Any, n_points: int) -> dict:
    """Fill in the defaults of :data:`OPTION_DEFAULTS` and check every option."""
    if not isinstance(options, Mapping):
        raise fail(
            "options", "an object", type(options).__name__, 'Send "options": {} for the defaults.'
        )
    unknown = sorted(set(options) - set(OPTION_DEFAULTS))
    if unknown:
        raise fail(
            "options",
            "only the keys " + ", ".join(OPTION_DEFAULTS),
            f"unknown key {unknown[0]!r}",
            "Remove it or fix its spelling.",
        )
    opts = {**OPTION_DEFAULTS, **options}
    _check_choices(opts)
    _check_numbers(opts)
    opts["sequence"] = _checked_sequence(opts["sequence"], n_points)
    if opts["arithmetic"] == "exact" and n_points > EXACT_MAX_POINTS:
        raise fail(
            "options.arithmetic",
            f"'exact' with at most {EXACT_MAX_POINTS} points",
            f"{n_points} points",
            'Choose auto or float arithmetic ("arithmetic": "auto").',
        )
    return opts


def _check_choices(opts: dict) -> None:
    """The options chosen from a list (order, check, arithmetic) and the flags (in place)."""
    for key, allowed, example in (
        ("order", ORDERS, "cyclic"),
        ("check", POCKET_CHECKS, "update"),
        ("arithmetic", ARITHMETIC, "auto"),
    ):
        if opts[key] not in allowed:
            raise fail(
                f"options.{key}",
                "one of " + ", ".join(repr(a) for a in allowed),
                repr(opts[key])[:40],
                f'Send "{key}": "{example}".',
            )
    for name in ("fit_intercept", "pocket"):
        opts[name] = check_flag(
            f"options.{name}", opts[name], f"Send {name}: false or {name}: true."
        )


def _check_numbers(opts: dict) -> None:
    """η and ρ₀ as exact numbers, the sweeps and the seed as integers in range (in place)."""
    _within_range(opts["eta"], "options.eta")
    opts["eta"] = _exact_number(opts["eta"], "options.eta")
    if opts["eta"] <= 0:
        raise fail(
            "options.eta",
            "a number > 0",
            format_number(opts["eta"]),
            "Use η = 1: from w = 0 any η > 0 gives the same mistakes.",
        )
    _within_range(opts["margin"], "options.margin")
    opts["margin"] = _exact_number(opts["margin"], "options.margin")
    if opts["margin"] < 0:
        raise fail(
            "options.margin (rho0)",
            "a number >= 0",
            format_number(opts["margin"]),
            "Use ρ₀ = 0 for the plain perceptron.",
        )
    opts["max_sweeps"] = check_int_between(
        "options.max_sweeps",
        _json_int(opts["max_sweeps"]),
        1,
        MAX_SWEEPS,
        f"Send e.g. max_sweeps: {OPTION_DEFAULTS['max_sweeps']}.",
    )
    opts["seed"] = check_int_between(
        "options.seed", _json_int(opts["seed"]), 0, 2**32 - 1, "Send e.g. seed: 0."
    )


def _checked_sequence(sequence: Any, n_points: int) -> list[int]:
    """The user's order: a list of distinct indices of existing points."""
    if not isinstance(sequence, list):
        raise fail(
            "options.sequence",
            "a list of point indices",
            type(sequence).__name__,
            'Send "sequence": [2, 0, 1] with order "pick".',
        )
    seen: set[int] = set()
    for position, index in enumerate(sequence):
        if (
            isinstance(index, bool)
            or not isinstance(index, numbers.Integral)
            or not 0 <= int(index) < n_points
        ):
            raise fail(
                f"options.sequence[{position}]",
                f"a point index from 0 to {n_points - 1}",
                repr(index)[:40],
                "Pick only existing points.",
            )
        if index in seen:
            raise fail(
                f"options.sequence[{position}]",
                "each point at most once",
                f"point {index} again",
                "Remove the repeated index.",
            )
        seen.add(int(index))
    return [int(i) for i in sequence]


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
    perceptronlab.exceptions.InputError: options.arithmetic: expected 'exact' only for numbers with a \
common denominator of at most 18 digits (the lab's budget for exact arithmetic), got a common denominator of \
more than 18 digits. Choose float arithmetic ("arithmetic": "float"), or round the coordinates (e.g. to 6 \
decimals).
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
    raise fail(
        "options.arithmetic",
        f"'exact' only for numbers with a common denominator of at most {digits} digits "
        "(the lab's budget for exact arithmetic)",
        f"a common denominator of more than {digits} digits",
        'Choose float arithmetic ("arithmetic": "float"), or round the coordinates (e.g. to 6 decimals).',
    )


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
