"""The family's scikit-learn estimators: scikit-learn's own checks, one-vs-rest, pickling, messages."""

import pickle
import warnings

import numpy as np
import pytest
from sklearn.base import clone
from sklearn.datasets import load_iris
from sklearn.linear_model import Perceptron as SkPerceptron
from sklearn.preprocessing import StandardScaler
from sklearn.utils.estimator_checks import estimator_checks_generator

import perceptronlab
from perceptronlab import (
    AveragedPerceptron,
    InputError,
    KernelPerceptron,
    MulticlassPerceptron,
    NotConvergedWarning,
    VotedPerceptron,
    averaged_perceptron,
    kernel_perceptron,
    voted_perceptron,
)

ESTIMATORS = [AveragedPerceptron(), VotedPerceptron(), KernelPerceptron(), MulticlassPerceptron()]


def _checks():
    # every check of parametrize_with_checks, less the array-API one (it needs SCIPY_ARRAY_API
    # set before SciPy is imported, and these learners take NumPy and SciPy sparse input only)
    for estimator in ESTIMATORS:
        for est, check in estimator_checks_generator(estimator, legacy=True, mark=None):
            name = getattr(check, "func", check).__name__
            if name != "check_array_api_input":
                yield pytest.param(est, check, id=f"{type(est).__name__}-{name}")


@pytest.mark.parametrize("estimator, check", list(_checks()))
def test_scikit_learn_checks(estimator, check):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", NotConvergedWarning)
        check(estimator)


def test_public_names_are_the_family_s_own():
    from perceptronlab import estimators
    from perceptronlab.family import averaged, kernel, multiclass, voted

    for module, function, estimator in (
        (averaged, "averaged_perceptron", "AveragedPerceptron"),
        (voted, "voted_perceptron", "VotedPerceptron"),
        (kernel, "kernel_perceptron", "KernelPerceptron"),
        (multiclass, "multiclass_perceptron", "MulticlassPerceptron"),
    ):
        assert {function, estimator} <= set(perceptronlab.__all__)
        assert getattr(perceptronlab, function) is getattr(
            module, function
        )  # not a stale copy or a wrapper
        assert getattr(perceptronlab, estimator) is getattr(estimators, estimator)
        assert getattr(perceptronlab, estimator)().fit([[1, 0], [0, 1]], [0, 1]).predict(
            [[1, 0]]
        ).tolist() == [0]


@pytest.fixture(scope="module")
def iris():
    X, y = load_iris(return_X_y=True)
    return StandardScaler().fit_transform(X), y


def test_one_vs_rest_runs_are_the_functional_runs(iris):
    X, y = iris
    warnings.simplefilter("ignore", NotConvergedWarning)
    clf = AveragedPerceptron(max_iter=10).fit(X, y)
    assert clf.coef_.shape == (3, 4)
    for k, label in enumerate(clf.classes_):
        run = averaged_perceptron(
            X, np.where(y == label, 1, -1), fit_intercept=True, max_sweeps=10, warn=False
        )
        np.testing.assert_array_equal(clf.coef_[k], run.w)
        assert clf.intercept_[k] == run.b
    voted = VotedPerceptron(max_iter=10).fit(X, y)
    run = voted_perceptron(
        X, np.where(y == 2, 1, -1), fit_intercept=True, max_sweeps=10, warn=False
    )
    np.testing.assert_allclose(voted.decision_function(X)[:, 2], run.decision_function(X))
    kern = KernelPerceptron(kernel="poly", degree=2, max_iter=10).fit(X, y)
    run = kernel_perceptron(
        X,
        np.where(y == 0, 1, -1),
        kernel="poly",
        degree=2,
        fit_intercept=True,
        max_sweeps=10,
        warn=False,
    )
    np.testing.assert_allclose(kern.decision_function(X)[:, 0], run.decision_function(X))


def test_learners_fit_iris_about_as_well_as_scikit_learn(iris):
    X, y = iris
    baseline = SkPerceptron(random_state=0).fit(X, y).score(X, y)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", NotConvergedWarning)
        scores = {
            type(m).__name__ + getattr(m, "variant", ""): m.fit(X, y).score(X, y)
            for m in [
                AveragedPerceptron(max_iter=20),
                VotedPerceptron(max_iter=20),
                KernelPerceptron(max_iter=20),
                KernelPerceptron(variant="averaged", max_iter=20),
                MulticlassPerceptron(averaged=True, max_iter=20),
            ]
        }
    for name, score in scores.items():
        assert score >= min(0.9, baseline), (name, score)


def test_multiclass_binary_decision_is_the_score_difference():
    X = np.array([[2.0, 1.0], [1.0, 3.0], [3.0, -1.0], [-1.0, 2.0]])
    y = np.array(["no", "yes", "no", "yes"])
    clf = MulticlassPerceptron(fit_intercept=False).fit(X, y)
    scores = X @ clf.coef_.T
    np.testing.assert_allclose(clf.decision_function(X), scores[:, 1] - scores[:, 0])
    assert clf.predict(X).tolist() == y.tolist()


@pytest.mark.parametrize("estimator", ESTIMATORS, ids=lambda e: type(e).__name__)
def test_pickle_round_trip_predicts_the_same(estimator, iris):
    X, y = iris
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", NotConvergedWarning)
        model = clone(estimator).set_params(max_iter=5).fit(X, y)
    again = pickle.loads(pickle.dumps(model))
    np.testing.assert_array_equal(again.predict(X), model.predict(X))
    # the pickle drops the training data from its copy, not from the live model
    runs = model.run_ if isinstance(model.run_, list) else [model.run_]
    assert all(run.data is not None for run in runs)
    again_runs = again.run_ if isinstance(again.run_, list) else [again.run_]
    assert all(run.data is None for run in again_runs)


def test_nonconvergence_warns_with_the_class(iris):
    X, y = iris
    with pytest.warns(NotConvergedWarning, match="class 1 vs rest"):
        VotedPerceptron(max_iter=2).fit(X, y)


@pytest.mark.parametrize(
    "estimator, match",
    [
        (KernelPerceptron(kernel="sigmoid"), "'kernel' parameter"),
        (KernelPerceptron(budget=0), "'budget' parameter"),
        (VotedPerceptron(max_vectors=-1), "'max_vectors' parameter"),
        (AveragedPerceptron(order="random-mistake"), "'order' parameter"),
        (MulticlassPerceptron(eta0=0), "'eta0' parameter"),
    ],
)
def test_bad_parameters_raise_input_errors(estimator, match):
    with pytest.raises(InputError, match=match):
        estimator.fit([[0.0, 1.0], [1.0, 0.0]], [0, 1])


def test_bad_data_messages():
    with pytest.raises(InputError, match="X: expected finite values"):
        KernelPerceptron().fit([[0.0, np.nan], [1.0, 0.0]], [0, 1])
    with pytest.raises(InputError, match="at least two classes"):
        MulticlassPerceptron().fit([[0.0, 1.0], [1.0, 0.0]], ["a", "a"])
    clf = VotedPerceptron().fit([[0.0, 1.0], [1.0, 0.0]], [0, 1])
    with pytest.raises(InputError, match="X has 3 features"):
        clf.predict([[0.0, 1.0, 2.0]])
