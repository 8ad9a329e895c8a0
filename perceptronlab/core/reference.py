"""The pure-NumPy twin of the compiled kernels: same rule, same summation order, no compiler.

Tests hold every compiled path against this twin (identical weights on integer-valued data).
It also serves ``trace=True`` in float mode, where every step is recorded.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any

import numpy as np

from perceptronlab._ground.validation import is_sparse
from perceptronlab.core.driver import SteppingEngine, UpdateLog
from perceptronlab.core.run import Step
from perceptronlab.core.scores import count_errors
from perceptronlab.exceptions import SCALE_FIX


def ordered_dot(w: np.ndarray, x: np.ndarray) -> float:
    """⟨w, x⟩ summed left to right in float64, the order the kernels and scikit-learn use."""
    total = 0.0
    for wj, xj in zip(w.tolist(), x.astype(np.float64).tolist(), strict=True):
        total += wj * xj
    return total


def reference_update(w: np.ndarray, x: np.ndarray, c: float) -> np.ndarray:
    """w + x·c, each entry w_j + x_j·c in float64, the kernels' update."""
    return w + x.astype(np.float64) * c


class StepwiseEngine(UpdateLog, SteppingEngine):
    """The rule one example at a time in Python: the sweep, its mistake test, the update log and the
    trace, written once for the exact and the NumPy engines, which differ only in their arithmetic
    (:meth:`score`, :meth:`_step`, :meth:`_norm`, and how a step is recorded)."""

    exact = False
    overflowing = "weights"
    overflow_fix = SCALE_FIX
    _score_dtype: type = np.float64
    if TYPE_CHECKING:  # each engine's arithmetic (the exact and the NumPy engine define them)
        b: Any

        def score(self, i: int) -> Any: ...

        def _step(self, i: int) -> None: ...

        def _norm(self) -> float: ...

        def _step_view(self, i: int) -> tuple[tuple[Any, ...], tuple[Any, ...]]: ...

    def _start(self, X, y, *, eta, margin, fit_intercept, record_steps) -> None:
        self.X, self.y = X, y
        self.eta, self.margin, self.fit_intercept = eta, margin, fit_intercept
        self.start_log(len(y))
        self.steps: list[Step] | None = [] if record_steps else None

    def margins(self) -> np.ndarray:
        return np.array([self.score(i) for i in range(self.n)], dtype=self._score_dtype)

    def update(self, i: int, sweep: int, score) -> None:
        self._step(i)
        self.log_update(i, self._norm())
        self._record(sweep, i, score, True)

    def _record(self, sweep, i, score, mistake):
        if self.steps is not None:
            x, w = self._step_view(i)
            self.steps.append(Step(sweep, int(i), x, int(self.y[i]), score, mistake, w, self.b))

    def sweep(self, order, sweep: int) -> int:
        """Check every example once; a mistake updates unless its step is 0 (a zero weight).

        Keeps :attr:`sweep_loss`, Σ (margin − y(⟨w,x⟩ + b)) over the mistakes, in check order (the
        hinge loss of the sweep, as the weighted kernels sum it).
        """
        before = self.n_updates
        loss = 0
        for i in range(self.n) if order is None else order:
            i = int(i)
            score = self.score(i)
            if score <= self.margin:
                loss += self.margin - score
                if self._updates_on(i):
                    self.update(i, sweep, score)
                    continue
            self._record(sweep, i, score, False)
        self.sweep_loss = loss
        return self.n_updates - before

    def walk(
        self, picks, start: int, run: int, target: int, updates_left: int, sweep: int
    ) -> tuple[int, int, int, bool]:
        """The ratchet's walk (the twin of :func:`perceptronlab.core.ratchet.walk`): check
        ``picks[start:]`` in turn, a mistake updating and setting the run to 0, a correct pick growing
        it; stop when the run reaches ``target``, after ``updates_left`` updates, or at the end.
        Returns (position, run, updates, reached)."""
        count = 0
        t = start
        while t < len(picks):
            i = int(picks[t])
            t += 1
            score = self.score(i)
            if score <= self.margin:
                self.update(i, sweep, score)
                count += 1
                run = 0
                if count == updates_left:
                    return t, run, count, False
            else:
                self._record(sweep, i, score, False)
                run += 1
                if run == target:
                    return t, run, count, True
        return t, run, count, False

    def errors_up_to(self, limit: int) -> int:
        """Training errors of the weights now (y(⟨w,x⟩ + b) ≤ 0), counted in data order until
        ``limit`` are found: the count if below ``limit``, else ``limit``."""
        count = 0
        for i in range(self.n):
            if self.score(i) <= 0:
                count += 1
                if count >= limit:
                    return limit
        return count

    def _updates_on(self, i: int) -> bool:
        """Whether a mistake on example i changes the weights (its step is not 0)."""
        return True

    def checkpoint(self):
        return self.snapshot()

    def errors(self, state=None) -> int:
        w, b = self.snapshot() if state is None else state
        return count_errors(self.X, self.y, w, b)


class ReferenceEngine(StepwiseEngine):
    """The perceptron rule in plain NumPy/Python, one example at a time.

    ``scale`` (per-row update scales: sample weight times class weight) and ``w0``/``b0`` (start
    weights) are the twins of :class:`~perceptronlab.core.engines.CompiledEngine`'s (with a ``scale``): a mistake on
    row i updates by (η·y_i)·scale_i, and not at all when that is 0.
    """

    def __init__(
        self, X, y, *, eta, margin, fit_intercept, record_steps=False, scale=None, w0=None, b0=0.0
    ):
        X = X.toarray() if is_sparse(X) else X
        self._start(
            X,
            y,
            eta=float(eta),
            margin=float(margin),
            fit_intercept=fit_intercept,
            record_steps=record_steps,
        )
        self.n, self.d = X.shape
        self.w = np.zeros(self.d) if w0 is None else np.array(w0, dtype=np.float64)
        self.b = float(b0)
        self.scale = None if scale is None else np.asarray(scale, dtype=np.float64)

    def score(self, i: int) -> float:
        return self.y[i] * (ordered_dot(self.w, self.X[i]) + self.b)

    def _c(self, i: int) -> float:
        c = self.eta * self.y[i]
        return c if self.scale is None else c * self.scale[i]

    def _updates_on(self, i: int) -> bool:
        return self.scale is None or self._c(i) != 0.0

    def margins(self) -> np.ndarray:
        """y(⟨w,x⟩ + b) of every row; +inf for rows never updated on (a zero scale), as the twin's."""
        values = super().margins()
        if self.scale is not None:
            values[[not self._updates_on(i) for i in range(self.n)]] = np.inf
        return values

    def _step(self, i: int) -> None:
        c = self._c(i)
        self.w = reference_update(self.w, self.X[i], c)
        if self.fit_intercept:
            self.b += c

    def _norm(self) -> float:
        return math.sqrt(float(self.w @ self.w) + self.b * self.b)

    def _step_view(self, i: int) -> tuple[tuple, tuple]:
        return tuple(self.X[i].tolist()), tuple(self.w.tolist())

    def key(self) -> bytes:
        return self.w.tobytes() + np.float64(self.b).tobytes()

    def snapshot(self):
        return self.w.copy(), self.b

    def restore(self, w, b) -> None:
        self.w, self.b = w.copy(), b

    def finite(self) -> bool:
        return bool(np.isfinite(self.w).all() and math.isfinite(self.b))
