"""What the family's learners share: input checks, the sweep loop, and turning an engine into a Run.

Every learner drives an engine that has the core engine's interface (``sweep``, ``indices``,
``norms``, ``snapshot``, ``finite``) through the same stopping rule as
:func:`perceptronlab.perceptron`: sweep until a sweep makes no update, or ``max_sweeps``.
"""

from __future__ import annotations

import dataclasses
import warnings

import numpy as np

from perceptronlab import _validation as v
from perceptronlab.core.perceptron import _finish, _SweepLog
from perceptronlab.core.run import Run
from perceptronlab.exceptions import NotConvergedWarning

#: the family averages and votes over whole sweeps, so each step visits one example
FAMILY_ORDERS = ("cyclic", "shuffle")


def check_params(*, eta, margin, order, max_sweeps, seed):
    """The engine's parameter checks, with the family's orders. Returns (max_sweeps, seed)."""
    v.check_choice("order", order, FAMILY_ORDERS)
    v.check_eta(eta)
    v.check_margin(margin)
    max_sweeps = v.check_positive_int("max_sweeps", max_sweeps, "Pass e.g. max_sweeps=100.")
    return max_sweeps, v.check_seed(seed)


def sweep_until_clean(engine, log: _SweepLog, *, order: str, max_sweeps: int, seed) -> bool:
    """The engine's stopping rule: a clean sweep (converged) or ``max_sweeps``.

    There is no cycle test: averages and votes keep changing while the iterates cycle, so the run
    goes on to ``max_sweeps`` (``cycled`` is always False).
    """
    rng = np.random.default_rng(seed)
    for sweep in range(1, max_sweeps + 1):
        permutation = None if order == "cyclic" else rng.permutation(engine.n)
        updates = engine.sweep(permutation, sweep)
        log.end_sweep(sweep, updates, engine)
        if updates == 0:
            return True
    return False


def sweep_positions(order, idx: np.ndarray, n: int) -> np.ndarray:
    """Position (0-based) within the sweep of each updated example ``idx``."""
    if order is None:
        return idx
    inverse = np.empty(n, dtype=np.int64)
    inverse[np.asarray(order)] = np.arange(n)
    return inverse[idx]


def make_run(cls, engine, log, *, algorithm, params, converged, X, signs, classes, w=None, b=None,
             **extra) -> Run:
    """The engine's Run (built by the core's ``_finish``) as the learner's subclass ``cls``."""
    kwargs = {} if w is None else {"w": w, "b": b}
    base = _finish(engine, log, algorithm=algorithm, params=params, exact=False,
                   converged=converged, cycled=False, X=X, signs=signs, classes=classes, **kwargs)
    fields = {f.name: getattr(base, f.name) for f in dataclasses.fields(Run)}
    run = cls(**fields, **extra)
    run.classes = base.classes
    return run


def warn_not_converged(run: Run, warn: bool, max_sweeps: int, what: str) -> None:
    if warn and not run.converged:
        warnings.warn(f"No clean sweep within max_sweeps={max_sweeps} ({run.mistakes} mistakes); "
                      f"the {what} is taken over all {max_sweeps} sweeps. Raise max_sweeps for "
                      "separable data, or pass warn=False when a fixed number of sweeps is meant.",
                      NotConvergedWarning, stacklevel=3)


def check_predict_X(X, n_features: int, who: str):
    """Validate prediction input against the fitted number of features."""
    Xc = v.check_matrix(X)
    v.check_n_features(Xc.shape[1], n_features, who)
    return Xc


def labels_from_signs(signs_pred: np.ndarray, classes) -> np.ndarray:
    """Map predicted ±1 back to the training labels (classes[1] is +1)."""
    return np.asarray(classes)[(signs_pred > 0).astype(np.int64)]
