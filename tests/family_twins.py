"""The pure-Python twins of the family's compiled loops (:mod:`perceptronlab.family._kernels`).

Only the tests use them, so they live with the tests (``tests/test_family_twins.py``).

The same rule, the same operations in the same order, no compiler: each twin takes the same
arguments as its compiled loop, changes the same arrays and returns the same tuple, so tests hold
the compiled loops against it bit for bit (as :mod:`perceptronlab.core.reference` is for
:mod:`perceptronlab.core.kernels`). Sums run left to right in float64, as the loops do; a power with
an integer exponent is taken by repeated squaring, as Numba takes ``x ** n``.
"""

from __future__ import annotations

import math

import numpy as np

from perceptronlab.core.reference import ordered_dot
from perceptronlab.family._kernels import FROM_DENSE, FROM_GRAM, LINEAR, POLY

__all__ = [
    "int_power",
    "apply_kernel",
    "accumulate_dense",
    "accumulate_csr",
    "best_rival",
    "multiclass_sweep_dense",
    "multiclass_sweep_csr",
    "kernel_column",
    "kernel_sweep",
]


def int_power(x: float, n: int) -> float:
    """x ** n for an integer n ≥ 0 by repeated squaring (Numba's float ** int, not C's pow)."""
    result, base = 1.0, float(x)
    while n:
        if n & 1:
            result *= base
        base *= base
        n >>= 1
    return result


def apply_kernel(kind, dot, sq_a, sq_b, degree, gamma, coef0) -> float:
    if kind == LINEAR:
        return dot
    if kind == POLY:
        return int_power(gamma * dot + coef0, int(degree))
    dist = sq_a + sq_b - 2.0 * dot
    return math.exp(-gamma * max(dist, 0.0))


# ---------------------------------------------------------------- averaged (the c·w trick)


def accumulate_dense(X, idx, steps_before, y, eta, u) -> float:
    """Twin of :func:`perceptronlab.family._kernels.accumulate_dense`."""
    bu = 0.0
    for k in range(idx.shape[0]):
        i = idx[k]
        gc = eta * y[i] * steps_before[k]
        u += X[i].astype(np.float64) * gc  # entry by entry: u_j + x_j·gc
        bu += gc
    return bu


def accumulate_csr(indptr, indices, data, idx, steps_before, y, eta, u) -> float:
    """Twin of :func:`perceptronlab.family._kernels.accumulate_csr`."""
    bu = 0.0
    for k in range(idx.shape[0]):
        i = idx[k]
        gc = eta * y[i] * steps_before[k]
        for p in range(indptr[i], indptr[i + 1]):
            u[indices[p]] += data[p] * gc
        bu += gc
    return bu


# ---------------------------------------------------------------- multiclass (Collins 2002)


def best_rival(scores, true) -> tuple[int, float]:
    """The highest-scoring class other than ``true``; ties go to the lowest class index."""
    best, best_score = -1, 0.0
    for k in range(scores.shape[0]):
        if k != true and (best < 0 or scores[k] > best_score):
            best, best_score = k, scores[k]
    return best, best_score


def _multiclass_update(W, B, U, BU, c, eta, fit_intercept, sq, true, rival, columns, values):
    gc = eta * c
    for j, x in zip(columns, values, strict=True):
        a, r = W[true, j], W[rival, j]
        W[true, j] = a + x * eta
        W[rival, j] = r - x * eta
        U[true, j] += x * gc
        U[rival, j] -= x * gc
        sq += W[true, j] * W[true, j] - a * a + W[rival, j] * W[rival, j] - r * r
    if fit_intercept:
        a, r = B[true], B[rival]
        B[true] = a + eta
        B[rival] = r - eta
        BU[true] += gc
        BU[rival] -= gc
        sq += B[true] * B[true] - a * a + B[rival] * B[rival] - r * r
    return sq


def _multiclass_sweep(rows, labels, order, use_order, model, rule, state, buffers):
    W, B, U, BU = model
    eta, margin, fit_intercept = rule
    c, sq = state
    scores, idx_out, norm_out = buffers
    count = 0
    steps = order.shape[0] if use_order else len(rows)
    for t in range(steps):
        i = order[t] if use_order else t
        columns, values = rows[i]
        for k in range(W.shape[0]):
            scores[k] = ordered_dot(W[k, columns], values) + B[k]
        true = labels[i]
        rival, rival_score = best_rival(scores, true)
        if scores[true] - rival_score <= margin:
            sq = _multiclass_update(
                W, B, U, BU, c, eta, fit_intercept, sq, true, rival, columns, values
            )
            idx_out[count] = i
            norm_out[count] = math.sqrt(max(sq, 0.0))
            count += 1
        c += 1.0
    return count, c, sq


def multiclass_sweep_dense(X, labels, order, use_order, model, rule, state, buffers):
    """Twin of :func:`perceptronlab.family._kernels.multiclass_sweep_dense`."""
    columns = np.arange(X.shape[1])
    rows = [(columns, X[i]) for i in range(X.shape[0])]
    return _multiclass_sweep(rows, labels, order, use_order, model, rule, state, buffers)


def multiclass_sweep_csr(
    indptr, indices, data, labels, order, use_order, model, rule, state, buffers
):
    """Twin of :func:`perceptronlab.family._kernels.multiclass_sweep_csr`."""
    rows = [
        (indices[indptr[i] : indptr[i + 1]], data[indptr[i] : indptr[i + 1]])
        for i in range(indptr.shape[0] - 1)
    ]
    return _multiclass_sweep(rows, labels, order, use_order, model, rule, state, buffers)


# ---------------------------------------------------------------- kernel perceptron (dual form)


def kernel_column(columns, buffers, i) -> None:
    """Twin of :func:`perceptronlab.family._kernels.kernel_column`."""
    source, G, X, indptr, indices, data, sqn, kind, degree, gamma, coef0 = columns
    out, buf, slots, C, used = buffers
    n = out.shape[0]
    if source == FROM_GRAM:
        out[:] = G[i, :n]
        return
    if slots[i] >= 0:
        out[:] = C[slots[i], :n]
        return
    for r in range(n):
        if source == FROM_DENSE:
            dot = ordered_dot(X[r], X[i])
        else:
            own = dict(
                zip(
                    indices[indptr[i] : indptr[i + 1]].tolist(),
                    data[indptr[i] : indptr[i + 1]].tolist(),
                    strict=True,
                )
            )
            dot = 0.0
            for p in range(indptr[r], indptr[r + 1]):
                dot += data[p] * own.get(int(indices[p]), 0.0)
        out[r] = apply_kernel(kind, dot, sqn[r], sqn[i], degree, gamma, coef0)
    if used[0] < C.shape[0]:
        C[used[0], :n] = out
        slots[i] = used[0]
        used[0] += 1


def kernel_sweep(columns, buffers, dual, rule, order, use_order, state, log):
    """Twin of :func:`perceptronlab.family._kernels.kernel_sweep`."""
    scores, alpha, budget, ring = dual
    y, eta, margin, fit_intercept = rule
    b, fsq, step, n_entries = state
    entry_idx_out, entry_step_out, norm_out = log
    col = buffers.out

    def column(i):
        kernel_column(columns, buffers, i)

    count = 0
    steps = order.shape[0] if use_order else y.shape[0]
    for t in range(steps):
        i = order[t] if use_order else t
        step += 1
        if y[i] * (scores[i] + b) <= margin:
            if budget > 0 and n_entries >= budget:
                j = ring[n_entries % budget]
                cj = eta * y[j]
                column(j)
                fsq += -2.0 * cj * scores[j] + cj * cj * col[j]
                scores -= cj * col  # entry by entry: s_r − c_j·K_rj
                alpha[j] -= 1
                if fit_intercept:
                    b -= cj
            g = eta * y[i]
            column(i)
            fsq += 2.0 * g * scores[i] + g * g * col[i]
            scores += g * col
            alpha[i] += 1
            if fit_intercept:
                b += g
            if budget > 0:
                ring[n_entries % budget] = i
            n_entries += 1
            entry_idx_out[count] = i
            entry_step_out[count] = step
            norm_out[count] = math.sqrt(max(fsq + b * b, 0.0))
            count += 1
    return count, b, fsq, step, n_entries
