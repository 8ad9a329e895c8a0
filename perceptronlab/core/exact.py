"""The Fraction engine: the reference semantics of the perceptron, computed without rounding.

Traces from this engine match hand computation cell for cell (the lecture notes' exam worksheet). The
mistake test and the update are written once for exact arithmetic in
:mod:`perceptronlab.pure.rule` (:func:`exact_score`, :func:`exact_update`, the standard library
alone: the lab in the browser runs them too); the worksheet checker replays students' steps with the same two functions.

**A budget on the size of the numbers.** Exact weights can grow without bound: on noisy data with
17-digit fractions the denominators of w grow by a factor at every update, and each update then
costs more than the one before (minutes, gigabytes). The engine tracks the bits of the largest
numerator and denominator of (w, b) after every update and stops the run at
:func:`max_bits` (:data:`DEFAULT_MAX_BITS`, about 1,230 decimal digits; below Python's
4,300-digit limit of writing an int as text) with :class:`ExactBudgetError`, whose message names
the way to raise the budget (the environment variable :data:`BITS_VARIABLE`) or to compute in
floating point instead.

>>> import os
>>> from perceptronlab import perceptron
>>> os.environ[BITS_VARIABLE] = "64"
>>> perceptron([["1/1000003"], ["-1/1000033"], ["1/1000037"], ["-1/1000039"]], [1, 1, 1, 1], exact=True)
Traceback (most recent call last):
...
perceptronlab.core.exact.ExactBudgetError: exact run: expected numbers of at most 64 bits (numerator \
and denominator), got 80 bits after update 6 (sweep 2). Raise the budget with the environment \
variable PERCEPTRONLAB_EXACT_BITS (e.g. PERCEPTRONLAB_EXACT_BITS=128), or compute in floating point \
(without --exact, or exact=False).
>>> del os.environ[BITS_VARIABLE]
"""

from __future__ import annotations

import os
from fractions import Fraction

import numpy as np

from perceptronlab._ground.numbers import sqrt_float
from perceptronlab.core.reference import StepwiseEngine
from perceptronlab.exceptions import InputError
from perceptronlab.pure.rule import exact_dot, exact_score, exact_update  # the rule, written once

__all__ = [
    "BITS_VARIABLE",
    "DEFAULT_MAX_BITS",
    "ExactBudgetError",
    "ExactEngine",
    "max_bits",
]

#: the default budget: bits of the largest numerator or denominator of (w, b)
DEFAULT_MAX_BITS = 4096
#: the environment variable that sets another budget (a whole number of bits)
BITS_VARIABLE = "PERCEPTRONLAB_EXACT_BITS"
#: the largest budget the variable may set: Python writes ints of at most 4,300 digits as text
_CEILING_BITS = 14_000
#: most features of a traced exact run (each step keeps a copy of w: a worksheet of a million columns is
#: minutes of work and gigabytes of text), and most cells of any exact run
TRACE_MAX_FEATURES = 1_000
EXACT_MAX_CELLS = 2_000_000


class ExactBudgetError(InputError):
    """An exact run whose numbers outgrew the budget of :func:`max_bits`."""


def max_bits() -> int:
    """The budget: :data:`BITS_VARIABLE` when it is set to a whole number of bits, else
    :data:`DEFAULT_MAX_BITS`.

    Raises
    ------
    InputError
        The variable is set to something else than a whole number from 64 to 14,000.
    """
    text = os.environ.get(BITS_VARIABLE, "").strip()
    if not text:
        return DEFAULT_MAX_BITS
    if not text.isdigit() or len(text) > 6 or not 64 <= int(text) <= _CEILING_BITS:
        raise InputError(
            f"{BITS_VARIABLE}: expected a whole number of bits from 64 to {_CEILING_BITS:,}, got "
            f"{text[:40]!r}. Set e.g. {BITS_VARIABLE}={2 * DEFAULT_MAX_BITS}, or unset it."
        )
    return int(text)


class ExactEngine(StepwiseEngine):
    """The perceptron rule on rows of Fractions."""

    exact = True
    _score_dtype = object

    def __init__(self, X, y, *, eta, margin, fit_intercept, record_steps=False):
        self._start(
            X,
            [int(v) for v in y],
            eta=Fraction(eta),
            margin=Fraction(margin),
            fit_intercept=fit_intercept,
            record_steps=record_steps,
        )
        self.n, self.d = len(X), len(X[0])
        if self.n * self.d > EXACT_MAX_CELLS or (record_steps and self.d > TRACE_MAX_FEATURES):
            limit = (
                f"at most {TRACE_MAX_FEATURES:,} features for a traced run"
                if record_steps and self.d > TRACE_MAX_FEATURES
                else f"at most {EXACT_MAX_CELLS:,} cells (rows × features)"
            )
            raise ExactBudgetError(
                f"exact run: expected {limit}, got {self.n:,} rows × {self.d:,} features. "
                "Compute in floating point (train without --exact, or exact=False), or "
                "select fewer features."
            )
        self.w = [Fraction(0)] * self.d
        self.b = Fraction(0)
        self.max_bits = max_bits()
        self._updates = self._sweep_now = 0

    def score(self, i: int) -> Fraction:
        return exact_score(self.w, self.b, self.X[i], self.y[i])

    def _step(self, i: int) -> None:
        self.w, self.b = exact_update(
            self.w, self.b, self.X[i], self.y[i], self.eta, self.fit_intercept
        )
        self._updates += 1
        bits = max(
            max(v.numerator.bit_length(), v.denominator.bit_length()) for v in (*self.w, self.b)
        )
        if bits > self.max_bits:
            raise ExactBudgetError(
                f"exact run: expected numbers of at most {self.max_bits:,} bits (numerator and denominator), got "
                f"{bits:,} bits after update {self._updates:,} (sweep {self._sweep_now}). Raise the budget with "
                f"the environment variable {BITS_VARIABLE} "
                f"(e.g. {BITS_VARIABLE}={min(2 * self.max_bits, _CEILING_BITS)}), "
                "or compute in floating point (without --exact, or exact=False)."
            )

    def update(self, i: int, sweep: int, score) -> None:
        self._sweep_now = sweep  # for the budget's message
        super().update(i, sweep, score)

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
