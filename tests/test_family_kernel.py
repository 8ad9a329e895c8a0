"""The kernel perceptron: linear == primal, explicit feature maps, brute-force duals and budgets."""

import collections

import numpy as np
import pytest
import scipy.sparse as sp
from sklearn.metrics.pairwise import rbf_kernel

from perceptronlab import (
    InputError,
    averaged_perceptron,
    kernel_perceptron,
    perceptron,
    voted_perceptron,
)


def integer_data(seed, n=40, d=4, offset=0.0, noise=0.0):
    rng = np.random.default_rng(seed)
    X = rng.integers(-3, 4, size=(n, d)).astype(np.float64)
    X = X[np.abs(X).sum(axis=1) > 0]
    y = np.where(X @ rng.normal(size=d) + offset > 0, 1, -1)
    flip = rng.random(y.shape[0]) < noise
    y[flip] = -y[flip]
    return X, y


def brute_dual(X, y, kernel, *, budget=None, fit_intercept=False, max_sweeps=10):
    """The dual perceptron in plain Python: entries in a deque, f recomputed at every step.

    Returns the mistake indices and f_t (as a function) after every step t.
    """
    entries = collections.deque()
    b = 0.0
    mistakes, states = [], []
    for _ in range(max_sweeps):
        made = 0
        for i in range(len(y)):
            f = sum(y[j] * kernel(X[j], X[i]) for j in entries) + b
            if y[i] * f <= 0:
                if budget is not None and len(entries) == budget:
                    j = entries.popleft()
                    b -= y[j] if fit_intercept else 0.0
                entries.append(i)
                b += y[i] if fit_intercept else 0.0
                mistakes.append(i)
                made += 1
            states.append((tuple(entries), b))
        if made == 0:
            break
    return mistakes, states


def f_of(state, X, y, kernel, x):
    entries, b = state
    return sum(y[j] * kernel(X[j], x) for j in entries) + b


@pytest.mark.parametrize("fit_intercept", [False, True])
@pytest.mark.parametrize("cache", ["auto", "full", "none"])
@pytest.mark.parametrize("sparse", [False, True])
def test_linear_kernel_is_the_primal_perceptron(fit_intercept, cache, sparse):
    X, y = integer_data(0, n=60, offset=0.7 if fit_intercept else 0.0)
    primal = perceptron(X, y, fit_intercept=fit_intercept, warn=False, max_sweeps=100)
    run = kernel_perceptron(
        sp.csr_matrix(X) if sparse else X,
        y,
        kernel="linear",
        fit_intercept=fit_intercept,
        cache=cache,
        warn=False,
    )
    assert run.cache == {"auto": "columns", "full": "full", "none": "none"}[cache]
    if cache == "auto":  # one column per example that ever erred, each computed once
        assert run.cached_columns == np.unique(run.mistake_indices).shape[0]
    assert (run.mistakes, run.sweeps, run.converged) == (primal.mistakes, primal.sweeps, True)
    np.testing.assert_array_equal(run.mistake_indices, primal.mistake_indices)
    # w = η Σ α_i y_i x_i is the engine's w, exactly, on integer data
    np.testing.assert_array_equal(run.w, primal.w)
    assert run.b == primal.b
    np.testing.assert_array_equal(run.alpha, np.bincount(primal.mistake_indices, minlength=len(y)))
    np.testing.assert_allclose(run.norms, primal.norms)
    np.testing.assert_array_equal(run.errors_after_sweep, primal.errors_after_sweep)


def test_linear_kernel_with_eta_and_margin_is_the_margin_perceptron():
    X, y = integer_data(1, n=50)
    primal = perceptron(X, y, eta=0.5, margin=2.0, warn=False)
    run = kernel_perceptron(X, y, kernel="linear", eta=0.5, margin=2.0, warn=False)
    np.testing.assert_array_equal(run.mistake_indices, primal.mistake_indices)
    np.testing.assert_array_equal(run.w, primal.w)


def test_linear_averaged_and_voted_variants_match_the_primal_ones():
    X, y = integer_data(2, noise=0.15)
    kwargs = dict(fit_intercept=True, order="shuffle", seed=4, max_sweeps=6, warn=False)
    avg = averaged_perceptron(X, y, **kwargs)
    k_avg = kernel_perceptron(X, y, kernel="linear", variant="averaged", **kwargs)
    np.testing.assert_allclose(k_avg.w, avg.w, atol=1e-12)
    assert k_avg.b == pytest.approx(avg.b, abs=1e-12)
    vot = voted_perceptron(X, y, **kwargs)
    k_vot = kernel_perceptron(X, y, kernel="linear", variant="voted", **kwargs)
    assert k_vot.counts.tolist() == vot.counts.tolist()
    tests = np.random.default_rng(0).integers(-3, 4, size=(80, 4)).astype(np.float64)
    np.testing.assert_allclose(k_vot.decision_function(tests), vot.decision_function(tests))


def test_poly_kernel_is_the_perceptron_on_the_explicit_feature_map():
    # (⟨x,z⟩ + 1)² = ⟨φ(x), φ(z)⟩ with φ(x) = (1, x, x, x⊗x): integers, so exact
    rng = np.random.default_rng(3)
    X = rng.integers(-2, 3, size=(40, 3)).astype(np.float64)
    y = np.where(X[:, 0] * X[:, 1] + X[:, 2] ** 2 - 1.5 > 0, 1, -1)  # not linearly separable
    phi = np.hstack([np.ones((40, 1)), X, X, np.einsum("ni,nj->nij", X, X).reshape(40, -1)])
    primal = perceptron(phi, y, warn=False, max_sweeps=200)
    run = kernel_perceptron(
        X, y, kernel="poly", degree=2, gamma=1.0, coef0=1.0, max_sweeps=200, warn=False
    )
    assert primal.converged and run.converged
    np.testing.assert_array_equal(run.mistake_indices, primal.mistake_indices)
    tests = rng.integers(-2, 3, size=(30, 3)).astype(np.float64)
    phi_t = np.hstack(
        [np.ones((30, 1)), tests, tests, np.einsum("ni,nj->nij", tests, tests).reshape(30, -1)]
    )
    np.testing.assert_allclose(run.decision_function(tests), phi_t @ primal.w)


@pytest.mark.parametrize("kernel", ["poly", "rbf"])
def test_gram_cache_and_computed_columns_agree_dense_and_sparse(kernel):
    X, y = integer_data(4, n=50, noise=0.1)
    kwargs = dict(
        kernel=kernel, degree=3, gamma=0.2, coef0=1.0, max_sweeps=8, fit_intercept=True, warn=False
    )
    cached = kernel_perceptron(X, y, cache="full", **kwargs)
    others = [
        kernel_perceptron(data, y, cache=cache, **kwargs)
        for data in (X, sp.csr_matrix(X))
        for cache in ("auto", "none")
    ]
    for other in others:
        np.testing.assert_array_equal(other.mistake_indices, cached.mistake_indices)
        np.testing.assert_allclose(
            other.decision_function(X), cached.decision_function(X), rtol=1e-9, atol=1e-9
        )


def test_callable_kernel_equals_the_builtin_rbf():
    X, y = integer_data(5, n=40, noise=0.1)
    builtin = kernel_perceptron(X, y, kernel="rbf", gamma=0.3, max_sweeps=10, warn=False)
    given = kernel_perceptron(
        X, y, kernel=lambda A, B: rbf_kernel(A, B, gamma=0.3), max_sweeps=10, warn=False
    )
    assert given.cache == "full"
    np.testing.assert_array_equal(given.mistake_indices, builtin.mistake_indices)
    np.testing.assert_allclose(given.decision_function(X), builtin.decision_function(X), atol=1e-9)


def test_compiled_dual_equals_the_naive_dual_loop():
    """The textbook dual loop, f(x_i) = Σ_j α_j y_j K(x_j, x_i) recomputed at every step, in Python."""
    X, y = integer_data(6, n=60, noise=0.1)
    run = kernel_perceptron(
        X, y, kernel="poly", degree=2, gamma=1.0, coef0=1.0, max_sweeps=5, warn=False
    )
    rows, labels = X.tolist(), y.tolist()
    gram = [
        [(1.0 + sum(a * b for a, b in zip(u, w, strict=True))) ** 2 for w in rows] for u in rows
    ]
    alpha = [0] * len(rows)
    mistakes = 0
    for _ in range(5):
        made = 0
        for i in range(len(rows)):
            f = sum(alpha[j] * labels[j] * gram[j][i] for j in range(len(rows)))
            if labels[i] * f <= 0:
                alpha[i] += 1
                made += 1
        mistakes += made
        if made == 0:
            break
    assert mistakes == run.mistakes
    np.testing.assert_array_equal(alpha, run.alpha)


@pytest.mark.parametrize("budget", [3, 7])
@pytest.mark.parametrize("fit_intercept", [False, True])
def test_budget_drops_the_oldest_entry_as_the_brute_force_does(budget, fit_intercept):
    X, y = integer_data(7, n=25, d=2, noise=0.1)
    gamma = 0.5

    def kernel(a, b):
        return float(np.exp(-gamma * np.sum((a - b) ** 2)))

    mistakes, states = brute_dual(
        X, y, kernel, budget=budget, fit_intercept=fit_intercept, max_sweeps=6
    )
    run = kernel_perceptron(
        X,
        y,
        kernel="rbf",
        gamma=gamma,
        budget=budget,
        fit_intercept=fit_intercept,
        max_sweeps=6,
        warn=False,
    )
    assert run.mistake_indices.tolist() == mistakes
    assert int(run.alpha.sum()) == min(budget, len(mistakes))
    final = collections.Counter(states[-1][0])
    assert run.alpha.tolist() == [final[i] for i in range(len(y))]
    tests = np.random.default_rng(8).normal(size=(20, 2))
    expected = [f_of(states[-1], X, y, kernel, x) for x in tests]
    np.testing.assert_allclose(run.decision_function(tests), expected, atol=1e-9)


@pytest.mark.parametrize("budget", [None, 4])
def test_averaged_and_voted_kernel_variants_equal_brute_force_over_every_step(budget):
    X, y = integer_data(9, n=20, d=2, noise=0.15)
    gamma = 0.4

    def kernel(a, b):
        return float(np.exp(-gamma * np.sum((a - b) ** 2)))

    _, states = brute_dual(X, y, kernel, budget=budget, fit_intercept=True, max_sweeps=5)
    tests = np.random.default_rng(10).normal(size=(15, 2)) * 2
    f_steps = np.array([[f_of(s, X, y, kernel, x) for x in tests] for s in states])
    common = dict(
        kernel="rbf", gamma=gamma, budget=budget, fit_intercept=True, max_sweeps=5, warn=False
    )
    avg = kernel_perceptron(X, y, variant="averaged", **common)
    np.testing.assert_allclose(avg.decision_function(tests), f_steps.mean(axis=0), atol=1e-9)
    voted = kernel_perceptron(X, y, variant="voted", **common)
    vote = np.sign(f_steps).sum(axis=0) / len(states)
    np.testing.assert_allclose(voted.decision_function(tests), vote, atol=1e-12)


def test_xor_needs_the_kernel():
    X, y = [[1, 1], [-1, -1], [1, -1], [-1, 1]], ["a", "a", "b", "b"]
    lin = kernel_perceptron(X, y, kernel="linear", max_sweeps=20, warn=False)
    assert not lin.converged
    run = kernel_perceptron(X, y, kernel="poly", degree=2, gamma=1.0, coef0=1.0)
    assert run.converged and run.predict(X).tolist() == y
    assert run.errors_after_sweep[-1] == 0
    assert "support vectors" in run.summary()


@pytest.mark.parametrize(
    "kwargs, match",
    [
        (dict(kernel="sigmoid"), "kernel: expected one of 'rbf', 'poly', 'linear'"),
        (dict(degree=0), r"degree \(of the poly kernel\): expected an integer >= 1"),
        (dict(gamma=-1.0), r"gamma \(the kernel width\): expected a number > 0"),
        (dict(gamma="wide"), "gamma: expected one of 'scale', 'auto'"),
        (dict(coef0=float("nan")), r"coef0 \(of the poly kernel\): expected a finite number"),
        (dict(budget=0), "budget: expected an integer >= 1"),
        (dict(variant="best"), "variant: expected one of 'last', 'averaged', 'voted'"),
        (dict(cache="yes"), "cache: expected one of 'auto', 'full', 'none'"),
        (dict(cache=True), "cache: expected one of 'auto', 'full', 'none'"),
        (
            dict(kernel=lambda A, B: np.ones((2, 2))),
            r"kernel \(the callable\): expected a finite array",
        ),
    ],
)
def test_bad_parameters(kwargs, match):
    with pytest.raises(InputError, match=match):
        kernel_perceptron([[1, 0], [0, 1], [1, 1]], [1, -1, 1], **kwargs)
