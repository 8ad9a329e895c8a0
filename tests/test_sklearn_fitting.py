"""Oracle: scikit-learn's fitting options on perceptronlab.Perceptron, against scikit-learn itself.

scikit-learn's ``Perceptron(shuffle=False, alpha=0, penalty=None)`` with the same options must give
the same weights (the same bits), the same ``n_iter_`` and ``t_``, on its own bundled datasets
(iris, digits, breast cancer, wine), binary and one-vs-rest, dense and CSR: sample and class
weights, start weights, warm starts, partial fits, and the stopping rule of ``tol`` with and
without ``early_stopping``. No number here is copied by hand: scikit-learn computes every one.
"""

from __future__ import annotations

import warnings

import numpy as np
import pytest
import scipy.sparse as sp
from sklearn.datasets import load_breast_cancer, load_digits, load_iris, load_wine
from sklearn.exceptions import ConvergenceWarning
from sklearn.linear_model import Perceptron as SkPerceptron

import perceptronlab
from perceptronlab import Perceptron

LOADERS = {
    "iris": load_iris,
    "digits": load_digits,
    "breast cancer": load_breast_cancer,
    "wine": load_wine,
}


@pytest.fixture(scope="module", params=list(LOADERS))
def dataset(request):
    X, y = LOADERS[request.param](return_X_y=True)
    return request.param, X, y


def _binary(X, y):
    """The two largest classes of a multiclass set (or the set itself)."""
    top = np.argsort(np.bincount(y))[-2:]
    keep = np.isin(y, top)
    return X[keep], y[keep]


def _sparse(X):
    """CSR of X with the entries near their column's mean made 0 (digits is sparse already)."""
    centered = np.abs(X - X.mean(axis=0)) < 0.5 * X.std(axis=0)
    return sp.csr_matrix(np.where(centered, 0.0, X))


def _pair(**options):
    """(scikit-learn's, ours) with the same options; scikit-learn's fixed to the perceptron's rule."""
    theirs = SkPerceptron(shuffle=False, alpha=0.0, penalty=None, **{"tol": None, **options})
    return theirs, Perceptron(**{"shuffle": False, "tol": None, **options})


def _fit_both(theirs, ours, X, y, **fit):
    copies = {
        k: (v.copy() if isinstance(v, np.ndarray) else v) for k, v in fit.items()
    }  # scikit-learn
    with warnings.catch_warnings(record=True) as sk_caught:  # writes into coef_init
        warnings.simplefilter("always")
        theirs.fit(X, y, **copies)
    with warnings.catch_warnings(record=True) as our_caught:
        warnings.simplefilter("always")
        ours.fit(X, y, **fit)
    return (
        [w for w in sk_caught if issubclass(w.category, ConvergenceWarning)],
        [w for w in our_caught if issubclass(w.category, ConvergenceWarning)],
    )


def _assert_same(ours, theirs):
    assert ours.coef_.shape == theirs.coef_.shape
    assert ours.coef_.tobytes() == theirs.coef_.astype(np.float64).tobytes(), np.max(
        np.abs(ours.coef_ - theirs.coef_)
    )
    assert ours.intercept_.tobytes() == theirs.intercept_.astype(np.float64).tobytes()
    assert np.array_equal(ours.classes_, theirs.classes_)
    if ours.tol is None and np.all(ours.converged_):
        # tol=None: the perceptron stops at its clean sweep(s), scikit-learn runs on to max_iter;
        # its later epochs change nothing (the same bits above), and n_iter_ counts the sweeps run
        assert ours.n_iter_ < theirs.n_iter_ == theirs.max_iter or ours.n_iter_ == theirs.n_iter_
        assert ours.t_ == 1 + ours.n_iter_ * (theirs.t_ - 1) / theirs.n_iter_
    else:
        assert ours.n_iter_ == theirs.n_iter_
        assert ours.t_ == theirs.t_


# ---------------------------------------------------------------- weights


def test_sample_weight(dataset):
    _, X, y = dataset
    problems = [_binary(X, y)] + (
        [(X, y)] if np.unique(y).shape[0] > 2 else []
    )  # binary, one-vs-rest
    for Xk, yk in problems:
        weights = np.random.default_rng(0).uniform(0.0, 3.0, size=yk.shape[0])
        weights[::7] = 0.0  # a zero weight: the example is never updated on
        theirs, ours = _pair(max_iter=6)
        _fit_both(theirs, ours, Xk, yk, sample_weight=weights)
        _assert_same(ours, theirs)
        assert np.all(np.asarray(ours.n_mistakes_) > 0)
        assert not set(np.concatenate([r.mistake_indices for r in np.atleast_1d(ours.run_)])) & set(
            range(0, yk.shape[0], 7)
        )


@pytest.mark.parametrize("class_weight", ["balanced", "dict"])
def test_class_weight(dataset, class_weight):
    _, X, y = dataset
    classes = np.unique(y)
    if class_weight == "dict":
        class_weight = {c: 0.5 + k for k, c in enumerate(classes)}
    weights = np.random.default_rng(1).uniform(0.5, 1.5, size=y.shape[0])
    theirs, ours = _pair(max_iter=5, class_weight=class_weight)
    _fit_both(
        theirs, ours, X, y, sample_weight=weights
    )  # times each sample's weight, as scikit-learn
    _assert_same(ours, theirs)


def test_start_weights(dataset):
    _, X, y = dataset
    rows = 1 if np.unique(y).shape[0] == 2 else np.unique(y).shape[0]
    rng = np.random.default_rng(2)
    coef, intercept = rng.normal(size=(rows, X.shape[1])), rng.normal(size=rows)
    theirs, ours = _pair(max_iter=4)
    _fit_both(theirs, ours, X, y, coef_init=coef, intercept_init=intercept)
    _assert_same(ours, theirs)
    assert np.array_equal(
        coef, np.random.default_rng(2).normal(size=(rows, X.shape[1]))
    )  # not written into


def test_warm_start(dataset):
    _, X, y = dataset
    theirs, ours = _pair(max_iter=2, warm_start=True)
    for _ in range(3):
        _fit_both(theirs, ours, X, y)
        _assert_same(ours, theirs)


def test_partial_fit_in_batches(dataset):
    _, X, y = dataset
    classes = np.unique(y)
    theirs, ours = _pair(class_weight={classes[0]: 2.0})
    rng = np.random.default_rng(3)
    for start in range(0, y.shape[0], 97):
        batch = slice(start, start + 97)
        weights = rng.uniform(0.0, 2.0, size=y[batch].shape[0])
        theirs.partial_fit(X[batch], y[batch], classes=classes, sample_weight=weights)
        ours.partial_fit(X[batch], y[batch], classes=classes, sample_weight=weights)
        _assert_same(ours, theirs)
    batches = len(range(0, y.shape[0], 97))
    assert ours.n_iter_ == 1 and np.all(
        np.asarray(ours.n_sweeps_) == batches
    )  # one sweep a batch, summed


def test_partial_fit_after_fit_goes_on_from_the_fit(dataset):
    _, X, y = dataset
    theirs, ours = _pair(max_iter=3)
    _fit_both(theirs, ours, X, y)
    theirs.partial_fit(X[::2], y[::2])
    ours.partial_fit(X[::2], y[::2])
    _assert_same(ours, theirs)


# ---------------------------------------------------------------- the stopping rule


@pytest.mark.parametrize(("tol", "n_iter_no_change"), [(1e-3, 5), (0.0, 2), (1e-1, 3)])
def test_tol_stops_on_the_training_loss(dataset, tol, n_iter_no_change):
    _, X, y = dataset
    theirs, ours = _pair(max_iter=60, tol=tol, n_iter_no_change=n_iter_no_change)
    sk_warned, we_warned = _fit_both(theirs, ours, X, y)
    _assert_same(ours, theirs)
    assert bool(sk_warned) == bool(we_warned) == (theirs.n_iter_ == 60)


@pytest.mark.parametrize(("validation_fraction", "random_state"), [(0.1, 0), (0.25, 7)])
def test_early_stopping_stops_on_the_held_out_accuracy(dataset, validation_fraction, random_state):
    _, X, y = dataset
    weights = np.random.default_rng(4).uniform(0.5, 2.0, size=y.shape[0])
    theirs, ours = _pair(
        max_iter=40,
        tol=1e-3,
        early_stopping=True,
        validation_fraction=validation_fraction,
        random_state=random_state,
        n_iter_no_change=3,
    )
    _fit_both(theirs, ours, X, y, sample_weight=weights)
    _assert_same(ours, theirs)
    assert ours.n_iter_ < 40  # the rule stopped it


def test_early_stopping_without_tol_holds_out_and_keeps_the_perceptrons_stop():
    X, y = load_breast_cancer(return_X_y=True)
    theirs, ours = _pair(max_iter=8, early_stopping=True, random_state=0)
    _fit_both(theirs, ours, X, y)
    _assert_same(ours, theirs)  # no clean sweep in 8 on this data: both run all 8 on the same rows
    assert ours.run_.data[0].shape[0] == X.shape[0] - round(0.1 * X.shape[0])


def test_the_stopping_rule_needs_whole_sweeps():
    X, y = load_iris(return_X_y=True)
    with pytest.raises(
        perceptronlab.InputError, match="order: expected 'cyclic' or 'shuffle' with tol"
    ):
        Perceptron(order="random-mistake", shuffle=False, tol=1e-3).fit(X, y)


# ---------------------------------------------------------------- sparse input


@pytest.mark.parametrize(
    "options",
    [dict(max_iter=5), dict(max_iter=50, tol=1e-3), dict(max_iter=5, class_weight="balanced")],
)
def test_csr_without_intercept_equals_scikit_learn(dataset, options):
    _, X, y = dataset
    Xs = _sparse(X)
    weights = np.random.default_rng(5).uniform(0.0, 2.0, size=y.shape[0])
    theirs, ours = _pair(fit_intercept=False, **options)
    _fit_both(theirs, ours, Xs, y, sample_weight=weights)
    _assert_same(ours, theirs)


def test_csr_with_intercept_is_the_dense_rule_not_scikit_learns_damped_one():
    # scikit-learn damps sparse intercept updates by 0.01 (its SparseSGD intercept_decay), so its
    # sparse and dense fits differ; here the rule does not depend on how X is stored.
    X, y = load_breast_cancer(return_X_y=True)
    Xs = _sparse(X)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        dense = Perceptron(shuffle=False, tol=None, max_iter=5).fit(Xs.toarray(), y)
        sparse = Perceptron(shuffle=False, tol=None, max_iter=5).fit(Xs, y)
    assert dense.coef_.tobytes() == sparse.coef_.tobytes() and dense.intercept_ == sparse.intercept_
    sk_dense, sk_sparse = _pair(max_iter=5)[0], _pair(max_iter=5)[0]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        sk_dense.fit(Xs.toarray(), y)
        sk_sparse.fit(Xs, y)
    assert sk_dense.coef_.tobytes() == dense.coef_.tobytes()
    assert sk_sparse.intercept_ != sk_dense.intercept_


# ---------------------------------------------------------------- warnings


def test_non_convergence_warnings_are_scikit_learns_convergence_warnings():
    X, y = load_iris(return_X_y=True)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        warnings.filterwarnings(
            "ignore", category=ConvergenceWarning
        )  # a scikit-learn user's filter
        Perceptron(shuffle=False, tol=None, max_iter=2).fit(
            X, y
        )  # no clean sweep in 2: NotConvergedWarning, filtered
        Perceptron(max_iter=3, tol=1e-9, n_iter_no_change=5).fit(X, y)
        perceptronlab.perceptron(
            [[0, 0], [1, 1], [1, 0], [0, 1]], [0, 0, 1, 1], fit_intercept=True
        )  # cycles
    assert issubclass(perceptronlab.NotConvergedWarning, ConvergenceWarning)
    assert issubclass(perceptronlab.CycledWarning, ConvergenceWarning)
    assert issubclass(perceptronlab.NotConvergedWarning, perceptronlab.PerceptronLabWarning)


def test_importing_perceptronlab_does_not_import_scikit_learn():
    import subprocess
    import sys

    code = (
        "import sys, perceptronlab, perceptronlab.exceptions, perceptronlab.core.perceptron\n"
        "print('sklearn' in sys.modules)"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert done.stdout.strip() == "False", done.stderr[-2000:]


# ---------------------------------------------------------------- bad input of the options


@pytest.mark.parametrize(
    ("fit", "match"),
    [
        (dict(sample_weight=[1.0, 2.0]), r"sample_weight: expected shape \(150,\)"),
        (
            dict(sample_weight=-np.ones(150)),
            "sample_weight: expected finite weights >= 0, got -1.0 at row 0",
        ),
        (
            dict(sample_weight=np.zeros(150)),
            "sample_weight: expected at least one weight > 0, got all zero",
        ),
        (dict(coef_init=np.zeros((2, 4))), r"coef_init: expected shape \(3, 4\)"),
        (dict(intercept_init=[1.0]), r"intercept_init: expected shape \(3,\)"),
    ],
)
def test_bad_fitting_options_are_explained(fit, match):
    X, y = load_iris(return_X_y=True)
    with pytest.raises(perceptronlab.InputError, match=match):
        Perceptron(shuffle=False, tol=None, max_iter=2).fit(X, y, **fit)


def test_bad_class_weights_and_partial_fit_misuse_are_explained():
    X, y = load_iris(return_X_y=True)
    with pytest.raises(
        perceptronlab.InputError, match="class_weight: expected a dict whose keys are among"
    ):
        Perceptron(shuffle=False, tol=None, class_weight={7: 2.0}, max_iter=2).fit(X, y)
    with pytest.raises(
        perceptronlab.InputError, match="classes: expected every class label .* got None"
    ):
        Perceptron(shuffle=False, tol=None).partial_fit(X, y)
    with pytest.raises(
        perceptronlab.InputError, match="early_stopping: expected False with partial_fit"
    ):
        Perceptron(shuffle=False, tol=None, early_stopping=True).partial_fit(
            X, y, classes=[0, 1, 2]
        )
    with pytest.raises(
        perceptronlab.InputError, match="class_weight: expected None or a dict with partial_fit"
    ):
        Perceptron(shuffle=False, tol=None, class_weight="balanced").partial_fit(
            X, y, classes=[0, 1, 2]
        )
    model = Perceptron(shuffle=False, tol=None).partial_fit(X[:100], y[:100], classes=[0, 1, 2])
    with pytest.raises(
        perceptronlab.InputError, match=r"y \(the labels\): expected labels among classes"
    ):
        model.partial_fit(X, np.where(y == 2, 9, y))
    with pytest.raises(perceptronlab.InputError, match="early_stopping: expected a validation set"):
        Perceptron(early_stopping=True, validation_fraction=0.01, tol=1e-3).fit(X[::8], y[::8])


# ---------------------------------------------------------------- n_jobs, verbose


def test_n_jobs_does_not_change_the_result():
    X, y = load_digits(return_X_y=True)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        runs = [
            Perceptron(shuffle=False, tol=None, max_iter=5, n_jobs=n).fit(X, y)
            for n in (1, 2, None)
        ]
        pockets = [
            perceptronlab.PocketPerceptron(max_iter=2, n_jobs=n, random_state=0).fit(
                X[:300], y[:300]
            )
            for n in (1, 2)
        ]
    assert runs[0].coef_.tobytes() == runs[1].coef_.tobytes() == runs[2].coef_.tobytes()
    assert pockets[0].coef_.tobytes() == pockets[1].coef_.tobytes()


def test_verbose_prints_a_line_per_sweep(capsys):
    X, y = load_breast_cancer(return_X_y=True)
    quiet = Perceptron(max_iter=4, tol=1e-3, n_iter_no_change=2)
    talking = Perceptron(max_iter=4, tol=1e-3, n_iter_no_change=2, verbose=1)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        quiet.fit(X, y)
        assert capsys.readouterr().out == ""
        talking.fit(X, y)
    out = capsys.readouterr().out.splitlines()
    assert out[0::2] == [f"-- Epoch {k}" for k in range(1, talking.n_iter_ + 1)]
    assert all(line.startswith("Norm: ") and "Avg. loss: " in line for line in out[1::2])
    assert talking.coef_.tobytes() == quiet.coef_.tobytes()  # talking changes nothing
