"""Separability: the LP's verdict and both proofs, checked independently (Fractions, the perceptron)."""

from __future__ import annotations

import json
import warnings
from fractions import Fraction

import numpy as np
import pytest

from perceptronlab import InputError, perceptron, separable
from perceptronlab.theory import separability as sep_module

XOR_X, XOR_Y = [[0, 0], [1, 1], [0, 1], [1, 0]], [1, 1, -1, -1]


def check_certificate_exactly(X, y, result, fit_intercept):
    """α ≥ 0, Σα = 1, Σ αᵢyᵢxᵢ = 0 (and Σ αᵢyᵢ = 0) in Fractions, from the raw input."""
    alpha = {int(i): Fraction(result.certificate[i]) for i in result.support}
    assert all(a > 0 for a in alpha.values()) and sum(alpha.values()) == 1
    d = len(X[0])
    for j in range(d):
        assert sum(a * y[i] * Fraction(X[i][j]) for i, a in alpha.items()) == 0
    if fit_intercept:
        assert sum(a * y[i] for i, a in alpha.items()) == 0


def test_exam_task_is_separable_with_a_checked_w():
    result = separable([[1, 0], [1, 1], [0, 1]], [1, -1, -1])
    assert result and result.separable and result.certificate is None and len(result.support) == 0
    scores = np.array([1, -1, -1]) * (np.array([[1, 0], [1, 1], [0, 1]]) @ result.w)
    assert np.all(scores > 0)
    assert "Linearly separable" in str(result) and "converges" in result.message


def test_xor_has_the_uniform_certificate_with_intercept():
    result = separable(XOR_X, XOR_Y, fit_intercept=True)
    assert not result and result.exact
    assert result.support.tolist() == [0, 1, 2, 3]
    assert [result.certificate[i] for i in range(4)] == [Fraction(1, 4)] * 4
    check_certificate_exactly(XOR_X, XOR_Y, result, True)
    assert "Not linearly separable" in result.message and "Gordan" in result.message
    assert "never converge" in result.message


def test_zero_vector_is_named_without_intercept():
    result = separable([[1, 1], [0, 0], [2, 1]], [1, 1, -1])
    assert not result
    check_certificate_exactly([[1, 1], [0, 0], [2, 1]], [1, 1, -1], result, False)


def test_a_long_exact_certificate_weight_is_shown_rounded():
    """Found by the fuzz test: a weight of 300 digits was written out in full in the message."""
    X = [["1", "1"], ["1/" + "7" * 300, "0"], ["1e-458", "1"], ["1", "1"]]
    result = separable(X, [1, 1, 1, -1])
    assert not result and result.certificate[2].denominator > 10**299
    check_certificate_exactly(X, [1, 1, 1, -1], result, False)
    assert (
        len(result.message) < 500 and "(≈ 1, ≈ 1.286 × 10⁻³⁰⁰, ≈ 1.286 × 10⁻³⁰⁰)" in result.message
    )


@pytest.mark.parametrize("seed", range(20))
@pytest.mark.parametrize("fit_intercept", [False, True])
def test_verdict_agrees_with_the_perceptron(seed, fit_intercept):
    """Separable ⇔ the cyclic perceptron converges (small integer data: margins are not tiny)."""
    rng = np.random.default_rng(seed)
    n = int(rng.integers(3, 12))
    X = rng.integers(-4, 5, size=(n, 2))
    y = (
        np.where(rng.random(n) < 0.5, 1, -1)
        if seed % 2
        else np.where(X @ [1, -2] + (1 if fit_intercept else 0) > 0, 1, -1)
    )
    if len(set(y.tolist())) == 1:
        y[0] = -y[0]
    result = separable(X.tolist(), y.tolist(), fit_intercept=fit_intercept)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        run = perceptron(X, y, fit_intercept=fit_intercept, max_sweeps=5000, exact=True)
    assert result.separable == run.converged
    if result.separable:
        scores = y * (X @ result.w + result.b)
        assert np.all(scores > 0)
    else:
        assert result.exact
        check_certificate_exactly(X.tolist(), y.tolist(), result, fit_intercept)


def test_float_certificate_is_checked_to_tolerance():
    rng = np.random.default_rng(5)
    X = rng.standard_normal((200, 4))
    y = np.where(rng.random(200) < 0.5, 1.0, -1.0)
    result = separable(X, y, fit_intercept=True)
    assert not result.separable and not result.exact
    alpha = result.certificate
    assert np.all(alpha >= 0) and alpha.sum() == pytest.approx(1.0, abs=1e-12)
    assert np.abs((alpha * y) @ X).max() <= 1e-9 and abs(alpha @ y) <= 1e-9
    assert len(result.support) <= 4 + 2  # a simplex vertex: at most d + 2 examples


@pytest.mark.parametrize("separable_data", [True, False])
def test_working_set_lp_on_more_examples(monkeypatch, separable_data):
    monkeypatch.setattr(sep_module, "WORKING_SET_FROM", 500)
    rng = np.random.default_rng(11)
    X = rng.standard_normal((4000, 3))
    y = np.sign(X @ [1.0, -1.0, 0.5] + 0.2)
    if not separable_data:
        y[:3] *= -1
    result = separable(X, y, fit_intercept=True)
    assert result.separable == separable_data
    if separable_data:
        assert np.all(y * (X @ result.w + result.b) > 0)
    else:
        assert np.abs((result.certificate * y) @ X).max() <= 1e-9


def test_result_faces():
    result = separable(XOR_X, XOR_Y, fit_intercept=True)
    record = json.loads(json.dumps(result.to_dict()))
    assert record["separable"] is False and record["certificate"] == {
        "1": "1/4",
        "2": "1/4",
        "3": "1/4",
        "4": "1/4",
    }
    ok = json.loads(json.dumps(separable([[1, 0]], [1]).to_dict()))
    assert ok["separable"] is True and ok["w"][0] > 0


def test_bad_input():
    with pytest.raises(InputError, match="labels"):
        separable([[1, 0], [0, 1]], [1])
    with pytest.raises(InputError, match="finite"):
        separable([[1.0, np.nan]], [1])
