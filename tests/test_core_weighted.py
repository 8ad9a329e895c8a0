"""The weighted sweeps (scikit-learn's sample and class weights, the hinge loss of tol) and their
NumPy twin: the compiled CompiledEngine with per-row factors and the ReferenceEngine give the same bits."""

from __future__ import annotations

import numpy as np
import pytest
import scipy.sparse as sp

from perceptronlab.core.driver import drive, finish
from perceptronlab.core.engines import CompiledEngine
from perceptronlab.core.reference import ReferenceEngine


def _problem(seed, n=60, d=5, sparse=False):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, d))
    y = np.where(X @ rng.normal(size=d) + rng.normal(scale=1.0, size=n) > 0, 1.0, -1.0)  # noisy
    scale = rng.uniform(0.0, 3.0, size=n)
    scale[rng.integers(0, n, size=n // 6)] = 0.0
    if sparse:
        X[np.abs(X) < 0.6] = 0.0
        X = sp.csr_matrix(X)
    return X, y, scale


def _sweeps(engine, order, sweeps=6, seed=3):
    rng = np.random.default_rng(seed)
    losses = []
    for sweep in range(1, sweeps + 1):
        engine.sweep(None if order == "cyclic" else rng.permutation(engine.n), sweep)
        losses.append(engine.sweep_loss)
    return losses


@pytest.mark.parametrize("sparse", [False, True])
@pytest.mark.parametrize("order", ["cyclic", "shuffle"])
@pytest.mark.parametrize("fit_intercept", [False, True])
def test_compiled_weighted_sweeps_equal_the_numpy_twin(sparse, order, fit_intercept):
    X, y, scale = _problem(1, sparse=sparse)
    w0, b0 = np.random.default_rng(9).normal(size=X.shape[1]), 0.25
    options = dict(eta=0.7, margin=0.1, fit_intercept=fit_intercept, w0=w0, b0=b0)
    compiled = CompiledEngine(X, y, track_loss=True, scale=scale, n_jobs=1, **options)
    twin = ReferenceEngine(X, y, scale=scale, **options)
    assert _sweeps(compiled, order) == _sweeps(twin, order)  # the loss of every sweep, same bits
    assert compiled.w.tobytes() == twin.w.tobytes() and compiled.b == twin.b
    assert np.array_equal(compiled.indices, twin.indices)
    assert not set(compiled.indices) & set(
        np.flatnonzero(scale == 0.0)
    )  # a zero weight never updates
    assert compiled.indices.shape[0] > 0


def test_the_update_is_eta_y_times_the_scale_and_the_loss_is_the_hinge():
    X = np.array([[1.0, 0.0], [0.0, 2.0], [1.0, 1.0]])
    y = np.array([1.0, -1.0, 1.0])
    engine = CompiledEngine(
        X,
        y,
        track_loss=True,
        scale=np.array([2.0, 0.5, 0.0]),
        eta=0.5,
        margin=0.0,
        fit_intercept=True,
    )
    assert engine.sweep(None, 1) == 2
    # row 0: tie, c = (0.5·1)·2 = 1; row 1: score 1·0 + 1 = 1, y·s = -1, c = (0.5·-1)·0.5 = -0.25;
    # row 2: score 1 - 0.5 + 0.75 > 0, no mistake
    assert engine.w.tolist() == [1.0, -0.5] and engine.b == 0.75
    assert engine.sweep_loss == 0.0 + 1.0 and engine.update_margins.tolist() == [0.0, -1.0]


@pytest.mark.parametrize("sparse", [False, True])
def test_scales_of_one_give_the_plain_sweeps_bits(sparse):
    X, y, _ = _problem(2, n=300, d=9, sparse=sparse)
    plain = CompiledEngine(X, y, eta=1.3, margin=0.0, fit_intercept=True)
    weighted = CompiledEngine(X, y, track_loss=True, eta=1.3, margin=0.0, fit_intercept=True)
    for sweep in range(1, 6):
        assert plain.sweep(None, sweep) == weighted.sweep(None, sweep)
    assert plain.w.tobytes() == weighted.w.tobytes() and plain.b == weighted.b
    assert np.array_equal(plain.indices, weighted.indices) and np.array_equal(
        plain.norms, weighted.norms
    )


def test_random_mistake_order_never_picks_a_zero_weight():
    X, y, scale = _problem(3, n=30, d=3)
    engine = CompiledEngine(
        X, y, track_loss=True, scale=scale, eta=1.0, margin=0.0, fit_intercept=True
    )
    twin = ReferenceEngine(X, y, scale=scale, eta=1.0, margin=0.0, fit_intercept=True)
    runs = []
    for each in (engine, twin):
        outcome = drive(each, order="random-mistake", max_sweeps=4, seed=5)
        runs.append(
            finish(
                each,
                outcome,
                algorithm="perceptron",
                params={},
                X=X,
                signs=y,
                classes=np.array([-1, 1]),
            )
        )
    assert np.array_equal(runs[0].mistake_indices, runs[1].mistake_indices)
    assert runs[0].w.tobytes() == runs[1].w.tobytes()
    assert not set(runs[0].mistake_indices) & set(np.flatnonzero(scale == 0.0))


def test_without_stopping_at_a_clean_sweep_the_driver_runs_to_the_limit():
    X = np.array([[1.0, 0.0], [0.0, 1.0]])
    y = np.array([1.0, -1.0])
    engine = CompiledEngine(X, y, track_loss=True, eta=1.0, margin=0.0, fit_intercept=False)
    outcome = drive(engine, max_sweeps=5, stop_when_clean=False, cycles=False)
    assert (
        outcome.log.updates_per_sweep == [2, 0, 0, 0, 0]
        and outcome.converged
        and not outcome.stopped
    )
    stopped = drive(
        CompiledEngine(X, y, track_loss=True, eta=1.0, margin=0.0, fit_intercept=False),
        max_sweeps=5,
        stop_when_clean=False,
        cycles=False,
        on_sweep=lambda info: info.sweep == 3,
    )
    assert stopped.stopped and len(stopped.log.updates_per_sweep) == 3 and stopped.converged


def _row_by_row(X, y, scale, order, w, b, eta, margin, fit_intercept):
    """The weighted sweep written out in Python, one row at a time (the oracle of the grouped one):
    every score summed in feature order with the weights of that moment."""
    updates, norms, update_margins, loss = [], [], [], 0.0
    for i in order:
        s = 0.0
        for j in range(X.shape[1]):
            s += w[j] * X[i, j]
        s += b
        z = y[i] * s
        if z <= margin:
            loss += margin - z
            c = (eta * y[i]) * scale[i]
            if c != 0.0:
                q = [0.0, 0.0, 0.0, 0.0]  # ‖w‖² for the log, in the update's four chains
                for j in range(X.shape[1]):
                    w[j] = w[j] + X[i, j] * c
                    q[j % 4 if j < X.shape[1] - X.shape[1] % 4 else 0] += w[j] * w[j]
                sq = (q[0] + q[1]) + (q[2] + q[3])
                if fit_intercept:
                    b += c
                    sq += b * b
                updates.append(i)
                norms.append(np.sqrt(sq))
                update_margins.append(z)
    return updates, norms, update_margins, loss, b


@pytest.mark.parametrize("d", [13, 16])
@pytest.mark.parametrize("order", ["cyclic", "shuffle"])
def test_the_grouped_weighted_sweep_is_the_row_by_row_loop(d, order):
    """Rows are scored eight at a time; updates in the middle of a group, zero scales, a tail of
    columns past a multiple of four and a last partial group give the one-row loop's bits."""
    X, y, scale = _problem(4, n=203, d=d)
    rng = np.random.default_rng(11)
    w0 = rng.normal(size=d)
    engine = CompiledEngine(
        X, y, track_loss=True, scale=scale, eta=0.7, margin=0.1, fit_intercept=True, w0=w0, b0=0.3
    )
    w, b = w0.copy(), 0.3
    for sweep in range(1, 4):
        visit = rng.permutation(203) if order == "shuffle" else None
        count = engine.sweep(visit, sweep)
        rows = np.arange(203) if visit is None else visit
        updates, norms, update_margins, loss, b = _row_by_row(
            X, y, scale, rows, w, b, 0.7, 0.1, True
        )
        assert count == len(updates) > 0
        assert engine.indices[-count:].tolist() == updates
        assert engine.norms[-count:].tobytes() == np.array(norms).tobytes()
        assert engine.update_margins.tobytes() == np.array(update_margins).tobytes()
        assert engine.sweep_loss == loss and engine.b == b
        assert engine.w.tobytes() == w.tobytes()


def test_the_grouped_weighted_sweep_stops_at_the_first_bad_row_it_visits():
    X, y, scale = _problem(5, n=40, d=6)
    X[[9, 30], 2] = [np.inf, np.nan]
    engine = CompiledEngine(
        X, y, track_loss=True, scale=scale, eta=1.0, margin=0.0, fit_intercept=True
    )
    visit = np.r_[np.arange(20, 40), np.arange(20)]
    with pytest.raises(ValueError, match="nan at row 30, column 2"):
        engine.sweep(visit, 1)
