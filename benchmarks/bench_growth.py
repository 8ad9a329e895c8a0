"""Growth series that can fail (issue 18.3): the same work per row at every n, from 10⁴ to 10⁷ rows.

Each size sweeps once from the same kind of near-final w: the true hyperplane, tilted a little and
scaled up 10⁶-fold, so that a fixed fraction of the rows (about 1 %) are mistakes at every n and the
updates hardly move w. The caches are emptied before every timed sweep, so no size is helped by
fitting in them, and the fixed cost of a sweep (the call, the O(d) setup) is removed the same way at
every size: the time of a 100-row sweep, measured in the same round, is subtracted. The weights are
read back into the caches before each sweep (they are small, or, for the sparse series, touched
everywhere at every size): X is what streams from memory. The figure is
the time per non-zero at the largest n over that at the smallest; superlinear work (anything like
n log n or worse) shows as a ratio above 1.
"""

from __future__ import annotations

import numpy as np
import scipy.sparse as sp

from benchmarks._machine import flush_caches, l3_text
from benchmarks._runs import engine
from benchmarks._timing import Stat, at_most, interleave, result_row, timed

MAX_BYTES = 2 * 2**30  # the largest X of a series stays below this (the machine is shared)
SIZES = (10_000, 100_000, 1_000_000, 10_000_000)
TILT = 0.03  # the near-final w is w_true + TILT·‖w_true‖·(a random unit direction)


def _near_final(w_true: np.ndarray, rng) -> np.ndarray:
    direction = rng.standard_normal(w_true.shape[0])
    w = w_true + TILT * np.linalg.norm(w_true) * direction / np.linalg.norm(direction)
    return 1e6 * w


def dense_case(n: int, d: int, seed: int = 1):
    rng = np.random.default_rng(seed)
    X = np.empty((n, d))
    for start in range(0, n, 250_000):
        X[start : start + 250_000] = rng.standard_normal((min(250_000, n - start), d))
    w_true = rng.standard_normal(d)
    y = np.sign(X @ w_true)
    y[y == 0] = 1.0
    return X, y, _near_final(w_true, rng)


def sparse_case(n: int, d: int, nnz: int, seed: int = 1):
    rng = np.random.default_rng(seed)
    indices = np.empty(n * nnz, dtype=np.int32)
    data = np.empty(n * nnz)
    for start in range(0, n, 250_000):
        rows = min(250_000, n - start)
        block = slice(start * nnz, (start + rows) * nnz)
        # distinct sorted columns: nnz draws from nnz equal bands of the feature range
        bands = np.arange(nnz) * (d // nnz)
        indices[block] = (bands + rng.integers(0, d // nnz, size=(rows, nnz))).ravel()
        data[block] = rng.standard_normal(rows * nnz)
    X = sp.csr_matrix((data, indices, np.arange(0, n * nnz + 1, nnz, dtype=np.int64)), shape=(n, d))
    X.has_sorted_indices = True
    w_true = rng.standard_normal(d)
    y = np.sign(X @ w_true)
    y[y == 0] = 1.0
    return X, y, _near_final(w_true, rng)


def _series(label: str, cases: dict[int, tuple], nonzeros) -> dict:
    updates = {}

    def sweep_of(n):
        X, y, w0 = cases[n]

        def setup():
            eng = engine(X, y, w0=w0)
            flush_caches()
            float(eng.w.sum())  # w back in the caches: X is what streams from memory
            return eng

        def run(eng):
            updates[n] = eng.sweep(None, 1)

        return timed(run, setup=setup, cpu=True)

    seconds = interleave({n: sweep_of(n) for n in cases})
    probe = min(cases)  # PROBE_ROWS rows: the fixed cost of a sweep
    per_nnz = {
        n: (seconds[n] - seconds[probe]) / (nonzeros(cases[n][0]) - nonzeros(cases[probe][0]))
        for n in cases
        if n != probe
    }
    small, large = min(per_nnz), max(per_nnz)
    series = ", ".join(
        f"n={n:,}: {np.median(v) * 1e9:.3g} ns ({updates[n]:,} updates, {updates[n] / n:.2%})"
        for n, v in per_nnz.items()
    )
    fixed = (
        f"a {probe}-row sweep (the fixed cost, subtracted) {np.median(seconds[probe]) * 1e6:.0f} µs"
    )
    return result_row(
        f"growth, {label}: time per non-zero at n = {large:,} / at n = {small:,}",
        Stat.ratio(per_nnz[large], per_nnz[small]),
        at_most(1.3),
        f"one sweep from a near-final w (≈1 % of rows updating at every n), X out of the caches before "
        f"each; {fixed}; per non-zero: {series}; {l3_text()}",
    )


PROBE_ROWS = 100


def _sizes(scale: float, bytes_per_row: int) -> list[int]:
    sizes = [max(10 * PROBE_ROWS, int(n * scale)) for n in SIZES if n * bytes_per_row <= MAX_BYTES]
    return sorted({PROBE_ROWS, *sizes})


def bench_growth_dense(scale: float = 1.0):
    d = 20
    cases = {n: dense_case(n, d) for n in _sizes(scale, 8 * d)}
    return _series(f"dense d={d}", cases, lambda X: X.size)


def bench_growth_sparse(scale: float = 1.0):
    d, nnz = 2**18, 10
    cases = {n: sparse_case(n, d, nnz) for n in _sizes(scale, 12 * nnz + 8)}
    return _series(f"sparse ({nnz} non-zeros a row, 2^18 features)", cases, lambda X: X.nnz)
