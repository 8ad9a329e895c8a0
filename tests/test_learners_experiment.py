"""The learners experiment: label noise, the findings, the tables, and a small end-to-end run."""

import json

import numpy as np
import pytest

from perceptronlab import InputError
from perceptronlab.studies import learners as experiment
from perceptronlab.studies.learners import learners_experiment


def test_flip_changes_exactly_the_rate_to_other_classes():
    y = np.repeat(np.arange(5), 40)
    noisy = experiment._flip(y, 0.15, np.random.default_rng(0))
    assert int(np.sum(noisy != y)) == 30
    assert set(noisy) <= set(y)


def test_findings_read_the_table():
    rows = []
    for dataset in ("a", "b"):
        for learner, error in [
            ("last (perceptron)", 0.2),
            ("averaged", 0.1),
            ("voted", 0.3),
            ("multiclass (last)", 0.2),
            ("multiclass (averaged)", 0.1),
            ("kernel rbf (last)", 0.2),
            ("kernel rbf (averaged)", 0.05),
            ("kernel rbf (voted)", 0.05),
        ]:
            rows.append(dict(dataset=dataset, learner=learner, test_error=error, train_time=0.0))
    rows = [r for r in rows if "poly" not in r["learner"]]
    lines, stats = experiment.findings(
        [
            *rows,
            *(
                dict(dataset=d, learner=f"kernel poly {k} ({v})", test_error=0.5, train_time=0)
                for d in ("a", "b")
                for k in (2, 3, 4)
                for v in ("last", "averaged", "voted")
            ),
        ]
    )
    assert stats["linear: averaged/voted <= last"] == "0/2"  # voted is worse
    assert stats["multiclass: averaged/voted <= last"] == "2/2"
    assert stats["kernel rbf: averaged/voted <= last"] == "2/2"
    assert stats["a: best kernel"] == ["kernel rbf (averaged)", 0.05]
    assert stats["a: best linear"] == ["averaged", 0.1]
    assert any("best kernel learner kernel rbf (averaged) 5.0 %" in line for line in lines)


def _small_datasets(monkeypatch):
    full = experiment._datasets

    def small():
        rng = np.random.default_rng(0)
        out = []
        for name, X, y, standardise in full():
            keep = rng.choice(X.shape[0], size=120, replace=False)
            out.append((name, X[keep], y[keep], standardise))
        return out

    monkeypatch.setattr(experiment, "_datasets", small)


def test_small_run_end_to_end(monkeypatch, tmp_path):
    _small_datasets(monkeypatch)
    calls = []
    result = learners_experiment(tmp_path, seed=1, trials=1, progress=lambda *a: calls.append(a))
    rows = result.table
    assert {r["dataset"] for r in rows} == {
        "digits",
        "digits (noisy)",
        "breast cancer",
        "breast cancer (noisy)",
    }
    assert len(rows) == 4 * len(experiment._learners(0))
    assert all(r["train_time"] > 0 for r in rows)
    fits = 4 * len(experiment._learners(0))
    assert [c for c in calls if c[0] == "done"] == [("done", fits, fits)]  # every fit counted once
    # two cells recomputed here: the split, the scaling, the label noise on the training labels only,
    # scikit-learn's Perceptron fitted on them and scored on the clean test labels
    from sklearn.linear_model import Perceptron as SkPerceptron
    from sklearn.model_selection import train_test_split
    from sklearn.preprocessing import StandardScaler

    cell = {(r["dataset"], r["learner"]): r["test_error"] for r in rows}
    (_, X_d, y_d, _), (_, X_c, y_c, _) = experiment._datasets()  # the small ones, patched in
    X_tr, X_te, y_tr, y_te = train_test_split(
        X_c, y_c, test_size=0.25, stratify=y_c, random_state=1
    )
    scaler = StandardScaler().fit(X_tr)
    model = SkPerceptron(random_state=1).fit(scaler.transform(X_tr), y_tr)
    assert cell["breast cancer", "sklearn Perceptron"] == np.mean(
        model.predict(scaler.transform(X_te)) != y_te
    )
    X_tr, X_te, y_tr, y_te = train_test_split(
        X_d, y_d, test_size=0.25, stratify=y_d, random_state=1
    )
    noisy = experiment._flip(y_tr, experiment.NOISE_RATE, np.random.default_rng(1))
    assert 0 < np.sum(noisy != y_tr) < len(y_tr) // 4
    model = SkPerceptron(random_state=1).fit(X_tr, noisy)
    assert cell["digits (noisy)", "sklearn Perceptron"] == np.mean(model.predict(X_te) != y_te)
    assert json.loads((tmp_path / "learners.json").read_text())["table"][0]["dataset"] == "digits"
    table = (tmp_path / "learners.md").read_text()
    assert table.startswith("| learner | digits |") and "kernel rbf (voted)" in table
    assert "datasets" in result.summary
    # its figure, like every experiment's (issue 14, item 6)
    assert (tmp_path / "learners.png").read_bytes().startswith(b"\x89PNG\r\n\x1a\n")
    assert {p.name for p in result.files} == {
        "learners.csv",
        "learners.json",
        "learners.md",
        "learners.png",
    }
    left, right = result.figures["learners"].axes
    assert [t.get_text() for t in left.get_yticklabels()] == list(
        dict.fromkeys(r["learner"] for r in rows)
    )
    assert len(left.patches) == len(right.patches) == len(rows)  # one bar per (dataset, learner)
    bars = sorted(left.patches, key=lambda bar: bar.get_y())
    shown = sorted(round(bar.get_width(), 9) for bar in bars)
    assert shown == sorted(round(100 * r["test_error"], 9) for r in rows)


def test_cli_writes_the_learners_figures_like_the_other_experiments(monkeypatch, tmp_path):
    from typer.testing import CliRunner

    from perceptronlab.cli import app

    _small_datasets(monkeypatch)
    result = CliRunner().invoke(
        app,
        [
            "experiment",
            "learners",
            "--trials",
            "1",
            "--out",
            str(tmp_path),
            "--format",
            "svg",
            "--quiet",
        ],
    )
    assert result.exit_code == 0, result.output
    assert (tmp_path / "learners.svg").read_text().lstrip().startswith(("<?xml", "<svg"))
    assert (tmp_path / "learners.md").read_text().startswith("| learner |")
    assert {p.name for p in tmp_path.iterdir()} == {
        "learners.csv",
        "learners.json",
        "learners.md",
        "learners.svg",
    }


def test_bad_trials():
    with pytest.raises(InputError, match="trials: expected an integer >= 1"):
        experiment.run_learners_experiment(trials=0)
