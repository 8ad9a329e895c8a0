"""The Fraction engine: the reference semantics of the perceptron, computed without rounding.

Traces from this engine match hand computation cell for cell (the seeds' exam worksheet). The
mistake test and the update are written here once for exact arithmetic (:func:`exact_score`,
:func:`exact_update`); the worksheet checker replays students' steps with the same two functions.
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np

from perceptronlab._numbers import sqrt_float
from perceptronlab.core.driver import SteppingEngine
from perceptronlab.core.run import Step
from perceptronlab.core.scores import count_errors, exact_dot
from perceptronlab.exceptions import SCALE_FIX

__all__ = ["ExactEngine", "exact_score", "exact_update"]


def exact_score(w, b, x, y: int) -> Fraction:
    """y(⟨w, x⟩ + b): the example is a mistake when this is ≤ ρ₀ (ties count)."""
    return y * (exact_dot(w, x) + b)


def exact_update(w, b, x, y: int, eta: Fraction, fit_intercept: bool) -> tuple[list[Fraction], Fraction]:
    """The rule's update: (w + η·y·x, b + η·y), the intercept only with ``fit_intercept``."""
    c = eta * y
    return [wj + c * xj for wj, xj in zip(w, x, strict=True)], (b + c if fit_intercept else b)


class ExactEngine(SteppingEngine):
    """The perceptron rule on rows of Fractions."""

    exact = True
    overflowing = "weights"
    overflow_fix = SCALE_FIX

    def __init__(self, X, y, *, eta, margin, fit_intercept, record_steps=False):
        self.X = X
        self.y = [int(v) for v in y]
        self.n, self.d = len(X), len(X[0])
        self.eta, self.margin, self.fit_intercept = Fraction(eta), Fraction(margin), fit_intercept
        self.w = [Fraction(0)] * self.d
        self.b = Fraction(0)
        self._indices: list[int] = []
        self._norms: list[float] = []
        self.steps: list[Step] | None = [] if record_steps else None

    @property
    def indices(self) -> np.ndarray:
        return np.asarray(self._indices, dtype=np.int64)

    @property
    def norms(self) -> np.ndarray:
        return np.asarray(self._norms, dtype=np.float64)

    def score(self, i: int) -> Fraction:
        return exact_score(self.w, self.b, self.X[i], self.y[i])

    def margins(self) -> np.ndarray:
        return np.array([self.score(i) for i in range(self.n)], dtype=object)

    def update(self, i: int, sweep: int, score: Fraction) -> None:
        self.w, self.b = exact_update(self.w, self.b, self.X[i], self.y[i], self.eta, self.fit_intercept)
        self._indices.append(i)
        self._norms.append(sqrt_float(exact_dot(self.w, self.w) + self.b * self.b))
        self._record(sweep, i, score, True)

    def _record(self, sweep, i, score, mistake):
        if self.steps is not None:
            self.steps.append(Step(sweep, int(i), tuple(self.X[i]), self.y[i], score, mistake,
                                   tuple(self.w), self.b))

    def sweep(self, order, sweep: int) -> int:
        before = len(self._indices)
        for i in (range(self.n) if order is None else order):
            score = self.score(int(i))
            if score <= self.margin:
                self.update(int(i), sweep, score)
            else:
                self._record(sweep, int(i), score, False)
        return len(self._indices) - before

    def key(self) -> tuple:
        return (*self.w, self.b)

    def snapshot(self):
        return np.array(self.w, dtype=object), self.b

    def checkpoint(self):
        return self.snapshot()

    def errors(self, state=None) -> int:
        w, b = self.snapshot() if state is None else state
        return count_errors(self.X, self.y, w, b)

    def restore(self, w, b) -> None:
        self.w, self.b = list(w), b

    def finite(self) -> bool:
        return True
