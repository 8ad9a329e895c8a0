"""The perceptron rule in two compiled helpers: the mistake test and the update.

Every compiled loop that runs the rule calls these (Numba inlines them, so they cost nothing):
the sweeps of :mod:`perceptronlab.core.kernels` (dense, blocked, CSR), the batch runner, the
online rounds, the ratchet's walk (:mod:`perceptronlab.core.ratchet`) and the dual sweep of the
family. The exact engine and the NumPy twin write the same rule on purpose, independently: they are
the oracles these are held to bit for bit. ``tests/test_architecture.py`` fails when the test or
the update is written out anywhere else than in the places ``docs/architecture.md`` lists.

``step`` is always η·y (the signed learning rate of the row that was a mistake).
"""

from __future__ import annotations

import numpy as np
from numba import njit

__all__ = ["is_mistake", "add_row", "add_csr_row"]

# CSR loops index with unsigned integers: Numba then skips the negative-index wraparound test on
# every gather, which otherwise costs about half the speed of a sparse pass.
_U = np.uint64


@njit(cache=True, nogil=True, inline="always")
def is_mistake(y_i, score, margin):
    """y·(⟨w, x⟩ + b) ≤ ρ₀ for ``score`` = ⟨w, x⟩ + b: a mistake (ties count), False for NaN."""
    return y_i * score <= margin


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
