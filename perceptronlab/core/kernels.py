"""Compiled loops of the perceptron rule (Numba, cached on disk).

Kernels take contiguous arrays and scalars and return plain tuples: no validation, no objects.
Numba specialises each kernel per dtype, so one source serves float32 and float64 input; the
weights and every sum are float64 (float32 entries are widened exactly).

Summation order is part of the semantics: every dot product is summed in feature order, exactly as
scikit-learn's ``WeightVector.dot`` does, so on the same data the two give the same bits, and the
parallel kernels give the same bits as the sequential ones. Speed comes from what does not change
that order: scoring eight rows at a time in SIMD registers (one lane per row, so each row is still
one chain in feature order), software prefetch of the rows ahead (a sweep is a stream over X), and,
on several cores, scoring blocks of rows in parallel with the current w and walking them in order.
Which dense loop is fastest (eight or four rows in the lanes, prefetching or not, or one row at a
time: :data:`DENSE_SWEEPS`, the same bits) depends on the CPU, and is measured on it
(:mod:`perceptronlab.core.choice`), as is the CSR loop.
"""

from __future__ import annotations

import math

import numpy as np
from llvmlite import ir
from numba import njit, prange, types
from numba.core import cgutils
from numba.extending import intrinsic

from perceptronlab.core.intrinsics import prefetch, prefetch_row
from perceptronlab.core.rule import add_csr_row, add_row, is_mistake, update_csr_row, update_row
from perceptronlab.core.rule import dot_row as _dot

GROUP = 8  # rows scored together
# Rows are prefetched this many bytes ahead of the group being scored: about what memory delivers
# to one core in its latency (≈ 35 GB/s × 300 ns) ...
PREFETCH_BYTES = 12 * 1024
# ... unless a group of rows is already this long: then one group ahead is in flight, and a longer
# distance only adds misses in flight beyond what the core tracks (measured on one core, first five
# sweeps against five GEMVs out of cache: d = 80, 100, 128 float64 rows 6–15 % faster one group ahead,
# d = 20, 50, 64 faster 12 KiB ahead, d = 200 and float32 d = 100 the same either way)
LONG_GROUP_BYTES = 5 * 1024


def _rows_intrinsic(quads):
    """The intrinsic that scores 4·``quads`` rows at once (:func:`_rows8`, :func:`_rows4`)."""

    def rows_in_lanes(typingctx, w, X, rows, out):
        return types.void(w, X, rows, out), _rows_codegen(quads)

    rows_in_lanes.__name__ = rows_in_lanes.__qualname__ = f"_rows{4 * quads}"
    return intrinsic(rows_in_lanes)


def _rows_codegen(quads):
    """out[k] = Σ_{j < 4⌊d/4⌋} w[j]·X[rows[k], j] for 4·``quads`` rows, each summed left to right.

    One running sum a row, four rows to a <4 x double> register; four columns of four rows at a
    time come into the lanes by a 4×4 transpose of the rows' vector loads. Each lane does exactly
    what the scalar loop does (a product, then a sum, in feature order), so the bits are the same;
    written as LLVM vector IR because that keeps the order while using the CPU's SIMD units.
    """

    def codegen(context, builder, sig, args):
        w_arr = context.make_array(sig.args[0])(context, builder, args[0])
        x_arr = context.make_array(sig.args[1])(context, builder, args[1])
        r_arr = context.make_array(sig.args[2])(context, builder, args[2])
        o_arr = context.make_array(sig.args[3])(context, builder, args[3])
        d = builder.extract_value(x_arr.shape, 1)
        i32, i64 = ir.IntType(32), ir.IntType(64)
        f64x4 = ir.VectorType(ir.DoubleType(), 4)
        # float32 rows are loaded as <4 x float> and widened exactly, so the sums are float64's
        single = sig.args[1].dtype == types.float32
        row_vector = ir.VectorType(ir.FloatType(), 4) if single else f64x4

        def load_row(pointer):
            value = builder.load(
                builder.bitcast(pointer, row_vector.as_pointer()), align=4 if single else 8
            )
            return builder.fpext(value, f64x4) if single else value

        def mask(*lanes):
            return ir.Constant(ir.VectorType(i32, len(lanes)), [ir.Constant(i32, k) for k in lanes])

        bases = [
            builder.gep(
                x_arr.data,
                [builder.mul(builder.load(builder.gep(r_arr.data, [ir.Constant(i64, k)])), d)],
            )
            for k in range(4 * quads)
        ]
        accumulators = [
            cgutils.alloca_once_value(builder, ir.Constant(f64x4, [0.0] * 4)) for _ in range(quads)
        ]
        with cgutils.for_range(builder, builder.udiv(d, ir.Constant(d.type, 4))) as loop:
            j = builder.mul(loop.index, ir.Constant(d.type, 4))
            wv = builder.load(
                builder.bitcast(builder.gep(w_arr.data, [j]), f64x4.as_pointer()), align=8
            )
            splat = [builder.shuffle_vector(wv, wv, mask(q, q, q, q)) for q in range(4)]
            for acc, group in zip(
                accumulators, [bases[4 * q : 4 * q + 4] for q in range(quads)], strict=True
            ):
                v = [load_row(builder.gep(base, [j])) for base in group]
                t0 = builder.shuffle_vector(v[0], v[1], mask(0, 4, 2, 6))
                t1 = builder.shuffle_vector(v[0], v[1], mask(1, 5, 3, 7))
                t2 = builder.shuffle_vector(v[2], v[3], mask(0, 4, 2, 6))
                t3 = builder.shuffle_vector(v[2], v[3], mask(1, 5, 3, 7))
                columns = (
                    builder.shuffle_vector(t0, t2, mask(0, 1, 4, 5)),
                    builder.shuffle_vector(t1, t3, mask(0, 1, 4, 5)),
                    builder.shuffle_vector(t0, t2, mask(2, 3, 6, 7)),
                    builder.shuffle_vector(t1, t3, mask(2, 3, 6, 7)),
                )
                total = builder.load(acc)
                for q in range(4):
                    total = builder.fadd(total, builder.fmul(splat[q], columns[q]))
                builder.store(total, acc)
        for half, acc in enumerate(accumulators):
            total = builder.load(acc)
            for q in range(4):
                builder.store(
                    builder.extract_element(total, ir.Constant(i32, q)),
                    builder.gep(o_arr.data, [ir.Constant(i64, 4 * half + q)]),
                )
        return context.get_dummy_value()

    return codegen


_rows8 = _rows_intrinsic(2)  # eight rows in two <4 x double> registers
_rows4 = _rows_intrinsic(1)  # four rows in one: AVX2's four double lanes


@njit(cache=True, nogil=True, inline="always")
def _score_lanes(w, X, rows, out, group):
    """out[k] = ⟨w, X[rows[k]]⟩ for the ``group`` (8 or 4, a constant where it is inlined) rows in
    ``rows``, each summed in feature order."""
    if group == 8:
        _rows8(w, X, rows, out)
    else:
        _rows4(w, X, rows, out)
    d = w.shape[0]
    for k in range(group):
        s = out[k]
        for j in range(d - d % 4, d):  # the last columns, continuing each row's sum in order
            s += w[j] * X[rows[k], j]
        out[k] = s


@njit(cache=True, nogil=True, inline="always")
def _score_group(w, X, rows, out):
    """out[k] = ⟨w, X[rows[k]]⟩ for the GROUP rows in ``rows``, each summed in feature order."""
    _score_lanes(w, X, rows, out, GROUP)


@njit(cache=True, nogil=True, inline="always")
def _rows_ahead(X, group):
    """Rows between a group of ``group`` rows and the rows prefetched for it:
    :data:`PREFETCH_BYTES` ahead, or one group ahead when a group spans :data:`LONG_GROUP_BYTES` or more."""
    row_bytes = max(1, X.shape[1] * X.itemsize)
    if group * row_bytes >= LONG_GROUP_BYTES:
        return group
    return max(group, PREFETCH_BYTES // row_bytes)


@njit(cache=True, nogil=True, inline="always")
def _prefetch_distance(X):
    """:func:`_rows_ahead` for groups of GROUP rows."""
    return _rows_ahead(X, GROUP)


@njit(cache=True, nogil=True, inline="always")
def _next_rows(order, use_order, t, m, end, rows, flat, d, step, distance, group, prefetched):
    """rows = the m rows from position t (padded with the first), ``group`` of them; with
    ``prefetched``, the rows ``distance`` ahead prefetched."""
    for k in range(group):
        rows[k] = (order[t + k] if use_order else t + k) if k < m else rows[0]
        ahead = t + distance + k
        if prefetched and ahead < end:
            prefetch_row(flat, order[ahead] if use_order else ahead, d, step)


@njit(cache=True, nogil=True, inline="always")
def _next_group(order, use_order, t, m, end, rows, flat, d, step, distance):
    """rows = the m rows from position t (padded with the first); the rows ``distance`` ahead prefetched."""
    _next_rows(order, use_order, t, m, end, rows, flat, d, step, distance, GROUP, True)


@njit(cache=True, nogil=True, inline="always")
def _take_update(X, i, w, b, step, fit_intercept, idx_out, norm_out, count):
    """The update on a mistake of row i (w += x·step, b += step) and its entry in the log; returns b."""
    b, sq = update_row(X, i, w, b, step, fit_intercept)
    idx_out[count] = i
    norm_out[count] = math.sqrt(sq)
    return b


@njit(cache=True, nogil=True, inline="always")
def _sweep_groups(X, y, order, use_order, rule, group, prefetched):
    """The body of every grouped dense sweep (:data:`DENSE_SWEEPS`): rows scored ``group`` (8 or 4)
    at a time with the current w, the rows ahead prefetched or not; after an update the next group
    starts at the row after it, scored with the new w, so the result is that of the one-row loop.
    Inlined with constant ``group`` and ``prefetched``, so each sweep compiles to its own loop."""
    w, b, eta, margin, fit_intercept, idx_out, norm_out = rule
    n, d = X.shape
    flat = X.reshape(-1)
    step = max(1, 64 // X.itemsize)
    distance = _rows_ahead(X, group)
    steps = order.shape[0] if use_order else n
    rows = np.empty(group, dtype=np.int64)
    scores = np.empty(group)
    count = 0
    t = 0
    while t < steps:
        m = min(group, steps - t)
        _next_rows(order, use_order, t, m, steps, rows, flat, d, step, distance, group, prefetched)
        _score_lanes(w, X, rows, scores, group)
        walked = m
        for k in range(m):
            i = rows[k]
            s = scores[k] + b
            if (
                not abs(s) < math.inf
            ):  # NaN or inf in the row (or in w): stop here, the caller says which
                return count, b, i
            if is_mistake(y[i], s, margin):
                b = _take_update(X, i, w, b, eta * y[i], fit_intercept, idx_out, norm_out, count)
                count += 1
                walked = (
                    k + 1
                )  # the next group starts right after the update, scored with the new w
                break
        t += walked
    return count, b, -1


@njit(cache=True, nogil=True)
def sweep_dense(X, y, order, use_order, w, b, eta, margin, fit_intercept, idx_out, norm_out):
    """One sweep over dense rows: test y(⟨w,x⟩+b) ≤ margin, update w += x·(eta·y).

    Returns (updates, b, stopped_at): ``stopped_at`` is -1, or the row whose score was not finite
    (NaN or inf in the row, or weights that overflowed), where the sweep stopped. That check costs
    nothing here, so the boundary need not make its own pass over X.

    Rows are scored GROUP at a time with the current w, the next group prefetched; after an update
    the next group starts at the row after it, scored with the new w, so the result is that of the
    one-row loop. This is the "8 rows, prefetched" loop of :data:`DENSE_SWEEPS`; the engine runs the
    one measured fastest on this CPU (:func:`sweep_dense_loop`).
    """
    rule = (w, b, eta, margin, fit_intercept, idx_out, norm_out)
    return _sweep_groups(X, y, order, use_order, rule, GROUP, True)


@njit(cache=True, nogil=True)
def _sweep_dense_8(X, y, order, use_order, rule):
    """:func:`sweep_dense`, eight rows at a time, nothing prefetched."""
    return _sweep_groups(X, y, order, use_order, rule, 8, False)


@njit(cache=True, nogil=True)
def _sweep_dense_4_prefetched(X, y, order, use_order, rule):
    """:func:`sweep_dense`, four rows at a time (one <4 x double> register), prefetching."""
    return _sweep_groups(X, y, order, use_order, rule, 4, True)


@njit(cache=True, nogil=True)
def _sweep_dense_4(X, y, order, use_order, rule):
    """:func:`sweep_dense`, four rows at a time, nothing prefetched."""
    return _sweep_groups(X, y, order, use_order, rule, 4, False)


@njit(cache=True, nogil=True)
def _sweep_dense_rows(X, y, order, use_order, rule):
    """:func:`sweep_dense` one row at a time, each scored by the rule's ``dot_row``."""
    w, b, eta, margin, fit_intercept, idx_out, norm_out = rule
    steps = order.shape[0] if use_order else X.shape[0]
    count = 0
    for t in range(steps):
        i = order[t] if use_order else t
        s = _dot(w, X, i) + b
        if not abs(s) < math.inf:
            return count, b, i
        if is_mistake(y[i], s, margin):
            b = _take_update(X, i, w, b, eta * y[i], fit_intercept, idx_out, norm_out, count)
            count += 1
    return count, b, -1


@njit(cache=True, nogil=True)
def _sweep_dense_8_prefetched(X, y, order, use_order, rule):
    """:func:`sweep_dense` taking the record ``rule`` as the other loops do."""
    return _sweep_groups(X, y, order, use_order, rule, GROUP, True)


#: the dense sweeps by name: every one gives the same bits (each row's sum in feature order, the
#: same decisions); :mod:`perceptronlab.core.choice` measures which is fastest on this CPU
_DENSE_SWEEP_FUNCTIONS = {
    "8 rows, prefetched": _sweep_dense_8_prefetched,
    "8 rows": _sweep_dense_8,
    "4 rows, prefetched": _sweep_dense_4_prefetched,
    "4 rows": _sweep_dense_4,
    "row by row": _sweep_dense_rows,
}
DENSE_SWEEPS = tuple(_DENSE_SWEEP_FUNCTIONS)
#: the dense sweep where nothing was measured (X in cache): the one tuned first, on an AVX-512 Xeon
DEFAULT_DENSE_SWEEP = "8 rows, prefetched"


def sweep_dense_loop(X, y, order, use_order, rule, loop):
    """:func:`sweep_dense` by the loop named ``loop`` (a name of :data:`DENSE_SWEEPS`, the choice of
    :func:`perceptronlab.core.choice.dense_sweep` for this matrix, which the caller keeps); every
    loop gives the same bits. ``rule``: the compiled engine's record (w, b, η, margin,
    fit_intercept, idx_out, norm_out). Chosen here, in Python, as :func:`sweep_csr` is."""
    return _DENSE_SWEEP_FUNCTIONS[loop](X, y, order, use_order, rule)


@njit(cache=True, nogil=True)
def _score_span(X, order, use_order, w, start, stop, out, offset):
    """out[t - offset] = ⟨w, x_order[t]⟩ for t in [start, stop), GROUP rows at a time, prefetching."""
    d = X.shape[1]
    flat = X.reshape(-1)
    step = max(1, 64 // X.itemsize)
    distance = _prefetch_distance(X)
    rows = np.empty(GROUP, dtype=np.int64)
    scores = np.empty(GROUP)
    t = start
    while t < stop:
        m = min(GROUP, stop - t)
        _next_group(order, use_order, t, m, stop, rows, flat, d, step, distance)
        _score_group(w, X, rows, scores)
        for k in range(m):
            out[t + k - offset] = scores[k]
        t += m


@njit(cache=True, nogil=True, fastmath={"reassoc"})
def _squared_norms(X, order, use_order, start, stop, out, offset):
    """out[t - offset] ≥ ‖x_order[t]‖² up to rounding, for t in [start, stop): a bound, not a
    result, so the sum may be reassociated (vectorized); every order of a sum of squares is within
    (d − 1)·u of the exact value."""
    d = X.shape[1]
    for t in range(start, stop):
        i = order[t] if use_order else t
        s = 0.0
        for j in range(d):
            v = np.float64(X[i, j])
            s += v * v
        out[t - offset] = s


@njit(cache=True, nogil=True, parallel=True)
def _score_rows(X, order, use_order, w, start, stop, out):
    """:func:`_score_span` over [start, stop) split into chunks scored in parallel."""
    chunks = 16
    size = (stop - start + chunks - 1) // chunks
    for c in prange(chunks):
        lo = start + c * size
        hi = min(stop, lo + size)
        if lo < hi:
            _score_span(X, order, use_order, w, lo, hi, out, start)


@njit(cache=True, nogil=True, parallel=True)
def row_squared_norms(X, out):
    """out[i] ≥ ‖x_i‖² up to rounding for every row (:func:`_squared_norms`), the rows spread over
    the cores: what :func:`sweep_dense_blocked` bounds its stale scores with, computed once per fit."""
    n = X.shape[0]
    chunks = 16
    size = (n + chunks - 1) // chunks
    for c in prange(chunks):
        lo = c * size
        hi = min(n, lo + size)
        if lo < hi:
            _squared_norms(X, _NO_ORDER_INDEX, False, lo, hi, out, 0)
    return out


_U_ROUND = 2.0**-53  # the unit roundoff of float64
# a block whose scores, after its updates, decide fewer rows than this many of its own is cut short
# and the rest scored again in parallel with the new weights
BLOCK_RESCORE_AFTER = 64


@njit(cache=True, nogil=True)
def sweep_dense_blocked(X, y, order, use_order, rule, block, scores, row_sq):
    """:func:`sweep_dense` on several cores, same bits: score a block in parallel, walk it in order.

    The block is scored with the weights (w₀, b₀) it starts with. Until the first update those
    scores are exactly the sequential sweep's. After updates, a stale score still decides its row
    whenever it is further from the margin than the weights can have moved the exact score, plus
    the rounding of both sums (Higham's bound γ·Σ|w_j x_j| for a dot product summed in any order,
    with Cauchy-Schwarz on the moved part):

        |s(w, b) − s₀| ≤ ‖w − w₀‖·‖x‖ + |b − b₀| + γ·(‖w₀‖·‖x‖ + |b₀|) + γ·(‖w‖·‖x‖ + |b|),

    where ‖w − w₀‖ is bounded update by update (|c|·‖x_p‖·(1 + 3u) + u·‖w‖ each). A row closer
    than that is scored again, alone, with the current w, in feature order: the decisions, and so
    the updates and every bit of w, are the sequential sweep's. After :data:`BLOCK_RESCORE_AFTER`
    such rows the rest of the block is scored again in parallel. Late sweeps, with few updates,
    run at the bandwidth of all cores with one parallel pass per block. ``row_sq``: the rows' squared
    norms from :func:`row_squared_norms`, computed once per fit (they do not change). ``rule`` is
    the compiled engine's record (w, b, η, margin, fit_intercept, idx_out, norm_out).
    """
    w, b, eta, margin, fit_intercept, idx_out, norm_out = rule
    steps = order.shape[0] if use_order else X.shape[0]
    d = X.shape[1]
    gamma = (d + 2) * _U_ROUND / (1.0 - (d + 2) * _U_ROUND)
    inflate = 1.0 + 4 * (d + 2) * _U_ROUND
    count = 0
    start = 0
    while start < steps:
        stop = min(start + block, steps)
        _score_rows(X, order, use_order, w, start, stop, scores)
        w_norm0 = 0.0
        for j in range(d):
            w_norm0 += w[j] * w[j]
        w_norm0 = math.sqrt(w_norm0 * inflate) * inflate
        b0 = b
        drift = 0.0  # ≥ ‖w − w₀‖
        moved = False
        rescored = 0
        t = start
        while t < stop:
            i = order[t] if use_order else t
            s = scores[t - start] + b0
            if moved:
                x_norm = math.sqrt(row_sq[i] * inflate) * inflate
                bound = (
                    drift * x_norm
                    + abs(b - b0)
                    + gamma * (w_norm0 * x_norm + abs(b0))
                    + gamma * ((w_norm0 + drift) * x_norm + abs(b))
                    + _U_ROUND * (abs(s) + abs(margin))
                )
                bound = bound * (1.0 + 1e-6) + 1e-300
                gap = y[i] * s - margin
                if not (
                    abs(gap) > bound and bound < math.inf
                ):  # too close to call: score it again, exactly
                    s = _dot(w, X, i) + b
                    rescored += 1
                # otherwise the stale score decides: the exact one is on the same side of the margin
            if not abs(s) < math.inf:
                return count, b, i
            if is_mistake(y[i], s, margin):
                step = eta * y[i]
                x_norm = math.sqrt(row_sq[i] * inflate) * inflate
                b = _take_update(X, i, w, b, step, fit_intercept, idx_out, norm_out, count)
                drift += abs(step) * x_norm * (1.0 + 3 * _U_ROUND) + _U_ROUND * (w_norm0 + drift)
                moved = True
                count += 1
            t += 1
            if rescored >= BLOCK_RESCORE_AFTER and t < stop:
                break  # the rest of the block is scored again with the current w
        start = t
    return count, b, -1


# CSR kernels index with unsigned integers: Numba then skips the negative-index wraparound test
# on every gather, which otherwise costs about half the speed of a sparse pass.
_U = np.uint64


@njit(cache=True, nogil=True, inline="always")
def _csr_dot(indptr, indices, data, w, i):
    s = 0.0
    for k in range(_U(indptr[i]), _U(indptr[i + 1])):
        s += w[_U(indices[k])] * data[k]
    return s


@njit(cache=True, nogil=True, inline="always")
def _csr_dot2(indptr, indices, data, w, a, b):
    """⟨w, x_a⟩ and ⟨w, x_b⟩ as two interleaved chains, each summed in its row's stored order."""
    a0, a1, b0, b1 = _U(indptr[a]), _U(indptr[a + 1]), _U(indptr[b]), _U(indptr[b + 1])
    common = min(a1 - a0, b1 - b0)
    sa = 0.0
    sb = 0.0
    for k in range(common):
        sa += w[_U(indices[a0 + k])] * data[a0 + k]
        sb += w[_U(indices[b0 + k])] * data[b0 + k]
    for k in range(a0 + common, a1):
        sa += w[_U(indices[k])] * data[k]
    for k in range(b0 + common, b1):
        sb += w[_U(indices[k])] * data[k]
    return sa, sb


# the prefetched and paired sweeps prefetch the weights a row gathers this many rows ahead
CSR_PREFETCH_ROWS = 4
# The prefetched and paired sweeps may pay off only where every row's gathers miss the inner
# caches: w larger than an L2 (1 MiB), long rows, and columns spread evenly (a strided sample of the stored columns is
# nearly all distinct). Power-law (text) columns keep their hot weights in L1, where the extra
# loads and prefetches cost more than they hide; short rows do not amortize them.
PAIRED_MIN_WEIGHT_BYTES = 2**20
PAIRED_MIN_ROW_NNZ = 32
PAIRED_MIN_DISTINCT = 0.98
PAIRED_SAMPLE = 2048
PAIRED_MIN_NNZ = 100_000


@njit(cache=True, nogil=True)
def csr_gathers_miss(indptr, indices, d):
    """Whether this matrix's gathers miss the inner caches (see above): where the prefetched or paired
    loop may pay; whether one does on this CPU is measured (:func:`perceptronlab.core.choice.csr_loop`)."""
    n = indptr.shape[0] - 1
    nnz = indptr[n] - indptr[0]
    if (
        n == 0
        or nnz < PAIRED_MIN_NNZ
        or d * 8 < PAIRED_MIN_WEIGHT_BYTES
        or nnz < PAIRED_MIN_ROW_NNZ * n
    ):
        return False
    stride = max(1, nnz // PAIRED_SAMPLE)
    sample = np.sort(indices[indptr[0] : indptr[n] : stride][:PAIRED_SAMPLE].astype(np.int64))
    distinct = 1
    for k in range(1, sample.shape[0]):
        if sample[k] != sample[k - 1]:
            distinct += 1
    return distinct >= PAIRED_MIN_DISTINCT * sample.shape[0]


@njit(cache=True, nogil=True, inline="always")
def _squared_weights(w, b, fit_intercept):
    """‖(w, b)‖² (b only with an intercept): where a CSR sweep's running norm starts."""
    sq = 0.0
    for j in range(w.shape[0]):
        sq += w[j] * w[j]
    if fit_intercept:
        sq += b * b
    return sq


@njit(cache=True, nogil=True, inline="always")
def _csr_take_update(csr, i, w, b, step, fit_intercept, sq, logs, count):
    """The update on a mistake of row i of ``csr`` (indptr, indices, data): w += x·step, b += step,
    and its entry in ``logs`` (idx_out, norm_out); returns (b, ‖(w, b)‖²)."""
    indptr, indices, data = csr
    b, sq = update_csr_row(indptr, indices, data, i, w, b, step, fit_intercept, sq)
    idx_out, norm_out = logs
    idx_out[count] = i
    norm_out[count] = math.sqrt(max(sq, 0.0))
    return b, sq


@njit(cache=True, nogil=True, inline="always")
def _prefetch_row(indptr, indices, w, row):
    """Prefetch the weights row ``row`` gathers."""
    for k in range(_U(indptr[row]), _U(indptr[row + 1])):
        prefetch(w, _U(indices[k]))


def sweep_csr(indptr, indices, data, y, order, use_order, rule, loop):
    """One sweep over CSR rows; same rule, order and result as :func:`sweep_dense`.

    Row by row (each row's sum in its stored order), as scikit-learn does. On matrices whose
    gathers all miss the inner caches (:func:`csr_gathers_miss`) one of two other loops may be
    faster, and which one depends on the CPU (:mod:`perceptronlab.core.choice` measures them): row
    by row with the weights of a row :data:`CSR_PREFETCH_ROWS` ahead prefetched ("prefetched"), or
    two rows at a time, prefetching too ("paired"). Every loop gives the same bits. (Chosen here, in
    Python: compiled into one function, the loops run slower than each on its own.) ``loop``: a name
    of :data:`CSR_LOOPS`, the choice of :func:`perceptronlab.core.choice.csr_loop` for this matrix,
    which the caller keeps. ``rule``: the compiled engine's record (w, b, η, margin,
    fit_intercept, idx_out, norm_out).
    """
    return _CSR_LOOP_FUNCTIONS[loop](indptr, indices, data, y, order, use_order, rule)


@njit(cache=True, nogil=True, inline="always")
def _csr_row(csr, y, i, rule, b, sq, count):
    """Row i of a row-by-row CSR sweep: scored in its stored order, updated on a mistake (``rule``:
    the engine's record, whose b is the sweep's start; ``b``: the intercept now). Returns
    (count, b, ‖(w, b)‖², stopped): ``stopped`` is i when the score is not finite, else -1."""
    w, _, eta, margin, fit_intercept, idx_out, norm_out = rule
    indptr, indices, data = csr
    s = _csr_dot(indptr, indices, data, w, i) + b
    if not abs(s) < math.inf:
        return count, b, sq, i
    if is_mistake(y[i], s, margin):
        step = eta * y[i]
        b, sq = _csr_take_update(csr, i, w, b, step, fit_intercept, sq, (idx_out, norm_out), count)
        count += 1
    return count, b, sq, -1


@njit(cache=True, nogil=True, inline="always")
def _csr_row_by_row(indptr, indices, data, y, order, use_order, rule, prefetching):
    """:func:`sweep_csr` row by row; with ``prefetching`` (a constant of each caller's), the weights
    of the row :data:`CSR_PREFETCH_ROWS` ahead are prefetched first."""
    w, b, _, _, fit_intercept, _, _ = rule
    csr = (indptr, indices, data)
    sq = _squared_weights(w, b, fit_intercept)
    steps = order.shape[0] if use_order else indptr.shape[0] - 1
    count = 0
    for t in range(steps):
        if prefetching and t + CSR_PREFETCH_ROWS < steps:
            ahead = order[t + CSR_PREFETCH_ROWS] if use_order else t + CSR_PREFETCH_ROWS
            _prefetch_row(indptr, indices, w, ahead)
        i = order[t] if use_order else t
        count, b, sq, stopped = _csr_row(csr, y, i, rule, b, sq, count)
        if stopped >= 0:
            return count, b, stopped
    return count, b, -1


@njit(cache=True, nogil=True)
def _sweep_csr_rows(indptr, indices, data, y, order, use_order, rule):
    """:func:`sweep_csr` row by row."""
    return _csr_row_by_row(indptr, indices, data, y, order, use_order, rule, False)


@njit(cache=True, nogil=True)
def _sweep_csr_prefetched(indptr, indices, data, y, order, use_order, rule):
    """:func:`sweep_csr` row by row, prefetching the weights of the row :data:`CSR_PREFETCH_ROWS` ahead."""
    return _csr_row_by_row(indptr, indices, data, y, order, use_order, rule, True)


@njit(cache=True, nogil=True)
def _sweep_csr_paired(indptr, indices, data, y, order, use_order, rule):
    """:func:`sweep_csr` two rows at a time (two chains), prefetching the weights of the rows ahead."""
    w, b, eta, margin, fit_intercept, idx_out, norm_out = rule
    csr, logs = (indptr, indices, data), (idx_out, norm_out)
    n = indptr.shape[0] - 1
    count = 0
    sq = _squared_weights(w, b, fit_intercept)
    steps = order.shape[0] if use_order else n
    t = 0
    while t < steps:
        pair = t + 1 < steps
        r0 = order[t] if use_order else t
        r1 = (order[t + 1] if use_order else t + 1) if pair else r0
        for q in range(CSR_PREFETCH_ROWS, CSR_PREFETCH_ROWS + 2):
            if t + q < steps:
                _prefetch_row(indptr, indices, w, order[t + q] if use_order else t + q)
        s0, s1 = _csr_dot2(indptr, indices, data, w, r0, r1)
        fresh = True
        for q in range(2 if pair else 1):
            i = r0 if q == 0 else r1
            if q == 0:
                s = s0
            elif fresh:
                s = s1
            else:
                s = _csr_dot(indptr, indices, data, w, i)
            s += b
            if not abs(s) < math.inf:
                return count, b, i
            if is_mistake(y[i], s, margin):
                b, sq = _csr_take_update(csr, i, w, b, eta * y[i], fit_intercept, sq, logs, count)
                count += 1
                fresh = False
        t += 2
    return count, b, -1


#: the CSR loops by name (every one gives the same bits; :mod:`perceptronlab.core.choice` picks one)
_CSR_LOOP_FUNCTIONS = {
    "row by row": _sweep_csr_rows,
    "prefetched": _sweep_csr_prefetched,
    "paired": _sweep_csr_paired,
}
CSR_LOOPS = tuple(_CSR_LOOP_FUNCTIONS)


_P1 = np.uint64(0x9E3779B185EBCA87)
_P2 = np.uint64(0xC2B2AE3D27D4EB4F)
_P3 = np.uint64(0x165667B19E3779F9)
_P4 = np.uint64(0x85EBCA77C2B2AE63)
_P5 = np.uint64(0x27D4EB2F165667C5)


@njit(cache=True, nogil=True, inline="always")
def _rotl(x, r):
    return (x << np.uint64(r)) | (x >> np.uint64(64 - r))


@njit(cache=True, nogil=True, inline="always")
def _avalanche(h):
    h ^= h >> np.uint64(33)
    h *= _P2
    h ^= h >> np.uint64(29)
    h *= _P3
    h ^= h >> np.uint64(32)
    return h


@njit(cache=True, nogil=True)
def fingerprint(w, b):
    """A 128-bit fingerprint of the bits of (w, b), as two 64-bit words: two xxHash64-style lanes
    (multiply, rotate, multiply per word, different seeds and a final avalanche each). For cycle
    detection: one pass at memory speed, where a cryptographic digest of a large w costs a tenth
    of a sweep."""
    words = w.view(np.uint64)
    h1 = _P5 ^ np.uint64(words.shape[0])
    h2 = _P4 + np.uint64(words.shape[0])
    for k in range(words.shape[0]):
        x = words[k]
        h1 = _rotl(h1 + x * _P2, 31) * _P1
        h2 = _rotl(h2 ^ (x * _P3), 27) * _P4 + _P5
    tail = np.array([b]).view(np.uint64)[0]
    h1 = _avalanche(h1 ^ (_rotl(tail * _P2, 31) * _P1))
    h2 = _avalanche(h2 + tail * _P4)
    return h1, h2


@njit(cache=True, nogil=True)
def dot_in_order(w, x):
    """⟨w, x⟩ summed in feature order (the sweeps' order), for one example."""
    s = 0.0
    for j in range(w.shape[0]):
        s += w[j] * x[j]
    return s


_NO_ORDER_INDEX = np.empty(0, dtype=np.int64)


@njit(cache=True, nogil=True)
def _signed(y, b, out):
    for i in range(out.shape[0]):
        out[i] = y[i] * (out[i] + b)
    return out


@njit(cache=True, nogil=True)
def margins_dense(X, y, w, b, out):
    """out[i] = y_i (⟨w, x_i⟩ + b), summed in feature order like the sweep."""
    _score_span(X, _NO_ORDER_INDEX, False, w, 0, X.shape[0], out, 0)
    return _signed(y, b, out)


@njit(cache=True, nogil=True)
def margins_dense_parallel(X, y, w, b, out):
    """:func:`margins_dense` with the rows spread over the cores (same bits)."""
    _score_rows(X, _NO_ORDER_INDEX, False, w, 0, X.shape[0], out)
    return _signed(y, b, out)


@njit(cache=True, nogil=True)
def margins_csr(indptr, indices, data, y, w, b, out):
    n = indptr.shape[0] - 1
    for i in range(n):
        out[i] = y[i] * (_csr_dot(indptr, indices, data, w, i) + b)
    return out


@njit(cache=True, nogil=True)
def add_row_dense(X, i, w, step):
    """w += X[i]·step (the rule's :func:`~perceptronlab.core.rule.add_row`); returns ‖w‖² (without
    the intercept)."""
    return add_row(X, i, w, step)


@njit(cache=True, nogil=True)
def add_row_csr(indptr, indices, data, i, w, step):
    """w += x_i·step over the CSR row (:func:`~perceptronlab.core.rule.add_csr_row`); returns ‖w‖²
    (without the intercept), summed again in feature order."""
    add_csr_row(indptr, indices, data, i, w, step, 0.0)
    sq = 0.0
    for j in range(w.shape[0]):
        sq += w[j] * w[j]
    return sq


@njit(cache=True, nogil=True, fastmath={"reassoc", "contract"})
def _sum_flat(part):
    """Σ of a 1-D array (float32 widened), reassociated: vector adds, as many in flight as the core
    allows (indexed from 0, so that the compiler knows no index is negative and vectorizes)."""
    s = 0.0
    for k in range(part.shape[0]):
        s += np.float64(part[k])
    return s


@njit(cache=True, nogil=True, parallel=True)
def streaming_read(flat, parts):
    """Σ of a 1-D array read in ``parts`` contiguous parts at once, one per thread: a streaming read,
    the floor of any pass over the same bytes (what the memory gives one thread, or several)."""
    n = flat.shape[0]
    sums = np.zeros(parts)
    for c in prange(parts):
        sums[c] = _sum_flat(flat[c * n // parts : (c + 1) * n // parts])
    return sums.sum()
