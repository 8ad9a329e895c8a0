"""One linear decision path: every linear predictor scores as the training kernels do and breaks ties
alike, so a saved-then-loaded model scores bit for bit like the one saved."""

from fractions import Fraction

import numpy as np
import pytest
import scipy.sparse as sp

from perceptronlab import (
    AveragedPerceptron,
    OnlinePerceptron,
    Perceptron,
    PocketPerceptron,
    averaged_perceptron,
    load_model,
    perceptron,
    pocket,
    save_model,
)
from perceptronlab.core.scores import labels, margins, scores
from perceptronlab.estimators import LoadedModel

pytestmark = pytest.mark.filterwarnings("ignore::perceptronlab.exceptions.NotConvergedWarning")


def data(seed=0, n=300, d=7, classes=2):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, d)) * rng.uniform(0.1, 10, size=d)  # scales differ: rounding matters
    y = (
        np.argmax(X @ rng.normal(size=(d, classes)), axis=1)
        if classes > 2
        else np.where(X @ rng.normal(size=d) + 0.3 > 0, 1, 0)
    )
    return X, y


def ordered(X, w, b):
    """⟨w, x⟩ + b summed left to right in float64: the kernels' order, written out."""
    out = []
    for row in X.tolist():
        total = 0.0
        for wj, xj in zip(w.tolist(), row, strict=True):
            total += wj * xj
        out.append(total + b)
    return np.array(out)


def same_bits(a, b):
    return np.asarray(a, dtype=np.float64).tobytes() == np.asarray(b, dtype=np.float64).tobytes()


def test_scores_are_the_kernels_order_and_not_blas():
    X, _ = data(1, n=500, d=33)
    w = np.random.default_rng(2).normal(size=33) * 1e3
    assert same_bits(scores(X, w, 0.25), ordered(X, w, 0.25))
    assert same_bits(scores(sp.csr_matrix(X), w, 0.25), ordered(X, w, 0.25))


def test_a_tie_predicts_the_first_class():
    assert labels(np.array([0.0, -0.0, 1e-300, -1.0]), ["neg", "pos"]).tolist() == [
        "neg",
        "neg",
        "pos",
        "neg",
    ]
    assert labels(np.array([[1.0, 1.0, 0.5], [0.0, 2.0, 2.0]]), ["a", "b", "c"]).tolist() == [
        "a",
        "b",
    ]
    exact = np.array([Fraction(0), Fraction(1, 3)], dtype=object)
    assert labels(exact, [-1, 1]).tolist() == [-1, 1]


FITTED = {
    "Perceptron": lambda X, y: Perceptron(eta0=0.1, max_iter=5).fit(X, y),
    "Perceptron one-vs-rest": lambda X, y: Perceptron(max_iter=5).fit(X, y % 3),
    "PocketPerceptron": lambda X, y: PocketPerceptron(random_state=0, max_iter=3).fit(X, y),
    "AveragedPerceptron": lambda X, y: AveragedPerceptron(max_iter=5).fit(X, y),
    "OnlinePerceptron": lambda X, y: OnlinePerceptron(classes=[0, 1]).fit(X, y),
    "run": lambda X, y: perceptron(X, y, eta=0.1, fit_intercept=True, max_sweeps=5, warn=False),
    "pocket run": lambda X, y: pocket(X, y, fit_intercept=True, seed=0, max_sweeps=3),
    "averaged run": lambda X, y: averaged_perceptron(
        X, y, fit_intercept=True, max_sweeps=5, warn=False
    ),
}


@pytest.mark.parametrize("name", FITTED)
@pytest.mark.parametrize("as_estimator", [True, False])
def test_saved_then_loaded_scores_bit_for_bit(tmp_path, name, as_estimator):
    X, y = data(3)
    model = FITTED[name](X, y)
    X_new = data(4, n=400)[0]
    if hasattr(model, "decision_function") and not hasattr(model, "mistake_indices"):
        before, predicted = model.decision_function(X_new), model.predict(X_new)
    else:  # a run: its weights scored on the one path
        before = scores(X_new, model.w, model.b)
        predicted = labels(before, model.classes)
    path = save_model(model, tmp_path / "model.json")
    loaded = load_model(path, as_estimator=as_estimator)
    assert same_bits(loaded.decision_function(X_new), before)
    assert loaded.predict(X_new).tolist() == np.asarray(predicted).tolist()
    if not as_estimator:
        assert isinstance(loaded, LoadedModel)


def test_an_exact_model_scores_in_fractions_after_loading(tmp_path):
    run = perceptron([[1, 0], [1, 1], [0, 1]], [1, -1, -1], eta=Fraction(1, 3), exact=True)
    loaded = load_model(save_model(run, tmp_path / "exact.json"))
    X = [[Fraction(1, 7), 3], ["0.5", 1], [0, 0]]
    expected = [
        Fraction(1, 7) * run.w[0] + 3 * run.w[1],
        Fraction(1, 2) * run.w[0] + run.w[1],
        Fraction(0),
    ]
    assert loaded.decision_function(X).tolist() == expected
    assert loaded.predict(X).tolist() == [1 if s > 0 else -1 for s in expected]  # the tie: -1


def test_the_fitted_estimators_score_as_their_runs():
    X, y = data(5)
    clf = Perceptron(max_iter=10).fit(X, y)
    run = clf.run_
    assert same_bits(clf.decision_function(X), scores(X, run.w, run.b))
    avg = AveragedPerceptron(max_iter=10).fit(X, y)
    assert same_bits(avg.decision_function(X), avg.run_.decision_function(X))
    # the training kernel's mistake test sees the same numbers: y·score of the last iterate
    signs = np.where(y == clf.classes_[1], 1.0, -1.0)
    assert same_bits(margins(X, signs, run.w, run.b), signs * scores(X, run.w, run.b))


def test_the_online_learner_scores_one_example_as_a_stream():
    X, y = data(6, n=200)
    one = OnlinePerceptron(classes=[0, 1])
    for x, label in zip(X, y, strict=True):
        one.learn_one(x, label)
    stream = OnlinePerceptron(classes=[0, 1]).fit(X, y)
    assert one.n_mistakes_ == stream.n_mistakes_
    assert same_bits(one.coef_, stream.coef_) and same_bits(one.intercept_, stream.intercept_)


# ---------------------------------------------------------------- small inputs without Numba


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
@pytest.mark.parametrize("shape", [(1, 1), (3, 2), (50, 7), (200, 300)])
def test_small_dense_scores_are_the_kernels_bits(dtype, shape):
    """Small dense inputs are scored by NumPy column by column (no Numba at start-up): the same bits as
    the compiled kernel, ties and signs included."""
    from perceptronlab.core import kernels
    from perceptronlab.core.scores import SMALL_ELEMENTS, margins

    rng = np.random.default_rng(shape[0] * 1000 + shape[1])
    X = (rng.standard_normal(shape) * 10 ** rng.uniform(-3, 3, shape)).astype(dtype)
    w = rng.standard_normal(shape[1]) * 1e3
    y = rng.choice([-1.0, 1.0], shape[0])
    b = float(rng.standard_normal())
    assert X.size <= SMALL_ELEMENTS
    compiled = kernels.margins_dense(X, y, w, b, np.empty(shape[0]))
    small = margins(X, y, w, b)
    assert small.tobytes() == compiled.tobytes()


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_the_errors_of_many_weights_at_once_are_each_ones_count(dtype):
    """A long run's end-of-sweep errors are counted a block of (w, b) at a time: the counts of
    ``count_errors`` for each pair, ties (a score of exactly 0 is an error), overflow and NaN
    included, and across the block boundary."""
    from perceptronlab.core.scores import SMALL_ELEMENTS, count_errors, count_errors_each

    rng = np.random.default_rng(7)
    X = rng.integers(-3, 4, size=(40, 5)).astype(dtype)  # small integers: many exact ties
    X[0, 0] = np.finfo(dtype).max
    y = rng.choice([-1, 1], 40)
    weights = [
        (rng.integers(-2, 3, size=5).astype(dtype), float(rng.integers(-1, 2))) for _ in range(3000)
    ]
    weights[1] = (np.zeros(5, dtype), 0.0)  # every score a tie: every row an error
    weights[2] = (np.array([1e308, 1e308, 0, 0, 0]), 0.0)  # inf and NaN scores
    weights[3] = (np.full(5, np.nan), 1.0)
    assert len(weights) * X.shape[0] > SMALL_ELEMENTS  # more than one block
    each = count_errors_each(X, y, weights)
    assert each == [count_errors(X, y, w, b) for w, b in weights]
    assert each[1] == 40
    written_out = [
        int(np.count_nonzero(y * ordered(X.astype(np.float64), w.astype(np.float64), b) <= 0))
        for w, b in weights[:50]
    ]
    assert each[:50] == written_out
