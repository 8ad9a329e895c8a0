"""The Fraction engine: the reference semantics of the perceptron, computed without rounding.

Traces from this engine match hand computation cell for cell (the seeds' exam worksheet). The
mistake test and the update are written here once for exact arithmetic (:func:`exact_score`,
:func:`exact_update`); the worksheet checker replays students' steps with the same two functions.
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np

from perceptronlab._ground.numbers import sqrt_float
from perceptronlab.core.reference import StepwiseEngine
from perceptronlab.core.scores import exact_dot

__all__ = ["ExactEngine", "exact_score", "exact_update"]


def exact_score(w, b, x, y: int) -> Fraction:
    """y(⟨w, x⟩ + b): the example is a mistake when this is ≤ ρ₀ (ties count)."""
    return y * (exact_dot(w, x) + b)


def exact_update(w, b, x, y: int, eta: Fraction, fit_intercept: bool) -> tuple[list[Fraction], Fraction]:
    """The rule's update: (w + η·y·x, b + η·y), the intercept only with ``fit_intercept``."""
    c = eta * y
    return [wj + c * xj for wj, xj in zip(w, x, strict=True)], (b + c if fit_intercept else b)


class ExactEngine(StepwiseEngine):
    """The perceptron rule on rows of Fractions."""

    exact = True
    _score_dtype = object

    def __init__(self, X, y, *, eta, margin, fit_intercept, record_steps=False):
        self._start(X, [int(v) for v in y], eta=Fraction(eta), margin=Fraction(margin), fit_intercept=fit_intercept,
                    record_steps=record_steps)
        self.n, self.d = len(X), len(X[0])
        self.w = [Fraction(0)] * self.d
        self.b = Fraction(0)

    def score(self, i: int) -> Fraction:
        return exact_score(self.w, self.b, self.X[i], self.y[i])

    def _step(self, i: int) -> None:
        self.w, self.b = exact_update(self.w, self.b, self.X[i], self.y[i], self.eta, self.fit_intercept)

    def _norm(self) -> float:
        return sqrt_float(exact_dot(self.w, self.w) + self.b * self.b)

    def _step_view(self, i: int) -> tuple[tuple, tuple]:
        return tuple(self.X[i]), tuple(self.w)

    def key(self) -> tuple:
        return (*self.w, self.b)

    def snapshot(self):
        return np.array(self.w, dtype=object), self.b

    def restore(self, w, b) -> None:
        self.w, self.b = list(w), b

    def finite(self) -> bool:
        return True
