"""The "generalization" task: the leave-one-out bound R*²/ρ*²/(n+1) (4 points)."""

from __future__ import annotations

import random
from fractions import Fraction

from perceptronlab.teach import quantities as q
from perceptronlab.teach import tex as t
from perceptronlab.teach.task import MAX_DRAWS, ExamTask, three_parts

_RADII = (Fraction(1), Fraction(2), Fraction(3), Fraction(4), Fraction(5), Fraction(3, 2))
_MARGINS = (Fraction(1, 10), Fraction(1, 5), Fraction(1, 4), Fraction(1, 2), Fraction(1))
_SIZES = (99, 199, 499, 999, 1999, 4999, 9999)
_EPSILONS = (Fraction(1, 200), Fraction(1, 100), Fraction(2, 100), Fraction(5, 100))
_CHANGES = (("margin", 2), ("margin", 2), ("margin", 3), ("radius", 2))


def generalization_task(rng: random.Random, seed: int) -> ExamTask:
    for _ in range(MAX_DRAWS):
        R, rho = rng.choice(_RADII), rng.choice(_MARGINS)
        n, epsilon = rng.choice(_SIZES), rng.choice(_EPSILONS)
        ratio = R * R / (rho * rho)
        if not 4 <= ratio <= 400 or q.test_error_bound(R * R, rho * rho, n) > Fraction(1, 10):
            continue
        if q.sample_size(R * R, rho * rho, epsilon) <= n:
            continue  # (b) should ask for more data than (a) has
        return generalization_from(
            R,
            rho,
            n,
            epsilon,
            rng.choice(_CHANGES),
            rng.choice((10, 20, 50)),
            rng.choice((1000, 10000)),
            seed,
        )
    raise RuntimeError(f"no generalization task found for seed {seed}")  # pragma: no cover


def generalization_from(R, rho, n, epsilon, change, d_small, d_large, seed) -> ExamTask:
    R2, rho2 = R * R, rho * rho
    ratio = q.novikoff(R2, rho2)
    error = q.test_error_bound(R2, rho2, n)
    n_min = q.sample_size(R2, rho2, epsilon)
    R2_c, rho2_c, change_q, change_a = _changed(R2, rho2, change)
    ratio_c = q.novikoff(R2_c, rho2_c)
    n_min_c = q.sample_size(R2_c, rho2_c, epsilon)
    answers = dict(
        ratio=ratio,
        test_error=error,
        n_min=n_min,
        n_min_embedded=n_min,
        ratio_changed=ratio_c,
        n_min_changed=n_min_c,
    )
    data = dict(R=R, rho=rho, n=n, epsilon=epsilon, dimensions=(d_small, d_large), change=change)
    eps_pct = t.decimal(epsilon * 100)

    intro = [
        (
            "p",
            f"The data lies in a ball of radius $R^*={t.decimal(R)}$, and a hyperplane separates the whole "
            f"input space with margin $\\rho^*={t.decimal(rho)}$. The perceptron is trained on $n$ points "
            "until it makes no training errors.",
        )
    ]
    solution_a = [
        (
            "p",
            f"$\\frac{{1}}{{n+1}}\\frac{{R^{{*2}}}}{{\\rho^{{*2}}}}=\\frac{{1}}{{{n + 1}}}\\cdot"
            f"\\frac{{{t.decimal(R2)}}}{{{t.decimal(rho2)}}}{t.approx(error, 6)}$, i.e. "
            f"${t.decimal(error * 100, 4)}\\%$. (1 point)",
        )
    ]
    solution_b = [
        (
            "p",
            f"$\\frac{{{t.tex_num(ratio)}}}{{n+1}}\\le {t.decimal(epsilon)}\\iff {_need(ratio / epsilon, n_min)}$. "
            "(1.5 points)",
        )
    ]
    solution_c = [
        (
            "p",
            f"The dimension does not appear in the bound: still $n\\ge {n_min}$. {change_a} "
            f"multiplies $R^2/\\rho^2$ by {t.tex_num(ratio_c / ratio)}, so one needs "
            f"${_need(ratio_c / epsilon, n_min_c)}$. (1.5 points)",
        )
    ]
    questions = (
        f"Bound the test error for $n={n}$.",
        f"How many training points guarantee a test error of at most ${eps_pct}\\%$?",
        f"The same problem is embedded in $\\mathbb{{R}}^{{{d_large}}}$ instead of "
        f"$\\mathbb{{R}}^{{{d_small}}}$ (extra coordinates are 0), and separately {change_q}. How do "
        "the answers of (b) change?",
    )
    parts = three_parts(
        (1, Fraction(3, 2), Fraction(3, 2)), questions, (solution_a, solution_b, solution_c)
    )
    return ExamTask("generalization", seed, "generalization bound", intro, parts, data, answers)


def _changed(R2: Fraction, rho2: Fraction, change: tuple[str, int]) -> tuple:
    """(c)'s changed problem: R², ρ² with the margin divided or the radius multiplied by the
    change's factor, and the change in words for the question and for the answer."""
    what, factor = change
    if what == "margin":
        change_q = "the margin is halved" if factor == 2 else f"the margin is divided by {factor}"
        change_a = "Halving the margin" if factor == 2 else f"Dividing the margin by {factor}"
        return R2, rho2 / (factor * factor), change_q, change_a
    change_q = "the radius is doubled" if factor == 2 else f"the radius grows by a factor {factor}"
    change_a = "Doubling the radius" if factor == 2 else f"Growing the radius by {factor}"
    return R2 * factor * factor, rho2, change_q, change_a


def _need(bound: Fraction, n_needed: int) -> str:
    """The sample size in TeX: n + 1 ≥ (R²/ρ²)/ε, i.e. n ≥ ``n_needed``."""
    return f"n+1\\ge {t.tex_exact(bound)}\\iff n\\ge {n_needed}"
