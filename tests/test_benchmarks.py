"""A smoke run of the engine's benchmarks at tiny sizes: the code of `make bench` works. No timing is asserted."""

import math

import pytest

from benchmarks import __main__ as runner
from benchmarks import bench_engine

ENGINE_BENCHES = [fn for name, fn in runner.collect("bench_engine")]


@pytest.mark.parametrize("bench", ENGINE_BENCHES, ids=lambda fn: fn.__name__)
def test_engine_bench_rows_are_well_formed(bench):
    result = bench(scale=0.01)
    rows = result if isinstance(result, list) else [result]
    assert rows
    for row in rows:
        assert set(row) == {"case", "target", "ratio", "met", "detail"}
        assert row["case"] and row["target"] and row["detail"]
        assert math.isfinite(row["ratio"]) and row["ratio"] >= 0
        assert row["met"] in (True, False, None)


def test_every_issue_row_is_benchmarked():
    cases = " ".join(row["case"] for fn in (bench_engine.bench_dense_sweep,) for row in fn(scale=0.01))
    assert "float64" in cases and "float32" in cases and "scikit-learn" in cases


def test_the_runner_prints_a_table_and_names_the_machine(capsys):
    assert runner.main(["--only", "bench_startup", "--scale", "0.01"]) == 0
    out = capsys.readouterr().out
    assert "Machine:" in out and "| case | target | measured | met | detail |" in out and "start-up" in out
