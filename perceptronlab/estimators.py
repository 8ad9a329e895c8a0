"""scikit-learn estimators over the one engine: Perceptron, PocketPerceptron, OnlinePerceptron.

Thin faces, as scikit-learn's own ``Perceptron`` is over its SGD loop: each estimator validates its
input once at the boundary, maps any two labels to -1/+1 (``classes_[1]`` is +1), and calls the
engine (:func:`perceptronlab.perceptron`, :func:`perceptronlab.pocket`,
:class:`perceptronlab.core.online.OnlineState`); none re-implements the rule. More than two classes
are learned one-vs-rest: one engine run per class, ``classes_[k]`` (+1) against the rest (-1).

Every bad input raises :class:`perceptronlab.InputError` (a ``ValueError``) whose message names the
thing, what was expected, what came, and how to fix it; bad constructor parameters raise an error
that is also scikit-learn's ``InvalidParameterError``, and using a model before ``fit`` raises an
error that is both perceptronlab's and scikit-learn's ``NotFittedError``.
"""

from __future__ import annotations

import copy
import re
import warnings
from collections.abc import Mapping
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
from perceptronlab.core.engines import margins
from perceptronlab.core.online import OnlineState
from perceptronlab.core.perceptron import perceptron, pocket
from perceptronlab.exceptions import CycledWarning, InputError, NotConvergedWarning

__all__ = ["Perceptron", "PocketPerceptron", "OnlinePerceptron"]


# ---------------------------------------------------------------- errors of this boundary


# Raised here so that both perceptronlab's and scikit-learn's handlers catch them.
class InvalidParameterError(InputError, _SklearnInvalidParameterError):
    """A bad constructor parameter: InputError and scikit-learn's InvalidParameterError."""


class NonNumericCellError(InputError, TypeError):
    """A cell of X that is not a number; also a TypeError, as NumPy raises it for such cells."""


class NotFittedError(_exceptions.NotFittedError, _SklearnNotFittedError):
    """Used before fit: perceptronlab's and scikit-learn's NotFittedError at once."""


_FIXES = {
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


def _check_params(estimator: BaseEstimator) -> None:
    """Check the constructor parameters against ``_parameter_constraints``; add the fix."""
    try:
        estimator._validate_params()
    except _SklearnInvalidParameterError as exc:
        found = re.search(r"The '(\w+)' parameter", str(exc))
        fix = _FIXES.get(found.group(1), "") if found else ""
        raise InvalidParameterError(f"{exc} {fix}".strip()) from None


_NO_Y = object()


def _check_data(estimator: BaseEstimator, X: Any, y: Any = _NO_Y, *, reset: bool):
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
        if y is _NO_Y:
            return validate_data(estimator, X, **options)
        return validate_data(estimator, X, y, **options)
    except (ValueError, TypeError) as exc:
        raise _explain(exc, X, None if y is _NO_Y else y) from None


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


def _check_targets(y: np.ndarray, *, binary_only: bool) -> np.ndarray:
    """Classification targets; returns the sorted distinct labels."""
    try:
        check_classification_targets(y)
    except ValueError as exc:
        raise InputError(
            f"y (the labels): {exc} Pass class labels (ints, strings, or -1/+1)."
        ) from None
    labels = np.unique(y)
    if binary_only and labels.shape[0] > 2:
        raise _too_many(labels)
    return labels


def _too_many(labels: np.ndarray) -> InputError:
    shown = ", ".join(map(str, labels[:5])) + (", ..." if labels.shape[0] > 5 else "")
    return v.fail(
        "y (the labels)",
        "two classes (Only binary classification is supported.)",
        f"{labels.shape[0]} classes ({shown})",
        "Use perceptronlab.Perceptron or perceptronlab.PocketPerceptron (one-vs-rest) for "
        "more classes, or relabel to two.",
    )


def _is_signed(labels: np.ndarray) -> bool:
    return labels.dtype.kind in "iuf" and set(labels.tolist()) <= {-1, 1}


def _classes_for_training(labels: np.ndarray) -> np.ndarray:
    """classes_ from the labels seen at fit: two or more, or a single class of -1/+1 labels."""
    if labels.shape[0] >= 2:
        return labels
    if _is_signed(labels):
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


def _two_classes(classes: Any) -> np.ndarray:
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
        raise _too_many(labels)
    if labels.shape[0] < 2:
        raise v.fail(
            "classes",
            "exactly two class labels",
            f"{labels.tolist()}",
            "Pass both labels the data can carry, e.g. classes=[0, 1].",
        )
    return labels


def _signs(y: np.ndarray, classes: np.ndarray) -> np.ndarray:
    """+1 for ``classes[1]``, -1 for ``classes[0]``; labels outside ``classes`` are refused."""
    unknown = ~np.isin(y, classes)
    if unknown.any():
        raise v.fail(
            "y (the labels)",
            f"labels among classes_ {classes.tolist()}",
            f"{_python(y[unknown][0])!r}",
            "Pass every label of the stream in classes=[...] on the "
            "first call (a binary learner has two).",
        )
    return np.where(y == classes[1], 1.0, -1.0)


def _python(label: Any) -> Any:
    return label.item() if isinstance(label, np.generic) else label


# ---------------------------------------------------------------- shared estimator code


def _scores(X, w: np.ndarray, b: float) -> np.ndarray:
    """⟨w, x⟩ + b for every row, summed in feature order exactly as the training kernels do."""
    return margins(X, np.ones(X.shape[0]), w, float(b))


def _portable(run):
    """A copy of a Run without the training data: errors_after_sweep computed, data dropped."""
    run.errors_after_sweep  # noqa: B018 -- computes the per-sweep errors while the data is here
    light = copy.copy(run)
    light.data = None
    light.checkpoints = {}
    light.errors_after_sweep_known = dict(run.errors_after_sweep_known)
    return light


class _RunClassifierBase(ClassifierMixin, BaseEstimator):
    """Tags and pickling of every classifier that keeps its engine runs in ``run_``
    (this module's and the family's)."""

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
            state["run_"] = (
                [_portable(r) for r in runs] if isinstance(runs, list) else _portable(runs)
            )
        return state

    def _fit_one_vs_rest(self, X, y, train) -> list:
        """One ``train(X, signs)`` run for two classes (classes_[1] is +1), one per class otherwise;
        sets classes_, n_mistakes_, n_sweeps_, converged_ and run_ (arrays / a list for several)."""
        labels = _check_targets(y, binary_only=False)
        classes = _classes_for_training(labels)
        if classes.shape[0] == 2:
            tasks = [np.where(y == classes[1], 1.0, -1.0)]
        else:
            tasks = [np.where(y == label, 1.0, -1.0) for label in classes]
        runs = [train(X, signs) for signs in tasks]
        binary = len(runs) == 1
        self.classes_ = classes
        self.n_mistakes_ = runs[0].mistakes if binary else np.array([r.mistakes for r in runs])
        self.n_sweeps_ = runs[0].sweeps if binary else np.array([r.sweeps for r in runs])
        self.converged_ = runs[0].converged if binary else np.array([r.converged for r in runs])
        self.run_ = runs[0] if binary else runs
        return runs


class _LinearPerceptron(_RunClassifierBase):
    """decision_function / predict for weights ``coef_`` (one row per class) and ``intercept_``."""

    def __sklearn_is_fitted__(self) -> bool:
        return "coef_" in self.__dict__

    def _check_fitted(self, method: str) -> None:
        if "coef_" not in self.__dict__:
            name = type(self).__name__
            raise NotFittedError(
                f"This {name} instance is not fitted yet: {method} needs the "
                f"weights that fit(X, y) learns. Call fit(X, y) before {method}(X)."
            )

    def _fit_runs(self, X, y, train) -> list:
        runs = self._fit_one_vs_rest(X, y, train)
        self.coef_ = np.vstack([np.asarray(run.w, dtype=np.float64) for run in runs])
        self.intercept_ = np.array([float(run.b) for run in runs])
        return runs

    def decision_function(self, X):
        """Signed scores ⟨w, x⟩ + b: shape (n,) for two classes (> 0 means ``classes_[1]``), else
        (n, n_classes), one column per one-vs-rest model."""
        self._check_fitted("decision_function")
        X = _check_data(self, X, reset=False)
        scores = np.column_stack(
            [_scores(X, w, b) for w, b in zip(self.coef_, self.intercept_, strict=True)]
        )
        return scores[:, 0] if scores.shape[1] == 1 else scores

    def predict(self, X):
        """``classes_[1]`` where the score is > 0, else ``classes_[0]`` (a tie is not positive, as
        in the rule); with more classes, the class of the highest one-vs-rest score."""
        self._check_fitted("predict")
        scores = self.decision_function(X)
        if scores.ndim == 1:
            return self.classes_[(scores > 0).astype(np.intp)]
        return self.classes_[np.argmax(scores, axis=1)]


_ORDERS = StrOptions(set(v.ORDERS))
_SEED = [Interval(Integral, 0, None, closed="left"), None]


class Perceptron(_LinearPerceptron):
    """The perceptron (Rosenblatt 1958) as a scikit-learn classifier over the engine.

    Each fit calls :func:`perceptronlab.perceptron`.

    w starts at 0; an example is a mistake when y(⟨w,x⟩ + b) ≤ ρ₀ (ties count); a mistake updates
    w ← w + η·y·x (and b ← b + η·y); a run ends after a clean sweep or at ``max_sweeps``, or, in
    cyclic order, when a start-of-sweep weight vector repeats (it then never converges).

    Parameters
    ----------
    eta : float > 0, default=1.0
        Learning rate η. From w = 0 it only scales w: the mistakes are the same for every η.
    fit_intercept : bool, default=True
        Learn an intercept b (the bias trick: x augmented with a constant 1). True like
        scikit-learn; the functional API :func:`perceptronlab.perceptron` defaults to the seeds'
        form without offset.
    order : {"cyclic", "shuffle", "random-mistake"}, default="cyclic"
        Data order, a new seeded permutation every sweep, or a uniformly random misclassified
        example at every step (the PLA of the Learning From Data course).
    margin : float >= 0, default=0.0
        ρ₀ of the margin perceptron: update while y(⟨w,x⟩ + b) ≤ ρ₀.
    max_sweeps : int >= 1, default=1000
        The run always stops here.
    seed : int >= 0 or None, default=None
        Seeds the orders "shuffle" and "random-mistake" (every one-vs-rest run gets the same seed).

    Attributes
    ----------
    coef_ : ndarray of shape (1, n_features) for two classes, else (n_classes, n_features)
    intercept_ : ndarray of shape (1,) or (n_classes,); zeros without ``fit_intercept``.
    classes_ : ndarray of the labels; ``classes_[1]`` is the positive class (+1) of a binary fit.
        Labels -1/+1 of one class only still give ``classes_ = [-1, 1]``.
    n_mistakes_, n_sweeps_, converged_ : int, int, bool for two classes; arrays with one entry per
        class for one-vs-rest.
    run_ : :class:`perceptronlab.Run` of the engine (a list of Runs, one per class, for
        one-vs-rest): mistake indices, updates and errors per sweep, norms.
    n_features_in_ : int
    feature_names_in_ : ndarray, when X is a DataFrame with string column names.

    Warns
    -----
    NotConvergedWarning
        When a run ends at ``max_sweeps`` without a clean sweep.
    CycledWarning
        When a cyclic run repeats a start-of-sweep weight vector (proof it never converges).

    Notes
    -----
    With ``order="cyclic"`` on dense float64 data the weights equal scikit-learn's
    ``Perceptron(shuffle=False, eta0=eta, alpha=0, penalty=None, tol=None, max_iter=max_sweeps)``
    bit for bit, one-vs-rest included: both sum ⟨w,x⟩ in feature order and add η·y·x. They
    differ on sparse input with an intercept (scikit-learn damps sparse intercept updates by
    0.01), on float32 input (scikit-learn then keeps float32 weights; here they are float64), and
    when a cyclic run stops because it cycled (scikit-learn goes on to ``max_iter``).

    Examples
    --------
    The exam task of the seeds, without offset:

    >>> from perceptronlab import Perceptron
    >>> clf = Perceptron(fit_intercept=False).fit([[1, 0], [1, 1], [0, 1]], [1, -1, -1])
    >>> clf.coef_, clf.n_mistakes_, clf.n_sweeps_, clf.converged_
    (array([[ 1., -2.]]), 5, 4, True)
    >>> clf.predict([[2, 0], [0, 2]])
    array([ 1, -1])

    Any labels; three classes are learned one-vs-rest:

    >>> X = [[0, 0], [0, 1], [4, 0], [4, 1], [0, 5], [1, 5]]
    >>> clf = Perceptron().fit(X, ["a", "a", "b", "b", "c", "c"])
    >>> clf.coef_.shape, clf.predict([[5, 0], [0, 6]]).tolist()
    ((3, 2), ['b', 'c'])
    """

    _parameter_constraints: dict = {
        "eta": [Interval(Real, 0, None, closed="neither")],
        "fit_intercept": ["boolean"],
        "order": [_ORDERS],
        "margin": [Interval(Real, 0, None, closed="left")],
        "max_sweeps": [Interval(Integral, 1, None, closed="left")],
        "seed": _SEED,
    }

    def __init__(
        self, *, eta=1.0, fit_intercept=True, order="cyclic", margin=0.0, max_sweeps=1000, seed=None
    ):
        self.eta = eta
        self.fit_intercept = fit_intercept
        self.order = order
        self.margin = margin
        self.max_sweeps = max_sweeps
        self.seed = seed

    def fit(self, X, y):
        """Run the perceptron on (X, y): one engine run for two classes, one per class otherwise.

        Parameters
        ----------
        X : array-like or sparse matrix (CSR) of shape (n_samples, n_features)
        y : array-like of shape (n_samples,); any labels.

        Returns
        -------
        self
        """
        _check_params(self)
        X, y = _check_data(self, X, y, reset=True)

        def train(X, signs):
            return perceptron(
                X,
                signs,
                eta=self.eta,
                fit_intercept=self.fit_intercept,
                order=self.order,
                margin=self.margin,
                max_sweeps=self.max_sweeps,
                seed=self.seed,
                warn=False,
            )

        runs = self._fit_runs(X, y, train)
        self._warn(runs)
        return self

    def _warn(self, runs: list) -> None:
        name = type(self).__name__

        def which(flags):
            if len(runs) == 1:
                return ""
            return (
                " ("
                + ", ".join(
                    f"class {_python(c)!r} vs rest"
                    for c, flag in zip(self.classes_, flags, strict=True)
                    if flag
                )
                + ")"
            )

        cycled = [r.cycled for r in runs]
        stopped = [not r.converged and not r.cycled for r in runs]
        if any(cycled):
            warnings.warn(
                f"{name}: the weights at the start of a sweep repeated an earlier sweep's"
                f"{which(cycled)}, so the cyclic perceptron will never converge on this data. "
                "Use perceptronlab.PocketPerceptron for the weights with the fewest training "
                "errors.",
                CycledWarning,
                stacklevel=3,
            )
        if any(stopped):
            warnings.warn(
                f"{name} did not converge: no clean sweep within max_sweeps={self.max_sweeps}"
                f"{which(stopped)}. The data may not be linearly separable; raise max_sweeps, "
                "or use perceptronlab.PocketPerceptron.",
                NotConvergedWarning,
                stacklevel=3,
            )


class PocketPerceptron(_LinearPerceptron):
    """The Pocket algorithm (Gallant 1990) as a scikit-learn classifier over the engine.

    Each fit calls :func:`perceptronlab.pocket`.

    Perceptron updates (by default on a uniformly random misclassified example) while keeping in
    the "pocket" the weights with the fewest training errors (y(⟨w,x⟩ + b) ≤ 0); the fitted weights
    are the pocket's. For noisy, non-separable data, where the plain perceptron never settles.

    Parameters
    ----------
    eta : float > 0, default=1.0
    fit_intercept : bool, default=True
    order : {"cyclic", "shuffle", "random-mistake"}, default="random-mistake"
    check : {"update", "sweep"}, default="update"
        Count the errors after every update (seed 002) or after every sweep (seed 003).
    max_updates : int >= 1 or None, default=None
    max_sweeps : int >= 1, default=100
        The run stops at zero errors, or at ``max_updates`` / ``max_sweeps``, whichever comes first.
    seed : int >= 0 or None, default=None
        Seeds the orders "shuffle" and "random-mistake"; pass one for reproducible fits.

    Attributes
    ----------
    coef_, intercept_, classes_, n_features_in_ : as in :class:`Perceptron`.
    pocket_errors_ : int (array per class for one-vs-rest)
        Training errors of the pocket weights.
    n_mistakes_, n_sweeps_ : updates made and sweeps run.
    converged_ : bool (array per class): the pocket weights make no training error.
    run_ : :class:`perceptronlab.Run` (a list for one-vs-rest), with ``pocket_history``.

    Examples
    --------
    >>> from perceptronlab import PocketPerceptron
    >>> X = [[1, 1], [2, 2], [-1, -1], [1.5, 1.5]]
    >>> clf = PocketPerceptron(fit_intercept=False, seed=0, max_sweeps=20).fit(X, [1, 1, -1, -1])
    >>> clf.pocket_errors_, clf.converged_, clf.score(X, [1, 1, -1, -1])
    (1, False, 0.75)
    """

    _parameter_constraints: dict = {
        "eta": [Interval(Real, 0, None, closed="neither")],
        "fit_intercept": ["boolean"],
        "order": [_ORDERS],
        "check": [StrOptions(set(v.POCKET_CHECKS))],
        "max_updates": [Interval(Integral, 1, None, closed="left"), None],
        "max_sweeps": [Interval(Integral, 1, None, closed="left")],
        "seed": _SEED,
    }

    def __init__(
        self,
        *,
        eta=1.0,
        fit_intercept=True,
        order="random-mistake",
        check="update",
        max_updates=None,
        max_sweeps=100,
        seed=None,
    ):
        self.eta = eta
        self.fit_intercept = fit_intercept
        self.order = order
        self.check = check
        self.max_updates = max_updates
        self.max_sweeps = max_sweeps
        self.seed = seed

    def fit(self, X, y):
        """Run Pocket on (X, y): one engine run for two classes, one per class otherwise.

        Parameters
        ----------
        X : array-like or sparse matrix (CSR) of shape (n_samples, n_features)
        y : array-like of shape (n_samples,); any labels.

        Returns
        -------
        self
        """
        _check_params(self)
        X, y = _check_data(self, X, y, reset=True)

        def train(X, signs):
            return pocket(
                X,
                signs,
                eta=self.eta,
                fit_intercept=self.fit_intercept,
                order=self.order,
                check=self.check,
                max_updates=self.max_updates,
                max_sweeps=self.max_sweeps,
                seed=self.seed,
            )

        runs = self._fit_runs(X, y, train)
        errors = [int(r.pocket_errors) for r in runs]
        self.pocket_errors_ = errors[0] if len(runs) == 1 else np.array(errors)
        return self


class OnlinePerceptron(ClassifierMixin, BaseEstimator):
    """The online perceptron (seed 001): predict first, then learn from the revealed label.

    On each example the learner predicts sign(⟨w,x⟩ + b) (a tie predicts ``classes_[0]``) from w
    and x alone; only then is the label used: y(⟨w,x⟩ + b) ≤ ρ₀ is a mistake and updates
    w ← w + η·y·x. ``learn_one`` / ``predict_one`` take one example (a NumPy vector or a
    River-style dict); ``partial_fit`` and ``replay`` run a whole stream in one compiled call.
    Binary only: ``classes_[1]`` is +1.

    Parameters
    ----------
    eta : float > 0, default=1.0
    margin : float >= 0, default=0.0
    fit_intercept : bool, default=True
    classes : array-like of the two labels, or None
        Needed before the first example unless the labels are -1/+1 (or given to ``partial_fit``).

    Attributes
    ----------
    coef_ : ndarray of shape (1, n_features)
    intercept_ : ndarray of shape (1,)
    classes_ : ndarray of the two labels.
    n_mistakes_ : int, mistakes (updates) made so far.
    n_features_in_ : int (after matrix or vector input).

    Examples
    --------
    >>> from perceptronlab import OnlinePerceptron
    >>> model = OnlinePerceptron(fit_intercept=False)
    >>> for x, y in [([1, 0], 1), ([1, 1], -1), ([0, 1], -1), ([1, 0], 1)]:
    ...     guess = model.predict_one(x)  # None before the first label: the classes are unknown
    ...     model = model.learn_one(x, y)
    >>> model.n_mistakes_, model.coef_
    (3, array([[ 1., -1.]]))

    A stream in one compiled call, returning the rounds that were mistakes:

    >>> model = OnlinePerceptron(classes=["ham", "spam"])
    >>> X = [[0.0, 1.0], [1.0, 0.0], [0.1, 0.9], [0.9, 0.2]]
    >>> model.replay(X, ["ham", "spam", "ham", "spam"])
    array([0, 1])
    >>> model.predict([[1.0, 0.0], [0.0, 1.0]]).tolist(), model.n_mistakes_
    (['spam', 'ham'], 2)

    River-style dicts grow the feature set as names appear:

    >>> model = OnlinePerceptron(classes=[False, True])
    >>> model = model.learn_one({"sunny": 1.0}, True).learn_one({"rain": 1.0}, False)
    >>> model.predict_one({"sunny": 1.0, "rain": 0.0}), model.n_mistakes_
    (True, 2)
    """

    _parameter_constraints: dict = {
        "eta": [Interval(Real, 0, None, closed="neither")],
        "margin": [Interval(Real, 0, None, closed="left")],
        "fit_intercept": ["boolean"],
        "classes": ["array-like", None],
    }

    def __init__(self, *, eta=1.0, margin=0.0, fit_intercept=True, classes=None):
        self.eta = eta
        self.margin = margin
        self.fit_intercept = fit_intercept
        self.classes = classes

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.input_tags.sparse = True
        tags.classifier_tags.multi_class = False
        return tags

    def __sklearn_is_fitted__(self) -> bool:
        return "_state" in self.__dict__

    # ------------------------------------------------------------ state
    def _state_for(self, method: str) -> OnlineState:
        state = self.__dict__.get("_state")
        if state is None:
            name = type(self).__name__
            raise NotFittedError(
                f"This {name} instance is not fitted yet: {method} needs the "
                "weights learned from examples. Call fit, partial_fit, replay or learn_one first."
            )
        return state

    def _start(self, classes: np.ndarray) -> None:
        self._state = OnlineState(
            eta=self.eta, margin=self.margin, fit_intercept=self.fit_intercept
        )
        self.classes_ = classes
        # one dict lookup per learn_one call instead of array work (River-speed rounds)
        self._sign_of = {_python(classes[0]): -1, _python(classes[1]): 1}

    def _first_classes(self, given: Any, labels: np.ndarray, method: str) -> np.ndarray:
        for candidate in (given, self.classes):
            if candidate is not None:
                return _two_classes(candidate)
        if labels.shape[0] and _is_signed(labels):
            return np.array([-1, 1], dtype=labels.dtype)
        shown = labels[:2].tolist()
        raise v.fail(
            "classes",
            f"the two class labels before the first example ({method})",
            f"none, with labels {shown} in the data",
            f"Pass {method}(..., classes=[...]) or OnlinePerceptron(classes=[...]) with both "
            "labels (only -1/+1 labels need none).",
        )

    @property
    def coef_(self) -> np.ndarray:
        return self._state_for("coef_").w.reshape(1, -1).copy()

    @property
    def intercept_(self) -> np.ndarray:
        return np.array([float(self._state_for("intercept_").b)])

    @property
    def n_mistakes_(self) -> int:
        return int(self._state_for("n_mistakes_").mistakes)

    # ------------------------------------------------------------ streams
    def _stream(self, X, y, classes, method: str) -> np.ndarray:
        _check_params(self)
        first = "_state" not in self.__dict__
        X, y = _check_data(self, X, y, reset=first)
        labels = _check_targets(y, binary_only=True)
        if first:
            first_classes = self._first_classes(classes, labels, method)
            signs = _signs(y, first_classes)  # refuse stray labels before any state exists
            self._start(first_classes)
            return self._state.replay(X, signs)
        if classes is not None and not np.array_equal(_two_classes(classes), self.classes_):
            raise v.fail(
                "classes",
                f"the classes of the first call, {self.classes_.tolist()}",
                f"{np.asarray(classes).tolist()}",
                "Pass classes only on the first call, or call fit to start over.",
            )
        if self._state.feature_names is not None:
            raise v.fail(
                "X",
                "dict examples, as learned so far",
                "a matrix",
                "Keep using learn_one/predict_one with dicts, or call fit(X, y) to start "
                "over on a matrix.",
            )
        return self._state.replay(X, _signs(y, self.classes_))

    def replay(self, X, y) -> np.ndarray:
        """Progressive validation of a stream in one compiled call: returns the mistake indices.

        Each example is predicted from the weights learned on the examples before it, then
        learned; the state carries over to later calls.
        """
        return self._stream(X, y, None, "replay")

    def partial_fit(self, X, y, classes=None):
        """Learn from a batch of a stream (as :meth:`replay`); ``classes`` on the first call.

        Returns
        -------
        self
        """
        self._stream(X, y, classes, "partial_fit")
        return self

    def fit(self, X, y):
        """Start over and learn from (X, y) in one pass, in data order.

        Returns
        -------
        self
        """
        _check_params(self)
        for attribute in ("_state", "classes_", "n_features_in_", "feature_names_in_"):
            self.__dict__.pop(attribute, None)
        X, y = _check_data(self, X, y, reset=True)
        labels = _check_targets(y, binary_only=True)
        classes = (
            _two_classes(self.classes)
            if self.classes is not None
            else _classes_for_training(labels)
        )
        self._start(classes)
        self._state.replay(X, _signs(y, classes))
        return self

    # ------------------------------------------------------------ one example
    @staticmethod
    def _example(x: Any) -> Any:
        if type(x) is dict or isinstance(x, Mapping):
            return x
        if sp.issparse(x):
            x = x.toarray()
        arr = np.asarray(x)
        if arr.ndim == 2 and arr.shape[0] == 1:
            arr = arr[0]
        if arr.ndim != 1:
            raise v.fail(
                "x",
                "one example (a 1-D vector or a dict)",
                f"an array of shape {arr.shape}",
                "Use partial_fit(X, y) or replay(X, y) for many examples.",
            )
        try:
            return arr.astype(np.float64)
        except (TypeError, ValueError) as exc:
            raise v.fail(
                "x",
                "numeric values",
                f"{arr.tolist()!r} ({exc})",
                "Pass numbers (or a dict of numbers).",
            ) from None

    def predict_one(self, x):
        """The label predicted for one example (vector or dict), from the current weights.

        Before the first example the weights are 0 and every score is a tie, which predicts
        ``classes_[0]``; if the classes are not known yet either, the answer is None (as in River).
        """
        state = self.__dict__.get("_state")
        if state is None:
            return None if self.classes is None else _python(_two_classes(self.classes)[0])
        sign = state.predict_sign(self._example(x))
        return _python(self.classes_[1 if sign == 1 else 0])

    def learn_one(self, x, y):
        """Predict x from the current weights, then use the label y; a mistake updates w.

        Returns
        -------
        self
        """
        state = self.__dict__.get("_state")
        if type(x) is dict and state is not None:  # the stream's hot path: a dict and a known label
            try:
                sign = self._sign_of[y]
            except (KeyError, TypeError):
                pass
            else:
                state.learn(x, sign)
                return self
        x = self._example(x)
        if "_state" not in self.__dict__:
            _check_params(self)
            classes = self._first_classes(None, np.asarray([y]), "learn_one")
            sign = _signs(np.asarray([y]), classes)[0]
            self._start(classes)
        else:
            try:
                sign = self._sign_of.get(y)
            except TypeError:  # an unhashable label: the general check names it
                sign = None
            if sign is None:
                sign = _signs(np.asarray([y]), self.classes_)[0]
        self._state.learn(x, int(sign))
        if type(x) is not dict and not isinstance(x, Mapping) and "n_features_in_" not in self.__dict__:
            self.n_features_in_ = int(self._state.w.shape[0])
        return self

    # ------------------------------------------------------------ batch prediction
    def decision_function(self, X):
        """⟨w, x⟩ + b for every row of X; > 0 means ``classes_[1]``."""
        state = self._state_for("decision_function")
        if state.feature_names is not None:
            raise v.fail(
                "X",
                "dict examples, as learned",
                "a matrix",
                "Predict one dict at a time with predict_one.",
            )
        X = _check_data(self, X, reset=False)
        if state.w.shape[0] != X.shape[1]:
            v.check_n_features(X.shape[1], state.w.shape[0], type(self).__name__)
        return _scores(X, state.w, state.b)

    def predict(self, X):
        """``classes_[1]`` where the score is > 0, else ``classes_[0]``."""
        self._state_for("predict")
        scores = self.decision_function(X)
        return self.classes_[(scores > 0).astype(np.intp)]
