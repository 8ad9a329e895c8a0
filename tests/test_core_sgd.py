"""core/sgd.py and the driver's permutation source: scikit-learn's SGD sweeps against the textbook
sweeps and a brute-force loop written here.

With no penalty, float64 and unit scales, scikit-learn's SGD step is the perceptron's update, so the
SGD sweeps must give the textbook kernels' bits; with l2 the weights are a vector times a scale,
which the brute force below keeps as scikit-learn's ``WeightVector`` does.
"""

from __future__ import annotations

import numpy as np
import pytest
import scipy.sparse as sp

from perceptronlab.core.driver import drive
from perceptronlab.core.engines import CompiledEngine
from perceptronlab.core.sgd import sgd_permutations
from perceptronlab.core.sgd_engine import SGDEngine


def _noisy(seed: int, n: int = 80, d: int = 6):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, d))
    y = np.where(X @ rng.normal(size=d) + rng.normal(scale=0.8, size=n) > 0, 1.0, -1.0)
    return X, y


@pytest.mark.parametrize("sparse", [False, True])
def test_without_a_penalty_the_sgd_sweeps_are_the_textbook_sweeps(sparse):
    X, y = _noisy(0)
    if sparse:
        X[np.abs(X) < 0.7] = 0.0
        X = sp.csr_matrix(X)
    options = dict(eta=0.5, margin=0.0, fit_intercept=not sparse, n_jobs=1)
    engines = [
        CompiledEngine(X, y, **options),
        CompiledEngine(X, y, track_loss=True, **options),
        SGDEngine(X, y, **options),
    ]
    for engine in engines:
        drive(
            engine,
            max_sweeps=7,
            permutations=sgd_permutations(X.shape[0], 12345),
            stop_when_clean=False,
            record_errors=False,
        )
    first_w, first_b = engines[0].snapshot()
    for engine in engines[1:]:
        w, b = engine.snapshot()
        assert w.tobytes() == first_w.tobytes() and b == first_b
        assert np.array_equal(engine.indices, engines[0].indices)
    assert engines[0].n_updates > 0


def test_the_driver_visits_the_rows_in_the_permutations_it_is_given():
    X, y = _noisy(1, n=12)
    orders = [np.roll(np.arange(12), k) for k in range(3)]
    engine = CompiledEngine(X, y, eta=1.0, margin=0.0, fit_intercept=True, n_jobs=1)
    drive(engine, max_sweeps=3, permutations=iter(orders), stop_when_clean=False)
    w, b = np.zeros(X.shape[1]), 0.0
    for order in orders:  # brute force, row by row in the given order
        for i in order:
            if y[i] * (X[i] @ w + b) <= 0:
                w, b = w + y[i] * X[i], b + y[i]
    assert np.allclose(engine.w, w) and engine.b == b
    with pytest.raises(ValueError, match="permutations replace the order"):
        drive(engine, order="shuffle", max_sweeps=1, permutations=iter(orders))


def test_l2_keeps_a_scale_and_shrinks_before_every_row():
    """Brute force of scikit-learn's WeightVector for l2 on one sweep, with its scale."""
    X, y = _noisy(2, n=30, d=3)
    eta, alpha = 0.5, 0.01
    engine = SGDEngine(
        X, y, penalty="l2", alpha=alpha, eta=eta, margin=0.0, fit_intercept=True, n_jobs=1
    )
    engine.sweep(None, 1)
    v, scale, b = np.zeros(3), 1.0, 0.0
    for i in range(X.shape[0]):
        p = (v @ X[i]) * scale + b
        c = eta * y[i] if y[i] * p <= 0 else 0.0
        scale *= max(0.0, 1.0 - eta * alpha)
        if c:
            v, b = v + X[i] * (c / scale), b + c
    w, intercept = engine.snapshot()
    assert np.allclose(w, v * scale, rtol=1e-12) and intercept == pytest.approx(b)
    assert engine.state[0] == pytest.approx(scale)


def test_float32_weights_stay_float32():
    X, y = _noisy(3)
    engine = SGDEngine(
        X.astype(np.float32), y, single=True, eta=1.0, margin=0.0, fit_intercept=True, n_jobs=1
    )
    engine.sweep(None, 1)
    w, _ = engine.snapshot()
    assert w.dtype == np.float32 and engine.n_updates > 0
