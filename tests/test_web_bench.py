"""A smoke run of the lab's benchmarks (benchmarks/bench_web.py) at tiny sizes: the code of
`make bench` works, and each row's `met` follows from its own numbers. No timing is asserted."""

from __future__ import annotations

import math
import re

import pytest

from benchmarks import bench_web


def check_row(row: dict) -> None:
    assert set(row) == {"case", "target", "ratio", "met", "detail"}
    assert row["case"].startswith("lab ") and row["detail"]
    assert math.isfinite(row["ratio"]) and row["ratio"] > 0, row
    operator, bound = re.fullmatch(r"([≤≥]) ([0-9.]+)", row["target"]).groups()
    follows = row["ratio"] <= float(bound) if operator == "≤" else row["ratio"] >= float(bound)
    if " failed (" in row["detail"]:
        follows = False  # a failed request fails the row whatever its ratio
    assert row["met"] is follows, row


def test_the_in_process_answer_row():
    row = bench_web.bench_web_run_1000(scale=0.05)
    check_row(row)
    assert "traced steps" in row["detail"] and "through FastAPI's TestClient and a worker process" in row["detail"]


def test_the_load_test_rows():
    rows = bench_web.bench_web_load(scale=0.01)
    assert [r["case"] for r in rows] == [
        "lab server under load: answers per second vs one core in process",
        "lab server under load: /api/health p99 latency (vs 100 ms)",
        "lab server under load: peak resident memory of the server and its workers (vs 1 GiB)",
    ]
    for row in rows:
        check_row(row)
    load, health, memory = rows
    assert re.search(r"4 clients × 3 requests of 100 points, \d+ workers: \d+ answers/s", load["detail"])
    assert " failed (" not in load["detail"]  # every request was answered 200
    assert re.search(r"latency p50 \d+ ms, p99 \d+ ms", load["detail"])
    assert re.search(r"\d+ probes during the load: p50 [0-9.]+ ms, p99 [0-9.]+ ms", health["detail"])
    assert re.search(r"\d+ MiB: the sum of each process's peak", memory["detail"])


@pytest.mark.browser
def test_the_animation_step_row():
    row = bench_web.bench_web_step_frame(scale=0.05)
    check_row(row)
    assert "ms of script per step" in row["detail"]
