"""Many small perceptron runs in one compiled call (experiments with thousands of trials).

The driver's compiled path: :func:`drive_compiled` is the driver's loop
(:func:`perceptronlab.core.driver.drive` in cyclic order, without a hook or a log) over the compiled
engine's sweep row by row (:func:`perceptronlab.core.kernels.sweep_dense`'s bits): the same stops (a clean sweep,
``max_sweeps``, a start-of-sweep key seen before, overflow) and the same cycle key
(:func:`perceptronlab.core.kernels.fingerprint`, kept in a set as the driver keeps it), so each run
is ``perceptron(X[r], y[r])`` bit for bit. :func:`perceptron_batch` runs many at once.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from numba import njit, prange

from perceptronlab._ground import validation as v
from perceptronlab.core import kernels
from perceptronlab.core.interrupt import call_parallel
from perceptronlab.core.rule import dot_row, is_mistake, update_row
from perceptronlab.core.threads import numba_threads, resolve_n_jobs
from perceptronlab.exceptions import overflow_error

# how a compiled run ended (the driver's outcomes, and its overflow error)
RUN_LIMIT, RUN_CONVERGED, RUN_CYCLED, RUN_OVERFLOW = 0, 1, 2, 3


@njit(cache=True, nogil=True)
def drive_compiled(X, y, w, eta, margin, fit_intercept, max_sweeps):
    """The driver's cyclic run compiled for one small dataset, from w and b = 0.

    Returns (b, updates, sweeps, outcome): ``outcome`` one of :data:`RUN_LIMIT`,
    :data:`RUN_CONVERGED`, :data:`RUN_CYCLED`, :data:`RUN_OVERFLOW`; ``sweeps`` counts the sweeps
    run, as :class:`~perceptronlab.Run` counts them (the overflowing one included).
    """
    b = 0.0
    seen = {kernels.fingerprint(w, b)}  # typed by its first key; the loop's first test finds it
    seen.clear()
    updates = 0
    sweep = 0
    while sweep < max_sweeps:
        key = kernels.fingerprint(w, b)
        if key in seen:
            return b, updates, sweep, RUN_CYCLED
        seen.add(key)
        sweep += 1
        count, b, stopped = _sweep_unlogged(X, y, w, b, eta, margin, fit_intercept)
        updates += count
        if stopped >= 0 or not _finite(w, b):
            return b, updates, sweep, RUN_OVERFLOW
        if count == 0:
            return b, updates, sweep, RUN_CONVERGED
    return b, updates, sweep, RUN_LIMIT


@njit(cache=True, nogil=True)
def _sweep_unlogged(X, y, w, b, eta, margin, fit_intercept):
    """:func:`~perceptronlab.core.kernels.sweep_dense` row by row, without the update log (the batch
    runner keeps none): the same scores, tests and updates, so the same bits. Returns (updates, b,
    stopped_at). Kept beside the engine's sweep for its speed on small data: 1,000 runs of 60 points
    (``make bench``'s "many small runs") take 0.12–0.14 s with it, 0.34 s with ``sweep_dense`` (its row
    groups and prefetch pay off only on long sweeps)."""
    count = 0
    for i in range(X.shape[0]):
        s = dot_row(w, X, i) + b
        if not abs(s) < math.inf:
            return count, b, i
        if is_mistake(y[i], s, margin):
            b, _ = update_row(X, i, w, b, eta * y[i], fit_intercept)  # ‖w‖² unused: dropped
            count += 1
    return count, b, -1


@njit(cache=True, nogil=True)
def _finite(w, b):
    """Whether w and b are finite (the driver's :meth:`~perceptronlab.core.driver.Engine.finite`)."""
    if not abs(b) < math.inf:
        return False
    for j in range(w.shape[0]):
        if not abs(w[j]) < math.inf:
            return False
    return True


@njit(cache=True, nogil=True, parallel=True)
def _drive_many(X, y, eta, margin, fit_intercept, max_sweeps, W, B, updates, sweeps, outcomes):
    """:func:`drive_compiled` on each run of X (runs, n, d), y (runs, n); runs in parallel."""
    for r in prange(X.shape[0]):
        B[r], updates[r], sweeps[r], outcomes[r] = drive_compiled(
            X[r], y[r], W[r], eta, margin, fit_intercept, max_sweeps
        )


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
            _drive_many,
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
    overflowed = np.flatnonzero(outcomes == RUN_OVERFLOW)
    if overflowed.shape[0]:
        r = int(overflowed[0])
        raise overflow_error(f"during sweep {int(sweeps[r])} of run {r}")
    return BatchResult(W, B, updates, sweeps, outcomes == RUN_CONVERGED, outcomes == RUN_CYCLED)
