"""The exact quantities of the exam tasks' keys: ‖x‖², the scores y⟨w,x⟩, R², ρ², the bounds.

R², ρ² and the bounds come from the theory toolkit (:mod:`perceptronlab.theory`), exact on exact
input; the scores y_i⟨w,x_i⟩ from the engine's exact ``margins``. Only ‖w‖² of a single vector is
local. Beside them, the draws the tasks' rejection sampling starts from and a fast pre-check of
their runs.
"""

from __future__ import annotations

import random
from fractions import Fraction
from typing import cast

from perceptronlab.core.scores import margins as engine_margins


def norm2(x) -> Fraction:
    """‖x‖², exactly."""
    return sum((Fraction(c) * Fraction(c) for c in x), Fraction(0))


def scores(w, X, y) -> list[Fraction]:
    """y_i⟨w, x_i⟩ for every example, by the engine's exact ``margins``."""
    rows = [[Fraction(c) for c in x] for x in X]
    return list(engine_margins(rows, [int(s) for s in y], [Fraction(c) for c in w], Fraction(0)))


def radius2(X) -> Fraction:
    """R² = max_i ‖x_i‖² (“Perceptron Mistake Bound”), by :func:`perceptronlab.theory.geometry.radius_squared`."""
    from perceptronlab.theory.geometry import radius_squared

    return cast(
        Fraction, radius_squared([[Fraction(c) for c in x] for x in X])
    )  # exact rows: a Fraction


def margin2(w, X, y) -> Fraction:
    """ρ(w)² = (min_i y_i⟨w,x_i⟩)²/‖w‖² of a separating w, by ``theory.geometry.margin_squared``."""
    from perceptronlab.theory.geometry import margin_squared

    return cast(
        Fraction,
        margin_squared([Fraction(c) for c in w], [[Fraction(c) for c in x] for x in X], list(y)),
    )


def novikoff(R2: Fraction, rho2: Fraction) -> Fraction:
    """R²/ρ² (Novikoff 1962), by :func:`perceptronlab.bounds.novikoff`."""
    from perceptronlab.bounds import novikoff

    return cast(Fraction, novikoff(R2, rho2, squared=True))  # exact in, exact out


def test_error_bound(R2: Fraction, rho2: Fraction, n: int) -> Fraction:
    """R²/ρ²/(n+1) (“Perceptron Mistake Bound”, Theorem 2), by :func:`perceptronlab.bounds.test_error`."""
    from perceptronlab.bounds import test_error

    return cast(Fraction, test_error(R2, rho2, n, squared=True))  # exact in, exact out


def sample_size(R2: Fraction, rho2: Fraction, epsilon: Fraction) -> int:
    """The smallest n with R²/ρ²/(n+1) ≤ ε, by :func:`perceptronlab.bounds.sample_size`."""
    from perceptronlab.bounds import sample_size

    return sample_size(R2, rho2, epsilon, squared=True)


def draw_points(
    rng: random.Random, n: int, low: int = -2, high: int = 2
) -> tuple[list[tuple[int, int]], list[int]] | None:
    """One draw of n integer points in [low, high]² and their labels ±1 (the points first); None
    when a point repeats, one is the origin, or every label is the same (draw again)."""
    X = [(rng.randint(low, high), rng.randint(low, high)) for _ in range(n)]
    y = [rng.choice((-1, 1)) for _ in range(n)]
    if len(set(X)) < n or (0, 0) in X or len(set(y)) < 2:
        return None
    return X, y


def quick_run(X, y, max_sweeps: int) -> tuple[bool, int, int, list[Fraction]]:
    """The cyclic perceptron (w = 0, η = 1, no offset) on small integer points in plain integers:
    ``(converged, sweeps, mistakes, scores)``, every step's y⟨w,x⟩. Only a pre-check that lets a
    task's rejection sampling skip draws fast: the engine's exact run, which the key is built on,
    decides (:func:`perceptronlab.teach.kinds.trace.trace_draw` checks that the two agree)."""
    from perceptronlab.pure.rule import exact_score, exact_update

    w: list[Fraction] = [Fraction(0)] * len(X[0])
    scores: list[Fraction] = []
    mistakes = 0
    for sweep in range(1, max_sweeps + 1):
        updates = 0
        for x, label in zip(X, y, strict=True):
            score = exact_score(w, 0, x, label)
            scores.append(score)
            if score <= 0:
                w, _ = exact_update(w, Fraction(0), x, label, Fraction(1), False)
                updates += 1
        mistakes += updates
        if updates == 0:
            return True, sweep, mistakes, scores
    return False, max_sweeps, mistakes, scores
