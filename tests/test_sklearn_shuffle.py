"""Oracle: ``shuffle=True`` visits the rows in scikit-learn's own permutations.

scikit-learn's ``Perceptron(shuffle=True, random_state=r)`` draws its run's seed from ``r`` and
shuffles its dataset's index with its own generator before every epoch; perceptronlab's
``Perceptron(shuffle=True, random_state=r)`` must give the same ``coef_``, ``intercept_``,
``n_iter_`` and ``t_`` bit for bit, on scikit-learn's bundled datasets, binary and one-vs-rest,
dense and CSR, with sample and class weights, the stopping rule, early stopping, warm starts and
partial fits. scikit-learn computes every expected number here.
"""

from __future__ import annotations

import warnings

import numpy as np
import pytest
import scipy.sparse as sp
from sklearn.datasets import load_breast_cancer, load_digits, load_iris, load_wine
from sklearn.linear_model import Perceptron as SkPerceptron
from sklearn.utils._seq_dataset import ArrayDataset64

from perceptronlab import Perceptron
from perceptronlab.core.sgd import sgd_permutations

LOADERS = {
    "iris": load_iris,
    "digits": load_digits,
    "breast cancer": load_breast_cancer,
    "wine": load_wine,
}


@pytest.fixture(scope="module", params=list(LOADERS))
def dataset(request):
    X, y = LOADERS[request.param](return_X_y=True)
    return X, y


def _theirs(**options):
    return SkPerceptron(shuffle=True, alpha=0.0, penalty=None, **{"tol": None, **options})


def _fit(estimator, X, y, **fit):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # both warn alike when max_iter is reached
        return estimator.fit(X, y, **fit)


def _assert_same(ours, theirs):
    assert ours.coef_.tobytes() == theirs.coef_.tobytes(), np.max(np.abs(ours.coef_ - theirs.coef_))
    assert ours.intercept_.tobytes() == theirs.intercept_.tobytes()
    assert ours.n_iter_ == theirs.n_iter_ and ours.t_ == theirs.t_


@pytest.mark.parametrize(("n", "seed"), [(2, 0), (7, 1), (150, 123456789), (1000, 2**31 - 2)])
def test_the_permutations_are_scikit_learns_datasets_shuffles(n, seed):
    """Epoch after epoch, the order is the one scikit-learn's SequentialDataset visits."""
    X = np.arange(n, dtype=np.float64).reshape(n, 1)
    dataset = ArrayDataset64(X, np.zeros(n), np.ones(n), seed=1)
    ours = sgd_permutations(n, seed)
    for _ in range(4):
        dataset._shuffle_py(seed)
        visited = [int(dataset._next_py()[3]) for _ in range(n)]  # (x, y, weight, row index)
        assert next(ours).tolist() == visited


@pytest.mark.parametrize("binary", [False, True])
@pytest.mark.parametrize(
    "options",
    [
        dict(max_iter=15),
        dict(tol=1e-3, max_iter=40),
        dict(tol=1e-3, early_stopping=True, max_iter=40),
        dict(class_weight="balanced", tol=1e-4, max_iter=40),
    ],
    ids=["max_iter", "tol", "early_stopping", "class_weight"],
)
def test_shuffled_fit_equals_scikit_learn(dataset, binary, options):
    X, y = dataset
    y = (y == 1).astype(int) if binary else y
    sample_weight = np.random.default_rng(0).uniform(0.0, 2.0, size=y.shape[0])
    for fit in ({}, {"sample_weight": sample_weight}):
        theirs = _fit(_theirs(random_state=7, **options), X, y, **fit)
        ours = _fit(
            Perceptron(shuffle=True, random_state=7, **{"tol": None, **options}), X, y, **fit
        )
        _assert_same(ours, theirs)


def test_order_shuffle_is_the_same_request():
    X, y = load_iris(return_X_y=True)
    one = _fit(Perceptron(shuffle=True, tol=None, random_state=3, max_iter=9), X, y)
    two = _fit(Perceptron(order="shuffle", tol=None, random_state=3, max_iter=9), X, y)
    assert one.coef_.tobytes() == two.coef_.tobytes() and one.run_[0].params["order"] == "shuffle"


def test_a_numpy_random_state_is_drawn_from_as_scikit_learn_draws(dataset):
    X, y = dataset
    for labels in (y, (y == 1).astype(int)):
        theirs_state, our_state = np.random.RandomState(11), np.random.RandomState(11)
        for _ in range(2):  # the second fit goes on with the generator where the first left it
            theirs = _fit(_theirs(random_state=theirs_state, max_iter=5), X, labels)
            ours = _fit(
                Perceptron(shuffle=True, tol=None, random_state=our_state, max_iter=5), X, labels
            )
            _assert_same(ours, theirs)
        assert theirs_state.randint(1000) == our_state.randint(1000)


def test_csr_without_intercept(dataset):
    X, y = dataset
    X = sp.csr_matrix(np.where(X > np.median(X, axis=0), X, 0.0))
    theirs = _fit(_theirs(random_state=1, max_iter=12, fit_intercept=False), X, y)
    ours = _fit(
        Perceptron(shuffle=True, tol=None, random_state=1, max_iter=12, fit_intercept=False), X, y
    )
    _assert_same(ours, theirs)


def test_warm_start_and_partial_fit(dataset):
    X, y = dataset
    theirs = _theirs(random_state=2, tol=1e-3, warm_start=True, max_iter=6)
    ours = Perceptron(shuffle=True, random_state=2, tol=1e-3, warm_start=True, max_iter=6)
    for _ in range(2):
        _assert_same(_fit(ours, X, y), _fit(theirs, X, y))
    theirs, ours = _theirs(random_state=5), Perceptron(shuffle=True, tol=None, random_state=5)
    for part in np.array_split(np.arange(y.shape[0]), 3):
        theirs.partial_fit(X[part], y[part], classes=np.unique(y))
        ours.partial_fit(X[part], y[part], classes=np.unique(y))
        assert ours.coef_.tobytes() == theirs.coef_.tobytes() and ours.t_ == theirs.t_


def test_shuffle_refuses_the_random_mistake_order():
    with pytest.raises(ValueError, match="shuffle.*random-mistake"):
        Perceptron(shuffle=True, order="random-mistake").fit([[1.0], [-1.0]], [0, 1])
