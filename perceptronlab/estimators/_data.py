"""The estimators' data check: scikit-learn's ``validate_data`` at the boundary, its refusals of X
and y translated into perceptronlab's one-line messages (what, expected, got, fix).
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any, overload

import numpy as np
import scipy.sparse as sp
from sklearn.base import BaseEstimator
from sklearn.utils.validation import validate_data

from perceptronlab._ground import validation as v
from perceptronlab.estimators._errors import NonNumericCellError
from perceptronlab.exceptions import InputError

if TYPE_CHECKING:
    from numpy.typing import NDArray


NO_Y = object()


@overload
def check_data(estimator: BaseEstimator, X: Any, *, reset: bool, finite: bool = True) -> Any: ...


@overload
def check_data(
    estimator: BaseEstimator, X: Any, y: Any, *, reset: bool, finite: bool = True
) -> tuple[Any, NDArray[Any]]: ...


def check_data(
    estimator: BaseEstimator, X: Any, y: Any = NO_Y, *, reset: bool, finite: bool = True
) -> Any:
    """``validate_data`` at the boundary, with perceptronlab's messages when it refuses the input.

    Returns X (a C-contiguous float64/float32 array or a CSR matrix), or (X, y) when y is given.
    ``finite=False`` leaves out the pass over X that looks for NaN and inf, for a caller whose first
    sweep reads every row anyway (a NaN or inf makes the row's score NaN or inf, and the sweep
    stops there): when training fails, it raises :func:`non_finite_error` if there is one (this message).
    """
    if y is None:
        name = type(estimator).__name__
        raise InputError(
            f"{name} requires y to be passed, but the target y is None: expected one "
            "label per row of X. Pass the labels: fit(X, y)."
        )
    options = dict(
        accept_sparse="csr",
        dtype=[np.float64, np.float32],
        order="C",
        reset=reset,
        ensure_all_finite=finite,
    )
    try:
        if y is NO_Y:
            return validate_data(estimator, X, **options)
        return validate_data(estimator, X, y, **options)
    except (ValueError, TypeError) as exc:
        raise _explain(exc, X, None if y is NO_Y else y) from None


def _explain(exc: Exception, X: Any, y: Any) -> Exception:
    """Turn scikit-learn's refusal of X or y into the what / expected / got / fix message."""
    text = str(exc)
    if text.startswith("X has ") and "features, but" in text:
        return InputError(
            f"{text} Pass data with the same columns, in the same order, as at fit time."
        )
    if "Complex data not supported" in text:
        return v.fail(
            "X",
            "real numbers",
            "complex values (Complex data not supported)",
            "Use X.real, or put the real and imaginary parts in separate columns.",
        )
    empty = re.search(r"Found array with 0 (sample|feature)\(s\) \(shape=(\([^)]*\))\)", text)
    if empty and empty.group(1) == "sample":
        return v.fail(
            "X",
            "at least one example (row)",
            f"0 sample(s) (shape={empty.group(2)})",
            "Pass a non-empty dataset.",
        )
    if empty:
        return v.fail(
            "X",
            "at least one feature",
            f"0 feature(s) (shape={empty.group(2)}) while a minimum of 1 is required",
            "Pass a dataset with feature columns.",
        )
    if "Expected 2D array" in text or "2-dimensional container" in text or "with dim" in text:
        shape = np.shape(X) if not sp.issparse(X) else X.shape
        return v.fail(
            "X",
            "a 2-D array (rows are examples)",
            f"a {len(shape)}-D array of shape {shape}",
            "Reshape your data: X.reshape(-1, 1) for a single feature, X.reshape(1, -1) for "
            "a single example, X.reshape(len(X), -1) to flatten each example to one row.",
        )
    if "inhomogeneous" in text or "setting an array element with a sequence" in text:
        ragged = _ragged_row(X)
        if ragged is not None:
            first, row, length = ragged
            return v.fail(
                "X",
                f"every row with {first} features (as row 0)",
                f"row {row} with {length}",
                "Fix the ragged row: every example needs the same features.",
            )
        return v.fail(
            "y (the labels)",
            "one label per row of X",
            "nested or ragged labels",
            "Pass a flat sequence with one label per example.",
        )
    if "could not convert" in text or "argument must be" in text:
        cell = _first_non_numeric(X)
        if cell is not None:
            row, col, value = cell
            error = NonNumericCellError if isinstance(exc, TypeError) else InputError
            return error(
                f"X: expected numeric values, got {value!r} at row {row}, column {col} "
                f"({text}). Fix or drop non-numeric cells (e.g. pandas.to_numeric(column, "
                "errors='coerce'), then impute)."
            )
    if "Input X contains" in text or "Input contains" in text:
        return _not_finite(X)
    if "Input y contains" in text:
        return v.fail(
            "y (the labels)", "finite labels", "NaN or inf", "Remove the rows with missing labels."
        )
    if "inconsistent numbers of samples" in text:
        counts = re.findall(r"\d+", text.rsplit(":", 1)[-1])
        if len(counts) == 2:
            return v.label_count_error(counts[0], counts[1])
    if "y should be a 1d array" in text:
        return InputError(
            f"y (the labels): {text} Pass one label per row of X (multi-output targets "
            "are not supported)."
        )
    error = NonNumericCellError if isinstance(exc, TypeError) else InputError
    return error(f"{text} Check X (rows of numbers) and y (one label per row).")


def non_finite_error(X: Any) -> InputError | None:
    """The refusal of :func:`check_data` for a validated X (an array or a CSR matrix) holding NaN
    or inf; None when every value is finite."""
    values = X.data if sp.issparse(X) else X
    return None if np.isfinite(values).all() else _not_finite(X)


def _not_finite(X: Any) -> InputError:
    row, col, value = _first_non_finite(X)
    return v.fail(
        "X",
        "finite values",
        f"{_number_name(value)} at row {row}, column {col}",
        "Remove or impute the rows with NaN or inf (e.g. sklearn.impute.SimpleImputer).",
    )


def _number_name(value: float) -> str:
    return "NaN" if np.isnan(value) else str(value)


def _ragged_row(X: Any) -> tuple[int, int, int] | None:
    try:
        lengths = [len(row) for row in X]
    except TypeError:
        return None
    for row, length in enumerate(lengths):
        if length != lengths[0]:
            return lengths[0], row, length
    return None


def _first_non_numeric(X: Any) -> tuple[int, int, Any] | None:
    try:
        cells = np.asarray(X, dtype=object)
    except (ValueError, TypeError):
        return None
    if cells.ndim != 2:
        return None
    for (row, col), value in np.ndenumerate(cells):
        try:
            float(value)
        except (TypeError, ValueError):
            return row, col, value
    return None


def _first_non_finite(X: Any) -> tuple[int, int, float]:
    if sp.issparse(X):
        X = sp.csr_matrix(X)
        k = int(np.flatnonzero(~np.isfinite(X.data))[0])
        row = int(np.searchsorted(X.indptr, k, side="right") - 1)
        return row, int(X.indices[k]), float(X.data[k])
    values = np.asarray(X, dtype=np.float64)
    row, col = np.argwhere(~np.isfinite(values))[0]
    return int(row), int(col), float(values[row, col])
