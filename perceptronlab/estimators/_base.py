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
from collections.abc import Callable, Iterator
from numbers import Integral, Real
from typing import TYPE_CHECKING, Any, cast, overload

import numpy as np
import scipy.sparse as sp
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.exceptions import NotFittedError as _SklearnNotFittedError
from sklearn.utils._param_validation import Interval, StrOptions
from sklearn.utils._param_validation import InvalidParameterError as _SklearnInvalidParameterError
from sklearn.utils.multiclass import check_classification_targets
from sklearn.utils.validation import validate_data

from perceptronlab import exceptions as _exceptions
from perceptronlab._ground import validation as v
from perceptronlab.core.scores import labels, score_matrix
from perceptronlab.exceptions import InputError

if TYPE_CHECKING:
    from numpy.typing import ArrayLike, NDArray

    # for the type checker, the mixins below are estimators (they are mixed into scikit-learn's)
    from sklearn.base import BaseEstimator as _EstimatorMixin
    from typing_extensions import Self

    from perceptronlab._ground.types import Float64Array, MatrixLike
    from perceptronlab.core.run import Run
else:
    _EstimatorMixin = object

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
    "eta0": "Pass a learning rate > 0, e.g. eta0=1.0 (from w = 0 every eta0 gives the same mistakes).",
    "margin": "Pass margin=0.0 for the plain perceptron, or a rho0 > 0 for the margin perceptron.",
    "max_iter": "Pass an integer >= 1, e.g. max_iter=1000 (the most sweeps); the run always stops there.",
    "max_updates": "Pass None (no limit) or an integer >= 1, e.g. max_updates=10000.",
    "order": "Pass order='cyclic' (data order), 'shuffle' or 'random-mistake'.",
    "check": ("Pass check='update' (after every update), check='sweep' (after every sweep) or check='ratchet' "
              "(Gallant's ratchet: when a run of correct picks beats the pocket's)."),
    "fit_intercept": "Pass fit_intercept=True or fit_intercept=False.",
    "random_state": "Pass random_state=None, an integer >= 0 (e.g. random_state=0) or a numpy RandomState.",
    "classes": "Pass the two class labels, e.g. classes=[0, 1], or classes=None.",
    "tol": "Pass tol=None (the perceptron's own stop: a clean sweep) or a number >= 0, e.g. tol=1e-3.",
    "validation_fraction": "Pass a fraction strictly between 0 and 1, e.g. validation_fraction=0.1.",
    "n_iter_no_change": "Pass an integer >= 1, e.g. n_iter_no_change=5.",
    "class_weight": "Pass class_weight=None, 'balanced' or a dict {label: weight}.",
    "n_jobs": "Pass n_jobs=None (all cores), -1 (all cores) or a number of threads >= 1.",
    "verbose": "Pass verbose=0 (quiet) or an integer >= 1 (a line per sweep).",
    "shuffle": "Pass shuffle=False (data order, the textbook's) or shuffle=True (scikit-learn's permutations).",
    "penalty": "Pass penalty=None (the textbook rule), 'l2', 'l1' or 'elasticnet'.",
    "alpha": "Pass a penalty strength >= 0, e.g. alpha=0.0001 (scikit-learn's default).",
    "l1_ratio": "Pass a number in [0, 1], e.g. l1_ratio=0.15 (scikit-learn's default; used by 'elasticnet').",
}


#: scikit-learn's Perceptron parameters an estimator of the family may not have, and why not
SCIKIT_LEARN_REFUSALS = {
    "shuffle": "this learner's shuffled order is order='shuffle' (NumPy's permutations; only "
               "perceptronlab.Perceptron has a scikit-learn twin whose permutations it reproduces)",
    "tol": "it stops at a clean sweep or at max_iter; scikit-learn's tol rule is perceptronlab.Perceptron's",
    "n_iter_no_change": "it has no tol rule (perceptronlab.Perceptron has scikit-learn's)",
    "early_stopping": "it holds nothing out; perceptronlab.Perceptron has scikit-learn's early stopping",
    "validation_fraction": "it holds nothing out; perceptronlab.Perceptron has scikit-learn's early stopping",
    "class_weight": "its updates are not scaled per class; perceptronlab.Perceptron has scikit-learn's class_weight",
    "penalty": "it has no penalty; perceptronlab.Perceptron has scikit-learn's l2, l1 and elasticnet",
    "alpha": "it has no penalty; perceptronlab.Perceptron has scikit-learn's l2, l1 and elasticnet",
    "l1_ratio": "it has no penalty; perceptronlab.Perceptron has scikit-learn's l2, l1 and elasticnet",
    "warm_start": "every fit builds its model afresh (the estimators with warm_start also have partial_fit)",
    "random_state": "it makes no random choice (the examples' order is the order)",
    "max_iter": "it learns each example once, as it comes (replay or partial_fit for batches)",
    "n_jobs": "it runs on one thread",
    "verbose": "it prints nothing per sweep; its run_ keeps the per-sweep log",
}


class EstimatorNames(_EstimatorMixin):
    """The estimators take scikit-learn's names: the functional API's (the seeds') names are refused
    with a TypeError that names the right one (``Perceptron(max_sweeps=10)``: "use max_iter=10"), and
    a scikit-learn Perceptron name that does not apply to the learner with the reason
    (``SCIKIT_LEARN_REFUSALS``)."""

    def __new__(cls, *args: Any, **kwargs: Any) -> Self:
        for key in kwargs:
            if key in v.ESTIMATOR_NAMES:
                raise v.renamed(cls.__name__, key, kwargs[key], v.ESTIMATOR_NAMES[key],
                                f"the estimators take scikit-learn's names; {key} is the functional API's name")
            if key in SCIKIT_LEARN_REFUSALS and key not in cls._get_param_names():  # type: ignore[attr-defined]
                raise TypeError(f"{cls.__name__} got an unexpected keyword argument {key!r}: "
                                f"{SCIKIT_LEARN_REFUSALS[key]}.")
        return cast("Self", super().__new__(cls))

    def set_params(self, **params: Any) -> Self:
        """Set parameters (scikit-learn's ``set_params``); a functional API name names the right one."""
        for key in params:
            if key in v.ESTIMATOR_NAMES and key not in self._get_param_names():
                raise InputError(f"Invalid parameter {key!r} for estimator {type(self).__name__}: use "
                                 f"{v.ESTIMATOR_NAMES[key]}={params[key]!r} (the estimators take "
                                 "scikit-learn's names).")
        return cast("Self", super().set_params(**params))


def in_sklearn_words(words: str, error: InputError) -> InputError:
    """``error`` with scikit-learn's message for the same refusal first (what its tests and its
    users match on), then perceptronlab's (what, expected, got, fix)."""
    return InputError(f"{words} {error}")


def check_params(estimator: BaseEstimator) -> None:
    """Check the constructor parameters against ``_parameter_constraints``; add the fix."""
    try:
        estimator._validate_params()
    except _SklearnInvalidParameterError as exc:
        found = re.search(r"The '(\w+)' parameter", str(exc))
        fix = FIXES.get(found.group(1), "") if found else ""
        raise InvalidParameterError(f"{exc} {fix}".strip()) from None


NO_Y = object()


@overload
def check_data(estimator: BaseEstimator, X: Any, *, reset: bool) -> Any: ...


@overload
def check_data(estimator: BaseEstimator, X: Any, y: Any, *, reset: bool) -> tuple[Any, NDArray[Any]]: ...


def check_data(estimator: BaseEstimator, X: Any, y: Any = NO_Y, *, reset: bool) -> Any:
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


def check_targets(y: NDArray[Any], *, binary_only: bool) -> NDArray[Any]:
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


def too_many(labels: NDArray[Any]) -> InputError:
    shown = ", ".join(map(str, labels[:5])) + (", ..." if labels.shape[0] > 5 else "")
    return v.fail(
        "y (the labels)",
        "two classes (Only binary classification is supported.)",
        f"{labels.shape[0]} classes ({shown})",
        "Use perceptronlab.Perceptron or perceptronlab.PocketPerceptron (one-vs-rest) for "
        "more classes, or relabel to two.",
    )


def is_signed(labels: NDArray[Any]) -> bool:
    return labels.dtype.kind in "iuf" and set(labels.tolist()) <= {-1, 1}


def classes_for_training(labels: NDArray[Any]) -> NDArray[Any]:
    """classes_ from the labels seen at fit: two or more, as scikit-learn's classifiers require.

    One class is refused, -1/+1 labels too, with scikit-learn's words first; the functional API
    (:func:`perceptronlab.perceptron`) keeps the lectures' one-class case (the worst case labels
    every basis vector +1).
    """
    if labels.shape[0] >= 2:
        return labels
    raise in_sklearn_words(
        f"The number of classes has to be greater than one; got {labels.shape[0]} class.",
        v.fail("y (the labels)", "at least two classes",
               f"only {python_label(labels[0])!r}" if labels.shape[0] else "no labels",
               "Training needs examples of two classes; for a run on one class (the lectures' worst case) "
               "use perceptronlab.perceptron(X, y)."))


def two_classes(classes: Any) -> NDArray[Any]:
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


def signs_of(y: NDArray[Any], classes: NDArray[Any]) -> NDArray[Any]:
    """+1 for ``classes[1]``, -1 for ``classes[0]``; labels outside ``classes`` are refused."""
    unknown = ~np.isin(y, classes)
    if unknown.any():
        raise v.fail(
            "y (the labels)",
            f"labels among classes_ {classes.tolist()}",
            f"{python_label(y[unknown][0])!r}",
            "Pass both labels of the stream before the first example: OnlinePerceptron(classes=[...]) or "
            "partial_fit(X, y, classes=[...]) (a binary learner has two).",
        )
    return np.where(y == classes[1], 1.0, -1.0)


def task_signs(y: NDArray[Any], classes: NDArray[Any]) -> list[NDArray[Any]]:
    """The ±1 labels of each run: one (``classes[1]`` is +1) for two classes, else one per class
    (``classes[k]`` is +1, the rest -1)."""
    if classes.shape[0] == 2:
        return [np.where(y == classes[1], 1.0, -1.0)]
    return [np.where(y == label, 1.0, -1.0) for label in classes]


def python_label(label: Any) -> Any:
    return label.item() if isinstance(label, np.generic) else label


# ---------------------------------------------------------------- parameter tables


ORDER_OPTIONS = StrOptions(set(v.ORDERS))
FAMILY_ORDER_OPTIONS = StrOptions(set(v.FAMILY_ORDERS))
#: the family's common parameters (Perceptron adds "random-mistake" to the orders)
FAMILY_CONSTRAINTS = {
    "eta0": [Interval(Real, 0, None, closed="neither")],
    "fit_intercept": ["boolean"],
    "order": [FAMILY_ORDER_OPTIONS],
    "margin": [Interval(Real, 0, None, closed="left")],
    "max_iter": [Interval(Integral, 1, None, closed="left")],
    "random_state": ["random_state"],
}
#: for the estimators that go on from where they are (warm_start, partial_fit)
WARM_CONSTRAINTS = {"warm_start": ["boolean"]}


def seed_of(random_state: Any) -> int | None:
    """The engine's seed for ``random_state``: None or an int as it is; a RandomState draws one (as
    scikit-learn draws its SGD seed from it)."""
    if random_state is None or isinstance(random_state, Integral):
        return None if random_state is None else int(random_state)
    return int(random_state.randint(np.iinfo(np.int32).max))


# ---------------------------------------------------------------- shared estimator code


def portable(run: Run) -> Run:
    """A copy of a Run without the training data: errors_after_sweep computed, data dropped."""
    run.errors_after_sweep  # noqa: B018 -- computes the per-sweep errors while the data is here
    light = copy.copy(run)
    light.data = None
    light.checkpoints = {}
    light.errors_after_sweep_known = dict(run.errors_after_sweep_known)
    return light


class RunClassifierBase(EstimatorNames, ClassifierMixin, BaseEstimator):
    """Tags, pickling, the fitted check, the one-vs-rest loop and the warnings of every classifier
    whose fit runs the engine and keeps its runs in ``run_``."""

    # what fit sets (annotations only: an unfitted estimator has none of them); with more than two
    # classes, one entry per one-vs-rest run
    classes_: NDArray[Any]
    n_mistakes_: int | NDArray[np.int64]
    n_sweeps_: int | NDArray[np.int64]
    converged_: bool | NDArray[np.bool_]
    n_iter_: int
    run_: Run | list[Run]

    #: the attribute fit sets, and what the message says it learns
    _fitted_attribute = "coef_"
    _fitted_what = "weights"
    #: said after "did not converge: no clean sweep within max_iter=N sweeps"
    _not_converged_advice = (". The data may not be linearly separable; raise max_iter, or use "
                             "perceptronlab.PocketPerceptron.")

    def __sklearn_tags__(self) -> Any:
        tags = super().__sklearn_tags__()
        tags.input_tags.sparse = True  # deterministic for a given random_state (non_deterministic stays False)
        return tags

    def __getstate__(self) -> dict[str, Any]:
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

    def fit(self, X: MatrixLike, y: ArrayLike) -> Self:
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
        classes = classes_for_training(check_targets(y, binary_only=False))
        self._warn(self._train_tasks(X, y, classes, go_on=self._warm(classes)))
        return self

    def _warm(self, classes: NDArray[Any]) -> bool:
        """Whether this fit goes on from the last one (``warm_start``, fitted, the same classes)."""
        if not getattr(self, "warm_start", False) or not self.__sklearn_is_fitted__():
            return False
        if not np.array_equal(classes, self.classes_):
            raise v.fail("y (the labels)", f"the classes of the fit that warm_start goes on from, "
                         f"{self.classes_.tolist()}", f"{classes.tolist()}",
                         "Pass warm_start=False to start over on new classes.")
        return True

    def _trainer(self, X: Any) -> Callable[..., tuple[Run, Any]]:
        """``train(X, signs, start, sweeps) -> (Run, state)`` with this estimator's parameters (``X``
        is the whole training set, for what the runs of one fit share): ``start`` is where a run
        goes on from (None: w = 0), ``sweeps`` its sweeps (None: ``max_iter``), ``state`` what the
        next run would go on from."""
        return self._train

    def _train(self, X: Any, signs: Float64Array, start: Any = None, sweeps: int | None = None) -> tuple[Run, Any]:  # pragma: no cover - each estimator says how it trains
        raise NotImplementedError

    def _starts(self, n_tasks: int) -> list[Any]:  # pragma: no cover - for the estimators that go on
        """Where each run goes on from (warm_start, partial_fit)."""
        raise NotImplementedError

    def _fitted(self, runs: list[Run], states: list[Any], partial: bool = False) -> None:
        """What fit keeps besides the runs."""

    def _train_tasks(self, X: Any, y: NDArray[Any], classes: NDArray[Any], *, go_on: bool, sweeps: int | None = None,
                     partial: bool = False) -> list[Run]:
        """One run for two classes (classes_[1] is +1), one per class otherwise, each from w = 0
        or, with ``go_on``, from where the last one ended; sets classes_, n_mistakes_, n_sweeps_,
        converged_, n_iter_ and run_ (arrays / a list for several)."""
        tasks = task_signs(y, classes)
        starts = self._starts(len(tasks)) if go_on else [None] * len(tasks)
        train = self._trainer(X)
        runs, states = [], []
        for signs, start in zip(tasks, starts, strict=True):
            run, state = train(X, signs, start, sweeps)
            runs.append(run)
            states.append(state)
        self._keep_runs(classes, runs, partial=partial)
        self._fitted(runs, states, partial)
        return runs

    def _keep_runs(self, classes: NDArray[Any], runs: list[Run], partial: bool = False) -> None:
        binary = len(runs) == 1
        mistakes = np.array([r.mistakes for r in runs])
        sweeps = np.array([r.sweeps for r in runs])
        if partial and "n_mistakes_" in self.__dict__:  # partial_fit counts since the last fit began
            mistakes = mistakes + self.n_mistakes_
            sweeps = sweeps + self.n_sweeps_
        self.classes_ = classes
        self.n_mistakes_ = int(mistakes[0]) if binary else mistakes
        self.n_sweeps_ = int(sweeps[0]) if binary else sweeps
        self.converged_ = runs[0].converged if binary else np.array([r.converged for r in runs])
        self.n_iter_ = max(r.sweeps for r in runs)
        self.run_ = runs[0] if binary else runs

    def _warn(self, runs: list[Run]) -> None:
        """The warnings of one fit (called from ``fit`` itself, so they point at the caller)."""
        for kind, message in self._warnings(runs):
            _exceptions.warn(kind, message, stacklevel=3)

    def _warnings(self, runs: list[Run]) -> Iterator[tuple[str, str]]:
        """(kind, message) of CycledWarning / NotConvergedWarning for the runs of one fit, naming the
        one-vs-rest classes concerned."""
        name = type(self).__name__

        def which(flags: list[bool]) -> str:
            if len(runs) == 1:
                return ""
            return " (" + ", ".join(f"class {python_label(c)!r} vs rest"
                                    for c, flag in zip(self.classes_, flags, strict=True) if flag) + ")"

        cycled = [r.cycled for r in runs]
        stopped = [not r.converged and not r.cycled and not r.stopped for r in runs]
        if any(cycled):
            yield "CycledWarning", (
                f"{name}: the weights at the start of a sweep repeated an earlier sweep's{which(cycled)}, so the "
                "cyclic perceptron will never converge on this data. Use perceptronlab.PocketPerceptron for the "
                "weights with the fewest training errors.")
        if any(stopped):
            yield "NotConvergedWarning", (f"{name} did not converge: no clean sweep within max_iter={self.max_iter} "
                                          f"sweeps{which(stopped)}{self._not_converged_advice}")


class LinearClassifier(RunClassifierBase):
    """decision_function / predict for weights ``coef_`` (one row per class) and ``intercept_``:
    the core's feature-order scores and its tie rule (:mod:`perceptronlab.core.scores`)."""

    coef_: Float64Array
    intercept_: Float64Array

    def _fitted(self, runs: list[Run], states: list[Any], partial: bool = False) -> None:
        # float32 weights (scikit-learn's float32 path) stay float32; the intercept too, with
        # several classes (scikit-learn keeps a binary fit's intercept in float64)
        dtype = np.float32 if all(np.asarray(run.w).dtype == np.float32 for run in runs) else np.float64
        self.coef_ = np.vstack([np.asarray(run.w, dtype=dtype) for run in runs])
        self.intercept_ = np.array([float(run.b) for run in runs], dtype=dtype if len(runs) > 1 else np.float64)

    def decision_function(self, X: MatrixLike) -> Float64Array:
        """Signed scores ⟨w, x⟩ + b: shape (n,) for two classes (> 0 means ``classes_[1]``), else
        (n, n_classes), one column per one-vs-rest model."""
        self._check_fitted("decision_function")
        X = check_data(self, X, reset=False)
        scores = score_matrix(X, np.asarray(self.coef_, dtype=np.float64), np.asarray(self.intercept_, dtype=np.float64))
        return scores[:, 0] if scores.shape[1] == 1 else scores

    def predict(self, X: MatrixLike) -> NDArray[Any]:
        """``classes_[1]`` where the score is > 0, else ``classes_[0]`` (a tie is not positive, as
        in the rule); with more classes, the class of the highest one-vs-rest score."""
        self._check_fitted("predict")
        return labels(self.decision_function(X), self.classes_)


class PartialFit(_EstimatorMixin):
    """``partial_fit``: one sweep over a batch, from where the estimator is."""

    def partial_fit(self, X: MatrixLike, y: ArrayLike, classes: ArrayLike | None = None) -> Self:
        """One sweep over the batch (X, y), going on from where the last fit or partial_fit ended.

        Parameters
        ----------
        X : array-like or sparse matrix (CSR) of shape (n_samples, n_features)
        y : array-like of shape (n_samples,)
        classes : array-like of every class label of the stream, needed on the first call (a
            batch need not hold every class); later calls may omit it.

        Returns
        -------
        self
        """
        check_params(self)
        first = not self.__sklearn_is_fitted__()
        X, y = check_data(self, X, y, reset=first)
        self._sweep_once(X, y, partial_classes(self, classes, y, first), go_on=not first)
        return self

    def _sweep_once(self, X: Any, y: NDArray[Any], classes: NDArray[Any], *, go_on: bool) -> None:
        self._train_tasks(X, y, classes, go_on=go_on, sweeps=1, partial=True)


def partial_classes(estimator: Any, classes: Any, y: NDArray[Any], first: bool) -> NDArray[Any]:
    """The classes of a partial_fit call: given on the first call, the same ever after; every
    label of ``y`` among them."""
    check_targets(y, binary_only=False)
    if first:
        if classes is None:
            raise v.fail("classes", "every class label of the stream on the first call to partial_fit",
                         "None", "Pass partial_fit(X, y, classes=np.unique(y_all)); later batches need not "
                         "hold every class.")
        known = classes_for_training(check_targets(np.asarray(classes), binary_only=False))
    else:
        known = estimator.classes_
        if classes is not None and not np.array_equal(np.unique(np.asarray(classes)), known):
            raise v.fail("classes", f"the classes of the first call, {known.tolist()}",
                         f"{np.asarray(classes).tolist()}", "Pass classes only on the first call, or call "
                         "fit to start over.")
    unknown = ~np.isin(y, known)
    if unknown.any():
        raise v.fail("y (the labels)", f"labels among classes {known.tolist()}",
                     f"{python_label(y[unknown][0])!r}", "Pass every label of the stream in classes=[...] on "
                     "the first call to partial_fit.")
    return known
