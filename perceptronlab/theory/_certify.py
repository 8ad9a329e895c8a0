"""The best margin in rational arithmetic: ρ*² as a Fraction, with its optimality checked exactly.

The float optimum of :mod:`perceptronlab.theory._qp` names the support set; here the nearest point
of the hull(s) of the yᵢxᵢ is recomputed on it (or on sets near it) in Fractions and its optimality
certificate is checked on every example.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from perceptronlab.pure.geometry import separation
from perceptronlab.theory._common import exact_dot, solve_exact

if TYPE_CHECKING:
    from numpy.typing import NDArray

    from perceptronlab._ground.types import Float64Array


def _exact_certificate(
    rows: list[list[Fraction]], signs: Float64Array, candidates: list[int], fit_intercept: bool
) -> tuple[Fraction, list[Fraction]] | None:
    """ρ*² as a Fraction from the support set, with the optimality certificate checked exactly.

    p = Σ cᵢ zᵢ (zᵢ = yᵢxᵢ, c ≥ 0, c summing to 1 over each group) is the nearest point of the
    convex hull(s) to the origin when ⟨p, zₘ⟩ ≥ μ_g(m) for every example m; then ρ*² = ‖p‖²
    (‖p‖²/4 with an intercept: half the distance between the two hulls).
    """
    Z = [[int(s) * value for value in row] for s, row in zip(signs, rows, strict=True)]
    groups_all = [int(s) if fit_intercept else 0 for s in signs]
    S = list(candidates)
    labels = sorted({groups_all[i] for i in S})
    if fit_intercept and len(labels) < 2:
        return None
    m, k = len(S), len(labels)
    A: list[list[Any]] = [
        [exact_dot(Z[i], Z[j]) for j in S] + [-(1 if groups_all[i] == g else 0) for g in labels]
        for i in S
    ]
    A += [[Fraction(1 if groups_all[j] == g else 0) for j in S] + [Fraction(0)] * k for g in labels]
    rhs = [Fraction(0)] * m + [Fraction(1)] * k
    sol = solve_exact(A, rhs)
    if sol is None:
        return None
    c, mu = sol[:m], dict(zip(labels, sol[m:], strict=True))
    if any(value < 0 for value in c):
        return None
    d = len(Z[0])
    p = [sum((c[t] * Z[i][j] for t, i in enumerate(S)), Fraction(0)) for j in range(d)]
    p_sq = exact_dot(p, p)
    if p_sq <= 0:
        return None
    if any(exact_dot(p, Z[i]) < mu[groups_all[i]] for i in range(len(Z))):
        return None
    return (p_sq / 4 if fit_intercept else p_sq), p


def _exact_answers(
    rows: list[list[Fraction]],
    signs: Any,
    active: Any,
    near: Any,
    d: int,
    fit_intercept: bool,
) -> Iterator[tuple[Fraction, list[Fraction]] | None]:
    """(ρ*², p) candidates in exact arithmetic: without an intercept in at most 3 dimensions, the
    nearest point of the hull of the yᵢxᵢ (:func:`perceptronlab.pure.geometry.separation`, the
    lab's own); else the support sets near the float optimum, each checked exactly."""
    if not fit_intercept and d <= 3:
        found = separation(rows, [int(s) for s in signs])
        yield (found.rho_squared, found.p) if found.separable else None
        return
    for subset in _exact_candidate_sets(active, near, d + (1 if fit_intercept else 0)):
        yield _exact_certificate(rows, signs, [int(i) for i in subset], fit_intercept)


def _exact_candidate_sets(
    support: NDArray[Any], near: NDArray[Any] | list[Any], d: int
) -> Iterator[tuple[Any, ...]]:
    yield tuple(support)
    yield tuple(near)
    near = list(near)[:12]
    tried = 0
    for size in range(1, min(len(near), d) + 1):
        for subset in itertools.combinations(near, size):
            tried += 1
            if tried > 2000:
                return
            yield subset
