"""The perceptron and Pocket as scikit-learn classifiers: thin faces over
:func:`perceptronlab.perceptron` and :func:`perceptronlab.pocket`.

As scikit-learn's own ``Perceptron`` is over its SGD loop, each estimator validates its input once
at the boundary, maps any two labels to -1/+1 (``classes_[1]`` is +1) and calls the engine; none
re-implements the rule. More than two classes are learned one-vs-rest: one engine run per class,
``classes_[k]`` (+1) against the rest (-1).
"""

from __future__ import annotations

from numbers import Integral, Real

import numpy as np
from sklearn.utils._param_validation import Interval, StrOptions

from perceptronlab import _validation as v
from perceptronlab.core.perceptron import perceptron, pocket
from perceptronlab.estimators._base import ORDER_OPTIONS, SEED_OPTIONS, LinearClassifier

__all__ = ["Perceptron", "PocketPerceptron"]


class Perceptron(LinearClassifier):
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
        "order": [ORDER_OPTIONS],
        "margin": [Interval(Real, 0, None, closed="left")],
        "max_sweeps": [Interval(Integral, 1, None, closed="left")],
        "seed": SEED_OPTIONS,
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

    def _train(self, X, signs):
        return perceptron(X, signs, eta=self.eta, fit_intercept=self.fit_intercept, order=self.order,
                          margin=self.margin, max_sweeps=self.max_sweeps, seed=self.seed, warn=False)


class PocketPerceptron(LinearClassifier):
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
        "order": [ORDER_OPTIONS],
        "check": [StrOptions(set(v.POCKET_CHECKS))],
        "max_updates": [Interval(Integral, 1, None, closed="left"), None],
        "max_sweeps": [Interval(Integral, 1, None, closed="left")],
        "seed": SEED_OPTIONS,
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

    def _train(self, X, signs):
        return pocket(X, signs, eta=self.eta, fit_intercept=self.fit_intercept, order=self.order,
                      check=self.check, max_updates=self.max_updates, max_sweeps=self.max_sweeps, seed=self.seed)

    def _fitted(self, runs: list) -> None:
        self.coef_ = np.vstack([np.asarray(run.w, dtype=np.float64) for run in runs])
        self.intercept_ = np.array([float(run.b) for run in runs])
        errors = [int(r.pocket_errors) for r in runs]
        self.pocket_errors_ = errors[0] if len(runs) == 1 else np.array(errors)  # the pocket's runs do not warn
