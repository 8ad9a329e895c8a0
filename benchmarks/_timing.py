"""Timing and rows shared by the benchmark modules.

Every figure is measured in interleaved rounds: each round times every side once (the order reversed
from one round to the next), so a machine that slows down slows all sides alike, and each side gets
the same number of rounds. A row reports the median of the per-round ratios and their spread (the
smallest and largest round), and its ``met`` follows from those numbers (:func:`result_row`).

Code that runs on one thread (ours with ``n_jobs=1``, GEMV with BLAS limited to one thread, SpMV,
scikit-learn's SGD, River) is timed in the calling thread's CPU time (``cpu=True``): on a shared
machine that leaves out the time other processes hold the core, which wall time would add to
whichever side happened to be descheduled. Anything with several threads or processes is timed in
wall time.
"""

from __future__ import annotations

import gc
import math
import operator
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

#: rounds per figure unless a benchmark says otherwise; ``python -m benchmarks --quick`` lowers it
ROUNDS = 7
_settings = {"rounds": ROUNDS}


def set_rounds(rounds: int) -> None:
    """The default number of rounds for every later measurement (at least 2: a spread needs two)."""
    _settings["rounds"] = max(2, int(rounds))


def rounds(wanted: int | None = None) -> int:
    """``wanted`` rounds, or the default; never more than the default (a quick run stays quick)."""
    default = _settings["rounds"]
    return default if wanted is None else max(2, min(int(wanted), default))


# ---------------------------------------------------------------- cases


Case = Callable[[], float]  # one measurement: runs its code once and returns the seconds it took


def clock(cpu: bool) -> Callable[[], float]:
    """The calling thread's CPU time (one-thread code), or wall time."""
    return time.thread_time if cpu else time.perf_counter


def timed(
    fn: Callable[..., Any], setup: Callable[[], Any] | None = None, cpu: bool = False
) -> Case:
    """A case timing ``fn()`` (or ``fn(setup())``, the setup untimed: fresh state every round);
    ``cpu=True`` for one-thread code (the thread's CPU time)."""
    now = clock(cpu)

    def case() -> float:
        state = setup() if setup is not None else None
        gc.collect()
        start = now()
        fn() if setup is None else fn(state)
        return now() - start

    return case


def difference(long: Case, short: Case, per: float = 1.0) -> Case:
    """(long − short) / per: the time of the extra work of ``long``, fixed costs removed."""

    def case() -> float:
        return (long() - short()) / per

    return case


def interleave(
    cases: dict[str, Case], n_rounds: int | None = None, warmup: bool = True, settle: float = 0.0
) -> dict[str, np.ndarray]:
    """Seconds of every case in interleaved rounds: A, B, C, then C, B, A, then A, B, C, …

    ``warmup`` runs every case once first, untimed (compilation, first-touch page faults).
    ``settle`` seconds of sleep before each case let the thread pools of the case before (BLAS's,
    Numba's) stop spinning, so that they do not hold cores the next case needs.
    """
    n_rounds = rounds(n_rounds)
    names = list(cases)
    seconds: dict[str, list[float]] = {name: [] for name in names}
    # What is alive now is not the cases' garbage: frozen, it is left out of the collection before
    # each case, which then walks only what the cases made (a full walk of a large process, a test
    # session's say, takes most of a second, dozens of times a figure).
    gc.collect()
    gc.freeze()
    try:
        if warmup:
            for name in names:
                cases[name]()
        for r in range(n_rounds):
            for name in names if r % 2 == 0 else reversed(names):
                if settle:
                    time.sleep(settle)
                seconds[name].append(cases[name]())
    finally:
        gc.unfreeze()
    return {name: np.asarray(values, dtype=np.float64) for name, values in seconds.items()}


# ---------------------------------------------------------------- statistics


@dataclass(frozen=True)
class Stat:
    """The median of per-round values and their spread (smallest, largest)."""

    median: float
    low: float
    high: float
    rounds: int

    @classmethod
    def of(cls, values) -> Stat:
        values = np.asarray(values, dtype=np.float64)
        if values.size == 0 or not np.all(np.isfinite(values)):
            raise ValueError(f"a measurement was not a finite number: {values.tolist()}")
        return cls(
            float(np.median(values)), float(values.min()), float(values.max()), int(values.size)
        )

    @classmethod
    def ratio(cls, numerator, denominator) -> Stat:
        """Per-round ratios numerator[r] / denominator[r] (both measured in round r)."""
        numerator, denominator = (
            np.asarray(numerator, dtype=np.float64),
            np.asarray(denominator, dtype=np.float64),
        )
        if numerator.shape != denominator.shape:
            raise ValueError("both sides need the same number of rounds")
        return cls.of(numerator / denominator)

    def ms(self) -> str:
        return f"{self.median * 1e3:.3g} ms"

    def __str__(self) -> str:
        return f"{self.median:.3g} ({self.low:.3g}–{self.high:.3g})"


def median_ms(values) -> str:
    """A median time in milliseconds, for a row's detail."""
    return f"{float(np.median(values)) * 1e3:.3g} ms"


# ---------------------------------------------------------------- rows

_OPERATORS = {"<=": (operator.le, "≤"), ">=": (operator.ge, "≥")}


@dataclass(frozen=True)
class Target:
    """The figure must be ``op value`` (``op`` is "<=" or ">="); ``unit`` is printed after it."""

    op: str
    value: float
    unit: str = ""

    def holds(self, figure: float) -> bool:
        return bool(_OPERATORS[self.op][0](figure, self.value))

    def __str__(self) -> str:
        return f"{_OPERATORS[self.op][1]} {self.value:g}{self.unit}"


def at_most(value: float, unit: str = "") -> Target:
    return Target("<=", float(value), unit)


def at_least(value: float, unit: str = "") -> Target:
    return Target(">=", float(value), unit)


def met(target: Target | None, figure: float, checks: dict[str, bool]) -> bool | None:
    """The one rule for a row's verdict: the median meets the target and every check holds."""
    if target is None:
        return None
    return bool(target.holds(figure) and all(checks.values()))


def result_row(
    case: str,
    figure: Stat | float,
    target: Target | None,
    detail: str,
    checks: dict[str, bool] | None = None,
) -> dict:
    """A result row. ``figure`` is a :class:`Stat` (median and spread over rounds) or a single value
    (a measurement that is not timed in rounds, e.g. a memory high-water mark)."""
    checks = {name: bool(value) for name, value in (checks or {}).items()}
    stat = (
        figure if isinstance(figure, Stat) else Stat(float(figure), float(figure), float(figure), 1)
    )
    if not math.isfinite(stat.median):
        raise ValueError(f"{case}: the figure is not a finite number ({stat.median})")
    return {
        "case": case,
        "target": str(target) if target is not None else "— (reported)",
        "bound": None if target is None else {"op": target.op, "value": target.value},
        "ratio": stat.median,
        "spread": [stat.low, stat.high],
        "rounds": stat.rounds,
        "checks": checks,
        "met": met(target, stat.median, checks),
        "detail": detail
        + "".join(f"; {name}: {'yes' if ok else 'NO'}" for name, ok in checks.items()),
    }


def check_row(item: dict) -> None:
    """Raise ValueError unless the row's median, spread, target text and verdict agree."""
    problems = []
    if set(item) != {
        "case",
        "target",
        "bound",
        "ratio",
        "spread",
        "rounds",
        "checks",
        "met",
        "detail",
    }:
        problems.append(f"keys {sorted(item)}")
    else:
        low, high = item["spread"]
        if not (math.isfinite(item["ratio"]) and low <= item["ratio"] <= high):
            problems.append(f"median {item['ratio']} outside its spread {item['spread']}")
        if item["rounds"] < 1 or (item["rounds"] == 1 and low != high):
            problems.append(f"{item['rounds']} rounds with a spread {item['spread']}")
        bound = item["bound"]
        if bound is None:
            if item["met"] is not None or item["target"] != "— (reported)":
                problems.append("a verdict without a target")
        else:
            target = Target(bound["op"], bound["value"])
            if item["met"] is not met(target, item["ratio"], item["checks"]):
                problems.append(
                    f"met={item['met']} does not follow from {item['ratio']} {target} and {item['checks']}"
                )
            if not item["target"].startswith(str(target)):
                problems.append(f"target text {item['target']!r} is not {str(target)!r}")
        for name, ok in item["checks"].items():
            if f"{name}: {'yes' if ok else 'NO'}" not in item["detail"]:
                problems.append(f"check {name!r} not stated in the detail")
    if problems:
        raise ValueError(f"{item.get('case')}: " + "; ".join(problems))


def require(module: str, extra: str):
    """Import an optional package a benchmark needs, or fail loudly saying how to install it."""
    import importlib

    try:
        return importlib.import_module(module)
    except ImportError as exc:
        raise RuntimeError(
            f"this benchmark needs {module!r}, which is not installed: "
            f"pip install -e '.[{extra}]' (make setup installs every extra)"
        ) from exc


def require_program(name: str, install: str) -> str:
    """The path of a program a benchmark needs (e.g. Debian's ``chromium``), or fail loudly saying how
    to install it."""
    import shutil

    path = shutil.which(name)
    if path is None:
        raise RuntimeError(
            f"this benchmark needs the program {name!r}, which is not on the PATH: {install}"
        )
    return path
