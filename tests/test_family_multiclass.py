"""The multiclass perceptron against a plain-Python Collins loop, the binary engine, and separable data."""

import numpy as np
import pytest
import scipy.sparse as sp

from perceptronlab import InputError, multiclass_perceptron, perceptron


def collins_by_hand(X, codes, n_classes, *, fit_intercept=False, max_sweeps=10):
    """Collins' rule, ties counted: returns mistakes, the last (W, B) and the step average."""
    d = X.shape[1]
    W, B = np.zeros((n_classes, d)), np.zeros(n_classes)
    W_sum, B_sum, steps, mistakes = np.zeros_like(W), np.zeros_like(B), 0, []
    for _ in range(max_sweeps):
        made = 0
        for i, x in enumerate(X):
            scores = [sum(W[k, j] * x[j] for j in range(d)) + B[k] for k in range(n_classes)]
            true = codes[i]
            rivals = [k for k in range(n_classes) if k != true]
            rival = max(rivals, key=lambda k: (scores[k], -k))  # ties: the lowest index
            if scores[true] - scores[rival] <= 0:
                W[true] += x
                W[rival] -= x
                if fit_intercept:
                    B[true] += 1
                    B[rival] -= 1
                mistakes.append(i)
                made += 1
            W_sum += W
            B_sum += B
            steps += 1
        if made == 0:
            break
    return mistakes, W, B, W_sum / steps, B_sum / steps


def blobs(seed, n_classes=4, per_class=15, d=3, spread=1):
    """Integer points around well-separated integer centres (separable through the origin when the
    centres are far enough apart)."""
    rng = np.random.default_rng(seed)
    centres = rng.integers(-10, 11, size=(n_classes, d)) * 3
    X = np.vstack([c + rng.integers(-spread, spread + 1, size=(per_class, d)) for c in centres])
    codes = np.repeat(np.arange(n_classes), per_class)
    perm = rng.permutation(X.shape[0])
    return X[perm].astype(np.float64), codes[perm]


@pytest.mark.parametrize("fit_intercept", [False, True])
@pytest.mark.parametrize("sparse", [False, True])
def test_equals_collins_by_hand_including_ties(fit_intercept, sparse):
    rng = np.random.default_rng(0)
    X = rng.integers(-2, 3, size=(30, 3)).astype(np.float64)  # small ints: many exact ties
    codes = rng.integers(0, 3, size=30)
    mistakes, W, B, W_avg, B_avg = collins_by_hand(
        X, codes, 3, fit_intercept=fit_intercept, max_sweeps=6
    )
    data = sp.csr_matrix(X) if sparse else X
    run = multiclass_perceptron(data, codes, fit_intercept=fit_intercept, max_sweeps=6, warn=False)
    assert run.mistake_indices.tolist() == mistakes
    np.testing.assert_array_equal(run.w, W)
    np.testing.assert_array_equal(run.b, B)
    avg = multiclass_perceptron(
        data, codes, averaged=True, fit_intercept=fit_intercept, max_sweeps=6, warn=False
    )
    np.testing.assert_allclose(avg.w, W_avg, atol=1e-12)
    np.testing.assert_allclose(avg.b, B_avg, atol=1e-12)
    np.testing.assert_array_equal(avg.last_w, W)


@pytest.mark.parametrize("averaged", [False, True])
def test_separable_data_reach_zero_training_errors(averaged):
    X, codes = blobs(1)
    labels = np.array(["ant", "bee", "cat", "dog"])[codes]
    run = multiclass_perceptron(X, labels, averaged=averaged, fit_intercept=True)
    assert run.converged
    assert run.errors_after_sweep[-1] == 0
    assert run.predict(X).tolist() == labels.tolist()
    assert list(run.classes) == ["ant", "bee", "cat", "dog"]
    assert run.w.shape == (4, 3) and run.coef.shape == (4, 4)


def test_two_classes_are_the_binary_perceptron():
    rng = np.random.default_rng(2)
    X = rng.normal(size=(80, 5))
    y = np.where(X @ rng.normal(size=5) + 0.3 > 0, 1, -1)
    for fit_intercept in (False, True):
        binary = perceptron(X, y, fit_intercept=fit_intercept, warn=False, max_sweeps=100)
        multi = multiclass_perceptron(X, y, fit_intercept=fit_intercept, warn=False)
        np.testing.assert_array_equal(multi.mistake_indices, binary.mistake_indices)
        np.testing.assert_array_equal(multi.w[1], binary.w)
        np.testing.assert_array_equal(multi.w[0], -binary.w)
        assert multi.b[1] == binary.b
        np.testing.assert_allclose(multi.norms, np.sqrt(2) * binary.norms)


def test_ties_count_and_predict_the_first_class():
    # From W = 0 the first example is a tie, so a mistake, even for the first class.
    run = multiclass_perceptron([[1.0, 0.0], [0.0, 1.0]], [0, 1])
    assert run.mistake_indices[0] == 0
    assert run.mistakes >= 1 and run.converged
    # all-zero scores predict the first class
    assert run.predict([[0.0, 0.0]]).tolist() == [0]


def test_errors_after_sweep_count_non_winning_true_classes():
    rng = np.random.default_rng(3)
    X = rng.integers(-3, 4, size=(40, 3)).astype(np.float64)
    codes = rng.integers(0, 3, size=40)  # random labels: not separable
    run = multiclass_perceptron(X, codes, max_sweeps=3, warn=False)
    assert len(run.errors_after_sweep) == run.sweeps == 3
    for sweep, errors in enumerate(run.errors_after_sweep, start=1):
        # the weights at the end of this sweep are the last weights of a run cut there
        W = multiclass_perceptron(X, codes, max_sweeps=sweep, warn=False).w
        scores = X @ W.T
        by_hand = sum(
            1
            for i, k in enumerate(codes)
            if scores[i, k] - max(scores[i, j] for j in range(3) if j != k) <= 0
        )
        assert errors == by_hand


def test_bad_input():
    with pytest.raises(InputError, match="at least two classes"):
        multiclass_perceptron([[1, 0], [0, 1]], ["a", "a"])
    with pytest.raises(InputError, match="order: expected one of"):
        multiclass_perceptron([[1, 0], [0, 1]], [0, 1], order="random-mistake")
    with pytest.raises(InputError, match="X: expected finite values"):
        multiclass_perceptron([[1, np.inf], [0, 1]], [0, 1])
    run = multiclass_perceptron([[1, 0], [0, 1]], [0, 1])
    with pytest.raises(InputError, match="2 features, as this multiclass perceptron"):
        run.predict([[1.0, 2.0, 3.0]])
