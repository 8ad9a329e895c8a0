"""Oracle: scikit-learn's penalties (l2, l1, elasticnet) and its float32 path, bit for bit.

``Perceptron(penalty=p, alpha=a, l1_ratio=r)`` runs scikit-learn's regularised SGD step (its
weight scale for l2, its cumulative truncated gradient for l1) and, on float32 input, its float32
loop; ``coef_``, ``intercept_`` (and their dtypes), ``n_iter_`` and ``t_`` must equal scikit-learn's
on its bundled datasets, in data order and shuffled, with the stopping rule, early stopping, sample
and class weights, warm starts and partial fits. scikit-learn computes every expected number.
"""

from __future__ import annotations

import warnings

import numpy as np
import pytest
import scipy.sparse as sp
from sklearn.datasets import load_breast_cancer, load_digits, load_iris, load_wine
from sklearn.linear_model import Perceptron as SkPerceptron

from perceptronlab import Perceptron

LOADERS = {
    "iris": load_iris,
    "digits": load_digits,
    "breast cancer": load_breast_cancer,
    "wine": load_wine,
}
PENALTIES = ["l2", "l1", "elasticnet"]


@pytest.fixture(scope="module", params=list(LOADERS))
def dataset(request):
    X, y = LOADERS[request.param](return_X_y=True)
    return X, y


def _fit(estimator, X, y, **fit):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return estimator.fit(X, y, **fit)


def _assert_same(ours, theirs):
    assert (
        ours.coef_.dtype == theirs.coef_.dtype and ours.intercept_.dtype == theirs.intercept_.dtype
    )
    assert ours.coef_.tobytes() == theirs.coef_.tobytes(), np.max(np.abs(ours.coef_ - theirs.coef_))
    assert ours.intercept_.tobytes() == theirs.intercept_.tobytes()
    assert ours.n_iter_ == theirs.n_iter_ and ours.t_ == theirs.t_


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
@pytest.mark.parametrize("penalty", PENALTIES)
def test_penalties_equal_scikit_learn(dataset, dtype, penalty):
    X, y = dataset
    X = X.astype(dtype)
    for labels in (y, (y == 1).astype(int)):
        for options in (
            dict(tol=None, max_iter=8, shuffle=False),
            dict(tol=1e-3, max_iter=30, shuffle=True, random_state=4),
        ):
            options = dict(options, penalty=penalty, alpha=0.0005, l1_ratio=0.3)
            _assert_same(
                _fit(Perceptron(**options), X, labels), _fit(SkPerceptron(**options), X, labels)
            )


@pytest.mark.parametrize("penalty", [*PENALTIES, None])
def test_with_weights_and_early_stopping(dataset, penalty):
    X, y = dataset
    sample_weight = np.random.default_rng(0).uniform(0.0, 2.0, size=y.shape[0])
    options = dict(
        penalty=penalty,
        alpha=0.001,
        tol=1e-3,
        max_iter=30,
        early_stopping=True,
        class_weight="balanced",
        shuffle=True,
        random_state=3,
    )
    for dtype in (np.float64, np.float32):
        ours = _fit(Perceptron(**options), X.astype(dtype), y, sample_weight=sample_weight)
        _assert_same(
            ours, _fit(SkPerceptron(**options), X.astype(dtype), y, sample_weight=sample_weight)
        )


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_csr_without_intercept(dataset, dtype):
    X, y = dataset
    X = sp.csr_matrix(np.where(X > np.median(X, axis=0), X, 0.0).astype(dtype))
    for penalty in PENALTIES:
        options = dict(
            penalty=penalty,
            alpha=0.001,
            fit_intercept=False,
            max_iter=10,
            tol=None,
            shuffle=True,
            random_state=0,
        )
        _assert_same(_fit(Perceptron(**options), X, y), _fit(SkPerceptron(**options), X, y))


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_warm_start_and_partial_fit(dataset, dtype):
    X, y = dataset
    X = X.astype(dtype)
    options = dict(
        penalty="l1",
        alpha=0.001,
        warm_start=True,
        max_iter=5,
        tol=None,
        shuffle=True,
        random_state=0,
    )
    ours, theirs = Perceptron(**options), SkPerceptron(**options)
    for _ in range(2):
        _assert_same(_fit(ours, X, y), _fit(theirs, X, y))
    options = dict(penalty="elasticnet", alpha=0.001, shuffle=True, tol=None, random_state=0)
    ours, theirs = Perceptron(**options), SkPerceptron(**options)
    for part in np.array_split(np.arange(y.shape[0]), 3):
        ours.partial_fit(X[part], y[part], classes=np.unique(y))
        theirs.partial_fit(X[part], y[part], classes=np.unique(y))
        assert ours.coef_.tobytes() == theirs.coef_.tobytes() and ours.t_ == theirs.t_


def test_float32_without_penalty_keeps_the_textbook_stop():
    """float32 in, float32 out; with tol=None the run still stops at its clean sweep (the later
    epochs of scikit-learn's change nothing)."""
    X, y = load_iris(return_X_y=True)
    X, y = X[y != 2].astype(np.float32), y[y != 2]
    ours = _fit(Perceptron(shuffle=False, tol=None, max_iter=50), X, y)
    theirs = _fit(SkPerceptron(max_iter=50, tol=None, shuffle=False, penalty=None), X, y)
    assert ours.coef_.dtype == np.float32 and ours.coef_.tobytes() == theirs.coef_.tobytes()
    assert ours.converged_ and ours.n_iter_ < theirs.n_iter_
    assert ours.predict(X).tolist() == theirs.predict(X).tolist()


def test_penalty_none_is_the_textbook_rule():
    X, y = load_wine(return_X_y=True)
    plain = _fit(Perceptron(shuffle=False, tol=None, max_iter=20), X, y)
    again = _fit(
        Perceptron(shuffle=False, tol=None, max_iter=20, penalty=None, alpha=5.0, l1_ratio=1.0),
        X,
        y,
    )
    assert (
        plain.coef_.tobytes() == again.coef_.tobytes()
    )  # alpha and l1_ratio act only with a penalty
