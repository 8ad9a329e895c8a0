"""Shared plumbing of the theory modules: exact input, Fraction linear algebra, formatting.

Exact input means every entry is an int, a Fraction, a Decimal or a decimal/fraction string
(NumPy integer arrays included); floats make the input inexact. Exact input gets exact answers
(Fractions) where the quantity is rational.
"""

from __future__ import annotations

import itertools
import numbers
from decimal import Decimal
from fractions import Fraction
from typing import Any

import numpy as np
import scipy.sparse as sp

from perceptronlab._ground import validation as v
from perceptronlab._ground.numbers import format_display, parse_exact, to_float
from perceptronlab._ground.numbers import format_short as fmt
from perceptronlab.pure.geometry import solve_exact  # noqa: F401 - Gauss–Jordan in Fractions
from perceptronlab.pure.rule import exact_dot  # noqa: F401 - the theory modules' exact ⟨a, b⟩

#: Exact (Fraction) computations run only up to this many matrix entries; above it, floats.
EXACT_LIMIT = 200_000
#: how every text, card and JSON numbers the examples: as the worksheets do, x1 is the first row
NUMBERING = "1-based: example 1 is the data's first row (x1 of the worksheet)"

_EXACT_SCALARS = (numbers.Integral, Fraction, Decimal, str)


def is_exact_scalar(value: Any) -> bool:
    return isinstance(value, _EXACT_SCALARS) and not isinstance(value, bool)


def is_exact_input(X: Any) -> bool:
    """True when every entry of ``X`` is exact (int, Fraction, Decimal, numeric string)."""
    if sp.issparse(X):
        return X.dtype.kind in "iu"
    if isinstance(X, np.ndarray):
        if X.dtype.kind in "iu":
            return True
        if X.dtype.kind != "O":
            return False
        return all(is_exact_scalar(value) for value in X.ravel().tolist())
    try:
        rows = list(X)
        return len(rows) > 0 and all(is_exact_scalar(value) for row in rows for value in row)
    except TypeError:
        return False


def exact_rows(X: Any, fit_intercept: bool = False) -> list[list[Fraction]]:
    """Rows of Fractions (validated), augmented with a leading 1 when ``fit_intercept``."""
    rows = v.check_exact_matrix(X)
    if fit_intercept:
        rows = [[Fraction(1), *row] for row in rows]
    return rows


#: the dense n × (d + 1) float64 arrays the analysis holds at once at its peak: the data, its scaled
#: or augmented copy, and the linear program's constraint matrix with its sparse copy and the
#: Gordan system (``separable``), counted from the code, not measured
ANALYSIS_COPIES = 5


def shape_of(X: Any) -> tuple[int, int] | None:
    """(rows, columns) of a matrix, a sparse matrix or a list of rows, without densifying; None
    when it is not (yet) a matrix (the validation then says why)."""
    shape = getattr(X, "shape", None)
    if shape is not None:
        return (int(shape[0]), int(shape[1])) if len(shape) == 2 else None
    try:
        return (len(X), len(X[0])) if len(X) else (0, 0)
    except (TypeError, IndexError, KeyError):
        return None


def check_dense_memory(
    X: Any, what: str, max_bytes: Any = None, copies: int = ANALYSIS_COPIES
) -> None:
    """Refuse, from the shape alone and before any work, a dense step on ``X`` that needs more
    than the memory budget (``max_bytes``, else half the memory this process can still use)."""
    from perceptronlab._ground.memory import check_budget

    shape = shape_of(X)
    if shape is None:
        return
    n, d = shape
    check_budget(
        8.0 * n * (d + 1) * copies,
        what,
        max_bytes=max_bytes,
        detail=f"{n:,} rows × {d:,} columns as dense floats, {copies} copies at once",
        subject="data",
        smaller="use a sample of the rows or fewer features",
    )


def float_matrix(X: Any) -> np.ndarray:
    """A dense float64 C-contiguous matrix (validated; sparse input is densified)."""
    if sp.issparse(X):
        X = v.check_matrix(X).toarray()
    elif is_exact_input(X) and not isinstance(X, np.ndarray):
        X = _floats(v.check_exact_matrix(X))
    elif isinstance(X, np.ndarray) and X.dtype.kind == "O":
        X = _floats(
            [
                [to_fraction(value) if isinstance(value, str) else value for value in row]
                for row in X.tolist()
            ]
        )
    if (
        isinstance(X, np.ndarray)
        and X.dtype == np.float64
        and X.ndim == 2
        and X.flags.c_contiguous
        and X.size
        and np.isfinite(X.sum())
    ):
        return X  # finite (a NaN or inf would make the sum non-finite): no need for a second pass
    return v.check_matrix(X, allow_sparse=False, dtypes=(np.float64,))


def _floats(rows: list[list[Any]]) -> np.ndarray:
    """Exact rows as floats; an entry beyond the float range (such as 1e400, read exactly) is an
    InputError that names it, never an OverflowError."""
    fix = "Rescale the data (e.g. divide the column by a power of ten) so that every value is below 1e308."
    try:
        return np.array([[float(value) for value in row] for row in rows], dtype=np.float64)
    except OverflowError:
        pass
    for i, row in enumerate(rows):
        for j, value in enumerate(row):
            to_float(value, f"X[{i}, {j}]", fix)
    raise AssertionError("unreachable: some entry overflowed")  # pragma: no cover


def augment(X: np.ndarray) -> np.ndarray:
    """Prepend a column of ones (the bias trick of the lectures: w₀ = −threshold)."""
    return np.hstack([np.ones((X.shape[0], 1)), X])


def to_fraction(value: Any) -> Fraction:
    """An exact scalar as a Fraction (strings like '1/5' or '0.2' included)."""
    return parse_exact(value, "number", expected="a number or a fraction like '1/5'")


def fmt_vector(values: Any, digits: int = 6, limit: int = 8) -> str:
    count = len(values) if hasattr(values, "__len__") else None
    if count is None:
        values = list(values)
        count = len(values)
    shown = ", ".join(
        fmt(value, digits) for value in itertools.islice(iter(values), limit)
    )  # never a full copy
    return "(" + shown + (f", ... ({count} entries)" if count > limit else "") + ")"


def equals(value: Any, digits: int = 6) -> str:
    """``= 10`` for a value shown exactly, ``≈ 3.53 × 10¹⁰`` for one shown rounded."""
    text = format_display(value, digits)
    return text if text.startswith("≈") else f"= {text}"
