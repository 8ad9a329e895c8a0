"""Timing helpers shared by the benchmark modules."""

from __future__ import annotations

import time
from collections.abc import Callable


def best_time(fn: Callable[[], object], repeat: int = 5, setup: Callable[[], object] | None = None) -> float:
    """The fastest of ``repeat`` runs (the least disturbed by a shared, noisy machine)."""
    times = []
    for _ in range(repeat):
        if setup is not None:
            setup()
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return min(times)


def row(case: str, target: str, ratio: float, met: bool | None, detail: str) -> dict:
    return {"case": case, "target": target, "ratio": float(ratio), "met": met, "detail": detail}
