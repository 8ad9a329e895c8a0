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


def _fit_each_learner(data, y, labels) -> int:
    """Fit every learner with compiled kernels of its own on ``data`` (a few sweeps)."""
    import numpy as np

    import perceptronlab as pl

    fits = (
        lambda: pl.perceptron(data, y, order="shuffle", seed=0, max_sweeps=3),
        lambda: pl.pocket(data, y, max_sweeps=3),
        lambda: pl.pocket(data, y, order="cyclic", check="ratchet", max_sweeps=3),
        lambda: pl.averaged_perceptron(data, y, max_sweeps=3),
        lambda: pl.multiclass_perceptron(data, labels, max_sweeps=3),
        lambda: pl.Perceptron(max_iter=3).fit(data, y),
        lambda: pl.Perceptron(penalty="l2", max_iter=3).fit(
            data, y, sample_weight=np.linspace(0.5, 2.0, len(y))
        ),
        lambda: pl.Perceptron(penalty="elasticnet", max_iter=3).fit(data, labels),
        lambda: pl.kernel_perceptron(data, y, kernel="rbf", max_sweeps=3),
    )
    for fit in fits:
        try:
            fit()
        except pl.PerceptronLabError:
            pass  # a refusal compiles nothing more
    return len(fits)


def warm_every_kernel(widths: tuple[str, ...] = ("float64", "float32")) -> int:
    """Also compile, in both float widths and for dense and CSR rows, the kernels that the
    commands above do not reach: every dense and CSR loop the machine may choose, the parallel
    blocked sweep, the learners' own (pocket's ratchet, the averaged, multiclass and kernel members,
    scikit-learn's SGD semantics with penalties and sample weights). ``make test`` runs this while
    lint runs, so that the test workers load these kernels instead of each compiling them. Returns
    the number of calls made. ``widths`` names the float widths to compile (``make test`` compiles
    the two in two processes, one core each)."""
    import warnings

    import numpy as np
    import scipy.sparse as sp

    from perceptronlab.core import kernels
    from perceptronlab.core.batch import perceptron_batch

    rng = np.random.default_rng(0)
    calls = 0
    for dtype in map(np.dtype, widths):
        X = rng.normal(size=(48, 4)).astype(dtype)
        y = np.where(X[:, 0] + 0.3 * rng.normal(size=48) > 0, 1, -1)
        labels = np.arange(48) % 3
        n, d = X.shape
        order = np.arange(n)[::-1].copy()
        for use_order in (False, True):
            for loop in kernels.DENSE_SWEEPS:
                rule = (np.zeros(d), 0.0, 1.0, 0.0, True, np.empty(n, np.int64), np.empty(n))
                kernels.sweep_dense_loop(X, y.astype(np.float64), order, use_order, rule, loop)
                calls += 1
            row_sq = kernels.row_squared_norms(X, np.empty(n))
            rule = (np.zeros(d), 0.0, 1.0, 0.0, True, np.empty(n, np.int64), np.empty(n))
            kernels.sweep_dense_blocked(
                X, y.astype(np.float64), order, use_order, rule, 16, np.empty(16), row_sq
            )
            calls += 1
            out = np.empty(n, np.int64), np.empty(n)
            kernels.sweep_dense(
                X, y.astype(np.float64), order, use_order, np.zeros(d), 0.0, 1.0, 0.0, True, *out
            )
        for margins in (kernels.margins_dense, kernels.margins_dense_parallel):
            margins(X, y.astype(np.float64), np.ones(d), 0.5, np.empty(n))
        perceptron_batch(np.stack([X, X]), np.stack([y, y]), max_sweeps=3)
        S = sp.csr_matrix(X)
        for loop in kernels.CSR_LOOPS:
            rule = (np.zeros(d), 0.0, 1.0, 0.0, True, np.empty(n, np.int64), np.empty(n))
            kernels.sweep_csr(
                S.indptr, S.indices, S.data, y.astype(np.float64), order, True, rule, loop
            )
            calls += 1
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            for data in (X, S):
                calls += _fit_each_learner(data, y, labels)
    return calls


if __name__ == "__main__":  # pragma: no cover - `make run`, `make test`
    import sys

    # `--every-kernel`: also every kernel, in both float widths; `--every-kernel=float32` in one;
    # `--no-commands`: not the first commands' kernels (another process compiles those)
    flags = sys.argv[1:]
    if "--no-commands" not in flags:
        print(f"compiled kernels cached: {len(warm())} commands warmed")
    for flag in flags:
        if flag.startswith("--every-kernel"):
            _, _, width = flag.partition("=")
            widths = (width,) if width else ("float64", "float32")
            print(f"and every kernel in {' and '.join(widths)}: {warm_every_kernel(widths)} calls")
