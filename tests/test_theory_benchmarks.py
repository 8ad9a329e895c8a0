"""The theory benchmarks' own checks at small sizes: the working set finds the full QP's margin, the
fast leave-one-out finds brute force's errors (the timings themselves are never asserted)."""

from __future__ import annotations

import pytest

from benchmarks import bench_theory

pytestmark = pytest.mark.usefixtures("two_rounds")  # conftest's: two rounds a figure


def test_the_working_set_matches_the_full_qp():
    row = bench_theory.bench_max_margin_working_set(n=2000, d=5)
    assert row["checks"] == {"rho rel. error ≤ 1e-9": True} and row["rounds"] == 2


def test_the_fast_leave_one_out_matches_brute_force_on_data_with_errors():
    X, y = bench_theory.separable_gaussian(150, 3, gap=0.02, seed=3)
    from perceptronlab import loo_error

    brute = bench_theory.brute_force_loo(X, y)
    assert brute  # the oracle has something to find
    assert loo_error(X, y).indices.tolist() == brute
    assert bench_theory.bench_loo(n=150, d=3)["checks"] == {"the same errors": True}
