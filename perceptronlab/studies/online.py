"""Mistakes against the bound: every learner of the online-learning chapter on every class.

For each class (thresholds, intervals, 2-D halfspaces on random points, monotone disjunctions) and
each learner (Consistent, Halving, SOA, Weighted Majority, and Winnow on the disjunctions), the
mistakes of three kinds of game against the learner's bound:

- ``adversary``: :class:`~perceptronlab.online.LdimAdversary` (the worst case the chapter proves);
- ``random``: random points labelled by a random hypothesis of the class (realisable);
- ``noisy``: the same with 10 % of the labels flipped (only Weighted Majority has a bound there,
  with the best expert's mistakes m*).

Every row says whether the mistakes stayed within the bound; the figure is
:func:`perceptronlab.plots.online.mistakes_against_bound`.

Examples
--------
>>> rows = run_online_experiment(seed=0, trials=1)
>>> all(row["within"] for row in rows)
True
>>> [row["mistakes"] for row in rows if row["class"] == "thresholds (31)" and row["game"] == "adversary"]
[5, 5, 5, 5]
>>> findings(rows)[1]["all_within_bound"]
True
"""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path
from typing import Any

import numpy as np

from perceptronlab import bounds
from perceptronlab._ground import validation as v
from perceptronlab.online import (
    SOA,
    Consistent,
    FiniteClass,
    Halving,
    LdimAdversary,
    SequenceAdversary,
    WeightedMajority,
    Winnow,
    littlestone_dimension,
    play,
)
from perceptronlab.studies._result import ExperimentResult, Progress, finish

__all__ = ["DEFAULT_TRIALS", "ROUNDS", "NOISE_RATE", "findings", "run_online_experiment"]

DEFAULT_TRIALS = 5
ROUNDS = 60
NOISE_RATE = 0.1
BETA = Fraction(1, 2)
LEARNERS = ("Consistent", "Halving", "SOA", "Weighted Majority (β = 1/2)")


def _classes(rng: np.random.Generator) -> dict[str, FiniteClass]:
    return {
        "thresholds (31)": FiniteClass.thresholds(31),
        "intervals (16)": FiniteClass.intervals(16),
        "halfspaces (16)": FiniteClass.halfspaces(rng.standard_normal((16, 2))),
        "disjunctions (6, r ≤ 2)": FiniteClass.disjunctions(6, 2),
    }


def _sequence(
    H: FiniteClass, rng: np.random.Generator, noise: float
) -> tuple[list[tuple[int, int]], int]:
    target = int(rng.integers(len(H)))
    points = rng.integers(H.n_points, size=ROUNDS)
    labels = H.matrix[target, points].astype(int)
    flips = rng.random(ROUNDS) < noise
    labels = np.where(flips, 1 - labels, labels)
    return list(zip(points.tolist(), labels.tolist(), strict=True)), target


def _relevant(H: FiniteClass, target: int) -> int:
    """The number of variables of the target disjunction: the unit vectors it labels 1."""
    n = len(H.points[0])
    units = [H.points.index(tuple(int(i == j) for i in range(n))) for j in range(n)]
    return sum(int(H.matrix[target, column]) for column in units)


def run_online_experiment(
    *, seed: int | None = None, trials: int | None = None
) -> list[dict[str, Any]]:
    """The table: one row per class, learner, game and trial, with the mistakes and the bound."""
    seed = v.check_seed(seed) or 0
    trials = (
        DEFAULT_TRIALS
        if trials is None
        else v.check_positive_int("trials", trials, "Pass e.g. trials=5.")
    )
    rng = np.random.default_rng(seed)
    rows: list[dict[str, Any]] = []
    for name, H in _classes(rng).items():
        ldim = littlestone_dimension(H).value
        for learner_name in LEARNERS:
            game = play(_learner(learner_name, H), LdimAdversary(H))
            rows.append(
                _row(
                    name,
                    learner_name,
                    "adversary",
                    0,
                    game.mistakes,
                    _bound(learner_name, H, ldim, game.best_mistakes),
                )
            )
            for trial in range(trials):
                for game_name, noise in (("random", 0.0), ("noisy", NOISE_RATE)):
                    if noise and not learner_name.startswith("Weighted"):
                        continue
                    pairs, _ = _sequence(H, rng, noise)
                    game = play(_learner(learner_name, H), SequenceAdversary(H, pairs))
                    rows.append(
                        _row(
                            name,
                            learner_name,
                            game_name,
                            trial,
                            game.mistakes,
                            _bound(learner_name, H, ldim, game.best_mistakes),
                        )
                    )
        if name.startswith("disjunctions"):
            n = len(H.points[0])
            for trial in range(trials):
                pairs, target = _sequence(H, rng, 0.0)
                game = play(Winnow(n), SequenceAdversary(H, pairs))
                rows.append(
                    _row(
                        name,
                        "Winnow",
                        "random",
                        trial,
                        game.mistakes,
                        bounds.winnow(n, _relevant(H, target)),
                    )
                )
    return rows


def _learner(name: str, H: FiniteClass) -> Consistent | Halving | SOA | WeightedMajority:
    if name == "SOA":
        return SOA(H)
    if name == "Halving":
        return Halving(H)
    if name == "Consistent":
        return Consistent(H)
    return WeightedMajority(H, beta=BETA)


def _bound(name: str, H: FiniteClass, ldim: int, best_mistakes: int) -> float:
    if name == "SOA":
        return ldim
    if name == "Halving":
        return bounds.halving(len(H))
    if name == "Consistent":
        return bounds.consistent(len(H))
    return bounds.weighted_majority(len(H), best_mistakes, BETA)


def _row(
    name: str, learner: str, game: str, trial: int, mistakes: int, bound: float
) -> dict[str, Any]:
    return {
        "class": name,
        "learner": learner,
        "game": game,
        "trial": trial,
        "mistakes": int(mistakes),
        "bound": float(bound),
        "within": bool(mistakes <= bound),
    }


def findings(rows: list[dict[str, Any]]) -> tuple[list[str], dict[str, Any]]:
    """The summary's lines and numbers: is every run within its bound, and how close the adversary comes."""
    within = all(row["within"] for row in rows)
    soa_tight = all(
        row["mistakes"] == row["bound"]
        for row in rows
        if row["learner"] == "SOA" and row["game"] == "adversary"
    )
    lines = [
        f"every learner within its bound in every game: {'yes' if within else 'NO'}",
        f"SOA against the Littlestone adversary makes exactly Ldim mistakes on every class: "
        f"{'yes' if soa_tight else 'NO'}",
    ]
    return lines, {"all_within_bound": within, "soa_meets_ldim": soa_tight, "runs": len(rows)}


# ---------------------------------------------------------------- as an experiment


def online_experiment(
    out_dir: Path | str | None = None,
    *,
    seed: int | None = None,
    trials: int | None = None,
    progress: Progress | None = None,
) -> ExperimentResult:
    """The ``online`` entry of :data:`perceptronlab.studies.experiments.EXPERIMENTS`: the table of
    :func:`run_online_experiment`, its findings and the figure "mistakes against the bound"; with
    ``out_dir`` it writes ``online.csv``, ``online.json`` and ``online.png`` (or ``.svg``)."""
    from perceptronlab.plots.online import mistakes_against_bound

    rows = run_online_experiment(seed=seed, trials=trials)
    lines, stats = findings(rows)
    n_trials = DEFAULT_TRIALS if trials is None else trials
    head = (
        f"online: Consistent, Halving, SOA, Weighted Majority and Winnow against their bounds, on finite classes "
        f"(the Littlestone adversary, and {n_trials} random and noisy sequences of {ROUNDS} rounds each)."
    )
    summary = "\n".join([head, *("  " + line for line in lines)])
    result = ExperimentResult(
        "online",
        rows,
        summary,
        stats,
        {"online": mistakes_against_bound(rows)},
        dict(seed=seed or 0, trials=n_trials, rounds=ROUNDS, noise_rate=NOISE_RATE),
    )
    return finish(result, out_dir, progress)
