"""The engine's speed (issue 3): every figure a ratio against a baseline timed beside it."""

from __future__ import annotations

import json
import subprocess
import sys
import time
import warnings

import numpy as np
import scipy.sparse as sp
from threadpoolctl import threadpool_limits

from benchmarks._timing import best_time, row
from perceptronlab.core.engines import CompiledEngine


def separable_dense(n: int, d: int, dtype=np.float64, seed: int = 0):
    """Separable with a small margin: Gaussian rows labelled by a random hyperplane."""
    rng = np.random.default_rng(seed)
    X = rng.standard_normal((n, d)).astype(dtype)
    w_true = rng.standard_normal(d)
    y = np.sign(X.astype(np.float64) @ w_true)
    y[y == 0] = 1.0
    return X, y


def sparse_problem(n: int, d: int, nnz: int, seed: int = 0):
    rng = np.random.default_rng(seed)
    indices = np.sort(rng.integers(0, d, size=(n, nnz)), axis=1).ravel().astype(np.int32)
    data = rng.standard_normal(n * nnz)
    indptr = np.arange(0, n * nnz + 1, nnz, dtype=np.int32)
    X = sp.csr_matrix((data, indices, indptr), shape=(n, d))
    X.sum_duplicates()
    w_true = rng.standard_normal(d)
    y = np.sign(X @ w_true)
    y[y == 0] = 1.0
    return X, y


def engine(X, y, n_jobs=1, w0=None):
    return CompiledEngine(X, y, eta=1.0, margin=0.0, fit_intercept=False, n_jobs=n_jobs, w0=w0)


def time_sweeps(X, y, sweeps: int, n_jobs: int = 1) -> tuple[float, list[int]]:
    """Mean seconds per sweep over the first ``sweeps`` sweeps from w = 0 (best of 3 runs)."""
    best, updates = float("inf"), []
    for _ in range(3):
        eng = engine(X, y, n_jobs=n_jobs)
        start = time.perf_counter()
        updates = [eng.sweep(None, s) for s in range(sweeps)]
        best = min(best, (time.perf_counter() - start) / sweeps)
    return best, updates


def sklearn_epoch(X, y, epochs: int) -> float:
    from sklearn.exceptions import ConvergenceWarning
    from sklearn.linear_model import Perceptron

    model = Perceptron(shuffle=False, eta0=1, alpha=0, penalty=None, fit_intercept=False, tol=None, max_iter=epochs)

    def fit():
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", ConvergenceWarning)
            model.fit(X, y)

    fit_time = best_time(fit, repeat=2)
    return fit_time / epochs


def gemv_time(X, threads: int = 1) -> float:
    v = np.random.default_rng(1).standard_normal(X.shape[1]).astype(X.dtype)
    with threadpool_limits(threads):
        return best_time(lambda: X @ v, repeat=7)


def bench_dense_sweep(scale: float = 1.0):
    n, d = int(200_000 * scale) or 1000, 100
    X, y = separable_dense(n, d)
    sweep_time, updates = time_sweeps(X, y, 5)
    gemv = gemv_time(X)
    sk = sklearn_epoch(X, y, 5)
    X32 = X.astype(np.float32)
    sweep32, _ = time_sweeps(X32, y, 5)
    not_converged = updates[-1] > 0
    return [
        row("dense sweep, cyclic, float64 (vs single-threaded GEMV)", "≤ 1.0", sweep_time / gemv,
            sweep_time / gemv <= 1.0,
            f"{n:,}×{d}, updates per sweep {updates} ({'not converged' if not_converged else 'converged'}), "
            f"sweep {sweep_time * 1e3:.1f} ms, GEMV {gemv * 1e3:.1f} ms"),
        row("dense sweep, float64: scikit-learn epoch / ours", "≥ 1.8", sk / sweep_time, sk / sweep_time >= 1.8,
            f"scikit-learn Perceptron(shuffle=False, max_iter=5) {sk * 1e3:.1f} ms per epoch "
            f"({sk / gemv:.2f} × GEMV)"),
        row("dense sweep, float32 / float64 sweep", "≤ 0.55", sweep32 / sweep_time, sweep32 / sweep_time <= 0.55,
            f"float32 sweep {sweep32 * 1e3:.1f} ms (w stays float64)"),
    ]


def bench_two_cores(scale: float = 1.0):
    """A late sweep (few updates) on two cores against a two-threaded GEMV; same weights as one core."""
    n, d = int(200_000 * scale) or 1000, 100
    rng = np.random.default_rng(3)
    X = rng.standard_normal((n, d))
    w_true = rng.standard_normal(d)
    margins = X @ w_true / np.linalg.norm(w_true)
    keep = np.abs(margins) > 0.02 * np.sqrt(d)  # a modest margin, so that late sweeps are nearly clean
    X, y = np.ascontiguousarray(X[keep]), np.sign(margins[keep])
    warm = engine(X, y, n_jobs=1)
    for s in range(40):
        made = warm.sweep(None, s)
        if made <= X.shape[0] / 4096:
            break
    w_late = warm.w.copy()

    def late(n_jobs):
        eng = engine(X, y, n_jobs=n_jobs, w0=w_late)
        eng._last_updates = made
        return eng

    one, two = late(1), late(2)
    one.sweep(None, 1)
    two.sweep(None, 1)
    identical = np.array_equal(one.w, two.w) and np.array_equal(one.indices, two.indices)
    t_two = best_time(lambda: late(2).sweep(None, 1), repeat=5)
    t_one = best_time(lambda: late(1).sweep(None, 1), repeat=5)
    gemv2 = gemv_time(X, threads=2)
    ratio = t_two / gemv2
    return row("two cores, exact cyclic, late sweep (vs two-threaded GEMV)", "≤ 1.1; identical weights", ratio,
               ratio <= 1.1 and identical,
               f"{X.shape[0]:,}×{d}, {made} updates in the sweep before; 2 cores {t_two * 1e3:.1f} ms, "
               f"1 core {t_one * 1e3:.1f} ms, GEMV(2 threads) {gemv2 * 1e3:.1f} ms; weights identical: {identical}")


def bench_sparse_sweep(scale: float = 1.0):
    n, d, nnz = int(200_000 * scale) or 1000, 2**18, 60
    X, y = sparse_problem(n, d, nnz)
    sweep_time, updates = time_sweeps(X, y, 5)
    v = np.random.default_rng(1).standard_normal(d)
    spmv = best_time(lambda: X @ v, repeat=7)
    sk = sklearn_epoch(X, y, 5)
    return [
        row("sparse sweep, CSR (vs one SpMV)", "≤ 1.2", sweep_time / spmv, sweep_time / spmv <= 1.2,
            f"{n:,} rows, 2^18 features, {nnz} nonzeros a row, updates {updates}; sweep {sweep_time * 1e3:.1f} ms, "
            f"SpMV {spmv * 1e3:.1f} ms"),
        row("sparse sweep: scikit-learn epoch / ours", "≥ 1.25", sk / sweep_time, sk / sweep_time >= 1.25,
            f"scikit-learn {sk * 1e3:.1f} ms per epoch ({sk / spmv:.2f} × SpMV)"),
    ]


def nonseparable(n, d, seed=0):
    X, y = separable_dense(n, d, seed=seed)
    flip = np.random.default_rng(seed + 1).random(n) < 0.1
    y[flip] *= -1
    return X, y


def bench_pocket_and_random_mistake(scale: float = 1.0):
    """Per update: pocket (scores of all rows + the error count) and random-mistake order, each against one
    GEMV over the same array (BLAS with its default threads, as the engine uses every core)."""
    from perceptronlab import pocket
    from perceptronlab.core.engines import CompiledEngine

    n, d = int(100_000 * scale) or 1000, 50
    X, y = nonseparable(n, d)
    updates = 60
    pocket(X, y, max_updates=2, seed=0)  # compile outside the timing
    t_pocket = best_time(lambda: pocket(X, y, max_updates=updates, seed=0), repeat=3) / updates
    v = np.ones(d)
    gemv = best_time(lambda: X @ v, repeat=7)
    engine = CompiledEngine(X, y, eta=1.0, margin=0.0, fit_intercept=False)
    rng = np.random.default_rng(0)

    def random_mistake_steps():  # the engine loop of order="random-mistake", a fixed number of updates
        for _ in range(updates):
            margins = engine.margins()
            wrong = np.flatnonzero(margins <= 0)
            i = int(wrong[rng.integers(wrong.shape[0])])
            engine.update(i, 1, margins[i])

    t_random = best_time(random_mistake_steps, repeat=3) / updates
    return [
        row("pocket, check=\"update\", per update (vs one GEMV)", "≤ 1.2", t_pocket / gemv, t_pocket / gemv <= 1.2,
            f"{n:,}×{d} non-separable, {updates} updates; {t_pocket * 1e3:.2f} ms per update "
            f"(scores of all rows + error count), GEMV {gemv * 1e3:.2f} ms"),
        row("random-mistake order, per update (vs one GEMV)", "≤ 1.2", t_random / gemv, t_random / gemv <= 1.2,
            f"{n:,}×{d}; {t_random * 1e3:.2f} ms per update"),
    ]


def bench_online(scale: float = 1.0):
    from perceptronlab.core.online import OnlineState

    n, d = int(200_000 * scale) or 1000, 100
    X, y = separable_dense(n, d)
    state = OnlineState()
    state.replay(X[:10], y[:10])
    t_replay = best_time(lambda: OnlineState().replay(X, y), repeat=3)
    t_sweep, _ = time_sweeps(X, y, 1)
    rows = [row("online replay (vs a dense sweep)", "≤ 1.2", t_replay / t_sweep, t_replay / t_sweep <= 1.2,
                f"{n:,}×{d} stream; replay {t_replay * 1e3:.1f} ms, sweep {t_sweep * 1e3:.1f} ms")]
    try:
        from river.linear_model import Perceptron as RiverPerceptron
    except ImportError:
        rows.append(row("OnlinePerceptron.learn_one: River per call / ours", "≥ 3", float("nan"), None,
                        "River not installed (make bench installs it)"))
        return rows
    from perceptronlab import OnlinePerceptron

    calls = int(20_000 * min(scale * 10, 1)) or 200
    rng = np.random.default_rng(0)
    stream = [({f"x{j}": float(v) for j, v in enumerate(rng.standard_normal(10))}, bool(rng.random() < 0.5))
              for _ in range(calls)]

    def ours():
        model = OnlinePerceptron(classes=(False, True))
        for x, label in stream:
            model.learn_one(x, label)

    def river():
        model = RiverPerceptron()
        for x, label in stream:
            model.learn_one(x, label)

    t_ours = best_time(ours, repeat=3) / calls
    t_river = best_time(river, repeat=3) / calls
    rows.append(row("OnlinePerceptron.learn_one: River per call / ours", "≥ 3", t_river / t_ours,
                    t_river / t_ours >= 3,
                    f"dicts of 10 features; ours {t_ours * 1e6:.1f} µs, River {t_river * 1e6:.1f} µs per call"))
    return rows


def bench_many_small_runs(scale: float = 1.0):
    """Seed 003's study shape: Gaussian pairs (2 × 30 points, bias column), separations 1.5 … 6."""
    from perceptronlab import perceptron
    from perceptronlab.core.batch import perceptron_batch
    from perceptronlab.datasets import gaussian_pair

    runs = int(1000 * scale) or 10
    separations = np.linspace(1.5, 6.0, 10)
    pairs = [gaussian_pair(30, float(separations[r % 10]), seed=r) for r in range(runs)]
    X = np.stack([p.X for p in pairs]).astype(np.float64)
    y = np.stack([p.y for p in pairs]).astype(np.float64)
    max_sweeps = 500  # the notebook's max_epochs
    perceptron_batch(X[:2], y[:2], max_sweeps=max_sweeps)
    t_batch = best_time(lambda: perceptron_batch(X, y, max_sweeps=max_sweeps), repeat=3)
    result = perceptron_batch(X, y, max_sweeps=max_sweeps)
    t_each = best_time(lambda: [perceptron(X[r], y[r], max_sweeps=max_sweeps, warn=False) for r in range(runs)],
                       repeat=1)
    return row("many small runs: 1,000 Gaussian pairs (60 points, bias column) in one call (seconds)", "≤ 0.2 s",
               t_batch, t_batch <= 0.2,
               f"one call {t_batch * 1e3:.0f} ms, {int(result.converged.sum())} of {runs} converged within "
               f"{max_sweeps} sweeps ({int(result.sweeps.sum()):,} sweeps in all); the same runs one by one "
               f"{t_each:.2f} s ({t_each / t_batch:.0f}× slower)")


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
    n = int(200_000 * scale) or 1000
    out = subprocess.run([sys.executable, "-c", _MEMORY_SCRIPT, str(n)], capture_output=True, text=True, check=True)
    m = json.loads(out.stdout)
    growth = m["after"] - m["before"]
    allowed = 1.2 * m["x_bytes"] + 50 * 2**20
    return row("memory: peak RSS growth of a dense fit / (1.2 × bytes of X + 50 MB)", "≤ 1.0", growth / allowed,
               growth <= allowed and m["same"],
               f"X {m['x_bytes'] / 2**20:.0f} MB; peak RSS after imports {m['before'] / 2**20:.0f} MB, with X "
               f"{m['with_x'] / 2**20:.0f} MB, after 5 sweeps {m['after'] / 2**20:.0f} MB; X not copied: {m['same']}")


def bench_growth(scale: float = 1.0):
    """Time per nonzero at growing n: no superlinear growth."""
    rows = []
    dense_sizes = [int(s * scale) or 100 for s in (10_000, 100_000, 1_000_000)]
    per_nnz = {}
    for n in dense_sizes:
        X, y = separable_dense(n, 100, seed=1)
        t, _ = time_sweeps(X, y, 2)
        per_nnz[n] = t / X.size
        del X
    ref = per_nnz[dense_sizes[1]]
    series = ", ".join(f"n={n:,}: {v * 1e9:.2f} ns" for n, v in per_nnz.items())
    top = per_nnz[dense_sizes[-1]] / ref
    rows.append(row("growth, dense d=100: time per nonzero at the largest n / at 10⁵", "≤ 1.3", top, top <= 1.3,
                    series))
    sparse_sizes = [int(s * scale) or 100 for s in (10_000, 100_000, 1_000_000, 10_000_000)]
    per_nnz = {}
    for n in sparse_sizes:
        X, y = sparse_problem(n, 2**18, 10, seed=1)
        t, _ = time_sweeps(X, y, 2)
        per_nnz[n] = t / X.nnz
        del X
    ref = per_nnz[sparse_sizes[1]]
    series = ", ".join(f"n={n:,}: {v * 1e9:.2f} ns" for n, v in per_nnz.items())
    top = per_nnz[sparse_sizes[-1]] / ref
    rows.append(row("growth, sparse (10 nonzeros a row): time per nonzero at the largest n / at 10⁵", "≤ 1.3", top,
                    top <= 1.3, series))
    return rows


_STARTUP_SCRIPT = """
import time, json
t0 = time.perf_counter()
import perceptronlab
t1 = time.perf_counter()
perceptronlab.perceptron([[1.0, 0.0], [1.0, 1.0], [0.0, 1.0]], [1, -1, -1])
t2 = time.perf_counter()
print(json.dumps({"import": t1 - t0, "fit": t2 - t1}))
"""


def bench_startup(scale: float = 1.0):
    subprocess.run([sys.executable, "-c", _STARTUP_SCRIPT], capture_output=True, check=True)  # warm the cache
    results = [json.loads(subprocess.run([sys.executable, "-c", _STARTUP_SCRIPT], capture_output=True, text=True,
                                         check=True).stdout) for _ in range(3)]
    imp = min(r["import"] for r in results)
    fit = min(r["fit"] for r in results)
    base = min(json.loads(subprocess.run([sys.executable, "-c", "import time, json; t=time.perf_counter(); "
                                          "import numpy; print(json.dumps(time.perf_counter()-t))"],
                                         capture_output=True, text=True, check=True).stdout) for _ in range(3))
    return [
        row("start-up: import perceptronlab (seconds)", "≤ 0.5 s", imp, imp <= 0.5,
            f"fresh process; `import numpy` alone {base:.2f} s"),
        row("start-up: first fit in a fresh process, kernel cache warm (seconds)", "≤ 1.5 s", fit, fit <= 1.5,
            "includes importing Numba and SciPy and loading the cached kernels"),
    ]
