"""Non-separable data: the perceptron's errors oscillate, Pocket keeps the fewest (Gallant 1990)."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any, NamedTuple

from perceptronlab._ground.validation import check_seed
from perceptronlab.studies._result import (
    ExperimentResult,
    Progress,
    finish,
    quiet,
)

if TYPE_CHECKING:
    from matplotlib.figure import Figure

    from perceptronlab.core.run import Run
    from perceptronlab.theory.separability import SeparabilityResult


def non_separable(
    out_dir: Path | str | None = None,
    *,
    seed: int | None = None,
    trials: int | None = None,
    progress: Progress | None = None,
    sweeps: int = 200,
) -> ExperimentResult:
    """The notebook “The Perceptron Convergence Theorem”, §6.9: on overlapping clouds the
    perceptron never settles; Pocket keeps the best.

    The data is :func:`perceptronlab.datasets.nonseparable` (the notebook's 80 points, seed 42 by
    default), labels 0/1, trained with an intercept. ``perceptronlab.separable`` confirms no line
    separates it. Then the cyclic perceptron for ``sweeps`` sweeps (errors per sweep oscillate),
    Pocket checked after every sweep (the notebook “The Perceptron Convergence Theorem”) and Pocket
    checked after every update in
    random-mistake order (Lin's lecture 2, Gallant 1990).

    ``trials``: not used (one dataset; pass ``seed`` for another).
    """
    from perceptronlab.datasets import nonseparable

    checked = check_seed(seed)
    data_seed = 42 if checked is None else checked
    progress = progress or quiet
    progress("runs", 0, 4)
    X, y = nonseparable(seed=data_seed)
    runs = _train(X, y, sweeps, data_seed, progress)
    result = ExperimentResult(
        "non-separable",
        _rows(runs),
        "\n".join(_summary(runs, X.shape[0], data_seed)),
        _stats(runs, X.shape[0]),
        _figures(runs, X, y),
        dict(seed=data_seed, sweeps=sweeps),
    )
    return finish(result, out_dir, progress)


class _Runs(NamedTuple):
    """The LP's verdict, the cyclic perceptron, and Pocket checked after each sweep and update."""

    verdict: SeparabilityResult
    run: Run
    by_sweep: Run
    by_update: Run


def _train(X: Any, y: Any, sweeps: int, data_seed: int, progress: Progress) -> _Runs:
    from perceptronlab.core.perceptron import perceptron, pocket
    from perceptronlab.theory.separability import separable

    verdict = separable(X, y, fit_intercept=True)
    progress("runs", 1, 4)
    run = perceptron(X, y, fit_intercept=True, max_sweeps=sweeps, warn=False)
    progress("runs", 2, 4)
    by_sweep = pocket(X, y, fit_intercept=True, order="cyclic", check="sweep", max_sweeps=sweeps)
    progress("runs", 3, 4)
    by_update = pocket(X, y, fit_intercept=True, check="update", max_sweeps=sweeps, seed=data_seed)
    progress("runs", 4, 4)
    return _Runs(verdict, run, by_sweep, by_update)


def _rows(runs: _Runs) -> list[dict[str, Any]]:
    """One row per sweep: its updates, the errors after it, and both pockets' errors by then."""
    run, errors = runs.run, runs.run.errors_after_sweep
    sweep_history, update_history = runs.by_sweep.pocket_history, runs.by_update.pocket_history
    assert (
        sweep_history is not None and update_history is not None
    )  # pocket runs keep their history
    rows: list[dict[str, Any]] = []
    for i in range(run.sweeps):
        rows.append(
            dict(
                sweep=i + 1,
                updates=int(run.updates_per_sweep[i]),
                errors_after=int(errors[i]),
                pocket_sweep_check=int(sweep_history[i]) if i < len(sweep_history) else None,
                pocket_update_check=int(update_history[i]) if i < len(update_history) else None,
            )
        )
    return rows


def _stats(runs: _Runs, n: int) -> dict[str, Any]:
    run, errors = runs.run, runs.run.errors_after_sweep
    by_sweep, by_update = runs.by_sweep.pocket_errors, runs.by_update.pocket_errors
    assert by_sweep is not None and by_update is not None  # pocket runs keep their best
    tail = errors[-20:]
    return dict(
        separable=bool(runs.verdict.separable),
        n=int(n),
        sweeps=run.sweeps,
        converged=run.converged,
        cycled=run.cycled,
        errors_min=int(errors.min()),
        errors_max=int(errors.max()),
        errors_last_20_min=int(tail.min()),
        errors_last_20_max=int(tail.max()),
        pocket_sweep_check_errors=int(by_sweep),
        pocket_update_check_errors=int(by_update),
    )


def _summary(runs: _Runs, n: int, data_seed: int) -> list[str]:
    run, errors = runs.run, runs.run.errors_after_sweep
    tail = errors[-20:]
    state = (
        "cycled (a start-of-sweep w repeated)"
        if run.cycled
        else ("converged" if run.converged else "never converged")
    )
    return [
        f"non-separable: {n} points in two overlapping clouds (seed {data_seed}), labels 0/1, "
        "with intercept.",
        f"  separable (LP): {'yes' if runs.verdict.separable else 'no'}",
        f"  cyclic perceptron, {run.sweeps} sweeps: {state}; errors after a sweep range over "
        f"{errors.min()}..{errors.max()} (last 20 sweeps: {tail.min()}..{tail.max()}), "
        f"{run.mistakes} updates in all",
        f"  the perceptron's final w misclassifies {int(errors[-1])} of {n}",
        f"  pocket, checked after each sweep (the notebook “The Perceptron Convergence Theorem”): "
        f"keeps w with {runs.by_sweep.pocket_errors} errors",
        f"  pocket, checked after each update, random-mistake order (Lin's lecture 2): keeps w with "
        f"{runs.by_update.pocket_errors} errors",
    ]


def _figures(runs: _Runs, X: Any, y: Any) -> dict[str, Figure]:
    from perceptronlab import plots

    return {
        "non-separable-sweeps": plots.sweeps(runs.run),
        "non-separable-pocket": plots.sweeps(runs.by_update),
        "non-separable-regions": plots.decision_regions(
            runs.by_update,
            X,
            y,
            title=f"Pocket's line: {runs.by_update.pocket_errors} of {X.shape[0]} misclassified",
        ),
    }
