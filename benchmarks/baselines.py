"""Baselines that are not part of the package: the code a benchmark compares the package against.

``naive_dual_sweep`` is the textbook dual (kernel) perceptron loop, moved here from
``perceptronlab/family/_kernels.py`` (the package no longer carries it): every score recomputed
from the kernel over the current support, nothing cached, nothing incremental.
"""

from __future__ import annotations

import numpy as np
from numba import njit

# the kernel's formula and codes are the package's (K itself is not what the baseline is about: the
# loop around it is)
from perceptronlab.family._kernels import LINEAR, POLY, RBF, _apply_kernel  # noqa: F401


@njit(cache=True, nogil=True)
def naive_dual_sweep(
    X, sqn, kind, degree, gamma, coef0, y, alpha, b, eta, margin, fit_intercept, support, n_support
):
    """The textbook dual loop: f(x_i) = η Σ_j α_j y_j K(x_j, x_i) + b recomputed from the kernel at
    every step over the current support. Returns (updates, b, n_support)."""
    n, d = X.shape
    count = 0
    for i in range(n):
        f = 0.0
        for q in range(n_support):
            j = support[q]
            s = 0.0
            for p in range(d):
                s += X[j, p] * X[i, p]
            f += alpha[j] * y[j] * _apply_kernel(kind, s, sqn[j], sqn[i], degree, gamma, coef0)
        f = eta * f + b
        if y[i] * f <= margin:
            if alpha[i] == 0:
                support[n_support] = i
                n_support += 1
            alpha[i] += 1
            if fit_intercept:
                b += eta * y[i]
            count += 1
    return count, b, n_support


def naive_dual_perceptron(
    X, y, kind: int, gamma: float, sweeps: int, degree: int = 3, coef0: float = 1.0
):
    """Cyclic sweeps of :func:`naive_dual_sweep` from α = 0 until a clean sweep or ``sweeps``:
    returns (mistakes, α)."""
    X = np.ascontiguousarray(X, dtype=np.float64)
    y = np.ascontiguousarray(y, dtype=np.float64)
    sqn = np.einsum("ij,ij->i", X, X)
    alpha = np.zeros(X.shape[0], dtype=np.int64)
    support = np.zeros(X.shape[0], dtype=np.int64)
    n_support, b, mistakes = 0, 0.0, 0
    for _ in range(sweeps):
        made, b, n_support = naive_dual_sweep(
            X, sqn, kind, degree, gamma, coef0, y, alpha, b, 1.0, 0.0, False, support, n_support
        )
        mistakes += made
        if made == 0:
            break
    return mistakes, alpha
