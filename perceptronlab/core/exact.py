"""The Fraction engine: the reference semantics of the perceptron, computed without rounding.

Traces from this engine match hand computation cell for cell (the seeds' exam worksheet).
"""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np

from perceptronlab.core.run import Step


def exact_dot(w, x) -> Fraction:
    return sum((wj * xj for wj, xj in zip(w, x, strict=True)), Fraction(0))


class ExactEngine:
    """The perceptron rule on rows of Fractions."""

    def __init__(self, X, y, *, eta, margin, fit_intercept, record_steps=False):
        self.X = X
        self.y = [int(v) for v in y]
        self.n, self.d = len(X), len(X[0])
        self.eta, self.margin, self.fit_intercept = Fraction(eta), Fraction(margin), fit_intercept
        self.w = [Fraction(0)] * self.d
        self.b = Fraction(0)
        self.indices: list[int] = []
        self.norms: list[float] = []
        self.steps: list[Step] | None = [] if record_steps else None

    def score(self, i: int) -> Fraction:
        return self.y[i] * (exact_dot(self.w, self.X[i]) + self.b)

    def margins(self) -> np.ndarray:
        return np.array([self.score(i) for i in range(self.n)], dtype=object)

    def update(self, i: int, sweep: int, score: Fraction) -> None:
        c = self.eta * self.y[i]
        self.w = [wj + c * xj for wj, xj in zip(self.w, self.X[i], strict=True)]
        if self.fit_intercept:
            self.b += c
        self.indices.append(i)
        self.norms.append(math.sqrt(exact_dot(self.w, self.w) + self.b * self.b))
        self._record(sweep, i, score, True)

    def _record(self, sweep, i, score, mistake):
        if self.steps is not None:
            self.steps.append(Step(sweep, int(i), tuple(self.X[i]), self.y[i], score, mistake,
                                   tuple(self.w), self.b))

    def sweep(self, order, sweep: int) -> int:
        before = len(self.indices)
        for i in (range(self.n) if order is None else order):
            score = self.score(int(i))
            if score <= self.margin:
                self.update(int(i), sweep, score)
            else:
                self._record(sweep, int(i), score, False)
        return len(self.indices) - before

    def key(self) -> tuple:
        return (*self.w, self.b)

    def snapshot(self):
        return np.array(self.w, dtype=object), self.b

    def restore(self, w, b) -> None:
        self.w, self.b = list(w), b

    def finite(self) -> bool:
        return True
