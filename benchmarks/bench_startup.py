"""Start-up of the command line (issue 22, item 7): ``predict`` on a small file, and the first ``train``
after ``make run``.

Each command runs in a fresh process, as a user runs it, and is timed in the CPU time of that process
(``resource.getrusage(RUSAGE_CHILDREN)``: user + system, its threads included, none of the other
processes that share the machine), in interleaved rounds against a baseline timed in the same rounds:

- ``predict`` of a saved model on a three-row file, against a bare ``python -c "import numpy"`` (the
  floor every command pays); the figure is predict's CPU seconds (target: about 1 s);
- ``train`` on a small file in a fresh process whose Numba cache was filled by ``make run``'s warm-up
  (``python -m perceptronlab.cli._warm``), against the same ``train`` with an empty cache (it compiles);
  the figure is warm / cold.
"""

from __future__ import annotations

import os
import resource
import subprocess
import sys
import tempfile
from pathlib import Path

from benchmarks._timing import Stat, at_most, median_ms, result_row, rounds

ROOT = Path(__file__).resolve().parents[1]
#: predict on a small file within about a second of CPU (the issue's figure)
PREDICT_TARGET = 1.0
#: the first train after `make run` loads its kernels: at most half the time of one that compiles
WARM_TARGET = 0.5
_DATA = (
    "x1,x2,x3,y\n1.5,0.5,0.2,1\n2.0,1.0,-0.3,1\n-1.0,-0.5,0.1,-1\n-2.0,0.5,0.4,-1\n0.5,2.0,0.0,1\n"
)


def _cpu(argv: list[str], env: dict[str, str] | None = None) -> float:
    """CPU seconds (user + system) of one child process running ``argv``."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    done = subprocess.run(argv, capture_output=True, text=True, cwd=ROOT, env=env, timeout=600)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode != 0:
        raise RuntimeError(f"{' '.join(argv)} failed: {done.stderr[-500:]}")
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def _env(**more: str) -> dict[str, str]:
    env = dict(os.environ)
    env["PYTHONPATH"] = str(ROOT) + os.pathsep + env.get("PYTHONPATH", "")
    env.update(more)
    return env


def bench_predict_startup(scale: float = 1.0):
    """``perceptronlab predict model.json new.csv`` on three rows, in a fresh process."""
    with tempfile.TemporaryDirectory() as folder:
        root = Path(folder)
        data, new, model = root / "data.csv", root / "new.csv", root / "model.json"
        data.write_text(_DATA)
        new.write_text("\n".join(_DATA.splitlines()[:4]) + "\n")
        env = _env()
        cli = [sys.executable, "-m", "perceptronlab"]
        _cpu(
            [*cli, "train", str(data), "--out", str(model), "-q"], env
        )  # compiles and caches, outside the rounds
        predict, floor = [], []
        n_rounds = rounds(7)
        for r in range(n_rounds):
            sides = (
                (predict, [*cli, "predict", str(model), str(new), "-q"]),
                (floor, [sys.executable, "-c", "import numpy"]),
            )
            for into, argv in sides if r % 2 == 0 else sides[::-1]:
                into.append(_cpu(argv, env))
    return [
        result_row(
            "predict on 3 rows, fresh process (CPU s)",
            Stat.of(predict),
            at_most(PREDICT_TARGET, " s"),
            f"perceptronlab predict model.json new.csv: {median_ms(predict)} of CPU; a bare "
            f"`python -c 'import numpy'` {median_ms(floor)}; {n_rounds} interleaved rounds, CPU time "
            "(user + system) of the child process",
        )
    ]


def bench_first_train_after_make_run(scale: float = 1.0):
    """``perceptronlab train data.csv`` with the kernels cached by ``make run`` against one that compiles.

    The warm side is the user's own cache, as ``make run`` leaves it (its warm-up run here first: a
    no-op where ``make run`` or ``make test`` has run, so the benchmark compiles only the cold side)."""
    with tempfile.TemporaryDirectory() as folder:
        root = Path(folder)
        data = root / "data.csv"
        data.write_text(_DATA)
        cli = [sys.executable, "-m", "perceptronlab", "train", str(data), "-q"]
        _cpu([sys.executable, "-m", "perceptronlab.cli._warm"], _env())
        warm, cold = [], []
        n_rounds = rounds(3)
        for r in range(n_rounds):
            empty = root / f"cold-{r}"
            sides = ((warm, _env()), (cold, _env(NUMBA_CACHE_DIR=str(empty))))
            for into, env in sides if r % 2 == 0 else sides[::-1]:
                into.append(_cpu(cli, env))
    return [
        result_row(
            "first train after make run / one that compiles",
            Stat.ratio(warm, cold),
            at_most(WARM_TARGET),
            f"perceptronlab train data.csv in a fresh process: {median_ms(warm)} of CPU with the kernels "
            f"cached by `make run` (python -m perceptronlab.cli._warm), {median_ms(cold)} with an empty "
            f"Numba cache; {n_rounds} interleaved rounds, CPU time of the child process",
        )
    ]
