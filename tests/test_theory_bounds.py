"""Bounds: the seeds' numbers, exactness, the bounds holding on real runs, and bad input."""

from __future__ import annotations

import math
import warnings
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from perceptronlab import InputError, max_margin, perceptron, radius
from perceptronlab.bounds import (
    best_freund_schapire,
    freund_schapire,
    margin_perceptron,
    novikoff,
    novikoff_rb,
    sample_size,
    slack,
    test_error,
)
from perceptronlab.theory import radius_squared


def test_seed_000_generalization_task():
    assert test_error(2, 0.5, 999) == pytest.approx(0.016, abs=1e-15)  # (a) 1.6 %
    assert test_error(2, Fraction(1, 2), 999) == Fraction(16, 1000)
    assert sample_size(2, 0.5, 0.005) == 3199  # (b)
    assert sample_size(2, 0.25, 0.005) == 12799  # (c) margin halved
    assert sample_size(2, Fraction(1, 2), Fraction(1, 200)) == 3199
    # the answer really is the smallest such n
    assert (
        test_error(2, Fraction(1, 2), 3199)
        <= Fraction(1, 200)
        < test_error(2, Fraction(1, 2), 3198)
    )


def test_seed_000_mistake_bounds():
    assert novikoff(2, Fraction(1, 5), squared=True) == 10  # exam task (b)
    assert novikoff(10, 2, squared=True) == 5  # margin task (b), w_A
    assert novikoff(10, Fraction(9, 5), squared=True) == Fraction(50, 9)  # w_B: 10/1.8
    assert novikoff(25, Fraction(1, 2), squared=True) == 50  # part (c) with x5
    assert novikoff(math.sqrt(2), 1 / math.sqrt(5)) == pytest.approx(10)
    assert isinstance(novikoff(2, 1), Fraction) and isinstance(novikoff(2.0, 1), float)


def test_rb_form_and_margin_perceptron_reduce_to_novikoff():
    assert novikoff_rb(3, Fraction(1, 2)) == novikoff(3, 2) == Fraction(9, 4)
    assert margin_perceptron(3, 2, 0) == novikoff(3, 2)
    assert margin_perceptron(3, 2, 1) == Fraction(9 + 2, 4)
    assert margin_perceptron(2, Fraction(1, 5), 1, squared=True) == 20
    assert freund_schapire(3, 0, 2) == novikoff(3, 2)
    assert freund_schapire(1, 1, Fraction(1, 2)) == 16


def test_slack_against_its_definition():
    rng = np.random.default_rng(0)
    X, y = rng.standard_normal((30, 3)), np.where(rng.random(30) < 0.5, 1, -1)
    w, b, rho = np.array([1.0, -2.0, 0.5]), 0.3, 0.4
    distances = y * (X @ w + b) / np.linalg.norm(w)
    expected = math.sqrt(sum(max(0.0, rho - m) ** 2 for m in distances))
    assert slack(w, X, y, rho, b=b) == pytest.approx(expected, rel=1e-13)
    assert slack(3 * w, X, y, rho, b=3 * b) == pytest.approx(expected, rel=1e-13)  # scale-free
    # a separating w at a margin it achieves has no slack
    assert slack([1, -2], [[1, 0], [1, 1], [0, 1]], [1, -1, -1], 1 / math.sqrt(5) - 1e-12) == 0.0


@pytest.mark.parametrize("noise", [2, 4, 12])
def test_best_freund_schapire_beats_a_dense_grid(noise):
    rng = np.random.default_rng(noise)
    X = rng.standard_normal((40, 2))
    w = np.array([0.3, 1.0])
    y = np.where(X @ w > 0, 1, -1)
    y[:noise] *= -1
    bound, rho = best_freund_schapire(w, X, y)
    R = radius(X)
    grid = np.geomspace(1e-3, 1e3, 6001)
    values = [freund_schapire(R, slack(w, X, y, r), r) for r in grid]
    assert bound <= min(values) + 1e-9
    if math.isinf(rho):  # the infimum is the limit n as rho grows
        assert bound == 40 and min(values) >= 40 - 1e-9
    else:
        assert freund_schapire(R, slack(w, X, y, rho), rho) == pytest.approx(bound, rel=1e-9)


def _best_freund_schapire_by_brute_force(w, X, y, R):
    """Every breakpoint and every stationary point, each scored with a full pass (quadratic)."""
    m = np.sort(y * (X @ w) / np.linalg.norm(w))
    best = (float(len(m)), math.inf)
    candidates = [value for value in m if value > 0]
    for k in range(
        1, len(m) + 1
    ):  # D² = kρ² − 2s₁ρ + s₂ on [m_{k-1}, m_k): where its derivative vanishes
        s1, s2 = m[:k].sum(), (m[:k] ** 2).sum()
        hi = m[k] if k < len(m) else math.inf
        coefficients = [s1 * s1 - R * R * k, -2 * (s1 * s2 - R * R * s1), s2 * s2 - R * R * s2]
        for root in np.roots(coefficients):
            if (
                abs(root.imag) < 1e-12
                and max(m[k - 1], 0) < root.real < hi
                and s1 * root.real >= s2
            ):
                candidates.append(root.real)
    for rho in candidates:
        value = freund_schapire(R, slack(w, X, y, rho), rho)
        best = min(best, (value, rho))
    return best


@pytest.mark.parametrize("seed", range(6))
def test_best_freund_schapire_equals_the_quadratic_search(seed):
    rng = np.random.default_rng(seed)
    n, d = (50, 200, 400)[seed % 3], 2 + seed % 3
    X = rng.standard_normal((n, d))
    w = rng.standard_normal(d)
    y = np.where(X @ w > 0, 1, -1)
    y[rng.random(n) < 0.05 * (1 + seed % 4)] *= -1
    R = radius(X)
    expected, expected_rho = _best_freund_schapire_by_brute_force(w, X, y, R)
    bound, rho = best_freund_schapire(w, X, y)
    assert bound == pytest.approx(expected, rel=1e-9)
    if math.isinf(expected_rho):
        assert math.isinf(rho)
    else:
        assert rho == pytest.approx(expected_rho, rel=1e-6)


@pytest.mark.parametrize("seed", range(8))
def test_the_bounds_hold_on_runs(seed):
    rng = np.random.default_rng(seed)
    X = rng.standard_normal((60, 3))
    w_true = rng.standard_normal(3)
    y = np.sign(X @ w_true)
    X += 0.2 * y[:, None] * w_true / np.linalg.norm(w_true)
    rho = max_margin(X, y).rho
    run = perceptron(X, y, order="shuffle", seed=seed)
    assert run.converged and run.mistakes <= novikoff(radius(X), rho)
    run_margin = perceptron(X, y, margin=0.5)
    assert run_margin.mistakes <= margin_perceptron(radius(X), rho, 0.5)
    # Freund-Schapire on noisy labels: one pass makes at most the bound for any w
    noisy = y.copy()
    noisy[:6] *= -1
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        one_pass = perceptron(X, noisy, max_sweeps=1)
    for w in (w_true, rng.standard_normal(3)):
        assert one_pass.mistakes <= best_freund_schapire(w, X, noisy)[0] + 1e-9


@pytest.mark.parametrize(
    "call, match",
    [
        (lambda: novikoff(1, 0), "rho"),
        (lambda: novikoff(1, -0.5), "rho"),
        (lambda: novikoff(-1, 0.5), "R"),
        (lambda: novikoff(True, 0.5), "R"),
        (lambda: novikoff(1, float("nan")), "finite"),
        (lambda: sample_size(2, 0.5, 0), "epsilon"),
        (lambda: sample_size(2, 0.5, 1), r"\(0, 1\)"),
        (lambda: sample_size(2, 0.5, 1.5), "epsilon"),
        (lambda: test_error(2, 0.5, -1), "n"),
        (lambda: test_error(2, 0.5, 2.5), "n"),
        (lambda: margin_perceptron(2, 1, -1), "rho0"),
        (lambda: freund_schapire(2, -1, 1), "D"),
        (lambda: slack([0, 0], [[1, 0]], [1], 1), "zero vector"),
        (lambda: novikoff_rb(2, 0), "B"),
    ],
)
def test_bad_input_messages(call, match):
    with pytest.raises(InputError, match=match) as info:
        call()
    assert "expected" in str(info.value)


def test_pytest_does_not_collect_the_bound_named_test_error():
    # imported above, ``test_error`` would otherwise be collected here as a test (and fail: its
    # arguments are not fixtures); the public face's names themselves: tests/test_architecture.py
    assert test_error.__test__ is False


# ---------------------------------------------------------------- properties (hypothesis)

points = st.lists(st.tuples(st.integers(-5, 5), st.integers(-5, 5)), min_size=2, max_size=8)


@settings(max_examples=40, deadline=None)
@given(
    points=points,
    normal=st.tuples(st.integers(-3, 3), st.integers(-3, 3)).filter(lambda n: n != (0, 0)),
)
def test_property_exact_novikoff_bound_holds_for_the_exact_run(points, normal):
    X = [list(p) for p in points if p[0] * normal[0] + p[1] * normal[1] != 0]
    assume(len(X) >= 1)  # every point on the line: nothing to separate
    y = [1 if x[0] * normal[0] + x[1] * normal[1] > 0 else -1 for x in X]
    best = max_margin(X, y)
    assert best.exact
    bound = novikoff(radius_squared(X), best.rho_squared, squared=True)
    run = perceptron(X, y, exact=True)
    assert run.converged and run.mistakes <= bound
    # (RB)^2 with B = 1/rho* is the same number
    assert novikoff_rb(radius(X), best.B) == pytest.approx(float(bound), rel=1e-9)
