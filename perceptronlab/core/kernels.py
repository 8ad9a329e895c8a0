"""Compiled loops of the perceptron rule (Numba, cached on disk).

Kernels take contiguous arrays and scalars and return plain tuples: no validation, no objects.
Numba specialises each kernel per dtype, so one source serves float32 and float64 input; the
weights are always float64. Dot products are summed in feature order, exactly as scikit-learn's
``WeightVector.dot`` does, so on the same data the two give the same bits.
"""

from __future__ import annotations

import math

from numba import njit


@njit(cache=True, nogil=True)
def sweep_dense(X, y, order, use_order, w, b, eta, margin, fit_intercept, idx_out, norm_out):
    """One sweep over dense rows: test y⟨w,x⟩+yb ≤ margin, update w += eta·y·x. Returns (updates, b)."""
    n, d = X.shape
    count = 0
    steps = order.shape[0] if use_order else n
    for t in range(steps):
        i = order[t] if use_order else t
        s = 0.0
        for j in range(d):
            s += w[j] * X[i, j]
        s += b
        if y[i] * s <= margin:
            c = eta * y[i]
            sq = 0.0
            for j in range(d):
                w[j] += X[i, j] * c
                sq += w[j] * w[j]
            if fit_intercept:
                b += c
                sq += b * b
            idx_out[count] = i
            norm_out[count] = math.sqrt(sq)
            count += 1
    return count, b


@njit(cache=True, nogil=True)
def sweep_csr(indptr, indices, data, y, order, use_order, w, b, eta, margin, fit_intercept, idx_out, norm_out):
    """One sweep over CSR rows; same rule as :func:`sweep_dense`. Returns (updates, b)."""
    n = indptr.shape[0] - 1
    count = 0
    sq = 0.0
    for j in range(w.shape[0]):
        sq += w[j] * w[j]
    if fit_intercept:
        sq += b * b
    steps = order.shape[0] if use_order else n
    for t in range(steps):
        i = order[t] if use_order else t
        s = 0.0
        for k in range(indptr[i], indptr[i + 1]):
            s += w[indices[k]] * data[k]
        s += b
        if y[i] * s <= margin:
            c = eta * y[i]
            for k in range(indptr[i], indptr[i + 1]):
                j = indices[k]
                old = w[j]
                w[j] = old + data[k] * c
                sq += w[j] * w[j] - old * old
            if fit_intercept:
                sq += (b + c) * (b + c) - b * b
                b += c
            idx_out[count] = i
            norm_out[count] = math.sqrt(max(sq, 0.0))
            count += 1
    return count, b


@njit(cache=True, nogil=True)
def margins_dense(X, y, w, b, out):
    """out[i] = y_i (⟨w, x_i⟩ + b), summed in feature order like the sweep."""
    n, d = X.shape
    for i in range(n):
        s = 0.0
        for j in range(d):
            s += w[j] * X[i, j]
        out[i] = y[i] * (s + b)
    return out


@njit(cache=True, nogil=True)
def margins_csr(indptr, indices, data, y, w, b, out):
    n = indptr.shape[0] - 1
    for i in range(n):
        s = 0.0
        for k in range(indptr[i], indptr[i + 1]):
            s += w[indices[k]] * data[k]
        out[i] = y[i] * (s + b)
    return out


@njit(cache=True, nogil=True)
def add_row_dense(X, i, w, c):
    """w += X[i]·c; returns ‖w‖² (without the intercept)."""
    sq = 0.0
    for j in range(w.shape[0]):
        w[j] += X[i, j] * c
        sq += w[j] * w[j]
    return sq


@njit(cache=True, nogil=True)
def add_row_csr(indptr, indices, data, i, w, c):
    for k in range(indptr[i], indptr[i + 1]):
        w[indices[k]] += data[k] * c
    sq = 0.0
    for j in range(w.shape[0]):
        sq += w[j] * w[j]
    return sq
