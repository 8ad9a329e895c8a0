"""The measured code and its baselines, each written once: our sweeps and public calls, scikit-learn's
``fit``, BLAS's GEMV and SciPy's SpMV."""

from __future__ import annotations

import warnings

import numpy as np
from threadpoolctl import threadpool_limits

from benchmarks._timing import Case, clock, difference, timed


def engine(X, y, n_jobs: int = 1, w0=None):
    """The compiled engine that ``perceptron`` drives, built outside any timer."""
    from perceptronlab.core.engines import CompiledEngine

    return CompiledEngine(X, y, eta=1.0, margin=0.0, fit_intercept=False, n_jobs=n_jobs, w0=w0)


def sweeps(X, y, count: int, n_jobs: int = 1, updates: list | None = None) -> Case:
    """Seconds per sweep over the first ``count`` sweeps from w = 0, a fresh engine every round
    (built untimed); the updates of each sweep go to ``updates``. CPU time on one core."""

    def run(eng):
        made = [eng.sweep(None, s) for s in range(1, count + 1)]
        if updates is not None:
            updates[:] = made

    case = timed(run, setup=lambda: engine(X, y, n_jobs=n_jobs), cpu=n_jobs == 1)
    return lambda: case() / count


def ours_fit(X, y, sweeps: int):
    """Our public call, validation included, on one core, for exactly ``sweeps`` sweeps (unless a
    sweep is clean first, which the benchmarks' data never allows within these counts)."""
    from perceptronlab import perceptron

    return lambda: perceptron(X, y, max_sweeps=sweeps, warn=False, n_jobs=1)


def sklearn_fit(X, y, epochs: int):
    """scikit-learn's ``Perceptron(...).fit`` for exactly ``epochs`` epochs, in data order, the same
    rule as ours (no intercept, no regularization, eta0 = 1): its validation included."""
    from sklearn.exceptions import ConvergenceWarning
    from sklearn.linear_model import Perceptron

    def fit():
        model = Perceptron(
            shuffle=False,
            eta0=1.0,
            alpha=0.0,
            penalty=None,
            fit_intercept=False,
            tol=None,
            max_iter=epochs,
        )
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", ConvergenceWarning)
            return model.fit(X, y)

    return fit


def public_calls(X, y, epochs: int = 5) -> dict[str, Case]:
    """The headline pair: ``perceptron(max_sweeps=k)`` against ``Perceptron(max_iter=k).fit`` (one
    thread each: CPU time)."""
    return {
        "ours": timed(ours_fit(X, y, epochs), cpu=True),
        "scikit-learn": timed(sklearn_fit(X, y, epochs), cpu=True),
    }


def kernel_calls(X, y, first: int = 1, epochs: int = 5) -> dict[str, Case]:
    """Per epoch, fixed costs removed the same way on both sides: (fit with first + epochs) − (fit
    with first), divided by ``epochs`` (the same sweeps on both sides: the iterates are equal)."""

    def fixed_costs_removed(fit):
        return difference(
            timed(fit(X, y, first + epochs), cpu=True), timed(fit(X, y, first), cpu=True), epochs
        )

    return {"ours": fixed_costs_removed(ours_fit), "scikit-learn": fixed_costs_removed(sklearn_fit)}


def same_weights_as_sklearn(X, y, epochs: int = 5) -> bool:
    run = ours_fit(X, y, epochs)()
    model = sklearn_fit(X, y, epochs)()
    return bool(np.array_equal(run.w, model.coef_[0]))


def products(X, times: int = 5, threads: int | None = 1) -> Case:
    """Seconds per product X @ v (GEMV, or SpMV for CSR) over ``times`` products in a row; BLAS on
    ``threads`` threads (None: its default). One thread: CPU time; more: wall time."""
    v = np.random.default_rng(1).standard_normal(X.shape[1]).astype(X.dtype)
    now = clock(cpu=threads == 1)

    def case() -> float:
        with threadpool_limits(threads):
            start = now()
            for _ in range(times):
                X @ v
            return (now() - start) / times

    return case
