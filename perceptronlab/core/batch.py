"""Many small perceptron runs in one compiled call (experiments with thousands of trials).

The driver's batched form: each run is the compiled engine's sweep under the driver's own checks
(a clean sweep, ``max_sweeps``, the cycle proof, overflow), in one parallel call
(:func:`perceptronlab.core.kernels.perceptron_many`).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from perceptronlab._ground import validation as v
from perceptronlab.core import kernels
from perceptronlab.core.interrupt import call_parallel
from perceptronlab.core.threads import numba_threads, resolve_n_jobs
from perceptronlab.exceptions import overflow_error


@dataclass
class BatchResult:
    """Per run: final ``w`` (runs, d), ``b`` (runs,), ``mistakes`` (its updates, as
    :attr:`perceptronlab.Run.mistakes`), ``sweeps``, ``converged``, ``cycled`` (a start-of-sweep w
    repeated: proof that the run never converges)."""

    w: np.ndarray
    b: np.ndarray
    mistakes: np.ndarray
    sweeps: np.ndarray
    converged: np.ndarray
    cycled: np.ndarray


def perceptron_batch(
    X,
    y,
    *,
    eta: float = 1.0,
    fit_intercept: bool = False,
    margin: float = 0.0,
    max_sweeps: int = 1000,
    n_jobs: int | None = None,
) -> BatchResult:
    """Run the cyclic perceptron on ``runs`` datasets of equal shape at once.

    Parameters
    ----------
    X : array (runs, n, d); y : array (runs, n) with labels in {-1, +1}.

    Each run is exactly ``perceptron(X[r], y[r], order="cyclic", ...)``: the same sweep, the same
    stops (a clean sweep, ``max_sweeps``, a cycle) and the same overflow error, without the per-run
    records (trace, norms); runs are spread over the cores.

    Examples
    --------
    >>> import numpy as np
    >>> X = np.array([[[1, 0], [1, 1], [0, 1]]] * 2, dtype=float)
    >>> result = perceptron_batch(X, np.array([[1, -1, -1]] * 2))
    >>> result.w.tolist(), result.mistakes.tolist()
    ([[1.0, -2.0], [1.0, -2.0]], [5, 5])
    """
    X = np.asarray(X, dtype=np.float64)
    y = np.asarray(y, dtype=np.float64)
    if X.ndim != 3:
        raise v.fail(
            "X", "a 3-D array (runs, n, d)", f"shape {X.shape}", "Stack the datasets with np.stack."
        )
    if y.shape != X.shape[:2]:
        raise v.fail(
            "y",
            f"shape {X.shape[:2]} (runs, n)",
            f"shape {y.shape}",
            "Stack one label row per dataset.",
        )
    if not (np.isfinite(X).all() and np.isin(y, (-1.0, 1.0)).all()):
        raise v.fail(
            "X, y",
            "finite X and labels in {-1, +1}",
            "other values",
            "Clean the data and map labels to ±1.",
        )
    v.check_eta(eta)
    v.check_margin(margin)
    max_sweeps = v.check_positive_int("max_sweeps", max_sweeps, "Pass e.g. max_sweeps=1000.")
    runs, _, d = X.shape
    W = np.zeros((runs, d))
    B = np.zeros(runs)
    updates = np.zeros(runs, dtype=np.int64)
    sweeps = np.zeros(runs, dtype=np.int64)
    outcomes = np.zeros(runs, dtype=np.int64)
    with numba_threads(resolve_n_jobs(n_jobs)):
        call_parallel(
            kernels.perceptron_many,
            np.ascontiguousarray(X),
            np.ascontiguousarray(y),
            float(eta),
            float(margin),
            bool(fit_intercept),
            max_sweeps,
            W,
            B,
            updates,
            sweeps,
            outcomes,
        )
    overflowed = np.flatnonzero(outcomes == kernels.RUN_OVERFLOW)
    if overflowed.shape[0]:
        r = int(overflowed[0])
        raise overflow_error(f"during sweep {int(sweeps[r])} of run {r}")
    return BatchResult(
        W, B, updates, sweeps, outcomes == kernels.RUN_CONVERGED, outcomes == kernels.RUN_CYCLED
    )
