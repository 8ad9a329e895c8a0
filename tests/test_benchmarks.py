"""The benchmarks' code, run at tiny sizes: every module works, every row's verdict follows from its own
numbers, a missing optional package fails loudly, and RESULTS.md names no machine's folders.
No timing is asserted (the machine is shared); the arithmetic on the timings is."""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pytest

from benchmarks import __main__ as runner
from benchmarks import _timing
from benchmarks._timing import Stat, at_least, at_most, interleave, result_row

ROOT = Path(__file__).resolve().parents[1]
# bench_web belongs to the lab page (tests/test_web_*.py smoke it); bench_scale starts Dask clusters
# (tests/test_scale_cluster.py smokes it)
SMOKED = [
    (name, fn)
    for name, fn in runner.collect(None)
    if not name.startswith(("bench_web.", "bench_scale."))
]


#: the smoke runs' size: each benchmark's floor (its smallest problem that still takes its code paths)
#: for almost all of them; no benchmark chooses another path below 0.5 or 1
SMOKE_SCALE = 0.001


def check_row_arithmetic(item: dict) -> None:
    """The row's median, spread, target and verdict agree with each other (and the helper says so)."""
    _timing.check_row(item)
    low, high = item["spread"]
    assert low <= item["ratio"] <= high
    if item["bound"] is not None:
        value = item["bound"]["value"]
        holds = item["ratio"] <= value if item["bound"]["op"] == "<=" else item["ratio"] >= value
        assert item["met"] is (holds and all(item["checks"].values()))
    else:
        assert item["met"] is None


@pytest.mark.slow
@pytest.mark.parametrize("name, bench", SMOKED, ids=[name for name, _ in SMOKED])
def test_every_benchmark_runs_and_its_rows_follow_from_their_numbers(name, bench, two_rounds):
    result = bench(scale=SMOKE_SCALE)
    rows = result if isinstance(result, list) else [result]
    assert rows
    for item in rows:
        check_row_arithmetic(item)
        assert item["rounds"] == 1 or item["rounds"] >= 2


def test_the_issue_rows_are_all_benchmarked():
    names = {name for name, _ in runner.collect(None)}
    for wanted in (
        "bench_dense.bench_dense_memory_floor",
        "bench_dense.bench_dense_compute_floor",
        "bench_dense.bench_dense_sklearn",
        "bench_dense.bench_two_cores",
        "bench_sparse.bench_sparse_random",
        "bench_sparse.bench_sparse_text",
        "bench_growth.bench_growth_dense",
        "bench_growth.bench_growth_sparse",
        "bench_online.bench_online_learn_many",
        "bench_online.bench_online_learn_one",
        "bench_theory.bench_analyze",
        "bench_theory.bench_analyze_growth",
        "bench_family.bench_kernel_gram_cache",
        "bench_scale.bench_scale",
        # the drop-in, the online-learning chapter and the read floor of this round
        "bench_dropin.bench_dropin_river_learn_many",
        "bench_dropin.bench_dropin_shuffled_fit",
        "bench_dropin.bench_dropin_epoch",
        "bench_ldim.bench_ldim_intervals_128",
        "bench_ldim.bench_ldim_halfspaces_64",
        "bench_ldim.bench_ldim_against_plain_recursion_intervals",
        "bench_dense.bench_dense_read_floor",
        # this machine's ceilings beside the floor rows (issue 37.5)
        "bench_ceilings.bench_machine_ceilings",
    ):
        assert wanted in names


# ---------------------------------------------------------------- the harness's arithmetic


def test_a_verdict_is_the_target_on_the_median_and_every_check():
    stat = Stat.of([1.3, 0.9, 1.0])
    assert (stat.median, stat.low, stat.high, stat.rounds) == (1.0, 0.9, 1.3, 3)
    assert (
        result_row("a", stat, at_most(1.0), "d")["met"] is True
    )  # the median, not the worst round
    assert result_row("a", stat, at_most(0.99), "d")["met"] is False
    assert result_row("a", stat, at_least(1.0), "d")["met"] is True
    failing = result_row("a", stat, at_most(2.0), "d", {"same weights": False})
    assert failing["met"] is False and "same weights: NO" in failing["detail"]
    assert result_row("a", stat, None, "d")["met"] is None
    for item in (failing, result_row("b", 0.5, at_least(1, " s"), "one value")):
        check_row_arithmetic(item)
    broken = dict(failing, met=True)
    with pytest.raises(ValueError, match="does not follow"):
        _timing.check_row(broken)
    with pytest.raises(ValueError, match="outside its spread"):
        _timing.check_row(dict(failing, ratio=5.0))
    with pytest.raises(ValueError, match="finite"):
        Stat.of([1.0, float("nan")])


def test_passes_combine_into_one_row_whose_spread_covers_every_pass():
    first = [
        result_row("a", Stat.of([1.10, 1.15, 1.20]), at_most(1.2), "pass 1"),
        result_row("b", Stat.of([2.0, 2.1]), at_least(2), "pass 1", {"same weights": True}),
        result_row("m", 0.7, at_most(1), "one value"),
    ]
    second = [
        result_row("a", Stat.of([1.30, 1.35, 1.40]), at_most(1.2), "pass 2"),
        result_row("b", Stat.of([1.9, 2.3]), at_least(2), "pass 2", {"same weights": False}),
        result_row("m", 0.9, at_most(1), "one value"),
    ]
    a, b, m = runner.combine_passes([first, second])
    assert (
        a["ratio"] == pytest.approx((1.15 + 1.35) / 2)
        and a["spread"] == [1.10, 1.40]
        and a["rounds"] == 6
    )
    assert first[0]["met"] is True and a["met"] is False  # the verdict is the combined median's
    assert a["detail"].startswith("pass 2") and "the passes' medians: 1.15, 1.35" in a["detail"]
    assert (
        b["checks"] == {"same weights": False} and b["met"] is False
    )  # a check must hold in every pass
    assert m["spread"] == [0.7, 0.9] and m["rounds"] == 2 and m["met"] is True
    for item in (a, b, m):
        check_row_arithmetic(item)
    assert runner.combine_passes([first]) == first
    earlier = runner.combine_passes([second, first])[
        1
    ]  # failed in the first pass only: still stated
    assert earlier["met"] is False and "same weights: NO (an earlier pass)" in earlier["detail"]
    check_row_arithmetic(earlier)
    broken = [dict(first[0], ratio=float("nan"), failed=True, detail="failed: boom"), *first[1:]]
    assert runner.combine_passes([first, broken])[0]["failed"] is True
    assert runner.combine_passes([first, second[:2]])[2]["failed"] is True  # missing from a pass


def test_ratios_pair_the_rounds():
    ours, theirs = (
        [1.0, 2.0, 4.0],
        [2.0, 4.0, 8.0],
    )  # a machine slowing down: every round's ratio is 0.5
    stat = Stat.ratio(ours, theirs)
    assert (stat.median, stat.low, stat.high) == (0.5, 0.5, 0.5)
    with pytest.raises(ValueError, match="same number of rounds"):
        Stat.ratio([1.0], [1.0, 2.0])


def test_rounds_interleave_and_alternate_their_order(two_rounds):
    calls = []

    def case(name):
        def run():
            calls.append(name)
            return float(len(calls))

        return run

    seconds = interleave({"a": case("a"), "b": case("b"), "c": case("c")}, n_rounds=2, warmup=True)
    assert calls == [
        "a",
        "b",
        "c",
        "a",
        "b",
        "c",
        "c",
        "b",
        "a",
    ]  # warm-up, then a, b, c and c, b, a
    assert {name: values.tolist() for name, values in seconds.items()} == {
        "a": [4.0, 9.0],
        "b": [5.0, 8.0],
        "c": [6.0, 7.0],
    }
    _timing.set_rounds(1)
    assert _timing.rounds() == 2  # a spread needs two rounds
    assert np.asarray(interleave({"a": case("a")}, warmup=False)["a"]).shape == (2,)


def test_a_missing_optional_package_fails_loudly():
    with pytest.raises(RuntimeError, match=r"no_such_package.*pip install -e '\.\[dev\]'"):
        _timing.require("no_such_package", "dev")


def test_a_failing_benchmark_is_a_failed_row_and_the_run_fails(
    monkeypatch, capsys, tmp_path, two_rounds
):
    def bench_broken(scale=1.0):
        _timing.require("no_such_package", "dev")

    monkeypatch.setattr(
        runner, "collect", lambda only: iter([("bench_fake.bench_broken", bench_broken)])
    )
    assert runner.main(["--quick", "--out", str(tmp_path / "RESULTS.md")]) == 1
    captured = capsys.readouterr()
    assert "| bench_fake.bench_broken |  | FAILED | — | no | failed: RuntimeError" in captured.out
    assert "FAILED: bench_fake.bench_broken" in captured.err
    assert not (tmp_path / "RESULTS.md").exists()  # a smoke run writes nothing


@pytest.mark.slow
def test_the_runner_prints_a_table_and_names_the_machine(capsys, two_rounds):
    # the cheapest benchmark (the others' rows are smoked above): the table and machine line are the point
    assert runner.main(["--only", "bench_progress.bench_progress_overhead", "--scale", "0.01"]) == 0
    out = capsys.readouterr().out
    assert (
        "Machine:" in out
        and "L3" in out
        and "BLAS:" in out
        and runner.HEADER in out
        and "progress display / none" in out
    )


def test_the_machine_line_names_the_cpu_and_this_runs_ceilings(two_rounds):
    from benchmarks import _floor
    from perceptronlab.core import cpu

    scale = 0.001  # the smallest slice and gather pass: what is tested is what the line says
    line = runner.machine_line(scale)
    info = cpu.cpu()
    assert cpu.cpu_text() in line and "L3 " in line
    if info["family"] is not None:  # Linux: the family and model, and AVX-512 or not, named
        assert f"family {info['family']} model {info['model']}" in line
        assert ("AVX-512" in line) and (("no AVX-512" in line) is (info["avx512"] is False))
    found = _floor.ceilings(scale)
    assert set(found["seconds"]) == {"read, 1 thread", "read, 2 threads", "gather"}
    one = found["read_bytes"] / float(np.median(found["seconds"]["read, 1 thread"])) / 1e9
    assert f"streaming read {one:.1f} GB/s on one thread" in line
    assert "GB/s on two (" in line and "ns a stored entry" in line
    assert _floor.ceilings(scale) is found  # measured once per run: every row quotes the same


# ---------------------------------------------------------------- machine paths


MACHINE_PATH = re.compile(r"(?<![\w.])/(?:home|root|work|tmp|var/folders|Users)/[^\s)`'\"]*")


@pytest.mark.parametrize("name", ["README.md", "benchmarks/RESULTS.md", "CONTRIBUTING.md"])
def test_no_machine_path_in_committed_text(name):
    """A machine line names the CPU and the kernels, not where a cache file lay (issue 38)."""
    text = (ROOT / name).read_text(encoding="utf-8")
    assert not MACHINE_PATH.findall(text), MACHINE_PATH.findall(text)


def test_the_machine_path_check_can_fail():
    found = MACHINE_PATH.findall("kept in /work/main/perceptronlab/core/__pycache__/k.json; /tmp/x")
    assert found == ["/work/main/perceptronlab/core/__pycache__/k.json;", "/tmp/x"]


def test_every_results_row_reads_as_the_runner_writes_it():
    results = (ROOT / "benchmarks" / "RESULTS.md").read_text()
    rows = [
        line
        for line in results.splitlines()
        if line.startswith("| ") and not line.startswith(("| case", "| ---"))
    ]
    assert rows
    for line in rows:
        cells = [cell.strip() for cell in line.strip("|").split(" | ")]
        assert len(cells) == 6, line
        case, target, measured, spread, met, _ = cells
        if measured == "FAILED":
            continue
        value = float(measured)
        match = re.match(r"([\d.e+-]+)–([\d.e+-]+) \((\d+)\)$", spread)
        if match:
            assert float(match.group(1)) <= value <= float(match.group(2)), line
        bound = re.match(r"([≤≥]) ([\d.e+-]+)", target)
        if bound is None:
            assert met == "—", line
            continue
        holds = (
            value <= float(bound.group(2))
            if bound.group(1) == "≤"
            else value >= float(bound.group(2))
        )
        if not holds:  # printed to 3 digits: a "yes" needs a median that meets the target
            assert met == "no", line
        elif met == "no" and value != float(bound.group(2)):
            assert ": NO" in line, line  # a check that failed


def test_the_l3_size_is_read_as_the_machine_reports_it():
    from benchmarks import _machine
    from perceptronlab.core import cpu

    assert cpu._size("32 MiB (1 instance)") == 32 * 2**20  # lscpu
    assert cpu._size("32768K") == 32 * 2**20  # sysfs
    assert cpu._size("1.5 MiB") == int(1.5 * 2**20)
    assert cpu._size("unknown") is None
    size, source = _machine.l3_cache()
    assert size >= 2**20 and source
    assert _machine.l3_text().startswith(f"L3 {size / 2**20:.0f} MiB")


def test_the_runner_runs_again_compiled_for_another_cpu(monkeypatch, capsys):
    import sys

    from benchmarks import _target

    calls = []
    monkeypatch.setattr(
        _target.subprocess, "call", lambda command, env: calls.append((command, env)) or 0
    )
    assert runner.main(["--only", "dense_loops", "--cpu", "haswell", "--quick"]) == 0
    command, env = calls.pop()
    out = str(runner.HERE / "RESULTS-haswell.md")  # never the native table
    assert command == [
        sys.executable,
        "-m",
        "benchmarks",
        "--only",
        "dense_loops",
        "--quick",
        "--out",
        out,
    ]
    assert env["NUMBA_CPU_NAME"] == "haswell" and env["NUMBA_CPU_FEATURES"] == ""
    assert Path(env["NUMBA_CACHE_DIR"]).name == "numba-haswell"  # a cache of its own
    assert runner.main(["--cpu=znver3", "--out", "x.md"]) == 0
    command, env = calls.pop()
    assert command == [sys.executable, "-m", "benchmarks", "--out", "x.md"]
    assert env["NUMBA_CPU_NAME"] == "znver3"
    assert runner.main(["--cpu", "haswell; rm -rf /"]) == 2
    assert "--cpu: expected an LLVM CPU name" in capsys.readouterr().err
