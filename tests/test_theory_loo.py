"""Exact leave-one-out: equal to brute force (retraining from scratch without each example)."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

from perceptronlab import InputError, NotSeparableError, loo_error, perceptron
from perceptronlab.core.scores import margins


def brute_force(X, y, **options):
    """The definition: n runs from w = 0, each without one example, through the public API."""
    wrong = []
    n = len(y)
    for k in range(n):
        keep = [i for i in range(n) if i != k]
        rows = [X[i] for i in keep]
        run = perceptron(
            rows if options.get("exact") else np.asarray(rows),
            np.asarray(y)[keep],
            warn=False,
            **options,
        )
        assert run.converged
        x_k = [X[k]] if options.get("exact") else np.asarray([X[k]], dtype=np.float64)
        if margins(x_k, np.asarray([y[k]], dtype=np.float64), run.w, run.b)[0] <= 0:
            wrong.append(k)
    return wrong


def test_exam_task():
    result = loo_error([[1, 0], [1, 1], [0, 1]], [1, -1, -1])
    assert result.indices.tolist() == [0, 1] == brute_force([[1, 0], [1, 1], [0, 1]], [1, -1, -1])
    assert (result.errors, result.n, result.retrainings, result.mistakes) == (2, 3, 2, 5)
    assert result.error_rate == pytest.approx(2 / 3)
    assert result.candidates.tolist() == [0, 1]  # x3 never triggered an update
    assert "2/3" in str(result)


@pytest.mark.parametrize("seed", range(16))
def test_equals_brute_force_on_random_data(seed):
    rng = np.random.default_rng(seed)
    n, d = int(rng.integers(6, 40)), int(rng.integers(1, 4))
    fit_intercept = bool(seed % 2)
    X = rng.standard_normal((n, d))
    w = rng.standard_normal(d)
    y = np.sign(X @ w + (0.3 if fit_intercept else 0.0))
    y[y == 0] = 1
    X += 0.05 * y[:, None] * w / np.linalg.norm(w)
    options = dict(
        fit_intercept=fit_intercept,
        eta=float(rng.choice([1.0, 0.5, 3.0])),
        margin=float(rng.choice([0.0, 0.2])),
        max_sweeps=20000,
    )
    result = loo_error(X, y, **options)
    assert result.indices.tolist() == brute_force(X.tolist(), y.tolist(), **options)
    assert result.errors <= result.retrainings <= result.mistakes


@pytest.mark.parametrize("seed", range(4))
def test_exact_mode_equals_brute_force(seed):
    rng = np.random.default_rng(50 + seed)
    X = rng.integers(-4, 5, size=(12, 2))
    y = np.where(X @ [2, -1] + 1 > 0, 1, -1)
    result = loo_error(X.tolist(), y.tolist(), exact=True, fit_intercept=True)
    assert result.indices.tolist() == brute_force(
        X.tolist(), y.tolist(), exact=True, fit_intercept=True
    )


def test_float32_and_reference_backend_agree():
    rng = np.random.default_rng(3)
    X = rng.standard_normal((30, 3))
    y = np.sign(X @ [1.0, 2.0, -1.0])
    a = loo_error(X, y)
    b = loo_error(X, y, backend="reference")
    c = loo_error(X.astype(np.float32), y)
    assert a.indices.tolist() == b.indices.tolist() == brute_force(X.tolist(), y.tolist())
    assert c.indices.tolist() == brute_force(
        X.astype(np.float32).astype(np.float64).tolist(), y.tolist()
    )


def test_non_separable_and_bad_options():
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # loo_error itself must not warn
        with pytest.raises(NotSeparableError, match="separable"):
            loo_error([[0, 0], [1, 1], [0, 1], [1, 0]], [1, 1, -1, -1], fit_intercept=True)
    with pytest.raises(NotSeparableError, match="max_sweeps"):
        loo_error([[1, 0], [1, 1], [0, 1]], [1, -1, -1], max_sweeps=2)
    with pytest.raises(InputError, match="order"):
        loo_error([[1, 0]], [1], order="shuffle")
    with pytest.raises(InputError, match="trace"):
        loo_error([[1, 0]], [1], trace=True)
