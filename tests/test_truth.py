"""Issue 14, item 1: analyze and report tell the truth on a user's own data, through the command line.

bc200.csv is the first 200 rows of scikit-learn's breast cancer, unscaled (tests/conftest.py): the
features range from about 0.001 to 4,000, so R²/ρ*² is about 3.5 × 10¹⁰ and the cyclic perceptron
does not converge within the analysis' 100,000 sweeps. One run on every page, an unfinished run
never told as a success, vacuous bounds marked, the reason and the remedy said in the command's
flags, and --scale standard|maxabs as the remedy, saved with the model and applied by predict.
"""

from __future__ import annotations

import html
import json
import re

import numpy as np
import pytest
from typer.testing import CliRunner

import perceptronlab as pl
from perceptronlab.cli import app

runner = CliRunner()


def noise(text: str) -> list[str]:
    """Float noise as the issue found it (8624.643000000617): numbers with more than 9 significant digits."""
    return [m for m in re.findall(r"\d+\.\d+", text) if len(m.replace(".", "").lstrip("0")) > 9]


def invoke(*args):
    return runner.invoke(app, [str(a) for a in args])


def page_text(page: str) -> str:
    """The words of an HTML page: no images, no tags, entities decoded."""
    page = re.sub(r"<style>.*?</style>|<img[^>]*>", " ", page, flags=re.S)
    return html.unescape(re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", page)))


def card(page: str, label: str) -> str:
    match = re.search(
        rf'<div class="label">{re.escape(html.escape(label, quote=True))}</div>'
        r'<div class="value">([^<]*)</div>',
        page,
    )
    assert match, label
    return html.unescape(match.group(1))


def _xy(path):
    return pl.read_data(path, label="label")


def _report_and_analysis(run_once, data, *flags):
    """`perceptronlab report DATA FLAGS` and `perceptronlab analyze DATA FLAGS --json`, as a user runs
    them (each once per test run: the README's story reads the same reports)."""
    folder, _ = run_once("report", data, *flags, "--quiet")
    _, printed = run_once("analyze", data, *flags, "--json")
    return (folder / "out" / "report.html").read_text(encoding="utf-8"), json.loads(printed)


@pytest.fixture(scope="module")
def unscaled(bc200_csv, run_once):
    return _report_and_analysis(run_once, bc200_csv)


@pytest.fixture(scope="module")
def scaled(bc200_csv, run_once):
    return _report_and_analysis(run_once, bc200_csv, "--scale", "standard")


# ---------------------------------------------------------------- the unscaled data: the truth


def test_analyze_says_the_run_is_unfinished_and_why(unscaled):
    _, record = unscaled
    run = record["run"]
    assert (
        record["separable"]
        and not run["converged"]
        and run["sweeps"] == run["max_sweeps"] == 100_000
    )
    assert (
        record["bound"] > 1e10
        and record["test_error_bound"] > 1
        and record["test_error_bound_vacuous"]
    )
    assert record["loo"] is None  # leave-one-out needs a converged run
    spread = record["feature_spread"]
    assert spread["ratio"] > 1e4
    topics = [a["topic"] for a in record["advice"]]
    assert topics == ["scale", "sweeps"]
    scale, sweeps = record["advice"]
    # in the command's words: flags, not Python
    assert (
        "--scale standard" in scale["fix"]
        and "--scale maxabs" in scale["fix"]
        and "scale=" not in scale["fix"]
    )
    assert spread["largest"] in scale["why"] and "R²/ρ*²" in scale["why"]
    assert "--max-sweeps" in sweeps["fix"] and "--max-sweeps 100000" in sweeps["why"]
    assert "unfinished" in sweeps["why"] and "max_sweeps" not in sweeps["why"] + sweeps["fix"]


def test_the_feature_names_come_from_the_header(unscaled, bc200_csv):
    _, record = unscaled
    X, _ = _xy(bc200_csv)
    header = bc200_csv.read_text().splitlines()[0].split(",")
    largest = np.abs(X).max(axis=0)
    assert record["feature_spread"]["largest"] == header[int(np.argmax(largest))] == "worst_area"
    assert record["feature_spread"]["smallest"] == header[int(np.argmin(largest))]
    assert record["feature_spread"]["ratio"] == pytest.approx(largest.max() / largest.min())


def test_the_report_shows_one_run_and_never_calls_it_a_success(unscaled):
    page, record = unscaled
    text = page_text(page)
    # one run: the analysis' (the issue's page showed 1,379,883 mistakes in its cards and 21,660 below)
    mistakes = record["run"]["mistakes"]
    assert card(page, "mistakes M") == f"{mistakes:,}"
    assert f"{mistakes:,} mistakes in 100,000 sweeps" in text
    assert card(page, "sweeps") == "100,000 of at most 100,000"
    assert "respected" not in text and "did NOT converge" in text and "unfinished" in text
    assert 'class="verdict good"' not in page
    # a bound >= 1 on an error probability is marked vacuous
    assert "vacuous: a bound ≥ 1 on an error probability says nothing" in text
    # why, and what to do, in the command's flags
    assert "Why, and what to do" in text and "--scale standard" in text and "worst_area" in text


def test_the_report_and_analyze_agree_on_every_number(unscaled):
    page, record = unscaled
    from perceptronlab._ground.numbers import format_display

    assert card(page, "radius R") == format_display(record["R"])
    assert card(page, "Novikoff bound R²/ρ*²") == format_display(record["bound"])
    assert card(page, "best margin ρ*") == format_display(record["rho"])


def test_one_notation_and_sensible_precision(unscaled, bc200_csv):
    page, _ = unscaled
    text = page_text(page)
    assert "R^2" not in text and "rho" not in text and "<w,x>" not in text
    assert noise(text) == []
    assert "× 10¹⁰" in text and "e+10" not in text
    printed = invoke("analyze", bc200_csv, "--max-sweeps", "2000")
    assert printed.exit_code == 0, printed.output
    assert (
        "R^2" not in printed.stdout and "rho" not in printed.stdout and noise(printed.stdout) == []
    )
    assert (
        "NOT converged" in printed.stdout
        and "vacuous" in printed.stdout
        and "--scale standard" in printed.stdout
    )
    trained = invoke("train", bc200_csv, "--quiet")
    assert trained.exit_code == 0 and noise(trained.stdout) == [], trained.stdout
    assert "not converged" in trained.stdout


# ---------------------------------------------------------------- --scale standard: the remedy


def test_scaled_report_converges_within_its_bound(scaled, bc200_csv):
    page, record = scaled
    text = page_text(page)
    assert record["scale"] == "standard" and record["run"]["converged"]
    assert "The run converged and respected Novikoff's bound" in text
    assert card(page, "features scaled") == "StandardScaler: each feature to mean 0 and variance 1"
    assert record["advice"] == [] and "Why, and what to do" not in text
    assert record["feature_spread"]["ratio"] < 100
    assert card(page, "mistakes M") == f"{record['run']['mistakes']:,}"
    assert (
        "vacuous" in text
    )  # 230 > 1: still nothing said about the test error, and the page says so


def test_scaled_run_is_scikit_learns_bit_for_bit(scaled, bc200_csv):
    from sklearn.linear_model import Perceptron as SkPerceptron
    from sklearn.preprocessing import StandardScaler

    _, record = scaled
    X, y = _xy(bc200_csv)
    sk = SkPerceptron(
        shuffle=False,
        eta0=1,
        alpha=0,
        penalty=None,
        tol=None,
        fit_intercept=False,
        max_iter=record["run"]["sweeps"],
    ).fit(StandardScaler().fit_transform(X), y)
    assert record["run"]["w"] == sk.coef_[0].tolist()


def test_train_saves_the_scaler_and_predict_applies_it(bc200_csv, tmp_path):
    from sklearn.linear_model import Perceptron as SkPerceptron
    from sklearn.pipeline import make_pipeline
    from sklearn.preprocessing import MaxAbsScaler, StandardScaler

    X, y = _xy(bc200_csv)
    fresh = tmp_path / "fresh.csv"  # rows it never saw, without a label column
    from sklearn.datasets import load_breast_cancer

    rest = load_breast_cancer().data[200:260]
    header = bc200_csv.read_text().splitlines()[0].split(",")[:-1]
    fresh.write_text(
        ",".join(header)
        + "\n"
        + "\n".join(",".join(repr(float(v)) for v in row) for row in rest)
        + "\n"
    )
    for name, scaler in (("standard", StandardScaler), ("maxabs", MaxAbsScaler)):
        model = tmp_path / f"{name}.json"
        trained = invoke("train", bc200_csv, "--scale", name, "--out", model, "--json")
        assert trained.exit_code == 0, trained.output
        record = json.loads(trained.stdout)
        assert record["scale"] == name
        document = json.loads(model.read_text())["preprocessing"]
        assert document["version"] == 1 and document["scaler"] == name
        fitted = scaler().fit(X)
        assert document["scale"] == fitted.scale_.tolist()
        if name == "standard":
            assert document["mean"] == fitted.mean_.tolist()
        oracle = make_pipeline(
            scaler(),
            SkPerceptron(
                shuffle=False,
                eta0=1,
                alpha=0,
                penalty=None,
                tol=None,
                fit_intercept=False,
                max_iter=record["sweeps"],
            ),
        ).fit(X, y)
        assert record["w"] == oracle[-1].coef_[0].tolist()
        predicted = invoke("predict", model, fresh, "--json")
        assert predicted.exit_code == 0, predicted.output
        assert json.loads(predicted.stdout)["predictions"] == oracle.predict(rest).tolist()


def test_a_scaled_model_loads_as_a_pipeline_and_saves_back(bc200_csv, tmp_path):
    from sklearn.pipeline import Pipeline

    from perceptronlab.estimators import LoadedModel
    from perceptronlab.preprocessing import fit_scaler

    X, y = _xy(bc200_csv)
    scaler = fit_scaler("standard", X)
    run = pl.perceptron(scaler.transform(X), y)
    path = pl.save_model(run, tmp_path / "m.json", scaler=scaler)
    model = pl.load_model(path)
    assert isinstance(model, Pipeline) and model.n_features_in_ == 30
    from perceptronlab.core.scores import scores

    expected = scores(
        scaler.transform(X), run.w, run.b
    )  # the one decision path, on the scaled rows
    assert np.array_equal(model.decision_function(X), expected)
    loaded = pl.load_model(path, as_estimator=False)
    assert isinstance(loaded, LoadedModel) and np.array_equal(loaded.decision_function(X), expected)
    again = pl.save_model(model, tmp_path / "again.json")  # the Pipeline, saved: the same document
    first, second = json.loads(path.read_text()), json.loads(again.read_text())
    assert second["preprocessing"] == first["preprocessing"] and second["w"] == first["w"]


@pytest.mark.parametrize(
    "edit, words",
    [
        (lambda p: p.update(version=2), "upgrade perceptronlab"),
        (lambda p: p.update(scaler="robust"), "'standard' or 'maxabs'"),
        (lambda p: p["scale"].pop(), "30 finite numbers > 0"),
        (lambda p: p["scale"].__setitem__(0, -1.0), "30 finite numbers > 0"),
        (lambda p: p.update(mean="nope"), "preprocessing.mean"),
    ],
)
def test_a_damaged_preprocessing_field_is_refused_in_one_line(bc200_csv, tmp_path, edit, words):
    model = tmp_path / "m.json"
    assert (
        invoke("train", bc200_csv, "--scale", "standard", "--out", model, "--quiet").exit_code == 0
    )
    document = json.loads(model.read_text())
    edit(document["preprocessing"])
    model.write_text(json.dumps(document))
    result = invoke("predict", model, bc200_csv)
    lines = [ln for ln in result.stderr.splitlines() if ln.strip()]
    assert result.exit_code == 1 and len(lines) == 1 and lines[0].startswith("Error: "), (
        result.output
    )
    assert "preprocessing" in lines[0] and words in lines[0] and "Traceback" not in result.output


def test_scaling_conflicts_are_refused_with_a_fix(bc200_csv, tmp_path):
    exam = tmp_path / "exam.csv"
    exam.write_text("x1,x2,y\n1,0,1\n1,1,-1\n0,1,-1\n")
    for args, flag in (
        (("train", exam, "--scale", "standard", "--exact"), "--scale"),
        (("train", exam, "--scale", "maxabs", "--stream"), "--scale"),
        (("analyze", exam, "--scale", "standard", "--exact"), "--exact"),
    ):
        result = invoke(*args)
        lines = [ln for ln in result.stderr.splitlines() if ln.strip()]
        assert result.exit_code == 1 and len(lines) == 1, result.output
        assert lines[0].startswith(f"Error: {flag}") and (
            "drop" in lines[0].lower() or "without" in lines[0]
        )
    assert invoke("train", exam, "--scale", "robust").exit_code == 2


def test_exact_models_carry_no_scaler(tmp_path):
    run = pl.perceptron([[1, 0], [1, 1], [0, 1]], [1, -1, -1], exact=True)
    path = pl.save_model(run, tmp_path / "exact.json")
    document = json.loads(path.read_text())
    document["preprocessing"] = {"version": 1, "scaler": "maxabs", "scale": [1.0, 1.0]}
    path.write_text(json.dumps(document))
    with pytest.raises(pl.InputError, match="no scaler in an exact model"):
        pl.load_model(path)


# ---------------------------------------------------------------- the other advice, and no advice


def test_a_huge_bound_with_comparable_features_is_explained_as_a_thin_margin(tmp_path):
    data = tmp_path / "thin.csv"
    data.write_text("a,b,y\n1,1,1\n1,1.001,-1\n2,2,1\n2,2.002,-1\n")
    result = invoke("analyze", data, "--json", "--no-loo")
    record = json.loads(result.stdout)
    assert record["run"]["converged"] and record["bound"] > 1e6
    assert [a["topic"] for a in record["advice"]] == ["margin"]
    assert "nearly touch" in record["advice"][0]["why"] and "pocket" in record["advice"][0]["fix"]


def test_the_seeds_task_gets_no_advice_and_its_exact_numbers(tmp_path):
    data = tmp_path / "exam.csv"
    data.write_text("x1,x2,y\n1,0,1\n1,1,-1\n0,1,-1\n")
    result = invoke("analyze", data)
    assert result.exit_code == 0
    assert (
        "why, and what to do" not in result.stdout and "converged (a clean sweep)" in result.stdout
    )
    assert "1/5" in result.stdout and "5/2" in result.stdout and "50 %" in result.stdout
    big = pl.analyze(*pl.datasets.gaussian_pair(100, 6.0, seed=1))
    assert big.separable and big.converged and not big.test_error_bound_vacuous and big.advice == []


def test_a_scaled_report_of_the_plane_draws_the_scaled_data_and_counts_in_words(exam_csv, tmp_path):
    result = invoke("report", exam_csv, "--scale", "standard", "--out", tmp_path, "--quiet")
    assert result.exit_code == 0, result.output
    page = (tmp_path / "report.html").read_text(encoding="utf-8")
    text = page_text(page)
    # standardised, the exam task is separable with ρ* = 1/√2 and R² = 5/2: one update, then a clean sweep
    assert card(page, "R²") == "2.5" and card(page, "Novikoff bound R²/ρ*²") == "5"
    assert "perceptron: 1 mistake in 2 sweeps, converged" in text
    assert (
        len(re.findall(r'src="data:image/png;base64,', page)) == 4
    )  # the plane, the squeeze, sweeps, surface
    assert "this run was computed in floating point" in text  # no exact worksheet of scaled data
