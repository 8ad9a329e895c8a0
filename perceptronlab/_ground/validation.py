"""Every input check of perceptronlab, and every message it gives.

Each message names the thing, what was expected, what came, and how to fix it. Everything
below the boundary (the kernels, the exact engine) trusts what leaves this module.
"""

from __future__ import annotations

import contextlib
import functools
import inspect
import math
import numbers
import sys
from collections.abc import Callable, Iterator
from decimal import Decimal
from fractions import Fraction
from typing import TYPE_CHECKING, Any, Literal, ParamSpec, TypeVar, get_args, overload

import numpy as np

from perceptronlab._ground.checks import POCKET_CHECKS as POCKET_CHECKS
from perceptronlab._ground.checks import PocketCheck as PocketCheck
from perceptronlab._ground.checks import check_flag as check_flag
from perceptronlab._ground.checks import check_int_between as check_int_between
from perceptronlab._ground.numbers import int_text, parse_exact, shown_value
from perceptronlab.exceptions import InputError, fail, overflow_error

if TYPE_CHECKING:
    from numpy.typing import NDArray

    from perceptronlab._ground.types import Float64Array

__all__ = [
    "Order",
    "ORDERS",
    "FamilyOrder",
    "FAMILY_ORDERS",
    "PocketCheck",
    "POCKET_CHECKS",
    "Backend",
    "BACKENDS",
    "InputError",
    "fail",
    "overflow_error",
    "is_sparse",
    "check_eta",
    "check_margin",
    "check_positive_int",
    "check_optional_positive_int",
    "check_choice",
    "check_option_names",
    "label_count_error",
    "check_seed",
    "check_labels",
    "distinct_labels",
    "comparable_labels",
    "check_exact_matrix",
    "check_matrix",
    "check_Xy",
    "check_vector",
    "check_n_features",
    "not_finite_error",
    "ESTIMATOR_NAMES",
    "FUNCTIONAL_NAMES",
    "seeds_names",
    "renamed",
]

# Each choice is written once, as its Literal type; the table the check uses is its arguments.
Order = Literal["cyclic", "shuffle", "random-mistake"]
ORDERS: tuple[Order, ...] = get_args(Order)
#: the family averages and votes over whole sweeps, so each step visits one example
FamilyOrder = Literal["cyclic", "shuffle"]
FAMILY_ORDERS: tuple[FamilyOrder, ...] = get_args(FamilyOrder)
#: when Pocket counts the errors of the current weights
#: the float engine of ``perceptron``: the compiled kernels, or their NumPy twin
Backend = Literal["compiled", "reference"]
BACKENDS: tuple[Backend, ...] = get_args(Backend)


def is_sparse(X: Any) -> bool:
    """A SciPy sparse matrix? Without importing SciPy: if scipy.sparse is not loaded, X is not one."""
    sparse = sys.modules.get("scipy.sparse")
    return sparse is not None and bool(sparse.issparse(X))


# ---------------------------------------------------------------- the two APIs' names

#: the functional API's name (the lectures') -> the estimators' name (scikit-learn's), for the same thing
ESTIMATOR_NAMES = {"eta": "eta0", "max_sweeps": "max_iter", "seed": "random_state"}
#: the estimators' name -> the functional API's
FUNCTIONAL_NAMES = {new: old for old, new in ESTIMATOR_NAMES.items()}
#: options only the estimators have (scikit-learn's fitting conventions)
_ESTIMATOR_ONLY = (
    "tol",
    "early_stopping",
    "validation_fraction",
    "n_iter_no_change",
    "class_weight",
    "warm_start",
    "sample_weight",
    "verbose",
    "coef_init",
    "intercept_init",
)


def renamed(where: str, given: str, value: Any, right: str, why: str) -> TypeError:
    """The TypeError for a keyword of the other API: it names the right one."""
    return TypeError(
        f"{where} got an unexpected keyword argument {given!r}: use {right}={value!r} ({why})."
    )


_P = ParamSpec("_P")
_R = TypeVar("_R")


def seeds_names(func: Callable[_P, _R]) -> Callable[_P, _R]:
    """A functional learner that refuses the estimators' (scikit-learn's) names with a TypeError
    naming its own: ``perceptron(X, y, max_iter=10)`` says "use max_sweeps=10"."""
    accepted = set(inspect.signature(func).parameters)

    @functools.wraps(func)
    def learner(*args: _P.args, **kwargs: _P.kwargs) -> _R:
        for key in kwargs:
            if key not in accepted and (key in FUNCTIONAL_NAMES or key in _ESTIMATOR_ONLY):
                _refuse(getattr(func, "__name__", "learner"), key, kwargs[key])
        return func(*args, **kwargs)

    return learner


def _refuse(name: str, key: str, value: Any) -> None:
    if key in FUNCTIONAL_NAMES:
        raise renamed(
            f"{name}()",
            key,
            value,
            FUNCTIONAL_NAMES[key],
            f"the functional API keeps the lectures' names; {key} is the estimators' name, as in "
            "scikit-learn",
        )
    raise TypeError(
        f"{name}() got an unexpected keyword argument {key!r}: it is an option of the scikit-learn "
        f"estimators, e.g. perceptronlab.Perceptron({key}=...); the functional API has the lectures' "
        "parameters only."
    )


# ---------------------------------------------------------------- parameters


def _finite_float(value: Any) -> bool:
    """Finite, and within the float range (a huge int or Fraction is not an OverflowError here)."""
    try:
        return math.isfinite(float(value))
    except OverflowError:
        return False


def check_eta(eta: Any) -> Any:
    if isinstance(eta, bool) or not isinstance(eta, numbers.Real | Fraction | Decimal):
        raise fail("eta (the learning rate)", "a positive number", repr(eta), "Pass e.g. eta=1.0.")
    if not _finite_float(eta) or eta <= 0:
        raise fail(
            "eta (the learning rate)",
            "a finite number > 0",
            eta,
            "Pass e.g. eta=1.0; from w = 0 any eta > 0 gives the same mistakes.",
        )
    return eta


def check_margin(margin: Any) -> Any:
    if isinstance(margin, bool) or not isinstance(margin, numbers.Real | Fraction | Decimal):
        raise fail(
            "margin (rho0)",
            "a number >= 0",
            repr(margin),
            "Pass margin=0 for the plain perceptron.",
        )
    if not _finite_float(margin) or margin < 0:
        raise fail(
            "margin (rho0)",
            "a finite number >= 0",
            margin,
            "Pass margin=0 for the plain perceptron, or a positive rho0 for the margin perceptron.",
        )
    return margin


#: the largest value of a count, by the count's name: past it the work would run for days, so it is
#: refused before it starts (one rule for the library and the command line, which calls these checks)
COUNT_LIMITS = {"trials": 100_000}
#: the largest value of any other count: within a 64-bit integer (the compiled kernels' counters)
MAX_COUNT = 2**62


def check_positive_int(name: str, value: Any, fix: str, *, at_most: int | None = None) -> int:
    """``value`` as an int from 1 to ``at_most`` (default: :data:`COUNT_LIMITS` for ``name``, else
    :data:`MAX_COUNT`), or one line that says the range.

    >>> check_positive_int("trials", 10**30, "Pass e.g. trials=5.")
    Traceback (most recent call last):
    ...
    perceptronlab.exceptions.InputError: trials: expected an integer from 1 to 100,000, got an integer \
of 31 digits. Pass e.g. trials=5.
    """
    if isinstance(value, bool) or not isinstance(value, numbers.Integral) or value < 1:
        raise fail(name, "an integer >= 1", shown_value(value), fix)
    count = int(value)
    limit = COUNT_LIMITS.get(name, MAX_COUNT) if at_most is None else at_most
    if count > limit:
        digits = len(int_text(count))
        got = repr(count) if digits <= 20 else f"an integer of {digits:,} digits"
        raise fail(name, f"an integer from 1 to {limit:,}", got, fix)
    return count


def check_optional_positive_int(name: str, value: Any, fix: str) -> int | None:
    return None if value is None else check_positive_int(name, value, fix)


_C = TypeVar("_C", bound=str)


def check_choice(name: str, value: Any, choices: tuple[_C, ...]) -> _C:
    if value not in choices:
        raise fail(
            name,
            "one of " + ", ".join(repr(c) for c in choices),
            repr(value),
            f"Pass {name}={choices[0]!r}.",
        )
    return value  # type: ignore[no-any-return]  # one of the choices


def check_option_names(function: str, options: Any, allowed: Any, fix: str) -> None:
    """Every keyword of a function's ``**options`` is a key of ``allowed``, the TypedDict its
    signature unpacks: one line naming the stray one."""
    names = tuple(allowed.__annotations__)
    for key in options:
        if key not in names:
            raise fail(f"{function} option {key!r}", "one of " + ", ".join(names), repr(key), fix)


def label_count_error(n_rows: Any, n_labels: Any, what: str = "y (the labels)") -> InputError:
    """The one message of labels that are not one per row of X."""
    return fail(
        what,
        f"{n_rows} labels, one per row of X",
        f"{n_labels} labels",
        "Check that X and y come from the same rows.",
    )


def check_seed(seed: Any) -> int | None:
    if seed is None:
        return None
    if isinstance(seed, bool) or not isinstance(seed, numbers.Integral) or seed < 0:
        raise fail("seed", "None or an integer >= 0", repr(seed), "Pass e.g. seed=0.")
    return int(seed)


# ---------------------------------------------------------------- labels


@overload
def check_labels(
    y: Any, n_rows: int | None = None, *, binary: Literal[True] = True, signed_ok: bool = True
) -> tuple[Float64Array, NDArray[Any]]: ...


@overload
def check_labels(
    y: Any, n_rows: int | None = None, *, binary: Literal[False], signed_ok: bool = True
) -> tuple[None, NDArray[Any]]: ...


def check_labels(
    y: Any, n_rows: int | None = None, *, binary: bool = True, signed_ok: bool = True
) -> tuple[Float64Array | None, NDArray[Any]]:
    """Return (y as float64 in {-1, +1}, classes) for any two labels; classes[1] is positive.

    With ``signed_ok``, labels already in {-1, +1} pass as they are even when only one of the two
    occurs (the lectures' worst case labels every basis vector +1).
    """
    y_arr = np.asarray(y)
    if y_arr.ndim == 2 and 1 in y_arr.shape:
        y_arr = y_arr.ravel()
    if y_arr.ndim != 1:
        raise fail(
            "y (the labels)",
            "a 1-D sequence of labels",
            f"an array of shape {y_arr.shape}",
            "Pass one label per row of X.",
        )
    if n_rows is not None and y_arr.shape[0] != n_rows:
        raise label_count_error(n_rows, y_arr.shape[0])
    if y_arr.shape[0] == 0:
        raise fail("y (the labels)", "at least one label", "none", "Pass a non-empty dataset.")
    if y_arr.dtype.kind == "f" and not np.all(np.isfinite(y_arr)):
        raise fail(
            "y (the labels)",
            "finite labels",
            "NaN or inf",
            "Remove or fix the rows with missing labels.",
        )
    with comparable_labels():
        classes = distinct_labels(y_arr)
    if binary and signed_ok and y_arr.dtype.kind in "iuf" and set(classes.tolist()) <= {-1, 1}:
        return y_arr.astype(np.float64), np.array([-1, 1])
    if binary and len(classes) != 2:
        shown = ", ".join(map(str, classes[:5])) + (", ..." if len(classes) > 5 else "")
        got = f"{len(classes)} class{'es' if len(classes) != 1 else ''} ({shown})"
        fix = (
            "Training needs examples of both classes."
            if len(classes) < 2
            else "Use the one-vs-rest estimator perceptronlab.Perceptron, or relabel to two classes."
        )
        raise fail("y (the labels)", "exactly two classes", got, fix)
    signs = np.where(y_arr == classes[-1], 1.0, -1.0) if binary else None
    return signs, classes


# ---------------------------------------------------------------- data


def distinct_labels(labels: NDArray[Any]) -> NDArray[Any]:
    """The distinct labels, sorted (labels of mixed types do not sort: a TypeError)."""
    if labels.dtype.kind == "O":
        return np.array(sorted(set(labels.tolist())), dtype=object)
    return np.unique(labels)


@contextlib.contextmanager
def comparable_labels() -> Iterator[None]:
    """Turns the TypeError of labels that do not sort (mixed types) into the one-line error."""
    try:
        yield
    except TypeError as exc:
        raise fail(
            "y (the labels)",
            "labels of one comparable type",
            "mixed types",
            "Use e.g. -1/+1, 0/1 or strings, not a mix.",
        ) from exc


def _to_fraction(value: Any, where: str) -> Fraction:
    if isinstance(value, bool):
        raise fail(f"X{where}", "a number", repr(value), "Use numbers, not booleans.")
    return parse_exact(
        value,
        f"X{where}",
        expected="a number, a fraction like '1/3' or a decimal string",
        fix="Fix the cell.",
    )


def check_exact_matrix(X: Any) -> list[list[Fraction]]:
    """Rows of Fractions from ints, Fractions, floats (taken exactly) or decimal strings."""
    if is_sparse(X):
        X = X.toarray()
    if isinstance(X, np.ndarray):
        if X.ndim != 2:
            raise fail(
                "X",
                "a 2-D array (rows are examples)",
                f"{X.ndim}-D shape {X.shape}",
                "Reshape with X.reshape(-1, 1) for one feature.",
            )
        rows = X.tolist()
    else:
        try:
            rows = [list(r) for r in X]
        except TypeError as exc:
            raise fail(
                "X", "a sequence of rows", type(X).__name__, "Pass a list of lists or a 2-D array."
            ) from exc
    _check_shape(len(rows), [len(r) for r in rows])
    return [[_to_fraction(v, f"[{i}, {j}]") for j, v in enumerate(r)] for i, r in enumerate(rows)]


def _check_shape(n_rows: int, lengths: list[int]) -> None:
    if n_rows == 0:
        raise fail("X", "at least one example", "0 rows", "Pass a non-empty dataset.")
    if len(set(lengths)) > 1:
        first_bad = next(i for i, length in enumerate(lengths) if length != lengths[0])
        raise fail(
            "X",
            f"every row with {lengths[0]} features (as row 0)",
            f"row {first_bad} with {lengths[first_bad]}",
            "Fix the ragged row.",
        )
    if lengths[0] == 0:
        raise fail(
            "X", "at least one feature", "0 features", "Pass a dataset with feature columns."
        )


def check_matrix(
    X: Any,
    *,
    allow_sparse: bool = True,
    dtypes: tuple[type, ...] = (np.float64, np.float32),
    check_finite: bool = True,
) -> Any:
    """A float C-contiguous array (no copy when it already is one) or a CSR matrix.

    ``check_finite=False`` leaves NaN/inf to the compiled sweep, which finds them on its own first
    pass at no cost (:func:`not_finite_error` gives the same message).
    """
    if is_sparse(X):
        import scipy.sparse as sp

        if not allow_sparse:
            raise fail("X", "a dense array", "a sparse matrix", "Call X.toarray() first.")
        X = sp.csr_matrix(X) if X.format != "csr" else X
        if X.shape[0] == 0 or X.shape[1] == 0:
            _check_shape(X.shape[0], [X.shape[1]])
        if X.dtype not in dtypes:
            X = X.astype(np.float64)
        if check_finite and not np.all(np.isfinite(X.data)):
            row = int(
                np.searchsorted(X.indptr, np.flatnonzero(~np.isfinite(X.data))[0], side="right") - 1
            )
            raise not_finite_error(X, row, None)
        if not X.has_sorted_indices:
            X = X.sorted_indices()
        parts = (X.data, X.indices, X.indptr)
        if not all(part.flags.writeable for part in parts):
            X = type(X)(tuple(_writable_alias(part) for part in parts), shape=X.shape, copy=False)
        return X
    if isinstance(X, np.ndarray) and X.dtype in dtypes and X.ndim == 2 and X.flags.c_contiguous:
        arr = X
    else:
        if isinstance(X, np.ndarray) and X.dtype.kind in "fiub":
            arr = X
        else:
            try:
                arr = np.asarray(X, dtype=np.float64)
            except (ValueError, TypeError) as exc:
                text = str(exc)
                if "inhomogeneous" in text or "sequence" in text:
                    lengths = [len(r) for r in X]
                    _check_shape(len(lengths), lengths)
                raise fail(
                    "X",
                    "numeric values",
                    f"a cell that is not a number ({text})",
                    "Fix or drop non-numeric cells (e.g. with pandas.to_numeric).",
                ) from exc
        if arr.ndim == 1:
            raise fail(
                "X",
                "a 2-D array (rows are examples)",
                f"a 1-D array of shape {arr.shape}",
                "Use X.reshape(-1, 1) for a single feature or X.reshape(1, -1) for a single example.",
            )
        if arr.ndim != 2:
            raise fail(
                "X",
                "a 2-D array",
                f"{arr.ndim}-D shape {arr.shape}",
                "Flatten each example to one row.",
            )
        dtype = arr.dtype if arr.dtype in dtypes else np.float64
        arr = np.ascontiguousarray(arr, dtype=dtype)
    _check_shape(arr.shape[0], [arr.shape[1]])
    if check_finite and not np.isfinite(arr).all():
        bad = np.argwhere(~np.isfinite(arr))[0]
        raise fail(
            "X",
            "finite values",
            f"{arr[tuple(bad)]} at row {bad[0]}, column {bad[1]}",
            "Remove or impute the rows with NaN or inf.",
        )
    return _writable_alias(arr)


class _Memory:
    """An array's memory described to NumPy as writable (``__array_interface__``), holding the array."""

    def __init__(self, array: np.ndarray):
        self.array = array
        self.__array_interface__ = {**array.__array_interface__}
        self.__array_interface__["data"] = (self.__array_interface__["data"][0], False)


def _writable_alias(array: np.ndarray) -> np.ndarray:
    """``array`` itself, or where it is read-only (a memory map, an array another library froze) the
    same memory flagged writable, no copy. Numba compiles every kernel again for a read-only array
    (seconds per kernel) although no kernel writes to X; the alias runs the kernels already compiled.
    Nothing in perceptronlab writes to the X it validated."""
    if array.flags.writeable:
        return array
    return np.asarray(_Memory(array))


def check_Xy(
    X: Any, y: Any, *, exact: bool = False, allow_sparse: bool = True, check_finite: bool = True
) -> tuple[Any, Float64Array, NDArray[Any]]:
    """Validate a training set. Returns (X, y_signs, classes); X is rows of Fractions when exact."""
    Xc = (
        check_exact_matrix(X)
        if exact
        else check_matrix(X, allow_sparse=allow_sparse, check_finite=check_finite)
    )
    n_rows = len(Xc) if isinstance(Xc, list) else Xc.shape[0]
    signs, classes = check_labels(y, n_rows)
    return Xc, signs, classes


def check_vector(w: Any, n_features: int | None = None, name: str = "w") -> NDArray[Any]:
    arr = (
        np.asarray(w, dtype=np.float64)
        if not isinstance(w, np.ndarray) or w.dtype.kind != "O"
        else w
    )
    if arr.ndim != 1:
        raise fail(
            name,
            "a 1-D vector",
            f"shape {arr.shape}",
            f"Pass {name} as a flat sequence of numbers.",
        )
    if n_features is not None and arr.shape[0] != n_features:
        raise fail(
            name,
            f"{n_features} entries (one per feature)",
            f"{arr.shape[0]}",
            "Check that the vector and the data have the same features (and intercept setting).",
        )
    return arr


def check_n_features(n_features: int, expected: int, who: str) -> None:
    if n_features != expected:
        raise fail(
            "X",
            f"{expected} features, as {who} was fitted with",
            f"{n_features} features",
            "Pass data with the same columns as at fit time.",
        )


def not_finite_error(X: Any, row: int, sweep: int | None) -> Exception:
    """A score was NaN or inf at ``row``: bad input (the error names the cell) or weights that
    overflowed (the error names the sweep)."""
    if is_sparse(X):
        start, stop = X.indptr[row], X.indptr[row + 1]
        values, columns = X.data[start:stop], X.indices[start:stop]
    else:
        values, columns = X[row], np.arange(X.shape[1])
    bad = np.flatnonzero(~np.isfinite(values))
    if bad.shape[0]:
        return fail(
            "X",
            "finite values",
            f"{values[bad[0]]} at row {row}, column {columns[bad[0]]}",
            "Remove or impute the rows with NaN or inf.",
        )
    return overflow_error(f"during sweep {sweep}" if sweep is not None else "during training")
