"""Exam tasks with worked answer keys, in the style of the three exam-style tasks of the lecture
notes “Perceptron Mistake Bound”.

:func:`generate` makes a new task of one ``kind`` from a ``seed`` (the same seed always gives the
same task):

- ``"trace"``: the perceptron by hand (4 points): three or four small integer points in the plane, no
  offset; (a) the worksheet, (b) R, the margin of a given w* and the mistake bound R²/ρ²,
  (c) the run with a learning rate η ≠ 1. Drawn by seeded rejection sampling until the data is
  separable, the cyclic run converges in 2 to 5 sweeps (the clean sweep included) and at least
  one step after the first is a tie y⟨w,x⟩ = 0 (which counts as a mistake).
- ``"margin"``: margin and mistake bound (4 points): four points, two candidate normal vectors that both
  separate; (a) both margins, (b) R and the best bound, (c) a fifth point that keeps the better w
  separating but shrinks its margin and grows R.
- ``"generalization"``: the leave-one-out bound R*²/ρ*²/(n+1) (4 points): (a) the bound for given n,
  (b) the n that guarantees a test error ε, (c) the same in a higher dimension, and with the
  margin shrunk or the radius grown.

Each task renders as Markdown, LaTeX or Typst (``render(fmt)``), as a printable PDF through Typst
(:meth:`ExamTask.pdf`, the ``pdf`` extra), and hands out its dataset (:meth:`ExamTask.dataset_csv`)
and, for ``"trace"``, a blank worksheet that carries its data (:meth:`ExamTask.worksheet_csv`, the
format of :mod:`perceptronlab.teach.sheets`), so that ``perceptronlab check sheet.csv`` needs
nothing else.

Every number of a solution is computed, never typed: the worksheet by the exact engine
(``perceptron(..., exact=True, trace=True)`` and ``Run.table``), scores y⟨w,xᵢ⟩ by the engine's
exact ``margins``, R², ρ² and the bounds by the theory toolkit (``radius_squared``,
``margin_squared``, ``novikoff``, ``test_error``, ``sample_size``), exact on exact input. Margins are shown as
ρ² (an exact fraction) and ρ (a decimal), as in the seed.

Examples
--------
>>> task = generate("trace", seed=0)
>>> task.answers["converged"], 2 <= task.answers["sweeps"] <= 5, len(task.answers["ties"]) >= 1
(True, True, True)
>>> print(generate("generalization", seed=1).markdown().splitlines()[0])
### Exam-style task: generalization bound (4 points)
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Literal, get_args

from perceptronlab._ground import validation as v
from perceptronlab.teach.kinds.distance import distance_task
from perceptronlab.teach.kinds.eta import eta_task
from perceptronlab.teach.kinds.generalization import generalization_task
from perceptronlab.teach.kinds.margin import margin_task
from perceptronlab.teach.kinds.margin_perceptron import margin_perceptron_task
from perceptronlab.teach.kinds.online import online_task
from perceptronlab.teach.kinds.pocket import pocket_task
from perceptronlab.teach.kinds.trace import trace_task
from perceptronlab.teach.task import ExamTask, required_seed

__all__ = ["Kind", "KINDS", "GENERATORS", "generate"]

#: the kinds of exam task
Kind = Literal[
    "trace", "margin", "generalization", "distance", "margin-perceptron", "eta", "pocket", "online"
]
KINDS: tuple[Kind, ...] = get_args(Kind)

#: kind -> its generator (a seeded ``random.Random`` and the seed -> the task)
GENERATORS: dict[str, Callable[[random.Random, int], ExamTask]] = {
    "trace": trace_task,
    "margin": margin_task,
    "generalization": generalization_task,
    "distance": distance_task,
    "margin-perceptron": margin_perceptron_task,
    "eta": eta_task,
    "pocket": pocket_task,
    "online": online_task,
}


def generate(kind: Kind, seed: int) -> ExamTask:
    """A new exam task of ``kind`` ("trace", "margin" or "generalization"), the same for the same seed.

    Parameters
    ----------
    kind : "trace" (the perceptron by hand), "margin" (margin and mistake bound) or
        "generalization" (the leave-one-out test-error bound), after the three tasks of the lecture
        notes “Perceptron Mistake Bound” tasks.
    seed : an integer ≥ 0.

    Returns
    -------
    ExamTask
        ``.markdown()``, ``.latex()``, ``.solution_markdown()``, ``.solution_latex()``, the exact
        ``.data`` and ``.answers``.

    Examples
    --------
    >>> task = generate("margin", seed=3)
    >>> task.answers["rho2"][task.answers["better"]] > task.answers["rho2"][task.answers["worse"]]
    True
    """
    v.check_choice("kind", kind, KINDS)
    checked = required_seed(seed)
    return GENERATORS[kind](task_rng(kind, checked), checked)


def task_rng(kind: str, seed: int) -> random.Random:
    """The seeded generator every draw of a ``kind`` task at ``seed`` comes from."""
    return random.Random(f"perceptronlab-exam-{kind}-{seed}")
