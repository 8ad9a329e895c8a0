"""Compiled walks of Gallant's ratchet: the perceptron rule over a stream of picked examples,
counting the run of correct classifications since the last update.

A walk checks the picked examples in turn with the rule's own mistake test and update
(:mod:`perceptronlab.core.rule`, the same summation order and the same bits as the sweeps of
:mod:`perceptronlab.core.kernels`), and hands control
back to the driver as soon as the run reaches the length the driver asked for (the pocket's run
plus one), so that the driver, which owns Pocket's bookkeeping, can count the training errors of
those weights. Each pick costs O(d) (O(nonzeros of the row) for CSR).
"""

from __future__ import annotations

import math

from numba import njit

from perceptronlab.core.kernels import (
    _csr_dot,
    _csr_take_update,
    _dot,
    _score_span,
    _squared_weights,
    _take_update,
)
from perceptronlab.core.rule import is_mistake

__all__ = ["walk", "errors_up_to_dense", "errors_up_to_csr", "COUNT_BLOCK"]

#: rows scored between two looks at the count
COUNT_BLOCK = 256


@njit(cache=True, nogil=True)
def walk(X, indptr, indices, data, sparse, y, picks, start, run, target, updates_left, rule):
    """Check the rows ``picks[start:]`` in turn: y(⟨w,x⟩ + b) ≤ margin updates w += x·(eta·y) and
    sets the run to 0, else the run grows by one. The rows are those of the dense ``X``, or with
    ``sparse`` of the CSR arrays (``indptr``, ``indices``, ``data``): the other is a placeholder.

    Stops after the pick that makes the run equal ``target``, after the update that makes
    ``updates_left`` updates, or at the end of the picks. Returns (position after the last pick
    checked, run, updates, reached, b, stopped_at): ``reached`` says that the run reached
    ``target``; ``stopped_at`` is -1, or the row whose score was not finite (the walk stopped there,
    before it). ``rule`` is the compiled engine's record (w, b, η, margin, fit_intercept,
    idx_out, norm_out).
    """
    w, b, eta, margin, fit_intercept, idx_out, norm_out = rule
    sq = (
        _squared_weights(w, b, fit_intercept) if sparse else 0.0
    )  # the CSR update keeps ‖(w, b)‖² current
    count = 0
    t = start
    steps = picks.shape[0]
    while t < steps:
        i = picks[t]
        s = (_csr_dot(indptr, indices, data, w, i) if sparse else _dot(w, X, i)) + b
        if not abs(s) < math.inf:
            return t, run, count, False, b, i
        t += 1
        if is_mistake(y[i], s, margin):
            step = eta * y[i]
            if sparse:
                csr, logs = (indptr, indices, data), (idx_out, norm_out)
                b, sq = _csr_take_update(csr, i, w, b, step, fit_intercept, sq, logs, count)
            else:
                b = _take_update(X, i, w, b, step, fit_intercept, idx_out, norm_out, count)
            count += 1
            run = 0
            if count == updates_left:
                return t, run, count, False, b, -1
        else:
            run += 1
            if run == target:
                return t, run, count, True, b, -1
    return t, run, count, False, b, -1


@njit(cache=True, nogil=True)
def errors_up_to_dense(X, y, w, b, limit, order, scores, margins_out):
    """Rows with y(⟨w,x⟩ + b) ≤ 0 (the bits of :func:`~perceptronlab.core.kernels.margins_dense`),
    counted in the row order ``order`` until ``limit`` are found: returns the count if it is below
    ``limit`` (every row was then scored: ``margins_out[i]`` = y_i(⟨w,x_i⟩ + b)), else ``limit``.
    ``scores`` is a buffer of :data:`COUNT_BLOCK` floats. The result does not depend on the order;
    the sooner the rows that the weights get wrong come, the sooner a count that reaches ``limit``
    stops."""
    n = X.shape[0]
    count = 0
    start = 0
    while start < n:
        stop = min(start + COUNT_BLOCK, n)
        _score_span(X, order, True, w, start, stop, scores, start)
        for t in range(stop - start):
            i = order[start + t]
            m = y[i] * (scores[t] + b)
            margins_out[i] = m
            if m <= 0.0:
                count += 1
        if count >= limit:
            return limit
        start = stop
    return count


@njit(cache=True, nogil=True)
def errors_up_to_csr(indptr, indices, data, y, w, b, limit, order, margins_out):
    """:func:`errors_up_to_dense` over CSR rows."""
    count = 0
    for t in range(order.shape[0]):
        i = order[t]
        m = y[i] * (_csr_dot(indptr, indices, data, w, i) + b)
        margins_out[i] = m
        if m <= 0.0:
            count += 1
            if count >= limit:
                return limit
    return count
