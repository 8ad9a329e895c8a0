"""The engine beyond the sweep (issue 3): pocket and random-mistake steps, many small runs, memory and
start-up. Every figure a ratio against a baseline timed beside it in interleaved rounds, or seconds
where the target is in seconds.
"""

from __future__ import annotations

import json
import subprocess
import sys

import numpy as np

from benchmarks._data import noisy_dense
from benchmarks._runs import engine, products
from benchmarks._timing import Stat, at_most, interleave, median_ms, result_row, rounds, timed


def bench_pocket_and_random_mistake(scale: float = 1.0):
    """Per update: pocket (scores of all rows + the error count) and random-mistake order, each against
    one GEMV over the same array (BLAS with its default threads, as the engine uses every core)."""
    from perceptronlab import pocket

    n, d = max(1000, int(100_000 * scale)), 50
    X, y = noisy_dense(n, d)
    updates = 60

    def random_mistake_steps(
        state,
    ):  # the engine loop of order="random-mistake", a fixed number of updates
        eng, rng = state
        for _ in range(updates):
            margins = eng.margins()
            wrong = np.flatnonzero(margins <= 0)
            i = int(wrong[rng.integers(wrong.shape[0])])
            eng.update(i, 1, margins[i])

    seconds = interleave(
        {
            "pocket": timed(lambda: pocket(X, y, max_updates=updates, seed=0)),
            "random-mistake": timed(
                random_mistake_steps,
                setup=lambda: (engine(X, y, n_jobs=None), np.random.default_rng(0)),
            ),
            "GEMV": products(X, times=updates, threads=None),
        }
    )
    per_update = {name: seconds[name] / updates for name in ("pocket", "random-mistake")}
    return [
        result_row(
            'pocket, check="update": one update / one GEMV',
            Stat.ratio(per_update["pocket"], seconds["GEMV"]),
            at_most(1.2),
            f"{n:,}×{d} non-separable, {updates} updates a round (a fresh run each); "
            f"{median_ms(per_update['pocket'])} per update (the scores of all rows + the error count), "
            f"GEMV {median_ms(seconds['GEMV'])} (BLAS's default threads); wall time",
        ),
        result_row(
            "random-mistake order: one update / one GEMV",
            Stat.ratio(per_update["random-mistake"], seconds["GEMV"]),
            at_most(1.2),
            f"{n:,}×{d}; a fresh engine each round; {median_ms(per_update['random-mistake'])} per update; wall time",
        ),
    ]


def bench_many_small_runs(scale: float = 1.0):
    """The shape of the study of the notebook “The Perceptron Convergence Theorem”: Gaussian pairs
    (2 × 30 points, bias column), separations 1.5 … 6."""
    from perceptronlab import perceptron
    from perceptronlab.core.batch import perceptron_batch
    from perceptronlab.datasets import gaussian_pair

    runs = max(10, int(1000 * scale))
    separations = np.linspace(1.5, 6.0, 10)
    pairs = [gaussian_pair(30, float(separations[r % 10]), seed=r) for r in range(runs)]
    X = np.stack([p.X for p in pairs]).astype(np.float64)
    y = np.stack([p.y for p in pairs]).astype(np.float64)
    max_sweeps = 500  # the notebook's max_epochs
    result = perceptron_batch(X, y, max_sweeps=max_sweeps)
    seconds = interleave(
        {
            "one call": timed(lambda: perceptron_batch(X, y, max_sweeps=max_sweeps)),
            "one by one": timed(
                lambda: [
                    perceptron(X[r], y[r], max_sweeps=max_sweeps, warn=False) for r in range(runs)
                ]
            ),
        },
        n_rounds=5,
    )
    batch = Stat.of(seconds["one call"])
    return result_row(
        f"many small runs: {runs:,} Gaussian pairs (60 points, bias column) in one call (seconds)",
        batch,
        at_most(0.2, " s"),
        f"one call {batch.ms()}, {int(result.converged.sum())} of {runs} converged within {max_sweeps} "
        f"sweeps ({int(result.sweeps.sum()):,} sweeps in all); the same runs one by one "
        f"{np.median(seconds['one by one']):.2f} s "
        f"({Stat.ratio(seconds['one by one'], seconds['one call']).median:.0f}× slower); wall time",
    )


_MEMORY_SCRIPT = """
import json, sys, numpy as np
from perceptronlab import perceptron

def peak():  # this process's own high-water mark (ru_maxrss would carry the parent's over exec)
    for line in open("/proc/self/status"):
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) * 1024

n, d = int(sys.argv[1]), 100
perceptron(np.eye(2), [1, -1])  # imports and kernels loaded before the baseline
before = peak()
rng = np.random.default_rng(0)
X = np.empty((n, d))
for start in range(0, n, 10000):
    X[start:start + 10000] = rng.standard_normal((min(10000, n - start), d))
y = np.sign(X[:, :10].sum(axis=1))
with_x = peak()
run = perceptron(X, y, max_sweeps=5, warn=False)
after = peak()
print(json.dumps({"before": before, "with_x": with_x, "after": after, "x_bytes": X.nbytes,
                  "same": run.data[0] is X}))
"""


def bench_memory(scale: float = 1.0):
    """Peak resident memory of a dense fit in a fresh process (one measurement: it is not a timing)."""
    n = max(1000, int(200_000 * scale))
    out = subprocess.run(
        [sys.executable, "-c", _MEMORY_SCRIPT, str(n)], capture_output=True, text=True, check=True
    )
    m = json.loads(out.stdout)
    growth = m["after"] - m["before"]
    allowed = 1.2 * m["x_bytes"] + 50 * 2**20
    return result_row(
        "memory: peak RSS growth of a dense fit / (1.2 × bytes of X + 50 MB)",
        growth / allowed,
        at_most(1.0),
        f"X {m['x_bytes'] / 2**20:.0f} MB; peak RSS after imports "
        f"{m['before'] / 2**20:.0f} MB, with X {m['with_x'] / 2**20:.0f} MB, after 5 sweeps "
        f"{m['after'] / 2**20:.0f} MB",
        {"X not copied": m["same"]},
    )


_STARTUP_SCRIPT = """
import time, json
t0 = time.perf_counter()
import perceptronlab
t1 = time.perf_counter()
perceptronlab.perceptron([[1.0, 0.0], [1.0, 1.0], [0.0, 1.0]], [1, -1, -1])
t2 = time.perf_counter()
print(json.dumps({"import": t1 - t0, "fit": t2 - t1}))
"""
_NUMPY_SCRIPT = "import time, json; t = time.perf_counter(); import numpy; print(json.dumps(time.perf_counter() - t))"


def bench_startup(scale: float = 1.0):
    """Fresh processes, interleaved with a process that only imports NumPy (seconds)."""

    def fresh(script):
        return json.loads(
            subprocess.run(
                [sys.executable, "-c", script], capture_output=True, text=True, check=True
            ).stdout
        )

    fresh(_STARTUP_SCRIPT)  # fills the kernel cache if it is cold
    results, numpy_alone = [], []
    for _ in range(rounds(5)):
        results.append(fresh(_STARTUP_SCRIPT))
        numpy_alone.append(fresh(_NUMPY_SCRIPT))
    imports = Stat.of([r["import"] for r in results])
    fits = Stat.of([r["fit"] for r in results])
    return [
        result_row(
            "start-up: import perceptronlab (seconds)",
            imports,
            at_most(0.5, " s"),
            f"fresh processes; `import numpy` alone {np.median(numpy_alone):.3f} s",
        ),
        result_row(
            "start-up: first fit in a fresh process, kernel cache warm (seconds)",
            fits,
            at_most(1.5, " s"),
            "includes importing Numba and SciPy and loading the cached kernels",
        ),
    ]
