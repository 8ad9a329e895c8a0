"""Non-separable data: the perceptron's errors oscillate, Pocket keeps the fewest (Gallant 1990)."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from perceptronlab._ground.validation import check_seed
from perceptronlab.studies._result import (
    ExperimentResult,
    Progress,
    finish,
    quiet,
)

if TYPE_CHECKING:
    pass


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
    from perceptronlab.core.perceptron import perceptron, pocket
    from perceptronlab.datasets import nonseparable
    from perceptronlab.theory.separability import separable

    checked = check_seed(seed)
    data_seed = 42 if checked is None else checked
    progress = progress or quiet
    progress("runs", 0, 4)
    X, y = nonseparable(seed=data_seed)
    verdict = separable(X, y, fit_intercept=True)
    progress("runs", 1, 4)
    run = perceptron(X, y, fit_intercept=True, max_sweeps=sweeps, warn=False)
    progress("runs", 2, 4)
    by_sweep = pocket(X, y, fit_intercept=True, order="cyclic", check="sweep", max_sweeps=sweeps)
    progress("runs", 3, 4)
    by_update = pocket(X, y, fit_intercept=True, check="update", max_sweeps=sweeps, seed=data_seed)
    progress("runs", 4, 4)
    errors = run.errors_after_sweep
    sweep_history, update_history = by_sweep.pocket_history, by_update.pocket_history
    assert (
        sweep_history is not None and update_history is not None
    )  # pocket runs keep their history
    assert by_sweep.pocket_errors is not None and by_update.pocket_errors is not None
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
    tail = errors[-20:]
    stats = dict(
        separable=bool(verdict.separable),
        n=int(X.shape[0]),
        sweeps=run.sweeps,
        converged=run.converged,
        cycled=run.cycled,
        errors_min=int(errors.min()),
        errors_max=int(errors.max()),
        errors_last_20_min=int(tail.min()),
        errors_last_20_max=int(tail.max()),
        pocket_sweep_check_errors=int(by_sweep.pocket_errors),
        pocket_update_check_errors=int(by_update.pocket_errors),
    )
    state = (
        "cycled (a start-of-sweep w repeated)"
        if run.cycled
        else ("converged" if run.converged else "never converged")
    )
    lines = [
        f"non-separable: {X.shape[0]} points in two overlapping clouds (seed {data_seed}), labels 0/1, "
        "with intercept.",
        f"  separable (LP): {'yes' if verdict.separable else 'no'}",
        f"  cyclic perceptron, {run.sweeps} sweeps: {state}; errors after a sweep range over "
        f"{errors.min()}..{errors.max()} (last 20 sweeps: {tail.min()}..{tail.max()}), "
        f"{run.mistakes} updates in all",
        f"  the perceptron's final w misclassifies {int(errors[-1])} of {X.shape[0]}",
        f"  pocket, checked after each sweep (the notebook “The Perceptron Convergence Theorem”): "
        f"keeps w with {by_sweep.pocket_errors} errors",
        f"  pocket, checked after each update, random-mistake order (Lin's lecture 2): keeps w with "
        f"{by_update.pocket_errors} errors",
    ]
    from perceptronlab import plots

    figures = {
        "non-separable-sweeps": plots.sweeps(run),
        "non-separable-pocket": plots.sweeps(by_update),
        "non-separable-regions": plots.decision_regions(
            by_update,
            X,
            y,
            title=f"Pocket's line: {by_update.pocket_errors} of {X.shape[0]} misclassified",
        ),
    }
    result = ExperimentResult(
        "non-separable", rows, "\n".join(lines), stats, figures, dict(seed=data_seed, sweeps=sweeps)
    )
    return finish(result, out_dir, progress)
