"""The per-update log within its memory budget: counts stay exact, the arrays keep the first updates,
and what needs every update says so (a small budget set in each test)."""

from __future__ import annotations

import math

import numpy as np
import pytest

from perceptronlab import (
    InputError,
    averaged_perceptron,
    kernel_perceptron,
    loo_error,
    multiclass_perceptron,
    perceptron,
    plots,
    pocket,
    voted_perceptron,
)
from perceptronlab.core import driver
from perceptronlab.core.driver import UpdateLog
from perceptronlab.studies.report import build_report


def noisy(seed=0, n=60, d=3, flip=0.2):
    rng = np.random.default_rng(seed)
    X = rng.integers(-4, 5, size=(n, d)).astype(np.float64)
    y = np.where(X @ rng.normal(size=d) > 0, 1, -1)
    y[rng.random(n) < flip] *= -1
    return X, y


def separable(seed=0, n=40, d=3):
    rng = np.random.default_rng(seed)
    X = rng.integers(-4, 5, size=(n, d)).astype(np.float64)
    w = rng.normal(size=d)
    keep = np.abs(X @ w) > 0.5
    return X[keep], np.where(X[keep] @ w > 0, 1, -1)


@pytest.fixture
def budget(monkeypatch):
    """Set the log's budget in bytes (16 an update) for the engines made after the call."""

    def set_to(n_bytes):
        monkeypatch.setattr(driver, "LOG_BUDGET_BYTES", n_bytes)

    return set_to


def test_the_log_keeps_the_first_updates_and_counts_them_all():
    log = UpdateLog()
    log.start_log(4, budget_bytes=5 * 16)
    log._idx_buf[:3], log._norm_buf[:3] = [0, 2, 0], [1.0, 2.0, 3.0]
    log.log_sweep(3)
    for i, norm in [(1, 4.0), (2, 5.0), (0, 6.0)]:
        log.log_update(i, norm)
    log._idx_buf[:2], log._norm_buf[:2] = [3, 3], [7.0, 8.0]
    log.log_sweep(2)
    assert log.indices.tolist() == [0, 2, 0, 1, 2] and log.norms.tolist() == [
        1.0,
        2.0,
        3.0,
        4.0,
        5.0,
    ]
    assert log.n_updates == 8 and not log.log_complete
    assert log.mistake_set.tolist() == [True, True, True, True]
    whole = UpdateLog()
    whole.start_log(2, budget_bytes=math.inf)
    for _ in range(10):
        whole.log_update(1, 1.0)
    assert (
        whole.log_complete
        and whole.indices.tolist() == [1] * 10
        and whole.mistake_set.tolist() == [False, True]
    )


@pytest.mark.parametrize(
    "how",
    [
        dict(),
        dict(order="shuffle", seed=3),
        dict(fit_intercept=True),
        dict(exact=True),
        dict(trace=True),
        dict(order="random-mistake", seed=1),
    ],
)
def test_past_the_budget_a_run_is_the_same_run_with_the_first_updates_logged(budget, how):
    X, y = noisy()
    whole = perceptron(X, y, max_sweeps=30, warn=False, **how)
    assert whole.log_complete and whole.mistakes > 100
    budget(100 * 16)
    cut = perceptron(X, y, max_sweeps=30, warn=False, **how)
    assert not cut.log_complete
    assert cut.mistake_indices.tolist() == whole.mistake_indices[:100].tolist()
    assert cut.norms.tolist() == whole.norms[:100].tolist()
    assert cut.mistakes == whole.mistakes == int(whole.updates_per_sweep.sum())
    assert cut.updates_per_sweep.tolist() == whole.updates_per_sweep.tolist()
    assert cut.errors_after_sweep.tolist() == whole.errors_after_sweep.tolist()
    assert [str(v) for v in cut.w] == [str(v) for v in whole.w] and str(cut.b) == str(whole.b)
    assert cut.mistake_set.tolist() == np.isin(np.arange(len(y)), whole.mistake_indices).tolist()


@pytest.mark.parametrize("check", ["update", "sweep", "ratchet"])
def test_pocket_past_the_budget(budget, check):
    X, y = noisy(1)
    whole = pocket(X, y, check=check, seed=2, max_sweeps=20)
    budget(50 * 16)
    cut = pocket(X, y, check=check, seed=2, max_sweeps=20)
    assert not cut.log_complete and cut.mistakes == whole.mistakes > 50
    assert cut.mistake_indices.tolist() == whole.mistake_indices[:50].tolist()
    assert cut.w.tolist() == whole.w.tolist() and cut.pocket_errors == whole.pocket_errors


def test_within_the_budget_nothing_changes(budget):
    X, y = noisy(2)
    whole = perceptron(X, y, max_sweeps=10, warn=False)
    budget(whole.mistakes * 16)  # exactly enough
    same = perceptron(X, y, max_sweeps=10, warn=False)
    assert same.log_complete and same.mistake_indices.tolist() == whole.mistake_indices.tolist()


def test_the_squeeze_needs_every_update_and_says_so(budget):
    X, y = separable()
    budget(2 * 16)
    run = perceptron(X, y)
    assert run.converged and run.mistakes > 2 and not run.log_complete
    with pytest.raises(
        InputError,
        match=r"squeeze: run: expected a run whose log holds every update .* got a run "
        r"that logged the first 2 of its \d+ updates .*LOG_BUDGET_BYTES",
    ):
        plots.squeeze(run, 0.1, 5.0)


def test_the_report_says_why_it_has_no_squeeze(budget):
    X, y = separable(2, n=30, d=2)  # 6 mistakes
    budget(2 * 16)
    page = build_report(X, y)
    assert "The squeeze of Novikoff's proof needs ‖w_k‖ after every update" in page
    assert "logged the first 2" in page


@pytest.mark.parametrize("fit_intercept", [False, True])
def test_leave_one_out_needs_only_the_mistake_set(budget, fit_intercept):
    X, y = separable(3, n=30)
    whole = loo_error(X, y, fit_intercept=fit_intercept)
    for kept in (0, 1, 5):  # none, one, a few of the full run's updates logged
        budget(kept * 16)
        cut = loo_error(X, y, fit_intercept=fit_intercept)
        assert cut.indices.tolist() == whole.indices.tolist()
        assert cut.candidates.tolist() == whole.candidates.tolist()
        assert cut.mistakes == whole.mistakes


def hand_vote(X, y, *, sweeps, order="cyclic", seed=None, fit_intercept=False):
    """Every iterate with its survival count, by the rule in plain Python (integer data: exact): a
    mistake starts a vector, every other step adds 1 to the current one; the driver's permutations."""
    rng = np.random.default_rng(seed)
    w, b = np.zeros(X.shape[1]), 0.0
    vectors, intercepts, counts = [], [], []
    for _ in range(sweeps):
        clean = True
        for i in rng.permutation(len(y)) if order == "shuffle" else range(len(y)):
            if y[i] * (float(X[i] @ w) + b) <= 0:
                w, b = w + X[i] * float(y[i]), b + (float(y[i]) if fit_intercept else 0.0)
                vectors.append(w)
                intercepts.append(b)
                counts.append(1)
                clean = False
            else:
                counts[-1] += 1
        if clean:
            break
    return np.array(vectors), np.array(intercepts), np.array(counts)


@pytest.mark.parametrize("how", [dict(), dict(order="shuffle", seed=5, fit_intercept=True)])
@pytest.mark.parametrize("limit", [1, 7, 40])
def test_the_capped_vote_is_the_largest_counts_of_the_hand_vote_whatever_the_log_keeps(
    budget, how, limit
):
    X, y = noisy(4, n=25)
    vectors, intercepts, counts = hand_vote(X, y, sweeps=12, **how)
    ranked = sorted(range(len(counts)), key=lambda k: (counts[k], k))  # ties: the later vector
    kept = sorted(ranked[-limit:])
    budget(3 * 16)
    run = voted_perceptron(X, y, max_sweeps=12, max_vectors=limit, warn=False, **how)
    assert not run.log_complete and run.mistake_steps.shape[0] == 3
    assert run.vectors.tobytes() == vectors[kept].tobytes()
    assert run.intercepts.tobytes() == intercepts[kept].tobytes()
    assert run.counts.tolist() == counts[kept].tolist()
    assert run.dropped_vectors == len(counts) - len(kept)
    assert run.dropped_votes == int(counts.sum() - counts[kept].sum())


def test_an_uncapped_vote_past_the_budget_asks_for_max_vectors(budget):
    X, y = noisy(5)
    budget(20 * (3 + 2) * 8)  # room for 20 vectors of 3 weights (and an intercept and a count each)
    with pytest.raises(
        InputError,
        match=r"max_vectors: expected a vote that fits the memory budget .* got None, "
        r"and the run has made more than \d+ vectors of 3 weights\. Pass max_vectors",
    ):
        voted_perceptron(X, y, max_sweeps=20, warn=False)
    assert voted_perceptron(X, y, max_sweeps=20, max_vectors=20, warn=False).vectors.shape[0] == 20


def test_the_family_past_the_budget(budget):
    X, y = noisy(6)
    whole = averaged_perceptron(X, y, max_sweeps=15, warn=False)
    kernel = kernel_perceptron(X, y, kernel="linear", variant="averaged", max_sweeps=15, warn=False)
    labels = np.digitize(X[:, 0], [-1.5, 1.5])
    multi = multiclass_perceptron(X, labels, max_sweeps=15, warn=False)
    budget(10 * 16)
    cut = averaged_perceptron(X, y, max_sweeps=15, warn=False)
    assert not cut.log_complete and cut.mistakes == whole.mistakes
    assert (
        cut.w.tobytes() == whole.w.tobytes()
        and cut.mistake_indices.tolist() == whole.mistake_indices[:10].tolist()
    )
    # the kernel perceptron's entries are its hypothesis: its log is whole, its prediction the same
    kept = kernel_perceptron(X, y, kernel="linear", variant="averaged", max_sweeps=15, warn=False)
    assert kept.log_complete and kept.entries.tolist() == kernel.entries.tolist()
    assert kept.decision_function(X).tobytes() == kernel.decision_function(X).tobytes()
    cut_multi = multiclass_perceptron(X, labels, max_sweeps=15, warn=False)
    assert not cut_multi.log_complete and cut_multi.mistakes == multi.mistakes
    assert cut_multi.mistake_indices.tolist() == multi.mistake_indices[:10].tolist()
    assert cut_multi.w.tobytes() == multi.w.tobytes()
