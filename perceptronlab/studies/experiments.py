"""The experiments of the lectures, run through the engine and the theory toolkit, with tables, text and plots.

:data:`EXPERIMENTS` maps a name to a function
``(out_dir=None, *, seed=None, trials=None, progress=None) -> ExperimentResult``:

- ``bound-vs-actual``: the study of the notebook “The Perceptron Convergence Theorem”: Gaussian
pairs with separations 1.5 … 6 and a bias
  column, actual mistakes against Novikoff's R²/ρ*² with the *exact* max margin ρ* (the notebook
  approximates ρ by the mean-difference direction; its value is kept in the table for comparison).
- ``lfd``: the Learning From Data PLA experiment: N points uniform in [−1, 1]², a random target
  line, random-mistake PLA with intercept from w = 0; iterations and P[f ≠ g] on fresh points.
- ``worst-case``: the basis vectors e₁ … e_n, all +1: mistakes = n = R²/ρ*² (the notebook “The
Perceptron Convergence Theorem”, §6.7).
- ``non-separable``: overlapping clouds: errors oscillate sweep after sweep, Pocket keeps the
  fewest (the notebook “The Perceptron Convergence Theorem”, §6.9; Gallant 1990).

``seed=None`` uses each experiment's own default (the lectures' choices, so the notebook's numbers
come back); ``trials`` is the number of random repetitions where an experiment has them.
``progress(stage, done, total)`` is called as the work advances (the CLI draws Rich bars with it).
With ``out_dir`` the table (CSV), the table, summary and statistics (JSON) and the figures (PNG)
are written there.

Examples
--------
>>> from perceptronlab.studies.experiments import run_experiment
>>> result = run_experiment("worst-case")
>>> [(row["n"], row["mistakes"], row["bound"]) for row in result.table][:3]
[(2, 2, 2.0), (3, 3, 3.0), (5, 5, 5.0)]
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from perceptronlab._ground.validation import fail
from perceptronlab.studies._result import IMAGE_FORMATS, ExperimentResult, Progress
from perceptronlab.studies.bound_vs_actual import bound_vs_actual
from perceptronlab.studies.learners import learners_experiment
from perceptronlab.studies.lfd import lfd
from perceptronlab.studies.non_separable import non_separable
from perceptronlab.studies.worst_case import worst_case

__all__ = ["EXPERIMENTS", "ExperimentResult", "run_experiment"]


def _online(*args: Any, **kwargs: Any) -> ExperimentResult:
    """:func:`perceptronlab.studies.online.online_experiment`, imported when it runs (the
    online-learning chapter's classes and bounds stay out of the command line's start-up); the
    arguments pass through."""
    from perceptronlab.studies.online import online_experiment

    return online_experiment(*args, **kwargs)


#: name -> experiment function ``(out_dir=None, *, seed=None, trials=None, progress=None)``
EXPERIMENTS: dict[str, Callable[..., ExperimentResult]] = {
    "bound-vs-actual": bound_vs_actual,
    "lfd": lfd,
    "worst-case": worst_case,
    "non-separable": non_separable,
    "learners": learners_experiment,
    "online": _online,
}


def run_experiment(
    name: str,
    out_dir: Path | str | None = None,
    *,
    seed: int | None = None,
    trials: int | None = None,
    progress: Progress | None = None,
    image_format: str = "png",
) -> ExperimentResult:
    """Run the experiment ``name`` of :data:`EXPERIMENTS` (and write its files into ``out_dir``).

    ``image_format`` is "png" (default) or "svg" for the figures written into ``out_dir``.

    Examples
    --------
    >>> import tempfile
    >>> from perceptronlab.studies.experiments import run_experiment
    >>> result = run_experiment("non-separable", tempfile.mkdtemp())
    >>> result.stats["separable"], result.stats["pocket_update_check_errors"]
    (False, 20)
    >>> sorted(path.name for path in result.files)[:2]
    ['non-separable-pocket.png', 'non-separable-regions.png']
    """
    from perceptronlab._ground.validation import check_choice

    if name not in EXPERIMENTS:
        raise fail(
            "experiment",
            "one of " + ", ".join(sorted(EXPERIMENTS)),
            repr(name),
            "Run `perceptronlab experiment --help` for the list.",
        )
    check_choice("image_format", image_format, IMAGE_FORMATS)
    if out_dir is None or image_format == "png":
        return EXPERIMENTS[name](out_dir, seed=seed, trials=trials, progress=progress)
    # run without writing, then write in the asked format (entries only know the registry's signature)
    result = EXPERIMENTS[name](None, seed=seed, trials=trials, progress=progress)
    result.write(out_dir, progress, image_format)
    return result
