"""Run every benchmark, print one table, write benchmarks/RESULTS.md (``make bench``)."""

from __future__ import annotations

import argparse
import importlib
import inspect
import os
import platform
import sys
import traceback
from pathlib import Path

HERE = Path(__file__).resolve().parent


def machine_line() -> str:
    import numba
    import numpy
    import scipy
    import sklearn
    from threadpoolctl import threadpool_info

    cpu = platform.processor() or "unknown CPU"
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    blas = ", ".join(f"{i.get('internal_api')} {i.get('version')} ({i.get('architecture', '?')}, "
                     f"{i.get('num_threads')} threads)" for i in threadpool_info() if i.get("user_api") == "blas")
    env = ", ".join(f"{k}={os.environ[k]}" for k in ("OPENBLAS_CORETYPE", "OPENBLAS_L2_SIZE") if k in os.environ)
    return (f"{os.cpu_count()} cores, {cpu}; BLAS: {blas or 'none found'}{'; ' + env if env else ''}; "
            f"Python {platform.python_version()}, NumPy {numpy.__version__}, SciPy {scipy.__version__}, "
            f"Numba {numba.__version__}, scikit-learn {sklearn.__version__}")


def collect(only: str | None):
    for path in sorted(HERE.glob("bench_*.py")):
        module = importlib.import_module(f"benchmarks.{path.stem}")
        for name, fn in inspect.getmembers(module, inspect.isfunction):
            if name.startswith("bench_") and fn.__module__ == module.__name__:
                if only is None or only in name or only in path.stem:
                    yield f"{path.stem}.{name}", fn


def fmt_ratio(value: float) -> str:
    return f"{value:.3g}" if value == value else "n/a"


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--only", help="run benchmarks whose name contains this text")
    parser.add_argument("--scale", type=float, default=1.0, help="shrink the data (smoke runs)")
    parser.add_argument("--out", default=str(HERE / "RESULTS.md"))
    args = parser.parse_args(argv)
    rows = []
    for name, fn in collect(args.only):
        print(f"running {name} ...", file=sys.stderr, flush=True)
        try:
            params = inspect.signature(fn).parameters
            result = fn(scale=args.scale) if "scale" in params else fn()
        except Exception as exc:  # a failing benchmark is a row, not the end of the run
            traceback.print_exc()
            result = {"case": name, "target": "", "ratio": float("nan"), "met": False,
                      "detail": f"failed: {type(exc).__name__}: {exc}"}
        for item in result if isinstance(result, list) else [result]:
            rows.append(item)
            print(f"  {item['case']}: {fmt_ratio(item['ratio'])} ({item['target']}) "
                  f"{'met' if item['met'] else 'NOT met' if item['met'] is False else ''}", file=sys.stderr)
    lines = [
        "| case | target | measured | met | detail |",
        "| --- | --- | --- | --- | --- |",
    ]
    for item in rows:
        met = "yes" if item["met"] else "no" if item["met"] is False else "—"
        lines.append(f"| {item['case']} | {item['target']} | {fmt_ratio(item['ratio'])} | {met} | "
                     f"{item['detail']} |")
    table = "\n".join(lines)
    text = f"# Benchmark results\n\nMachine: {machine_line()}\n\n{table}\n"
    print(text)
    if args.scale == 1.0 and args.only is None:
        Path(args.out).write_text(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
