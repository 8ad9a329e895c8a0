"""The voted perceptron against the weighted vote computed by hand from the plain run's trace."""

import numpy as np
import pytest
import scipy.sparse as sp

from perceptronlab import InputError, perceptron, voted_perceptron


def hand_vote(X, y, **kwargs):
    """(vectors, intercepts, counts) from the trace: a mistake starts a vector with count 1,
    every other step adds 1 to the current one (Freund & Schapire 1999, Fig. 1)."""
    run = perceptron(X, y, trace=True, warn=False, **kwargs)
    vectors, intercepts, counts = [], [], []
    for step in run.steps:
        if step.mistake:
            vectors.append(np.array(step.w, dtype=np.float64))
            intercepts.append(float(step.b))
            counts.append(1)
        else:
            assert counts, "w0 = 0 never survives a step: the first check is a tie"
            counts[-1] += 1
    return run, vectors, intercepts, counts


def predict_by_hand(x, vectors, intercepts, counts):
    total = 0
    for w, b, c in zip(vectors, intercepts, counts, strict=True):
        score = sum(float(wj) * float(xj) for wj, xj in zip(w, x, strict=True)) + b
        total += c * (1 if score > 0 else -1 if score < 0 else 0)
    return 1 if total > 0 else -1


def data(seed, n=30, d=3, noise=0.15):
    rng = np.random.default_rng(seed)
    X = rng.integers(-3, 4, size=(n, d)).astype(np.float64)
    y = np.where(X @ rng.normal(size=d) > 0, 1, -1)
    flip = rng.random(n) < noise
    y[flip] = -y[flip]
    return X, y


@pytest.mark.parametrize("fit_intercept", [False, True])
@pytest.mark.parametrize("order", ["cyclic", "shuffle"])
def test_vectors_counts_and_prediction_equal_the_hand_vote(fit_intercept, order):
    X, y = data(0)
    kwargs = dict(fit_intercept=fit_intercept, order=order, seed=7, max_sweeps=8)
    plain, vectors, intercepts, counts = hand_vote(X, y, **kwargs)
    run = voted_perceptron(X, y, warn=False, **kwargs)
    assert run.sweeps == plain.sweeps and run.n_steps == len(plain.steps)
    assert run.counts.tolist() == counts
    np.testing.assert_array_equal(run.vectors, np.array(vectors))
    np.testing.assert_array_equal(run.intercepts, np.array(intercepts))
    assert int(run.counts.sum()) == run.n_steps
    # the last vector is the engine's w, bit for bit
    np.testing.assert_array_equal(run.vectors[-1], plain.w)
    rng = np.random.default_rng(1)
    tests = rng.integers(-3, 4, size=(60, 3)).astype(np.float64)
    expected = [predict_by_hand(x, vectors, intercepts, counts) for x in tests]
    assert run.predict(tests).tolist() == expected


def test_max_vectors_keeps_the_largest_counts_and_votes_with_them():
    X, y = data(2, n=40)
    full = voted_perceptron(X, y, max_sweeps=6, warn=False)
    capped = voted_perceptron(X, y, max_sweeps=6, max_vectors=5, warn=False)
    assert capped.vectors.shape[0] == 5
    order = sorted(range(len(full.counts)), key=lambda k: (full.counts[k], k))
    kept = sorted(order[-5:])
    np.testing.assert_array_equal(capped.vectors, full.vectors[kept])
    assert capped.counts.tolist() == full.counts[kept].tolist()
    assert capped.dropped_vectors == len(full.counts) - 5
    assert capped.dropped_votes == int(full.counts.sum() - full.counts[kept].sum())
    # the run itself is unchanged by the cap
    assert capped.mistakes == full.mistakes
    tests = np.random.default_rng(3).normal(size=(50, 3))
    expected = [predict_by_hand(x, capped.vectors, capped.intercepts, capped.counts) for x in tests]
    assert capped.predict(tests).tolist() == expected


def test_exam_task_counts():
    run = voted_perceptron([[1, 0], [1, 1], [0, 1]], [1, -1, -1])
    assert run.mistake_steps.tolist() == [1, 2, 4, 5, 7]
    assert run.counts.tolist() == [1, 2, 1, 2, 6]
    assert run.converged and run.mistakes == 5


def test_sparse_equals_dense_and_labels_map_back():
    X, y = data(4)
    labels = np.where(y > 0, "spam", "ham")
    dense = voted_perceptron(X, labels, fit_intercept=True, max_sweeps=5, warn=False)
    sparse = voted_perceptron(
        sp.csr_matrix(X), labels, fit_intercept=True, max_sweeps=5, warn=False
    )
    np.testing.assert_array_equal(dense.vectors, sparse.vectors)
    assert dense.predict(X).tolist() == sparse.predict(sp.csr_matrix(X)).tolist()
    assert set(dense.predict(X)) <= {"ham", "spam"}
    scores = dense.decision_function(X)
    assert np.all(np.abs(scores) <= 1)


def test_bad_input():
    with pytest.raises(InputError, match="max_vectors: expected an integer >= 1"):
        voted_perceptron([[1, 0], [0, 1]], [1, -1], max_vectors=0)
    with pytest.raises(InputError, match="order: expected one of 'cyclic', 'shuffle'"):
        voted_perceptron([[1, 0], [0, 1]], [1, -1], order="random-mistake")
    run = voted_perceptron([[1, 0], [0, 1]], [1, -1])
    with pytest.raises(InputError, match="2 features, as this voted perceptron"):
        run.predict([[1.0]])
