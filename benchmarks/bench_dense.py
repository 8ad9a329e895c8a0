"""Dense sweeps at the memory floor (issues 16.1, 27.1) and against scikit-learn like for like (issue 18.1).

The memory-floor rows use data at least twice the L3 cache the machine reports, float32 included,
so that a sweep streams X from memory; the anchor is a compiled streaming read of X
(:mod:`benchmarks._floor`), the bytes every sweep must read, with one-thread GEMV beside it. The
in-cache rows (data at most half the L3) are kept as the compute floor, reported without a target.
"""

from __future__ import annotations

import math
import time

import numpy as np

from benchmarks._data import separable_dense
from benchmarks._floor import ceilings_text, parallel_reads, streaming_reads
from benchmarks._machine import blas_text, l3_bytes, l3_text
from benchmarks._runs import (
    engine,
    kernel_calls,
    products,
    public_calls,
    same_weights_as_sklearn,
    sweeps,
)
from benchmarks._timing import Stat, at_least, at_most, interleave, median_ms, result_row, timed

D = 100
MAX_BYTES = 3 * 2**30  # the float64 copy stays below this (the machine is shared)


def out_of_cache_rows(scale: float = 1.0, d: int = D) -> int:
    """Rows of d features with the float32 copy at least twice the L3 (and at least 200,000 × 100 entries)."""
    n = max(20_000_000 // d, math.ceil(2 * l3_bytes() / (4 * d) / 10_000) * 10_000)
    n = min(n, MAX_BYTES // (8 * d))
    return max(1000, int(n * scale))


def in_cache_rows(scale: float = 1.0) -> int:
    """Rows of d = 100 whose float64 copy is at most half the L3."""
    return max(1000, int(min(20_000, l3_bytes() // 2 // (8 * D)) * scale))


def _sizes(n: int, with32: bool = True) -> str:
    mb = n * D * 8 / 2**20
    text = f"{n:,}×{D} float64 {mb:.0f} MiB" + (f", float32 {mb / 2:.0f} MiB" if with32 else "")
    return f"{text}; {l3_text()}"


def bench_dense_memory_floor(scale: float = 1.0):
    """First five sweeps from w = 0, float64 and float32, against a one-thread GEMV; out of cache."""
    n = out_of_cache_rows(scale)
    X, y = separable_dense(n, D)
    X32 = X.astype(np.float32)
    updates64, updates32 = [], []
    seconds = interleave(
        {
            "sweep64": sweeps(X, y, 5, updates=updates64),
            "gemv64": products(X, times=5),
            "sweep32": sweeps(X32, y, 5, updates=updates32),
            "read64": streaming_reads(X, times=5),
            "read32": streaming_reads(X32, times=5),
        }
    )
    out_of_cache = X32.nbytes >= 2 * l3_bytes() or scale < 1
    f64 = Stat.ratio(seconds["sweep64"], seconds["gemv64"])
    f32 = Stat.ratio(seconds["sweep32"], seconds["sweep64"])
    where = {"X at least twice the L3 (float32 too)": out_of_cache}
    return [
        result_row(
            "dense sweep, float64, out of cache, first five sweeps from w = 0: our sweep / streaming read of X",
            Stat.ratio(seconds["sweep64"], seconds["read64"]),
            at_most(1.5),
            f"{_sizes(n)}; updates {updates64}; sweep {median_ms(seconds['sweep64'])}, streaming read "
            f"{median_ms(seconds['read64'])} ({X.nbytes / seconds['read64'].min() / 1e9:.1f} GB/s at best); "
            f"{ceilings_text(scale)}",
            where,
        ),
        result_row(
            "dense sweep, float32, out of cache, first five sweeps from w = 0: our sweep / streaming read of X",
            Stat.ratio(seconds["sweep32"], seconds["read32"]),
            at_most(1.5),
            f"updates {updates32}; sweep {median_ms(seconds['sweep32'])}, streaming read "
            f"{median_ms(seconds['read32'])}; {ceilings_text(scale)}",
            where,
        ),
        result_row(
            "dense sweep, float64, out of cache: our sweep / one-thread GEMV",
            f64,
            at_most(1.0),
            f"{_sizes(n)}; first five sweeps from w = 0, updates {updates64}; sweep {median_ms(seconds['sweep64'])}, "
            f"GEMV {median_ms(seconds['gemv64'])}; BLAS: {blas_text()}",
            where,
        ),
        result_row(
            "dense sweep, out of cache: float32 sweep / float64 sweep",
            f32,
            None,
            f"float32 sweep {median_ms(seconds['sweep32'])} (w and every sum float64; updates {updates32}), "
            f"float64 sweep {median_ms(seconds['sweep64'])}; each against its own streaming read in the rows "
            f"above (the floor's ratio here: float32 read / float64 read "
            f"{Stat.ratio(seconds['read32'], seconds['read64']).median:.3g})",
            where,
        ),
    ]


def bench_dense_compute_floor(scale: float = 1.0):
    """The same in cache (X at most half the L3): arithmetic, not memory, is the floor here."""
    n = in_cache_rows(scale)
    X, y = separable_dense(n, D)
    X32 = X.astype(np.float32)
    seconds = interleave(
        {
            "sweep64": sweeps(X, y, 5),
            "gemv64": products(X, times=5),
            "sweep32": sweeps(X32, y, 5),
            "read64": streaming_reads(X, times=5),
        },
        n_rounds=15,
    )
    return [
        result_row(
            "dense sweep, float64, in cache (compute floor): our sweep / streaming read of X",
            Stat.ratio(seconds["sweep64"], seconds["read64"]),
            None,
            f"sweep {median_ms(seconds['sweep64'])}, streaming read {median_ms(seconds['read64'])}",
        ),
        result_row(
            "dense sweep, float64, in cache (compute floor): our sweep / one-thread GEMV",
            Stat.ratio(seconds["sweep64"], seconds["gemv64"]),
            None,
            f"{_sizes(n, with32=False)}; sweep {median_ms(seconds['sweep64'])}, GEMV {median_ms(seconds['gemv64'])}",
        ),
        result_row(
            "dense sweep, in cache (compute floor): float32 sweep / float64 sweep",
            Stat.ratio(seconds["sweep32"], seconds["sweep64"]),
            None,
            f"float32 sweep {median_ms(seconds['sweep32'])}, float64 {median_ms(seconds['sweep64'])}",
        ),
    ]


def bench_dense_sklearn(scale: float = 1.0):
    """Our public call against scikit-learn's fit (the headline), then the kernels (fixed costs removed)."""
    n = out_of_cache_rows(scale)
    X, y = separable_dense(n, D)
    same = {"same weights as scikit-learn": same_weights_as_sklearn(X, y)}
    calls = interleave(public_calls(X, y))
    kernels = interleave(kernel_calls(X, y))
    return [
        result_row(
            "dense, float64: scikit-learn Perceptron.fit / perceptron() (5 epochs, validation on both sides)",
            Stat.ratio(calls["scikit-learn"], calls["ours"]),
            at_least(2.0),
            f"{_sizes(n, with32=False)}; one core each; perceptron(X, y, max_sweeps=5, n_jobs=1) "
            f"{median_ms(calls['ours'])}, Perceptron(max_iter=5, tol=None, shuffle=False).fit "
            f"{median_ms(calls['scikit-learn'])}",
            same,
        ),
        result_row(
            "dense, float64: scikit-learn epoch / our sweep (fixed costs removed on both sides)",
            Stat.ratio(kernels["scikit-learn"], kernels["ours"]),
            at_least(2.0),
            f"per epoch: (fit with 6 epochs − fit with 1) / 5 on both sides, the same sweeps 2–6; ours "
            f"{median_ms(kernels['ours'])}, scikit-learn {median_ms(kernels['scikit-learn'])}",
        ),
    ]


def late_sweep_data(n: int, seed: int = 3, d: int = D):
    """Gaussian rows with a modest margin around a random hyperplane, and a late w: the weights after
    the cyclic sweeps from w = 0 until a sweep updates on fewer than n / 4096 rows."""
    rng = np.random.default_rng(seed)
    X = rng.standard_normal((n, d))
    w_true = rng.standard_normal(d)
    margins = X @ w_true / np.linalg.norm(w_true)
    keep = np.abs(margins) > 0.02 * np.sqrt(d)
    X, y = np.ascontiguousarray(X[keep]), np.sign(margins[keep])
    warm = engine(X, y)
    made = X.shape[0]
    for s in range(1, 60):
        made = warm.sweep(None, s)
        if made <= X.shape[0] / 4096:
            break
    return X, y, warm.w.copy(), made


def bench_two_cores(scale: float = 1.0):
    """A late sweep (few updates) on two cores against a two-thread GEMV; the same weights as one core."""
    n = int(out_of_cache_rows(scale) * 1.2)
    X, y, w_late, made = late_sweep_data(n)

    engines = {n_jobs: engine(X, y, n_jobs=n_jobs, w0=w_late) for n_jobs in (1, 2)}
    engines[2].threads_by_choice = False  # the parallel path itself, whatever this machine chose

    def late(n_jobs):
        """The fit's engine back at the late weights: a sweep of a fit that has run before (its rows'
        norms, which bound the two-core sweep's stale scores, were computed once, by the first)."""
        eng = engines[n_jobs]
        eng.w[:] = w_late
        eng.b = 0.0
        eng.start_log(eng.n)
        eng._parallel_losses = 0
        eng._last_updates = made  # what the sweep before left: the engine picks its path from it
        return eng

    one, two = late(1), late(2)
    start = time.perf_counter()
    two.sweep(None, 2)  # the first two-core sweep of the fit computes the rows' norms
    first_two = time.perf_counter() - start
    one.sweep(None, 2)
    identical = bool(np.array_equal(one.w, two.w) and np.array_equal(one.indices, two.indices))
    seconds = interleave(
        {
            "two cores": timed(lambda eng: eng.sweep(None, 2), setup=lambda: late(2)),
            "GEMV, 2 threads": products(X, times=1, threads=2),
            "one core": timed(lambda eng: eng.sweep(None, 2), setup=lambda: late(1)),
            "streaming read": streaming_reads(X, times=1),
            "read, 2 threads": parallel_reads(X, 2),
            "read, 1 thread": parallel_reads(X, 1),
        },
        settle=0.3,
    )
    same = {"same weights and updates as one core": identical}
    ceiling = Stat.ratio(seconds["read, 1 thread"], seconds["read, 2 threads"])
    speedup = seconds["one core"] / seconds["two cores"]
    of_ceiling = Stat.of(
        speedup / np.minimum(seconds["read, 1 thread"] / seconds["read, 2 threads"], 1.3)
    )
    return [
        result_row(
            "late sweep, one core, out of cache: our sweep / streaming read of X",
            Stat.ratio(seconds["one core"], seconds["streaming read"]),
            at_most(1.2),
            f"{X.shape[0]:,}×{D} float64; one core {median_ms(seconds['one core'])} (wall time), streaming read "
            f"{median_ms(seconds['streaming read'])} (CPU time)",
        ),
        result_row(
            "two cores, late sweep, out of cache: one core / two cores (speed-up)",
            Stat.ratio(seconds["one core"], seconds["two cores"]),
            at_least(1.3),
            f"two cores {median_ms(seconds['two cores'])}, one core {median_ms(seconds['one core'])}; wall time; "
            f"a fit's first two-core sweep also computes the rows' norms once ({first_two * 1e3:.3g} ms in all); "
            f"the memory's ceiling: a streaming read of X on two threads is {ceiling.median:.3g} × as fast as "
            f"on one ({median_ms(seconds['read, 2 threads'])} against {median_ms(seconds['read, 1 thread'])}, "
            "wall time)",
            same,
        ),
        result_row(
            "two cores, late sweep, out of cache: speed-up / the memory's ceiling (capped at 1.3)",
            of_ceiling,
            at_least(0.85),
            f"per round: (one core / two cores) / min(two-thread read's speed-up, 1.3); "
            f"{_threads_choice_text()}; {ceilings_text(scale)}",
            same,
        ),
        result_row(
            "two cores, out of cache: streaming read of X on one thread / on two (the memory's ceiling)",
            ceiling,
            None,
            f"{X.shape[0]:,}×{D} float64; what a second core can add to any pass over X on this machine: "
            f"one thread {median_ms(seconds['read, 1 thread'])}, two {median_ms(seconds['read, 2 threads'])}; "
            "wall time",
        ),
        result_row(
            "two cores, late sweep, out of cache: our sweep / two-thread GEMV",
            Stat.ratio(seconds["two cores"], seconds["GEMV, 2 threads"]),
            at_most(1.1),
            f"{X.shape[0]:,}×{D} float64 {X.nbytes / 2**20:.0f} MiB ({l3_text()}); "
            f"{made} updates in the sweep before, {one.indices.shape[0]} in the timed one; two cores "
            f"{median_ms(seconds['two cores'])}, one core {median_ms(seconds['one core'])}, "
            f"GEMV (2 threads) {median_ms(seconds['GEMV, 2 threads'])}; wall time",
            same,
        ),
    ]


def _threads_choice_text() -> str:
    """What the package chose for late sweeps on this machine (the rows above time the parallel path
    whatever it chose)."""
    from perceptronlab.core import choice

    found = choice.threads_choice()
    verdict = "two threads" if found["two_threads"] else "one thread"
    gain = f", its measured gain {found['gain']}×" if "gain" in found else ""
    return f"this machine's choice for late sweeps: {verdict}{gain} ({found['source']})"


def bench_dense_read_floor(scale: float = 1.0):
    """The first five sweeps from w = 0 and a late sweep (few updates) against a streaming read of X,
    at d = 20, 200 and 400 (d = 100: the memory-floor and two-core rows), float64 and float32, out of cache."""
    return [row for d in (20, 200, 400) for row in _read_floor_rows(d, scale)]


def _read_floor_rows(d: int, scale: float) -> list[dict]:
    # late_sweep_data keeps the rows with |margin| > 0.02·√d, a standard normal's share 1 − erf(t/√2)
    kept = 1.0 - math.erf(0.02 * math.sqrt(d) / math.sqrt(2.0))
    n = math.ceil(out_of_cache_rows(scale, d) / kept * 1.02)
    X, y, w_late, made = late_sweep_data(n, d=d)
    X32 = X.astype(np.float32)

    def late(rows):
        eng = engine(rows, y, w0=w_late)
        eng._last_updates = made
        return eng

    updates64: list[int] = []
    seconds = interleave(
        {
            "first64": sweeps(X, y, 5, updates=updates64),
            "read64": streaming_reads(X, times=5),
            "first32": sweeps(X32, y, 5),
            "read32": streaming_reads(X32, times=5),
            "late64": timed(lambda eng: eng.sweep(None, 2), setup=lambda: late(X), cpu=True),
            "late32": timed(lambda eng: eng.sweep(None, 2), setup=lambda: late(X32), cpu=True),
        },
        n_rounds=5,
    )
    where = {"X at least twice the L3 (float32 too)": X32.nbytes >= 2 * l3_bytes() or scale < 1}
    size = f"{X.shape[0]:,}×{d}, float64 {X.nbytes / 2**20:.0f} MiB, float32 {X32.nbytes / 2**20:.0f} MiB"
    rows = []
    for kind, dtype in (("64", "float64"), ("32", "float32")):
        rows.append(
            result_row(
                f"dense, d = {d}, {dtype}, out of cache, first five sweeps from w = 0: "
                "our sweep / streaming read of X",
                Stat.ratio(seconds[f"first{kind}"], seconds[f"read{kind}"]),
                at_most(1.5),
                f"{size}; updates {updates64}; sweep {median_ms(seconds[f'first{kind}'])}, streaming read "
                f"{median_ms(seconds[f'read{kind}'])}; {ceilings_text(scale)}",
                where,
            )
        )
        rows.append(
            result_row(
                f"dense, d = {d}, {dtype}, out of cache, late sweep: our sweep / streaming read of X",
                Stat.ratio(seconds[f"late{kind}"], seconds[f"read{kind}"]),
                at_most(1.2),
                f"{size}; {made} updates in the sweep before; sweep {median_ms(seconds[f'late{kind}'])}, "
                f"streaming read {median_ms(seconds[f'read{kind}'])}; {ceilings_text(scale)}",
                where,
            )
        )
    return rows


def _loop_sweeps(X, y, count: int, loop: str, w0=None, updates: list | None = None):
    """Seconds per sweep over ``count`` sweeps of the dense loop ``loop`` (a name of
    :data:`perceptronlab.core.kernels.DENSE_SWEEPS`) from ``w0`` (w = 0 when None), a fresh engine
    every round; the updates of each sweep go to ``updates``. CPU time on one core."""

    def setup():
        eng = engine(X, y, w0=w0)
        eng._dense_loop = loop  # what the engine would run had this machine chosen it
        return eng

    def run(eng):
        made = [eng.sweep(None, s) for s in range(1, count + 1)]
        if updates is not None:
            updates[:] = made

    case = timed(run, setup=setup, cpu=True)
    return lambda: case() / count


def bench_dense_loops(scale: float = 1.0):
    """Every dense loop the machine chooses from (issue 37.1), out of cache, float64: the first five
    sweeps from w = 0 (updates interrupt the row groups) and a late sweep (from the w of ten sweeps),
    each against a streaming read of X. No targets: the rows say which loop this CPU (or, with
    ``--cpu``, this build) favours, beside the choice in the machine line."""
    from perceptronlab.core import kernels

    n = out_of_cache_rows(scale)
    X, y = separable_dense(n, D)
    late = engine(X, y)
    for sweep in range(1, 11):
        late.sweep(None, sweep)
    w_late = late.w.copy()
    updates: dict[str, list[int]] = {}
    cases = {"read": streaming_reads(X, times=5)}
    for loop in kernels.DENSE_SWEEPS:
        updates[loop], updates[f"{loop} late"] = [], []
        cases[loop] = _loop_sweeps(X, y, 5, loop, updates=updates[loop])
        cases[f"{loop} late"] = _loop_sweeps(X, y, 1, loop, w_late, updates[f"{loop} late"])
    seconds = interleave(cases, n_rounds=5)
    where = {"X at least twice the L3": X.nbytes >= 2 * l3_bytes() or scale < 1}
    rows = []
    for loop in kernels.DENSE_SWEEPS:
        for key, what in ((loop, "first five sweeps from w = 0"), (f"{loop} late", "a late sweep")):
            rows.append(
                result_row(
                    f"dense loop '{loop}', float64, out of cache, {what}: sweep / streaming read of X",
                    Stat.ratio(seconds[key], seconds["read"]),
                    None,
                    f"{_sizes(n, with32=False)}; updates {updates[key]}; sweep "
                    f"{median_ms(seconds[key])}, streaming read {median_ms(seconds['read'])}",
                    where,
                )
            )
    return rows
