"""Issue 22: the command line on a user's own data, walked end to end as a new user would.

scikit-learn's breast-cancer and iris data, written the way people write them: pandas'
``to_csv`` (with and without its index), text labels in the first column, and
``dump_svmlight_file``. Every advice that names flags is followed, and must keep separable data
separable and lower R²/ρ*²; ``train``, ``analyze`` and ``report`` reach one verdict; three classes
work in every command; the errors name the fix.
"""

from __future__ import annotations

import html
import json
import re

import pytest
from typer.testing import CliRunner

from perceptronlab.cli import app

pd = pytest.importorskip("pandas")
datasets = pytest.importorskip("sklearn.datasets")

runner = CliRunner()
#: keeps the runs of the unscaled breast-cancer data short; the verdicts do not depend on it
SWEEPS = ("--max-sweeps", "300")


def invoke(*args):
    return runner.invoke(app, [str(a) for a in args])


#: the --json record of each command line already run in this module: the tests ask for the same
#: analyses (the breast-cancer data unscaled, standard-scaled, with an intercept) and read each one
#: record; a command is run once, and every test still asserts on that command's own output
_RECORDS: dict[tuple[str, ...], str] = {}


def record_of(*args) -> dict:
    key = tuple(str(a) for a in args)
    if key not in _RECORDS:
        result = invoke(*args, "--json", "-q")
        assert result.exit_code == 0, result.output
        _RECORDS[key] = result.stdout
    return json.loads(_RECORDS[key])  # a fresh dict each time: no test sees another's changes


def page_text(page: str) -> str:
    page = re.sub(r"<style>.*?</style>|<img[^>]*>", " ", page, flags=re.S)
    return html.unescape(re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", page)))


def report_page(data, out, *flags) -> str:
    result = invoke("report", data, "--out", out, "-q", *flags)
    assert result.exit_code == 0, result.output
    return (out / "report.html").read_text(encoding="utf-8")


def one_error(result) -> str:
    lines = [ln for ln in result.stderr.splitlines() if ln.strip()]
    assert result.exit_code == 1 and len(lines) == 1 and lines[0].startswith("Error: "), (
        result.output
    )
    return lines[0]


@pytest.fixture(scope="module")
def files(tmp_path_factory):
    root = tmp_path_factory.mktemp("stories")
    cancer = datasets.load_breast_cancer(as_frame=True).frame
    cancer.to_csv(root / "bc.csv", index=False)
    cancer.to_csv(
        root / "bc_index.csv"
    )  # pandas' default: the row index as an unnamed first column
    datasets.dump_svmlight_file(
        cancer.drop(columns="target").to_numpy(),
        cancer["target"].to_numpy(),
        str(root / "bc.libsvm"),
    )
    iris = datasets.load_iris(as_frame=True)
    frame = iris.frame
    frame.to_csv(root / "iris.csv", index=False)
    named = frame.drop(columns="target")
    named.insert(0, "species", iris.target_names[iris.target])
    named.to_csv(root / "iris_species_first.csv", index=False)
    frame[frame["target"] < 2].to_csv(root / "iris_two.csv", index=False)
    return root


# ---------------------------------------------------------------- advice that is true when followed


def _follow(data, flags: tuple[str, ...], record: dict, depth: int = 0) -> list[tuple[str, ...]]:
    """Follow every advice with flags, and the advice of what that gives; each must keep separable data
    separable and lower its bound. Returns the flag sets followed."""
    followed = []
    for advice in record["advice"]:
        for extra in advice["flags"]:
            assert " ".join(extra[:2]) in advice["fix"] or extra[0] in advice["fix"], advice
            now = tuple(f for f in flags if f not in ("--intercept", "--no-intercept")) + tuple(
                extra
            )
            after = record_of("analyze", data, *now, *SWEEPS, "--no-loo")
            if record["separable"]:
                assert after["separable"], (now, after["separability"])
                assert after["bound"] < record["bound"], now
            followed.append(now)
            if depth < 2:
                followed += _follow(data, now, after, depth + 1)
    return followed


@pytest.mark.parametrize("name", ["bc.csv", "bc.libsvm"])
def test_every_advice_followed_keeps_the_data_separable_and_lowers_the_bound(files, name):
    data = files / name
    record = record_of("analyze", data, *SWEEPS, "--no-loo")
    assert record["separable"] and record["bound"] > 1e15
    scale = next(a for a in record["advice"] if a["topic"] == "scale")
    # the analysis knows that centring needs an intercept and that maxabs does not
    assert ["--scale", "standard", "--intercept"] in scale["flags"]
    assert ["--scale", "maxabs", "--no-intercept"] in scale["flags"]
    assert ["--scale", "standard", "--no-intercept"] not in scale["flags"]
    followed = _follow(data, (), record)
    assert ("--scale", "standard", "--intercept") in followed and (
        "--scale",
        "maxabs",
        "--no-intercept",
    ) in followed
    # the bound stays large even scaled: the advice says what that means in time, and which learners suit
    sweeps = next(a for a in record["advice"] if a["topic"] == "sweeps")
    assert "Even scaled as advised" in sweeps["why"] and "At this machine's speed" in sweeps["why"]
    assert re.search(r"up to about [\d.]+ (seconds|minutes|hours|days|years)", sweeps["why"])
    assert (
        "pocket" in sweeps["fix"]
        and "averaged" in sweeps["fix"]
        and "perceptronlab." not in sweeps["fix"]
    )


def test_standard_scaling_without_an_intercept_is_explained_and_never_advised(files):
    """The issue's trap: --scale standard without --intercept makes the breast-cancer data inseparable."""
    record = record_of("analyze", files / "bc.csv", "--scale", "standard", *SWEEPS, "--no-loo")
    assert not record["separable"]
    [advice] = [a for a in record["advice"] if a["topic"] == "intercept"]
    assert advice["flags"] == [["--intercept"]] and "--intercept" in advice["fix"]
    assert "centring" in advice["why"]
    fixed = record_of(
        "analyze", files / "bc.csv", "--scale", "standard", "--intercept", *SWEEPS, "--no-loo"
    )
    assert fixed["separable"]


# ---------------------------------------------------------------- one verdict in every command


@pytest.mark.parametrize("flags", [(), ("--scale", "standard"), ("--scale", "maxabs")])
def test_train_analyze_and_report_reach_one_verdict(files, tmp_path, flags):
    data = files / "bc.csv"
    analysis = record_of("analyze", data, *flags, *SWEEPS, "--no-loo")
    trained = record_of("train", data, *flags, "--max-sweeps", "50")
    page = report_page(data, tmp_path, *flags, *SWEEPS)
    assert not trained["converged"]  # 50 sweeps are not enough in any of the three
    assert trained["separable"] == {"all": analysis["separable"]}
    card = re.search(r'<div class="label">separable</div><div class="value">(\w+)</div>', page)
    assert card and card.group(1) == ("yes" if analysis["separable"] else "no")
    text = " ".join(invoke("train", data, *flags, "--max-sweeps", "50", "-q").stdout.split())
    assert "may not be separable" not in text
    # the same advice topics, in the same flags
    topics = {a["topic"] for a in analysis["advice"]} - {"sweeps"}
    assert topics <= {a["topic"] for a in trained["advice"]}
    for advice in analysis["advice"]:
        if advice["topic"] != "sweeps":
            assert html.escape(advice["fix"].split(":")[0], quote=True) in page


def test_a_libsvm_file_takes_every_flag_as_a_csv_file_does(files, tmp_path):
    """--scale standard on sparse rows: centred (made dense within the memory budget) in every command."""
    data = files / "bc.libsvm"
    trained = record_of("train", data, "--scale", "standard", "--intercept", "--max-sweeps", "50")
    assert trained["scale"] == "standard"
    from_csv = record_of(
        "train", files / "bc.csv", "--scale", "standard", "--intercept", "--max-sweeps", "50"
    )
    assert trained["w"] == from_csv["w"] and trained["b"] == from_csv["b"]
    analysis = record_of("analyze", data, "--scale", "standard", "--intercept", *SWEEPS, "--no-loo")
    assert analysis["separable"] and analysis["scale"] == "standard"
    report_page(data, tmp_path, "--scale", "standard", "--intercept", *SWEEPS)


# ---------------------------------------------------------------- three classes


def test_three_class_iris_trains_one_vs_rest_exactly_as_scikit_learn(files, tmp_path):
    from sklearn.linear_model import Perceptron

    model = tmp_path / "iris.json"
    trained = record_of("train", files / "iris.csv", "--out", model)
    assert trained["multiclass"] == "one-vs-rest" and trained["classes"] == [0, 1, 2]
    iris = datasets.load_iris()
    sk = Perceptron(
        shuffle=False, eta0=1, alpha=0, penalty=None, fit_intercept=False, tol=None, max_iter=1000
    ).fit(iris.data, iris.target)
    assert [c["w"] for c in trained["per_class"]] == sk.coef_.tolist()
    predicted = invoke("predict", model, files / "iris.csv")
    assert predicted.exit_code == 0, predicted.output
    labels = [int(v) for v in predicted.stdout.split()]
    assert labels == sk.predict(iris.data).tolist()
    assert "accuracy on the 150 labelled rows" in predicted.stderr


def test_the_multiclass_perceptron_and_a_model_that_never_saw_a_class(files, tmp_path):
    model = tmp_path / "multi.json"
    trained = record_of("train", files / "iris.csv", "--algorithm", "multiclass", "--out", model)
    assert trained["classes"] == [0, 1, 2]
    document = json.loads(model.read_text())
    assert len(document["w"]) == 3 and document["classes"] == [0, 1, 2]
    predicted = invoke("predict", model, files / "iris.csv", "--json")
    labels = json.loads(predicted.stdout)["predictions"]
    errors = sum(a != b for a, b in zip(labels, datasets.load_iris().target.tolist(), strict=True))
    assert errors == trained["training_errors"]
    binary = tmp_path / "two.json"
    assert invoke("train", files / "iris_two.csv", "--out", binary, "-q").exit_code == 0
    told = invoke("predict", binary, files / "iris.csv")
    assert told.exit_code == 0
    warning = [ln for ln in told.stderr.splitlines() if "never saw" in ln]
    assert len(warning) == 1 and "50 rows" in warning[0] and "'2'" in warning[0]


def test_analyze_report_and_trace_take_three_classes(files, tmp_path):
    record = record_of("analyze", files / "iris.csv", "--no-loo")
    assert record["multiclass"] == "one-vs-rest"
    assert [c["class"] for c in record["per_class"]] == [0, 1, 2]
    assert record["per_class"][0]["separable"] and not record["per_class"][1]["separable"]
    page = report_page(files / "iris.csv", tmp_path)
    text = page_text(page)
    assert all(f"Class {c} against the rest" in text for c in (0, 1, 2))
    assert (
        "never converges))" not in text
        and "The perceptron made no clean sweep in 100 sweeps" in text
    )
    traced = invoke("trace", files / "iris.csv", "--max-sweeps", "2", "-q")
    assert traced.exit_code == 0, traced.output
    assert (
        traced.stdout.count("against the rest") == 3 and "Use the one-vs-rest" not in traced.output
    )


# ---------------------------------------------------------------- errors that point to the fix


def test_a_label_column_that_is_not_last_is_named_with_label(files):
    line = one_error(invoke("train", files / "iris_species_first.csv"))
    assert "column 'species'" in line and "--label species" in line and "label=" not in line
    trained = record_of("train", files / "iris_species_first.csv", "--label", "species")
    assert trained["classes"] == ["setosa", "versicolor", "virginica"]


def test_a_pandas_index_column_is_refused_with_how_to_drop_it(files):
    line = one_error(invoke("analyze", files / "bc_index.csv"))
    assert "index" in line and "index=False" in line and "0, 1, 2, …, 568" in line


def test_trace_refuses_a_worksheet_too_long_to_do_by_hand_before_any_work(files):
    line = one_error(invoke("trace", files / "bc.csv", "-q"))
    assert "--max-steps" in line and "--max-sweeps 17" in line and "569" in line


def test_predict_on_other_columns_says_the_count_and_the_first_names(files, tmp_path):
    model = tmp_path / "bc.json"
    assert (
        invoke("train", files / "bc.csv", "--max-sweeps", "5", "--out", model, "-q").exit_code == 0
    )
    line = one_error(invoke("predict", model, files / "iris.csv"))
    assert len(line.replace(str(files / "iris.csv"), "iris.csv")) < 300
    assert "30 features" in line and "(30 in all)" in line and "among its 5 columns" in line


@pytest.mark.parametrize(
    ("module", "argv", "extra"),
    [
        ("matplotlib", ["report", "DATA", "-q"], "plots"),
        ("matplotlib", ["experiment", "worst-case"], "plots"),
        ("fastapi", ["serve"], "web"),
        ("pandas", ["train", "DATA", "--stream"], "dask"),
        ("distributed", ["train", "DATA", "--dask"], "dask"),
    ],
)
def test_a_missing_extra_is_one_line_before_any_work(files, tmp_path, module, argv, extra):
    import subprocess
    import sys

    argv = [str(files / "bc.csv") if a == "DATA" else a for a in argv]
    script = (
        f"import sys; sys.modules[{module!r}] = None\n"
        f"from perceptronlab.cli import main\nmain({argv!r})"
    )
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, cwd=tmp_path, timeout=120
    )
    lines = [ln for ln in done.stderr.splitlines() if ln.strip()]
    assert done.returncode == 1 and len(lines) == 1, done.stderr
    assert f"pip install 'perceptronlab[{extra}]'" in lines[0] and module in lines[0]
    assert list(tmp_path.iterdir()) == []  # nothing written: refused before any work


def test_the_wrong_extension_names_the_flag_once(files, tmp_path):
    data = tmp_path / "iris.txt"
    data.write_text((files / "iris.csv").read_text())
    line = one_error(invoke("analyze", data))
    assert (
        line.count("--data-format") == 1 and "--data-format csv" in line and "'libsvm'" not in line
    )
