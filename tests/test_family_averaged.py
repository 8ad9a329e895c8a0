"""The averaged perceptron against brute force: the mean of the plain run's traced iterates."""

import numpy as np
import pytest
import scipy.sparse as sp
from hypothesis import given, settings
from hypothesis import strategies as st

from perceptronlab import InputError, NotConvergedWarning, averaged_perceptron, perceptron
from perceptronlab.family.voted import voted_perceptron


def brute_average(X, y, **kwargs):
    """Mean of w_t, b_t over every step of the plain perceptron's trace (w_t: after step t)."""
    run = perceptron(X, y, trace=True, warn=False, **kwargs)
    ws = np.array([step.w for step in run.steps], dtype=np.float64)
    bs = np.array([step.b for step in run.steps], dtype=np.float64)
    return run, ws.mean(axis=0), bs.mean()


def integer_data(seed, n=40, d=4, noise=0.0):
    """Integer points labelled by a hyperplane through the origin (separable without offset)."""
    rng = np.random.default_rng(seed)
    X = rng.integers(-4, 5, size=(n, d)).astype(np.float64)
    X = X[np.abs(X).sum(axis=1) > 0]
    y = np.where(X @ rng.normal(size=d) > 0, 1, -1)
    n = X.shape[0]
    flip = rng.random(n) < noise
    y[flip] = -y[flip]
    return X, y


@pytest.mark.parametrize("fit_intercept", [False, True])
@pytest.mark.parametrize("sparse", [False, True])
def test_average_equals_mean_of_traced_iterates_separable(fit_intercept, sparse):
    X, y = integer_data(0)
    plain, w_bar, b_bar = brute_average(X, y, fit_intercept=fit_intercept)
    assert plain.converged
    run = averaged_perceptron(sp.csr_matrix(X) if sparse else X, y, fit_intercept=fit_intercept)
    assert run.converged and run.sweeps == plain.sweeps
    assert run.n_steps == len(plain.steps) == plain.sweeps * X.shape[0]
    np.testing.assert_allclose(run.w, w_bar, rtol=1e-12, atol=1e-12)
    assert run.b == pytest.approx(b_bar, abs=1e-12)
    # the iterates are the engine's, bit for bit
    np.testing.assert_array_equal(run.mistake_indices, plain.mistake_indices)
    np.testing.assert_array_equal(run.last_w, plain.w)
    assert run.last_b == plain.b


@pytest.mark.parametrize("fit_intercept", [False, True])
def test_average_over_all_sweeps_when_not_separable(fit_intercept):
    # shuffle order: the plain run has no cycle test then, so both run all max_sweeps
    X, y = integer_data(1, noise=0.2)
    plain, w_bar, b_bar = brute_average(
        X, y, fit_intercept=fit_intercept, order="shuffle", seed=3, max_sweeps=15
    )
    assert not plain.converged
    with pytest.warns(NotConvergedWarning, match="max_sweeps=15"):
        run = averaged_perceptron(
            X, y, fit_intercept=fit_intercept, order="shuffle", seed=3, max_sweeps=15
        )
    assert run.sweeps == 15 and run.n_steps == 15 * X.shape[0]
    np.testing.assert_allclose(run.w, w_bar, rtol=1e-10, atol=1e-10)
    assert run.b == pytest.approx(b_bar, abs=1e-10)
    np.testing.assert_array_equal(run.updates_per_sweep, plain.updates_per_sweep)
    np.testing.assert_allclose(run.norms, plain.norms)


def test_engine_report_fields_match_the_plain_run_on_float_data():
    rng = np.random.default_rng(5)
    X = rng.normal(size=(200, 8))
    y = np.where(X @ rng.normal(size=8) > 0, "yes", "no")
    plain = perceptron(X, y, fit_intercept=True)
    run = averaged_perceptron(X, y, fit_intercept=True)
    assert (run.mistakes, run.sweeps, run.converged) == (plain.mistakes, plain.sweeps, True)
    np.testing.assert_array_equal(run.last_w, plain.w)
    np.testing.assert_array_equal(run.norms, plain.norms)
    np.testing.assert_array_equal(run.errors_after_sweep, plain.errors_after_sweep)
    assert list(run.classes) == ["no", "yes"]
    assert set(run.predict(X)) <= {"no", "yes"}


def test_average_is_the_survival_weighted_mean_of_the_voted_vectors():
    X, y = integer_data(2, noise=0.1)
    avg = averaged_perceptron(X, y, fit_intercept=True, max_sweeps=7, warn=False)
    vot = voted_perceptron(X, y, fit_intercept=True, max_sweeps=7, warn=False)
    np.testing.assert_allclose(avg.w, vot.counts @ vot.vectors / vot.n_steps, atol=1e-12)
    assert avg.b == pytest.approx(vot.counts @ vot.intercepts / vot.n_steps, abs=1e-12)


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_iterates_are_the_engines_bit_for_bit_on_float_input(dtype):
    rng = np.random.default_rng(11)
    X = rng.normal(size=(300, 19)).astype(dtype)
    y = np.where(X.astype(np.float64) @ rng.normal(size=19) > 0, 1, -1)
    for data in (X, sp.csr_matrix(X)):
        plain = perceptron(data, y, order="shuffle", seed=2, max_sweeps=5, warn=False)
        run = averaged_perceptron(data, y, order="shuffle", seed=2, max_sweeps=5, warn=False)
        np.testing.assert_array_equal(run.last_w, plain.w)
        np.testing.assert_array_equal(run.mistake_indices, plain.mistake_indices)


def test_float32_input_gives_the_float64_run():
    X, y = integer_data(3)
    a = averaged_perceptron(X, y, fit_intercept=True)
    b = averaged_perceptron(X.astype(np.float32), y, fit_intercept=True)
    assert a.converged
    np.testing.assert_array_equal(a.w, b.w)


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 10_000), st.integers(2, 12), st.integers(1, 4), st.booleans())
def test_average_property_matches_brute_force(seed, n, d, fit_intercept):
    rng = np.random.default_rng(seed)
    X = rng.integers(-3, 4, size=(n, d)).astype(np.float64)
    y = rng.choice([-1, 1], size=n)
    plain, w_bar, b_bar = brute_average(
        X, y, fit_intercept=fit_intercept, order="shuffle", seed=seed, max_sweeps=6
    )
    run = averaged_perceptron(
        X, y, fit_intercept=fit_intercept, order="shuffle", seed=seed, max_sweeps=6, warn=False
    )
    assert run.sweeps == plain.sweeps
    np.testing.assert_allclose(run.w, w_bar, atol=1e-9)
    assert run.b == pytest.approx(b_bar, abs=1e-9)


@pytest.mark.parametrize(
    "kwargs, match",
    [
        (dict(order="random-mistake"), "order: expected one of 'cyclic', 'shuffle'"),
        (dict(eta=0), r"eta \(the learning rate\): expected a finite number > 0"),
        (dict(max_sweeps=0), "max_sweeps: expected an integer >= 1"),
        (dict(margin=-1), r"margin \(rho0\)"),
        (dict(seed=-2), "seed: expected None or an integer >= 0"),
    ],
)
def test_bad_parameters_get_the_engine_messages(kwargs, match):
    with pytest.raises(InputError, match=match):
        averaged_perceptron([[1, 0], [0, 1]], [1, -1], **kwargs)


def test_bad_data_gets_the_validation_messages():
    with pytest.raises(InputError, match="X: expected finite values"):
        averaged_perceptron([[1, np.nan], [0, 1]], [1, -1])
    with pytest.raises(InputError, match="exactly two classes"):
        averaged_perceptron([[1, 0], [0, 1], [1, 1]], [0, 1, 2])
    with pytest.raises(InputError, match="2 features, as this averaged perceptron"):
        averaged_perceptron([[1, 0], [0, 1]], [1, -1]).predict([[1, 2, 3]])
