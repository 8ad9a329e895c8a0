"""Pocket that scales (issue 16.3): the estimator's default against ``Perceptron()``'s on digits, and each
check's quality (training errors kept) next to its time on two noisy datasets.

Every time is the median of interleaved rounds (each round fits every side once, afresh), with the
smallest and largest round. The quality rows run every check with the same budget of perceptron
updates, so what differs is which of the iterates each check looks at, and what looking costs.
"""

from __future__ import annotations

import warnings

import numpy as np

from benchmarks._timing import Stat, at_most, interleave, median_ms, result_row, rounds, timed

#: the target of issue 16.3: PocketPerceptron() within this many times Perceptron()'s fit
DEFAULT_RATIO_TARGET = 5.0
#: the checks compared, each in its natural order: the lectures' Learning From Data form, the sweep
#: check on shuffled sweeps, and Gallant's ratchet (the estimator's default)
CHECKS = {"update": "random-mistake", "sweep": "shuffle", "ratchet": "random-mistake"}
LABEL_NOISE = 0.15
#: updates a class, the same for every check (and at most the estimator's 100 sweeps)
UPDATE_BUDGET = 10_000


def digits(scale: float = 1.0):
    """scikit-learn's digits, standardized (8×8 images, 10 classes)."""
    from sklearn.datasets import load_digits
    from sklearn.preprocessing import StandardScaler

    X, y = load_digits(return_X_y=True)
    n = max(300, min(X.shape[0], int(X.shape[0] * scale * 20)))
    return StandardScaler().fit_transform(X[:n]), y[:n]


def flip_labels(y: np.ndarray, rate: float, seed: int = 0) -> np.ndarray:
    """A ``rate`` share of the labels replaced by another class, drawn uniformly (the learners
    experiment's label noise)."""
    from perceptronlab.studies.learners import _flip

    return _flip(y, rate, np.random.default_rng(seed))


def noisy_gaussian_pair(
    n: int, d: int = 20, separation: float = 2.0, flip: float = 0.05, seed: int = 0
):
    """Two overlapping Gaussian clouds in d dimensions (centres ``separation`` apart), labels ±1, a
    share ``flip`` of them flipped."""
    rng = np.random.default_rng(seed)
    y = np.where(np.arange(n) % 2, 1, -1)
    X = rng.standard_normal((n, d)) + y[:, None] * (separation / 2 / np.sqrt(d))
    flipped = rng.random(n) < flip
    return X, np.where(flipped, -y, y)


def training_errors(model, X, y) -> int:
    """Training errors of a fitted one-vs-rest model's kept weights, counted here with NumPy."""
    scores = X @ model.coef_.T + model.intercept_
    if model.classes_.shape[0] == 2:
        signs = np.where(y == model.classes_[1], 1.0, -1.0)
        return int(np.count_nonzero(signs * scores[:, 0] <= 0))
    return int(
        sum(
            np.count_nonzero(np.where(y == c, 1.0, -1.0) * scores[:, k] <= 0)
            for k, c in enumerate(model.classes_)
        )
    )


def bench_pocket_default_on_digits(scale: float = 1.0):
    """``PocketPerceptron()`` against ``Perceptron()`` with their defaults, standardized digits (one-vs-rest)."""
    from perceptronlab import Perceptron, PocketPerceptron

    X, y = digits(scale)
    fitted = {}

    def fit(name, make):
        def run():
            with warnings.catch_warnings():
                warnings.simplefilter(
                    "ignore"
                )  # Perceptron() does not converge on 3 of the 10 classes
                fitted[name] = make().fit(X, y)

        return timed(run)

    seconds = interleave(
        {"pocket": fit("pocket", PocketPerceptron), "perceptron": fit("perceptron", Perceptron)}
    )
    pocket, plain = fitted["pocket"], fitted["perceptron"]
    errors = np.asarray(pocket.pocket_errors_)
    return result_row(
        "PocketPerceptron() / Perceptron(), digits standardized, one-vs-rest, defaults (fit time)",
        Stat.ratio(seconds["pocket"], seconds["perceptron"]),
        at_most(DEFAULT_RATIO_TARGET),
        f'{X.shape[0]:,}×{X.shape[1]}, 10 classes; PocketPerceptron() (check="ratchet", order="random-mistake", '
        f"max_iter=100) {median_ms(seconds['pocket'])}, {int(errors.sum())} training errors kept over the 10 "
        f"one-vs-rest tasks (the last round's fit: random_state=None varies it), training accuracy "
        f"{pocket.score(X, y):.4f}; Perceptron() (max_iter=1000) "
        f"{median_ms(seconds['perceptron'])}, training accuracy {plain.score(X, y):.4f}; wall time",
        {"the kept errors recount": int(errors.sum()) == training_errors(pocket, X, y)},
    )


def _quality_rows(name: str, X, y, budget: int) -> list[dict]:
    from perceptronlab import PocketPerceptron

    fitted = {}

    def fit(check):
        def run():
            fitted[check] = PocketPerceptron(
                check=check, order=CHECKS[check], max_updates=budget, random_state=0, n_jobs=1
            ).fit(X, y)

        return timed(run, cpu=True)

    seconds = interleave({check: fit(check) for check in CHECKS}, n_rounds=rounds(5))
    n_tasks = 1 if np.unique(y).shape[0] == 2 else np.unique(y).shape[0]
    rows = []
    for check, order in CHECKS.items():
        model = fitted[check]
        kept = int(np.sum(model.pocket_errors_))
        updates = int(np.sum(model.n_mistakes_))
        sweeps = int(np.max(model.n_iter_))
        where = f"summed over the {n_tasks} one-vs-rest tasks" if n_tasks > 1 else "of the one task"
        overshoot = (
            " (the sweep check stops at the end of the sweep that reaches the budget)"
            if check == "sweep"
            else ""
        )
        rows.append(
            result_row(
                f'pocket quality and time, {name}: check="{check}" (seconds a fit)',
                Stat.of(seconds[check]),
                None,
                f"training errors kept, {where}: {kept:,} ({kept / (X.shape[0] * n_tasks):.2%} of {X.shape[0]:,} × "
                f'{n_tasks}); order="{order}", {updates:,} updates, at most {sweeps} sweep{"s" if sweeps != 1 else ""} '
                f"a task (budget: {budget:,} updates a task, or 100 sweeps){overshoot}; "
                f"{Stat.ratio(seconds[check], seconds['ratchet']).median:.3g}× the ratchet's time; one core, CPU time",
                {"the kept errors recount": kept == training_errors(model, X, y)},
            )
        )
    return rows


def bench_pocket_quality_digits(scale: float = 1.0):
    """digits (standardized) with 15 % of the labels flipped to another class, one-vs-rest."""
    X, y = digits(scale)
    return _quality_rows(
        f"digits, {LABEL_NOISE:.0%} of the labels flipped",
        X,
        flip_labels(y, LABEL_NOISE),
        max(200, int(UPDATE_BUDGET * min(1.0, scale * 20))),
    )


def bench_pocket_quality_gaussian(scale: float = 1.0):
    """Two overlapping Gaussian clouds in 20 dimensions, 5 % of the labels flipped."""
    n = max(500, int(20_000 * scale))
    X, y = noisy_gaussian_pair(n)
    return _quality_rows(
        f"noisy Gaussian pair, {n:,}×20, 5% of the labels flipped",
        X,
        y,
        max(200, int(UPDATE_BUDGET * scale)),
    )
