"""scikit-learn's SGD semantics in compiled sweeps (Numba, cached on disk).

scikit-learn's ``Perceptron`` is its SGD loop (``sklearn/linear_model/_sgd_fast.pyx.tp``) with the
hinge loss at threshold 0 and a constant learning rate. Its fitting options need more than the
textbook sweeps of :mod:`perceptronlab.core.kernels`: a per-row update scale (sample weight times
class weight), each sweep's hinge loss (for ``tol``), and its penalties. They live here, written
out plainly, so that the textbook kernels keep their code and their speed; with every scale 1.0
and no penalty these sweeps give the textbook sweeps' bits ((η·y)·1.0 is η·y).

Every sum is in scikit-learn's order: ⟨w, x⟩ in feature order (a CSR row in its stored order), the
update w += x·c entry by entry, the loss in visiting order.
"""

from __future__ import annotations

import math
from collections.abc import Iterator

import numpy as np
from numba import njit

from perceptronlab.core.kernels import GROUP, _next_group, _prefetch_distance, _score_group
from perceptronlab.core.rule import (
    add_entry,
    add_intercept,
    check_row,
    update_csr_row,
    update_row,
)

__all__ = ["sweep_dense_weighted", "sweep_csr_weighted", "sgd_shuffle", "sgd_permutations"]

#: scikit-learn's ``RAND_R_MAX`` (``sklearn/utils/_random.pxd``): its generator's values are below it + 1
_RAND_R_MAX = 0x7FFFFFFF
#: the state a zero seed is replaced by (scikit-learn's ``DEFAULT_SEED``)
_DEFAULT_SEED = 1
_MASK32 = 0xFFFFFFFF


@njit(cache=True, nogil=True)
def sgd_shuffle(index, seed):
    """Permute ``index`` in place exactly as scikit-learn's ``SequentialDataset.shuffle(seed)``.

    A Fisher–Yates shuffle drawing from scikit-learn's ``our_rand_r``, a 32-bit xorshift
    (13, 17, 5) whose value is taken modulo 2³¹: position i swaps with i + r % (n − i). The seed is
    scikit-learn's ``uint32`` seed of the run; the generator's state lives only for this call, so
    every epoch shuffles the previous epoch's order with the same draws, as scikit-learn's does.
    """
    state = np.uint64(seed) & np.uint64(_MASK32)
    n = index.shape[0]
    for i in range(n - 1):
        if state == 0:
            state = np.uint64(_DEFAULT_SEED)
        state ^= (state << np.uint64(13)) & np.uint64(_MASK32)
        state ^= state >> np.uint64(17)
        state ^= (state << np.uint64(5)) & np.uint64(_MASK32)
        r = state % np.uint64(_RAND_R_MAX + 1)
        j = i + np.int64(r % np.uint64(n - i))
        index[i], index[j] = index[j], index[i]


def sgd_permutations(n: int, seed: int) -> Iterator[np.ndarray]:
    """The rows' order of every epoch of scikit-learn's SGD with ``shuffle=True`` and ``seed``.

    The dataset's index starts as 0 … n − 1 and is shuffled in place before each epoch (so epoch k's
    order is the k-th shuffle of the index, not a fresh permutation). Yields a copy per epoch.
    """
    index = np.arange(n, dtype=np.int64)
    while True:
        sgd_shuffle(index, seed)
        yield index.copy()


@njit(cache=True, nogil=True, inline="always")
def _factor(scale, i):
    """Row i's update factor: ``scale[i]``, or 1.0 for every row when ``scale`` is empty (no
    weights: (η·y)·1.0 is η·y, and the sweep reads no array of ones)."""
    return scale[i] if scale.shape[0] else 1.0


@njit(cache=True, nogil=True, inline="always")
def _csr_row_dot(indptr, indices, data, w, i):
    """⟨w, x_i⟩ over the row's stored entries, in their order."""
    s = 0.0
    for k in range(indptr[i], indptr[i + 1]):
        s += w[indices[k]] * data[k]
    return s


@njit(cache=True, nogil=True)
def sweep_dense_weighted(X, y, scale, order, use_order, rule, margin_out):
    """One sweep over dense rows, with a per-row update scale and the sweep's loss.

    ``rule`` is the compiled engine's record: (w, b, η, margin, fit_intercept, idx_out, norm_out).

    A mistake on row i (y(⟨w,x⟩ + b) ≤ margin) updates w += x·c, b += c with c = (η·y_i)·scale_i,
    scikit-learn's ``update *= class_weight * sample_weight``; c = 0 (a zero weight) is no update,
    as scikit-learn skips it; an empty ``scale`` is 1.0 for every row. ``idx_out[k]``,
    ``norm_out[k]`` and ``margin_out[k]`` get the row, ‖(w, b)‖ after, and y(⟨w,x⟩ + b) before
    the k-th update.

    Returns (updates, b, stopped_at, loss): ``stopped_at`` is the row whose score was not finite
    (the sweep stops there), else -1; ``loss`` is Σ max(0, margin − y(⟨w,x⟩ + b)) over the rows
    checked, each with the weights it was checked with, unweighted and summed in row order
    (scikit-learn's per-epoch objective for its ``tol``).

    The rows are scored as :func:`perceptronlab.core.kernels.sweep_dense` scores them: a group of
    rows at a time with the current w (each row's sum in feature order, the one-row loop's bits),
    the rows ahead prefetched; after an update the next group starts at the row after it. So the
    sweep, its loss included, is one pass over X at the plain sweep's speed.
    """
    w, b, eta, margin, fit_intercept, idx_out, norm_out = rule
    n, d = X.shape
    flat = X.reshape(-1)
    line = max(1, 64 // X.itemsize)
    distance = _prefetch_distance(X)
    steps = order.shape[0] if use_order else n
    rows = np.empty(GROUP, dtype=np.int64)
    scores = np.empty(GROUP)
    count = 0
    loss = 0.0
    t = 0
    while t < steps:
        m = min(GROUP, steps - t)
        _next_group(order, use_order, t, m, steps, rows, flat, d, line, distance)
        _score_group(w, X, rows, scores)
        walked = m
        for k in range(m):
            i = rows[k]
            s = scores[k] + b
            if not abs(s) < math.inf:
                return count, b, i, loss
            z, lost, c = check_row(y[i], s, margin, eta, _factor(scale, i))
            loss += lost
            if c != 0.0:
                b, sq = update_row(X, i, w, b, c, fit_intercept)
                idx_out[count] = i
                norm_out[count] = math.sqrt(sq)
                margin_out[count] = z
                count += 1
                walked = k + 1  # the next group starts after the update, scored with the new w
                break
        t += walked
    return count, b, -1, loss


@njit(cache=True, nogil=True)
def sweep_csr_weighted(indptr, indices, data, y, scale, order, use_order, rule, margin_out):
    """:func:`sweep_dense_weighted` over CSR rows (each row's sum in its stored order)."""
    w, b, eta, margin, fit_intercept, idx_out, norm_out = rule
    sq = 0.0
    for j in range(w.shape[0]):
        sq += w[j] * w[j]
    if fit_intercept:
        sq += b * b
    steps = order.shape[0] if use_order else indptr.shape[0] - 1
    count = 0
    loss = 0.0
    for t in range(steps):
        i = order[t] if use_order else t
        s = _csr_row_dot(indptr, indices, data, w, i) + b
        if not abs(s) < math.inf:
            return count, b, i, loss
        z, lost, c = check_row(y[i], s, margin, eta, _factor(scale, i))
        loss += lost
        if c != 0.0:
            b, sq = update_csr_row(indptr, indices, data, i, w, b, c, fit_intercept, sq)
            idx_out[count] = i
            norm_out[count] = math.sqrt(max(sq, 0.0))
            margin_out[count] = z
            count += 1
    return count, b, -1, loss


# ---------------------------------------------------------------- penalties and float32
# scikit-learn's penalties keep w as a vector times a scale (its ``WeightVector``): l2 shrinks the
# scale before every row, l1 truncates each touched weight by the penalty accumulated so far
# (Tsuruoka et al. 2009, its ``l1penalty``), and the float32 path keeps the weights in float32. The
# sweeps below follow ``_plain_sgd`` and ``WeightVector`` operation by operation. A float32
# operation is done in float64 and rounded (:func:`_single`): for + − × ÷ of float32 numbers that
# gives the float32 result exactly (53 ≥ 2·24 + 2 bits).

#: scikit-learn's codes of its penalties (``PENALTY_TYPES``)
NO_PENALTY, L1, L2, ELASTICNET = 0, 1, 2, 3
#: the scale below which ``WeightVector`` multiplies it into the weights (float64, float32)
RESET_SCALE = (1e-9, 1e-6)
#: the state of a penalized run between sweeps: the scale, the accumulated l1 penalty u, and the
#: squared l2 and the l1 norms as ``WeightVector`` keeps them (for the objective of ``tol``)
STATE_SCALE, STATE_U, STATE_SQ_NORM, STATE_L1_NORM = 0, 1, 2, 3


@njit(cache=True, nogil=True, inline="always")
def _single(value, single):
    """``value`` rounded to float32 when the run is in float32 (a C ``float``), else itself."""
    return np.float64(np.float32(value)) if single else value


@njit(cache=True, nogil=True, inline="always")
def _positive_part(value):
    """Cython's ``max(0.0, value)``: value if it is > 0, else 0.0."""
    return value if value > 0.0 else 0.0


@njit(cache=True, nogil=True, inline="always")
def _negative_part(value):
    """Cython's ``min(0.0, value)``: value if it is < 0, else 0.0."""
    return value if value < 0.0 else 0.0


@njit(cache=True, nogil=True, inline="always")
def _l1_truncate(w, q, j, wscale, u):
    """scikit-learn's ``l1penalty`` on weight j: pull it towards 0 by the penalty it has not had yet."""
    z = np.float64(w[j])
    if wscale * z > 0.0:
        w[j] = _positive_part(w[j] - ((u + q[j]) / wscale))
    elif wscale * z < 0.0:
        w[j] = _negative_part(w[j] + ((u - q[j]) / wscale))
    q[j] = q[j] + wscale * (w[j] - z)


@njit(cache=True, nogil=True, inline="always")
def _objective_penalty(penalty, alpha, l1_ratio, sq_norm, l1_norm, single):
    """The penalty's term of scikit-learn's per-row objective (``tol``'s rule)."""
    if penalty == NO_PENALTY:
        return 0.0
    norm = _single(math.sqrt(sq_norm), single)
    return alpha * ((1 - l1_ratio) * 0.5 * (norm * norm) + l1_ratio * _single(l1_norm, single))


@njit(cache=True, nogil=True, inline="always")
def _shrink(w, state, factor, single):
    """``WeightVector.scale(factor)``: the scale shrinks; below its threshold it goes into w."""
    wscale = state[STATE_SCALE] * factor
    state[STATE_SQ_NORM] *= _single(factor * factor, single)
    state[STATE_L1_NORM] *= abs(factor)
    if wscale < RESET_SCALE[1 if single else 0]:
        multiplier = _single(wscale, single)
        for j in range(w.shape[0]):
            w[j] = w[j] * multiplier
        wscale = 1.0
    state[STATE_SCALE] = wscale


@njit(cache=True, nogil=True, inline="always")
def _scaled_norm(w, wscale, b, fit_intercept):
    """‖(w·scale, b)‖ for the log of updates."""
    sq = 0.0
    for j in range(w.shape[0]):
        value = w[j] * wscale
        sq += value * value
    if fit_intercept:
        sq += b * b
    return math.sqrt(sq)


@njit(cache=True, nogil=True, inline="always")
def _check_and_shrink(y_i, p, scale_i, w, state, rule, pen, factor):
    """A row's test and its penalty before the update: (z, loss, the penalty's term of the
    objective, the step c); with l2 or elasticnet the scale shrinks after the term is read."""
    eta, margin, _ = rule
    code, alpha, l1_ratio, single = pen
    z, lost, c = check_row(y_i, p, margin, eta, scale_i)
    term = _objective_penalty(
        code, alpha, l1_ratio, state[STATE_SQ_NORM], state[STATE_L1_NORM], single
    )
    if code >= L2:
        _shrink(w, state, factor, single)
    return z, lost, term, c


@njit(cache=True, nogil=True, inline="always")
def _keep_norms(state, sq, absolute, scale_now, single):
    """The squared l2 and the l1 norm of w·scale after an update, as ``WeightVector`` keeps them."""
    state[STATE_SQ_NORM] = sq * _single(scale_now * scale_now, single)
    state[STATE_L1_NORM] = absolute * scale_now


@njit(cache=True, nogil=True, inline="always")
def _log_update(log, count, i, w, wscale, b, fit_intercept, z):
    idx_out, norm_out, margin_out = log
    idx_out[count] = i
    norm_out[count] = _scaled_norm(w, wscale, b, fit_intercept)
    margin_out[count] = z


@njit(cache=True, nogil=True)
def sweep_dense_sgd(X, y, scale, order, use_order, model, b, rule, pen, log):
    """One epoch of scikit-learn's ``_plain_sgd`` (hinge loss at ``margin``, constant η) over dense rows.

    ``model`` is (w, q, state): ``w`` is float64 or float32 (then ``single`` is True and every
    operation is scikit-learn's float32 one); ``state`` (float64, see ``STATE_*``) carries w's
    scale and the l1 penalty between epochs, ``q`` the l1 penalty each weight has had; the true
    weights are w·scale. ``rule`` is (η, margin, fit_intercept), ``pen`` (penalty, α, l1_ratio,
    single), ``log`` (idx_out, norm_out, margin_out). Per row: the score
    p = ⟨w, x⟩·scale + b; the objective (hinge loss plus the penalty's term); with l2 or
    elasticnet the scale shrinks by max(0, 1 − (1 − l1_ratio)·η·α); a mistake (y·p ≤ margin)
    adds x·c/scale to w and c to b, c = (η·y)·scale_i; with l1 or elasticnet every weight of the
    row is truncated. ``penalty`` is scikit-learn's code (0 none, 1 l1, 2 l2, 3 elasticnet) and
    ``l1_ratio`` the effective one (0 for l2, 1 for l1).

    Returns (updates, b, stopped_at, objective) as :func:`sweep_dense_weighted` (the objective is
    the loss plus, with a penalty, the penalty's term at every row).
    """
    rows = (X, np.empty(0, np.int64), np.empty(0, np.int64), np.empty(0, X.dtype))
    return _sweep_sgd(rows, False, y, scale, order, use_order, model, b, rule, pen, log)


@njit(cache=True, nogil=True)
def sweep_csr_sgd(indptr, indices, data, y, scale, order, use_order, model, b, rule, pen, log):
    """:func:`sweep_dense_sgd` over CSR rows: the row's stored entries are the ones scored, added
    and truncated (scikit-learn's sparse rows); the norms kept for the objective are its too."""
    rows = (np.empty((0, 0), data.dtype), indptr, indices, data)
    return _sweep_sgd(rows, True, y, scale, order, use_order, model, b, rule, pen, log)


@njit(cache=True, nogil=True, inline="always")
def _span(indptr, i, d, sparse):
    """The positions of row i's entries: its stored entries (CSR), else its d columns."""
    if sparse:
        return np.int64(indptr[i]), np.int64(indptr[i + 1])
    return np.int64(0), np.int64(d)


@njit(cache=True, nogil=True, inline="always")
def _entry(rows, i, k, sparse):
    """(column, value) of the entry at position k of row i (see :func:`_span`)."""
    X, _, indices, data = rows
    if sparse:
        return np.int64(indices[k]), data[k]
    return k, X[i, k]


@njit(cache=True, nogil=True)
def _sweep_sgd(rows, sparse, y, scale, order, use_order, model, b, rule, pen, log):
    """The epoch of :func:`sweep_dense_sgd` and :func:`sweep_csr_sgd`: ``rows`` is (X, indptr,
    indices, data), dense X or CSR's arrays as ``sparse`` says (the other a placeholder); each row
    is its entries in order, each read, added and truncated as that sweep says."""
    w, q, state = model
    eta, _, fit_intercept = rule
    code, alpha, l1_ratio, single = pen
    indptr = rows[1]
    d = w.shape[0]
    factor = _single(_positive_part(1.0 - ((1.0 - l1_ratio) * eta * alpha)), single)
    steps = order.shape[0] if use_order else (indptr.shape[0] - 1 if sparse else rows[0].shape[0])
    count = 0
    objective = 0.0
    for t in range(steps):
        i = order[t] if use_order else t
        lo, hi = _span(indptr, i, d, sparse)
        s = 0.0
        for k in range(lo, hi):
            j, x = _entry(rows, i, k, sparse)
            s += _single(w[j] * x, single)
        p = _single(s * state[STATE_SCALE], single) + b
        if not abs(p) < math.inf:
            return count, b, i, objective
        z, lost, term, c = _check_and_shrink(
            y[i], p, _factor(scale, i), w, state, rule, pen, factor
        )
        objective += lost
        objective += term
        wscale = state[STATE_SCALE]
        if c != 0.0:
            scale_now = _single(wscale, single)
            step = _single(_single(c, single) / scale_now, single)
            sq = 0.0
            absolute = 0.0
            for k in range(lo, hi):
                j, x = _entry(rows, i, k, sparse)
                add_entry(w, j, x, step)
                sq += _single(w[j] * w[j], single)
                absolute += abs(w[j])
            _keep_norms(state, sq, absolute, scale_now, single)
            b = add_intercept(b, c, fit_intercept)
        if code == L1 or code == ELASTICNET:
            state[STATE_U] += l1_ratio * eta * alpha
            for k in range(lo, hi):
                j, _ = _entry(rows, i, k, sparse)
                _l1_truncate(w, q, j, wscale, state[STATE_U])
        if c != 0.0:
            _log_update(log, count, i, w, wscale, b, fit_intercept, z)
            count += 1
    return count, b, -1, objective
