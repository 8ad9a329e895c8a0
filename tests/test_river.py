"""perceptronlab.river_classifiers: River's own checks, and River's Perceptron as the oracle on River's bundled
datasets (the same accuracy in progressive validation, the same weights, bit for bit)."""

from __future__ import annotations

import itertools
import subprocess
import sys

import numpy as np
import pandas as pd
import pytest
import river  # the river extra: make setup installs it (a missing River fails here, it is not skipped)
from river import checks, datasets, evaluate, linear_model, metrics, preprocessing

import perceptronlab
from perceptronlab import river_classifiers as plriver


@pytest.mark.parametrize(
    "model",
    [
        plriver.Perceptron(),
        plriver.AveragedPerceptron(),
        plriver.Perceptron(eta0=0.5, margin=0.1, fit_intercept=False),
    ],
)
def test_rivers_own_checks(model):
    assert isinstance(model, river.base.Classifier) and isinstance(
        model, river.base.MiniBatchClassifier
    )
    ran = [check.__name__ for check in checks.yield_checks(model)]
    assert (
        "check_learn_many_matches_learn_one" in ran
        and len(ran) > 40
        and not model._unit_test_skips()
    )
    checks.check_estimator(model)


@pytest.mark.parametrize(
    "dataset",
    [datasets.Phishing(), datasets.Bananas(), datasets.Shuttle()],
    ids=lambda d: type(d).__name__,
)
def test_progressive_validation_equals_rivers_perceptron(dataset):
    theirs = preprocessing.StandardScaler() | linear_model.Perceptron()
    ours = preprocessing.StandardScaler() | plriver.Perceptron()
    their_accuracy = evaluate.progressive_val_score(dataset, theirs, metrics.Accuracy())
    our_accuracy = evaluate.progressive_val_score(dataset, ours, metrics.Accuracy())
    assert our_accuracy.get() == their_accuracy.get()
    their_model, our_model = theirs["Perceptron"], ours["Perceptron"]
    assert our_model.weights == their_model.weights  # every weight, exactly
    assert our_model.intercept == their_model.intercept
    assert our_model.n_mistakes > 0


def test_every_prediction_equals_rivers_on_a_stream():
    theirs, ours = linear_model.Perceptron(), plriver.Perceptron()
    scaler = preprocessing.StandardScaler()
    for x, y in datasets.Phishing():
        scaler.learn_one(x)
        x = scaler.transform_one(x)
        assert ours.predict_one(x) == theirs.predict_one(x)
        ours.learn_one(x, y)
        theirs.learn_one(x, y)
    assert ours.weights == theirs.weights


def test_mini_batches_are_the_rounds_one_row_at_a_time():
    rows = [x for x, _ in itertools.islice(datasets.Phishing(), 300)]
    labels = [y for _, y in itertools.islice(datasets.Phishing(), 300)]
    X = pd.DataFrame(rows, index=np.arange(1000, 1300))
    y = pd.Series(labels, index=X.index)
    batched, single = plriver.Perceptron(), plriver.Perceptron()
    for start in range(0, 300, 64):
        batched.learn_many(X.iloc[start : start + 64], y.iloc[start : start + 64])
    for x, label in zip(rows, labels, strict=True):
        single.learn_one(x, label)
    assert batched.weights == single.weights and batched.n_mistakes == single.n_mistakes
    predicted = batched.predict_many(X)
    assert predicted.index.equals(X.index) and predicted.dtype == bool
    assert predicted.tolist() == [single.predict_one(x) for x in rows]


@pytest.mark.parametrize("dataset", [datasets.Phishing, datasets.Bananas])
def test_learn_many_is_the_learn_one_loop_weight_for_weight(dataset):
    """River's bundled streams, in pandas batches of 100 (booleans, or 1/0 labels): the same
    weights (same bits, same order), intercept, mistakes and predictions as learn_one row by row."""
    stream = list(itertools.islice(dataset(), 1000))
    X = pd.DataFrame([x for x, _ in stream])
    for labels in ([y for _, y in stream], [int(y) for _, y in stream]):
        y = pd.Series(labels)
        batched, single = plriver.Perceptron(eta0=0.5), plriver.Perceptron(eta0=0.5)
        for start in range(0, len(stream), 100):
            batched.learn_many(X.iloc[start : start + 100], y.iloc[start : start + 100])
        for x, label in zip(X.to_dict(orient="records"), labels, strict=True):
            single.learn_one(x, label)
        assert (
            list(batched.weights.items()) == list(single.weights.items()) and single.n_mistakes > 10
        )
        assert batched.intercept == single.intercept and batched.n_mistakes == single.n_mistakes
        assert batched.predict_many(X).tolist() == [
            single.predict_one(x) for x in X.to_dict(orient="records")
        ]


def test_batches_whose_columns_change_are_learned_by_name():
    """learn_many keeps the last batch's column names (batches of a stream share them): batches
    with the columns reordered, renamed, or equal in value but of another dtype are each read by
    their own names, as learn_one reads their rows."""
    rng = np.random.default_rng(4)
    frames = [
        pd.DataFrame(rng.normal(size=(30, 3)), columns=columns)
        for columns in (["a", "b", "c"], ["a", "b", "c"], ["c", "a", "b"], ["a", "b", "d"])
    ]
    frames += [
        pd.DataFrame(rng.normal(size=(30, 2)), columns=pd.Index(columns))
        for columns in ([1, 2], [1.0, 2.0], [1, 2])
    ]
    batched, single = plriver.Perceptron(), plriver.Perceptron()
    for frame in frames:
        labels = pd.Series(rng.random(frame.shape[0]) < 0.5)
        batched.learn_many(frame, labels)
        for x, label in zip(frame.to_dict(orient="records"), labels, strict=True):
            single.learn_one(x, label)
    assert single.n_mistakes > 20
    assert [(type(k), k, v) for k, v in batched.weights.items()] == [
        (type(k), k, v) for k, v in single.weights.items()
    ]
    assert batched.intercept == single.intercept and batched.n_mistakes == single.n_mistakes
    with pytest.raises(perceptronlab.InputError, match="distinct column names"):
        batched.learn_many(pd.DataFrame(np.ones((2, 2)), columns=["a", "a"]), [True, False])


def test_learn_many_refuses_a_wrong_number_of_labels():
    with pytest.raises(perceptronlab.InputError, match="y: expected 2 labels"):
        plriver.Perceptron().learn_many(pd.DataFrame({"a": [1.0, 2.0]}), [True])


def test_the_average_is_over_every_round():
    rows = list(itertools.islice(datasets.Bananas(), 200))
    averaged, plain = plriver.AveragedPerceptron(), plriver.Perceptron()
    after_each = []
    for x, y in rows:
        averaged.learn_one(x, y)
        plain.learn_one(x, y)
        after_each.append(plain.weights | {"__b": plain.intercept})
    names = list(after_each[-1])
    mean = {name: np.mean([w.get(name, 0.0) for w in after_each]) for name in names}
    assert averaged.n_rounds == 200 and averaged.n_mistakes == plain.n_mistakes
    for name in names[:-1]:
        assert averaged.weights[name] == pytest.approx(mean[name], rel=1e-12, abs=1e-12)
    assert averaged.intercept == pytest.approx(mean["__b"], rel=1e-12, abs=1e-12)


def test_labels_must_be_booleans():
    model = plriver.Perceptron()
    model.learn_one({"a": 1.0}, np.True_)
    model.learn_one({"a": 1.0}, 0)
    with pytest.raises(
        perceptronlab.InputError, match=r"y: expected a boolean label .* got 'spam'"
    ):
        model.learn_one({"a": 1.0}, "spam")
    with pytest.raises(perceptronlab.InputError, match="X: expected a pandas DataFrame"):
        model.predict_many([[1.0]])


def test_without_river_the_message_names_the_extra():
    code = (
        "import sys\nsys.modules['river'] = None\n"
        "try:\n    import perceptronlab.river_classifiers\nexcept ImportError as exc:\n    print(exc)\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert 'pip install "perceptronlab[river]"' in done.stdout, done.stderr[-2000:]
    assert "sys.modules" not in done.stdout  # the message, not a traceback


def test_importing_perceptronlab_does_not_import_river():
    done = subprocess.run(
        [sys.executable, "-c", "import sys, perceptronlab; print('river' in sys.modules)"],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.stdout.strip() == "False"
