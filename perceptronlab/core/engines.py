"""Engines: one object per arithmetic (compiled, NumPy twin, exact) behind one interface.

The driver (:mod:`perceptronlab.core.driver`) owns the rule's control flow (orders, stopping,
cycles, pocket); an engine only knows how to sweep, score, update, replay and snapshot.
"""

from __future__ import annotations

import math
import time
from typing import Any

import numpy as np
import scipy.sparse as sp

from perceptronlab._ground.validation import is_sparse, not_finite_error
from perceptronlab.core import choice, kernels, ratchet, sgd
from perceptronlab.core.choice import parallel_block
from perceptronlab.core.driver import SteppingEngine, UpdateLog
from perceptronlab.core.exact import ExactEngine
from perceptronlab.core.reference import ReferenceEngine
from perceptronlab.core.scores import count_errors, margins
from perceptronlab.core.threads import numba_threads, resolve_n_jobs
from perceptronlab.exceptions import SCALE_FIX

__all__ = [
    "CompiledEngine",
    "make_engine",
    "weights_key",
    "PARALLEL_MIN_ROWS",
    "PARALLEL_MAX_UPDATE_RATE",
]

_NO_ORDER = np.empty(0, dtype=np.int64)
_NO_FACTORS = np.empty(0)
# placeholders for the kind of rows a kernel taking both is not given
_NO_ROWS = np.empty((0, 0))
_NO_CSR = sp.csr_matrix((0, 0))

# The multi-core sweep scores blocks of rows in parallel and rescores the rest of a block after each
# update, so it pays off on long sweeps with few updates (late sweeps); early sweeps stay sequential.
PARALLEL_MIN_ROWS = 20_000
PARALLEL_MAX_UPDATE_RATE = 1 / 2048
# A multi-core sweep must take less than this share of the last one-core sweep's time; after this many in a
# row that do not (the first one loads the threads, so one is forgiven), the fit stays on one core
PARALLEL_MIN_GAIN = 0.95
PARALLEL_GIVE_UP_AFTER = 2
# updates are replayed in blocks of this many rows
_REPLAY_BLOCK = 4096


def weights_key(w: np.ndarray, b: float) -> tuple[int, int]:
    """A 128-bit fingerprint of the bits of (w, b): the cycle proof's key.

    One compiled pass at memory speed (a cryptographic digest of a large w cost a tenth of a sparse
    sweep: blake2b took 1.6 ms for 2^18 weights).
    """
    return kernels.fingerprint(np.ascontiguousarray(w, dtype=np.float64), float(b))


class CompiledEngine(UpdateLog, SteppingEngine):
    """The perceptron rule in compiled loops over dense float32/float64 or CSR input.

    ``w0``/``b0`` start the weights elsewhere than 0 (streams, mixing, resumed runs).

    ``scale`` is a per-row factor of the step (scikit-learn's sample weight times class weight): a
    mistake on row i updates by c = (η·y_i)·scale_i, scikit-learn's order of the product, and a row
    whose c is 0 (a zero weight) is never updated on, so it never counts as a mistake. With a
    ``scale``, or with ``track_loss``, the sweeps are the row-by-row loops of
    :mod:`perceptronlab.core.sgd` (the same step of :mod:`perceptronlab.core.rule`; with every
    factor 1.0 they give the plain loops' bits), and each sweep keeps its hinge loss
    (:attr:`sweep_loss`, for ``tol``) and y(⟨w,x⟩ + b) before each of its updates
    (:attr:`update_margins`).
    """

    exact = False
    # False: late sweeps take the parallel path whatever this machine's measurement said (the
    # benchmarks time the path itself beside the choice)
    threads_by_choice = True
    overflowing = "weights"
    overflow_fix = SCALE_FIX

    def __init__(
        self,
        X: Any,
        y: Any,
        *,
        eta: Any,
        margin: Any,
        fit_intercept: bool,
        w0: Any = None,
        b0: Any = 0.0,
        n_jobs: int | None = None,
        scale: Any = None,
        track_loss: bool = False,
    ) -> None:
        self.sparse = is_sparse(X)
        self.X: Any = X if self.sparse else np.ascontiguousarray(X)
        # the CSR loop suits the matrix, not the sweep: chosen once
        self._csr_loop = choice.csr_loop(X.indptr, X.indices, X.shape[1]) if self.sparse else False
        # and the dense sweep (measured on this CPU where X is larger than the L3): chosen once too
        self._dense_loop = None if self.sparse else choice.dense_sweep(self.X)
        self.y = np.ascontiguousarray(y, dtype=np.float64)
        self.n_jobs = resolve_n_jobs(n_jobs)
        self._last_updates: int | None = None
        self._row_sq: np.ndarray | None = (
            None  # ‖x_i‖² bounds for the multi-core sweep, made when first needed
        )
        self._one_core_seconds: float | None = None  # the last one-core sweep's time
        self._parallel_losses = 0  # multi-core sweeps in a row not faster than that
        self.n, self.d = X.shape
        self.eta, self.margin, self.fit_intercept = float(eta), float(margin), bool(fit_intercept)
        self.w = np.zeros(self.d) if w0 is None else np.array(w0, dtype=np.float64)
        self.b = float(b0)
        self.start_log(self.n)
        self._margins = np.empty(self.n)
        self._count_order: np.ndarray | None = None
        self.steps = None
        self.weighted = scale is not None or track_loss
        self.scale: np.ndarray | None = None
        if self.weighted:
            self.scale = (
                np.ones(self.n) if scale is None else np.ascontiguousarray(scale, dtype=np.float64)
            )
        # the weighted sweeps' factors: none to read when every one is 1.0
        self._factors = _NO_FACTORS if scale is None else self.scale
        self.sweep_loss = 0.0
        self._margin_buf = np.empty(self.n if self.weighted else 0)
        self.update_margins = self._margin_buf[:0]

    def _rule(self) -> tuple[np.ndarray, float, float, float, bool, np.ndarray, np.ndarray]:
        """The arguments every compiled loop takes after its rows: the weights, the rule's
        setting and the update log's buffers (w, b, η, ρ₀, fit_intercept, indices, norms)."""
        return (
            self.w,
            self.b,
            self.eta,
            self.margin,
            self.fit_intercept,
            self._idx_buf,
            self._norm_buf,
        )

    def _rows(self) -> tuple:
        """The rows as the compiled loops take them: X, or CSR's three arrays."""
        X = self.X
        return (X.indptr, X.indices, X.data) if self.sparse else (X,)

    def sweep(self, order, sweep: int) -> int:
        if order is None:
            use_order, order = False, _NO_ORDER
        else:
            use_order, order = True, np.ascontiguousarray(order, dtype=np.int64)
        if self.weighted:  # the per-row-factor loops, with the sweep's loss and update margins
            sweep_weighted = sgd.sweep_csr_weighted if self.sparse else sgd.sweep_dense_weighted
            count, self.b, stopped, loss = sweep_weighted(
                *self._rows(),
                self.y,
                self._factors,
                order,
                use_order,
                self._rule(),
                self._margin_buf,
            )
            self.sweep_loss = float(loss)
            self.update_margins = self._margin_buf[:count].copy()
        elif self.sparse:
            X = self.X
            count, self.b, stopped = kernels.sweep_csr(
                X.indptr, X.indices, X.data, self.y, order, use_order, self._rule(), self._csr_loop
            )
        elif not self._may_go_parallel:  # one core for every sweep: nothing to time
            count, self.b, stopped = kernels.sweep_dense_loop(
                self.X, self.y, order, use_order, self._rule(), self._dense_loop
            )
        else:
            count, self.b, stopped = self._sweep_dense_timed(order, use_order)
        if stopped >= 0:
            raise not_finite_error(self.X, int(stopped), sweep)
        self._last_updates = count
        self.log_sweep(count)
        return count

    def _sweep_dense_timed(self, order: np.ndarray, use_order: bool) -> tuple[int, float, int]:
        """A dense sweep of a long X with several cores allowed: on them where
        :meth:`_use_parallel` says so, else on one, timed for the next choice."""
        if self._use_parallel():
            updates = self._last_updates or 0  # not None here (_use_parallel)
            block = parallel_block(self.n, updates, choice.fork_rows())
            with numba_threads(self.n_jobs):
                if self._row_sq is None:  # the rows' norms bound the stale scores: once per fit
                    self._row_sq = kernels.row_squared_norms(self.X, np.empty(self.n))
                start = time.perf_counter()
                result = kernels.sweep_dense_blocked(
                    self.X,
                    self.y,
                    order,
                    use_order,
                    self._rule(),
                    block,
                    np.empty(block),
                    self._row_sq,
                )
                self._judge_parallel(time.perf_counter() - start)
            return result
        start = time.perf_counter()
        result = kernels.sweep_dense_loop(
            self.X, self.y, order, use_order, self._rule(), self._dense_loop
        )
        self._one_core_seconds = time.perf_counter() - start
        return result

    def walk(
        self, picks, start: int, run: int, target: int, updates_left: int, sweep: int
    ) -> tuple[int, int, int, bool]:
        picks = np.ascontiguousarray(picks, dtype=np.int64)
        X, csr = (_NO_ROWS, self.X) if self.sparse else (self.X, _NO_CSR)
        position, run, count, reached, self.b, stopped = ratchet.walk(
            X,
            csr.indptr,
            csr.indices,
            csr.data,
            self.sparse,
            self.y,
            picks,
            start,
            run,
            target,
            updates_left,
            self._rule(),
        )
        self.log_sweep(count)
        if stopped >= 0:
            raise not_finite_error(self.X, int(stopped), sweep)
        return int(position), int(run), int(count), bool(reached)

    def errors_up_to(self, limit: int) -> int:
        """Training errors of the weights now, counted until ``limit`` are found (then ``limit``).

        Rows are counted in the order of their margins under the weights of the last complete count
        (the pocket's, in the ratchet): its errors first, then the rows nearest its boundary. Weights
        that are not better get those rows wrong too, so a count that reaches ``limit`` stops early.
        """
        if self._count_order is None:
            self._count_order = np.arange(self.n, dtype=np.int64)
        margins = np.empty(self.n)
        if self.sparse:
            X = self.X
            count = ratchet.errors_up_to_csr(
                X.indptr,
                X.indices,
                X.data,
                self.y,
                self.w,
                self.b,
                limit,
                self._count_order,
                margins,
            )
        else:
            count = ratchet.errors_up_to_dense(
                self.X,
                self.y,
                self.w,
                self.b,
                limit,
                self._count_order,
                np.empty(ratchet.COUNT_BLOCK),
                margins,
            )
        if count < limit:
            self._count_order = np.argsort(margins, kind="stable")
        return int(count)

    def _use_parallel(self) -> bool:
        """A late sweep of a long X, on several cores where they were measured to pay on this
        machine (:func:`perceptronlab.core.choice.two_threads_pay`, asked last: it measures once)
        and have not been slower in this fit."""
        return (
            self._may_go_parallel
            and self._last_updates is not None
            and self._last_updates <= self.n * PARALLEL_MAX_UPDATE_RATE
            and self._parallel_losses < PARALLEL_GIVE_UP_AFTER
            and (not self.threads_by_choice or choice.two_threads_pay())
        )

    @property
    def _may_go_parallel(self) -> bool:
        """Whether any sweep of this fit may run on several cores (several allowed, X long
        enough); :meth:`_use_parallel` decides sweep by sweep."""
        return self.n_jobs > 1 and self.n >= PARALLEL_MIN_ROWS

    def _judge_parallel(self, seconds: float) -> None:
        """Count a multi-core sweep that was not faster than the last one-core sweep (the cores busy
        with other work, data in cache); after :data:`PARALLEL_GIVE_UP_AFTER` in a row this fit stays
        on one core. The bits are the same either way: only the speed is judged."""
        if self._one_core_seconds is None or seconds < PARALLEL_MIN_GAIN * self._one_core_seconds:
            self._parallel_losses = 0
        else:
            self._parallel_losses += 1

    def margins(self) -> np.ndarray:
        values = margins(self.X, self.y, self.w, self.b, out=self._margins, n_jobs=self.n_jobs)
        if not np.isfinite(values).all():
            raise not_finite_error(self.X, int(np.flatnonzero(~np.isfinite(values))[0]), None)
        if self.scale is not None:  # rows never updated on (a zero factor): +inf
            values[self.eta * self.y * self.scale == 0.0] = np.inf
        return values

    def update(self, i: int, sweep: int, score: float) -> None:
        c = self.eta * self.y[i]
        self._add(i, c if self.scale is None else c * self.scale[i])

    def _add(self, i: int, c: float) -> None:
        """w += x_i·c (b += c with an intercept), logged as an update."""
        if self.sparse:
            X = self.X
            sq = kernels.add_row_csr(X.indptr, X.indices, X.data, i, self.w, c)
        else:
            sq = kernels.add_row_dense(self.X, i, self.w, c)
        if self.fit_intercept:
            self.b += c
            sq += self.b * self.b
        self.log_update(i, math.sqrt(sq))

    def replay(
        self, indices: np.ndarray, keep: np.ndarray | None = None
    ) -> tuple[np.ndarray, np.ndarray]:
        """Apply the updates on the examples ``indices`` in order, with no mistake test and no log.

        Each is the kernels' update, w_k = w_{k−1} + x·(η y) entry by entry, so replaying a run's
        mistake indices from its start gives its weights bit for bit. Returns the iterates (w, b)
        after the updates where ``keep`` is True, as arrays (K, d) and (K,) (empty without ``keep``).
        """
        indices = np.asarray(indices, dtype=np.int64)
        kept = 0 if keep is None else int(np.count_nonzero(keep))
        vectors = np.empty((kept, self.d))
        intercepts = np.zeros(kept)
        row = 0
        for start in range(0, indices.shape[0], _REPLAY_BLOCK):
            idx = indices[start : start + _REPLAY_BLOCK]
            rows = self.X[idx]
            rows = rows.toarray() if sp.issparse(rows) else np.asarray(rows, dtype=np.float64)
            signed = self.eta * self.y[idx]
            path = np.cumsum(np.vstack([self.w[None, :], rows * signed[:, None]]), axis=0)[1:]
            b_path = (
                np.cumsum(np.concatenate([[self.b], signed]))[1:]
                if self.fit_intercept
                else np.full(idx.shape[0], self.b)
            )  # b + c₁ + c₂ + ... in order, as the kernels add
            if keep is not None:
                sel = keep[start : start + _REPLAY_BLOCK]
                count = int(sel.sum())
                vectors[row : row + count] = path[sel]
                intercepts[row : row + count] = b_path[sel]
                row += count
            self.w = path[-1].copy()
            self.b = float(b_path[-1])
        return vectors, intercepts

    def key(self) -> tuple[int, int]:
        return weights_key(self.w, self.b)

    def snapshot(self):
        return self.w.copy(), self.b

    def checkpoint(self):
        return self.snapshot()

    def errors(self, state=None) -> int:
        w, b = self.snapshot() if state is None else state
        return count_errors(self.X, self.y, w, b)

    def restore(self, w, b) -> None:
        self.w[:] = w
        self.b = float(b)

    def finite(self) -> bool:
        # a finite ‖w‖² proves every weight finite in one BLAS call; an infinite one may be finite
        # weights whose squares overflow, so then each weight is tested
        w = self.w
        return math.isfinite(self.b) and (math.isfinite(np.dot(w, w)) or bool(np.isfinite(w).all()))


def make_engine(
    X: Any,
    y: Any,
    *,
    exact: bool,
    eta: Any,
    margin: Any,
    fit_intercept: bool,
    trace: bool,
    backend: str = "compiled",
    n_jobs: int | None = None,
) -> SteppingEngine:
    """Pick the engine: exact → Fractions; trace in float mode → the NumPy twin; else compiled."""
    if exact:
        return ExactEngine(
            X, y, eta=eta, margin=margin, fit_intercept=fit_intercept, record_steps=trace
        )
    if trace or backend == "reference":
        return ReferenceEngine(
            X, y, eta=eta, margin=margin, fit_intercept=fit_intercept, record_steps=trace
        )
    return CompiledEngine(X, y, eta=eta, margin=margin, fit_intercept=fit_intercept, n_jobs=n_jobs)
