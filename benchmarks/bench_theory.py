"""The theory toolkit's speed (issues 4 and 16.4): max_margin's working set, the fast leave-one-out,
and ``analyze`` with no quadratic step.

Every row is a ratio against a baseline timed beside it in interleaved rounds, except the absolute
time of max_margin at n = 1,000,000, d = 100 that issue 4 states (seconds). Data are seeded and
generated here; nothing touches the network.
"""

from __future__ import annotations

import numpy as np

from benchmarks._data import noisy_dense
from benchmarks._timing import Stat, at_least, at_most, interleave, median_ms, result_row, timed


def separable_gaussian(n: int, d: int, gap: float = 0.1, seed: int = 0, intercept: bool = False):
    """Gaussian rows labelled by a random hyperplane, pushed ``gap`` away from it on both sides."""
    rng = np.random.default_rng(seed)
    X = rng.standard_normal((n, d), dtype=np.float32).astype(np.float64)
    w_true = rng.standard_normal(d)
    w_true /= np.linalg.norm(w_true)
    y = np.sign(X @ w_true + (0.5 if intercept else 0.0))
    y[y == 0] = 1.0
    X += gap * y[:, None] * w_true
    return X, y


def bench_max_margin_working_set(n: int = 20_000, d: int = 100, scale: float = 1.0) -> dict:
    """One full interior-point QP (Clarabel) against the working set, same data, same answer."""
    from perceptronlab import max_margin

    n = max(500, int(n * scale))
    X, y = separable_gaussian(n, d)
    results = {}

    def solve(method):
        def run():
            results[method] = (
                max_margin(X, y, method="full", polish=False)
                if method == "full"
                else max_margin(X, y)
            )

        return timed(run)

    seconds = interleave(
        {"full": solve("full"), "working set": solve("working set")}, n_rounds=3, warmup=False
    )
    full, fast = results["full"], results["working set"]
    rel = abs(fast.rho - full.rho) / full.rho
    return result_row(
        f"max_margin: full QP / working set (n={n:,}, d={d})",
        Stat.ratio(seconds["full"], seconds["working set"]),
        at_least(10),
        f"full QP {np.median(seconds['full']):.2f} s, working set {median_ms(seconds['working set'])} "
        f"({fast.iterations} rounds, {fast.working_set_size} rows); rho rel. error {rel:.1e}; wall time",
        {"rho rel. error ≤ 1e-9": rel <= 1e-9},
    )


def bench_max_margin_million(n: int = 1_000_000, d: int = 100, scale: float = 1.0) -> dict:
    """Absolute time of max_margin at n = 1e6, d = 100 (the issue's one absolute target)."""
    from perceptronlab import max_margin

    n = max(1000, int(n * scale))
    X, y = separable_gaussian(n, d)
    results = []
    seconds = interleave(
        {"max_margin": timed(lambda: results.append(max_margin(X, y)))}, n_rounds=3, warmup=False
    )
    result = results[-1]
    return result_row(
        f"max_margin at n={n:,}, d={d} (seconds)",
        Stat.of(seconds["max_margin"]),
        at_most(3.0, " s"),
        f"rho = {result.rho:.6g}, {result.iterations} rounds, {result.working_set_size} rows, "
        f"{len(result.support)} support vectors; wall time",
    )


def brute_force_loo(X, y) -> list[int]:
    """Retrain from scratch without each example in turn (the definition)."""
    from perceptronlab import perceptron

    wrong = []
    n = X.shape[0]
    for k in range(n):
        keep = np.r_[0:k, k + 1 : n]
        run = perceptron(X[keep], y[keep], warn=False)
        if y[k] * (X[k] @ run.w + run.b) <= 0:
            wrong.append(k)
    return wrong


def bench_loo(n: int = 2000, d: int = 20, scale: float = 1.0) -> dict:
    """Brute-force leave-one-out (n retrainings) against loo_error (the mistake set only)."""
    from perceptronlab import loo_error

    n = max(100, int(n * scale))
    X, y = separable_gaussian(n, d, gap=0.5, seed=1)
    found = {}

    def fast():
        found["fast"] = loo_error(X, y)

    def slow():
        found["slow"] = brute_force_loo(X, y)

    seconds = interleave({"brute force": timed(slow), "loo_error": timed(fast)}, n_rounds=3)
    same = found["fast"].indices.tolist() == found["slow"]
    return result_row(
        f"loo_error: brute force / loo_error (n={n:,}, d={d})",
        Stat.ratio(seconds["brute force"], seconds["loo_error"]),
        at_least(20),
        f"brute force {np.median(seconds['brute force']):.2f} s ({n:,} retrainings), loo_error "
        f"{median_ms(seconds['loo_error'])} ({found['fast'].retrainings} retrainings); "
        f"{found['fast'].errors} errors; wall time",
        {"the same errors": same},
    )


def bench_analyze(scale: float = 1.0):
    """analyze on 100,000 × 10 noisy data against one default perceptron run of the same data."""
    from perceptronlab import analyze, perceptron

    n, d = max(5000, int(100_000 * scale)), 10  # n·d > 20,000: analyze's pocket checks once a sweep
    X, y = noisy_dense(n, d, flip=0.1, seed=4)
    runs = {}
    seconds = interleave(
        {
            "analyze": timed(lambda: runs.__setitem__("analysis", analyze(X, y))),
            "perceptron": timed(lambda: runs.__setitem__("run", perceptron(X, y, warn=False))),
        },
        n_rounds=3,
    )
    return result_row(
        f"analyze / one default perceptron run ({n:,} × {d}, 10 % labels flipped)",
        Stat.ratio(seconds["analyze"], seconds["perceptron"]),
        at_most(10),
        f"analyze {np.median(seconds['analyze']):.2f} s (separability LP, a 100-sweep run, the pocket's "
        f"1,000 sweeps, the best Freund–Schapire bound), perceptron(X, y) "
        f"{np.median(seconds['perceptron']):.2f} s ({runs['run'].sweeps} sweeps); wall time",
    )


def bench_analyze_growth(scale: float = 1.0):
    """analyze against one default perceptron run at 10⁴, 10⁵ and 10⁶ rows: the figure is the
    largest of the per-size ratios (a step growing faster than the runs would show at the largest n)."""
    from perceptronlab import analyze, perceptron

    d, flip = 2, 0.01  # few features and 1 % noise keep the runs' update logs small at n = 10⁶
    # at least 5,000 rows: on fewer, the 1 % noise keeps Pocket checking after every update (5 s of
    # CPU at 1,000 rows, 0.4 s at 5,000), which is not the growth this row is about
    sizes = sorted({max(5_000, int(n * scale)) for n in (10_000, 100_000, 1_000_000)})
    data = {n: noisy_dense(n, d, flip=flip, seed=5) for n in sizes}
    cases = {}
    for n, (X, y) in data.items():
        cases[("analyze", n)] = timed(lambda X=X, y=y: analyze(X, y))
        cases[("perceptron", n)] = timed(lambda X=X, y=y: perceptron(X, y, warn=False))
    seconds = interleave(cases, n_rounds=2, warmup=False)  # about two minutes a round at n = 10⁶
    relative = {n: Stat.ratio(seconds[("analyze", n)], seconds[("perceptron", n)]) for n in sizes}
    worst = max(sizes, key=lambda n: relative[n].median)
    series = ", ".join(
        f"n={n:,}: {relative[n].median:.3g}× ({np.median(seconds[('analyze', n)]):.2f} s against "
        f"{np.median(seconds[('perceptron', n)]):.2f} s)"
        for n in sizes
    )
    return result_row(
        f"growth, analyze / one default perceptron run, the largest over n = {sizes[0]:,} … "
        f"{sizes[-1]:,}",
        relative[worst],
        at_most(10),
        f"d = {d}, {flip:.0%} of the labels flipped; at each n: {series}; the largest at n = "
        f"{worst:,}; wall time",
    )
