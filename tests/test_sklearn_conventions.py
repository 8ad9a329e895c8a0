"""scikit-learn's conventions in the estimators: its refusals in its words (then perceptronlab's
what / expected / got / fix), one class refused, its warning's words.

Each message below is matched with the pattern scikit-learn's own ``test_sgd.py`` matches its
message with; the functional API keeps the lectures' one-class case.
"""

from __future__ import annotations

import numpy as np
import pytest
from sklearn.datasets import load_iris
from sklearn.exceptions import ConvergenceWarning
from sklearn.linear_model import Perceptron as SkPerceptron

import perceptronlab
from perceptronlab import Perceptron

X, Y = load_iris(return_X_y=True)
Y2 = (Y == 1).astype(int)  # two classes, as test_sgd.py's start-weight checks

REFUSALS = [
    (
        lambda P: P().fit(X, Y2, coef_init=np.zeros((3,))),
        "Provided coef_init does not match dataset",
        "coef_init:",
    ),
    (
        lambda P: P().fit(X, Y2, intercept_init=np.zeros((3,))),
        "does not match dataset",
        "intercept_init:",
    ),
    (
        lambda P: P(early_stopping=True).partial_fit(X, Y),
        "early_stopping should be False with partial_fit",
        "Pass early_stopping=False",
    ),
    (
        lambda P: P(class_weight="balanced").partial_fit(X, Y, classes=np.unique(Y)),
        r"class_weight 'balanced' is not supported for partial_fit\. In order to use 'balanced' weights, use "
        r"compute_class_weight\('balanced', classes=classes, y=y\). In place of y you can use a large enough sample "
        r"of the full training set target to properly estimate the class frequency distributions\. Pass the "
        r"resulting weights as the class_weight parameter\.",
        "Pass class_weight=dict",
    ),
    (
        lambda P: P(early_stopping=True, validation_fraction=0.4, random_state=0).fit(
            X, Y, sample_weight=np.zeros(150)
        ),
        "The sample weights for validation set are all zero, consider using a different random state.",
        "Pass another random_state",
    ),
    (
        lambda P: P(penalty="elasticnet", l1_ratio=None).fit(X, Y),
        r"The 'l1_ratio' parameter of Perceptron must be a float in the range \[0.0, 1.0\]. Got None instead.",
        "Pass a number in [0, 1]",
    ),
    (
        lambda P: P().fit(X, np.ones(150)),
        "The number of classes has to be greater than one; got 1 class",
        "perceptronlab.perceptron",
    ),
]


@pytest.mark.parametrize(("call", "words", "fix"), REFUSALS, ids=[w[:30] for _, w, _ in REFUSALS])
def test_refusals_in_scikit_learns_words_then_ours(call, words, fix):
    with pytest.raises(
        ValueError, match=words
    ):  # scikit-learn refuses the same call with these words
        call(SkPerceptron)
    with pytest.raises(perceptronlab.InputError, match=words) as caught:
        call(Perceptron)
    assert fix in str(caught.value) and str(caught.value).count("\n") == 0  # one line, with the fix


def test_one_class_of_signed_labels_is_refused_by_the_estimator_not_by_the_functional_api():
    worst_case = np.eye(3)
    with pytest.raises(ValueError, match="has to be greater than one"):
        Perceptron(shuffle=False, tol=None, fit_intercept=False).fit(worst_case, [1, 1, 1])
    run = perceptronlab.perceptron(worst_case, [1, 1, 1])  # the lectures' worst case stays a run
    assert run.converged and run.mistakes == 3


def test_the_stopping_rules_warning_has_scikit_learns_words():
    words = "Maximum number of iteration reached before convergence. Consider increasing max_iter"
    with pytest.warns(ConvergenceWarning, match=words):
        SkPerceptron(max_iter=3, tol=1e-3, random_state=0).fit(X, Y)
    with pytest.warns(ConvergenceWarning, match=words):
        Perceptron(max_iter=3, tol=1e-3, random_state=0).fit(X, Y)


FAMILY = [
    perceptronlab.PocketPerceptron,
    perceptronlab.AveragedPerceptron,
    perceptronlab.VotedPerceptron,
    perceptronlab.KernelPerceptron,
    perceptronlab.MulticlassPerceptron,
    perceptronlab.OnlinePerceptron,
]
SCIKIT_LEARN_NAMES = sorted(set(SkPerceptron().get_params()) - {"eta0", "fit_intercept"})


@pytest.mark.parametrize("cls", FAMILY, ids=lambda cls: cls.__name__)
def test_every_family_estimator_takes_scikit_learns_names_or_says_why_not(cls):
    """Each of scikit-learn's Perceptron parameters is a parameter of the learner (and then
    set_params/get_params carry it) or a TypeError that gives the reason."""
    taken = []
    for name in SCIKIT_LEARN_NAMES:
        value = SkPerceptron().get_params()[name]
        if name in cls().get_params():
            taken.append(name)
            assert cls(**{name: value}).get_params()[name] == value
        else:
            with pytest.raises(TypeError, match=rf"unexpected keyword argument '{name}': \w.*\w"):
                cls(**{name: value})
    assert "random_state" in taken or cls is perceptronlab.OnlinePerceptron


@pytest.mark.parametrize("cls", FAMILY[:-1], ids=lambda cls: cls.__name__)
def test_scikit_learns_fit_parameters_are_refused_with_the_reason(cls):
    for name in ("sample_weight", "coef_init", "intercept_init"):
        with pytest.raises(
            TypeError,
            match=rf"{cls.__name__}.fit got an unexpected keyword argument '{name}': "
            r"it.*perceptronlab.Perceptron has scikit-learn's",
        ):
            cls().fit(X, Y, **{name: None})
    if hasattr(cls, "partial_fit"):
        with pytest.raises(
            TypeError, match="partial_fit got an unexpected keyword argument 'sample_weight'"
        ):
            cls().partial_fit(X, Y, classes=np.unique(Y), sample_weight=np.ones(150))


def test_the_multiclass_perceptron_refuses_one_class_in_scikit_learns_words():
    with pytest.raises(
        ValueError, match="The number of classes has to be greater than one; got 1 class"
    ):
        perceptronlab.MulticlassPerceptron().fit(X, np.zeros(150))
