"""Run every benchmark, print one table, write benchmarks/RESULTS.md (``make bench``).

``--passes N`` runs the whole suite N times, one pass after another, and reports each row over all of
them (``make bench`` uses 2): the median of the passes' medians, and the smallest and largest round of
any pass, so that a row's spread shows how much it moves between runs on this machine, not only within
one. ``--quick`` is a smoke run (small data, 3 rounds) that writes nothing; ``--only`` picks benchmarks
by name; ``--cpu haswell`` runs them compiled for another CPU (:mod:`benchmarks._target`). A
benchmark that fails (a missing optional package included) is a FAILED row, its traceback goes to
stderr and the run exits with status 1.
"""

from __future__ import annotations

import argparse
import importlib
import inspect
import os
import platform
import sys
import time
import traceback
from pathlib import Path

HERE = Path(__file__).resolve().parent
NOTE = (
    "Every figure: the median of interleaved rounds (each round times every side once), with the "
    "smallest and largest round; with several passes of the whole suite (`make bench` runs two, one after "
    "the other), the median of the passes' medians and the smallest and largest round of any pass, the "
    "detail being the last pass's. One-thread code is timed in the calling thread's CPU time, rows marked "
    '"wall time" use wall time (several threads or processes). `make bench` writes this file; the '
    "documentation's performance page shows it."
)
HEADER = (
    "| case | target | measured (median) | spread (min–max, rounds) | met | detail |\n"
    "| --- | --- | --- | --- | --- | --- |"
)


def machine_line(scale: float = 1.0) -> str:
    import numba
    import numpy
    import scipy
    import sklearn

    from benchmarks._floor import ceilings_text
    from benchmarks._machine import blas_text, l3_text
    from perceptronlab.core.config import cpu_text, kernel_choices

    cpu = cpu_text()
    kernels = "; ".join(f"{what}: {choice}" for what, choice in kernel_choices().items())
    return (
        f"{os.cpu_count()} cores, {cpu}, {l3_text()}; BLAS: {blas_text()}; Python {platform.python_version()}, "
        f"NumPy {numpy.__version__}, SciPy {scipy.__version__}, Numba {numba.__version__}, "
        f"scikit-learn {sklearn.__version__}; {ceilings_text(scale)}; kernels chosen: {kernels}"
    )


def collect(only: str | None):
    for path in sorted(HERE.glob("bench_*.py")):
        module = importlib.import_module(f"benchmarks.{path.stem}")
        for name, fn in inspect.getmembers(module, inspect.isfunction):
            if name.startswith("bench_") and fn.__module__ == module.__name__:
                if only is None or only in f"{path.stem}.{name}":
                    yield f"{path.stem}.{name}", fn


def fmt(value: float) -> str:
    return f"{value:.3g}"


def table_line(item: dict) -> str:
    if item.get("failed"):
        return f"| {item['case']} | {item['target']} | FAILED | — | no | {item['detail']} |"
    met = "yes" if item["met"] else "no" if item["met"] is False else "—"
    spread = item["spread"]
    if item["rounds"] > 1:
        spread_text = f"{fmt(spread[0])}–{fmt(spread[1])} ({item['rounds']})"
    else:
        spread_text = "— (one measurement)"
    detail = str(item["detail"]).replace("|", "/").replace("\n", " ")
    return f"| {item['case']} | {item['target']} | {fmt(item['ratio'])} | {spread_text} | {met} | {detail} |"


def table(rows: list[dict]) -> str:
    return "\n".join([HEADER, *(table_line(item) for item in rows)])


def run(only: str | None, scale: float) -> tuple[list[dict], list[str]]:
    from benchmarks._timing import check_row

    rows, failures = [], []
    for name, fn in collect(only):
        print(f"running {name} ...", file=sys.stderr, flush=True)
        start = time.perf_counter()
        try:
            params = inspect.signature(fn).parameters
            result = fn(scale=scale) if "scale" in params else fn()
            for item in result if isinstance(result, list) else [result]:
                check_row(item)  # every row: its verdict follows from its median, spread and target
        except Exception as exc:  # one failing benchmark is a FAILED row, and the run's status is 1
            traceback.print_exc()
            failures.append(name)
            result = {
                "case": name,
                "target": "",
                "ratio": float("nan"),
                "met": False,
                "failed": True,
                "detail": f"failed: {type(exc).__name__}: {exc}",
            }
        for item in result if isinstance(result, list) else [result]:
            rows.append(item)
            print("  " + table_line(item), file=sys.stderr)
        print(f"  ({time.perf_counter() - start:.0f} s)", file=sys.stderr, flush=True)
    return rows, failures


def combine_passes(passes: list[list[dict]]) -> list[dict]:
    """One row per case over several passes of the suite: the median of the passes' medians, the
    smallest and largest round of any pass, every round counted, every check required of every pass,
    the verdict recomputed from the combined median (one rule: ``_timing.met``); a case that failed in
    any pass is a FAILED row."""
    import statistics

    from benchmarks._timing import Target, met

    cases: dict[str, list[dict]] = {}
    for rows in passes:
        for item in rows:
            cases.setdefault(item["case"], []).append(item)
    combined = []
    for case, items in cases.items():
        failed = [item for item in items if item.get("failed")]
        if failed or len(items) != len(passes):
            detail = (
                failed[0]["detail"]
                if failed
                else f"missing from {len(passes) - len(items)} pass(es)"
            )
            combined.append(
                {
                    "case": case,
                    "target": items[0]["target"],
                    "ratio": float("nan"),
                    "met": False,
                    "failed": True,
                    "detail": detail,
                }
            )
            continue
        if len(items) == 1:
            combined.append(items[0])
            continue
        medians = [item["ratio"] for item in items]
        checks = {
            name: all(item["checks"].get(name, False) for item in items)
            for name in items[-1]["checks"]
        }
        bound = items[-1]["bound"]
        median = float(statistics.median(medians))
        combined.append(
            {
                "case": case,
                "target": items[-1]["target"],
                "bound": bound,
                "ratio": median,
                "spread": [
                    min(item["spread"][0] for item in items),
                    max(item["spread"][1] for item in items),
                ],
                "rounds": sum(item["rounds"] for item in items),
                "checks": checks,
                "met": met(
                    None if bound is None else Target(bound["op"], bound["value"]), median, checks
                ),
                "detail": (
                    items[-1]["detail"]  # a check that failed only in an earlier pass is stated too
                    + "".join(
                        f"; {name}: NO (an earlier pass)"
                        for name, ok in checks.items()
                        if not ok and items[-1]["checks"][name]
                    )
                    + f"; the passes' medians: {', '.join(fmt(m) for m in medians)}"
                ),
            }
        )
    return combined


def _without_cpu(argv: list[str]) -> list[str]:
    """The arguments without ``--cpu NAME`` (or ``--cpu=NAME``) and ``--out``'s (given again)."""
    rest, skip = [], False
    for arg in argv:
        if skip:
            skip = False
        elif arg in ("--cpu", "--out"):
            skip = True
        elif not arg.startswith(("--cpu=", "--out=")):
            rest.append(arg)
    return rest


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--only", help="run benchmarks whose name contains this text")
    parser.add_argument(
        "--scale", type=float, default=1.0, help="shrink the data (smoke runs write nothing)"
    )
    parser.add_argument(
        "--quick", action="store_true", help="a smoke run: --scale 0.02 and 3 rounds"
    )
    parser.add_argument("--rounds", type=int, help="rounds per figure (default 7)")
    parser.add_argument(
        "--passes", type=int, default=1, help="run the whole suite this many times (make bench: 2)"
    )
    parser.add_argument("--out", help="where to write the table (default benchmarks/RESULTS.md)")
    parser.add_argument(
        "--cpu",
        help="run compiled for this CPU (haswell, znver3: LLVM's names), with a Numba cache of its "
        "own; writes benchmarks/RESULTS-<cpu>.md unless --out says otherwise",
    )
    args = parser.parse_args(argv)
    if args.cpu:
        from benchmarks._target import run_for_cpu

        rest = _without_cpu(sys.argv[1:] if argv is None else list(argv))
        out = args.out or str(HERE / f"RESULTS-{args.cpu}.md")
        return run_for_cpu(args.cpu, "benchmarks", [*rest, "--out", out])
    args.out = args.out or str(HERE / "RESULTS.md")
    from benchmarks import _timing
    from benchmarks._timing import check_row

    scale = 0.02 if args.quick else args.scale
    if args.quick or args.rounds:
        _timing.set_rounds(args.rounds or 3)
    if args.passes < 1:
        parser.error("--passes must be at least 1")
    passes, failures = [], []
    for number in range(args.passes):
        if args.passes > 1:
            print(f"pass {number + 1} of {args.passes}", file=sys.stderr, flush=True)
        rows, failed = run(args.only, scale)
        passes.append(rows)
        failures += [name for name in failed if name not in failures]
    rows = combine_passes(passes)
    for item in rows:
        if not item.get("failed"):
            check_row(item)
    machine = machine_line(scale)
    table_text = table(rows)
    text = f"# Benchmark results\n\n{NOTE}\n\nMachine: {machine}\n\n{table_text}\n"
    print(text)
    if scale == 1.0 and args.only is None and not args.rounds:
        Path(args.out).write_text(text)
    if failures:
        print(f"FAILED: {', '.join(failures)}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
