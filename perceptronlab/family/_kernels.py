"""Compiled loops of the family: the average's accumulator, the dual (kernel) sweep, the multiclass
sweep.

Same contract as :mod:`perceptronlab.core.kernels`: contiguous arrays and scalars in, plain tuples
out, no validation, no objects; their pure-Python twins (``tests/family_twins.py``) hold them to
bit for bit. The averaged and voted perceptrons run the engine's own sweep
(:mod:`perceptronlab.core.kernels`) and only add bookkeeping, the average's accumulators with the
rule's update (:func:`perceptronlab.core.rule.add_row`); the dual sweep uses the rule's mistake
test (:func:`perceptronlab.core.rule.is_mistake`); the multiclass sweeps' test (the true class
against the best rival) and update of one coordinate are the rule's too
(:func:`_multiclass_mistake`, :func:`_multiclass_add`), for dense and CSR rows (dot product summed
in feature order, intercept added last).
"""

from __future__ import annotations

import math
from collections import namedtuple

from numba import njit, types
from numba.extending import overload

from perceptronlab.core.intrinsics import prefetch, prefetch_row
from perceptronlab.core.rule import add_csr_row, add_entry, add_intercept, add_row, is_mistake

# kernel codes understood by the dual sweep
LINEAR, POLY, RBF = 0, 1, 2
# where the dual sweep gets a kernel column from
FROM_GRAM, FROM_DENSE, FROM_CSR = 0, 1, 2


# ---------------------------------------------------------------- averaged (the c·w trick)


#: updated rows are prefetched this many updates ahead (the pass runs after the sweep, when the
#: rows have left the caches, so it is bound by memory latency without it)
AHEAD = 32


@njit(cache=True, nogil=True)
def accumulate_dense(X, idx, steps_before, y, eta, u):
    """u += Σ_k s_k·(η y_k)·x_k over one sweep's updates (s_k: steps taken before update k's step).

    Called after the engine's own sweep with its update indices, so the iterates are the engine's
    and u costs one pass over the updated rows. Returns Σ_k s_k·η y_k (the intercept's share).
    """
    n_updates = idx.shape[0]
    d = X.shape[1]
    flat = X.reshape(-1)
    line = max(1, 64 // X.itemsize)
    bu = 0.0
    for k in range(n_updates):
        if k + AHEAD < n_updates:
            prefetch_row(flat, idx[k + AHEAD], d, line)
        i = idx[k]
        gc = eta * y[i] * steps_before[k]
        add_row(X, i, u, gc)  # its ‖u‖² is not used: the compiler drops it
        bu = add_intercept(bu, gc, True)
    return bu


@njit(cache=True, nogil=True)
def accumulate_csr(indptr, indices, data, idx, steps_before, y, eta, u):
    """CSR twin of :func:`accumulate_dense`."""
    n_updates = idx.shape[0]
    data_line = max(1, 64 // data.itemsize)
    index_line = max(1, 64 // indices.itemsize)
    bu = 0.0
    for k in range(n_updates):
        if k + AHEAD < n_updates:
            ahead = idx[k + AHEAD]
            for p in range(indptr[ahead], indptr[ahead + 1], data_line):
                prefetch(data, p)
            for p in range(indptr[ahead], indptr[ahead + 1], index_line):
                prefetch(indices, p)
        i = idx[k]
        gc = eta * y[i] * steps_before[k]
        add_csr_row(indptr, indices, data, i, u, gc, 0.0)
        bu = add_intercept(bu, gc, True)
    return bu


# ---------------------------------------------------------------- multiclass (Collins 2002)


@njit(cache=True, nogil=True, inline="always")
def _multiclass_mistake(scores, true, margin):
    """The multiclass mistake test: s_true − max_{k≠true} s_k ≤ margin (ties count). Returns
    (mistake, rival): rival is the highest-scoring class other than ``true``, ties to the lowest index."""
    rival = -1
    rival_score = 0.0
    for k in range(scores.shape[0]):
        if k != true and (rival < 0 or scores[k] > rival_score):
            rival = k
            rival_score = scores[k]
    return is_mistake(1.0, scores[true] - rival_score, margin), rival


@njit(cache=True, nogil=True, inline="always")
def _multiclass_add(w_true, w_rival, u_true, u_rival, j_true, j_rival, x, eta, weighted_step, sq):
    """The multiclass update of one coordinate: w_true[j] += x·η, w_rival[j] −= x·η, and the average's
    u_true[j] += x·(η·steps), u_rival[j] −= x·(η·steps) (``weighted_step``); returns ‖(W, B)‖²
    kept up to date from ``sq``. A feature passes the class rows of W and U and its column twice; the
    intercept passes B and BU, the two classes, and x = 1."""
    a, r = w_true[j_true], w_rival[j_rival]
    add_entry(w_true, j_true, x, eta)
    add_entry(w_rival, j_rival, x, -eta)  # r + x·(−η) is r − x·η, bit for bit
    add_entry(u_true, j_true, x, weighted_step)
    add_entry(u_rival, j_rival, x, -weighted_step)
    return sq + (
        w_true[j_true] * w_true[j_true] - a * a + w_rival[j_rival] * w_rival[j_rival] - r * r
    )


def _row_span(rows, i):
    """(start, stop) of row i's entries in ``rows``: its columns for a dense matrix, its stored
    range for CSR rows (indptr, indices, data). Compiled only (:func:`_row_span_compiled`)."""
    raise NotImplementedError  # pragma: no cover - a compiled function's name


def _row_entry(rows, i, p):
    """(column, value) of entry p of row i (:func:`_row_span`). Compiled only."""
    raise NotImplementedError  # pragma: no cover - a compiled function's name


@overload(_row_span, inline="always")
def _row_span_compiled(rows, i):
    if isinstance(rows, types.Array):
        return lambda rows, i: (0, rows.shape[1])
    return lambda rows, i: (rows[0][i], rows[0][i + 1])


@overload(_row_entry, inline="always")
def _row_entry_compiled(rows, i, p):
    if isinstance(rows, types.Array):
        return lambda rows, i, p: (p, rows[i, p])
    return lambda rows, i, p: (rows[1][p], rows[2][p])


@njit(cache=True, nogil=True, inline="always")
def _multiclass_sweep(rows, n, labels, order, use_order, model, rule, state, buffers):
    """One multiclass sweep over the n rows of ``rows`` (a dense matrix, or CSR rows as
    (indptr, indices, data)), each row's dot products summed in its entries' order."""
    W, B, U, BU = model
    eta, margin, fit_intercept = rule
    steps, sq = state
    scores, idx_out, norm_out = buffers
    n_classes = W.shape[0]
    count = 0
    n_steps = order.shape[0] if use_order else n
    for t in range(n_steps):
        i = order[t] if use_order else t
        start, stop = _row_span(rows, i)
        for k in range(n_classes):
            s = 0.0
            for p in range(start, stop):
                j, x = _row_entry(rows, i, p)
                s += W[k, j] * x
            scores[k] = s + B[k]
        true = labels[i]
        mistake, rival = _multiclass_mistake(scores, true, margin)
        if mistake:
            weighted_step = eta * steps
            w_true, w_rival, u_true, u_rival = W[true], W[rival], U[true], U[rival]
            for p in range(start, stop):
                j, x = _row_entry(rows, i, p)
                sq = _multiclass_add(
                    w_true, w_rival, u_true, u_rival, j, j, x, eta, weighted_step, sq
                )
            if fit_intercept:
                sq = _multiclass_add(B, B, BU, BU, true, rival, 1.0, eta, weighted_step, sq)
            idx_out[count] = i
            norm_out[count] = math.sqrt(max(sq, 0.0))
            count += 1
        steps += 1.0
    return count, steps, sq


@njit(cache=True, nogil=True)
def multiclass_sweep_dense(X, labels, order, use_order, model, rule, state, buffers):
    """One multiclass sweep: a mistake when s_true − max_{k≠true} s_k ≤ margin (ties count).

    On a mistake W[true] += η·x and W[rival] −= η·x (rival = best other class); U accumulates
    (step − 1)·ΔW for the average, the lazy average of
    :func:`~perceptronlab.family._kernels.accumulate_dense`, with ``steps`` the steps taken so far
    (a float). ``sq`` is ‖(W, B)‖²_F. ``model`` is (W, B, U, BU), ``rule`` (η, margin,
    fit_intercept), ``state`` (steps, sq), ``buffers`` (scores: one per class, idx_out, norm_out).
    Returns (updates, steps, sq).
    """
    return _multiclass_sweep(X, X.shape[0], labels, order, use_order, model, rule, state, buffers)


@njit(cache=True, nogil=True)
def multiclass_sweep_csr(
    indptr, indices, data, labels, order, use_order, model, rule, state, buffers
):
    """CSR twin of :func:`multiclass_sweep_dense`. Returns (updates, steps, sq)."""
    rows, n = (indptr, indices, data), indptr.shape[0] - 1
    return _multiclass_sweep(rows, n, labels, order, use_order, model, rule, state, buffers)


# ---------------------------------------------------------------- kernel perceptron (dual form)


@njit(cache=True, nogil=True)
def _apply_kernel(kind, dot, sq_a, sq_b, degree, gamma, coef0):
    if kind == LINEAR:
        return dot
    if kind == POLY:
        return (gamma * dot + coef0) ** degree
    dist = sq_a + sq_b - 2.0 * dot
    return math.exp(-gamma * max(dist, 0.0))


#: how a kernel column is made: from the Gram matrix G, dense rows X or CSR rows, with the rows'
#: squared norms and the kernel's kind and parameters
Columns = namedtuple(
    "Columns",
    "source G X indptr indices data sqn kind degree gamma coef0",
)
#: the column buffers: the column ``out``, a dense scratch row ``buf`` (CSR), and the column cache
#: (``slots[i]``: the row of C that holds column i, or -1; ``used[0]``: rows of C taken)
Buffers = namedtuple("Buffers", "out buf slots C used")
#: the dual sweep's state: f(x_r) − b of every row, the support counts, the budget's FIFO ring
Dual = namedtuple("Dual", "scores alpha budget ring")
#: the rule's setting: the labels, η, ρ₀, whether the intercept is fitted
Rule = namedtuple("Rule", "y eta margin fit_intercept")
#: the update log: the entry's row, its step, ‖f‖ after it
Log = namedtuple("Log", "idx step norm")


@njit(cache=True, nogil=True)
def kernel_column(columns, buffers, i):
    """out[r] = K(x_r, x_i) for every training row r.

    From the full Gram matrix G, or from the column cache (``slots[i]`` ≥ 0: row ``slots[i]`` of
    C), or computed now (n kernel evaluations) and kept in the next free row of C while there is
    one (``used[0]`` rows are taken).
    """
    source, G, X, indptr, indices, data, sqn, kind, degree, gamma, coef0 = columns
    out, buf, slots, C, used = buffers
    n = out.shape[0]
    if source == FROM_GRAM:
        for r in range(n):
            out[r] = G[i, r]
        return
    slot = slots[i]
    if slot >= 0:
        for r in range(n):
            out[r] = C[slot, r]
        return
    if source == FROM_DENSE:
        d = X.shape[1]
        for r in range(n):
            s = 0.0
            for j in range(d):
                s += X[r, j] * X[i, j]
            out[r] = _apply_kernel(kind, s, sqn[r], sqn[i], degree, gamma, coef0)
    else:
        for p in range(indptr[i], indptr[i + 1]):
            buf[indices[p]] = data[p]
        for r in range(n):
            s = 0.0
            for p in range(indptr[r], indptr[r + 1]):
                s += data[p] * buf[indices[p]]
            out[r] = _apply_kernel(kind, s, sqn[r], sqn[i], degree, gamma, coef0)
        for p in range(indptr[i], indptr[i + 1]):
            buf[indices[p]] = 0.0
    if used[0] < C.shape[0]:
        slot = used[0]
        for r in range(n):
            C[slot, r] = out[r]
        slots[i] = slot
        used[0] = slot + 1


@njit(cache=True, nogil=True, inline="always")
def _enter(columns, buffers, scores, i, c, fsq):
    """scores += c·K_i (one kernel column, entry by entry: s_r + K_ri·c); returns ‖f − b‖² after."""
    kernel_column(columns, buffers, i)
    col = buffers.out
    fsq += 2.0 * c * scores[i] + c * c * col[i]
    for r in range(scores.shape[0]):
        add_entry(scores, r, col[r], c)
    return fsq


@njit(cache=True, nogil=True)
def kernel_sweep(columns, buffers, dual, rule, order, use_order, state, log):
    """One sweep of the dual perceptron f(x) = η Σ_k y_k K(x_k, x) + b over its support entries.

    ``dual.scores[r]`` holds f(x_r) − b for every training row, so a check is O(1) and a mistake on
    x_i costs one kernel column (see :func:`kernel_column`): scores += η y_i K_i.
    Every mistake adds a support entry; with ``dual.budget`` > 0 the entries form a FIFO ring and
    the oldest leaves (scores −= η y_j K_j) before a new one enters a full ring. ``fsq`` tracks the
    RKHS norm ‖f − b‖² incrementally. ``state`` is (b, fsq, step, n_entries); returns (updates, b,
    fsq, step, n_entries).
    """
    scores, alpha, budget, ring = dual
    y, eta, margin, fit_intercept = rule
    b, fsq, step, n_entries = state
    count = 0
    steps = order.shape[0] if use_order else y.shape[0]
    for t in range(steps):
        i = order[t] if use_order else t
        step += 1
        if is_mistake(y[i], scores[i] + b, margin):
            if budget > 0 and n_entries >= budget:
                j = ring[n_entries % budget]
                cj = eta * y[j]
                # −c_j: s_r + K_rj·(−c_j) is s_r − c_j·K_rj, bit for bit
                fsq = _enter(columns, buffers, scores, j, -cj, fsq)
                alpha[j] -= 1
                b = add_intercept(b, -cj, fit_intercept)
            g = eta * y[i]
            fsq = _enter(columns, buffers, scores, i, g, fsq)
            alpha[i] += 1
            b = add_intercept(b, g, fit_intercept)
            if budget > 0:
                ring[n_entries % budget] = i
            n_entries += 1
            log.idx[count] = i
            log.step[count] = step
            log.norm[count] = math.sqrt(max(fsq + b * b, 0.0))
            count += 1
    return count, b, fsq, step, n_entries
