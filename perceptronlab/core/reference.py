"""The pure-NumPy twin of the compiled kernels: same rule, same summation order, no compiler.

Tests hold every compiled path against this twin (identical weights on integer-valued data).
It also serves ``trace=True`` in float mode, where every step is recorded.
"""

from __future__ import annotations

import math

import numpy as np

from perceptronlab._validation import is_sparse
from perceptronlab.core.driver import SteppingEngine
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


class ReferenceEngine(SteppingEngine):
    """The perceptron rule in plain NumPy/Python, one example at a time."""

    exact = False
    overflowing = "weights"
    overflow_fix = SCALE_FIX

    def __init__(self, X, y, *, eta, margin, fit_intercept, record_steps=False):
        self.X = X.toarray() if is_sparse(X) else X
        self.y = y
        self.n, self.d = self.X.shape
        self.eta, self.margin, self.fit_intercept = float(eta), float(margin), fit_intercept
        self.w = np.zeros(self.d)
        self.b = 0.0
        self._indices: list[int] = []
        self._norms: list[float] = []
        self.steps: list[Step] | None = [] if record_steps else None

    @property
    def indices(self) -> np.ndarray:
        return np.asarray(self._indices, dtype=np.int64)

    @property
    def norms(self) -> np.ndarray:
        return np.asarray(self._norms, dtype=np.float64)

    def score(self, i: int) -> float:
        return self.y[i] * (ordered_dot(self.w, self.X[i]) + self.b)

    def margins(self) -> np.ndarray:
        return np.array([self.score(i) for i in range(self.n)])

    def update(self, i: int, sweep: int, score: float) -> None:
        c = self.eta * self.y[i]
        self.w = reference_update(self.w, self.X[i], c)
        if self.fit_intercept:
            self.b += c
        self._indices.append(i)
        self._norms.append(math.sqrt(float(self.w @ self.w) + self.b * self.b))
        self._record(sweep, i, score, True)

    def _record(self, sweep, i, score, mistake):
        if self.steps is not None:
            self.steps.append(Step(sweep, int(i), tuple(self.X[i].tolist()), int(self.y[i]), score,
                                   mistake, tuple(self.w.tolist()), self.b))

    def sweep(self, order, sweep: int) -> int:
        before = len(self._indices)
        for i in (range(self.n) if order is None else order):
            score = self.score(i)
            if score <= self.margin:
                self.update(i, sweep, score)
            else:
                self._record(sweep, i, score, False)
        return len(self._indices) - before

    def key(self) -> bytes:
        return self.w.tobytes() + np.float64(self.b).tobytes()

    def snapshot(self):
        return self.w.copy(), self.b

    def checkpoint(self):
        return self.snapshot()

    def errors(self, state=None) -> int:
        w, b = self.snapshot() if state is None else state
        return count_errors(self.X, self.y, w, b)

    def restore(self, w, b) -> None:
        self.w, self.b = w.copy(), b

    def finite(self) -> bool:
        return bool(np.isfinite(self.w).all() and math.isfinite(self.b))
