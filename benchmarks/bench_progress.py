"""The cost of showing progress (issue 14): a compiled run reporting to the command line's progress
display against the same run without it.

The display (``perceptronlab.cli._progress.Progress``) is already live when the run starts (its
one-second delay set to 0; it draws on a terminal console, Rich forced to a terminal and writing
into memory), so its refresh thread renders the bar five times a second while the run goes on, and
the run calls the display's per-sweep hook after every sweep. Only the run is timed: opening and
closing the display happen once per command, not per sweep. Both sides run the same compiled
sweeps (cyclic order, one core) on data that never converges, so every run does exactly
``max_sweeps`` sweeps. Time is the process's CPU time (``time.process_time``: every thread, the
display's refresh thread included, and none of the other processes that share the machine), in
interleaved rounds; the figure is the median of the per-round ratios.
"""

from __future__ import annotations

import io
import time

import numpy as np

from benchmarks._timing import Stat, at_most, median_ms, result_row, rounds
from perceptronlab.cli import _progress
from perceptronlab.core.perceptron import perceptron

#: the overhead the issue allows: under 2 %
TARGET = 1.02


def _noisy(n: int, d: int, seed: int = 0):
    rng = np.random.default_rng(seed)
    X = rng.standard_normal((n, d))
    y = np.where(X[:, 0] + 0.8 * rng.standard_normal(n) > 0, 1, -1)
    return X, y


def _with_display(X, y, sweeps: int) -> float:
    from rich.console import Console

    console = Console(file=io.StringIO(), force_terminal=True, width=120)
    with _progress.Progress("bench", console=console) as progress:
        hook = progress("perceptron", sweeps)
        while not progress.live:  # the display starts on its own thread
            time.sleep(0.001)
        start = time.process_time()
        run = perceptron(X, y, max_sweeps=sweeps, warn=False, n_jobs=1, on_sweep=hook)
        seconds = time.process_time() - start
    assert run.sweeps == sweeps and "perceptron" in console.file.getvalue()  # the bar was drawn
    return seconds


def _without(X, y, sweeps: int) -> float:
    start = time.process_time()
    run = perceptron(X, y, max_sweeps=sweeps, warn=False, n_jobs=1)
    seconds = time.process_time() - start
    assert run.sweeps == sweeps
    return seconds


def _overhead_row(n: int, d: int, sweeps: int, label: str, wanted_rounds: int = 31) -> dict:
    X, y = _noisy(n, d)
    n_rounds = rounds(wanted_rounds)
    shown, plain = [], []
    saved = _progress.SHOW_AFTER
    _progress.SHOW_AFTER = 0.0
    try:
        _without(X, y, 2)  # compile outside the rounds
        for r in range(n_rounds):
            sides = (_with_display, _without) if r % 2 == 0 else (_without, _with_display)
            for side in sides:
                (shown if side is _with_display else plain).append(side(X, y, sweeps))
    finally:
        _progress.SHOW_AFTER = saved
    return result_row(
        f"progress display / none, {label}",
        Stat.ratio(shown, plain),
        at_most(TARGET),
        f"n = {n:,}, d = {d}, {sweeps:,} compiled sweeps (cyclic, one core, never converges); "
        f"without {median_ms(plain)}, with the live bar {median_ms(shown)}; {n_rounds} interleaved "
        "rounds, CPU time of all threads of the process",
    )


def bench_progress_overhead(scale: float = 1.0):
    """Many short sweeps (the hook's worst case: it runs once per sweep) and a few long ones."""
    return [
        _overhead_row(200, 30, max(200, int(25_000 * scale)), "200 × 30 (short sweeps)"),
        _overhead_row(
            max(1000, int(100_000 * scale)),
            10,
            max(3, int(150 * scale)),
            "100,000 × 10 (long sweeps)",
        ),
    ]
