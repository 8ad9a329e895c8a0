"""The engine against the seeds' hand-worked numbers, the NumPy twin, and brute-force properties."""

import warnings
from fractions import Fraction

import numpy as np
import pytest
import scipy.sparse as sp
from hypothesis import given, settings
from hypothesis import strategies as st

from perceptronlab import perceptron
from perceptronlab.exceptions import CycledWarning, NotConvergedWarning, WeightOverflowError

EXAM_X = [[1, 0], [1, 1], [0, 1]]
EXAM_Y = [1, -1, -1]

SEED_WORKSHEET = """\
| sweep | point | y⟨w,x⟩ | mistake? | w after |
| --- | --- | --- | --- | --- |
| 1 | x1 | 0 | yes | (1, 0) |
| 1 | x2 | -1 | yes | (0, -1) |
| 1 | x3 | 1 | no | (0, -1) |
| 2 | x1 | 0 | yes | (1, -1) |
| 2 | x2 | 0 | yes | (0, -2) |
| 2 | x3 | 2 | no | (0, -2) |
| 3 | x1 | 0 | yes | (1, -2) |
| 3 | x2 | 1 | no | (1, -2) |
| 3 | x3 | 2 | no | (1, -2) |
| 4 | all | 1, 1, 2 | no | stop |
"""


def test_exam_task_reproduces_the_seed_worksheet_exactly():
    run = perceptron(EXAM_X, EXAM_Y, exact=True, trace=True)
    assert run.table("md") == SEED_WORKSHEET
    assert run.mistakes == 5 and run.sweeps == 4 and run.converged and not run.cycled
    assert list(run.w) == [Fraction(1), Fraction(-2)]
    assert run.mistake_indices.tolist() == [0, 1, 0, 1, 0]
    assert run.updates_per_sweep.tolist() == [2, 2, 1, 0]
    assert len(run.worksheet_rows()) == 10


def test_learning_rate_two_scales_w_and_keeps_the_mistakes():
    run = perceptron(EXAM_X, EXAM_Y, eta=2, exact=True)
    assert list(run.w) == [2, -4] and run.mistakes == 5


@pytest.mark.parametrize("fmt", ["csv", "latex", "html"])
def test_other_table_formats_hold_the_same_rows(fmt):
    text = perceptron(EXAM_X, EXAM_Y, exact=True, trace=True).table(fmt)
    assert text.count("yes") == 5 and "stop" in text
    assert ("(1, -2)" in text) or ("(1, -2)" in text.replace("$", ""))


def test_exact_accepts_decimal_strings_and_fractions():
    run = perceptron([["0.5", "0"], [Fraction(1, 2), "1/2"], ["0", "0.5"]], EXAM_Y, exact=True)
    assert list(run.w) == [Fraction(1, 2), -1]


def test_errors_after_sweep_differs_from_updates_per_sweep():
    run = perceptron(EXAM_X, EXAM_Y)
    assert run.errors_after_sweep.tolist() == [1, 1, 0, 0]
    assert run.updates_per_sweep.tolist() == [2, 2, 1, 0]


def test_norms_follow_every_update():
    run = perceptron(EXAM_X, EXAM_Y)
    np.testing.assert_allclose(run.norms, [1, 1, np.sqrt(2), 2, np.sqrt(5)])


def random_integer_problem(seed, n=40, d=5, separable=True):
    rng = np.random.default_rng(seed)
    X = rng.integers(-5, 6, size=(n, d)).astype(np.float64)
    if separable:
        w_true = rng.integers(-3, 4, size=d)
        w_true[0] = w_true[0] or 1
        y = np.sign(X @ w_true)
        X, y = X[y != 0], y[y != 0]
    else:
        y = rng.choice([-1.0, 1.0], size=n)
    return X, y


@pytest.mark.parametrize("fit_intercept", [False, True])
@pytest.mark.parametrize("order", ["cyclic", "shuffle", "random-mistake"])
@pytest.mark.parametrize("margin", [0.0, 2.0])
def test_compiled_equals_twin_and_exact_on_integer_data(order, fit_intercept, margin):
    for seed in range(3):
        X, y = random_integer_problem(seed)
        opts = dict(
            order=order,
            fit_intercept=fit_intercept,
            margin=margin,
            seed=seed,
            max_sweeps=50,
            warn=False,
        )
        fast = perceptron(X, y, **opts)
        twin = perceptron(X, y, backend="reference", **opts)
        exact = perceptron(X.astype(int).tolist(), y, exact=True, **opts)
        assert np.array_equal(fast.w, twin.w) and fast.b == twin.b
        assert np.array_equal(fast.w, exact.w.astype(float)) and fast.b == float(exact.b)
        assert (
            fast.mistake_indices.tolist()
            == twin.mistake_indices.tolist()
            == exact.mistake_indices.tolist()
        )
        assert fast.converged == exact.converged and fast.sweeps == exact.sweeps
        np.testing.assert_allclose(fast.norms, exact.norms)


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_compiled_equals_twin_on_float_data(dtype):
    rng = np.random.default_rng(7)
    X = rng.normal(size=(300, 8)).astype(dtype)
    y = np.sign(X @ rng.normal(size=8) + 0.05)
    fast = perceptron(X, y, max_sweeps=4, fit_intercept=True, warn=False)
    twin = perceptron(X, y, max_sweeps=4, fit_intercept=True, backend="reference", warn=False)
    assert np.array_equal(fast.w, twin.w) and fast.mistakes == twin.mistakes


def test_sparse_equals_dense():
    X, y = random_integer_problem(3, n=80, d=12)
    X[X < 2] = 0
    keep = np.abs(X).sum(1) > 0
    X, y = X[keep], y[keep]
    dense = perceptron(X, y, fit_intercept=True, max_sweeps=30, warn=False)
    sparse = perceptron(sp.csr_matrix(X), y, fit_intercept=True, max_sweeps=30, warn=False)
    assert np.array_equal(dense.w, sparse.w) and dense.mistakes == sparse.mistakes
    np.testing.assert_allclose(dense.norms, sparse.norms)


@settings(max_examples=30, deadline=None)
@given(st.integers(0, 10_000), st.sampled_from([1, 2, 3]), st.sampled_from([Fraction(1, 2), 3, 7]))
def test_eta_only_scales_w_from_zero(seed, d, eta):
    X, y = random_integer_problem(seed, n=12, d=d)
    base = perceptron(X.astype(int).tolist(), y, exact=True, max_sweeps=30, warn=False)
    scaled = perceptron(X.astype(int).tolist(), y, exact=True, eta=eta, max_sweeps=30, warn=False)
    assert scaled.mistake_indices.tolist() == base.mistake_indices.tolist()
    assert [eta * v for v in base.w] == list(scaled.w)


@settings(max_examples=30, deadline=None)
@given(st.integers(0, 10_000))
def test_novikoff_bound_holds_with_a_known_separator(seed):
    rng = np.random.default_rng(seed)
    w_star = rng.normal(size=3)
    w_star /= np.linalg.norm(w_star)
    X = rng.normal(size=(60, 3))
    scores = X @ w_star
    keep = np.abs(scores) > 0.3
    X, y = X[keep], np.sign(scores[keep])
    rho = np.min(y * (X @ w_star))
    R = np.max(np.linalg.norm(X, axis=1))
    run = perceptron(X, y)
    assert run.converged
    assert run.mistakes <= (R / rho) ** 2
    for x, label in zip(
        X, y, strict=True
    ):  # every example on its side, summed here in feature order
        assert label * (sum(wj * xj for wj, xj in zip(run.w, x, strict=True)) + run.b) > 0


def test_converged_run_separates_and_respects_ties():
    run = perceptron([[1, 1], [-1, -1]], [1, -1], exact=True, trace=True)
    assert run.steps[0].score == 0 and run.steps[0].mistake


def test_cyclic_repeat_stops_with_cycled_and_warns():
    X = [[1, 1], [2, 2], [-1, -1], [1.5, 1.5]]
    with pytest.warns(CycledWarning, match="never converge"):
        run = perceptron(X, [1, 1, -1, -1], max_sweeps=10_000)
    assert run.cycled and not run.converged and run.sweeps < 20


def test_sweep_limit_warns_with_the_remedy():
    X, y = random_integer_problem(1, separable=False)
    with pytest.warns(NotConvergedWarning, match="separable"):
        run = perceptron(X, y, order="shuffle", seed=0, max_sweeps=3)
    assert run.sweeps == 3 and not run.converged


def test_exact_cycle_detection_on_rational_data():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        run = perceptron([[1, 1], [2, 2], [-1, -1], ["1.5", "1.5"]], [1, 1, -1, -1], exact=True)
    assert run.cycled


def test_overflow_names_the_sweep():
    X = np.array([[1e308, 1e308], [-1e308, 1e308], [1e308, -1e308]])
    with pytest.raises(WeightOverflowError, match="sweep 1.*Scale"):
        perceptron(X, [1, 1, 1], eta=10.0)


def test_margin_perceptron_keeps_going_until_the_margin_is_reached():
    run = perceptron(EXAM_X, EXAM_Y, margin=1, exact=True)
    scores = [
        y * sum(wj * xj for wj, xj in zip(run.w, x, strict=True))
        for x, y in zip(EXAM_X, EXAM_Y, strict=True)
    ]
    assert run.converged and min(scores) > 1


def test_shuffle_is_seeded():
    X, y = random_integer_problem(5, n=50)
    a = perceptron(X, y, order="shuffle", seed=3)
    b = perceptron(X, y, order="shuffle", seed=3)
    c = perceptron(X, y, order="shuffle", seed=4)
    assert a.mistake_indices.tolist() == b.mistake_indices.tolist()
    assert a.mistake_indices.tolist() != c.mistake_indices.tolist()


def test_random_mistake_updates_only_on_misclassified_examples():
    X, y = random_integer_problem(2, n=30)
    run = perceptron(X, y, order="random-mistake", seed=1, trace=True)
    assert run.converged
    assert all(step.mistake and step.score <= 0 for step in run.steps)
