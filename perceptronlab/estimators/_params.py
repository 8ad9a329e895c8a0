"""The estimators' parameters: the tables of constraints, the fix each refusal adds, the names of
the other API or of scikit-learn's that a learner does not take, and the seeds of ``random_state``.
"""

from __future__ import annotations

import re
from numbers import Integral, Real
from typing import TYPE_CHECKING, Any, cast

import numpy as np
from sklearn.base import BaseEstimator
from sklearn.utils._param_validation import Interval, StrOptions
from sklearn.utils._param_validation import InvalidParameterError as _SklearnInvalidParameterError

from perceptronlab._ground import validation as v
from perceptronlab.estimators._errors import InvalidParameterError
from perceptronlab.exceptions import InputError

if TYPE_CHECKING:
    # for the type checker, the mixins below are estimators (they are mixed into scikit-learn's)
    from sklearn.base import BaseEstimator as _EstimatorMixin
    from typing_extensions import Self

else:
    _EstimatorMixin = object


FIXES = {
    "eta0": "Pass a learning rate > 0, e.g. eta0=1.0 (from w = 0 every eta0 gives the same mistakes).",
    "margin": "Pass margin=0.0 for the plain perceptron, or a rho0 > 0 for the margin perceptron.",
    "max_iter": "Pass an integer >= 1, e.g. max_iter=1000 (the most sweeps); the run always stops there.",
    "max_updates": "Pass None (no limit) or an integer >= 1, e.g. max_updates=10000.",
    "order": "Pass order='cyclic' (data order), 'shuffle' or 'random-mistake'.",
    "check": (
        "Pass check='update' (after every update), check='sweep' (after every sweep) or check='ratchet' "
        "(Gallant's ratchet: when a run of correct picks beats the pocket's)."
    ),
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
    """The estimators take scikit-learn's names: the functional API's (the lectures') names are refused
    with a TypeError that names the right one (``Perceptron(max_sweeps=10)``: "use max_iter=10"), and
    a scikit-learn Perceptron name that does not apply to the learner with the reason
    (``SCIKIT_LEARN_REFUSALS``)."""

    def __new__(cls, *args: Any, **kwargs: Any) -> Self:
        for key in kwargs:
            if key in v.ESTIMATOR_NAMES:
                raise v.renamed(
                    cls.__name__,
                    key,
                    kwargs[key],
                    v.ESTIMATOR_NAMES[key],
                    f"the estimators take scikit-learn's names; {key} is the functional API's name",
                )
            if key in SCIKIT_LEARN_REFUSALS and key not in cls._get_param_names():
                raise TypeError(
                    f"{cls.__name__} got an unexpected keyword argument {key!r}: "
                    f"{SCIKIT_LEARN_REFUSALS[key]}."
                )
        return cast("Self", super().__new__(cls))

    def set_params(self, **params: Any) -> Self:
        """Set parameters (scikit-learn's ``set_params``); a functional API name names the right one."""
        for key in params:
            if key in v.ESTIMATOR_NAMES and key not in self._get_param_names():
                raise InputError(
                    f"Invalid parameter {key!r} for estimator {type(self).__name__}: use "
                    f"{v.ESTIMATOR_NAMES[key]}={params[key]!r} (the estimators take "
                    "scikit-learn's names)."
                )
        return cast("Self", super().set_params(**params))


def check_estimator_params(estimator: BaseEstimator) -> None:
    """Check the constructor parameters against ``_parameter_constraints``; add the fix."""
    try:
        estimator._validate_params()
    except _SklearnInvalidParameterError as exc:
        found = re.search(r"The '(\w+)' parameter", str(exc))
        fix = FIXES.get(found.group(1), "") if found else ""
        raise InvalidParameterError(f"{exc} {fix}".strip()) from None


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


#: scikit-learn's fit parameters a family learner does not take, and why not
FIT_REFUSALS = {
    "sample_weight": "its updates are not scaled per example; perceptronlab.Perceptron has scikit-learn's "
    "sample_weight",
    "coef_init": "it starts from w = 0; perceptronlab.Perceptron has scikit-learn's coef_init",
    "intercept_init": "it starts from b = 0; perceptronlab.Perceptron has scikit-learn's intercept_init",
}


def refuse_fit_params(estimator: Any, method: str, fit_params: dict[str, Any]) -> None:
    """A TypeError for keyword arguments of ``fit``/``partial_fit`` the learner does not take,
    with the reason for scikit-learn's (``FIT_REFUSALS``)."""
    for name in fit_params:
        reason = FIT_REFUSALS.get(name, "it is not a parameter of this method")
        raise TypeError(
            f"{type(estimator).__name__}.{method} got an unexpected keyword argument {name!r}: "
            f"{reason}."
        )
