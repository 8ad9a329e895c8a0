"""The scikit-learn estimators: sklearn's own checks, the engine underneath, bad input."""

from __future__ import annotations

import functools
import os
import pickle
import re
import subprocess
import sys
import warnings

import numpy as np
import pytest
import scipy.sparse as sp
from sklearn.exceptions import NotFittedError as SklearnNotFittedError
from sklearn.utils._param_validation import InvalidParameterError
from sklearn.utils.estimator_checks import check_param_validation, parametrize_with_checks

import perceptronlab
from perceptronlab import OnlinePerceptron, Perceptron, PocketPerceptron
from perceptronlab.exceptions import (
    CycledWarning,
    InputError,
    NotConvergedWarning,
    NotFittedError,
    PerceptronLabError,
)

EXAM_X = [[1, 0], [1, 1], [0, 1]]
EXAM_Y = [1, -1, -1]
XOR_X = [[0, 0], [0, 1], [1, 0], [1, 1]]
XOR_Y = [0, 1, 1, 0]


# ---------------------------------------------------------------- scikit-learn conformance


def _expected_failures(estimator) -> dict:
    # As scikit-learn's own Perceptron (its PER_ESTIMATOR_XFAIL_CHECKS): a weight of 2 is one update
    # of 2·x, which is not two updates of x (the second is tested again first), so fitting with
    # integer weights does not equal fitting with repeated rows. Every other check passes.
    if isinstance(estimator, Perceptron):
        reason = "sample_weight scales an update: not equivalent to removing/repeating samples"
        return {
            "check_sample_weight_equivalence_on_dense_data": reason,
            "check_sample_weight_equivalence_on_sparse_data": reason,
        }
    return {}


# Default parameters: scikit-learn's checks set random_state themselves (PocketPerceptron's
# random-mistake order is then reproducible, as check_fit_idempotent needs).
@parametrize_with_checks(
    [Perceptron(shuffle=False, tol=None), PocketPerceptron(), OnlinePerceptron()],
    expected_failed_checks=_expected_failures,
)
def test_sklearn_estimator_checks(estimator, check):
    if _check_function(check).__name__ == "check_array_api_input":
        _array_api_check_in_subprocess(estimator)
        return
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", NotConvergedWarning)
        warnings.simplefilter("ignore", CycledWarning)
        check(estimator)


def _check_function(check):
    while isinstance(check, functools.partial):
        check = check.func
    return check


def _array_api_check_in_subprocess(estimator):
    # scikit-learn runs this check only when SCIPY_ARRAY_API=1 was set before scipy was imported
    # (else it skips): run it in a fresh interpreter with the variable set.
    code = (
        "from sklearn.utils.estimator_checks import check_array_api_input\n"
        "from perceptronlab import OnlinePerceptron, Perceptron, PocketPerceptron\n"
        f"estimator = {estimator!r}\n"
        "check_array_api_input(type(estimator).__name__, estimator, array_namespace='numpy',\n"
        "                      expect_only_array_outputs=False)\n"
        "print('array api check passed')\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code],
        env={**os.environ, "SCIPY_ARRAY_API": "1"},
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    assert "array api check passed" in done.stdout


@pytest.mark.parametrize(
    "estimator", [Perceptron(), PocketPerceptron(random_state=0, max_iter=5), OnlinePerceptron()]
)
def test_parameter_constraints_are_complete_and_enforced(estimator):
    # scikit-learn's own check: every parameter has a constraint, bad types and values are refused
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", NotConvergedWarning)
        check_param_validation(type(estimator).__name__, estimator)


def test_init_stores_parameters_unchanged_and_keyword_only():
    marker = object()
    clf = Perceptron(shuffle=False, tol=None, eta0=marker, order="nonsense", max_iter=-3)
    assert clf.eta0 is marker and clf.order == "nonsense" and clf.max_iter == -3
    with pytest.raises(TypeError):
        Perceptron(1.0)
    assert Perceptron().get_params() == dict(
        eta0=1.0,
        fit_intercept=True,
        order="cyclic",
        shuffle=True,  # scikit-learn's defaults: shuffle, tol and random_state
        penalty=None,
        alpha=0.0001,
        l1_ratio=0.15,
        margin=0.0,
        max_iter=1000,
        tol=1e-3,
        early_stopping=False,
        validation_fraction=0.1,
        n_iter_no_change=5,
        class_weight=None,
        warm_start=False,
        random_state=0,
        n_jobs=None,
        verbose=0,
    )
    assert PocketPerceptron().get_params() == dict(
        eta0=1.0,
        fit_intercept=True,
        order="random-mistake",
        check="ratchet",
        max_updates=None,
        max_iter=100,
        warm_start=False,
        random_state=None,
        n_jobs=None,
        verbose=0,
    )
    assert OnlinePerceptron().get_params() == dict(
        eta0=1.0, margin=0.0, fit_intercept=True, classes=None
    )


@pytest.mark.parametrize(
    ("make", "right"),
    [
        (lambda: Perceptron(shuffle=False, tol=None, max_sweeps=10), "use max_iter=10"),
        (lambda: Perceptron(shuffle=False, tol=None, eta=0.5), "use eta0=0.5"),
        (lambda: PocketPerceptron(seed=3), "use random_state=3"),
        (lambda: perceptronlab.AveragedPerceptron(max_sweeps=7), "use max_iter=7"),
        (lambda: perceptronlab.KernelPerceptron(seed=1), "use random_state=1"),
        (lambda: OnlinePerceptron(eta=2.0), "use eta0=2.0"),
        (lambda: perceptronlab.perceptron(EXAM_X, EXAM_Y, max_iter=10), "use max_sweeps=10"),
        (lambda: perceptronlab.pocket(EXAM_X, EXAM_Y, random_state=0), "use seed=0"),
        (lambda: perceptronlab.multiclass_perceptron(EXAM_X, EXAM_Y, eta0=1.0), "use eta=1.0"),
        (
            lambda: perceptronlab.perceptron(EXAM_X, EXAM_Y, tol=1e-3),
            r"perceptronlab.Perceptron\(tol=...\)",
        ),
    ],
)
def test_a_name_of_the_other_api_names_the_right_one(make, right):
    with pytest.raises(TypeError, match=right):
        make()


def test_set_params_with_a_functional_name_names_the_right_one():
    with pytest.raises(InputError, match=r"Invalid parameter 'max_sweeps' .* use max_iter=3"):
        Perceptron(shuffle=False, tol=None).set_params(max_sweeps=3)
    assert Perceptron(shuffle=False, tol=None).set_params(max_iter=3).max_iter == 3


# ---------------------------------------------------------------- the seeds' numbers


def test_exam_task_of_the_seeds():
    clf = Perceptron(shuffle=False, tol=None, fit_intercept=False).fit(EXAM_X, EXAM_Y)
    assert clf.coef_.tolist() == [[1.0, -2.0]] and clf.intercept_.tolist() == [0.0]
    assert (clf.n_mistakes_, clf.n_sweeps_, clf.converged_) == (5, 4, True)
    assert clf.run_.mistake_indices.tolist() == [0, 1, 0, 1, 0]  # x1 x2 | x1 x2 | x1
    assert clf.classes_.tolist() == [-1, 1]
    assert clf.predict(EXAM_X).tolist() == EXAM_Y


def test_learning_rate_only_scales_w():
    one = Perceptron(shuffle=False, tol=None, fit_intercept=False).fit(EXAM_X, EXAM_Y)
    two = Perceptron(shuffle=False, tol=None, fit_intercept=False, eta0=2).fit(EXAM_X, EXAM_Y)
    assert two.coef_.tolist() == [[2.0, -4.0]]
    assert two.run_.mistake_indices.tolist() == one.run_.mistake_indices.tolist()


# ---------------------------------------------------------------- the engine underneath


def _gaussian(seed, n=30, d=3):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, d))
    return X, (X @ rng.normal(size=d) + 0.3 > 0).astype(int)


@pytest.mark.parametrize("order", ["cyclic", "random-mistake"])
def test_perceptron_is_the_engine_run(order):
    X, y = _gaussian(0)
    clf = Perceptron(
        shuffle=False, tol=None, order=order, random_state=3, margin=0.25, eta0=0.5
    ).fit(X, y)
    seed = clf.run_.params[
        "seed"
    ]  # the run's seed, drawn from random_state as scikit-learn draws it
    run = perceptronlab.perceptron(
        X, np.where(y == 1, 1, -1), order=order, seed=seed, margin=0.25, eta=0.5, fit_intercept=True
    )
    assert np.array_equal(clf.coef_[0], run.w) and clf.intercept_[0] == run.b
    assert clf.n_mistakes_ == run.mistakes and clf.n_sweeps_ == run.sweeps and clf.converged_
    assert np.array_equal(clf.run_.mistake_indices, run.mistake_indices)
    assert np.array_equal(clf.predict(X), y)  # converged: a clean sweep classifies all


def test_any_two_labels_map_to_signs_with_classes_1_positive():
    X, y = _gaussian(1)
    signs = Perceptron(shuffle=False, tol=None).fit(X, np.where(y == 1, 1, -1))
    named = Perceptron(shuffle=False, tol=None).fit(X, np.where(y == 1, "yes", "no"))
    flipped = Perceptron(shuffle=False, tol=None).fit(
        X, np.where(y == 1, "a", "b")
    )  # "b" > "a": now y == 0 is positive
    assert named.classes_.tolist() == ["no", "yes"] and flipped.classes_.tolist() == ["a", "b"]
    assert np.array_equal(named.coef_, signs.coef_)
    assert np.array_equal(flipped.coef_, -signs.coef_)
    assert np.array_equal(named.decision_function(X), signs.decision_function(X))
    assert named.decision_function(X).shape == (30,)
    assert named.predict(X).tolist() == np.where(y == 1, "yes", "no").tolist()


def test_a_tie_predicts_the_negative_class():
    clf = Perceptron(shuffle=False, tol=None, fit_intercept=False).fit(
        EXAM_X, ["neg", "pos", "pos"]
    )
    assert clf.decision_function([[0.0, 0.0]]).tolist() == [0.0]
    assert clf.predict([[0.0, 0.0]]).tolist() == ["neg"]


def test_one_vs_rest_runs_the_engine_once_per_class():
    rng = np.random.default_rng(2)
    centers = np.array([[0, 0], [6, 0], [0, 6]])
    y = np.repeat([0, 1, 2], 10)
    X = centers[y] + rng.normal(scale=0.5, size=(30, 2))
    labels = np.array(["red", "green", "blue"])[y]
    clf = Perceptron(shuffle=False, tol=None, max_iter=50).fit(X, labels)
    assert clf.classes_.tolist() == ["blue", "green", "red"]
    assert clf.coef_.shape == (3, 2) and clf.intercept_.shape == (3,)
    assert isinstance(clf.run_, list) and len(clf.run_) == 3
    for k, label in enumerate(clf.classes_):
        run = perceptronlab.perceptron(
            X, np.where(labels == label, 1, -1), fit_intercept=True, max_sweeps=50, warn=False
        )
        assert np.array_equal(clf.coef_[k], run.w) and clf.intercept_[k] == run.b
        assert clf.n_mistakes_[k] == run.mistakes and clf.n_sweeps_[k] == run.sweeps
        assert clf.converged_[k] == run.converged
    scores = clf.decision_function(X)
    assert scores.shape == (30, 3)
    assert np.array_equal(clf.predict(X), clf.classes_[np.argmax(scores, axis=1)])
    assert clf.score(X, labels) == 1.0


@pytest.mark.parametrize(
    "make",
    [
        lambda: Perceptron(shuffle=False, tol=None, fit_intercept=False, max_iter=8),
        lambda: PocketPerceptron(random_state=1, max_iter=8),
        lambda: OnlinePerceptron(margin=0.1),
    ],
)
def test_csr_input_gives_the_dense_weights(make):
    X, y = _gaussian(3, n=40, d=6)
    X[np.abs(X) < 0.8] = 0.0
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", NotConvergedWarning)
        dense = make().fit(X, y)
        sparse = make().fit(sp.csr_matrix(X), y)
    assert np.array_equal(dense.coef_, sparse.coef_)
    assert np.array_equal(dense.decision_function(X), sparse.decision_function(sp.csr_matrix(X)))


def test_pocket_is_the_engine_run_and_counts_its_errors():
    rng = np.random.default_rng(4)
    X = rng.normal(size=(40, 2))
    y = (X[:, 0] + rng.normal(scale=0.6, size=40) > 0).astype(int)  # noisy: not separable
    clf = PocketPerceptron(random_state=5, max_iter=15, check="sweep").fit(X, y)
    run = perceptronlab.pocket(
        X, np.where(y == 1, 1, -1), seed=5, max_sweeps=15, check="sweep", fit_intercept=True
    )
    assert np.array_equal(clf.coef_[0], run.w) and clf.intercept_[0] == run.b
    signs = np.where(y == 1, 1, -1)
    brute_errors = int(np.sum(signs * (X @ clf.coef_[0] + clf.intercept_[0]) <= 0))
    assert clf.pocket_errors_ == run.pocket_errors == brute_errors > 0
    assert clf.converged_ is False
    assert clf.score(X, y) == 1 - brute_errors / 40


def test_pocket_one_vs_rest_has_one_error_count_per_class():
    X = np.array([[0, 0], [0, 1], [3, 0], [3, 1], [0, 4], [1, 4]], dtype=float)
    clf = PocketPerceptron(random_state=0).fit(X, [0, 0, 1, 1, 2, 2])
    assert clf.pocket_errors_.tolist() == [0, 0, 0] and clf.converged_.all()
    assert clf.predict(X).tolist() == [0, 0, 1, 1, 2, 2]


def test_single_class_is_refused_as_scikit_learn_does_and_named_classes_learn_it():
    # the lectures' worst case labels every basis vector +1: fit refuses one class (scikit-learn's
    # convention), a partial fit told both classes learns it
    with pytest.raises(ValueError, match="The number of classes has to be greater than one"):
        Perceptron(shuffle=False, tol=None, fit_intercept=False).fit(np.eye(3), [1, 1, 1])
    clf = Perceptron(shuffle=False, tol=None, fit_intercept=False).partial_fit(
        np.eye(3), [1, 1, 1], classes=[-1, 1]
    )
    assert clf.classes_.tolist() == [-1, 1]
    assert clf.coef_.tolist() == [[1.0, 1.0, 1.0]] and clf.n_mistakes_ == 3


# ---------------------------------------------------------------- warnings


def test_not_converged_warns_with_the_remedy():
    with pytest.warns(NotConvergedWarning, match=r"max_iter=3 sweeps.*PocketPerceptron"):
        clf = Perceptron(shuffle=False, tol=None, max_iter=3).fit(np.array(XOR_X) + 0.1, XOR_Y)
    assert clf.converged_ is False and clf.n_sweeps_ == 3


def test_a_cycle_warns_that_it_never_converges():
    with pytest.warns(CycledWarning, match="never converge"):
        clf = Perceptron(shuffle=False, tol=None, fit_intercept=True).fit(XOR_X, XOR_Y)
    assert clf.run_.cycled and not clf.converged_ and clf.n_sweeps_ < 1000


def test_one_vs_rest_warning_names_the_classes():
    X = [[0, 0], [0, 1], [1, 0], [1, 1], [5, 5], [6, 5]]
    with pytest.warns(UserWarning, match="'even' vs rest") as caught:
        Perceptron(shuffle=False, tol=None, max_iter=5).fit(
            X, ["even", "odd", "odd", "even", "big", "big"]
        )
    assert all(issubclass(w.category, perceptronlab.PerceptronLabWarning) for w in caught)


def test_no_warning_when_converged():
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        Perceptron(shuffle=False, tol=None).fit(EXAM_X, EXAM_Y)
        PocketPerceptron(random_state=0).fit(
            XOR_X, XOR_Y
        )  # pocket never warns: not converging is its case


# ---------------------------------------------------------------- pickling


def test_pickle_keeps_the_model_but_not_the_training_data():
    X, y = _gaussian(6)
    clf = Perceptron(shuffle=False, tol=None, max_iter=50).fit(X, y)
    errors = clf.run_.errors_after_sweep.tolist()
    clone = pickle.loads(pickle.dumps(clf))
    assert clone.run_.data is None and clone.run_.checkpoints == {}
    assert clone.run_.errors_after_sweep.tolist() == errors
    assert np.array_equal(clone.predict(X), clf.predict(X)) and np.array_equal(
        clone.coef_, clf.coef_
    )
    assert clf.run_.data is not None  # the fitted estimator itself is untouched


# ---------------------------------------------------------------- OnlinePerceptron


def test_online_learn_one_predicts_before_it_learns():
    X, y = _gaussian(7, n=25)
    model = OnlinePerceptron(classes=[0, 1], fit_intercept=False)
    wrong = []
    for t, (x, label) in enumerate(zip(X, y, strict=True)):
        wrong.append(model.predict_one(x) != label)
        assert model.learn_one(x, label) is model
        assert model.n_mistakes_ == sum(wrong), (
            t
        )  # learn_one's own prediction is the one made above
    # the same stream replayed in one compiled call: the same mistakes and weights
    replayed = OnlinePerceptron(classes=[0, 1], fit_intercept=False)
    found = replayed.replay(X, y)
    assert found.errors.tolist() == np.flatnonzero(wrong).tolist()
    assert found.updates.tolist() == found.errors.tolist()  # no tie here: every update was an error
    assert np.array_equal(replayed.coef_, model.coef_)


def test_online_replay_tells_updates_from_prediction_errors():
    # the first round is a tie (w = 0), which predicts classes_[0] = "ham": right, yet the rule
    # updates; a ham row with a score of exactly 0 later is the same case
    X = np.array([[1.0, 0.0], [0.0, 1.0], [1.0, 1.0], [2.0, 0.0], [0.0, 3.0]])
    y = np.array(["ham", "spam", "ham", "ham", "spam"])
    model = OnlinePerceptron(classes=["ham", "spam"], fit_intercept=False)
    found = model.replay(X, y)
    one_at_a_time = OnlinePerceptron(classes=["ham", "spam"], fit_intercept=False)
    predicted_wrong, updated = [], []
    for t, (x, label) in enumerate(zip(X, y, strict=True)):
        if one_at_a_time.predict_one(x) != label:
            predicted_wrong.append(t)
        before = one_at_a_time.n_mistakes_ if t else 0
        one_at_a_time.learn_one(x, label)
        if one_at_a_time.n_mistakes_ > before:
            updated.append(t)
    # ties at rounds 0, 1, 2 and 4 (w = 0, then w ⟂ x): right for the ham rows 0 and 2
    assert found.updates.tolist() == updated == [0, 1, 2, 4]
    assert found.errors.tolist() == predicted_wrong == [1, 4]
    assert model.n_mistakes_ == 4 and np.array_equal(model.coef_, one_at_a_time.coef_)
    # with a margin, right predictions inside it update too
    wide = OnlinePerceptron(classes=["ham", "spam"], fit_intercept=False, margin=5.0).replay(X, y)
    assert set(wide.errors) <= set(wide.updates) and len(wide.updates) > len(wide.errors)


def test_online_partial_fit_in_chunks_equals_one_pass_and_fit():
    X, y = _gaussian(8, n=60)
    labels = np.where(y == 1, "up", "down")
    chunked = OnlinePerceptron(margin=0.5)
    for start in range(0, 60, 7):
        chunked.partial_fit(X[start : start + 7], labels[start : start + 7], classes=["down", "up"])
    whole = OnlinePerceptron(margin=0.5).fit(X, labels)
    assert np.array_equal(chunked.coef_, whole.coef_) and chunked.intercept_ == whole.intercept_
    assert chunked.n_mistakes_ == whole.n_mistakes_
    run = perceptronlab.perceptron(
        X, np.where(y == 1, 1, -1), margin=0.5, fit_intercept=True, max_sweeps=1, warn=False
    )
    assert np.array_equal(whole.coef_[0], run.w) and whole.n_mistakes_ == run.mistakes
    refit = whole.fit(X[:5], labels[:5])  # fit starts over
    assert refit.n_mistakes_ <= 5


def test_online_signed_labels_need_no_classes():
    model = OnlinePerceptron(fit_intercept=False).partial_fit(EXAM_X, EXAM_Y)
    assert model.classes_.tolist() == [-1, 1] and model.n_mistakes_ == 2
    assert model.coef_.tolist() == [[0.0, -1.0]]
    assert model.predict_one([1, 0]) == -1  # a tie predicts the negative class
    assert model.predict_one([1, -1]) == 1 and isinstance(model.predict_one([1, -1]), int)


def test_online_predict_one_before_learning():
    assert OnlinePerceptron().predict_one([1.0, 2.0]) is None
    assert OnlinePerceptron(classes=["b", "a"]).predict_one([1.0, 2.0]) == "a"  # a tie: classes_[0]


def test_online_dicts_grow_the_features():
    model = OnlinePerceptron(classes=[False, True], fit_intercept=False)
    model.learn_one({"x": 1.0}, True).learn_one({"y": 2.0}, False).learn_one(
        {"x": 1.0, "y": 1.0}, True
    )
    # w = 0 ties: x; then <w, 2y> = 0 ties: (1, -2); then 1 - 2 < 0 for a True: (2, -1)
    assert model.coef_.tolist() == [[2.0, -1.0]] and model.n_mistakes_ == 3
    assert model.predict_one({"x": 3.0, "y": 1.0}) is True
    with pytest.raises(InputError, match="dict examples, as learned"):
        model.predict([[1.0, 0.0]])


# ---------------------------------------------------------------- bad input (section 8)

ESTIMATORS = [Perceptron, PocketPerceptron, OnlinePerceptron]


def _fit(cls, X, y, **params):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", NotConvergedWarning)
        return cls(**params).fit(X, y)


def _message(cls, X, y, **params) -> str:
    with pytest.raises(InputError) as caught:
        _fit(cls, X, y, **params)
    return str(caught.value)


@pytest.mark.parametrize("cls", ESTIMATORS)
def test_nan_and_inf_name_the_cell(cls):
    X = np.array(EXAM_X, dtype=float)
    X[1, 0] = np.nan
    assert _message(cls, X, EXAM_Y) == (
        "X: expected finite values, got NaN at row 1, column 0. Remove "
        "or impute the rows with NaN or inf (e.g. sklearn.impute.SimpleImputer)."
    )
    X[1, 0] = -np.inf
    assert "got -inf at row 1, column 0" in _message(cls, X, EXAM_Y)
    assert "got inf at row 0, column 1" in _message(
        cls, sp.csr_matrix([[1, np.inf], [0, 1], [1, 1]]), EXAM_Y
    )


@pytest.mark.parametrize(
    "params",
    [
        {},
        {"tol": None},
        {"penalty": "l1"},
        {"class_weight": "balanced"},
        {"order": "random-mistake", "shuffle": False, "tol": None},
    ],
)
@pytest.mark.parametrize("storage", ["dense", "float32", "csr"])
def test_perceptron_refuses_nan_as_the_boundary_does_though_its_first_sweep_finds_it(
    params, storage
):
    """Perceptron.fit leaves NaN and inf to its first sweep (no pass over X of its own): the
    message is still the boundary's, naming the first bad cell in row order (not the first row the
    shuffled sweep met), before the checks of y, and a refused fit keeps the last fit's width."""
    rng = np.random.default_rng(0)
    X = rng.normal(size=(60, 4))
    y = np.where(X[:, 0] > 0, "a", "b")
    model = _fit(Perceptron, X[:, :3], y, **params)
    X[[7, 51], [2, 1]] = [np.inf, np.nan]
    data = {"dense": X, "float32": X.astype(np.float32), "csr": sp.csr_matrix(X)}[storage]
    for labels in (y, np.full(60, "a")):  # a one-class y is refused after X's NaN
        with pytest.raises(InputError) as caught:
            model.fit(data, labels)
        assert str(caught.value) == (
            "X: expected finite values, got inf at row 7, column 2. Remove or impute the rows "
            "with NaN or inf (e.g. sklearn.impute.SimpleImputer)."
        )
        assert model.n_features_in_ == 3 and model.coef_.shape == (1, 3)
    fresh = Perceptron(**params)
    with pytest.raises(InputError, match="inf at row 7, column 2"):
        fresh.fit(data, y)
    assert not hasattr(fresh, "n_features_in_")


@pytest.mark.parametrize("cls", ESTIMATORS)
def test_ragged_rows(cls):
    message = _message(cls, [[1, 0], [1, 1, 5], [0, 1]], EXAM_Y)
    assert message == (
        "X: expected every row with 2 features (as row 0), got row 1 with 3. Fix the "
        "ragged row: every example needs the same features."
    )


@pytest.mark.parametrize("cls", ESTIMATORS)
def test_mismatched_lengths(cls):
    assert _message(cls, EXAM_X, [1, -1]) == (
        "y (the labels): expected 3 labels, one per row of X, got 2 "
        "labels. Check that X and y come from the same rows."
    )


@pytest.mark.parametrize("cls", ESTIMATORS)
def test_a_single_class(cls):
    message = _message(cls, EXAM_X, [0, 0, 0])
    assert message.startswith(
        "The number of classes has to be greater than one; got 1 class. "  # scikit-learn's
        "y (the labels): expected at least two classes, got only 0."
    )
    assert "Training needs examples of two classes" in message


@pytest.mark.parametrize("cls", ESTIMATORS)
def test_empty_data_and_zero_features(cls):
    assert _message(cls, np.empty((0, 2)), []) == (
        "X: expected at least one example (row), got 0 "
        "sample(s) (shape=(0, 2)). Pass a non-empty dataset."
    )
    assert _message(cls, np.empty((3, 0)), EXAM_Y) == (
        "X: expected at least one feature, got 0 feature(s) (shape=(3, 0)) while a minimum of 1 is "
        "required. Pass a dataset with feature columns."
    )


@pytest.mark.parametrize("cls", ESTIMATORS)
def test_non_numeric_cells(cls):
    message = _message(cls, [[1, 0], [1, "one"], [0, 1]], EXAM_Y)
    assert message.startswith(
        "X: expected numeric values, got 'one' at row 1, column 1 (could not "
        "convert string to float"
    )
    assert "Fix or drop non-numeric cells" in message
    with pytest.raises(TypeError, match=r"got \{'a': 1\} at row 2, column 0"):
        _fit(cls, np.array([[1, 0], [1, 1], [{"a": 1}, 1]], dtype=object), EXAM_Y)


@pytest.mark.parametrize("cls", ESTIMATORS)
def test_one_dimensional_and_complex_x(cls):
    assert _message(cls, [1.0, 2.0, 3.0], EXAM_Y).startswith(
        "X: expected a 2-D array (rows are examples), got a 1-D array of shape (3,). Reshape your "
        "data: X.reshape(-1, 1)"
    )
    assert "got complex values" in _message(cls, np.array(EXAM_X) * 1j, EXAM_Y)


@pytest.mark.parametrize("cls", ESTIMATORS)
@pytest.mark.parametrize(
    ("params", "expected"),
    [
        (
            dict(eta0=0),
            r"The 'eta0' parameter of \w+ must be a float in the range \(0.0, inf\). Got 0 "
            r"instead. Pass a learning rate > 0",
        ),
        (dict(eta0=-1.5), r"must be a float in the range \(0.0, inf\). Got -1.5 instead."),
        (
            dict(fit_intercept="yes"),
            r"The 'fit_intercept' parameter .* Got 'yes' instead. Pass fit_intercept=True",
        ),
    ],
)
def test_bad_shared_parameters(cls, params, expected):
    with pytest.raises(InputError, match=expected) as caught:
        _fit(cls, EXAM_X, EXAM_Y, **params)
    assert isinstance(caught.value, InvalidParameterError)


@pytest.mark.parametrize(
    ("cls", "params", "expected"),
    [
        (
            Perceptron,
            dict(margin=-0.5),
            r"The 'margin' parameter of Perceptron must be a float in the range "
            r"\[0.0, inf\). Got -0.5 instead. Pass margin=0.0 for the plain",
        ),
        (
            OnlinePerceptron,
            dict(margin=-1),
            r"'margin' parameter of OnlinePerceptron .* Got -1 instead.",
        ),
        (
            Perceptron,
            dict(max_iter=0),
            r"The 'max_iter' parameter of Perceptron must be an int in the "
            r"range \[1, inf\). Got 0 instead. Pass an integer >= 1",
        ),
        (PocketPerceptron, dict(max_iter=0), r"'max_iter' parameter .* Got 0 instead."),
        (
            PocketPerceptron,
            dict(max_updates=0),
            r"'max_updates' parameter .* Got 0 instead. Pass None",
        ),
        (
            Perceptron,
            dict(order="random"),
            r"'order' parameter .* Got 'random' instead. Pass order='cyclic'",
        ),
        (PocketPerceptron, dict(check="epoch"), r"'check' parameter .* Got 'epoch' instead."),
        (
            Perceptron,
            dict(random_state=-1),
            r"'random_state' parameter .* Got -1 instead. Pass random_state=None",
        ),
        (Perceptron, dict(tol=-1.0), r"'tol' parameter .* Got -1.0 instead. Pass tol=None"),
        (
            Perceptron,
            dict(class_weight="even"),
            r"'class_weight' parameter .* Pass class_weight=None",
        ),
        (
            Perceptron,
            dict(validation_fraction=1.0),
            r"'validation_fraction' parameter .* strictly between",
        ),
    ],
)
def test_bad_parameters(cls, params, expected):
    with pytest.raises(InputError, match=expected):
        _fit(cls, EXAM_X, EXAM_Y, **params)


@pytest.mark.parametrize("cls", ESTIMATORS)
def test_wrong_number_of_features_at_predict_time(cls):
    model = _fit(cls, EXAM_X, EXAM_Y)
    for method in (model.predict, model.decision_function):
        with pytest.raises(
            InputError,
            match=re.escape(
                f"X has 3 features, but {cls.__name__} is expecting 2 features as input. Pass data "
                "with the same columns, in the same order, as at fit time."
            ),
        ):
            method([[1, 2, 3]])
    with pytest.raises(InputError, match="Reshape your data"):
        model.predict([1.0, 2.0])
    with pytest.raises(InputError, match="NaN at row 0, column 1"):
        model.predict([[1.0, np.nan]])


@pytest.mark.parametrize("cls", ESTIMATORS)
def test_predict_before_fit(cls):
    model = cls()
    for method in ("predict", "decision_function"):
        with pytest.raises(
            NotFittedError, match=f"This {cls.__name__} instance is not fitted yet"
        ) as caught:
            getattr(model, method)(EXAM_X)
        assert isinstance(caught.value, SklearnNotFittedError)
    assert not hasattr(model, "coef_")


def test_more_than_two_classes_where_only_binary_is_supported():
    message = _message(OnlinePerceptron, XOR_X, [0, 1, 2, 1])
    assert message == (
        "y (the labels): expected two classes (Only binary classification is supported.), "
        "got 3 classes (0, 1, 2). Use perceptronlab.Perceptron or "
        "perceptronlab.PocketPerceptron (one-vs-rest) for more classes, or relabel to two."
    )
    with pytest.raises(InputError, match="got 3 classes"):
        OnlinePerceptron(classes=["a", "b", "c"]).learn_one([1.0], "a")


def test_online_needs_classes_for_other_labels():
    with pytest.raises(
        InputError,
        match=re.escape(
            "classes: expected the two class labels before the first example (partial_fit), "
            "got none, with labels [0, 1] in the data. Pass partial_fit(X, y, classes=[...]) or "
            "OnlinePerceptron(classes=[...])"
        ),
    ):
        OnlinePerceptron().partial_fit(XOR_X, XOR_Y)
    with pytest.raises(
        InputError
    ) as caught:  # learn_one takes no classes: the advice names a real parameter
        OnlinePerceptron().learn_one([1.0, 0.0], "spam")
    assert str(caught.value).endswith(
        "Pass OnlinePerceptron(classes=[...]) with both labels (only -1/+1 labels need none)."
    )
    with pytest.raises(InputError, match=r"Pass OnlinePerceptron\(classes=\[\.\.\.\]\)"):
        OnlinePerceptron().replay([[1.0, 0.0]], ["spam"])
    fresh = OnlinePerceptron(classes=[0, 1])
    with pytest.raises(InputError, match=r"labels among classes_ \[0, 1\], got 5"):
        fresh.partial_fit([[1, 2]], [5])
    assert not hasattr(fresh, "coef_") and fresh.predict_one([1, 2]) == 0  # nothing was learned
    model = OnlinePerceptron().partial_fit(XOR_X, XOR_Y, classes=[0, 1])
    with pytest.raises(InputError, match=r"labels among classes_ \[0, 1\], got 7"):
        model.partial_fit([[1, 1]], [7])
    with pytest.raises(InputError, match=r"expected the classes of the first call, \[0, 1\]"):
        model.partial_fit([[1, 1]], [1], classes=[1, 2])
    with pytest.raises(InputError, match="X has 3 features, but OnlinePerceptron is expecting 2"):
        model.partial_fit([[1, 1, 1]], [1])
    with pytest.raises(InputError, match=r"x: expected 2 features, as in earlier rounds, got 3"):
        model.learn_one([1.0, 2.0, 3.0], 1)
    with pytest.raises(InputError, match=r"x: expected one example \(a 1-D vector or a dict\)"):
        model.learn_one(np.ones((2, 2)), 1)


def test_bad_labels():
    with pytest.raises(InputError, match=r"y \(the labels\): Unknown label type: continuous"):
        Perceptron(shuffle=False, tol=None).fit(EXAM_X, [0.5, 1.5, 2.25])
    with pytest.raises(InputError, match="requires y to be passed, but the target y is None"):
        Perceptron(shuffle=False, tol=None).fit(EXAM_X, None)
    with pytest.raises(
        InputError, match=r"y \(the labels\): expected finite labels, got NaN or inf"
    ):
        Perceptron(shuffle=False, tol=None).fit(EXAM_X, [1.0, np.nan, 1.0])


def test_boundary_errors_pickle_for_parallel_search():
    # joblib sends a worker's exception back to the parent: it must survive pickling
    errors = []
    for call in (
        lambda: Perceptron(shuffle=False, tol=None, eta0=0).fit(EXAM_X, EXAM_Y),
        lambda: Perceptron(shuffle=False, tol=None).predict(EXAM_X),
        lambda: Perceptron(shuffle=False, tol=None).fit(np.array([[{}, 1]], dtype=object), [1]),
    ):
        with pytest.raises(PerceptronLabError) as caught:
            call()
        errors.append(caught.value)
    for error in errors:
        back = pickle.loads(pickle.dumps(error))
        assert type(back) is type(error) and str(back) == str(error)
    assert isinstance(errors[0], InvalidParameterError) and isinstance(errors[0], InputError)
    assert isinstance(errors[1], SklearnNotFittedError) and isinstance(errors[1], NotFittedError)
    assert isinstance(errors[2], TypeError) and isinstance(errors[2], InputError)


# ---------------------------------------------------------------- model files of 0.1.0


@pytest.mark.parametrize(
    ("name", "cls", "params"),
    [
        (
            "perceptron_ovr.json",
            Perceptron,
            dict(eta0=0.5, max_iter=7, random_state=3, order="shuffle"),
        ),
        ("pocket.json", PocketPerceptron, dict(eta0=1.0, max_iter=9, random_state=4)),
        ("run.json", Perceptron, dict(eta0=2.0, max_iter=5, random_state=1, order="shuffle")),
    ],
)
def test_model_files_of_0_1_0_load_with_the_new_names(name, cls, params):
    import json
    from pathlib import Path

    from sklearn.datasets import load_iris

    folder = Path(__file__).parent / "data" / "models-0.1.0"
    model = perceptronlab.load_model(folder / name)
    assert type(model) is cls
    assert {k: model.get_params()[k] for k in params} == params
    X, _ = load_iris(return_X_y=True)
    expected = np.array(json.loads((folder / "iris_scores.json").read_text())[name])
    assert model.decision_function(X).tobytes() == expected.tobytes()  # 0.1.0's scores, bit for bit
