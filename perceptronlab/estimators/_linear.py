"""The perceptron and Pocket as scikit-learn classifiers over the core's driver.

As scikit-learn's own ``Perceptron`` is over its SGD loop, each estimator validates its input once
at the boundary, maps any two labels to -1/+1 (``classes_[1]`` is +1) and lets the core's driver
run the rule on a compiled engine; none re-implements the rule. More than two classes are learned
one-vs-rest: one run per class, ``classes_[k]`` (+1) against the rest (-1).

:class:`Perceptron` takes scikit-learn's names and fitting options (sample and class weights,
``coef_init``, ``warm_start``, ``partial_fit``, ``tol`` with ``early_stopping``), with scikit-learn's
semantics bit for bit (:mod:`perceptronlab.estimators._fitting`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from numbers import Integral, Real
from typing import TYPE_CHECKING, Any, Literal, cast

import numpy as np
from sklearn.utils._param_validation import Interval, StrOptions

from perceptronlab._ground import validation as v
from perceptronlab.core.driver import Pocket, drive, drive_pocket, finish
from perceptronlab.core.engines import CompiledEngine
from perceptronlab.core.perceptron import pocket_run
from perceptronlab.core.run import Run
from perceptronlab.core.scores import count_errors
from perceptronlab.core.sgd import sgd_permutations
from perceptronlab.core.sgd_engine import SGDEngine
from perceptronlab.estimators._base import LinearClassifier, PartialFit
from perceptronlab.estimators._data import check_data, non_finite_error
from perceptronlab.estimators._errors import in_sklearn_words
from perceptronlab.estimators._fitting import (
    StoppingRule,
    check_sample_weight,
    class_weights,
    sgd_seeds,
    update_scales,
    validation_mask,
)
from perceptronlab.estimators._labels import (
    check_targets,
    classes_for_training,
    partial_classes,
    python_label,
    task_signs,
)
from perceptronlab.estimators._params import (
    ORDER_OPTIONS,
    WARM_CONSTRAINTS,
    check_estimator_params,
    refuse_fit_params,
    seed_of,
)

if TYPE_CHECKING:
    from numpy.typing import ArrayLike, NDArray
    from typing_extensions import Self

    from perceptronlab._ground.types import Float64Array, MatrixLike, RandomState
    from perceptronlab.core.driver import SweepInfo


__all__ = ["Perceptron", "PocketPerceptron"]

_SIGNS = np.array([-1, 1])
#: threads of the compiled sweeps, as in the functional API (the result does not depend on them)
N_JOBS = [Integral, None]


def _run_params(estimator: Any, sweeps: int, seed: int | None) -> dict[str, Any]:
    """A run's parameters, in the functional API's names (a Run is the functional API's result)."""
    order = "shuffle" if getattr(estimator, "shuffle", False) else estimator.order
    return dict(
        eta=estimator.eta0,
        fit_intercept=bool(estimator.fit_intercept),
        order=order,
        margin=getattr(estimator, "margin", 0.0),
        max_sweeps=sweeps,
        seed=seed,
    )


class Perceptron(LinearClassifier):
    """The perceptron (Rosenblatt 1958) as a scikit-learn classifier over the engine.

    w starts at 0 (or at ``coef_init``); an example is a mistake when y(⟨w,x⟩ + b) ≤ ρ₀ (ties
    count); a mistake updates w ← w + η·y·x (and b ← b + η·y), scaled by the example's weight
    (``sample_weight`` times its class's ``class_weight``). With ``tol=None`` a run ends after a
    clean sweep or at ``max_iter``, or, in cyclic order, when a start-of-sweep weight vector
    repeats (it then never converges); with a ``tol``, scikit-learn's stopping rule decides.

    Parameters
    ----------
    eta0 : float > 0, default=1.0
        Learning rate η. From w = 0 it only scales w: the mistakes are the same for every η.
    fit_intercept : bool, default=True
        Learn an intercept b (the bias trick: x augmented with a constant 1). True like
        scikit-learn; the functional API :func:`perceptronlab.perceptron` defaults to the lectures'
        form without offset.
    order : {"cyclic", "shuffle", "random-mistake"}, default="cyclic"
        Data order (the textbook's), scikit-learn's shuffled order (as ``shuffle=True``), or a
        uniformly random misclassified example at every step (the PLA of the Learning From Data
        course).
    shuffle : bool, default=True
        Visit the rows of every sweep in scikit-learn's own permutations: its seed drawn from
        ``random_state`` and its dataset's shuffle, so that the weights, ``n_iter_`` and ``t_``
        equal scikit-learn's ``Perceptron(shuffle=True, random_state=r)`` bit for bit. The same
        request as ``order="shuffle"``. True is scikit-learn's default; False keeps the data
        order (the lectures', and :func:`perceptronlab.perceptron`'s) unless ``order`` says
        otherwise. ``order="random-mistake"`` has no sweeps to shuffle: pass ``shuffle=False``.
    penalty : {"l2", "l1", "elasticnet"} or None, default=None
        None: the textbook rule. Else scikit-learn's regularised SGD step, bit for bit: before each
        row, l2 shrinks w by max(0, 1 − (1 − l1_ratio)·η·α) (kept as a scale, as scikit-learn's
        ``WeightVector``), and after it l1 truncates the row's weights by the penalty accumulated
        so far (cumulative truncated gradient, Tsuruoka et al. 2009). A run then always goes on to
        ``max_iter`` or ``tol``'s rule (a clean sweep still shrinks w), and ``tol`` judges the
        mean of the loss plus the penalty's term.
    alpha : float >= 0, default=0.0001
        The penalty's strength (unused without a penalty).
    l1_ratio : float in [0, 1], default=0.15
        elasticnet's share of l1 (only with ``penalty="elasticnet"``).
    margin : float >= 0, default=0.0
        ρ₀ of the margin perceptron: update while y(⟨w,x⟩ + b) ≤ ρ₀.
    max_iter : int >= 1, default=1000
        The most sweeps (scikit-learn's epochs); the run always stops here.
    tol : float >= 0 or None, default=1e-3
        A number (scikit-learn's default 1e-3): scikit-learn's rule: stop when the sweep's mean
        hinge loss (with ``early_stopping``: the validation accuracy) has not improved by ``tol``
        for ``n_iter_no_change`` sweeps in a row. None: the perceptron's own stop (a clean sweep,
        or a proven cycle), the lectures' and :func:`perceptronlab.perceptron`'s; pass
        ``shuffle=False, tol=None`` for the lectures' perceptron.
    early_stopping : bool, default=False
        Hold out ``validation_fraction`` of the examples (scikit-learn's stratified split, seeded by
        ``random_state``) and train on the rest; with a ``tol``, stop on the held-out accuracy.
    validation_fraction : float in (0, 1), default=0.1
    n_iter_no_change : int >= 1, default=5
    class_weight : dict, "balanced" or None, default=None
        Scales the updates on each class's examples (scikit-learn's ``compute_class_weight``).
    warm_start : bool, default=False
        ``fit`` goes on from the last fit's ``coef_`` and ``intercept_`` instead of 0.
    random_state : None, int >= 0 or numpy RandomState, default=0
        scikit-learn's default, so that two fits are the same. Seeds the shuffled order and
        "random-mistake" (each one-vs-rest run gets its own seed, drawn as scikit-learn draws it)
        and the split of ``early_stopping``.
    n_jobs : int or None, default=None
        Threads of the compiled sweeps (None or -1: all cores); the result does not depend on it.
    verbose : int, default=0
        > 0: a line per sweep (norm, intercept, mean loss, updates).

    Attributes
    ----------
    coef_ : ndarray of shape (1, n_features) for two classes, else (n_classes, n_features)
    intercept_ : ndarray of shape (1,) or (n_classes,); zeros without ``fit_intercept``.
    classes_ : ndarray of the labels; ``classes_[1]`` is the positive class (+1) of a binary fit.
        One class in y is refused, as scikit-learn refuses it.
    n_iter_ : int
        Sweeps of the fit (the most of the one-vs-rest runs), scikit-learn's epochs; 1 after a
        ``partial_fit``.
    t_ : float
        scikit-learn's step counter: 1 + the examples seen by the sweeps (``n_iter_`` · n_samples
        after a fit; ``partial_fit`` adds its n_samples).
    n_mistakes_, n_sweeps_, converged_ : int, int, bool for two classes; arrays with one entry per
        class for one-vs-rest. Updates made, sweeps run, and whether the last sweep was clean;
        ``partial_fit`` adds its updates and sweep to the counts since the last fit.
    run_ : :class:`perceptronlab.Run` of the engine (a list of Runs, one per class, for
        one-vs-rest) of the last fit or partial_fit: mistake indices, updates and errors per
        sweep, norms. With ``early_stopping`` it describes the training rows (the held-out rows
        left out).
    n_features_in_ : int
    feature_names_in_ : ndarray, when X is a DataFrame with string column names.

    Warns
    -----
    NotConvergedWarning
        When a run ends at ``max_iter`` without a clean sweep (with a ``tol``: without meeting the
        stopping rule). A subclass of scikit-learn's ``ConvergenceWarning``.
    CycledWarning
        When a cyclic run repeats a start-of-sweep weight vector (proof it never converges).

    Notes
    -----
    The weights (and their dtype), ``n_iter_`` and ``t_`` equal scikit-learn's
    ``Perceptron(shuffle=shuffle, eta0=eta0, penalty=penalty, alpha=alpha, l1_ratio=l1_ratio,
    tol=tol, max_iter=max_iter, random_state=random_state)`` bit for bit, with the same
    ``sample_weight``, ``class_weight``, ``coef_init``, ``intercept_init``, ``warm_start``,
    ``partial_fit``, ``early_stopping``, ``validation_fraction`` and ``n_iter_no_change``, binary
    and one-vs-rest, dense and CSR, float64 and float32: both sum ⟨w,x⟩ in feature order, add
    (η·y)·weight·x, and shuffle with scikit-learn's generator. So ``Perceptron(shuffle=True,
    tol=1e-3, penalty=None)``, the defaults, is scikit-learn's ``Perceptron()``. They differ on
    sparse input with an intercept (scikit-learn damps sparse intercept updates by 0.01; here the rule is the same
    for every storage of X), and with ``tol=None`` and no penalty when a run converges or cycles:
    it stops there (``n_iter_`` the sweeps run), while scikit-learn goes on to ``max_iter`` (its
    later epochs change nothing after a clean one). Negative sample weights are refused. As
    scikit-learn's, a binary fit on float32 input keeps ``intercept_`` in float64.

    Examples
    --------
    The exam task of the lecture notes, without offset:

    >>> from perceptronlab import Perceptron
    >>> lecture = dict(fit_intercept=False, shuffle=False, tol=None)
    >>> clf = Perceptron(**lecture).fit([[1, 0], [1, 1], [0, 1]], [1, -1, -1])
    >>> clf.coef_, clf.n_mistakes_, clf.n_iter_, clf.converged_
    (array([[ 1., -2.]]), 5, 4, True)
    >>> clf.predict([[2, 0], [0, 2]])
    array([ 1, -1])

    Any labels; three classes are learned one-vs-rest:

    >>> X = [[0, 0], [0, 1], [4, 0], [4, 1], [0, 5], [1, 5]]
    >>> clf = Perceptron().fit(X, ["a", "a", "b", "b", "c", "c"])
    >>> clf.coef_.shape, clf.predict([[5, 0], [0, 6]]).tolist()
    ((3, 2), ['b', 'c'])

    A sample's weight scales its updates (here the first example's weight of 2 doubles its step):

    >>> Perceptron(**lecture).fit([[1, 0], [0, 1]], [1, -1], sample_weight=[2, 1]).coef_
    array([[ 2., -1.]])
    """

    _parameter_constraints: dict[str, list[Any]] = {
        "eta0": [Interval(Real, 0, None, closed="neither")],
        "fit_intercept": ["boolean"],
        "order": [ORDER_OPTIONS],
        "shuffle": ["boolean"],
        "penalty": [StrOptions({"l2", "l1", "elasticnet"}), None],
        "alpha": [Interval(Real, 0, None, closed="left")],
        "l1_ratio": [Interval(Real, 0, 1, closed="both")],
        "margin": [Interval(Real, 0, None, closed="left")],
        "max_iter": [Interval(Integral, 1, None, closed="left")],
        "tol": [Interval(Real, 0, None, closed="left"), None],
        "early_stopping": ["boolean"],
        "validation_fraction": [Interval(Real, 0, 1, closed="neither")],
        "n_iter_no_change": [Interval(Integral, 1, None, closed="left")],
        "class_weight": [StrOptions({"balanced"}), dict, None],
        **WARM_CONSTRAINTS,
        "random_state": ["random_state"],
        "n_jobs": N_JOBS,
        "verbose": ["verbose"],
    }

    def __init__(  # noqa: PLR0913 (scikit-learn's parameters, stored as given)
        self,
        *,
        eta0: float = 1.0,
        fit_intercept: bool = True,
        order: v.Order = "cyclic",
        shuffle: bool = True,
        penalty: Literal["l2", "l1", "elasticnet"] | None = None,
        alpha: float = 0.0001,
        l1_ratio: float = 0.15,
        margin: float = 0.0,
        max_iter: int = 1000,
        tol: float | None = 1e-3,
        early_stopping: bool = False,
        validation_fraction: float = 0.1,
        n_iter_no_change: int = 5,
        class_weight: dict[Any, float] | Literal["balanced"] | None = None,
        warm_start: bool = False,
        random_state: RandomState = 0,
        n_jobs: int | None = None,
        verbose: int = 0,
    ) -> None:
        self.eta0 = eta0
        self.fit_intercept = fit_intercept
        self.order = order
        self.shuffle = shuffle
        self.penalty = penalty
        self.alpha = alpha
        self.l1_ratio = l1_ratio
        self.margin = margin
        self.max_iter = max_iter
        self.tol = tol
        self.early_stopping = early_stopping
        self.validation_fraction = validation_fraction
        self.n_iter_no_change = n_iter_no_change
        self.class_weight = class_weight
        self.warm_start = warm_start
        self.random_state = random_state
        self.n_jobs = n_jobs
        self.verbose = verbose

    # ------------------------------------------------------------ fitting
    def fit(
        self,
        X: MatrixLike,
        y: ArrayLike,
        coef_init: ArrayLike | None = None,
        intercept_init: ArrayLike | None = None,
        sample_weight: ArrayLike | None = None,
        **fit_params: Any,
    ) -> Self:
        """Fit on (X, y): one run for two classes (``classes_[1]`` is +1), one run per class
        (``classes_[k]`` against the rest) otherwise.

        Parameters
        ----------
        X : array-like or sparse matrix (CSR) of shape (n_samples, n_features)
        y : array-like of shape (n_samples,); any labels.
        coef_init : array-like of shape (n_classes, n_features) (or (n_features,) for two classes)
            Start weights instead of 0 (with ``warm_start``: instead of the last fit's).
        intercept_init : array-like of shape (n_classes,) (or a number for two classes)
        sample_weight : array-like of shape (n_samples,), weights >= 0
            Scales each example's updates, times its class's ``class_weight``; a weight of 0
            leaves the example out of training.
        **fit_params
            None other is taken (a TypeError names it).

        Returns
        -------
        self
        """
        refuse_fit_params(self, "fit", fit_params)
        check_estimator_params(self)
        self._check_stopping()
        features = self.__dict__.get("n_features_in_")
        # NaN and inf in X: the first sweep reads every training row and stops at one, so the
        # boundary need not read X for them (it does for early_stopping's held-out rows)
        X, y = check_data(self, X, y, reset=True, finite=bool(self.early_stopping))
        try:
            classes = classes_for_training(check_targets(y, binary_only=False))
            starts = self._start_weights(
                classes, X.shape[1], coef_init, intercept_init, self._warm(classes)
            )
            runs = self._fit_runs(
                X, y, classes, starts, sample_weight, sweeps=self.max_iter, partial=False
            )
        except (ValueError, FloatingPointError):
            error = non_finite_error(X)  # refused first, as the boundary's own look would
            if error is None:
                raise
            self.__dict__.pop("n_features_in_", None)  # as a refusal at the boundary leaves it
            if features is not None:
                self.__dict__["n_features_in_"] = features
            raise error from None
        self.t_ = 1.0 + self.n_iter_ * X.shape[0]
        self._warn(runs)
        return self

    def partial_fit(
        self,
        X: MatrixLike,
        y: ArrayLike,
        classes: ArrayLike | None = None,
        sample_weight: ArrayLike | None = None,
    ) -> Self:
        """One sweep over the batch (X, y) from the current weights (scikit-learn's ``partial_fit``).

        Parameters
        ----------
        X : array-like or sparse matrix (CSR) of shape (n_samples, n_features)
        y : array-like of shape (n_samples,)
        classes : array-like of every class label of the stream, needed on the first call.
        sample_weight : array-like of shape (n_samples,), weights >= 0.

        Returns
        -------
        self
        """
        check_estimator_params(self)
        first = not self.__sklearn_is_fitted__()
        if self.early_stopping:
            raise in_sklearn_words(
                "early_stopping should be False with partial_fit.",
                v.fail(
                    "early_stopping",
                    "False with partial_fit (one sweep holds nothing out)",
                    "True",
                    "Pass early_stopping=False, or call fit.",
                ),
            )
        if first and isinstance(self.class_weight, str):
            raise in_sklearn_words(
                "class_weight 'balanced' is not supported for partial_fit. In order to use 'balanced' weights, use "
                "compute_class_weight('balanced', classes=classes, y=y). In place of y you can use a large enough "
                "sample of the full training set target to properly estimate the class frequency distributions. "
                "Pass the resulting weights as the class_weight parameter.",
                v.fail(
                    "class_weight",
                    "None or a dict with partial_fit",
                    repr(self.class_weight),
                    "Pass class_weight=dict(zip(classes, sklearn.utils.compute_class_weight('balanced', "
                    "classes=classes, y=y_sample))), from a large enough sample of the stream's labels.",
                ),
            )
        X, y = check_data(self, X, y, reset=first)
        classes = partial_classes(self, classes, y, first)
        starts = self._start_weights(classes, X.shape[1], None, None, not first)
        self._fit_runs(X, y, classes, starts, sample_weight, sweeps=1, partial=True)
        self.t_ = self.__dict__.get("t_", 1.0) + X.shape[0]
        return self

    def _check_stopping(self) -> None:
        if self.order == "random-mistake" and self.penalty is not None:
            raise v.fail(
                "penalty",
                "None with order='random-mistake' (scikit-learn's penalties act on every row "
                "of a sweep)",
                repr(self.penalty),
                "Pass penalty=None, or order='cyclic'.",
            )
        if self.order == "random-mistake" and self.shuffle:
            raise v.fail(
                "shuffle",
                "False with order='random-mistake' (it picks a random mistake at every "
                "step, there is no sweep order to shuffle)",
                "True",
                "Pass shuffle=False, tol=None with order='random-mistake', or order='cyclic' "
                "with shuffle=True.",
            )
        if self.order == "random-mistake" and (self.tol is not None or self.early_stopping):
            raise v.fail(
                "order",
                "'cyclic' or 'shuffle' with tol or early_stopping (the stopping rule "
                "judges whole sweeps)",
                "'random-mistake'",
                "Pass order='cyclic' or 'shuffle', or tol=None and early_stopping=False "
                "(and shuffle=False) with order='random-mistake'.",
            )

    def _start_weights(
        self, classes: NDArray[Any], d: int, coef_init: Any, intercept_init: Any, go_on: bool
    ) -> list[Any]:
        """(w, b) each run starts from: ``coef_init``/``intercept_init``, else the last fit's (going
        on), else None (w = 0)."""
        k = 1 if classes.shape[0] == 2 else classes.shape[0]
        if go_on:
            dense = self.coef_.toarray() if hasattr(self.coef_, "toarray") else self.coef_
            coef_init = dense if coef_init is None else coef_init  # dense again after sparsify
            intercept_init = self.intercept_ if intercept_init is None else intercept_init
        if coef_init is None and intercept_init is None:
            return [None] * k
        W = np.zeros((k, d)) if coef_init is None else _start_array("coef_init", coef_init, (k, d))
        B = (
            np.zeros(k)
            if intercept_init is None
            else _start_array("intercept_init", intercept_init, (k,))
        )
        return [(W[j], float(B[j])) for j in range(k)]

    def _fit_runs(
        self,
        X: Any,
        y: NDArray[Any],
        classes: NDArray[Any],
        starts: list[Any],
        sample_weight: Any,
        *,
        sweeps: int,
        partial: bool,
    ) -> list[Run]:
        X = v.check_matrix(X, check_finite=False)  # CSR with sorted indices, as the functional API
        n = X.shape[0]
        weights = check_sample_weight(sample_weight, n, allow_all_zero=bool(self.early_stopping))
        per_class = (
            None if self.class_weight is None else class_weights(self.class_weight, classes, y)
        )
        tasks = task_signs(y, classes)
        binary = len(tasks) == 1

        def split() -> NDArray[Any] | None:
            if not self.early_stopping:
                return None
            return validation_mask(
                tasks[0] if binary else y,
                np.ones(n) if weights is None else weights,
                self.validation_fraction,
                self.random_state,
            )

        held, seeds = sgd_seeds(self.random_state, len(tasks), split)
        runs = []
        for k, signs in enumerate(tasks):
            scale = update_scales(
                per_class, weights, signs, None if binary else k, single=X.dtype == np.float32
            )
            name = "" if binary else f"class {python_label(classes[k])!r} vs rest, "
            runs.append(
                self._run(X, signs, scale, starts[k], held, weights, sweeps, seeds[k], name)
            )
        self._keep_runs(classes, runs, partial=partial)
        self._fitted(runs, [None] * len(runs), partial)
        return runs

    def _run(
        self,
        X: Any,
        signs: Float64Array,
        scale: Float64Array | None,
        start: Any,
        held: NDArray[Any] | None,
        weights: Float64Array | None,
        sweeps: int,
        seed: int,
        name: str,
    ) -> Run:
        """One run of the rule on the driver (the held-out rows left out); ``seed`` is the run's
        scikit-learn seed (its shuffles, and the picks of order "random-mistake")."""
        permutations = None
        if self.shuffle or self.order == "shuffle":
            permutations = sgd_permutations(X.shape[0], seed)
            if held is not None:
                permutations = _skipping(permutations, held)
        validation = None
        if held is not None:
            keep = ~held
            sample = np.ones(X.shape[0]) if weights is None else weights
            validation = (X[held], signs[held], sample[held])
            X, signs, scale = X[keep], signs[keep], None if scale is None else scale[keep]
        rule = (
            self.tol is not None or self.penalty is not None
        )  # a penalty changes w on clean sweeps too
        w0, b0 = (None, 0.0) if start is None else start
        single = X.dtype == np.float32 and self.order != "random-mistake"
        if single:
            b0 = float(np.float32(b0))  # scikit-learn's intercept_init in X's dtype
        options: dict[str, Any] = dict(
            eta=self.eta0,
            margin=self.margin,
            fit_intercept=bool(self.fit_intercept),
            w0=w0,
            b0=b0,
            n_jobs=self.n_jobs,
        )
        sgd = self.penalty is not None or single
        plain = not sgd and scale is None and not rule and not self.verbose
        engine: CompiledEngine
        if sgd:
            engine = SGDEngine(
                X,
                signs,
                scale=scale,
                penalty=self.penalty,
                alpha=self.alpha,
                l1_ratio=self.l1_ratio,
                single=single,
                **options,
            )
        elif plain:
            engine = CompiledEngine(
                X, signs, **options
            )  # the plain sweep, as perceptronlab.perceptron
        else:
            engine = CompiledEngine(X, signs, scale=scale, track_loss=True, **options)
        hook = None if plain else self._stopping_rule(engine, validation, name)
        order = "cyclic" if permutations is not None else self.order
        outcome = drive(
            engine,
            order=order,
            max_sweeps=sweeps,
            seed=seed,
            margin=self.margin,
            cycles=False if rule else None,
            stop_when_clean=not rule,
            on_sweep=hook,
            permutations=permutations,
        )
        return finish(
            engine,
            outcome,
            algorithm="perceptron",
            params=_run_params(self, sweeps, seed),
            X=X,
            signs=signs,
            classes=_SIGNS,
        )

    def _stopping_rule(self, engine: CompiledEngine, validation: Any, name: str) -> StoppingRule:
        """The per-sweep hook of scikit-learn's stopping rule (``tol``, ``n_iter_no_change``, the
        held-out ``validation`` rows) and of ``verbose``."""
        return StoppingRule(
            engine,
            tol=self.tol,
            n_iter_no_change=self.n_iter_no_change,
            validation=validation,
            verbose=self.verbose,
            name=name,
        )

    def _warnings(self, runs: list[Run]) -> Iterator[tuple[str, str]]:
        if self.tol is None and self.penalty is None:
            yield from super()._warnings(runs)
        elif (
            self.tol is not None and self.n_iter_ == self.max_iter
        ):  # scikit-learn's rule: not met in time
            yield (
                "NotConvergedWarning",
                (
                    "Maximum number of iteration reached before convergence. Consider increasing max_iter to improve "
                    f"the fit. {type(self).__name__} did not converge: the stopping rule "
                    f"(tol={self.tol}, n_iter_no_change="
                    f"{self.n_iter_no_change}) was not met within max_iter={self.max_iter} sweeps. Raise max_iter."
                ),
            )


def _skipping(permutations: Iterator[NDArray[Any]], held: NDArray[Any]) -> Iterator[NDArray[Any]]:
    """scikit-learn's orders over all rows, with the held-out rows skipped (as its loop skips them),
    as positions among the training rows."""
    position = np.cumsum(~held) - 1
    for order in permutations:
        yield position[order[~held[order]]]


def _start_array(name: str, value: Any, shape: tuple[int, ...]) -> Float64Array:
    """``coef_init`` / ``intercept_init`` as float64 of ``shape`` (one row or number for two classes)."""
    try:
        arr = np.asarray(value, dtype=np.float64)
    except (TypeError, ValueError) as exc:
        raise v.fail(
            name, "numbers", f"values that are not ({exc})", "Pass an array of numbers."
        ) from None
    if shape[0] == 1 and arr.size == int(np.prod(shape)):
        arr = arr.reshape(shape)
    if arr.shape != shape:
        what = "the weights of each one-vs-rest class" if shape[0] > 1 else "one weight vector"
        raise in_sklearn_words(
            f"Provided {name} does not match dataset.",
            v.fail(
                name,
                f"shape {shape} ({what})",
                f"shape {arr.shape}",
                "Pass one row (or number) per class for more than two classes, one for two.",
            ),
        )
    if not np.isfinite(arr).all():
        raise v.fail(name, "finite numbers", "NaN or inf", "Pass finite start weights.")
    return arr


def _say_sweeps(name: str) -> Callable[[SweepInfo], None]:
    """The per-sweep hook of ``verbose``: a line per sweep."""

    def say(info: SweepInfo) -> None:
        print(
            f"-- {name}Epoch {info.sweep}\nUpdates: {info.updates}, T: {info.total_updates} updates so far",
            flush=True,
        )

    return say


class PocketPerceptron(PartialFit, LinearClassifier):
    """The Pocket algorithm (Gallant 1990) as a scikit-learn classifier over the engine.

    Perceptron updates (by default on a uniformly random misclassified example) while keeping in
    the "pocket" the weights with the fewest training errors (y(⟨w,x⟩ + b) ≤ 0); the fitted weights
    are the pocket's. For noisy, non-separable data, where the plain perceptron never settles.

    By default this is Gallant's pocket algorithm with ratchet (``check="ratchet"``): examples are
    picked at random, a picked mistake updates, and only when the current weights' run of correct
    picks beats the pocket's are their training errors counted; they replace the pocket only if
    they are fewer. A step costs O(d) besides those counts, so it scales to large data, unlike
    ``check="update"`` (the :func:`perceptronlab.pocket` default), which counts the errors of all
    n rows after every update.

    Parameters
    ----------
    eta0 : float > 0, default=1.0
    fit_intercept : bool, default=True
    order : {"cyclic", "shuffle", "random-mistake"}, default="random-mistake"
    check : {"ratchet", "update", "sweep"}, default="ratchet"
        "ratchet": Gallant's ratchet, counting the errors when a run of correct picks beats the
        pocket's (in order "random-mistake" the picks are uniformly random examples, so the
        updates are uniformly random mistakes found by O(d) checks; "shuffle" and "cyclic" pick
        every example once a sweep); "update": after every update (Lin's lecture 2); "sweep": after every
        sweep (the notebook).
    max_updates : int >= 1 or None, default=None
    max_iter : int >= 1, default=100
        The run stops at zero errors, or at ``max_updates`` / ``max_iter`` sweeps, whichever
        comes first. With ``check="ratchet"`` a sweep is n picks (n mistake tests), in every order.
    warm_start : bool, default=False
        ``fit`` goes on from where the last fit ended: the perceptron from its last iterate
        (``last_coef_``), the pocket from the last pocket, its errors counted on the new data.
    random_state : None, int >= 0 or numpy RandomState, default=None
        Seeds the orders "shuffle" and "random-mistake"; pass one for reproducible fits.
    n_jobs : int or None, default=None
        Threads of the compiled kernels (None or -1: all cores); the result does not depend on it.
    verbose : int, default=0
        > 0: a line per sweep.

    Attributes
    ----------
    coef_, intercept_, classes_, n_features_in_ : as in :class:`Perceptron` (the pocket's weights).
    last_coef_, last_intercept_ : the perceptron's last iterate (where a warm start or
        ``partial_fit`` goes on from).
    pocket_errors_ : int (array per class for one-vs-rest)
        Training errors of the pocket weights (after ``partial_fit``: on its batch).
    n_mistakes_, n_sweeps_, n_iter_ : updates made, sweeps run, sweeps of the fit (the most of the
        one-vs-rest runs).
    converged_ : bool (array per class): the pocket weights make no training error.
    run_ : :class:`perceptronlab.Run` (a list for one-vs-rest), with ``pocket_history``.

    Notes
    -----
    ``partial_fit(X, y, classes)`` is one sweep of Pocket over the batch: the perceptron goes on
    from its last iterate, and the pocket keeps whichever has the fewest errors on this batch, the
    pocket it had (its errors counted on the batch) or a weight vector of this sweep that the check
    counted.

    ``make bench`` (benchmarks/bench_pocket.py) times the default against :class:`Perceptron`'s on
    scikit-learn's digits (standardized, one-vs-rest; the target is at most 5 times) and shows each
    check's training errors kept next to its time on noisy data.

    Examples
    --------
    >>> from perceptronlab import PocketPerceptron
    >>> X = [[1, 1], [2, 2], [-1, -1], [1.5, 1.5]]
    >>> clf = PocketPerceptron(fit_intercept=False, random_state=0, max_iter=20).fit(X, [1, 1, -1, -1])
    >>> clf.pocket_errors_, clf.converged_, clf.score(X, [1, 1, -1, -1])
    (1, False, 0.75)
    """

    _parameter_constraints: dict[str, list[Any]] = {
        "eta0": [Interval(Real, 0, None, closed="neither")],
        "fit_intercept": ["boolean"],
        "order": [ORDER_OPTIONS],
        "check": [StrOptions(set(v.POCKET_CHECKS))],
        "max_updates": [Interval(Integral, 1, None, closed="left"), None],
        "max_iter": [Interval(Integral, 1, None, closed="left")],
        **WARM_CONSTRAINTS,
        "random_state": ["random_state"],
        "n_jobs": N_JOBS,
        "verbose": ["verbose"],
    }

    def __init__(
        self,
        *,
        eta0: float = 1.0,
        fit_intercept: bool = True,
        order: v.Order = "random-mistake",
        check: v.PocketCheck = "ratchet",
        max_updates: int | None = None,
        max_iter: int = 100,
        warm_start: bool = False,
        random_state: RandomState = None,
        n_jobs: int | None = None,
        verbose: int = 0,
    ) -> None:
        self.eta0 = eta0
        self.fit_intercept = fit_intercept
        self.order = order
        self.check = check
        self.max_updates = max_updates
        self.max_iter = max_iter
        self.warm_start = warm_start
        self.random_state = random_state
        self.n_jobs = n_jobs
        self.verbose = verbose

    def _train(
        self, X: Any, signs: Float64Array, start: Any = None, sweeps: int | None = None
    ) -> tuple[Run, Any]:
        X = v.check_matrix(X, check_finite=False)
        iterate, pocket = (None, 0.0), None
        if start is not None:
            iterate, (w, b) = start
            pocket = Pocket(w.copy(), b, count_errors(X, signs, w, b))
        engine = CompiledEngine(
            X,
            signs,
            eta=self.eta0,
            margin=0.0,
            fit_intercept=bool(self.fit_intercept),
            w0=iterate[0],
            b0=iterate[1],
            n_jobs=self.n_jobs,
        )
        seed = seed_of(self.random_state)
        sweeps = self.max_iter if sweeps is None else sweeps
        outcome = drive_pocket(
            engine,
            order=self.order,
            check=self.check,
            max_sweeps=sweeps,
            max_updates=self.max_updates,
            seed=seed,
            pocket=pocket,
            on_sweep=_say_sweeps("") if self.verbose else None,
        )
        params = {
            **_run_params(self, sweeps, seed),
            "check": self.check,
            "max_updates": self.max_updates,
        }
        params.pop("margin")
        run = pocket_run(engine, outcome, params, (X, signs, _SIGNS))
        return run, (engine.w.copy(), engine.b)

    last_coef_: Float64Array
    last_intercept_: Float64Array

    def _starts(self, n_tasks: int) -> list[Any]:
        return [
            (
                (self.last_coef_[k], float(self.last_intercept_[k])),
                (self.coef_[k], float(self.intercept_[k])),
            )
            for k in range(n_tasks)
        ]

    def _warnings(self, runs: list[Run]) -> Iterator[tuple[str, str]]:
        return iter(())  # not converging is the pocket's case: its weights are the best seen

    def _fitted(self, runs: list[Run], states: list[Any], partial: bool = False) -> None:
        self.coef_ = np.vstack([np.asarray(run.w, dtype=np.float64) for run in runs])
        self.intercept_ = np.array([float(run.b) for run in runs])
        self.last_coef_ = np.vstack([w for w, _ in states])
        self.last_intercept_ = np.array([b for _, b in states])
        errors = [int(cast(int, r.pocket_errors)) for r in runs]  # pocket runs count them
        self.pocket_errors_ = (
            errors[0] if len(runs) == 1 else np.array(errors)
        )  # the pocket's runs do not warn
