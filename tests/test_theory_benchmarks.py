"""Smoke calls of the theory benchmarks at tiny sizes (the timings themselves are never asserted)."""

from __future__ import annotations

from benchmarks import bench_theory


def test_benchmark_rows_have_the_runner_shape():
    rows = [bench_theory.bench_max_margin_working_set(n=2000, d=5), bench_theory.bench_loo(n=200, d=3),
            bench_theory.bench_max_margin_million(n=5000, d=10)]
    for row in rows:
        assert set(row) == {"case", "target", "ratio", "met", "detail"}
        assert row["ratio"] > 0 and isinstance(row["met"], bool)
    assert "rel. error" in rows[0]["detail"] and "True" in rows[1]["detail"]
