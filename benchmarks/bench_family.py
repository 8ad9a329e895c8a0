"""The family's speed (issue 8), like for like (issue 18.2): every figure a ratio against a baseline
timed beside it in interleaved rounds, a fresh learner every round, one core each (BLAS limited to
one thread).
"""

from __future__ import annotations

import numpy as np
from threadpoolctl import threadpool_limits

from benchmarks._data import random_csr, separable_dense
from benchmarks._timing import Stat, at_least, at_most, interleave, median_ms, result_row, timed
from benchmarks.baselines import RBF, naive_dual_perceptron


def _averaged_row(X, y, label: str, sweeps: int) -> dict:
    """Sweeps 2 … sweeps + 1 of the averaged perceptron against the plain engine's, same iterates."""
    from perceptronlab.core.engines import CompiledEngine
    from perceptronlab.family.averaged import AveragedEngine

    kwargs = dict(eta=1.0, margin=0.0, fit_intercept=True, n_jobs=1)
    updates = {}

    def after_first(make):
        def setup():
            eng = make()
            eng.sweep(None, 1)  # the first sweep, untimed
            return eng

        def run(eng):
            updates[make] = sum(eng.sweep(None, s) for s in range(2, sweeps + 2))

        case = timed(run, setup=setup, cpu=True)
        return lambda: case() / sweeps

    plain, averaged = (
        (lambda: CompiledEngine(X, y, **kwargs)),
        (lambda: AveragedEngine(X, y, **kwargs)),
    )
    seconds = interleave({"plain": after_first(plain), "averaged": after_first(averaged)})
    n, d = X.shape
    return result_row(
        f"averaged sweep / plain sweep, {label}",
        Stat.ratio(seconds["averaged"], seconds["plain"]),
        at_most(1.2),
        f"n = {n:,}, d = {d:,}, sweeps 2–{sweeps + 1} from w = 0 ({updates[plain]:,} "
        f"updates); engine {median_ms(seconds['plain'])}/sweep, averaged "
        f"{median_ms(seconds['averaged'])}/sweep (the engine's sweep + the accumulator pass); one core",
        {"the same iterates": updates[plain] == updates[averaged]},
    )


def bench_averaged_sweep_dense(scale: float = 1.0):
    X, y = separable_dense(max(1000, int(200_000 * scale)), 100)
    return _averaged_row(X, y, "dense", sweeps=5)


def bench_averaged_sweep_csr(scale: float = 1.0):
    X, y = random_csr(max(1000, int(200_000 * scale)), 10_000, 30, seed=1)
    return _averaged_row(X, y, "CSR (30 non-zeros a row)", sweeps=5)


def bench_kernel_gram_cache(scale: float = 1.0):
    """rbf kernel perceptron at n = 5,000: the Gram cache against cache="none", and the naive loop."""
    with threadpool_limits(1):
        return [row for noise in (0.0, 0.1) for row in _kernel_rows(scale, noise)]


def _kernel_rows(scale: float, noise: float) -> list[dict]:
    from perceptronlab import kernel_perceptron

    n, d, sweeps = max(200, int(5_000 * scale)), 20, 10  # 10 sweeps, as in the learners experiment
    rng = np.random.default_rng(2)
    X = rng.standard_normal((n, d))
    y = np.where(np.sum(X[:, :3] ** 2, axis=1) > 3.0, 1.0, -1.0)  # a sphere: not linear
    flip = rng.random(n) < noise
    y[flip] = -y[flip]
    gamma = 1.0 / d
    runs = {}

    def fit(cache):
        def run():
            runs[cache] = kernel_perceptron(
                X, y, kernel="rbf", gamma=gamma, max_sweeps=sweeps, cache=cache, warn=False
            )

        return timed(run, cpu=True)

    naive = {}

    def textbook():
        naive["mistakes"], naive["alpha"] = naive_dual_perceptron(X, y, RBF, gamma, sweeps)

    seconds = interleave(
        {
            "auto": fit("auto"),
            "none": fit("none"),
            "full": fit("full"),
            "naive": timed(textbook, cpu=True),
        },
        n_rounds=5,
    )
    cached = runs["auto"]
    ideal = cached.mistakes / max(
        cached.cached_columns, 1
    )  # kernel columns without a cache / with one
    labels = f"{int(100 * noise)} % labels flipped" if noise else "clean labels"
    same = {
        "α identical across caches and the naive loop": all(
            np.array_equal(run.alpha, cached.alpha) for run in runs.values()
        )
        and np.array_equal(naive["alpha"], cached.alpha)
    }
    shape = (
        f"rbf, n = {n:,}, d = {d}, {cached.sweeps} sweeps, {cached.mistakes:,} mistakes on "
        f"{cached.cached_columns:,} examples"
    )
    return [
        result_row(
            f'kernel perceptron, {labels}: cache="none" / the Gram cache (speed-up)',
            Stat.ratio(seconds["none"], seconds["auto"]),
            at_least(1.0),
            f"{shape}: without a cache every mistake computes its kernel column, with one each example's "
            f"column is computed once, so {ideal:.2f}× is the most a cache can save; Gram cache "
            f"{median_ms(seconds['auto'])}, no cache {median_ms(seconds['none'])}, full Gram up front "
            f"{median_ms(seconds['full'])}",
            same,
        ),
        result_row(
            f"kernel perceptron, {labels}: the textbook dual loop / the Gram cache (speed-up)",
            Stat.ratio(seconds["naive"], seconds["auto"]),
            at_least(5.0),
            f"{shape}; the textbook loop (benchmarks/baselines.py) recomputes every kernel value of the "
            f"support at every step: {median_ms(seconds['naive'])}; most of the gain is the incremental "
            f"scores, not the cache (previous row)",
            same,
        ),
    ]
