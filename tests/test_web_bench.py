"""A smoke run of the lab's benchmarks (benchmarks/bench_web.py) at tiny sizes: the code of
`make bench` works, each row's `met` follows from its own numbers (recomputed here), and a missing
dependency fails loudly. No timing is asserted."""

from __future__ import annotations

import re

import pytest

from benchmarks import _timing, bench_web


def check_arithmetic(item: dict) -> None:
    """The harness's check, and the verdict recomputed here from the row's median, target and checks."""
    _timing.check_row(item)
    low, high = item["spread"]
    assert low <= item["ratio"] <= high and item["case"].startswith("lab ") and item["detail"]
    value = item["bound"]["value"]
    holds = item["ratio"] <= value if item["bound"]["op"] == "<=" else item["ratio"] >= value
    assert item["met"] is (holds and all(item["checks"].values())), item


def test_the_in_process_answer_row(two_rounds):
    item = bench_web.bench_web_run_1000(scale=0.05)
    check_arithmetic(item)
    assert item["rounds"] == 2 and item["bound"] == {"op": "<=", "value": 1.0}
    assert (
        "traced steps" in item["detail"]
        and "through FastAPI's TestClient and a worker process" in item["detail"]
    )


def test_the_load_test_rows(two_rounds):
    rows = bench_web.bench_web_load(scale=0.01)
    assert [r["case"] for r in rows] == [
        "lab server under load: answers per second vs one core in process",
        "lab server under load: /api/health p99 latency (vs 100 ms)",
        "lab server under load: peak resident memory of the server and its workers (vs 1 GiB)",
    ]
    for item in rows:
        check_arithmetic(item)
    load, health, memory = rows
    assert load["rounds"] == health["rounds"] == 2 and memory["rounds"] == 1
    assert load["checks"] == {"every request answered": True}  # every request was answered 200
    assert re.search(
        r"4 clients × 3 requests of 100 points, \d+ workers: \d+ answers/s", load["detail"]
    )
    assert re.search(r"latency p50 \d+ ms, p99 \d+ ms", load["detail"])
    assert re.search(
        r"\d+ probes during the load: p50 [0-9.]+ ms, p99 of each round [0-9.]+ ms",
        health["detail"],
    )
    assert re.search(r"\d+ MiB: the sum of each process's peak", memory["detail"])


@pytest.mark.browser
def test_the_animation_step_row(two_rounds):
    item = bench_web.bench_web_step_frame(scale=0.05)
    check_arithmetic(item)
    assert item["rounds"] == 2 and "ms of script per step" in item["detail"]


def test_a_missing_chromium_fails_loudly(monkeypatch):
    monkeypatch.setenv("PATH", "/nonexistent")
    with pytest.raises(
        RuntimeError,
        match=r"needs the program 'chromium', which is not on the PATH: apt-get install",
    ):
        bench_web.bench_web_step_frame(scale=0.05)
