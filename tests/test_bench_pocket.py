"""benchmarks/bench_pocket.py at a tiny size: every row's verdict follows from its own numbers, and the
rows say what the benchmark claims to measure. No timing is asserted (the machine is shared)."""

from __future__ import annotations

import numpy as np
import pytest

from benchmarks import __main__ as runner
from benchmarks import _timing, bench_pocket

#: the smoke size: digits' 300 rows, 200 updates a task (each benchmark's floor)
SMOKE_SCALE = 0.001


def recomputed_verdict(item: dict):
    """The verdict from the row's own median, target and checks, computed here."""
    if item["bound"] is None:
        return None
    value = item["bound"]["value"]
    holds = item["ratio"] <= value if item["bound"]["op"] == "<=" else item["ratio"] >= value
    return holds and all(item["checks"].values())


def check_arithmetic(item: dict) -> None:
    _timing.check_row(item)
    low, high = item["spread"]
    assert low <= item["ratio"] <= high and item["rounds"] >= 2
    assert item["met"] is recomputed_verdict(item)


def test_the_runner_finds_the_pocket_benchmarks():
    names = {name for name, _ in runner.collect(None) if name.startswith("bench_pocket.")}
    assert names == {
        "bench_pocket.bench_pocket_default_on_digits",
        "bench_pocket.bench_pocket_quality_digits",
        "bench_pocket.bench_pocket_quality_gaussian",
    }


def test_the_default_row_is_the_issue_s_target(two_rounds):
    item = bench_pocket.bench_pocket_default_on_digits(scale=SMOKE_SCALE)
    check_arithmetic(item)
    assert item["bound"] == {"op": "<=", "value": 5.0} and item["checks"] == {
        "the kept errors recount": True
    }
    assert "PocketPerceptron()" in item["case"] and "wall time" in item["detail"]


@pytest.mark.parametrize(
    "bench", [bench_pocket.bench_pocket_quality_digits, bench_pocket.bench_pocket_quality_gaussian]
)
def test_quality_rows_show_each_check_s_errors_next_to_its_time(bench, two_rounds):
    rows = bench(scale=SMOKE_SCALE)
    assert [r["case"].split('check="')[1].split('"')[0] for r in rows] == [
        "update",
        "sweep",
        "ratchet",
    ]
    for item in rows:
        check_arithmetic(item)
        assert item["met"] is None and item["checks"] == {"the kept errors recount": True}
        assert item["detail"].startswith("training errors kept")


def test_the_benchmark_s_own_error_count_is_a_brute_force_count():
    from perceptronlab import PocketPerceptron

    X, y = bench_pocket.noisy_gaussian_pair(200, d=3)
    model = PocketPerceptron(random_state=0, max_iter=5).fit(X, y)
    signs = np.where(y == model.classes_[1], 1, -1)
    brute = sum(
        1
        for x, s in zip(X, signs, strict=True)
        if s * (sum(w * v for w, v in zip(model.coef_[0], x, strict=True)) + model.intercept_[0])
        <= 0
    )
    assert bench_pocket.training_errors(model, X, y) == brute == model.pocket_errors_


def test_label_flips_change_exactly_the_rate():
    y = np.repeat(np.arange(10), 30)
    noisy = bench_pocket.flip_labels(y, 0.15)
    assert int(np.sum(noisy != y)) == 45 and set(noisy) <= set(y)
