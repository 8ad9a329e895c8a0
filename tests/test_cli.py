"""The command line: train, predict, trace, demo; exit codes 0 / 1 / 2; the registry; the script."""

from __future__ import annotations

import csv
import io
import json
import subprocess
import sys
import types
from pathlib import Path

import numpy as np
import pytest
from typer.testing import CliRunner

import perceptronlab as pl
from perceptronlab.cli import COMMAND_MODULES, app

runner = CliRunner()

# The worksheet of the exam task of "Perceptron Mistake Bound", as the lecture notes print it.
SEED_WORKSHEET = [
    ("1", "x1", "0", "yes", "(1, 0)"),
    ("1", "x2", "-1", "yes", "(0, -1)"),
    ("1", "x3", "1", "no", "(0, -1)"),
    ("2", "x1", "0", "yes", "(1, -1)"),
    ("2", "x2", "0", "yes", "(0, -2)"),
    ("2", "x3", "2", "no", "(0, -2)"),
    ("3", "x1", "0", "yes", "(1, -2)"),
    ("3", "x2", "1", "no", "(1, -2)"),
    ("3", "x3", "2", "no", "(1, -2)"),
    ("4", "all", "1, 1, 2", "no", "stop"),
]

SCRIPT = Path(sys.executable).parent / "perceptronlab"


@pytest.fixture
def blobs(tmp_path):
    """Separable data that needs an intercept, with string labels."""
    rng = np.random.default_rng(7)
    X = np.vstack([rng.normal(size=(25, 2)) + [4, 4], rng.normal(size=(25, 2)) + [1, 1]])
    y = np.array(["big"] * 25 + ["small"] * 25)
    path = tmp_path / "blobs.csv"
    with open(path, "w", newline="") as handle:
        writer = csv.writer(handle)
        writer.writerow(["a", "b", "kind"])
        writer.writerows(
            [repr(float(a)), repr(float(b)), lab] for (a, b), lab in zip(X, y, strict=True)
        )
    return path, X, y


def invoke(*args: str):
    return runner.invoke(app, [str(a) for a in args])


def _one_error_line(result) -> str:
    lines = [ln for ln in result.stderr.splitlines() if ln.strip()]
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith("Error: ")
    assert "Traceback" not in result.output
    return lines[0]


# ================================================================ registry


def test_every_command_module_registers():
    import importlib

    assert {"train", "predict", "trace", "demo"} <= set(COMMAND_MODULES)  # one module a command
    for name in COMMAND_MODULES:
        assert callable(importlib.import_module(f"perceptronlab.cli.{name}").register)
    import typer.main

    names = set(typer.main.get_command(app).commands)
    assert {"train", "predict", "trace", "demo"} <= names


def test_importing_the_cli_stays_light():
    code = (
        "import sys, perceptronlab, perceptronlab.cli; "
        "print([m for m in ('sklearn', 'numba', 'dask', 'matplotlib', 'fastapi') if m in sys.modules])"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    ).stdout
    assert out.strip() == "[]"


# ================================================================ demo and trace


def test_demo_shows_the_seed_task_and_sklearn_agrees():
    result = invoke("demo")
    assert result.exit_code == 0, result.output
    out = result.stdout
    for row in SEED_WORKSHEET:
        assert all(cell in out for cell in row)
    assert "5 mistakes in 4 sweeps, converged; w = (1, -2)" in out
    assert "(2, -4)" in out and "identical weights" in out
    assert "R²/ρ² = 10" in out


def test_demo_json_matches_the_seed_and_sklearn():
    result = invoke("demo", "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert [tuple(r) for r in data["worksheet"]] == SEED_WORKSHEET
    assert (data["mistakes"], data["sweeps"], data["w"]) == (5, 4, ["1", "-2"])
    assert data["eta2"] == {"mistakes": 5, "w": ["2", "-4"]}
    assert data["bound"] == {
        "R2": "2",
        "rho2": "1/5",
        "novikoff": "10",
    }  # "Perceptron Mistake Bound", task (b)
    assert data["sklearn"]["coef"] == [1.0, -2.0] and data["sklearn_equals_ours"] is True
    # the oracle, independently of the command: scikit-learn's run of the same data
    from sklearn.linear_model import Perceptron

    sk = Perceptron(
        shuffle=False, eta0=1, alpha=0, penalty=None, fit_intercept=False, tol=None, max_iter=4
    ).fit([[1, 0], [1, 1], [0, 1]], [1, -1, -1])
    assert sk.coef_.tolist() == [[1.0, -2.0]]


def test_trace_markdown_is_the_seed_worksheet(exam_csv):
    result = invoke("trace", exam_csv)
    assert result.exit_code == 0, result.output
    lines = result.stdout.strip().splitlines()
    assert lines[0] == "| sweep | point | y⟨w,x⟩ | mistake? | w after |"
    rows = [tuple(c.strip() for c in ln.strip("|").split("|")) for ln in lines[2:]]
    assert rows == SEED_WORKSHEET
    assert "5 mistakes in 4 sweeps" in result.stderr


def test_trace_csv_latex_html_and_exact_eta(exam_csv):
    result = invoke("trace", exam_csv, "--format", "csv", "--eta", "2", "--quiet")
    assert result.exit_code == 0 and result.stderr == ""
    rows = list(csv.reader(io.StringIO(result.stdout)))
    assert rows[0] == ["sweep", "point", "score", "mistake", "w_after"]
    assert rows[-2][4] == "(2, -4)" and rows[-1][4] == "stop"
    assert sum(r[3] == "yes" for r in rows[1:]) == 5
    half = invoke("trace", exam_csv, "-f", "latex", "--eta", "1/2")
    assert (
        half.exit_code == 0 and r"\begin{tabular}" in half.stdout and "$(1/2, -1)$" in half.stdout
    )
    html = invoke("trace", exam_csv, "--format", "html")
    assert html.exit_code == 0 and html.stdout.count("<tr>") == 11  # header and the 10 rows


def test_trace_equals_the_api(tmp_path):
    path = tmp_path / "margin.csv"
    path.write_text("a,b,y\n3,1,1\n1,2,1\n-1,-1,-1\n0,-2,-1\n")
    result = invoke("trace", path, "--margin", "1", "--intercept", "-q")
    X, y = pl.read_data(path, exact=True)
    run = pl.perceptron(X, y, margin=1, fit_intercept=True, exact=True, trace=True, max_sweeps=100)
    assert result.exit_code == 0 and result.stdout == run.table("md")


# ================================================================ train and predict


def test_train_json_equals_the_api(blobs):
    path, X, y = blobs
    result = invoke("train", path, "--intercept", "--json", "--max-sweeps", "500")
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    run = pl.perceptron(X, y, fit_intercept=True, max_sweeps=500)
    assert data["w"] == run.w.tolist() and data["b"] == run.b
    assert (data["mistakes"], data["sweeps"], data["converged"]) == (run.mistakes, run.sweeps, True)
    assert data["classes"] == ["big", "small"] and data["training_errors"] == 0


def test_train_out_then_predict(blobs, tmp_path):
    path, X, y = blobs
    model = tmp_path / "model.json"
    trained = invoke("train", path, "--intercept", "--out", model)
    assert trained.exit_code == 0, trained.output
    assert "converged" in trained.stdout and f"model saved to {model}" in trained.stderr
    assert json.loads(model.read_text())["format"] == "perceptronlab-model"
    predicted = invoke("predict", model, path)
    assert predicted.exit_code == 0, predicted.output
    assert predicted.stdout.split() == y.tolist()
    assert "100.00%" in predicted.stderr
    # features only (no label column), written to a CSV file
    features = tmp_path / "features.csv"
    features.write_text("a,b\n5,5\n0,0\n")
    out = tmp_path / "pred.csv"
    written = invoke("predict", model, features, "--out", out, "--quiet")
    assert written.exit_code == 0 and written.stdout == ""
    assert list(csv.reader(out.open())) == [["prediction"], ["big"], ["small"]]
    as_json = invoke("predict", model, features, "--json")
    assert json.loads(as_json.stdout) == {"predictions": ["big", "small"]}


def test_train_pocket_on_noisy_data_equals_the_api(tmp_path):
    rng = np.random.default_rng(2)
    X = rng.normal(size=(60, 3))
    y = np.where(X[:, 0] - X[:, 1] + 0.6 * rng.normal(size=60) > 0, 1, 0)
    path = tmp_path / "noisy.npy"
    np.save(path, np.column_stack([X, y]))
    result = invoke(
        "train", path, "--algorithm", "pocket", "--seed", "3", "--max-sweeps", "20", "--json"
    )
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    run = pl.pocket(X, y, seed=3, max_sweeps=20)
    assert data["training_errors"] == run.pocket_errors > 0
    assert data["w"] == run.w.tolist() and data["params"]["order"] == "random-mistake"
    assert data["params"]["check"] == "update"  # the functional pocket's default


@pytest.mark.parametrize("check", ["update", "sweep", "ratchet"])
def test_train_pocket_takes_the_check(tmp_path, check):
    rng = np.random.default_rng(4)
    X = rng.normal(size=(80, 3))
    y = np.where(X[:, 0] + X[:, 2] + 0.7 * rng.normal(size=80) > 0, 1, -1)
    path = tmp_path / "noisy.npy"
    np.save(path, np.column_stack([X, y]))
    result = invoke(
        "train",
        path,
        "--algorithm",
        "pocket",
        "--check",
        check,
        "--order",
        "shuffle",
        "--seed",
        "1",
        "--max-sweeps",
        "30",
        "--json",
    )
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    run = pl.pocket(X, y, check=check, order="shuffle", seed=1, max_sweeps=30)
    assert data["params"]["check"] == check and data["training_errors"] == run.pocket_errors > 0
    assert data["w"] == run.w.tolist() and data["mistakes"] == run.mistakes


def test_train_judges_a_cycling_run_with_the_analysis_verdict(tmp_path):
    """No 'may not be separable' guess: the analysis' linear program says it (issue 22)."""
    path = tmp_path / "xor.csv"
    path.write_text("a,b,y\n1,1,1\n-1,-1,1\n1,-1,-1\n-1,1,-1\n")
    result = invoke("train", path)
    assert result.exit_code == 0
    assert not [ln for ln in result.stderr.splitlines() if ln.startswith("Warning: ")]
    assert "cycled" in result.stdout and "never converges" in result.stdout
    assert "may not be separable" not in result.output


def test_train_exact(exam_csv, tmp_path):
    model = tmp_path / "exact.json"
    result = invoke("train", exam_csv, "--exact", "--eta", "0.5", "--json", "--out", model)
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["w"] == ["1/2", "-1"]
    assert json.loads(model.read_text())["w"] == ["1/2", "-1"]
    assert invoke("predict", model, exam_csv).stdout.split() == ["1", "-1", "-1"]


# ================================================================ --dask hand-off


def test_dask_flags_hand_off_to_scale(monkeypatch, exam_csv):
    calls = []

    def train_from_cli(data, *, scheduler, shards, stream, options, quiet):
        calls.append(
            dict(
                data=data,
                scheduler=scheduler,
                shards=shards,
                stream=stream,
                options=options,
                quiet=quiet,
            )
        )
        return pl.perceptron([[1, 0], [1, 1], [0, 1]], [1, -1, -1])

    fake = types.ModuleType("perceptronlab.distributed")
    fake.train_from_cli = train_from_cli
    monkeypatch.setitem(sys.modules, "perceptronlab.distributed", fake)
    result = invoke(
        "train",
        exam_csv,
        "--shards",
        "4",
        "--scheduler",
        "tcp://127.0.0.1:8786",
        "--eta",
        "2",
        "--json",
        "-q",
    )
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["w"] == [1.0, -2.0]
    (call,) = calls
    assert (call["scheduler"], call["shards"], call["stream"], call["quiet"]) == (
        "tcp://127.0.0.1:8786",
        4,
        False,
        True,
    )
    assert call["options"]["eta"] == 2.0 and call["options"]["algorithm"] == "perceptron"


def test_dask_flags_without_the_backend(monkeypatch, exam_csv):
    monkeypatch.setitem(sys.modules, "perceptronlab.distributed", None)  # import fails
    result = invoke("train", exam_csv, "--stream")
    assert result.exit_code == 1
    assert "dask extra" in _one_error_line(result)


# ================================================================ exit codes


@pytest.mark.parametrize(
    ("args", "piece"),
    [
        (("train", "missing.csv"), "no such file"),
        (("train", "{exam}", "--eta", "-1"), "eta (the learning rate)"),
        (("train", "{exam}", "--margin", "-0.5"), "margin"),
        (("train", "{exam}", "--label", "nope"), "label"),
        (("train", "{exam}", "--algorithm", "pocket", "--margin", "1"), "--margin"),
        (("train", "{exam}", "--max-updates", "5"), "--max-updates"),
        (("train", "{exam}", "--check", "ratchet"), "--check"),
        (("trace", "{exam}", "--eta", "two"), "--eta"),
        (("train", "{exam}", "--eta", "fast"), "--eta"),
        (("trace", "{exam}", "--eta", "0"), "eta"),
        (("predict", "{exam}", "{exam}"), "model file"),
        (("train", "{bad}"), "line 3"),
    ],
)
def test_bad_input_exits_1_with_one_line(tmp_path, exam_csv, args, piece):
    bad = tmp_path / "bad.csv"
    bad.write_text("x,y\n1,1\nzz,1\n")
    args = [a.format(exam=exam_csv, bad=bad) for a in args]
    result = invoke(*args)
    assert result.exit_code == 1, result.output
    assert piece in _one_error_line(result)


@pytest.mark.parametrize(
    "args",
    [
        ("train",),
        ("train", "x.csv", "--order", "sideways"),
        ("train", "x.csv", "--bogus"),
        ("trace", "x.csv", "--format", "docx"),
        ("frobnicate",),
        ("train", "x.csv", "--max-sweeps", "0"),
        ("exam", "--kind", "trace", "--seed", "-1"),
    ],
)
def test_usage_errors_exit_2(args):
    assert invoke(*args).exit_code == 2


def test_predict_with_the_wrong_number_of_features(tmp_path, exam_csv):
    model = tmp_path / "m.json"
    assert invoke("train", exam_csv, "-o", model, "-q").exit_code == 0
    wide = tmp_path / "wide.csv"
    wide.write_text("a,b,c,d,y\n1,2,3,4,1\n")
    result = invoke("predict", model, wide)
    assert result.exit_code == 1 and "2 features" in _one_error_line(result)


def test_unwritable_output_is_bad_input_not_a_traceback(tmp_path, exam_csv):
    model = tmp_path / "m.json"
    assert invoke("train", exam_csv, "-o", model, "-q").exit_code == 0
    result = invoke("predict", model, exam_csv, "--out", tmp_path / "no" / "such" / "p.csv")
    assert result.exit_code == 1 and "missing folder" in _one_error_line(result)


# ================================================================ the installed script


def test_installed_script_end_to_end(exam_csv, tmp_path):
    assert SCRIPT.exists(), SCRIPT
    ok = subprocess.run(
        [str(SCRIPT), "trace", str(exam_csv), "--format", "csv", "-q"],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert ok.returncode == 0, ok.stderr
    assert ok.stdout.splitlines()[-1] == '4,all,"1, 1, 2",no,stop'
    bad = subprocess.run(
        [str(SCRIPT), "train", str(tmp_path / "missing.csv")],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert bad.returncode == 1 and "Traceback" not in bad.stderr
    assert bad.stderr.strip().count("\n") == 0 and bad.stderr.startswith("Error: data file")
    usage = subprocess.run(
        [str(SCRIPT), "train", "--nope"], capture_output=True, text=True, timeout=120
    )
    assert usage.returncode == 2
    version = subprocess.run(
        [str(SCRIPT), "--version"], capture_output=True, text=True, timeout=120
    )
    assert version.returncode == 0 and version.stdout.strip() == f"perceptronlab {pl.__version__}"
