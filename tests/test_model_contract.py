"""The model file as a contract (issue 13 item 3): what load_model, LoadedModel and save_model
accept, and feature names stored at training and matched at prediction."""

from __future__ import annotations

import json
import time
import warnings

import numpy as np
import pytest
from typer.testing import CliRunner

import perceptronlab as pl
from perceptronlab.cli import app
from perceptronlab.estimators import LoadedModel, load_model
from perceptronlab.exceptions import InputError
from perceptronlab.io import check_model_document, save_model

runner = CliRunner()

BASE = {
    "format": "perceptronlab-model",
    "version": 1,
    "algorithm": "perceptron",
    "estimator": "perceptronlab.Run",
    "exact": False,
    "params": {"eta": 1.0, "fit_intercept": False},
    "n_features": 2,
    "classes": [-1, 1],
    "w": [1.0, -2.0],
    "b": 0.0,
    "training": {"mistakes": 5, "sweeps": 4, "converged": True},
}


def _load_text(tmp_path, text: str):
    path = tmp_path / "m.json"
    path.write_text(text)
    return load_model(path)


def _load(tmp_path, **changes):
    return _load_text(tmp_path, json.dumps({**BASE, **changes}))


def _one_error_line(result) -> str:
    lines = [ln for ln in result.stderr.splitlines() if ln.strip()]
    assert len(lines) == 1 and lines[0].startswith("Error: "), result.stderr
    return lines[0]


# ================================================================ the reproductions of the issue


@pytest.mark.parametrize(
    ("text", "match"),
    [
        ('"classes": [NaN, 1]', "field 'classes'.*finite numbers.*nan"),
        ('"classes": [1, 1.0]', "field 'classes'.*one type.*mixed integers and numbers"),
        ('"classes": [true, 1]', "field 'classes'.*one type.*mixed booleans and integers"),
        ('"classes": ["a", null]', "field 'classes'.*strings, integers, booleans"),
        ('"classes": [1.5, 1.5]', "distinct"),
        ('"w": [1e309, 1]', "field 'w'.*finite"),
        ('"w": [NaN, 1]', "field 'w'.*finite"),
        ('"w": [Infinity, 1]', "field 'w'.*finite"),
        ('"b": -Infinity', "field 'b'.*finite"),
        ('"training": {"mistakes": [[1], [1, 2]]}', r"field 'training.mistakes'"),
        ('"training": {"mistakes": -1}', r"field 'training.mistakes'.*integer >= 0"),
        ('"training": {"converged": "yes"}', r"field 'training.converged'"),
        ('"training": []', "field 'training'.*an object"),
        ('"estimator": 3', "field 'estimator'"),
        ('"feature_names": ["x1"]', "field 'feature_names'.*2 names"),
        ('"feature_names": ["x1", "x1"]', "field 'feature_names'.*distinct"),
        ('"feature_names": ["x1", 2]', "field 'feature_names'"),
        ('"feature_names": ["x1", "y"], "label_name": "y"', "field 'label_name'.*not a feature"),
        ('"preprocessing": {"scale": [1, 2]}', "field 'preprocessing.version'"),
        (
            '"exact": true, "preprocessing": {"version": 1, "scaler": "maxabs", "scale": [1, 2]}',
            "field 'preprocessing'.*no scaler in an exact model",
        ),
    ],
)
def test_malformed_documents_are_refused_with_the_field(tmp_path, text, match):
    document = json.dumps(BASE)[:-1] + ", " + text + "}"
    with pytest.raises(InputError, match=match):
        _load_text(tmp_path, document)


def test_json_that_breaks_the_parser_is_a_clean_error(tmp_path):
    with pytest.raises(InputError, match="nested too deeply"):
        _load_text(tmp_path, "[" * 100_000)
    with pytest.raises(InputError, match="4,300 digits"):
        _load_text(tmp_path, json.dumps(BASE).replace("-2.0", "1" * 4301))
    started = time.perf_counter()
    with pytest.raises(InputError):
        _load_text(
            tmp_path, '{"format": "perceptronlab-model", "version": 1, "w": [' + "9" * 4299 + "]}"
        )
    assert time.perf_counter() - started < 60  # generous: the point is that it ends, cleanly


def test_the_cli_reports_a_bad_model_in_one_line(tmp_path):
    model = tmp_path / "m.json"
    model.write_text(json.dumps({**BASE, "classes": [1, 1.0]}))
    data = tmp_path / "d.csv"
    data.write_text("x1,x2,y\n1,0,1\n")
    result = runner.invoke(app, ["predict", str(model), str(data)])
    assert result.exit_code == 1 and "one type" in _one_error_line(result)


def test_valid_documents_of_every_label_type_load(tmp_path):
    for classes in (["no", "yes"], [False, True], [0.5, 1.5], [3, 7]):
        model = _load(tmp_path, classes=classes)
        assert model.classes_.tolist() == classes
        assert model.predict([[1, 0], [0, 1]]).tolist() == [classes[1], classes[0]]
    old = dict(BASE)
    del old["training"], old["estimator"]
    model = _load_text(tmp_path, json.dumps(old))  # an older file: no training, no names
    assert not hasattr(model, "feature_names_in_") and model.predict([[1, 0]]).tolist() == [1]
    assert _load(tmp_path, preprocessing=None).predict([[1, 0]]).tolist() == [1]


def test_save_model_checks_the_same_contract(tmp_path):
    run = pl.perceptron([[1.0, 0.0], [0.0, 1.0]], [1, -1])
    with pytest.raises(InputError, match="field 'feature_names'.*2 names"):
        save_model(run, tmp_path / "m.json", feature_names=["only one"])
    assert not (tmp_path / "m.json").exists()
    with pytest.raises(InputError, match="field 'label_name'.*not a feature"):
        save_model(run, tmp_path / "m.json", feature_names=["a", "b"], label_name="a")
    fields = check_model_document(BASE)
    assert fields["coef"].tolist() == [[1.0, -2.0]] and fields["feature_names"] is None


# ================================================================ feature names


@pytest.fixture
def trained(tmp_path):
    """A model trained by the CLI on a CSV with three features (x1, x2, x3) and label y."""
    data = tmp_path / "train.csv"
    data.write_text("x1,x2,x3,y\n1,0,0,1\n0,1,0,-1\n0,0,1,-1\n1,1,0,1\n")
    model = tmp_path / "m.json"
    result = runner.invoke(app, ["train", str(data), "--out", str(model), "-q"])
    assert result.exit_code == 0, result.output
    return model, data


def test_training_stores_the_feature_names(trained):
    model, _ = trained
    document = json.loads(model.read_text())
    assert document["feature_names"] == ["x1", "x2", "x3"] and document["label_name"] == "y"
    loaded = load_model(model)
    assert loaded.feature_names_in_.tolist() == ["x1", "x2", "x3"]
    assert load_model(model, as_estimator=False).label_name == "y"


def test_a_label_column_is_never_taken_for_a_feature(trained, tmp_path):
    model, _ = trained
    two = tmp_path / "two.csv"
    two.write_text("x1,x2,y\n1,0,1\n0,1,-1\n")
    result = runner.invoke(app, ["predict", str(model), str(two)])
    line = _one_error_line(result)
    assert result.exit_code == 1 and "3 features" in line and "no column 'x3'" in line


def test_prediction_takes_the_columns_by_name(trained, tmp_path):
    model, data = trained
    expected = runner.invoke(app, ["predict", str(model), str(data), "--json"])
    assert (
        expected.exit_code == 0 and "accuracy" in expected.stderr
    )  # the label column is found by name
    shuffled = tmp_path / "shuffled.csv"
    shuffled.write_text("id,x3,x1,x2\na,0,1,0\nb,0,0,1\nc,1,0,0\nd,0,1,1\n")
    result = runner.invoke(app, ["predict", str(model), str(shuffled), "--json"])
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout) == json.loads(expected.stdout)
    assert "accuracy" not in result.stderr  # no label column in this file


def test_dataframes_are_matched_by_name(trained):
    pd = pytest.importorskip("pandas")
    model, _ = trained
    loaded = load_model(model, as_estimator=False)
    frame = pd.DataFrame({"x3": [0, 1], "x1": [1, 0], "x2": [0, 0], "y": [1, -1]})
    assert (
        loaded.predict(frame).tolist() == loaded.predict(np.array([[1, 0, 0], [0, 0, 1]])).tolist()
    )
    with pytest.raises(InputError, match="no column 'x2'"):
        loaded.predict(frame.drop(columns="x2"))


def test_a_model_without_feature_names_still_predicts_and_warns_when_it_guesses(tmp_path):
    model = tmp_path / "old.json"
    old = {**BASE, "n_features": 3, "w": [1.0, -1.0, 0.5]}
    model.write_text(json.dumps(old))
    labelled = tmp_path / "labelled.csv"
    labelled.write_text("a,b,c,y\n1,0,0,1\n0,1,0,-1\n")
    result = runner.invoke(app, ["predict", str(model), str(labelled)])
    assert result.exit_code == 0 and result.stdout.split() == ["1", "-1"]
    unlabelled = tmp_path / "unlabelled.csv"
    unlabelled.write_text("a,b,y\n1,0,0\n0,1,0\n")
    result = runner.invoke(app, ["predict", str(model), str(unlabelled)])
    assert result.exit_code == 0 and result.stdout.split() == ["1", "-1"]
    assert (
        "Warning:" in result.stderr
        and "no feature names" in result.stderr
        and "'y' included" in result.stderr
    )


def test_estimators_keep_their_feature_names(tmp_path):
    pd = pytest.importorskip("pandas")
    frame = pd.DataFrame({"a": [1.0, 0.0, 2.0], "b": [0.0, 1.0, 0.0]})
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        fitted = pl.Perceptron().fit(frame, [1, -1, 1])
    path = save_model(fitted, tmp_path / "e.json")
    assert json.loads(path.read_text())["feature_names"] == ["a", "b"]
    loaded = load_model(path)
    assert loaded.feature_names_in_.tolist() == ["a", "b"]
    assert loaded.predict(frame).tolist() == fitted.predict(frame).tolist()
    assert isinstance(load_model(path, as_estimator=False), LoadedModel)


def test_a_scaled_model_keeps_its_names_and_its_scaler(tmp_path):
    data = tmp_path / "train.csv"
    data.write_text("x1,x2,y\n100,0,1\n0,1,-1\n300,1,1\n0,3,-1\n")
    model = tmp_path / "m.json"
    assert (
        runner.invoke(
            app, ["train", str(data), "--scale", "standard", "--out", str(model), "-q"]
        ).exit_code
        == 0
    )
    document = json.loads(model.read_text())
    assert (
        document["feature_names"] == ["x1", "x2"]
        and document["preprocessing"]["scaler"] == "standard"
    )
    expected = runner.invoke(app, ["predict", str(model), str(data)]).stdout.split()
    shuffled = tmp_path / "shuffled.csv"
    shuffled.write_text("x2,x1\n0,100\n1,0\n1,300\n3,0\n")
    assert runner.invoke(app, ["predict", str(model), str(shuffled)]).stdout.split() == expected
    pd = pytest.importorskip("pandas")
    pipeline = load_model(
        model
    )  # a scikit-learn Pipeline: the names on its first step, checked as scikit-learn does
    frame = pd.DataFrame({"x1": [100, 0], "x2": [0, 1]})
    assert pipeline.predict(frame).tolist() == [int(v) for v in expected[:2]]
    with pytest.raises(ValueError, match="feature names"):
        pipeline.predict(frame[["x2", "x1"]])
    loaded = load_model(model, as_estimator=False)  # perceptronlab's own model takes them by name
    assert loaded.predict(frame[["x2", "x1"]]).tolist() == [int(v) for v in expected[:2]]
