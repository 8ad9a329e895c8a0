"""Engines: one object per arithmetic (compiled, NumPy twin, exact) behind one small interface.

The driver in :mod:`perceptronlab.core.perceptron` owns the rule's control flow (orders, stopping,
cycles, pocket); an engine only knows how to sweep, score, update and snapshot.
"""

from __future__ import annotations

import hashlib
import math

import numpy as np

from perceptronlab._validation import is_sparse
from perceptronlab.core import kernels
from perceptronlab.core.exact import ExactEngine
from perceptronlab.core.interrupt import call_parallel
from perceptronlab.core.reference import ReferenceEngine

_NO_ORDER = np.empty(0, dtype=np.int64)

# The multi-core sweep scores blocks of rows in parallel and rescores the rest of a block after each
# update, so it pays off on long sweeps with few updates (late sweeps); early sweeps stay sequential.
PARALLEL_MIN_ROWS = 20_000
# Below this many entries of X a parallel pass costs more in thread start-up than it saves.
PARALLEL_MIN_ELEMENTS = 1_000_000
PARALLEL_MAX_UPDATE_RATE = 1 / 2048


def resolve_n_jobs(n_jobs: int | None) -> int:
    """None or -1: every core Numba may use; otherwise a positive count, capped at that."""
    import numba

    available = numba.config.NUMBA_NUM_THREADS
    if n_jobs is None or n_jobs == -1:
        return available
    return max(1, min(int(n_jobs), available))


def parallel_block(n_rows: int, last_updates: int) -> int:
    """Rows scored per parallel block: long when updates are rare, short when each costs a rescore."""
    return int(np.clip(n_rows // (last_updates + 1), 2048, 16_384))


class UpdateLog:
    """Every update an engine made: the example's index and ‖(w, b)‖ after it, in per-sweep chunks.

    A kernel writes a sweep's updates into ``_idx_buf`` / ``_norm_buf``; :meth:`_log` keeps them.
    """

    def _start_log(self, n: int) -> None:
        self._idx_buf = np.empty(n, dtype=np.int64)
        self._norm_buf = np.empty(n)
        self._index_chunks: list[np.ndarray] = []
        self._norm_chunks: list[np.ndarray] = []

    def _log(self, count: int) -> None:
        if count:
            self._index_chunks.append(self._idx_buf[:count].copy())
            self._norm_chunks.append(self._norm_buf[:count].copy())

    @property
    def indices(self) -> np.ndarray:
        return np.concatenate(self._index_chunks) if self._index_chunks else np.empty(0, dtype=np.int64)

    @property
    def norms(self) -> np.ndarray:
        return np.concatenate(self._norm_chunks) if self._norm_chunks else np.empty(0)


class CompiledEngine(UpdateLog):
    """The perceptron rule in compiled loops over dense float32/float64 or CSR input."""

    def __init__(self, X, y, *, eta, margin, fit_intercept, w0=None, b0=0.0, n_jobs=None):
        self.sparse = is_sparse(X)
        self.X = X if self.sparse else np.ascontiguousarray(X)
        self.y = np.ascontiguousarray(y, dtype=np.float64)
        self.n_jobs = resolve_n_jobs(n_jobs)
        self._last_updates: int | None = None
        self.n, self.d = X.shape
        self.eta, self.margin, self.fit_intercept = float(eta), float(margin), bool(fit_intercept)
        self.w = np.zeros(self.d) if w0 is None else np.array(w0, dtype=np.float64)
        self.b = float(b0)
        self._start_log(self.n)
        self._margins = np.empty(self.n)
        self.steps = None

    def sweep(self, order, sweep: int) -> int:
        use_order = order is not None
        order = _NO_ORDER if order is None else np.ascontiguousarray(order, dtype=np.int64)
        if self.sparse:
            X = self.X
            count, self.b, stopped = kernels.sweep_csr(X.indptr, X.indices, X.data, self.y, order, use_order,
                                                       self.w, self.b, self.eta, self.margin, self.fit_intercept,
                                                       self._idx_buf, self._norm_buf)
        elif self._use_parallel():
            block = parallel_block(self.n, self._last_updates)
            scores = np.empty(block)
            with _threads(self.n_jobs):
                count, self.b, stopped = kernels.sweep_dense_blocked(
                    self.X, self.y, order, use_order, self.w, self.b, self.eta, self.margin, self.fit_intercept,
                    self._idx_buf, self._norm_buf, block, scores)
        else:
            count, self.b, stopped = kernels.sweep_dense(self.X, self.y, order, use_order, self.w, self.b,
                                                         self.eta, self.margin, self.fit_intercept, self._idx_buf,
                                                         self._norm_buf)
        if stopped >= 0:
            raise_not_finite(self.X, int(stopped), sweep)
        self._last_updates = int(count)
        self._log(count)
        return int(count)

    def _use_parallel(self) -> bool:
        return (self.n_jobs > 1 and self.n >= PARALLEL_MIN_ROWS and self._last_updates is not None
                and self._last_updates <= self.n * PARALLEL_MAX_UPDATE_RATE)

    def margins(self) -> np.ndarray:
        if self.n_jobs == 1:
            values = margins(self.X, self.y, self.w, self.b, out=self._margins, parallel=False)
        else:
            with _threads(self.n_jobs):
                values = margins(self.X, self.y, self.w, self.b, out=self._margins)
        if not np.isfinite(values).all():
            raise_not_finite(self.X, int(np.flatnonzero(~np.isfinite(values))[0]), None)
        return values

    def update(self, i: int, sweep: int, score: float) -> None:
        c = self.eta * self.y[i]
        if self.sparse:
            X = self.X
            sq = kernels.add_row_csr(X.indptr, X.indices, X.data, i, self.w, c)
        else:
            sq = kernels.add_row_dense(self.X, i, self.w, c)
        if self.fit_intercept:
            self.b += c
            sq += self.b * self.b
        self._index_chunks.append(np.array([i], dtype=np.int64))
        self._norm_chunks.append(np.array([math.sqrt(sq)]))

    def key(self) -> bytes:
        digest = hashlib.blake2b(self.w.tobytes(), digest_size=32)
        digest.update(np.float64(self.b).tobytes())
        return digest.digest()

    def snapshot(self):
        return self.w.copy(), self.b

    def restore(self, w, b) -> None:
        self.w[:] = w
        self.b = float(b)

    def finite(self) -> bool:
        return bool(np.isfinite(self.w).all() and math.isfinite(self.b))


def raise_not_finite(X, row: int, sweep: int | None):
    """A score was NaN or inf at ``row``: bad input (say which cell) or weights that overflowed."""
    from perceptronlab._validation import fail
    from perceptronlab.exceptions import WeightOverflowError

    if is_sparse(X):
        start, stop = X.indptr[row], X.indptr[row + 1]
        values, columns = X.data[start:stop], X.indices[start:stop]
    else:
        values, columns = X[row], np.arange(X.shape[1])
    bad = np.flatnonzero(~np.isfinite(values))
    if bad.shape[0]:
        raise fail("X", "finite values", f"{values[bad[0]]} at row {row}, column {columns[bad[0]]}",
                   "Remove or impute the rows with NaN or inf.")
    when = f"during sweep {sweep}" if sweep is not None else "during training"
    raise WeightOverflowError(
        f"The weights overflowed {when}: expected finite weights, got inf or NaN. "
        "Scale the data (e.g. sklearn.preprocessing.StandardScaler or MaxAbsScaler) or lower eta.")


class _threads:
    """Run Numba's parallel kernels on ``n`` threads inside the block."""

    def __init__(self, n: int):
        self.n = n

    def __enter__(self):
        import numba

        self.before = numba.get_num_threads()
        numba.set_num_threads(self.n)

    def __exit__(self, *exc):
        import numba

        numba.set_num_threads(self.before)


def margins(X, y, w, b, out=None, parallel: bool = True) -> np.ndarray:
    """y_i (⟨w, x_i⟩ + b) for every row, with the kernels' summation order."""
    if isinstance(X, list):
        from perceptronlab.core.exact import exact_dot

        return np.array([int(yi) * (exact_dot(w, xi) + b) for xi, yi in zip(X, y, strict=True)], dtype=object)
    out = np.empty(X.shape[0]) if out is None else out
    w = np.ascontiguousarray(w, dtype=np.float64)
    y = np.ascontiguousarray(y, dtype=np.float64)
    if is_sparse(X):
        return kernels.margins_csr(X.indptr, X.indices, X.data, y, w, float(b), out)
    if parallel and X.size >= PARALLEL_MIN_ELEMENTS:
        return call_parallel(kernels.margins_dense_parallel, X, y, w, float(b), out)
    return kernels.margins_dense(X, y, w, float(b), out)


def count_errors(X, y, w, b) -> int:
    """Training errors of (w, b): examples with y(⟨w,x⟩ + b) ≤ 0 (a tie is an error, as in the rule)."""
    return int(np.count_nonzero(margins(X, y, w, b) <= 0))


def make_engine(X, y, *, exact, eta, margin, fit_intercept, trace, backend="compiled", n_jobs=None):
    """Pick the engine: exact → Fractions; trace in float mode → the NumPy twin; else compiled."""
    if exact:
        return ExactEngine(X, y, eta=eta, margin=margin, fit_intercept=fit_intercept, record_steps=trace)
    if trace or backend == "reference":
        return ReferenceEngine(X, y, eta=eta, margin=margin, fit_intercept=fit_intercept, record_steps=trace)
    return CompiledEngine(X, y, eta=eta, margin=margin, fit_intercept=fit_intercept, n_jobs=n_jobs)
