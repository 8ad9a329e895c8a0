"""The estimators' base classes: tags, pickling, the fitted check, the one-vs-rest loop and the
warnings of every classifier whose fit runs the engine (:class:`RunClassifierBase`), the linear
decision function (:class:`LinearClassifier`) and ``partial_fit`` (:class:`PartialFit`).

The boundary's parts live beside it: errors (``_errors``), parameters (``_params``), the data check
(``_data``) and labels (``_labels``).
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, Any

import numpy as np
from sklearn.base import BaseEstimator, ClassifierMixin

from perceptronlab import exceptions as _exceptions
from perceptronlab._ground import validation as v
from perceptronlab.core.scores import labels, score_matrix
from perceptronlab.estimators._data import check_data
from perceptronlab.estimators._errors import NotFittedError
from perceptronlab.estimators._labels import (
    check_targets,
    classes_for_training,
    partial_classes,
    python_label,
    task_signs,
)
from perceptronlab.estimators._params import (
    EstimatorNames,
    check_estimator_params,
    refuse_fit_params,
)

if TYPE_CHECKING:
    from numpy.typing import ArrayLike, NDArray

    # for the type checker, the mixins below are estimators (they are mixed into scikit-learn's)
    from sklearn.base import BaseEstimator as _EstimatorMixin
    from typing_extensions import Self

    from perceptronlab._ground.types import Float64Array, MatrixLike
    from perceptronlab.core.run import Run
else:
    _EstimatorMixin = object


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
    _not_converged_advice = (
        ". The data may not be linearly separable; raise max_iter, or use "
        "perceptronlab.PocketPerceptron."
    )

    def __sklearn_tags__(self) -> Any:
        tags = super().__sklearn_tags__()
        tags.input_tags.sparse = (
            True  # deterministic for a given random_state (non_deterministic stays False)
        )
        return tags

    def __getstate__(self) -> dict[str, Any]:
        # Pickles carry the model, not the training set the runs point at.
        state = dict(super().__getstate__())  # for non-sklearn modules that is the live __dict__
        if "run_" in state:
            runs = state["run_"]
            state["run_"] = (
                [portable(r) for r in runs] if isinstance(runs, list) else portable(runs)
            )
        return state

    def __sklearn_is_fitted__(self) -> bool:
        return self._fitted_attribute in self.__dict__

    def _check_fitted(self, method: str) -> None:
        if self._fitted_attribute not in self.__dict__:
            raise NotFittedError(
                f"This {type(self).__name__} instance is not fitted yet: {method} needs the "
                f"{self._fitted_what} that fit(X, y) learns. Call fit(X, y) before {method}(X)."
            )

    def fit(self, X: MatrixLike, y: ArrayLike, **fit_params: Any) -> Self:
        """Fit on (X, y): one engine run for two classes (``classes_[1]`` is +1), one run per class
        (``classes_[k]`` against the rest) otherwise, or one run for all the classes where the
        estimator learns them at once (:class:`~perceptronlab.MulticlassPerceptron`).

        Parameters
        ----------
        X : array-like or sparse matrix (CSR) of shape (n_samples, n_features)
        y : array-like of shape (n_samples,); any labels (two classes or more).
        **fit_params
            None is taken: scikit-learn's ``sample_weight``, ``coef_init`` and ``intercept_init``
            are refused with the reason (a TypeError).

        Returns
        -------
        self
        """
        refuse_fit_params(self, "fit", fit_params)
        check_estimator_params(self)
        X, y = check_data(self, X, y, reset=True)
        classes = classes_for_training(check_targets(y, binary_only=False))
        self._warn(self._train_tasks(X, y, classes, go_on=self._warm(classes)))
        return self

    def _warm(self, classes: NDArray[Any]) -> bool:
        """Whether this fit goes on from the last one (``warm_start``, fitted, the same classes)."""
        if not getattr(self, "warm_start", False) or not self.__sklearn_is_fitted__():
            return False
        if not np.array_equal(classes, self.classes_):
            raise v.fail(
                "y (the labels)",
                f"the classes of the fit that warm_start goes on from, {self.classes_.tolist()}",
                f"{classes.tolist()}",
                "Pass warm_start=False to start over on new classes.",
            )
        return True

    def _trainer(self, X: Any) -> Callable[..., tuple[Run, Any]]:
        """``train(X, signs, start, sweeps) -> (Run, state)`` with this estimator's parameters (``X``
        is the whole training set, for what the runs of one fit share): ``start`` is where a run
        goes on from (None: w = 0), ``sweeps`` its sweeps (None: ``max_iter``), ``state`` what the
        next run would go on from."""
        return self._train

    def _train(
        self, X: Any, signs: Float64Array, start: Any = None, sweeps: int | None = None
    ) -> tuple[Run, Any]:  # pragma: no cover - each estimator says how it trains
        raise NotImplementedError

    def _starts(
        self, n_tasks: int
    ) -> list[Any]:  # pragma: no cover - for the estimators that go on
        """Where each run goes on from (warm_start, partial_fit)."""
        raise NotImplementedError

    def _fitted(self, runs: list[Run], states: list[Any], partial: bool = False) -> None:
        """What fit keeps besides the runs."""

    def _train_tasks(
        self,
        X: Any,
        y: NDArray[Any],
        classes: NDArray[Any],
        *,
        go_on: bool,
        sweeps: int | None = None,
        partial: bool = False,
    ) -> list[Run]:
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
        if (
            partial and "n_mistakes_" in self.__dict__
        ):  # partial_fit counts since the last fit began
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
            return (
                " ("
                + ", ".join(
                    f"class {python_label(c)!r} vs rest"
                    for c, flag in zip(self.classes_, flags, strict=True)
                    if flag
                )
                + ")"
            )

        cycled = [r.cycled for r in runs]
        stopped = [not r.converged and not r.cycled and not r.stopped for r in runs]
        if any(cycled):
            yield (
                "CycledWarning",
                (
                    f"{name}: the weights at the start of a sweep repeated an earlier sweep's{which(cycled)}, so the "
                    "cyclic perceptron will never converge on this data. Use perceptronlab.PocketPerceptron for the "
                    "weights with the fewest training errors."
                ),
            )
        if any(stopped):
            yield (
                "NotConvergedWarning",
                (
                    f"{name} did not converge: no clean sweep within max_iter={self.max_iter} "
                    f"sweeps{which(stopped)}{self._not_converged_advice}"
                ),
            )


class LinearClassifier(RunClassifierBase):
    """decision_function / predict for weights ``coef_`` (one row per class) and ``intercept_``:
    the core's feature-order scores and its tie rule (:mod:`perceptronlab.core.scores`)."""

    coef_: Float64Array
    intercept_: Float64Array

    def _fitted(self, runs: list[Run], states: list[Any], partial: bool = False) -> None:
        # float32 weights (scikit-learn's float32 path) stay float32; the intercept too, with
        # several classes (scikit-learn keeps a binary fit's intercept in float64)
        dtype = (
            np.float32 if all(np.asarray(run.w).dtype == np.float32 for run in runs) else np.float64
        )
        self.coef_ = np.vstack([np.asarray(run.w, dtype=dtype) for run in runs])
        self.intercept_ = np.array(
            [float(run.b) for run in runs], dtype=dtype if len(runs) > 1 else np.float64
        )

    def decision_function(self, X: MatrixLike) -> Float64Array:
        """Signed scores ⟨w, x⟩ + b: shape (n,) for two classes (> 0 means ``classes_[1]``), else
        (n, n_classes), one column per one-vs-rest model."""
        self._check_fitted("decision_function")
        X = check_data(self, X, reset=False)
        coef = self.coef_.toarray() if hasattr(self.coef_, "toarray") else self.coef_
        scores = score_matrix(
            X,
            np.asarray(coef, dtype=np.float64),
            np.asarray(self.intercept_, dtype=np.float64),
        )
        return scores[:, 0] if scores.shape[1] == 1 else scores

    def sparsify(self) -> Self:
        """``coef_`` as a SciPy CSR matrix (scikit-learn's ``sparsify``: less memory for weights
        that are mostly zero, e.g. after ``penalty="l1"``); predictions stay the same."""
        import scipy.sparse as sp

        self._check_fitted("sparsify")
        self.coef_ = sp.csr_matrix(self.coef_)
        return self

    def densify(self) -> Self:
        """``coef_`` back as a NumPy array (scikit-learn's ``densify``; the default)."""
        self._check_fitted("densify")
        if hasattr(self.coef_, "toarray"):
            self.coef_ = self.coef_.toarray()
        return self

    def predict(self, X: MatrixLike) -> NDArray[Any]:
        """``classes_[1]`` where the score is > 0, else ``classes_[0]`` (a tie is not positive, as
        in the rule); with more classes, the class of the highest one-vs-rest score."""
        self._check_fitted("predict")
        return labels(self.decision_function(X), self.classes_)


class PartialFit(_EstimatorMixin):
    """``partial_fit``: one sweep over a batch, from where the estimator is."""

    def partial_fit(
        self, X: MatrixLike, y: ArrayLike, classes: ArrayLike | None = None, **fit_params: Any
    ) -> Self:
        """One sweep over the batch (X, y), going on from where the last fit or partial_fit ended.

        Parameters
        ----------
        X : array-like or sparse matrix (CSR) of shape (n_samples, n_features)
        y : array-like of shape (n_samples,)
        classes : array-like of every class label of the stream, needed on the first call (a
            batch need not hold every class); later calls may omit it.
        **fit_params
            None is taken: scikit-learn's ``sample_weight`` is refused with the reason (a TypeError).

        Returns
        -------
        self
        """
        refuse_fit_params(self, "partial_fit", fit_params)
        check_estimator_params(self)
        first = not self.__sklearn_is_fitted__()
        X, y = check_data(self, X, y, reset=first)
        self._sweep_once(X, y, partial_classes(self, classes, y, first), go_on=not first)
        return self

    def _sweep_once(self, X: Any, y: NDArray[Any], classes: NDArray[Any], *, go_on: bool) -> None:
        self._train_tasks(X, y, classes, go_on=go_on, sweeps=1, partial=True)
