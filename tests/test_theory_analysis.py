"""analyze and ``perceptronlab analyze``: the seeds' tasks, scikit-learn's real datasets, the CLI."""

from __future__ import annotations

import json
import math
from fractions import Fraction

import numpy as np
import pytest
from typer.testing import CliRunner

from perceptronlab import analyze, max_margin, radius
from perceptronlab.cli import app

runner = CliRunner()


def test_exam_task_story():
    report = analyze([[1, 0], [1, 1], [0, 1]], [1, -1, -1])
    assert (report.n, report.d) == (3, 2)
    assert report.R_squared == 2 and report.R == pytest.approx(math.sqrt(2))
    assert report.separable and report.rho_squared == Fraction(1, 5)
    assert report.bound == 10 and isinstance(report.bound, Fraction)
    assert (report.run.mistakes, report.run.sweeps, report.run.converged) == (5, 4, True)
    assert [int(v) for v in report.run.w] == [1, -2]
    assert report.ratio == pytest.approx(0.5)
    assert report.loo.errors == 2 and report.loo.retrainings == 2
    assert report.test_error_bound == Fraction(10, 4)
    text = str(report)
    assert "ρ*² = 1/5" in text and "Novikoff bound R²/ρ*² = 10" in text
    assert "rho" not in text and "^2" not in text  # one notation: Unicode
    assert (
        "test-error bound R²/ρ*²/(n+1) = 5/2  (vacuous" in text and report.test_error_bound_vacuous
    )
    record = json.loads(json.dumps(report.to_dict()))
    assert record["bound_exact"] == "10" and record["rho_squared_exact"] == "1/5"
    assert record["run"]["mistakes"] == 5 and record["loo"]["errors"] == 2


def test_margin_task_and_intercept():
    X, y = [[3, 1], [1, 2], [-1, -1], [0, -2]], [1, 1, -1, -1]
    report = analyze(X, y)
    assert report.R_squared == 10 and report.rho_squared == 2 and report.bound == 5
    assert report.run.mistakes <= report.bound
    with_b = analyze(X, y, fit_intercept=True)
    # the bias trick: R and rho* of the augmented vectors (1, x)
    assert with_b.R_squared == 11
    augmented = [[1, *row] for row in X]
    assert with_b.rho_squared == max_margin(augmented, y).rho_squared == Fraction(14, 5)
    assert with_b.run.mistakes <= with_b.bound


def test_non_separable_story():
    report = analyze([[0, 0], [1, 1], [0, 1], [1, 0]], [1, 1, -1, -1], fit_intercept=True)
    assert not report.separable and report.separability.exact
    assert report.bound is None and report.loo is None and report.rho is None
    assert report.run.cycled
    assert report.pocket.pocket_errors == 1  # XOR: the best line misclassifies one point
    assert (
        report.freund_schapire is not None
        and report.freund_schapire >= report.run.updates_per_sweep[0]
    )
    record = json.loads(json.dumps(report.to_dict()))
    assert record["pocket"]["errors"] == 1 and record["separable"] is False
    assert "Not linearly separable" in str(report) and "pocket" in str(report)


def test_iris_setosa_versus_rest():
    from sklearn.datasets import load_iris
    from sklearn.svm import SVC

    X, labels = load_iris(return_X_y=True)
    y = np.where(labels == 0, 1, -1)
    report = analyze(X, y, fit_intercept=True)
    assert report.separable and report.run.converged
    assert report.run.mistakes <= report.bound
    Xa = np.hstack([np.ones((150, 1)), X])
    assert report.R == pytest.approx(radius(Xa))
    # an independent check of rho*: SVC on the augmented data, the constant column unpenalised aside
    svc = SVC(kernel="linear", C=1e10, tol=1e-8).fit(X, y)
    assert report.max_margin.rho <= 1 / np.linalg.norm(svc.coef_) * (
        1 + 1e-6
    )  # augmented ≤ free intercept
    assert report.loo.indices.tolist() == brute_force_loo(X.tolist(), y.tolist()) == []


def plain_perceptron(X, y, max_sweeps=10_000):
    """The cyclic perceptron with an intercept in plain Python, from w = 0 until a clean sweep: each
    score summed in feature order, then b (the kernels' order; exact on ints)."""
    w, b = [0] * len(X[0]), 0
    for _ in range(max_sweeps):
        clean = True
        for x, label in zip(X, y, strict=True):
            if label * (sum(wj * xj for wj, xj in zip(w, x, strict=True)) + b) <= 0:
                w = [wj + label * xj for wj, xj in zip(w, x, strict=True)]
                b += label
                clean = False
        if clean:
            return w, b
    raise AssertionError("the plain perceptron did not converge")


def brute_force_loo(X, y):
    """Leave each example out, train from scratch on the rest, and list those it then gets wrong."""
    wrong = []
    for k in range(len(y)):
        w, b = plain_perceptron(X[:k] + X[k + 1 :], y[:k] + y[k + 1 :])
        if y[k] * (sum(wj * xj for wj, xj in zip(w, X[k], strict=True)) + b) <= 0:
            wrong.append(k)
    return wrong


@pytest.mark.parametrize("seed, expected", [(0, [8]), (1, [28, 30]), (3, [2, 17, 32]), (5, [37])])
def test_leave_one_out_equals_brute_force_on_float_data(seed, expected):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(40, 2))
    s = X @ np.array([1.0, -0.7]) + 0.2
    keep = np.abs(s) > 0.05
    X, y = X[keep].tolist(), np.where(s[keep] > 0, 1, -1).tolist()
    report = analyze(np.array(X), y, fit_intercept=True)
    assert report.loo.indices.tolist() == brute_force_loo(X, y) == expected
    assert report.loo.errors == len(expected)


@pytest.mark.parametrize("seed, expected", [(0, [25]), (4, [6, 15]), (7, [1, 13])])
def test_leave_one_out_equals_brute_force_on_exact_data(seed, expected):
    rng = np.random.default_rng(seed)
    X = rng.integers(-5, 6, size=(30, 2))
    s = X @ np.array([2, -1]) + 1
    X, y = X[s != 0].tolist(), np.where(s[s != 0] > 0, 1, -1).tolist()
    report = analyze(X, y, fit_intercept=True)
    assert report.run.exact
    assert report.loo.indices.tolist() == brute_force_loo(X, y) == expected


def test_breast_cancer_is_analysed_honestly():
    from sklearn.datasets import load_breast_cancer
    from sklearn.preprocessing import StandardScaler

    X, y = load_breast_cancer(return_X_y=True)
    X = StandardScaler().fit_transform(X)
    report = analyze(X, y, fit_intercept=True, loo=False)
    assert report.separable  # with an intercept the 569 standardized tumours are separable...
    assert report.bound > 1e6  # ...but with a tiny margin
    if not report.run.converged:
        assert report.run.sweeps == report.run.params["max_sweeps"]
    assert report.run.mistakes <= report.bound
    assert json.loads(json.dumps(report.to_dict()))["separable"] is True


# ---------------------------------------------------------------- the command line


def test_cli_cards(exam_csv):
    result = runner.invoke(app, ["analyze", str(exam_csv)])
    assert result.exit_code == 0, result.output
    for text in ("1/5", "bound R²/ρ*²", "10", "5 mistakes, 4 sweeps", "2/3"):
        assert text in result.output


def test_cli_json_and_label(tmp_path, exam_csv):
    result = runner.invoke(app, ["analyze", str(exam_csv), "--json"])
    assert result.exit_code == 0
    record = json.loads(result.stdout)
    assert record["bound_exact"] == "10" and record["run"]["sweeps"] == 4
    first = tmp_path / "first.csv"
    first.write_text("label,a,b\n1,1,0\n-1,1,1\n-1,0,1\n")
    record = json.loads(
        runner.invoke(app, ["analyze", str(first), "--json", "--label", "label"]).stdout
    )
    assert record["rho_squared_exact"] == "1/5"


def test_cli_intercept_non_separable_and_errors(tmp_path):
    xor = tmp_path / "xor.csv"
    xor.write_text("a,b,y\n0,0,1\n1,1,1\n0,1,-1\n1,0,-1\n")
    result = runner.invoke(app, ["analyze", str(xor), "--intercept"])
    assert result.exit_code == 0 and "not separable" in result.output and "pocket" in result.output
    missing = runner.invoke(app, ["analyze", str(tmp_path / "nope.csv")])
    assert missing.exit_code == 1 and "Traceback" not in missing.output
    bad = runner.invoke(app, ["analyze"])
    assert bad.exit_code == 2
