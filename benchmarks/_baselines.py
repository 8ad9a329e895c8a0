"""Baselines the benchmarks time the engine against; not part of the package."""

from __future__ import annotations

import math

from numba import njit

# kernel codes of the dual sweep (as perceptronlab.family's)
LINEAR, POLY, RBF = 0, 1, 2


@njit(cache=True, nogil=True)
def _apply_kernel(kind, dot, sq_a, sq_b, degree, gamma, coef0):
    if kind == LINEAR:
        return dot
    if kind == POLY:
        return (gamma * dot + coef0) ** degree
    dist = sq_a + sq_b - 2.0 * dot
    return math.exp(-gamma * max(dist, 0.0))


@njit(cache=True, nogil=True)
def naive_dual_sweep(X, sqn, kind, degree, gamma, coef0, y, alpha, b, eta, margin, fit_intercept,
                     support, n_support):
    """The textbook dual loop (the benchmark's baseline): f(x_i) = η Σ_j α_j y_j K(x_j, x_i) + b
    recomputed from the kernel at every step over the current support. Returns (updates, b, n_support).
    """
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
