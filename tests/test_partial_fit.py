"""partial_fit and warm_start of the estimators without a scikit-learn counterpart: what going on
means for Pocket, the averaged and the multiclass perceptron, held against one longer run."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from sklearn.datasets import load_iris, load_wine
from sklearn.preprocessing import StandardScaler

import perceptronlab
from perceptronlab import AveragedPerceptron, MulticlassPerceptron, Perceptron, PocketPerceptron
from perceptronlab.exceptions import NotConvergedWarning


@pytest.fixture(scope="module")
def wine():
    X, y = load_wine(return_X_y=True)
    return StandardScaler().fit_transform(X), y


def _quiet(fit):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", NotConvergedWarning)
        return fit()


def _same(a, b):
    assert (
        a.coef_.tobytes() == b.coef_.tobytes() and a.intercept_.tobytes() == b.intercept_.tobytes()
    )


@pytest.mark.parametrize(
    "make",
    [
        lambda **k: Perceptron(shuffle=False, tol=None, **k),
        lambda **k: AveragedPerceptron(**k),
        lambda **k: MulticlassPerceptron(**k),
        lambda **k: MulticlassPerceptron(averaged=True, **k),
    ],
)
def test_batches_are_one_stream(wine, make):
    # cyclic order: partial_fit on the batches in turn is one sweep over the whole stream, so the
    # weights (and an average over every step) equal one sweep of fit, bit for bit
    X, y = wine
    batched = make()
    for start in range(0, y.shape[0], 50):
        batched.partial_fit(X[start : start + 50], y[start : start + 50], classes=np.unique(y))
    whole = _quiet(lambda: make(max_iter=1).fit(X, y))
    _same(batched, whole)
    assert np.array_equal(batched.n_mistakes_, whole.n_mistakes_)
    assert np.all(np.asarray(batched.n_sweeps_) == 4) and batched.n_iter_ == 1


@pytest.mark.parametrize(
    "make",
    [
        lambda **k: Perceptron(shuffle=False, tol=None, **k),
        lambda **k: AveragedPerceptron(**k),
        lambda **k: MulticlassPerceptron(averaged=True, **k),
        lambda **k: PocketPerceptron(order="cyclic", check="sweep", **k),
        lambda **k: PocketPerceptron(order="cyclic", check="update", **k),
    ],
)
def test_warm_start_and_partial_fit_go_on_where_the_run_ended(wine, make):
    # not separable in 5 sweeps: 2 + 2 (warm) + 1 (partial_fit) sweeps are one run of 5
    X, y = wine
    y = np.where(y == 1, 1, 0)
    X = X[:, :3]
    going_on = make(max_iter=2, warm_start=True)
    _quiet(lambda: going_on.fit(X, y))
    _quiet(lambda: going_on.fit(X, y))
    going_on.partial_fit(X, y)
    at_once = _quiet(lambda: make(max_iter=5).fit(X, y))
    assert not np.any(at_once.converged_)
    _same(going_on, at_once)
    if hasattr(at_once, "last_coef_"):
        assert going_on.last_coef_.tobytes() == at_once.last_coef_.tobytes()
    if hasattr(at_once, "pocket_errors_"):
        assert going_on.pocket_errors_ == at_once.pocket_errors_


def test_warm_start_off_starts_over(wine):
    X, y = wine
    model = _quiet(lambda: AveragedPerceptron(max_iter=2).fit(X, y))
    first = model.coef_.copy()
    _quiet(lambda: model.fit(X, y))
    assert np.array_equal(model.coef_, first)


def test_a_pockets_batch_keeps_the_better_of_its_pocket_and_this_sweep():
    X, y = load_iris(return_X_y=True)
    order = np.random.default_rng(0).permutation(y.shape[0])
    X, y = X[order, :2], np.where(y[order] == 2, 1, 0)  # noisy
    model = PocketPerceptron(random_state=0, max_iter=10).fit(X[:75], y[:75])
    kept = model.coef_.copy(), model.intercept_.copy()
    errors_before = int(
        np.sum(np.where(y[75:] == 1, 1, -1) * (X[75:] @ kept[0][0] + kept[1][0]) <= 0)
    )
    model.partial_fit(X[75:], y[75:])
    errors_after = int(
        np.sum(np.where(y[75:] == 1, 1, -1) * (X[75:] @ model.coef_[0] + model.intercept_[0]) <= 0)
    )
    assert model.pocket_errors_ == errors_after <= errors_before


def test_warm_start_needs_the_same_classes(wine):
    X, y = wine
    model = _quiet(lambda: MulticlassPerceptron(max_iter=2, warm_start=True).fit(X, y))
    with pytest.raises(
        perceptronlab.InputError,
        match=r"expected the classes of the fit that warm_start goes on from",
    ):
        model.fit(X[y < 2], y[y < 2])
