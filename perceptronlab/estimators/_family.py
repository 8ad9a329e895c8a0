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

from numbers import Integral, Real

import numpy as np
from sklearn.utils._param_validation import Interval, StrOptions

from perceptronlab.core.scores import labels, score_matrix
from perceptronlab.estimators._base import (
    FAMILY_CONSTRAINTS,
    LinearClassifier,
    RunClassifierBase,
    check_data,
    check_params,
    check_targets,
)
from perceptronlab.family.averaged import averaged_perceptron
from perceptronlab.family.kernel import (
    CACHE_MODES,
    KERNELS,
    VARIANTS,
    ColumnCache,
    fit_kernel,
    resolve_kernel,
    use_gram,
)
from perceptronlab.family.multiclass import multiclass_perceptron
from perceptronlab.family.voted import voted_perceptron

__all__ = ["AveragedPerceptron", "VotedPerceptron", "KernelPerceptron", "MulticlassPerceptron"]

#: said after "did not converge: no clean sweep within max_sweeps=N"
_FIXED_SWEEPS_ADVICE = ("; the model uses all the sweeps. Raise max_sweeps for separable data (a fixed number "
                        "of sweeps is normal for noisy data).")


class AveragedPerceptron(LinearClassifier):
    """The averaged perceptron as a scikit-learn classifier, over :func:`perceptronlab.averaged_perceptron`.

    The perceptron's iterates (w starts at 0, a mistake when y(⟨w,x⟩ + b) ≤ ρ₀, ties count),
    averaged over every step of every sweep: w̄ = (1/T) Σ_t w_t with T = sweeps · n, kept lazily so a
    sweep costs what the plain perceptron's does.

    Parameters
    ----------
    eta : float > 0, default=1.0
    fit_intercept : bool, default=True
    order : {"cyclic", "shuffle"}, default="cyclic"
    margin : float >= 0, default=0.0
    max_sweeps : int >= 1, default=100
        The run stops at a clean sweep or here.
    seed : int >= 0 or None, default=None
        Seeds ``order="shuffle"``.

    Attributes
    ----------
    coef_, intercept_ : the averaged weights, shape (1, d)/(1,) for two classes, else one row per
        class (one-vs-rest).
    classes_, n_mistakes_, n_sweeps_, converged_, run_, n_features_in_ : as in
        :class:`perceptronlab.Perceptron`; ``run_.last_w`` is the last iterate.

    Examples
    --------
    >>> from perceptronlab import AveragedPerceptron
    >>> clf = AveragedPerceptron(fit_intercept=False).fit([[1, 0], [1, 1], [0, 1]], [1, -1, -1])
    >>> clf.n_mistakes_, clf.n_sweeps_, (clf.coef_ * 12).round(9).tolist()
    (5, 4, [[8.0, -19.0]])
    """

    _parameter_constraints: dict = dict(FAMILY_CONSTRAINTS)
    _not_converged_advice = _FIXED_SWEEPS_ADVICE

    def __init__(self, *, eta=1.0, fit_intercept=True, order="cyclic", margin=0.0, max_sweeps=100,
                 seed=None):
        self.eta = eta
        self.fit_intercept = fit_intercept
        self.order = order
        self.margin = margin
        self.max_sweeps = max_sweeps
        self.seed = seed

    def _train(self, X, signs):
        return averaged_perceptron(X, signs, eta=self.eta, fit_intercept=self.fit_intercept, order=self.order,
                                   margin=self.margin, max_sweeps=self.max_sweeps, seed=self.seed, warn=False)


class RunClassifier(RunClassifierBase):
    """One-vs-rest over runs that predict: decision_function stacks each run's decision."""

    _fitted_attribute = "run_"
    _fitted_what = "model"
    _not_converged_advice = _FIXED_SWEEPS_ADVICE

    def decision_function(self, X):
        """Shape (n,) for two classes (> 0 means ``classes_[1]``), else (n, n_classes), one
        column per one-vs-rest model."""
        self._check_fitted("decision_function")
        X = check_data(self, X, reset=False)
        runs = self.run_ if isinstance(self.run_, list) else [self.run_]
        scores = np.column_stack([run.decision_function(X) for run in runs])
        return scores[:, 0] if scores.shape[1] == 1 else scores

    def predict(self, X):
        """``classes_[1]`` where the decision is > 0, else ``classes_[0]``; with more classes, the
        class of the highest one-vs-rest decision (ties: the first)."""
        return labels(self.decision_function(X), self.classes_)


class VotedPerceptron(RunClassifier):
    """The voted perceptron (Freund & Schapire 1999) over :func:`perceptronlab.voted_perceptron`.

    Every iterate w_k votes sign(⟨w_k, x⟩ + b_k) with weight c_k, the number of steps it survived;
    the decision is Σ c_k sign(⟨w_k,x⟩ + b_k) / Σ c_k in [−1, 1].

    Parameters
    ----------
    eta, fit_intercept, order, margin, max_sweeps, seed : as in :class:`AveragedPerceptron`.
    max_vectors : int >= 1 or None, default=None
        Keep at most this many voting vectors per run: those with the largest survival counts.

    Attributes
    ----------
    classes_, n_mistakes_, n_sweeps_, converged_, n_features_in_ : as in
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

    _parameter_constraints: dict = {
        **FAMILY_CONSTRAINTS, "max_vectors": [Interval(Integral, 1, None, closed="left"), None]}

    def __init__(self, *, eta=1.0, fit_intercept=True, order="cyclic", margin=0.0, max_sweeps=100,
                 max_vectors=None, seed=None):
        self.eta = eta
        self.fit_intercept = fit_intercept
        self.order = order
        self.margin = margin
        self.max_sweeps = max_sweeps
        self.max_vectors = max_vectors
        self.seed = seed

    def _train(self, X, signs):
        return voted_perceptron(X, signs, eta=self.eta, fit_intercept=self.fit_intercept, order=self.order,
                                margin=self.margin, max_sweeps=self.max_sweeps, max_vectors=self.max_vectors,
                                seed=self.seed, warn=False)


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
    eta, fit_intercept, order, margin, max_sweeps, seed : as in :class:`AveragedPerceptron`.

    Attributes
    ----------
    classes_, n_mistakes_, n_sweeps_, converged_, n_features_in_ : as in
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

    _parameter_constraints: dict = {
        **FAMILY_CONSTRAINTS,
        "kernel": [StrOptions(set(KERNELS)), callable],
        "degree": [Interval(Integral, 1, None, closed="left")],
        "gamma": [StrOptions({"scale", "auto"}), Interval(Real, 0, None, closed="neither")],
        "coef0": [Interval(Real, None, None, closed="neither")],
        "variant": [StrOptions(set(VARIANTS))],
        "budget": [Interval(Integral, 1, None, closed="left"), None],
        "cache": [StrOptions(set(CACHE_MODES))],
    }

    def __init__(self, *, kernel="rbf", degree=3, gamma="scale", coef0=1.0, variant="last",
                 budget=None, cache="auto", eta=1.0, fit_intercept=True, order="cyclic",
                 margin=0.0, max_sweeps=100, seed=None):
        self.kernel = kernel
        self.degree = degree
        self.gamma = gamma
        self.coef0 = coef0
        self.variant = variant
        self.budget = budget
        self.cache = cache
        self.eta = eta
        self.fit_intercept = fit_intercept
        self.order = order
        self.margin = margin
        self.max_sweeps = max_sweeps
        self.seed = seed

    def _trainer(self, X):
        """One kernel for all the one-vs-rest runs, and one Gram matrix or cache of columns."""
        spec = resolve_kernel(X, self.kernel, self.degree, self.gamma, self.coef0)
        gram = spec(X, X) if use_gram(spec, self.cache) else None
        columns = None if gram is not None else ColumnCache(X.shape[0], self.cache == "auto")

        def train(X, signs):
            return fit_kernel(X, signs, np.array([-1, 1]), spec, variant=self.variant, budget=self.budget,
                              eta=self.eta, fit_intercept=self.fit_intercept, order=self.order,
                              margin=self.margin, max_sweeps=self.max_sweeps, seed=self.seed,
                              cache=self.cache, warn=False, gram=gram, columns=columns)

        return train


class MulticlassPerceptron(RunClassifierBase):
    """The multiclass perceptron (Collins 2002) over :func:`perceptronlab.multiclass_perceptron`.

    One weight vector per class; predicts argmax_k ⟨w_k, x⟩ + b_k (ties: the first class); a
    mistake when the true class does not win outright, then w_y += η x and w_r −= η x for the best
    rival r. All classes are learned in one run (no one-vs-rest).

    Parameters
    ----------
    averaged : bool, default=False
        Use W averaged over every step.
    eta, fit_intercept, order, margin, max_sweeps, seed : as in :class:`AveragedPerceptron`.

    Attributes
    ----------
    coef_ : ndarray (n_classes, n_features), one row per class (two rows for two classes).
    intercept_ : ndarray (n_classes,).
    classes_, n_mistakes_, n_sweeps_, converged_, n_features_in_ : as in
        :class:`perceptronlab.Perceptron` (one run, so scalars).
    run_ : :class:`perceptronlab.family.multiclass.MulticlassRun`.

    Examples
    --------
    >>> from perceptronlab import MulticlassPerceptron
    >>> X = [[2, 0], [0, 2], [-2, -2], [3, 1], [1, 3], [-1, -3]]
    >>> clf = MulticlassPerceptron(fit_intercept=False).fit(X, ["a", "b", "c", "a", "b", "c"])
    >>> clf.coef_.shape, clf.score(X, ["a", "b", "c", "a", "b", "c"])
    ((3, 2), 1.0)
    """

    _parameter_constraints: dict = {**FAMILY_CONSTRAINTS, "averaged": ["boolean"]}
    _not_converged_advice = _FIXED_SWEEPS_ADVICE

    def __init__(self, *, averaged=False, eta=1.0, fit_intercept=True, order="cyclic", margin=0.0,
                 max_sweeps=100, seed=None):
        self.averaged = averaged
        self.eta = eta
        self.fit_intercept = fit_intercept
        self.order = order
        self.margin = margin
        self.max_sweeps = max_sweeps
        self.seed = seed

    def fit(self, X, y):
        """Learn one weight vector per class in one run.

        Returns
        -------
        self
        """
        check_params(self)
        X, y = check_data(self, X, y, reset=True)
        check_targets(y, binary_only=False)
        run = multiclass_perceptron(X, y, averaged=self.averaged, eta=self.eta,
                                    fit_intercept=self.fit_intercept, order=self.order,
                                    margin=self.margin, max_sweeps=self.max_sweeps, seed=self.seed,
                                    warn=False)
        self._keep_runs(np.asarray(run.classes), [run])
        self.coef_ = np.asarray(run.w, dtype=np.float64)
        self.intercept_ = np.asarray(run.b, dtype=np.float64)
        self._fitted([run])
        return self

    def decision_function(self, X):
        """(n, n_classes) scores; for two classes the (n,) difference s₁ − s₀ (> 0: classes_[1])."""
        self._check_fitted("decision_function")
        X = check_data(self, X, reset=False)
        scores = score_matrix(X, self.coef_, self.intercept_)
        return scores[:, 1] - scores[:, 0] if scores.shape[1] == 2 else scores

    def predict(self, X):
        """The class of the highest score (ties: the first of ``classes_``)."""
        return labels(self.decision_function(X), self.classes_)
