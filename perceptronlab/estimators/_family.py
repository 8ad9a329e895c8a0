"""The family as scikit-learn classifiers: AveragedPerceptron, VotedPerceptron, KernelPerceptron,
MulticlassPerceptron.

Thin faces with the conventions of :class:`perceptronlab.Perceptron` (and its base, which they
share): keyword-only ``__init__`` storing the parameters unchanged, a
``_parameter_constraints`` table, ``validate_data`` at fit and again (``reset=False``) at predict,
``classes_[1]`` as +1 for two classes, and more classes learned one-vs-rest (one run per class,
``classes_[k]`` against the rest), except :class:`MulticlassPerceptron`, which learns all classes at
once. A decision of 0 predicts ``classes_[0]`` (a tie is not positive, as in the rule).
"""

from __future__ import annotations

from collections.abc import Callable
from numbers import Integral, Real
from typing import TYPE_CHECKING, Any

import numpy as np
from sklearn.utils._param_validation import Interval, StrOptions

from perceptronlab._ground import validation as v
from perceptronlab.core.scores import labels, score_matrix
from perceptronlab.estimators._base import LinearClassifier, PartialFit, RunClassifierBase
from perceptronlab.estimators._data import check_data
from perceptronlab.estimators._params import (
    FAMILY_CONSTRAINTS,
    WARM_CONSTRAINTS,
    seed_of,
)
from perceptronlab.family.averaged import AveragedEngine, drive_averaged
from perceptronlab.family.kernel import (
    CACHE_MODES,
    KERNELS,
    VARIANTS,
    ColumnCache,
    fit_kernel,
    resolve_kernel,
    use_gram,
)
from perceptronlab.family.multiclass import MulticlassEngine, drive_multiclass
from perceptronlab.family.settings import RunSettings
from perceptronlab.family.voted import voted_perceptron

if TYPE_CHECKING:
    from numpy.typing import NDArray

    from perceptronlab._ground.types import Float64Array, MatrixLike, RandomState
    from perceptronlab.core.run import Run
    from perceptronlab.family.kernel import CacheMode, GammaRule, Kernel, KernelFunction, Variant

__all__ = ["AveragedPerceptron", "VotedPerceptron", "KernelPerceptron", "MulticlassPerceptron"]

#: said after "did not converge: no clean sweep within max_iter=N sweeps"
_FIXED_SWEEPS_ADVICE = (
    "; the model uses all the sweeps. Raise max_iter for separable data (a fixed number "
    "of sweeps is normal for noisy data)."
)
_SIGNS = np.array([-1, 1])


def _family_settings(estimator: Any, sweeps: int) -> RunSettings:
    """A run's settings, in the functional API's names (a run is the functional API's result)."""
    e, seed = estimator, seed_of(estimator.random_state)
    return RunSettings(e.eta0, bool(e.fit_intercept), e.order, e.margin, sweeps, seed)


class AveragedPerceptron(PartialFit, LinearClassifier):
    """The averaged perceptron as a scikit-learn classifier, over :func:`perceptronlab.averaged_perceptron`.

    The perceptron's iterates (w starts at 0, a mistake when y(⟨w,x⟩ + b) ≤ ρ₀, ties count),
    averaged over every step of every sweep: w̄ = (1/T) Σ_t w_t with T = sweeps · n, kept lazily so a
    sweep costs what the plain perceptron's does.

    Parameters
    ----------
    eta0 : float > 0, default=1.0
    fit_intercept : bool, default=True
    order : {"cyclic", "shuffle"}, default="cyclic"
    margin : float >= 0, default=0.0
    max_iter : int >= 1, default=100
        The most sweeps: the run stops at a clean sweep or here.
    warm_start : bool, default=False
        ``fit`` goes on from where the last fit ended: from its last iterate, averaging over the
        steps of both.
    random_state : None, int >= 0 or numpy RandomState, default=None
        Seeds ``order="shuffle"``.

    Attributes
    ----------
    coef_, intercept_ : the averaged weights, shape (1, d)/(1,) for two classes, else one row per
        class (one-vs-rest).
    last_coef_, last_intercept_ : the last iterate (where a warm start or ``partial_fit`` goes on).
    classes_, n_mistakes_, n_sweeps_, n_iter_, converged_, run_, n_features_in_ : as in
        :class:`perceptronlab.Perceptron`; ``run_.n_steps`` is T.

    Notes
    -----
    ``partial_fit(X, y, classes)`` is one sweep over the batch from the last iterate, and the
    average goes on over every step so far: after batches B₁, …, B_m (or a fit and then batches) it
    is the average of the iterates after every step of every one of them, as if the batches were
    one stream.

    Examples
    --------
    >>> from perceptronlab import AveragedPerceptron
    >>> clf = AveragedPerceptron(fit_intercept=False).fit([[1, 0], [1, 1], [0, 1]], [1, -1, -1])
    >>> clf.n_mistakes_, clf.n_sweeps_, (clf.coef_ * 12).round(9).tolist()
    (5, 4, [[8.0, -19.0]])
    """

    _parameter_constraints: dict[str, list[Any]] = {**FAMILY_CONSTRAINTS, **WARM_CONSTRAINTS}
    _not_converged_advice = _FIXED_SWEEPS_ADVICE

    def __init__(
        self,
        *,
        eta0: float = 1.0,
        fit_intercept: bool = True,
        order: v.FamilyOrder = "cyclic",
        margin: float = 0.0,
        max_iter: int = 100,
        warm_start: bool = False,
        random_state: RandomState = None,
    ) -> None:
        self.eta0 = eta0
        self.fit_intercept = fit_intercept
        self.order = order
        self.margin = margin
        self.max_iter = max_iter
        self.warm_start = warm_start
        self.random_state = random_state

    def _train(
        self, X: Any, signs: Float64Array, start: Any = None, sweeps: int | None = None
    ) -> tuple[Run, Any]:
        X = v.check_matrix(X, check_finite=False)
        settings = _family_settings(self, self.max_iter if sweeps is None else sweeps)
        engine = AveragedEngine(X, signs, **settings.rule)
        if start is not None:
            engine.resume(start)
        run = drive_averaged(engine, settings, settings.params(), _SIGNS)
        return run, engine.state()

    last_coef_: Float64Array
    last_intercept_: Float64Array
    _states: list[Any]

    def _starts(self, n_tasks: int) -> list[Any]:
        return list(self._states)

    def _fitted(self, runs: list[Run], states: list[Any], partial: bool = False) -> None:
        super()._fitted(runs, states, partial)
        self.last_coef_ = np.vstack([state[0] for state in states])
        self.last_intercept_ = np.array([state[1] for state in states])
        self._states = states


class RunClassifier(RunClassifierBase):
    """One-vs-rest over runs that predict: decision_function stacks each run's decision."""

    _fitted_attribute = "run_"
    _fitted_what = "model"
    _not_converged_advice = _FIXED_SWEEPS_ADVICE

    def decision_function(self, X: MatrixLike) -> Float64Array:
        """Shape (n,) for two classes (> 0 means ``classes_[1]``), else (n, n_classes), one
        column per one-vs-rest model."""
        self._check_fitted("decision_function")
        X = check_data(self, X, reset=False)
        runs: list[Any] = (
            self.run_ if isinstance(self.run_, list) else [self.run_]
        )  # the family's runs predict
        scores = np.column_stack([run.decision_function(X) for run in runs])
        return scores[:, 0] if scores.shape[1] == 1 else scores

    def predict(self, X: MatrixLike) -> NDArray[Any]:
        """``classes_[1]`` where the decision is > 0, else ``classes_[0]``; with more classes, the
        class of the highest one-vs-rest decision (ties: the first)."""
        return labels(self.decision_function(X), self.classes_)


class VotedPerceptron(RunClassifier):
    """The voted perceptron (Freund & Schapire 1999) over :func:`perceptronlab.voted_perceptron`.

    Every iterate w_k votes sign(⟨w_k, x⟩ + b_k) with weight c_k, the number of steps it survived;
    the decision is Σ c_k sign(⟨w_k,x⟩ + b_k) / Σ c_k in [−1, 1].

    Parameters
    ----------
    eta0, fit_intercept, order, margin, max_iter, random_state : as in :class:`AveragedPerceptron`.
    max_vectors : int >= 1 or None, default=None
        Keep at most this many voting vectors per run: those with the largest survival counts.

    Attributes
    ----------
    classes_, n_mistakes_, n_sweeps_, n_iter_, converged_, n_features_in_ : as in
        :class:`perceptronlab.Perceptron`.
    run_ : :class:`perceptronlab.family.voted.VotedRun` (a list for one-vs-rest) with
        ``vectors``, ``intercepts``, ``counts``.

    Examples
    --------
    >>> from perceptronlab import VotedPerceptron
    >>> clf = VotedPerceptron(fit_intercept=False).fit([[1, 0], [1, 1], [0, 1]], [1, -1, -1])
    >>> clf.run_.counts.tolist(), clf.predict([[3, 1], [0, 1]]).tolist()
    ([1, 2, 1, 2, 6], [1, -1])
    """

    _parameter_constraints: dict[str, list[Any]] = {
        **FAMILY_CONSTRAINTS,
        "max_vectors": [Interval(Integral, 1, None, closed="left"), None],
    }

    def __init__(
        self,
        *,
        eta0: float = 1.0,
        fit_intercept: bool = True,
        order: v.FamilyOrder = "cyclic",
        margin: float = 0.0,
        max_iter: int = 100,
        max_vectors: int | None = None,
        random_state: RandomState = None,
    ) -> None:
        self.eta0 = eta0
        self.fit_intercept = fit_intercept
        self.order = order
        self.margin = margin
        self.max_iter = max_iter
        self.max_vectors = max_vectors
        self.random_state = random_state

    def _train(
        self, X: Any, signs: Float64Array, start: Any = None, sweeps: int | None = None
    ) -> tuple[Run, Any]:
        return voted_perceptron(
            X,
            signs,
            eta=self.eta0,
            fit_intercept=self.fit_intercept,
            order=self.order,
            margin=self.margin,
            max_sweeps=self.max_iter,
            max_vectors=self.max_vectors,
            seed=seed_of(self.random_state),
            warn=False,
        ), None


class KernelPerceptron(RunClassifier):
    """The kernel perceptron (dual form) over :func:`perceptronlab.kernel_perceptron`.

    f(x) = η Σ α_i y_i K(x_i, x) + b with α_i the mistakes on x_i; ``kernel="linear"`` is the
    primal perceptron. One-vs-rest runs share one Gram matrix.

    Parameters
    ----------
    kernel : {"rbf", "poly", "linear"} or callable, default="rbf"
        A callable takes (A, B) and returns the Gram block K(A, B).
    degree : int >= 1, default=3
    gamma : {"scale", "auto"} or float > 0, default="scale"
    coef0 : float, default=1.0
        poly is (γ⟨x,z⟩ + coef0)^degree; rbf is exp(−γ‖x − z‖²).
    variant : {"last", "averaged", "voted"}, default="last"
    budget : int >= 1 or None, default=None
        At most this many support entries; the oldest leaves first.
    cache : {"auto", "full", "none"}, default="auto"
        "auto": the Gram cache, filled on demand up to 256 MiB (all columns for n ≤ 5,792);
        "full": the whole Gram matrix up front; "none": no cache. One-vs-rest runs share it.
    eta0, fit_intercept, order, margin, max_iter, random_state : as in :class:`AveragedPerceptron`.

    Attributes
    ----------
    classes_, n_mistakes_, n_sweeps_, n_iter_, converged_, n_features_in_ : as in
        :class:`perceptronlab.Perceptron`.
    run_ : :class:`perceptronlab.family.kernel.KernelRun` (a list for one-vs-rest) with
        ``support``, ``dual_coef``, ``alpha``.

    Examples
    --------
    XOR, separable with the kernel (1 + ⟨x, z⟩)²:

    >>> from perceptronlab import KernelPerceptron
    >>> X, y = [[1, 1], [-1, -1], [1, -1], [-1, 1]], [1, 1, 0, 0]
    >>> clf = KernelPerceptron(kernel="poly", degree=2, gamma=1.0, fit_intercept=False).fit(X, y)
    >>> clf.converged_, clf.predict(X).tolist()
    (True, [1, 1, 0, 0])
    """

    _parameter_constraints: dict[str, list[Any]] = {
        **FAMILY_CONSTRAINTS,
        "kernel": [StrOptions(set(KERNELS)), callable],
        "degree": [Interval(Integral, 1, None, closed="left")],
        "gamma": [StrOptions({"scale", "auto"}), Interval(Real, 0, None, closed="neither")],
        "coef0": [Interval(Real, None, None, closed="neither")],
        "variant": [StrOptions(set(VARIANTS))],
        "budget": [Interval(Integral, 1, None, closed="left"), None],
        "cache": [StrOptions(set(CACHE_MODES))],
    }

    def __init__(  # noqa: PLR0913 (scikit-learn's parameters, stored as given)
        self,
        *,
        kernel: Kernel | KernelFunction = "rbf",
        degree: int = 3,
        gamma: float | GammaRule = "scale",
        coef0: float = 1.0,
        variant: Variant = "last",
        budget: int | None = None,
        cache: CacheMode = "auto",
        eta0: float = 1.0,
        fit_intercept: bool = True,
        order: v.FamilyOrder = "cyclic",
        margin: float = 0.0,
        max_iter: int = 100,
        random_state: RandomState = None,
    ) -> None:
        self.kernel = kernel
        self.degree = degree
        self.gamma = gamma
        self.coef0 = coef0
        self.variant = variant
        self.budget = budget
        self.cache = cache
        self.eta0 = eta0
        self.fit_intercept = fit_intercept
        self.order = order
        self.margin = margin
        self.max_iter = max_iter
        self.random_state = random_state

    def _trainer(self, X: Any) -> Callable[..., tuple[Run, Any]]:
        """One kernel for all the one-vs-rest runs, and one Gram matrix or cache of columns."""
        spec = resolve_kernel(X, self.kernel, self.degree, self.gamma, self.coef0)
        gram = spec(X, X) if use_gram(spec, self.cache) else None
        columns = None if gram is not None else ColumnCache(X.shape[0], self.cache == "auto")

        def train(
            X: Any, signs: Float64Array, start: Any = None, sweeps: int | None = None
        ) -> tuple[Run, None]:
            return fit_kernel(
                X,
                signs,
                np.array([-1, 1]),
                spec,
                _family_settings(self, self.max_iter),
                variant=self.variant,
                budget=self.budget,
                cache=self.cache,
                warn=False,
                gram=gram,
                columns=columns,
            ), None

        return train


class MulticlassPerceptron(PartialFit, RunClassifierBase):
    """The multiclass perceptron (Collins 2002) over :func:`perceptronlab.multiclass_perceptron`.

    One weight vector per class; predicts argmax_k ⟨w_k, x⟩ + b_k (ties: the first class); a
    mistake when the true class does not win outright, then w_y += η x and w_r −= η x for the best
    rival r. All classes are learned in one run (no one-vs-rest).

    Parameters
    ----------
    averaged : bool, default=False
        Use W averaged over every step.
    eta0, fit_intercept, order, margin, max_iter, warm_start, random_state : as in
        :class:`AveragedPerceptron`.

    Attributes
    ----------
    coef_ : ndarray (n_classes, n_features), one row per class (two rows for two classes).
    intercept_ : ndarray (n_classes,).
    last_coef_, last_intercept_ : the last iterate W, B (``coef_`` itself unless ``averaged``).
    classes_, n_mistakes_, n_sweeps_, n_iter_, converged_, n_features_in_ : as in
        :class:`perceptronlab.Perceptron` (one run, so scalars).
    run_ : :class:`perceptronlab.family.multiclass.MulticlassRun`.

    Notes
    -----
    ``partial_fit(X, y, classes)`` is one sweep of Collins' update over the batch from the last
    W (a batch need not hold every class; ``classes`` names them all on the first call); with
    ``averaged`` the average goes on over every step of every call, as one stream.

    Examples
    --------
    >>> from perceptronlab import MulticlassPerceptron
    >>> X = [[2, 0], [0, 2], [-2, -2], [3, 1], [1, 3], [-1, -3]]
    >>> clf = MulticlassPerceptron(fit_intercept=False).fit(X, ["a", "b", "c", "a", "b", "c"])
    >>> clf.coef_.shape, clf.score(X, ["a", "b", "c", "a", "b", "c"])
    ((3, 2), 1.0)
    """

    _parameter_constraints: dict[str, list[Any]] = {
        **FAMILY_CONSTRAINTS,
        "averaged": ["boolean"],
        **WARM_CONSTRAINTS,
    }
    _not_converged_advice = _FIXED_SWEEPS_ADVICE

    def __init__(
        self,
        *,
        averaged: bool = False,
        eta0: float = 1.0,
        fit_intercept: bool = True,
        order: v.FamilyOrder = "cyclic",
        margin: float = 0.0,
        max_iter: int = 100,
        warm_start: bool = False,
        random_state: RandomState = None,
    ) -> None:
        self.averaged = averaged
        self.eta0 = eta0
        self.fit_intercept = fit_intercept
        self.order = order
        self.margin = margin
        self.max_iter = max_iter
        self.warm_start = warm_start
        self.random_state = random_state

    def _train_tasks(self, X: Any, y: NDArray[Any], classes: NDArray[Any], **how: Any) -> list[Run]:
        """All the classes in one run (no one-vs-rest), for ``fit`` and ``partial_fit`` (``how``:
        ``go_on``, and ``sweeps`` and ``partial`` as in the base's)."""
        sweeps = how.pop("sweeps", None)
        return [
            self._learn(X, y, classes, sweeps=self.max_iter if sweeps is None else sweeps, **how)
        ]

    last_coef_: Float64Array
    last_intercept_: Float64Array
    _state: tuple[Any, ...]

    def _learn(
        self,
        X: Any,
        y: NDArray[Any],
        classes: NDArray[Any],
        *,
        go_on: bool,
        sweeps: int,
        partial: bool = False,
    ) -> Run:
        X = v.check_matrix(X, check_finite=False)
        codes = np.searchsorted(classes, y).astype(np.int64)
        settings = _family_settings(self, sweeps)
        engine = MulticlassEngine(X, codes, classes.shape[0], **settings.rule)
        if go_on:
            engine.resume(self._state)
        averaged = bool(self.averaged)
        params = settings.params(averaged=averaged)
        run = drive_multiclass(engine, settings, params, classes, averaged=averaged)
        self._keep_runs(classes, [run], partial=partial)
        self.coef_ = np.asarray(run.w, dtype=np.float64)
        self.intercept_ = np.asarray(run.b, dtype=np.float64)
        self.last_coef_, self.last_intercept_ = engine.W.copy(), engine.B.copy()
        self._state = engine.state()
        return run

    def decision_function(self, X: MatrixLike) -> Float64Array:
        """(n, n_classes) scores; for two classes the (n,) difference s₁ − s₀ (> 0: classes_[1])."""
        self._check_fitted("decision_function")
        X = check_data(self, X, reset=False)
        scores = score_matrix(X, self.coef_, self.intercept_)
        return scores[:, 1] - scores[:, 0] if scores.shape[1] == 2 else scores

    def predict(self, X: MatrixLike) -> NDArray[Any]:
        """The class of the highest score (ties: the first of ``classes_``)."""
        return labels(self.decision_function(X), self.classes_)
