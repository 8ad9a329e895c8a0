"""perceptronlab.studies.experiments: every number re-derived from the engine and the theory, files written, CLI."""

import csv
import json

import numpy as np
import pytest
from typer.testing import CliRunner

from perceptronlab import datasets, perceptron, pocket
from perceptronlab.bounds import novikoff
from perceptronlab.exceptions import InputError
from perceptronlab.studies.bound_vs_actual import study_seed
from perceptronlab.studies.experiments import EXPERIMENTS, ExperimentResult, run_experiment
from perceptronlab.theory.geometry import max_margin, radius
from perceptronlab.theory.separability import separable


def test_registry_is_a_plain_dict_of_the_four_experiments():
    assert type(EXPERIMENTS) is dict
    assert {"bound-vs-actual", "lfd", "worst-case", "non-separable"} <= set(EXPERIMENTS)


def test_unknown_experiment_names_the_choices():
    with pytest.raises(InputError, match="expected one of") as info:
        run_experiment("bound-vs-reality")
    assert all(name in str(info.value) for name in EXPERIMENTS)


def test_worst_case_attains_the_bound():
    result = run_experiment("worst-case", trials=3)
    assert result.stats["attains_bound"] is True
    for row in result.table:
        n = row["n"]
        assert row["mistakes"] == n == perceptron(*datasets.basis(n)).mistakes
        assert np.isclose(row["rho"], 1 / np.sqrt(n)) and np.isclose(row["bound"], n)
        assert row["shuffled_mistakes_min"] == row["shuffled_mistakes_max"] == n
    # the squeeze of n = 10: the bound's line at k = 10, and ||w_k|| = sqrt(k) on the upper bound
    left, right = result.figures["worst-case-squeeze"].axes
    assert np.allclose(right.lines[3].get_xdata(), 10.0)
    k, norms = left.lines[0].get_xydata().T
    assert np.allclose(norms, np.sqrt(k)) and k[-1] == 10


@pytest.fixture(scope="module")
def study():
    calls = []
    result = EXPERIMENTS["bound-vs-actual"](None, trials=3, progress=lambda *a: calls.append(a))
    return result, calls


def test_bound_vs_actual_rows_are_the_engine_and_the_theory(study):
    result, calls = study
    assert len(result.table) == 8 * 3
    assert calls[-1] == ("datasets", 24, 24)
    for row in result.table:
        assert (
            row["seed"]
            == row["trial"] * 137 + int(row["separation"] * 100)
            == study_seed(row["separation"], row["trial"])
        )
        X, y = datasets.gaussian_pair(25, row["separation"], seed=row["seed"])
        assert row["mistakes"] == perceptron(X, y, max_sweeps=500, warn=False).mistakes
        assert row["separable"] == separable(X, y).separable
        if row["separable"]:
            best = max_margin(X, y)
            assert np.isclose(row["rho"], best.rho) and np.isclose(row["R"], radius(X))
            assert np.isclose(row["bound"], novikoff(row["R"], row["rho"]))
            assert row["within_bound"] and row["mistakes"] <= row["bound"]
            # the exact max margin beats the notebook's mean-difference direction (or ties it)
            assert row["rho"] >= row["rho_mean_diff"] - 1e-9
        else:
            assert row["bound"] is None and row["within_bound"] is None
    assert result.stats["all_within_bound"] is True
    assert result.stats["separable"] + result.stats["not_separable"] == 24
    assert "every run respected Novikoff's bound R²/ρ*²: yes" in result.summary


def test_bound_vs_actual_writes_csv_json_and_pngs(study, tmp_path):
    result, _ = study
    files = result.write(tmp_path)
    assert {p.name for p in files} == {
        "bound-vs-actual.csv",
        "bound-vs-actual.json",
        "bound-vs-actual.png",
        "squeeze.png",
        "bound-surface.png",
    }
    with (tmp_path / "bound-vs-actual.csv").open() as handle:
        rows = list(csv.DictReader(handle))
    assert len(rows) == 24 and [int(r["mistakes"]) for r in rows] == [
        r["mistakes"] for r in result.table
    ]
    payload = json.loads((tmp_path / "bound-vs-actual.json").read_text())
    assert payload["stats"]["all_within_bound"] is True and payload["params"]["trials"] == 3
    assert all(
        (tmp_path / name).read_bytes()[:4] == b"\x89PNG"
        for name in ("squeeze.png", "bound-surface.png")
    )


def test_lfd_reproduces_the_courses_answers():
    result = EXPERIMENTS["lfd"](None, trials=150, sizes=(10,), test_points=4000, seed=1)
    assert len(result.table) == 150 and all(row["converged"] for row in result.table)
    stats = result.stats["10"]
    # Learning From Data, homework 1: about 10 iterations (answer "15"), P[f != g] about 0.1
    assert 4 < stats["mean_iterations"] < 25
    assert 0.05 < stats["mean_disagreement"] < 0.2
    # one run re-derived by hand: the engine's run and the disagreement on the same fresh points
    row = result.table[7]
    data_seed, run_seed, test_seed = (
        int(s) for s in np.random.SeedSequence([1, 10, 7]).generate_state(3)
    )
    assert row["seed"] == data_seed
    data = datasets.lfd(10, seed=data_seed)
    run = perceptron(
        data.X,
        data.y,
        fit_intercept=True,
        order="random-mistake",
        seed=run_seed,
        max_sweeps=100_000,
    )
    assert run.mistakes == row["iterations"]
    fresh = np.random.default_rng(test_seed).uniform(-1, 1, size=(4000, 2))
    f = np.sign(data.target[0] + fresh @ data.target[1:])
    g = np.sign(run.b + fresh @ run.w)
    assert np.isclose(np.mean(f != g), row["disagreement"])


def test_non_separable_oscillates_and_pocket_keeps_the_best():
    result = run_experiment("non-separable")
    stats = result.stats
    assert stats["separable"] is False and stats["converged"] is False and stats["errors_min"] > 0
    X, y = datasets.nonseparable()
    run = perceptron(X, y, fit_intercept=True, max_sweeps=200, warn=False)
    errors = [row["errors_after"] for row in result.table]
    assert errors == run.errors_after_sweep.tolist()
    assert [row["updates"] for row in result.table] == run.updates_per_sweep.tolist()
    # pocket checked per sweep, in the same cyclic order, keeps the best end-of-sweep weights so far
    kept = [row["pocket_sweep_check"] for row in result.table]
    assert kept == np.minimum.accumulate(errors).tolist()
    assert stats["pocket_sweep_check_errors"] == min(errors)
    by_update = pocket(X, y, fit_intercept=True, check="update", max_sweeps=200, seed=42)
    assert stats["pocket_update_check_errors"] == by_update.pocket_errors <= min(errors)
    assert set(result.figures) == {
        "non-separable-sweeps",
        "non-separable-pocket",
        "non-separable-regions",
    }


def test_bad_trials_and_seed_are_rejected():
    with pytest.raises(InputError, match="trials"):
        run_experiment("worst-case", trials=0)
    with pytest.raises(InputError, match="seed"):
        run_experiment("lfd", seed=-3)


def test_result_prints_its_summary():
    result = ExperimentResult("x", [{"a": 1}], "the summary")
    assert str(result) == "the summary"


def test_write_to_an_unwritable_place_is_a_clear_error(tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("not a directory")
    with pytest.raises(InputError, match="writable directory"):
        ExperimentResult("x", [{"a": 1}], "s").write(blocker / "sub")


# ---------------------------------------------------------------- the CLI


def _cli(*args):
    from perceptronlab.cli import app

    return CliRunner().invoke(app, list(args))


def test_cli_runs_the_seeds_full_study(tmp_path):
    result = _cli("experiment", "bound-vs-actual", "--out", str(tmp_path), "--quiet")
    assert result.exit_code == 0, result.output
    assert (
        "120 Gaussian pairs" in result.output
        and "respected Novikoff's bound R²/ρ*²: yes" in result.output
    )
    payload = json.loads((tmp_path / "bound-vs-actual.json").read_text())
    assert payload["stats"]["datasets"] == 120 and payload["stats"]["all_within_bound"] is True
    assert (tmp_path / "bound-vs-actual.png").exists()


def test_cli_json_and_trials(tmp_path):
    result = _cli(
        "experiment", "worst-case", "--out", str(tmp_path), "--trials", "2", "--json", "--quiet"
    )
    assert result.exit_code == 0, result.output
    payload = json.loads(result.stdout)
    assert payload["stats"]["attains_bound"] is True and payload["params"]["trials"] == 2
    assert sorted(p.rsplit("/", 1)[-1] for p in payload["files"]) == sorted(
        ["worst-case.csv", "worst-case.json", "worst-case.png", "worst-case-squeeze.png"]
    )


def test_cli_unknown_experiment_lists_the_names():
    result = _cli("experiment", "nope")
    assert result.exit_code == 2
    assert "unknown experiment 'nope'" in result.output
    assert all(name in result.output for name in EXPERIMENTS)


def test_cli_bad_trials_is_a_usage_error():
    assert _cli("experiment", "lfd", "--trials", "0").exit_code == 2


def test_cli_writes_svg_figures(tmp_path):
    result = _cli("experiment", "worst-case", "--out", str(tmp_path), "--format", "svg", "--quiet")
    assert result.exit_code == 0, result.output
    svg = (tmp_path / "worst-case.svg").read_text()
    assert svg.lstrip().startswith("<?xml") and "<svg" in svg
    assert not (tmp_path / "worst-case.png").exists()
    with pytest.raises(InputError, match="image_format"):
        run_experiment("worst-case", tmp_path, image_format="gif")
