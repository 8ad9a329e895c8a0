"""perceptronlab.datasets: the seeds' data, checked against the seeds' own code and hand-worked numbers."""

from fractions import Fraction

import numpy as np
import pytest

import perceptronlab
from perceptronlab import datasets, perceptron
from perceptronlab.exceptions import InputError
from perceptronlab.theory.separability import separable


def test_datasets_has_one_public_home():
    assert perceptronlab.datasets is datasets
    for name in datasets.__all__:
        assert getattr(datasets, name).__module__ == "perceptronlab.teach._datasets"
    with pytest.raises(ImportError):
        __import__("perceptronlab.teach.datasets")


def test_exam_task_reproduces_seed_000_worksheet_exactly():
    data = datasets.exam_task()
    X, y = data  # a Dataset unpacks like (X, y)
    assert X.dtype == np.int64 and X.tolist() == [[1, 0], [1, 1], [0, 1]]
    assert y.tolist() == [1, -1, -1]
    run = perceptron(X, y, exact=True, trace=True)
    assert (run.mistakes, run.sweeps) == (5, 4)
    assert list(run.w) == [Fraction(1), Fraction(-2)]
    # the worksheet of "Perceptron Mistake Bound", row by row (sweep, point, y<w,x>, mistake?, w after)
    assert run.worksheet_rows()[:4] == [
        ("1", "x1", "0", "yes", "(1, 0)"),
        ("1", "x2", "-1", "yes", "(0, -1)"),
        ("1", "x3", "1", "no", "(0, -1)"),
        ("2", "x1", "0", "yes", "(1, -1)"),
    ]
    assert run.worksheet_rows()[-1] == ("4", "all", "1, 1, 2", "no", "stop")


def test_margin_task_and_x5_give_the_seed_000_numbers():
    X, y = datasets.margin_task()
    assert X.tolist() == [[3, 1], [1, 2], [-1, -1], [0, -2]] and y.tolist() == [1, 1, -1, -1]
    w_a = np.array([1, 1])
    # (a): y<w_A, x> = 4, 3, 2, 2 and rho_A = 2/sqrt(2); (b): R^2 = 10
    assert (y * (X @ w_a)).tolist() == [4, 3, 2, 2]
    assert max(int(row @ row) for row in X) == 10
    X5, y5 = datasets.margin_task(with_x5=True)
    assert X5.shape == (5, 2) and X5[-1].tolist() == [4, -3] and y5[-1] == 1
    assert int(y5[-1] * (X5[-1] @ w_a)) == 1  # still separated, at distance 1/sqrt(2)
    assert max(int(row @ row) for row in X5) == 25  # R = 5: bound 25 / (1/2) = 50


@pytest.mark.parametrize("n", [1, 2, 7, 30])
def test_basis_attains_the_bound(n):
    X, y = datasets.basis(n)
    assert np.array_equal(X, np.eye(n, dtype=np.int64)) and y.tolist() == [1] * n
    assert perceptron(X, y, exact=True).mistakes == n


def _notebook_pair(n_per_class, separation, seed):
    """The code of the notebook "The Perceptron Convergence Theorem", verbatim (run_experiment's data part)."""
    rng = np.random.RandomState(seed)
    X0 = rng.randn(n_per_class, 2) * 0.5 + np.array([-separation / 2, 0])
    X1 = rng.randn(n_per_class, 2) * 0.5 + np.array([separation / 2, 0])
    X_raw = np.vstack([X0, X1])
    y_pm = np.array([-1] * n_per_class + [1] * n_per_class)
    return np.hstack([np.ones((X_raw.shape[0], 1)), X_raw]), y_pm


@pytest.mark.parametrize(
    ("n", "sep", "seed"), [(30, 3.0, 42), (25, 1.5, 150), (25, 6.0, 137 * 3 + 600)]
)
def test_gaussian_pair_is_the_notebooks_construction(n, sep, seed):
    X, y = datasets.gaussian_pair(n, sep, seed=seed)
    X_nb, y_nb = _notebook_pair(n, sep, seed)
    assert np.array_equal(X, X_nb) and np.array_equal(y, y_nb)
    raw, _ = datasets.gaussian_pair(n, sep, seed=seed, bias=False)
    assert np.array_equal(raw, X_nb[:, 1:])


def test_nonseparable_is_the_notebooks_data_and_not_separable():
    np.random.seed(42)  # the notebook's global-state code, verbatim
    X0 = np.random.randn(40, 2) * 1.0 + np.array([-0.5, 0])
    X1 = np.random.randn(40, 2) * 1.0 + np.array([0.5, 0])
    X, y = datasets.nonseparable()
    assert np.array_equal(X, np.vstack([X0, X1])) and y.tolist() == [0] * 40 + [1] * 40
    assert not separable(X, y, fit_intercept=True).separable


def test_lfd_points_labels_and_target():
    data = datasets.lfd(50, seed=3)
    assert data.X.shape == (50, 2) and np.all(np.abs(data.X) <= 1.0)
    b, w1, w2 = data.target
    expected = np.where(b + data.X @ np.array([w1, w2]) > 0, 1, -1)
    assert np.array_equal(data.y, expected)
    # the target line crosses the square (it passes through two points drawn from it)
    corners = np.array([[-1, -1], [-1, 1], [1, -1], [1, 1]], dtype=float)
    assert len(set(np.sign(b + corners @ np.array([w1, w2])).tolist())) == 2
    again = datasets.lfd(50, seed=3)
    assert np.array_equal(again.X, data.X) and np.array_equal(again.target, data.target)
    assert not np.array_equal(datasets.lfd(50, seed=4).X, data.X)
    # the perceptron with intercept separates it (the target is a line)
    run = perceptron(data.X, data.y, fit_intercept=True, max_sweeps=100_000)
    assert run.converged


def test_lfd_targets_vary_in_orientation():
    positives = [float(np.mean(datasets.lfd(200, seed=s).y == 1)) for s in range(40)]
    assert min(positives) < 0.5 < max(positives)


def test_label_by_matches_the_sign_rule():
    X = np.array([[0.5, 0.5], [-0.5, 0.2], [0.0, 0.0]])
    assert datasets.label_by([0.0, 1.0, -1.0], X).tolist() == [-1, -1, -1]
    assert datasets.label_by([0.1, 1.0, 0.0], X).tolist() == [1, -1, 1]


@pytest.mark.parametrize(
    ("call", "fragment"),
    [
        (lambda: datasets.basis(0), "n (the dimension)"),
        (lambda: datasets.basis(2.5), "integer >= 1"),
        (lambda: datasets.gaussian_pair(separation=float("nan")), "separation"),
        (lambda: datasets.gaussian_pair(n_per_class=0), "n_per_class"),
        (lambda: datasets.gaussian_pair(seed=-1), "seed"),
        (lambda: datasets.gaussian_pair(seed=2**32), "seed"),
        (lambda: datasets.nonseparable(seed=None), "seed"),
        (lambda: datasets.gaussian_pair(spread=0), "spread"),
        (lambda: datasets.lfd(0), "N (the number of points)"),
        (lambda: datasets.nonseparable(seed="a"), "seed"),
        (lambda: datasets.margin_task(with_x5="yes"), "with_x5"),
        (lambda: datasets.label_by([1.0, 2.0], [[1.0, 2.0]]), "target"),
    ],
)
def test_bad_input_gets_a_clear_message(call, fragment):
    with pytest.raises(InputError, match="expected") as info:
        call()
    assert fragment in str(info.value)
