"""The perceptron rule, compiled once: the score, the mistake test and the update.

Every compiled loop that runs the rule calls these (Numba inlines them, so they cost nothing):
the sweeps of :mod:`perceptronlab.core.kernels` (dense, blocked, CSR), the weighted and the
scikit-learn sweeps of :mod:`perceptronlab.core.sgd` (their update scale, weight scale and penalties
are state around the same step), the batch runner, the online rounds, the ratchet's walk
(:mod:`perceptronlab.core.ratchet`), the family's multiclass, averaging and dual sweeps. A variant is
a setting of the step (the threshold ``margin``, the per-row ``factor``), not a new loop. The exact
engine and the NumPy twin write the same rule on purpose, independently: they are the oracles these
are held to bit for bit. ``tests/test_architecture.py`` finds the rule by its shape and fails when
it is written out anywhere else than in the places ``docs/architecture.md`` lists.

``step`` is η·y (the signed learning rate of the row that was a mistake), times the row's factor
(sample weight × class weight) where the loop has one.
"""

from __future__ import annotations

import numpy as np
from numba import njit

__all__ = [
    "dot_row",
    "is_mistake",
    "check_row",
    "add_row",
    "add_csr_row",
    "add_entry",
    "add_intercept",
    "update_row",
    "update_csr_row",
]

# CSR loops index with unsigned integers: Numba then skips the negative-index wraparound test on
# every gather, which otherwise costs about half the speed of a sparse pass.
_U = np.uint64


@njit(cache=True, nogil=True, inline="always")
def dot_row(w, X, i):
    """⟨w, X[i]⟩ summed left to right in float64 (float32 entries widened exactly), as scikit-learn's
    ``WeightVector.dot``: the one dense dot product of the row-by-row loops."""
    s = 0.0
    for j in range(w.shape[0]):
        s += w[j] * X[i, j]
    return s


@njit(cache=True, nogil=True, inline="always")
def is_mistake(y_i, score, margin):
    """y·(⟨w, x⟩ + b) ≤ ρ₀ for ``score`` = ⟨w, x⟩ + b: a mistake (ties count), False for NaN."""
    return y_i * score <= margin


@njit(cache=True, nogil=True, inline="always")
def check_row(y_i, score, margin, eta, factor):
    """The test of a row with a per-row step factor: (z, loss, step) with z = y·score, and for a
    mistake the hinge loss margin − z and the step (η·y)·factor (scikit-learn's
    ``update *= class_weight * sample_weight``), else 0 and 0 (no update)."""
    z = y_i * score
    if is_mistake(y_i, score, margin):
        return z, margin - z, (eta * y_i) * factor
    return z, 0.0, 0.0


@njit(cache=True, nogil=True, inline="always")
def add_entry(w, j, x, step):
    """w[j] += x·step: one coordinate of the update (the multiclass rows, the dual scores)."""
    w[j] = w[j] + x * step


@njit(cache=True, nogil=True, inline="always")
def add_intercept(b, step, fit_intercept):
    """b + step when the intercept is fitted, else b: the intercept's update."""
    return b + step if fit_intercept else b


@njit(cache=True, nogil=True, inline="always")
def add_row(X, i, w, step):
    """w += X[i]·step, entry by entry w_j + x_j·step (scikit-learn's ``WeightVector.add`` order);
    returns ‖w‖² after it (for the norm log only, so summed in four chains; a caller that does not
    use it pays nothing, the sums are dropped by the compiler)."""
    d = w.shape[0]
    q0 = 0.0
    q1 = 0.0
    q2 = 0.0
    q3 = 0.0
    j = 0
    while j + 4 <= d:
        w[j] += X[i, j] * step
        w[j + 1] += X[i, j + 1] * step
        w[j + 2] += X[i, j + 2] * step
        w[j + 3] += X[i, j + 3] * step
        q0 += w[j] * w[j]
        q1 += w[j + 1] * w[j + 1]
        q2 += w[j + 2] * w[j + 2]
        q3 += w[j + 3] * w[j + 3]
        j += 4
    while j < d:
        w[j] += X[i, j] * step
        q0 += w[j] * w[j]
        j += 1
    return (q0 + q1) + (q2 + q3)


@njit(cache=True, nogil=True, inline="always")
def add_csr_row(indptr, indices, data, i, w, step, sq):
    """w += x_i·step over the CSR row's stored entries (the same w_j + x_j·step as :func:`add_row`);
    returns ‖w‖² kept up to date from its old value ``sq``."""
    for k in range(_U(indptr[i]), _U(indptr[i + 1])):
        j = _U(indices[k])
        old = w[j]
        w[j] = old + data[k] * step
        sq += w[j] * w[j] - old * old
    return sq


@njit(cache=True, nogil=True, inline="always")
def update_row(X, i, w, b, step, fit_intercept):
    """The whole update on a mistake of dense row i: w += X[i]·step, b += step (when fitted).
    Returns (b, ‖(w, b)‖²)."""
    sq = add_row(X, i, w, step)
    if fit_intercept:
        b = add_intercept(b, step, fit_intercept)
        sq += b * b
    return b, sq


@njit(cache=True, nogil=True, inline="always")
def update_csr_row(indptr, indices, data, i, w, b, step, fit_intercept, sq):
    """The whole update on a mistake of CSR row i, ‖(w, b)‖² kept up to date from ``sq``.
    Returns (b, ‖(w, b)‖²)."""
    sq = add_csr_row(indptr, indices, data, i, w, step, sq)
    if fit_intercept:
        sq += (b + step) * (b + step) - b * b
        b = add_intercept(b, step, fit_intercept)
    return b, sq
