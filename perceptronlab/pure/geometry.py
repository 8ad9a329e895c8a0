"""The lab's geometry in Fractions: R², the best margin through the origin, Gordan's certificate,
Novikoff's bound.

With zᵢ = yᵢxᵢ (yᵢ(1, xᵢ) with the bias trick), the best margin of a line (plane) through the
origin is the distance from the origin to the convex hull of the zᵢ, reached at its nearest point
p: ρ*² = ‖p‖², w* = p/‖p‖, and the support vectors are the zᵢ with ⟨p, zᵢ⟩ = ‖p‖². When the hull
holds the origin, its weights λ ≥ 0, Σλᵢ = 1, Σλᵢzᵢ = 0 are Gordan's certificate that no line
(plane) puts every point strictly on its side. :func:`nearest_point` finds p by Wolfe's algorithm
(1976) in exact arithmetic, which ends after finitely many steps with the exact optimum, checked.

>>> from fractions import Fraction as F
>>> found = separation([[F(1), F(0)], [F(1), F(1)], [F(0), F(1)]], [1, -1, -1])
>>> found.separable, [str(c) for c in found.p], str(found.rho_squared), found.support
(True, ['1/5', '-2/5'], '1/5', [0, 1])
>>> xor = separation([[F(0), F(0)], [F(1), F(1)], [F(0), F(1)], [F(1), F(0)]], [1, 1, -1, -1], True)
>>> xor.separable, {i: str(a) for i, a in xor.certificate.items()}
(False, {0: '1/4', 1: '1/4', 2: '1/4', 3: '1/4'})
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction

from perceptronlab.pure.rule import exact_dot

#: Wolfe's algorithm ends after finitely many steps; this many is far beyond any lab's question and
#: only guards against a bug turning into a hang.
MAX_STEPS = 100_000


def solve_exact(A: list[list[Fraction]], b: list[Fraction]) -> list[Fraction] | None:
    """The unique solution of A x = b in Fractions, or None when there is none or it is not unique.

    Gauss–Jordan elimination; ``A`` may have more rows than columns (the system must then be
    consistent).
    """
    rows = len(A)
    cols = len(A[0]) if rows else 0
    M = [
        [Fraction(entry) for entry in A[i]] + [Fraction(b[i])] for i in range(rows)
    ]  # no float creeps in
    pivot_row = 0
    for col in range(cols):
        pick = next((r for r in range(pivot_row, rows) if M[r][col] != 0), None)
        if pick is None:
            return None
        M[pivot_row], M[pick] = M[pick], M[pivot_row]
        lead = M[pivot_row][col]
        M[pivot_row] = [entry / lead for entry in M[pivot_row]]
        for r in range(rows):
            if r != pivot_row and M[r][col] != 0:
                factor = M[r][col]
                M[r] = [a - factor * p for a, p in zip(M[r], M[pivot_row], strict=True)]
        pivot_row += 1
    if any(M[r][cols] != 0 for r in range(pivot_row, rows)):
        return None
    return [M[i][cols] for i in range(cols)]


def radius_squared(rows: list[list[Fraction]]) -> Fraction:
    """R² = the largest ‖x‖² (of the rows as given: lift them for the bias trick)."""
    return max(exact_dot(row, row) for row in rows)


def lifted(rows: list[list[Fraction]]) -> list[list[Fraction]]:
    """The bias trick: (1, x) for every row."""
    return [[Fraction(1), *row] for row in rows]


def novikoff_squared(
    r_squared: Fraction | float, rho_squared: Fraction | float
) -> Fraction | float:
    """Novikoff's mistake bound R²/ρ*² (Novikoff 1962)."""
    return r_squared / rho_squared


def margin_bound_squared(
    r_squared: Fraction | float, rho_squared: Fraction | float, rho0: Fraction | float
) -> Fraction | float:
    """The margin perceptron's bound (R² + 2ρ₀)/ρ*² (ρ₀ with step η = 1; ρ₀/η otherwise)."""
    return (r_squared + 2 * rho0) / rho_squared


def _combination(Z, S: list[int], weights: list[Fraction]) -> list[Fraction]:
    return [
        sum((a * Z[i][j] for a, i in zip(weights, S, strict=True)), Fraction(0))
        for j in range(len(Z[0]))
    ]


def _affine_minimizer(Z, S: list[int]) -> list[Fraction] | None:
    """The weights (summing to 1) of the point of least norm of the affine hull of Z[S]."""
    m = len(S)
    A = [[exact_dot(Z[i], Z[k]) for k in S] + [Fraction(-1)] for i in S]
    A.append([Fraction(1)] * m + [Fraction(0)])
    solution = solve_exact(A, [Fraction(0)] * m + [Fraction(1)])
    return None if solution is None else solution[:m]


def nearest_point(Z: list[list[Fraction]]) -> tuple[list[Fraction], dict[int, Fraction]]:
    """The point p of the convex hull of ``Z`` nearest to the origin, and its weights {i: λᵢ > 0}.

    Wolfe's algorithm: a corral S of affinely independent points and p = Σλᵢzᵢ (i ∈ S); while some
    z has ⟨p, z⟩ < ‖p‖², add it and move p towards the nearest point of the corral's affine hull,
    dropping points whose weight reaches 0. Exact arithmetic makes every test exact.
    """
    squares = [exact_dot(z, z) for z in Z]
    first = min(range(len(Z)), key=lambda i: (squares[i], i))
    S, lam = [first], [Fraction(1)]
    p = list(Z[first])
    for _ in range(MAX_STEPS):
        pp = exact_dot(p, p)
        if pp == 0:
            break
        values = [exact_dot(p, z) for z in Z]
        j = min(range(len(Z)), key=lambda i: (values[i], i))
        if values[j] >= pp or j in S:
            break
        S, lam = [*S, j], [*lam, Fraction(0)]
        while True:
            alpha = _affine_minimizer(Z, S)
            if alpha is None:  # not affinely independent: cannot happen in exact arithmetic
                raise ArithmeticError("nearest point: the corral lost its affine independence")
            if all(a > 0 for a in alpha):
                lam = alpha
                break
            theta = min(
                lk / (lk - ak) for lk, ak in zip(lam, alpha, strict=True) if ak <= 0 and lk > ak
            )
            lam = [theta * ak + (1 - theta) * lk for lk, ak in zip(lam, alpha, strict=True)]
            keep = [k for k, lk in enumerate(lam) if lk > 0]
            S, lam = [S[k] for k in keep], [lam[k] for k in keep]
        p = _combination(Z, S, lam)
    else:  # pragma: no cover - a guard, never reached
        raise ArithmeticError("nearest point: Wolfe's algorithm did not finish")
    return p, dict(sorted(zip(S, lam, strict=True)))


@dataclass
class Separation:
    """Whether a line (plane) through the origin of the rows as given separates, with the proof.

    ``separable``: ``p`` (the nearest point of the hull of the yᵢxᵢ, a separating direction with
    margin ρ* = √``rho_squared`` = ‖p‖) and ``support`` (the examples at that margin).
    Not separable: ``certificate`` {i: λᵢ} with λ ≥ 0, Σλᵢ = 1 and Σλᵢyᵢxᵢ = 0 (Gordan).
    """

    separable: bool
    p: list[Fraction]
    rho_squared: Fraction
    support: list[int] = field(default_factory=list)
    certificate: dict[int, Fraction] = field(default_factory=dict)


def separation(
    rows: list[list[Fraction]], signs: list[int], fit_intercept: bool = False
) -> Separation:
    """Separability and the best margin through the origin (of (1, x) with ``fit_intercept``)."""
    rows = lifted(rows) if fit_intercept else rows
    Z = [[s * c for c in row] for s, row in zip(signs, rows, strict=True)]
    p, weights = nearest_point(Z)
    pp = exact_dot(p, p)
    if pp == 0:
        return Separation(False, p, pp, certificate=weights)
    support = [i for i, z in enumerate(Z) if exact_dot(p, z) == pp]
    return Separation(True, p, pp, support=support)
