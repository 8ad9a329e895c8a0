"""The estimators' shared base: the boundary (validation once, the project's messages first and
scikit-learn's refusals translated into them), labels, tags, fitted checks, the one-vs-rest loop,
the warnings and the parameter tables.

Every bad input raises :class:`perceptronlab.InputError` (a ``ValueError``) whose message names the
thing, what was expected, what came, and how to fix it; bad constructor parameters raise an error
that is also scikit-learn's ``InvalidParameterError``, and using a model before ``fit`` raises an
error that is both perceptronlab's and scikit-learn's ``NotFittedError``.
"""

from __future__ import annotations

import copy
import re
import warnings
from numbers import Integral, Real
from typing import Any

import numpy as np
import scipy.sparse as sp
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.exceptions import NotFittedError as _SklearnNotFittedError
from sklearn.utils._param_validation import Interval, StrOptions
from sklearn.utils._param_validation import InvalidParameterError as _SklearnInvalidParameterError
from sklearn.utils.multiclass import check_classification_targets
from sklearn.utils.validation import validate_data

from perceptronlab import _validation as v
from perceptronlab import exceptions as _exceptions
from perceptronlab.core.scores import labels, score_matrix
from perceptronlab.exceptions import CycledWarning, InputError, NotConvergedWarning

# ---------------------------------------------------------------- errors of this boundary


# Raised here so that both perceptronlab's and scikit-learn's handlers catch them.
class InvalidParameterError(InputError, _SklearnInvalidParameterError):
    """A bad constructor parameter: InputError and scikit-learn's InvalidParameterError.

    Examples
    --------
    >>> from perceptronlab import Perceptron
    >>> from perceptronlab.estimators import InvalidParameterError
    >>> try:
    ...     Perceptron(order="sorted").fit([[1, 0], [0, 1]], [1, -1])
    ... except InvalidParameterError as error:
    ...     print(type(error).__mro__[1].__name__)
    InputError
    """


class NonNumericCellError(InputError, TypeError):
    """A cell of X that is not a number; also a TypeError, as NumPy raises it for such cells.

    Examples
    --------
    >>> from perceptronlab import Perceptron
    >>> from perceptronlab.estimators import NonNumericCellError
    >>> try:
    ...     Perceptron().fit([[1, {}], [0, 1]], [1, -1])  # a dict is no number
    ... except NonNumericCellError as error:
    ...     print(isinstance(error, TypeError))
    True
    """


class NotFittedError(_exceptions.NotFittedError, _SklearnNotFittedError):
    """Used before fit: perceptronlab's and scikit-learn's NotFittedError at once.

    Examples
    --------
    >>> import sklearn.exceptions
    >>> from perceptronlab import Perceptron
    >>> try:
    ...     Perceptron().predict([[1, 0]])
    ... except sklearn.exceptions.NotFittedError as error:
    ...     print(type(error).__module__, type(error).__name__)
    perceptronlab.estimators NotFittedError
    """


FIXES = {
    "eta": "Pass a learning rate > 0, e.g. eta=1.0 (from w = 0 every eta gives the same mistakes).",
    "margin": "Pass margin=0.0 for the plain perceptron, or a rho0 > 0 for the margin perceptron.",
    "max_sweeps": "Pass an integer >= 1, e.g. max_sweeps=1000; the run always stops there.",
    "max_updates": "Pass None (no limit) or an integer >= 1, e.g. max_updates=10000.",
    "order": "Pass order='cyclic' (data order), 'shuffle' or 'random-mistake'.",
    "check": "Pass check='update' (after every update) or check='sweep' (after every sweep).",
    "fit_intercept": "Pass fit_intercept=True or fit_intercept=False.",
    "seed": "Pass seed=None or an integer >= 0, e.g. seed=0.",
    "classes": "Pass the two class labels, e.g. classes=[0, 1], or classes=None.",
}


def check_params(estimator: BaseEstimator) -> None:
    """Check the constructor parameters against ``_parameter_constraints``; add the fix."""
    try:
        estimator._validate_params()
    except _SklearnInvalidParameterError as exc:
        found = re.search(r"The '(\w+)' parameter", str(exc))
        fix = FIXES.get(found.group(1), "") if found else ""
        raise InvalidParameterError(f"{exc} {fix}".strip()) from None


NO_Y = object()


def check_data(estimator: BaseEstimator, X: Any, y: Any = NO_Y, *, reset: bool):
    """``validate_data`` at the boundary, with perceptronlab's messages when it refuses the input.

    Returns X (a C-contiguous float64/float32 array or a CSR matrix), or (X, y) when y is given.
    """
    if y is None:
        name = type(estimator).__name__
        raise InputError(
            f"{name} requires y to be passed, but the target y is None: expected one "
            "label per row of X. Pass the labels: fit(X, y)."
        )
    options = dict(accept_sparse="csr", dtype=[np.float64, np.float32], order="C", reset=reset)
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
        row, col, value = _first_non_finite(X)
        return v.fail(
            "X",
            "finite values",
            f"{_number_name(value)} at row {row}, column {col}",
            "Remove or impute the rows with NaN or inf (e.g. sklearn.impute.SimpleImputer).",
        )
    if "Input y contains" in text:
        return v.fail(
            "y (the labels)", "finite labels", "NaN or inf", "Remove the rows with missing labels."
        )
    if "inconsistent numbers of samples" in text:
        counts = re.findall(r"\d+", text.rsplit(":", 1)[-1])
        if len(counts) == 2:
            return v.fail(
                "y (the labels)",
                f"{counts[0]} labels, one per row of X",
                f"{counts[1]} labels",
                "Check that X and y come from the same rows.",
            )
    if "y should be a 1d array" in text:
        return InputError(
            f"y (the labels): {text} Pass one label per row of X (multi-output targets "
            "are not supported)."
        )
    error = NonNumericCellError if isinstance(exc, TypeError) else InputError
    return error(f"{text} Check X (rows of numbers) and y (one label per row).")


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


# ---------------------------------------------------------------- labels


def check_targets(y: np.ndarray, *, binary_only: bool) -> np.ndarray:
    """Classification targets; returns the sorted distinct labels."""
    try:
        check_classification_targets(y)
    except ValueError as exc:
        raise InputError(
            f"y (the labels): {exc} Pass class labels (ints, strings, or -1/+1)."
        ) from None
    labels = np.unique(y)
    if binary_only and labels.shape[0] > 2:
        raise too_many(labels)
    return labels


def too_many(labels: np.ndarray) -> InputError:
    shown = ", ".join(map(str, labels[:5])) + (", ..." if labels.shape[0] > 5 else "")
    return v.fail(
        "y (the labels)",
        "two classes (Only binary classification is supported.)",
        f"{labels.shape[0]} classes ({shown})",
        "Use perceptronlab.Perceptron or perceptronlab.PocketPerceptron (one-vs-rest) for "
        "more classes, or relabel to two.",
    )


def is_signed(labels: np.ndarray) -> bool:
    return labels.dtype.kind in "iuf" and set(labels.tolist()) <= {-1, 1}


def classes_for_training(labels: np.ndarray) -> np.ndarray:
    """classes_ from the labels seen at fit: two or more, or a single class of -1/+1 labels."""
    if labels.shape[0] >= 2:
        return labels
    if is_signed(labels):
        # -1/+1 are the perceptron's own labels: one of them alone is still a two-class problem
        # (the seeds' worst case labels every basis vector +1), as in the functional API.
        return np.array([-1, 1], dtype=labels.dtype)
    raise v.fail(
        "y (the labels)",
        "at least two classes",
        f"1 class ({labels[0]!r})",
        "Training needs examples of both classes (a single class is accepted only for "
        "labels -1/+1).",
    )


def two_classes(classes: Any) -> np.ndarray:
    """The ``classes`` parameter of OnlinePerceptron: exactly two labels, sorted."""
    arr = np.asarray(classes)
    if arr.ndim != 1:
        raise v.fail(
            "classes",
            "a flat list of the two class labels",
            f"shape {arr.shape}",
            "Pass e.g. classes=[0, 1].",
        )
    labels = np.unique(arr)
    if labels.shape[0] > 2:
        raise too_many(labels)
    if labels.shape[0] < 2:
        raise v.fail(
            "classes",
            "exactly two class labels",
            f"{labels.tolist()}",
            "Pass both labels the data can carry, e.g. classes=[0, 1].",
        )
    return labels


def signs_of(y: np.ndarray, classes: np.ndarray) -> np.ndarray:
    """+1 for ``classes[1]``, -1 for ``classes[0]``; labels outside ``classes`` are refused."""
    unknown = ~np.isin(y, classes)
    if unknown.any():
        raise v.fail(
            "y (the labels)",
            f"labels among classes_ {classes.tolist()}",
            f"{python_label(y[unknown][0])!r}",
            "Pass every label of the stream in classes=[...] on the "
            "first call (a binary learner has two).",
        )
    return np.where(y == classes[1], 1.0, -1.0)


def python_label(label: Any) -> Any:
    return label.item() if isinstance(label, np.generic) else label


# ---------------------------------------------------------------- parameter tables


ORDER_OPTIONS = StrOptions(set(v.ORDERS))
FAMILY_ORDER_OPTIONS = StrOptions(set(v.FAMILY_ORDERS))
SEED_OPTIONS = [Interval(Integral, 0, None, closed="left"), None]
#: the family's common parameters (Perceptron adds "random-mistake" to the orders)
FAMILY_CONSTRAINTS = {
    "eta": [Interval(Real, 0, None, closed="neither")],
    "fit_intercept": ["boolean"],
    "order": [FAMILY_ORDER_OPTIONS],
    "margin": [Interval(Real, 0, None, closed="left")],
    "max_sweeps": [Interval(Integral, 1, None, closed="left")],
    "seed": SEED_OPTIONS,
}


# ---------------------------------------------------------------- shared estimator code


def portable(run):
    """A copy of a Run without the training data: errors_after_sweep computed, data dropped."""
    run.errors_after_sweep  # noqa: B018 -- computes the per-sweep errors while the data is here
    light = copy.copy(run)
    light.data = None
    light.checkpoints = {}
    light.errors_after_sweep_known = dict(run.errors_after_sweep_known)
    return light


class RunClassifierBase(ClassifierMixin, BaseEstimator):
    """Tags, pickling, the fitted check, the one-vs-rest loop and the warnings of every classifier
    whose fit runs the engine and keeps its runs in ``run_``."""

    #: the attribute fit sets, and what the message says it learns
    _fitted_attribute = "coef_"
    _fitted_what = "weights"
    #: said after "did not converge: no clean sweep within max_sweeps=N"
    _not_converged_advice = (". The data may not be linearly separable; raise max_sweeps, or use "
                             "perceptronlab.PocketPerceptron.")

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.input_tags.sparse = True
        tags.non_deterministic = getattr(self, "order", "cyclic") != "cyclic" and self.seed is None
        return tags

    def __getstate__(self):
        # Pickles carry the model, not the training set the runs point at.
        state = dict(super().__getstate__())  # for non-sklearn modules that is the live __dict__
        if "run_" in state:
            runs = state["run_"]
            state["run_"] = [portable(r) for r in runs] if isinstance(runs, list) else portable(runs)
        return state

    def __sklearn_is_fitted__(self) -> bool:
        return self._fitted_attribute in self.__dict__

    def _check_fitted(self, method: str) -> None:
        if self._fitted_attribute not in self.__dict__:
            raise NotFittedError(f"This {type(self).__name__} instance is not fitted yet: {method} needs the "
                                 f"{self._fitted_what} that fit(X, y) learns. Call fit(X, y) before {method}(X).")

    def fit(self, X, y):
        """Fit on (X, y): one engine run for two classes (``classes_[1]`` is +1), one run per class
        (``classes_[k]`` against the rest) otherwise.

        Parameters
        ----------
        X : array-like or sparse matrix (CSR) of shape (n_samples, n_features)
        y : array-like of shape (n_samples,); any labels.

        Returns
        -------
        self
        """
        check_params(self)
        X, y = check_data(self, X, y, reset=True)
        self._fitted(self._fit_one_vs_rest(X, y, self._trainer(X)))
        return self

    def _trainer(self, X):
        """``train(X, signs) -> Run`` with this estimator's parameters (``X`` is the whole
        training set, for what the runs of one fit share)."""
        return self._train

    def _train(self, X, signs):  # pragma: no cover - each estimator says how it trains
        raise NotImplementedError

    def _fitted(self, runs: list) -> None:
        """What fit keeps besides the runs (and the warnings it gives)."""
        self._warn(runs)

    def _fit_one_vs_rest(self, X, y, train) -> list:
        """One ``train(X, signs)`` run for two classes (classes_[1] is +1), one per class otherwise;
        sets classes_, n_mistakes_, n_sweeps_, converged_ and run_ (arrays / a list for several)."""
        classes = classes_for_training(check_targets(y, binary_only=False))
        if classes.shape[0] == 2:
            tasks = [np.where(y == classes[1], 1.0, -1.0)]
        else:
            tasks = [np.where(y == label, 1.0, -1.0) for label in classes]
        runs = [train(X, signs) for signs in tasks]
        self._keep_runs(classes, runs)
        return runs

    def _keep_runs(self, classes: np.ndarray, runs: list) -> None:
        binary = len(runs) == 1
        self.classes_ = classes
        self.n_mistakes_ = runs[0].mistakes if binary else np.array([r.mistakes for r in runs])
        self.n_sweeps_ = runs[0].sweeps if binary else np.array([r.sweeps for r in runs])
        self.converged_ = runs[0].converged if binary else np.array([r.converged for r in runs])
        self.run_ = runs[0] if binary else runs

    def _warn(self, runs: list) -> None:
        """CycledWarning / NotConvergedWarning for the runs of one fit, naming the one-vs-rest
        classes concerned (called from ``fit``)."""
        name = type(self).__name__

        def which(flags) -> str:
            if len(runs) == 1:
                return ""
            return " (" + ", ".join(f"class {python_label(c)!r} vs rest"
                                    for c, flag in zip(self.classes_, flags, strict=True) if flag) + ")"

        cycled = [r.cycled for r in runs]
        stopped = [not r.converged and not r.cycled for r in runs]
        if any(cycled):
            warnings.warn(f"{name}: the weights at the start of a sweep repeated an earlier sweep's{which(cycled)}, "
                          "so the cyclic perceptron will never converge on this data. Use "
                          "perceptronlab.PocketPerceptron for the weights with the fewest training errors.",
                          CycledWarning, stacklevel=4)
        if any(stopped):
            warnings.warn(f"{name} did not converge: no clean sweep within max_sweeps={self.max_sweeps}"
                          f"{which(stopped)}{self._not_converged_advice}", NotConvergedWarning, stacklevel=4)


class LinearClassifier(RunClassifierBase):
    """decision_function / predict for weights ``coef_`` (one row per class) and ``intercept_``:
    the core's feature-order scores and its tie rule (:mod:`perceptronlab.core.scores`)."""

    def _fitted(self, runs: list) -> None:
        self.coef_ = np.vstack([np.asarray(run.w, dtype=np.float64) for run in runs])
        self.intercept_ = np.array([float(run.b) for run in runs])
        self._warn(runs)

    def decision_function(self, X):
        """Signed scores ⟨w, x⟩ + b: shape (n,) for two classes (> 0 means ``classes_[1]``), else
        (n, n_classes), one column per one-vs-rest model."""
        self._check_fitted("decision_function")
        X = check_data(self, X, reset=False)
        scores = score_matrix(X, self.coef_, self.intercept_)
        return scores[:, 0] if scores.shape[1] == 1 else scores

    def predict(self, X):
        """``classes_[1]`` where the score is > 0, else ``classes_[0]`` (a tie is not positive, as
        in the rule); with more classes, the class of the highest one-vs-rest score."""
        self._check_fitted("predict")
        return labels(self.decision_function(X), self.classes_)
