"""The perceptron's rule in exact arithmetic, and the lab's traced run in cyclic order.

The mistake test (:func:`exact_score` ≤ ρ₀, ties count) and the update (:func:`exact_update`) are
written here once; :class:`perceptronlab.core.exact.ExactEngine` and the worksheet checker use them,
and :func:`run_cyclic` is the lab's run (the core's driver in cyclic order, without NumPy), in
Fractions or, with ``exact=False``, in floats with the compiled kernels' order of operations
(:func:`float_score`, :func:`float_update`: the twins of :mod:`perceptronlab.core.reference`).

>>> from fractions import Fraction as F
>>> run = run_cyclic([[F(1), F(0)], [F(1), F(1)], [F(0), F(1)]], [1, -1, -1])
>>> run.summary()
'perceptron: 5 mistakes in 4 sweeps, converged; w = (1, -2)'
>>> run_cyclic([[1.0, 0.0], [1.0, 1.0], [0.0, 1.0]], [1, -1, -1], exact=False).w
[1.0, -2.0]
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from perceptronlab._ground.numbers import format_count, format_number, format_vector, sqrt_float


def exact_dot(w, x) -> Fraction:
    """⟨w, x⟩ in Fractions (no rounding, so the order does not matter)."""
    return sum((wj * xj for wj, xj in zip(w, x, strict=True)), Fraction(0))


def exact_score(w, b, x, y: int) -> Fraction:
    """y(⟨w, x⟩ + b): the example is a mistake when this is ≤ ρ₀ (ties count)."""
    return y * (exact_dot(w, x) + b)


def exact_update(
    w, b, x, y: int, eta: Fraction, fit_intercept: bool
) -> tuple[list[Fraction], Fraction]:
    """The rule's update: (w + η·y·x, b + η·y), the intercept only with ``fit_intercept``."""
    c = eta * y
    return [wj + c * xj for wj, xj in zip(w, x, strict=True)], (b + c if fit_intercept else b)


def float_dot(w, x) -> float:
    """⟨w, x⟩ summed left to right in floats (the kernels' order)."""
    total = 0.0
    for wj, xj in zip(w, x, strict=True):
        total += wj * xj
    return total


def float_score(w, b, x, y: int) -> float:
    """y(⟨w, x⟩ + b) in floats, ⟨w, x⟩ summed left to right."""
    return y * (float_dot(w, x) + b)


def float_update(w, b, x, y: int, eta: float, fit_intercept: bool) -> tuple[list[float], float]:
    """(w + x·(η·y), b + η·y) in floats, as the kernels' update."""
    c = eta * y
    return [wj + xj * c for wj, xj in zip(w, x, strict=True)], (b + c if fit_intercept else b)


@dataclass(frozen=True)
class ExactStep:
    """One checked example, as :class:`perceptronlab.core.run.Step`: the score before, w and b after."""

    sweep: int
    index: int
    x: tuple
    y: int
    score: Any
    mistake: bool
    w: tuple
    b: Any


@dataclass
class ExactRun:
    """The fields of :class:`perceptronlab.Run` that the lab reads, for a run of :func:`run_cyclic`."""

    w: list[Any]
    b: Any
    fit_intercept: bool
    mistakes: int = 0
    converged: bool = False
    cycled: bool = False
    steps: list[ExactStep] = field(default_factory=list)
    norms: list[float] = field(default_factory=list)
    errors_after_sweep: list[int] = field(default_factory=list)
    algorithm: str = "perceptron"
    exact: bool = True
    pocket_errors: Any = None
    pocket_history: Any = None

    @property
    def sweeps(self) -> int:
        return len(self.errors_after_sweep)

    def summary(self) -> str:
        """:meth:`perceptronlab.Run.summary`'s line."""
        state = (
            "converged"
            if self.converged
            else "cycled (never converges)"
            if self.cycled
            else "stopped at the sweep limit"
        )
        head = (
            f"{self.algorithm}: {format_count(self.mistakes, 'mistake')} in "
            f"{format_count(self.sweeps, 'sweep')}, {state}; w = {format_vector(self.w)}"
        )
        return head + (f", b = {format_number(self.b)}" if self.fit_intercept else "")


def count_errors(X, y, w, b, exact: bool = True) -> int:
    """Examples with y(⟨w,x⟩ + b) ≤ 0 (a tie is an error, as in the rule)."""
    score = exact_score if exact else float_score
    return sum(1 for xi, yi in zip(X, y, strict=True) if score(w, b, xi, yi) <= 0)


def run_cyclic(
    X: Any,
    y: list[int],
    *,
    eta=Fraction(1),
    margin=Fraction(0),
    fit_intercept: bool = False,
    max_sweeps: int = 100,
    exact: bool = True,
    trace: bool = True,
) -> ExactRun:
    """The perceptron (margin ρ₀, step η) in cyclic order from w = 0, every step traced.

    Stops after a clean sweep (converged), at ``max_sweeps``, or when the weights at the start of a
    sweep repeat (cycled: the run never converges), as :func:`perceptronlab.perceptron` with
    ``trace=True`` does. ``exact=False``: floats (η and ρ₀ as floats), the kernels' order.
    """
    zero: Any
    score_of: Callable[..., Any]
    update_of: Callable[..., Any]
    dot: Callable[..., Any]
    if exact:
        zero, score_of, update_of, dot = Fraction(0), exact_score, exact_update, exact_dot
    else:
        zero, score_of, update_of, dot = 0.0, float_score, float_update, float_dot
        eta, margin = float(eta), float(margin)
    w = [zero] * len(X[0])
    b = zero
    run = ExactRun(w, b, fit_intercept, exact=exact)
    seen: set[tuple] = set()
    sweep = 0
    updates = None
    while sweep < max_sweeps:
        sweep += 1
        key = (*w, b)
        if key in seen:
            run.cycled = True
            break
        seen.add(key)
        updates = 0
        for i, (xi, yi) in enumerate(zip(X, y, strict=True)):
            score = score_of(w, b, xi, yi)
            mistake = score <= margin
            if mistake:
                w, b = update_of(w, b, xi, yi, eta, fit_intercept)
                updates += 1
                run.norms.append(sqrt_float(dot(w, w) + b * b))
            if trace:
                run.steps.append(ExactStep(sweep, i, tuple(xi), yi, score, mistake, tuple(w), b))
        run.mistakes += updates
        run.errors_after_sweep.append(count_errors(X, y, w, b, exact))
        if updates == 0:
            break
    run.w, run.b = w, b
    run.converged = not run.cycled and updates == 0
    return run
