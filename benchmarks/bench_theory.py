"""The theory toolkit's speed (issue 4): max_margin's working set and the fast leave-one-out.

Every row is a ratio against a baseline timed in the same run, except the absolute time of
max_margin at n = 1,000,000, d = 100 that the issue states (ratio = seconds, target ≤ 3 s).
Data are seeded and generated here; nothing touches the network.

Run: ``python -m benchmarks.bench_theory``.
"""

from __future__ import annotations

import time

import numpy as np

from benchmarks._timing import best_time, row


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
    start = time.perf_counter()
    full = max_margin(X, y, method="full", polish=False)
    t_full = time.perf_counter() - start
    fast = None

    def working_set():
        nonlocal fast
        fast = max_margin(X, y)

    t_fast = best_time(working_set, repeat=3)
    rel = abs(fast.rho - full.rho) / full.rho
    ratio = t_full / t_fast
    return row(f"max_margin working set vs full QP (n={n}, d={d})", ">= 10x, rel. error <= 1e-9", ratio,
               ratio >= 10 and rel <= 1e-9,
               f"full QP {t_full:.2f} s, working set {t_fast:.3f} s ({fast.iterations} rounds, "
               f"{fast.working_set_size} rows); rho rel. error {rel:.1e}")


def bench_max_margin_million(n: int = 1_000_000, d: int = 100, scale: float = 1.0) -> dict:
    """Absolute time of max_margin at n = 1e6, d = 100 (the issue's one absolute target)."""
    from perceptronlab import max_margin

    n = max(1000, int(n * scale))
    X, y = separable_gaussian(n, d)
    result = None

    def solve():
        nonlocal result
        result = max_margin(X, y)

    seconds = best_time(solve, repeat=2)
    return row(f"max_margin absolute time (n={n}, d={d})", "<= 3 s at n = 1e6 (ratio = seconds)", seconds,
               seconds <= 3.0,
               f"rho = {result.rho:.6g}, {result.iterations} rounds, {result.working_set_size} rows, "
               f"{len(result.support)} support vectors")


def brute_force_loo(X, y) -> list[int]:
    """Retrain from scratch without each example in turn (the definition)."""
    from perceptronlab import perceptron

    wrong = []
    n = X.shape[0]
    for k in range(n):
        keep = np.r_[0:k, k + 1:n]
        run = perceptron(X[keep], y[keep], warn=False)
        if y[k] * (X[k] @ run.w + run.b) <= 0:
            wrong.append(k)
    return wrong


def bench_loo(n: int = 2000, d: int = 20, scale: float = 1.0) -> dict:
    """Brute-force leave-one-out (n retrainings) against loo_error (the mistake set only)."""
    from perceptronlab import loo_error

    n = max(100, int(n * scale))
    X, y = separable_gaussian(n, d, gap=0.5, seed=1)
    fast = None

    def quick():
        nonlocal fast
        fast = loo_error(X, y)

    t_fast = best_time(quick, repeat=5)
    start = time.perf_counter()
    slow = brute_force_loo(X, y)
    t_slow = time.perf_counter() - start
    ratio = t_slow / t_fast
    same = fast.indices.tolist() == slow
    return row(f"loo_error vs brute force (n={n}, d={d})", ">= 20x, same errors", ratio, ratio >= 20 and same,
               f"brute force {t_slow:.2f} s ({n} retrainings), fast {t_fast * 1e3:.1f} ms "
               f"({fast.retrainings} retrainings); errors {fast.errors} == {len(slow)}: {same}")


BENCHMARKS = (bench_max_margin_working_set, bench_loo, bench_max_margin_million)


def main() -> None:
    for bench in BENCHMARKS:
        result = bench()
        mark = "met" if result["met"] else "NOT met"
        print(f"{result['case']}: {result['ratio']:.3g} (target {result['target']}; {mark}) - {result['detail']}",
              flush=True)


if __name__ == "__main__":
    main()
