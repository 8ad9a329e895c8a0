r"""The mistake and generalization bounds of the perceptron, with their formulas and references.

Every bound is exact (a ``Fraction``) when its inputs are exact (ints, Fractions, Decimals) and a
float otherwise. Functions that take ``R`` and ``rho`` also accept their squares with
``squared=True`` (so an exact :math:`R^2 = 2`, :math:`\rho^2 = 1/5` gives exactly 10).

References
----------
Novikoff, A. B. J. (1962). On convergence proofs on perceptrons. Symposium on the Mathematical
Theory of Automata, 12, 615–622.
Freund, Y. and Schapire, R. E. (1999). Large margin classification using the perceptron
algorithm. Machine Learning, 37(3), 277–296.
Shalev-Shwartz, S. and Ben-David, S. (2014). Understanding Machine Learning, Theorem 9.1.
Mohri, M., Rostamizadeh, A. and Talwalkar, A. (2018). Foundations of Machine Learning, Sec. 8.3.
"""

from __future__ import annotations

import math
import numbers
from decimal import Decimal
from fractions import Fraction
from typing import TYPE_CHECKING, Any

import numpy as np

from perceptronlab._ground import validation as v
from perceptronlab._ground.numbers import parse_exact, sqrt_float
from perceptronlab.pure.geometry import margin_bound_squared, novikoff_squared
from perceptronlab.theory._common import float_matrix

if TYPE_CHECKING:
    from numpy.typing import ArrayLike

    from perceptronlab._ground.types import MatrixLike, RealLike

Number = Fraction | float

__all__ = [
    "novikoff",
    "novikoff_rb",
    "margin_perceptron",
    "slack",
    "freund_schapire",
    "best_freund_schapire",
    "test_error",
    "sample_size",
]


def _num(name: str, value: Any, *, positive: bool = True, fix: str = "") -> Number:
    """An exact number as a Fraction, anything else real as a float; checked finite and > 0 (or ≥ 0)."""
    if isinstance(value, bool) or not isinstance(value, numbers.Real | Decimal):
        raise v.fail(name, "a real number", repr(value), fix or f"Pass {name} as a number.")
    exact = isinstance(value, numbers.Rational | Decimal)
    number: Number = (
        parse_exact(value, name, fix=fix or "Fix the value.") if exact else float(value)
    )
    if not exact and not math.isfinite(number):
        raise v.fail(name, "a finite number", value, fix or f"Pass a finite {name}.")
    if positive and number <= 0:
        raise v.fail(name, "a number > 0", value, fix or f"Pass {name} > 0.")
    if not positive and number < 0:
        raise v.fail(name, "a number >= 0", value, fix or f"Pass {name} >= 0.")
    return number


def _rho(rho: Any, squared: bool) -> Number:
    name = "rho**2 (the squared margin)" if squared else "rho (the margin)"
    return _num(
        name,
        rho,
        fix="The bounds need a separating hyperplane with a positive margin; "
        "compute it with perceptronlab.max_margin(X, y), or check perceptronlab.separable(X, y).",
    )


def _radius(R: Any, squared: bool) -> Number:
    name = "R**2 (the squared radius)" if squared else "R (the radius)"
    return _num(
        name, R, fix="R is the largest norm of an example; compute it with perceptronlab.radius(X)."
    )


def _sq(value: Number, squared: bool) -> Number:
    return value if squared else value * value


def _exact_or_float(*values: Number) -> bool:
    return all(isinstance(value, Fraction) for value in values)


def novikoff(R: RealLike, rho: RealLike, *, squared: bool = False) -> Number:
    r"""Novikoff's mistake bound :math:`M \le R^2/\rho^2`.

    If every :math:`\lVert x_i\rVert \le R` and some :math:`w^*` separates the data with margin
    :math:`\rho > 0`, the perceptron (from w = 0, any order, any η > 0) makes at most
    :math:`R^2/\rho^2` mistakes (Novikoff 1962; the lecture notes “Perceptron Mistake Bound”, Theorem 1).

    Parameters
    ----------
    R, rho : the radius and the margin (their squares with ``squared=True``).

    Examples
    --------
    The exam task of the lecture notes “Perceptron Mistake Bound”: :math:`R^2 = 2`,
    :math:`\rho^2 = 1/5`, bound 10; margin task: 10/2 = 5.

    >>> novikoff(2, Fraction(1, 5), squared=True)
    Fraction(10, 1)
    >>> novikoff(10, 2, squared=True), novikoff(2, 0.5)
    (Fraction(5, 1), 16.0)
    """
    R2, rho2 = _sq(_radius(R, squared), squared), _sq(_rho(rho, squared), squared)
    return novikoff_squared(R2, rho2)


def novikoff_rb(R: RealLike, B: RealLike) -> Number:
    r"""The mistake bound in “Perceptron Algorithm for Halfspaces”'s form :math:`(RB)^2`.

    :math:`B = \min\{\lVert w\rVert : y_i\langle w, x_i\rangle \ge 1\ \forall i\} = 1/\rho^*`, so
    :math:`(RB)^2 = R^2/\rho^{*2}` (Shalev-Shwartz and Ben-David 2014, Theorem 9.1).

    Examples
    --------
    >>> novikoff_rb(2, 3)
    Fraction(36, 1)
    """
    R_ = _radius(R, False)
    B_ = _num(
        "B (the norm of the smallest w with y<w,x> >= 1)",
        B,
        fix="B = 1/rho*; take it from perceptronlab.max_margin(X, y).B.",
    )
    return (R_ * B_) ** 2


def margin_perceptron(
    R: RealLike, rho: RealLike, rho0: RealLike, *, squared: bool = False
) -> Number:
    r"""Mistake bound of the margin perceptron: :math:`M \le (R^2 + 2\rho_0)/\rho^2`.

    The margin perceptron updates while :math:`y_i\langle w, x_i\rangle \le \rho_0`; on a mistake
    :math:`\lVert w\rVert^2` grows by at most :math:`R^2 + 2\rho_0` (“Perceptron Mistake Bound”, Sheet 4, Exercise 1;
    Krauth and Mézard 1987 for the general idea). ``rho0 = 0`` is Novikoff's bound.

    Examples
    --------
    >>> margin_perceptron(2, Fraction(1, 5), 1, squared=True)
    Fraction(20, 1)
    """
    R2, rho2 = _sq(_radius(R, squared), squared), _sq(_rho(rho, squared), squared)
    r0 = _num(
        "rho0 (the update margin)",
        rho0,
        positive=False,
        fix="Pass rho0 >= 0 (0: the plain perceptron).",
    )
    return margin_bound_squared(R2, rho2, r0)


def slack(w: ArrayLike, X: MatrixLike, y: ArrayLike, rho: RealLike, b: float = 0.0) -> float:
    r"""The total slack :math:`D` of Freund and Schapire for a hyperplane and a target margin.

    .. math:: \delta_i = \max\{0, \rho - y_i(\langle w, x_i\rangle + b)\},\qquad
              D = \Big(\sum_i \delta_i^2\Big)^{1/2}

    with ``w`` (and ``b``) scaled to :math:`\lVert w\rVert = 1` (Freund and Schapire 1999; the
    lecture notes “Perceptron Mistake Bound”,
    "Outlook"). :math:`D = 0` exactly when ``w`` separates with margin at least ρ.

    Examples
    --------
    >>> slack([1, 0], [[2, 0], [0.5, 1], [-1, 0]], [1, 1, -1], rho=1)
    0.5
    """
    from perceptronlab.theory.geometry import _check_b, _check_w

    rho_ = float(_rho(rho, False))
    Xf = float_matrix(X)
    signs, _ = v.check_labels(y, Xf.shape[0])
    w_arr = _check_w(w, Xf.shape[1])
    scores = signs * (Xf @ w_arr + _check_b(b)) / np.linalg.norm(w_arr)
    deficits = np.maximum(0.0, rho_ - scores)
    return float(np.sqrt(np.dot(deficits, deficits)))


def freund_schapire(R: RealLike, D: RealLike, rho: RealLike) -> Number:
    r"""The Freund–Schapire mistake bound for non-separable data: :math:`M \le (R + D)^2/\rho^2`.

    For any unit ``w`` and any :math:`\rho > 0`, the perceptron makes at most
    :math:`(R + D)^2/\rho^2` mistakes on one pass over the sequence, where :math:`D` is the total
    slack of ``w`` at margin ρ (:func:`slack`). With :math:`D = 0` this is Novikoff's bound
    (Freund and Schapire 1999, Theorem 2; Mohri et al. 2018, Theorem 8.8).

    Examples
    --------
    >>> freund_schapire(1, 1, Fraction(1, 2))
    Fraction(16, 1)
    """
    R_ = _radius(R, False)
    D_ = _num(
        "D (the total slack)",
        D,
        positive=False,
        fix="D >= 0; compute it with perceptronlab.bounds.slack.",
    )
    return (R_ + D_) ** 2 / _rho(rho, False) ** 2


def best_freund_schapire(
    w: ArrayLike, X: MatrixLike, y: ArrayLike, R: RealLike | None = None, b: float = 0.0
) -> tuple[float, float]:
    r"""The best Freund–Schapire bound :math:`\min_{\rho > 0} (R + D(\rho))^2/\rho^2` for a given ``w``.

    :math:`D(\rho)` is the slack of ``w`` at margin ρ (:func:`slack`). With the signed distances
    :math:`m_i` sorted, :math:`D(\rho)^2 = k\rho^2 - 2s_1\rho + s_2` between consecutive
    :math:`m_i` (k, :math:`s_1`, :math:`s_2`: count, sum and sum of squares of the :math:`m_i < \rho`),
    so the minimum is at a breakpoint :math:`m_i` or where the derivative vanishes,
    :math:`(s_1\rho - s_2)^2 = R^2(k\rho^2 - 2s_1\rho + s_2)` with :math:`s_1\rho \ge s_2`. The
    margins are sorted once and every candidate is scored from prefix sums, so the cost is
    O(n log n); as :math:`\rho \to \infty` the bound tends to n (returned with ``rho = inf`` if
    nothing is better). Reference: Freund and Schapire (1999).

    Parameters
    ----------
    w, b : the hyperplane (e.g. the pocket's weights).
    X, y : the data.
    R : the radius; default :func:`perceptronlab.radius` of ``X``.

    Returns
    -------
    (bound, rho) : tuple of float

    Examples
    --------
    Here w separates with margin 1 and R = 2 (Novikoff: 4), but a larger target margin ρ = 3
    with slack D = 3 gives the better bound 25/9:

    >>> bound, rho = best_freund_schapire([1, 0], [[2, 0], [1, 1], [-1, 0]], [1, 1, -1])
    >>> round(bound, 12), rho
    (2.777777777778, 3.0)
    """
    from perceptronlab.theory.geometry import _check_b, _check_w, radius

    Xf = float_matrix(X)
    signs, _ = v.check_labels(y, Xf.shape[0])
    w_arr = _check_w(w, Xf.shape[1])
    R_ = float(_radius(R, False)) if R is not None else radius(Xf)
    if R_ <= 0:
        raise v.fail(
            "R (the radius)",
            "a number > 0",
            R_,
            "All points are at the origin: there is no bound to give.",
        )
    m = np.sort(signs * (Xf @ w_arr + _check_b(b)) / np.linalg.norm(w_arr))
    rho, value = _best_rho(m, R_)
    if m.shape[0] < value:
        return float(m.shape[0]), math.inf
    return value, rho


def radius_of(R_squared: RealLike) -> float:
    """R from R² as a float, for R² of any size: exact R² past the float range (1e310 from cells of
    1e155) gives R = 1e155, not an OverflowError.

    >>> radius_of(Fraction(10**310)), radius_of(4.0)
    (1e+155, 2.0)
    """
    return sqrt_float(R_squared)


#: candidates whose bound is re-evaluated directly (one pass each) after the prefix-sum screening
_EXACT_CHECKS = 8


def _best_rho(m: np.ndarray, R: float) -> tuple[float, float]:
    """(ρ, bound) minimizing (R + D(ρ))²/ρ² over the candidates, for sorted signed distances ``m``.

    Every candidate is scored at once from prefix sums (O(n log n) in all): with k = #{m_i < ρ},
    D(ρ)² = kρ² − 2ρ·S₁[k] + S₂[k]. The few best are scored again from the deficits themselves, so
    rounding in the prefix sums can reorder near-ties but never changes a returned value.
    """
    n = m.shape[0]
    S1 = np.r_[0.0, np.cumsum(m)]
    S2 = np.r_[0.0, np.cumsum(m * m)]
    k = np.arange(1, n + 1, dtype=np.float64)  # on [m_i, m_{i+1}) the sums run over i + 1 values
    s1, s2 = S1[1:], S2[1:]
    hi = np.r_[m[1:], np.inf]
    a = s1 * s1 - R * R * k
    bq = -2.0 * (s1 * s2 - R * R * s1)
    c = s2 * s2 - R * R * s2
    roots = [m[m > 0]]
    with np.errstate(invalid="ignore", divide="ignore", over="ignore"):
        disc = np.sqrt(np.maximum(bq * bq - 4 * a * c, 0.0))
        for root in ((-bq + disc) / (2 * a), (-bq - disc) / (2 * a), -c / bq):
            ok = np.isfinite(root) & (root > np.maximum(m, 0)) & (root < hi) & (s1 * root >= s2)
            roots.append(root[ok])
    candidates = np.concatenate(roots)
    if candidates.shape[0] == 0:
        return math.inf, math.inf
    below = np.searchsorted(m, candidates, side="left")
    with np.errstate(
        over="ignore", under="ignore", divide="ignore", invalid="ignore"
    ):  # ρ² may underflow
        D2 = np.maximum(
            below * candidates * candidates - 2.0 * candidates * S1[below] + S2[below], 0.0
        )
        screened = (R + np.sqrt(D2)) ** 2 / (candidates * candidates)
    best_rho, best_value = math.inf, math.inf
    for index in np.argsort(screened, kind="stable")[:_EXACT_CHECKS]:
        rho = float(candidates[index])
        deficits = np.maximum(0.0, rho - m[: below[index]])
        with np.errstate(over="ignore", under="ignore", divide="ignore", invalid="ignore"):
            # in NumPy floats: a ρ so small that ρ² underflows (1e-300) gives an infinite bound, not a
            # ZeroDivisionError, and a bound past the float range gives inf, not an OverflowError
            value = float(
                (np.float64(R) + np.sqrt(np.dot(deficits, deficits))) ** 2 / (np.float64(rho) ** 2)
            )
        if math.isnan(value):
            continue
        if value < best_value:
            best_rho, best_value = rho, value
    return best_rho, best_value


def test_error(R: RealLike, rho: RealLike, n: int, *, squared: bool = False) -> Number:
    r"""The leave-one-out bound on the perceptron's test error: :math:`\frac{1}{n+1}\,R^2/\rho^2`.

    Trained to zero training errors on n examples from a distribution in a ball of radius R that
    a hyperplane separates with margin ρ, the perceptron errs on a new example with probability
    at most :math:`R^2/(\rho^2 (n+1))` (“Perceptron Mistake Bound”, Theorem 2; the leave-one-out argument of
    Vapnik and Chervonenkis 1974).

    Examples
    --------
    The lecture notes' generalization task (a): R = 2, ρ = 0.5, n = 999 gives 1.6 %.

    >>> test_error(2, 0.5, 999)
    0.016
    >>> test_error(2, Fraction(1, 2), 999)
    Fraction(2, 125)
    """
    if isinstance(n, bool) or not isinstance(n, numbers.Integral) or n < 0:
        raise v.fail(
            "n (the number of training examples)", "an integer >= 0", repr(n), "Pass e.g. n=999."
        )
    return novikoff(R, rho, squared=squared) / (int(n) + 1)


test_error.__test__ = False  # type: ignore[attr-defined]  # not a pytest test, despite its name


def sample_size(R: RealLike, rho: RealLike, epsilon: RealLike, *, squared: bool = False) -> int:
    r"""The smallest n with :func:`test_error` :math:`\le \varepsilon`:
    :math:`n = \lceil R^2/(\rho^2\varepsilon)\rceil - 1`.

    Computed exactly: floats are read as the decimals they print as (0.005 is 1/200), so the
    seed's answers come out as integers without rounding trouble.

    Examples
    --------
    The lecture notes' generalization task (b) and (c): 0.5 % needs n ≥ 3199; half the margin, n ≥ 12799.

    >>> sample_size(2, 0.5, 0.005), sample_size(2, 0.25, 0.005)
    (3199, 12799)
    """
    eps = _num(
        "epsilon (the target test error)",
        epsilon,
        fix="Pass a probability strictly between 0 and 1, e.g. epsilon=0.005 for 0.5 %.",
    )
    if eps >= 1:
        raise v.fail(
            "epsilon (the target test error)",
            "a number in (0, 1)",
            epsilon,
            "Pass a probability strictly between 0 and 1, e.g. epsilon=0.005 for 0.5 %.",
        )

    def decimal(value: Number) -> Fraction:
        return value if isinstance(value, Fraction) else Fraction(repr(value))

    ratio = _sq(decimal(_radius(R, squared)), squared) / _sq(decimal(_rho(rho, squared)), squared)
    return max(0, math.ceil(ratio / decimal(eps)) - 1)


# ---- the online-learning chapter: finite classes, experts, Winnow, the perceptron as gradient descent ----
# Shalev-Shwartz and Ben-David (2014), ch. 21; Littlestone (1988); Littlestone and Warmuth (1994).

__all__ += [
    "consistent",
    "halving",
    "weighted_majority",
    "hedge_regret",
    "winnow",
    "online_gradient_descent",
]


def _count(name: str, value: Any, fix: str, *, least: int = 1) -> int:
    if isinstance(value, bool) or not isinstance(value, numbers.Integral) or value < least:
        raise v.fail(name, f"an integer >= {least}", repr(value), fix)
    return int(value)


def consistent(n_hypotheses: int) -> int:
    r"""The mistake bound of Consistent on a realisable sequence: :math:`M \le |H| - 1`.

    Each mistake removes at least the hypothesis that predicted (Shalev-Shwartz and Ben-David 2014,
    Corollary 21.2).

    Examples
    --------
    >>> consistent(8)
    7
    """
    return _count("n_hypotheses", n_hypotheses, "Pass |H|, e.g. len(H).") - 1


def halving(n_hypotheses: int) -> int:
    r"""The mistake bound of Halving on a realisable sequence: :math:`M \le \lfloor\log_2 |H|\rfloor`.

    Each mistake keeps at most half of the version space (Shalev-Shwartz and Ben-David 2014,
    Theorem 21.3); the count is an integer, so the floor, computed exactly.

    Examples
    --------
    >>> halving(8), halving(8257)
    (3, 13)
    """
    return _count("n_hypotheses", n_hypotheses, "Pass |H|, e.g. len(H).").bit_length() - 1


def _beta(beta: Any) -> Fraction:
    if isinstance(beta, bool) or not isinstance(beta, numbers.Real | Decimal | str):
        raise v.fail("beta", "a number in [0, 1)", repr(beta), "Pass e.g. beta=Fraction(1, 2).")
    exact = (
        Fraction(str(beta))
        if isinstance(beta, float)
        else parse_exact(beta, "beta", fix="Pass e.g. beta=1/2.")
    )
    if not 0 <= exact < 1:
        raise v.fail(
            "beta",
            "a number in [0, 1)",
            beta,
            "Pass e.g. beta=1/2 (each wrong expert's weight is halved).",
        )
    return exact


def weighted_majority(n_experts: int, best_mistakes: int, beta: RealLike = Fraction(1, 2)) -> float:
    r"""Littlestone and Warmuth's bound for Weighted Majority with N experts.

    .. math::

        M \le \frac{\log_2 N + m^* \log_2(1/\beta)}{\log_2\bigl(2/(1+\beta)\bigr)},

    where :math:`m^*` is the number of mistakes of the best expert and β ∈ (0, 1) the factor a wrong
    expert's weight is multiplied by (Littlestone and Warmuth 1994, Theorem 2.1). With β = 0 and
    :math:`m^* = 0` it is Halving's :math:`\log_2 N`.

    Examples
    --------
    >>> round(weighted_majority(16, 3), 6)
    16.865946
    """
    N = _count("n_experts", n_experts, "Pass the number of experts, e.g. len(H).")
    best = _count(
        "best_mistakes", best_mistakes, "Pass the best expert's mistakes (0 or more).", least=0
    )
    b = _beta(beta)
    if b == 0:
        if best:
            return math.inf
        return math.log2(N)
    return (math.log2(N) + best * math.log2(1 / b)) / math.log2(2 / (1 + b))


def hedge_regret(n_experts: int, rounds: int) -> float:
    r"""The regret bound of Hedge (randomised Weighted Majority) over T rounds: :math:`\sqrt{2 T \ln N}`.

    With :math:`\eta = \sqrt{2\ln N / T}` the expected mistakes exceed the best expert's by at most
    :math:`\sqrt{2T\ln N}` (Shalev-Shwartz and Ben-David 2014, Theorem 21.11).

    Examples
    --------
    >>> round(hedge_regret(4, 100), 4)
    16.6511
    """
    N = _count("n_experts", n_experts, "Pass the number of experts, e.g. len(H).")
    T = _count("rounds", rounds, "Pass the number of rounds T.")
    return math.sqrt(2 * T * math.log(N))


def winnow(
    n: int, k: int, alpha: RealLike = 2, theta: RealLike | None = None, *, variant: str = "demotion"
) -> float:
    r"""Littlestone's mistake bounds for Winnow on a monotone disjunction of k of n variables.

    Winnow predicts 1 when :math:`\sum_i w_i x_i > \theta`; on a missed 1 it multiplies the weights of
    the active variables by α, on a false 1 it sets them to 0 (``"elimination"``, Winnow1) or divides
    them by α (``"demotion"``, Winnow2). With u promotions and v demotions, each relevant weight is
    promoted at most :math:`\log_\alpha\theta + 1` times and every promotion raises one, while the
    total weight n gains at most :math:`(\alpha - 1)\theta` per promotion and loses more than θ
    (elimination) or :math:`(1 - 1/\alpha)\theta` (demotion) per demotion, so

    .. math::

        M \le \frac{n}{\theta} + \alpha k (\log_\alpha\theta + 1)\ \text{(elimination)},\qquad
        M \le \frac{\alpha}{\alpha - 1}\frac{n}{\theta} + (\alpha + 1) k (\log_\alpha\theta + 1)
        \ \text{(demotion)}

    (Littlestone 1988, Theorems 7 and 8); θ defaults to n/2 and must be at least 1/α.

    Examples
    --------
    >>> round(winnow(16, 2, 2, 8, variant="elimination"), 6), round(winnow(16, 2), 6)
    (18.0, 28.0)
    """
    n_ = _count("n", n, "Pass the number of variables.")
    k_ = _count(
        "k", k, "Pass the number of variables in the target disjunction (0 or more).", least=0
    )
    a = float(_num("alpha", alpha, fix="Pass alpha > 1, e.g. alpha=2."))
    if a <= 1:
        raise v.fail("alpha", "a number > 1", alpha, "Pass alpha > 1, e.g. alpha=2.")
    t = (
        n_ / 2
        if theta is None
        else float(_num("theta", theta, fix="Pass theta > 0, e.g. theta=n/2."))
    )
    if t < 1 / a:
        raise v.fail(
            "theta",
            f"at least 1/alpha = {1 / a:g}",
            theta,
            "Pass theta = n/2 (Littlestone's choice).",
        )
    v.check_choice("variant", variant, ("demotion", "elimination"))
    promotions = k_ * (math.log(t, a) + 1)
    if variant == "elimination":
        return n_ / t + a * promotions
    return a / (a - 1) * n_ / t + (a + 1) * promotions


def online_gradient_descent(R: RealLike, B: RealLike, hinge: RealLike) -> float:
    r"""The perceptron's mistake bound as online gradient descent on the hinge loss (non-separable).

    For any :math:`w^*` with :math:`\lVert w^*\rVert \le B`, on the rounds M where the perceptron errs,

    .. math::

        |M| \le \sum_{t \in M} \ell_t(w^*) + R B \sqrt{\sum_{t \in M} \ell_t(w^*)} + R^2 B^2,

    with :math:`\ell_t(w) = \max(0, 1 - y_t\langle w, x_t\rangle)` and R the largest norm
    (Shalev-Shwartz and Ben-David 2014, Theorem 21.16). With zero hinge loss it is Novikoff's
    :math:`(RB)^2`; compare :func:`freund_schapire`, which bounds with the slack's 2-norm.

    Examples
    --------
    >>> online_gradient_descent(1, 2, 9)
    19.0
    """
    R_ = float(_radius(R, False))
    B_ = float(_num("B (the norm of w*)", B, fix="Pass the norm of the comparison vector w*."))
    L = float(
        _num(
            "hinge (the total hinge loss of w*)",
            hinge,
            positive=False,
            fix="Sum max(0, 1 - y<w*, x>) over the mistake rounds (or all rounds, which is larger).",
        )
    )
    return L + R_ * B_ * math.sqrt(L) + (R_ * B_) ** 2
