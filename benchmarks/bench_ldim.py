"""The exact Littlestone dimension (issue 24): the bounded bit-set search against the plain memoised
recursion, and the two sizes the issue names, intervals on 128 points and 2-D halfspaces with an
intercept on 64 random points, in seconds.

The baseline is the textbook recursion Ldim(V) = max_x 1 + min(Ldim(V⁰ₓ), Ldim(V¹ₓ)) memoised on
the version space as a frozenset, with no bound and no order (``perceptronlab.online._search.
plain_ldim``); it takes seconds on intervals of 16 points and about a minute on 20, so the ratio rows
use sizes it finishes. Classes are built outside the timed code and every case runs once untimed
first (the compiled counting loop loads); data are seeded; one thread, timed in its CPU time.
"""

from __future__ import annotations

import numpy as np

from benchmarks._timing import Stat, at_least, at_most, interleave, result_row, timed


def _ratio_row(name: str, H, target: float) -> dict:
    from perceptronlab.online import littlestone_dimension
    from perceptronlab.online._search import plain_ldim

    values: dict[str, int] = {}

    def plain() -> None:
        values["plain"] = plain_ldim(H.matrix)

    def fast() -> None:
        values["fast"] = littlestone_dimension(H).value

    seconds = interleave(
        {"plain recursion": timed(plain, cpu=True), "bit-set search": timed(fast, cpu=True)},
        n_rounds=3,
        warmup=True,
    )
    return result_row(
        f"Littlestone dimension of {name}: plain memoised recursion / bit-set search",
        Stat.ratio(seconds["plain recursion"], seconds["bit-set search"]),
        at_least(10),
        f"|H| = {len(H):,}, Ldim = {values['fast']}; plain {np.median(seconds['plain recursion']):.3g} s, "
        f"bit-set search {np.median(seconds['bit-set search']) * 1e3:.3g} ms (the baseline row)",
        {"same dimension": values["plain"] == values["fast"]},
    )


def bench_ldim_against_plain_recursion_intervals(scale: float = 1.0) -> dict:
    """Intervals on 16 points (137 hypotheses): the largest the plain recursion does in seconds."""
    from perceptronlab.online import FiniteClass

    k = 16 if scale >= 0.5 else 8
    return _ratio_row(f"intervals on {k} points", FiniteClass.intervals(k), 10)


def bench_ldim_against_plain_recursion_halfspaces(scale: float = 1.0) -> dict:
    """2-D halfspaces with an intercept on 14 random points."""
    from perceptronlab.online import FiniteClass

    n = 14 if scale >= 0.5 else 7
    X = np.random.default_rng(0).standard_normal((n, 2))
    return _ratio_row(f"2-D halfspaces on {n} points", FiniteClass.halfspaces(X), 10)


def _seconds_row(name: str, H, growth: list[tuple[int, int, float]]) -> dict:
    from perceptronlab.online import littlestone_dimension

    results = []
    seconds = interleave(
        {"search": timed(lambda: results.append(littlestone_dimension(H)), cpu=True)},
        n_rounds=3,
        warmup=True,
    )
    result = results[-1]
    series = ", ".join(
        f"{size}: Ldim {value} in {time * 1e3:.3g} ms" for size, value, time in growth
    )
    return result_row(
        f"Littlestone dimension of {name} (seconds)",
        Stat.of(seconds["search"]),
        at_most(10, " s"),
        f"|H| = {len(H):,}, Ldim = {result.value}, {result.visits:,} version spaces; "
        f"growth: {series}",
        {"the tree checks": result.verify(H)},
    )


def _growth(make, sizes) -> list[tuple[int, int, float]]:
    import time

    from perceptronlab.online import littlestone_dimension

    rows = []
    for size in sizes:
        H = make(size)
        start = time.thread_time()
        value = littlestone_dimension(H).value
        rows.append((size, value, time.thread_time() - start))
    return rows


def bench_ldim_intervals_128(scale: float = 1.0) -> dict:
    """Intervals on 128 points: 8,257 hypotheses."""
    from perceptronlab.online import FiniteClass

    k = max(8, int(128 * min(scale, 1.0)))
    sizes = [size for size in (16, 32, 64) if size < k]
    return _seconds_row(
        f"intervals on {k} points", FiniteClass.intervals(k), _growth(FiniteClass.intervals, sizes)
    )


def bench_ldim_halfspaces_64(scale: float = 1.0) -> dict:
    """2-D halfspaces with an intercept on 64 random points (4,034 labellings)."""
    from perceptronlab.online import FiniteClass

    n = max(8, int(64 * min(scale, 1.0)))
    points = np.random.default_rng(0).standard_normal((n, 2))

    def make(size: int):
        return FiniteClass.halfspaces(points[:size])

    sizes = [size for size in (16, 32) if size < n]
    return _seconds_row(
        f"2-D halfspaces with an intercept on {n} random points", make(n), _growth(make, sizes)
    )
