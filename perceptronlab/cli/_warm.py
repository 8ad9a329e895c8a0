"""Compile the kernels a user's first commands need, into Numba's on-disk cache (``make run``).

``python -m perceptronlab.cli._warm`` trains, analyses and predicts on a tiny float CSV and a tiny
LIBSVM file through the command line itself, so the compiled kernels of ``train`` (dense and sparse,
each algorithm), ``analyze`` and ``predict`` are cached before the first real command: that command
then loads them instead of compiling for seconds. It writes only to a temporary folder (and to
Numba's cache, ``NUMBA_CACHE_DIR`` or the package's ``__pycache__``).
"""

from __future__ import annotations

import tempfile
from pathlib import Path

#: a tiny float CSV: separable, with an intercept, in two features
_CSV = "x1,x2,y\n1.5,0.5,1\n2.0,1.0,1\n-1.0,-0.5,-1\n-2.0,0.5,-1\n0.5,2.0,1\n"
_LIBSVM = "1 1:1.5 2:0.5\n1 1:2.0 2:1.0\n-1 1:-1.0 2:-0.5\n-1 1:-2.0\n1 1:0.5 2:2.0\n"


def warm() -> list[list[str]]:
    """Run the commands whose kernels a first ``train`` and ``predict`` need; returns the commands run."""
    from typer.testing import CliRunner

    from perceptronlab.cli import app

    runner = CliRunner()
    done = []
    with tempfile.TemporaryDirectory() as folder:
        root = Path(folder)
        (root / "warm.csv").write_text(_CSV)
        (root / "warm.libsvm").write_text(_LIBSVM)
        model = str(root / "model.json")
        for data in ("warm.csv", "warm.libsvm"):
            path = str(root / data)
            for algorithm in ("perceptron", "pocket", "averaged"):
                done.append(["train", path, "--algorithm", algorithm, "--out", model, "-q"])
            done.append(["train", path, "--intercept", "--out", model, "-q"])
            done.append(["predict", model, path, "-q"])
            done.append(["analyze", path, "-q", "--no-exact"])
        for command in done:
            result = runner.invoke(app, command)
            if result.exit_code != 0:
                raise RuntimeError(
                    f"warming `perceptronlab {' '.join(command)}` failed: {result.output}"
                )
    return done


if __name__ == "__main__":  # pragma: no cover - `make run`
    commands = warm()
    print(f"compiled kernels cached: {len(commands)} commands warmed")
