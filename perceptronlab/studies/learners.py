"""The learners experiment: last, averaged, voted, kernel and multiclass perceptrons side by side.

The ``learners`` entry of :data:`perceptronlab.studies.experiments.EXPERIMENTS` runs it.

Freund & Schapire (1999, §6) report on handwritten digits that the voted and averaged perceptrons
beat the last hypothesis, and that polynomial kernels beat the linear perceptron. This experiment
repeats the comparison on data that ship with scikit-learn, next to scikit-learn's Perceptron and
LinearSVC:

- ``digits``: the 8×8 digits (1,797 images, 10 classes; pixels scaled to [0, 1]).
- ``breast cancer``: Wisconsin diagnostic (569 examples, 2 classes; standardised on the training
  part).
- ``digits (noisy)`` and ``breast cancer (noisy)``: the same with 15 % of the *training* labels
  replaced by a different class drawn at random (test labels are clean).

Each trial draws a stratified 75/25 train/test split (seeded); every perceptron runs
``SWEEPS`` = 10 sweeps in shuffled order (fewer if it converges; the binary learners go
one-vs-rest on digits). Every learner is fitted once on a tiny problem first, so compilation is
not timed. The kernel learners train on all of the training part (1,347 digits; no
subsampling is needed at this size: the Gram matrix is cached). ``test_error`` and
``train_time`` (seconds, fit only) are means over the trials.
"""

from __future__ import annotations

import functools
import time
import warnings
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from perceptronlab._ground import validation as v
from perceptronlab.studies._result import ExperimentResult, Progress, finish

if TYPE_CHECKING:
    from matplotlib.figure import Figure

    from perceptronlab.family.kernel import Kernel

#: sweeps every perceptron gets (Freund & Schapire report 1 to 30 epochs)
SWEEPS = 10
#: the rate at which the noisy variants' training labels are flipped
NOISE_RATE = 0.15
#: trials (train/test splits) when ``trials`` is None
DEFAULT_TRIALS = 3
KERNELS: tuple[tuple[Kernel, int | None], ...] = (
    ("poly", 2),
    ("poly", 3),
    ("poly", 4),
    ("rbf", None),
)


def _datasets():
    from sklearn.datasets import load_breast_cancer, load_digits

    digits = load_digits()
    cancer = load_breast_cancer()
    return [
        ("digits", digits.data / 16.0, digits.target, False),
        ("breast cancer", cancer.data, cancer.target, True),
    ]


def _learners(seed: int) -> list[tuple[str, Callable[[], Any]]]:
    # on use: listing the experiments (the CLI's help) does not load scikit-learn or the kernels
    from sklearn.linear_model import Perceptron as SkPerceptron
    from sklearn.svm import LinearSVC

    from perceptronlab.estimators import (
        AveragedPerceptron,
        KernelPerceptron,
        MulticlassPerceptron,
        Perceptron,
        VotedPerceptron,
    )

    common: dict[str, Any] = dict(order="shuffle", random_state=seed, max_iter=SWEEPS)
    learners: list[tuple[str, Callable[[], Any]]] = [
        ("last (perceptron)", lambda: Perceptron(tol=None, **common)),  # the lectures' stop
        ("averaged", lambda: AveragedPerceptron(**common)),
        ("voted", lambda: VotedPerceptron(**common)),
    ]
    for kernel, degree in KERNELS:
        name = f"poly {degree}" if kernel == "poly" else "rbf"
        for variant in ("last", "averaged", "voted"):
            learners.append(
                (
                    f"kernel {name} ({variant})",
                    functools.partial(
                        KernelPerceptron,
                        kernel=kernel,
                        degree=degree or 3,
                        variant=variant,
                        **common,
                    ),
                )
            )
    learners += [
        ("multiclass (last)", lambda: MulticlassPerceptron(**common)),
        ("multiclass (averaged)", lambda: MulticlassPerceptron(averaged=True, **common)),
        ("sklearn Perceptron", lambda: SkPerceptron(random_state=seed)),
        ("sklearn LinearSVC", lambda: LinearSVC(random_state=seed)),
    ]
    return learners


def _flip(y: np.ndarray, rate: float, rng: np.random.Generator) -> np.ndarray:
    """Replace a ``rate`` share of the labels by a different class, drawn uniformly."""
    classes = np.unique(y)
    noisy = y.copy()
    chosen = rng.choice(y.shape[0], size=int(round(rate * y.shape[0])), replace=False)
    for i in chosen:
        noisy[i] = rng.choice(classes[classes != y[i]])
    return noisy


def _warm_up(seed: int) -> None:
    """Fit every learner once on a tiny problem so compilation is not timed."""
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(30, 4))
    for y in (np.arange(30) % 2, np.arange(30) % 3):
        for _, make in _learners(seed):
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                make().fit(X, y)


def run_learners_experiment(
    *,
    seed: int | None = 0,
    trials: int | None = None,
    progress: Callable[[str, int, int], None] | None = None,
) -> list[dict]:
    """Test error and training time of the family and scikit-learn's linear learners.

    Parameters
    ----------
    seed : int >= 0 (None: 0)
        Seeds the splits, the label noise and the learners' shuffles.
    trials : int >= 1 or None
        Train/test splits to average over (None: 3; a trial takes about 7 s of CPU).
    progress : callable, optional
        ``progress(stage, done, total)`` as the fits advance (the experiments registry's form).

    Returns
    -------
    list of dict
        One row per (dataset, learner): ``dataset``, ``learner``, ``test_error`` (mean over the
        trials), ``train_time`` (mean seconds to fit).
    """
    from sklearn.model_selection import train_test_split
    from sklearn.preprocessing import StandardScaler

    seed = v.check_seed(seed) or 0
    trials = (
        DEFAULT_TRIALS
        if trials is None
        else v.check_positive_int("trials", trials, "Pass e.g. trials=3, or None for one split.")
    )
    _warm_up(seed)
    n_learners = len(_learners(seed))
    total = trials * 2 * len(_datasets()) * n_learners
    done = 0
    errors: dict[tuple[str, str], list[float]] = {}
    times: dict[tuple[str, str], list[float]] = {}
    for trial in range(trials):
        trial_seed = seed + trial
        rng = np.random.default_rng(trial_seed)
        for name, X, y, standardise in _datasets():
            X_tr, X_te, y_tr, y_te = train_test_split(
                X, y, test_size=0.25, stratify=y, random_state=trial_seed
            )
            if standardise:
                scaler = StandardScaler().fit(X_tr)
                X_tr, X_te = scaler.transform(X_tr), scaler.transform(X_te)
            for dataset, labels in (
                (name, y_tr),
                (f"{name} (noisy)", _flip(y_tr, NOISE_RATE, rng)),
            ):
                for learner, make in _learners(trial_seed):
                    if progress is not None:
                        progress(f"trial {trial + 1}/{trials}: {dataset}", done, total)
                    done += 1
                    model = make()
                    start = time.perf_counter()
                    with warnings.catch_warnings():
                        warnings.simplefilter("ignore")
                        model.fit(X_tr, labels)
                    elapsed = time.perf_counter() - start
                    error = float(np.mean(model.predict(X_te) != y_te))
                    errors.setdefault((dataset, learner), []).append(error)
                    times.setdefault((dataset, learner), []).append(elapsed)
    if progress is not None:
        progress("done", total, total)
    rows = [
        dict(
            dataset=dataset,
            learner=learner,
            test_error=float(np.mean(errs)),
            train_time=float(np.mean(times[dataset, learner])),
        )
        for (dataset, learner), errs in errors.items()
    ]
    return rows


def markdown_table(rows: list[dict]) -> str:
    """Learners down, datasets across: test error in percent (train time of the digits fit)."""
    datasets = list(dict.fromkeys(r["dataset"] for r in rows))
    learners = list(dict.fromkeys(r["learner"] for r in rows))
    cell = {(r["dataset"], r["learner"]): r for r in rows}
    lines = [
        "| learner | " + " | ".join(datasets) + " | train time (s), digits |",
        "| --- | " + " | ".join("---:" for _ in datasets) + " | ---: |",
    ]
    for learner in learners:
        errs = [
            f"{100 * cell[d, learner]['test_error']:.1f} %" if (d, learner) in cell else ""
            for d in datasets
        ]
        first = cell.get((datasets[0], learner))
        spent = f"{first['train_time']:.2f}" if first else ""
        lines.append(f"| {learner} | " + " | ".join(errs) + f" | {spent} |")
    return "\n".join(lines) + "\n"


def findings(rows: list[dict]) -> tuple[list[str], dict]:
    """Does the Freund–Schapire pattern show? Lines of text and their numbers."""
    cell = {(r["dataset"], r["learner"]): r["test_error"] for r in rows}
    datasets = list(dict.fromkeys(r["dataset"] for r in rows))
    lines: list[str] = []
    stats: dict[str, Any] = {}
    for family, last, better in (
        ("linear", "last (perceptron)", ("averaged", "voted")),
        ("multiclass", "multiclass (last)", ("multiclass (averaged)",)),
        *(
            (f"kernel {k}", f"kernel {k} (last)", (f"kernel {k} (averaged)", f"kernel {k} (voted)"))
            for k in ("poly 2", "poly 3", "poly 4", "rbf")
        ),
    ):
        wins = [d for d in datasets if all(cell[d, b] <= cell[d, last] for b in better)]
        stats[f"{family}: averaged/voted <= last"] = f"{len(wins)}/{len(datasets)}"
        lines.append(
            f"{family}: {' and '.join(b.split('(')[-1].rstrip(')') for b in better)} at "
            f"least as good as the last hypothesis on {len(wins)} of {len(datasets)} "
            "datasets"
        )
    linear = [ln for ln in dict.fromkeys(r["learner"] for r in rows) if not ln.startswith("kernel")]
    kernels = [ln for ln in dict.fromkeys(r["learner"] for r in rows) if ln.startswith("kernel")]
    for dataset in datasets:
        best_linear = min(linear, key=lambda ln: cell[dataset, ln])
        best_kernel = min(kernels, key=lambda ln: cell[dataset, ln])
        stats[f"{dataset}: best linear"] = [best_linear, cell[dataset, best_linear]]
        stats[f"{dataset}: best kernel"] = [best_kernel, cell[dataset, best_kernel]]
        lines.append(
            f"{dataset}: best kernel learner {best_kernel} "
            f"{100 * cell[dataset, best_kernel]:.1f} %, best linear learner "
            f"{best_linear} {100 * cell[dataset, best_linear]:.1f} %"
        )
    return lines, stats


# ---------------------------------------------------------------- as an experiment


def learners_experiment(
    out_dir: Path | str | None = None,
    *,
    seed: int | None = None,
    trials: int | None = None,
    progress: Progress | None = None,
) -> ExperimentResult:
    """The family against scikit-learn's linear learners on digits and breast cancer (clean and
    with noisy labels), after Freund & Schapire (1999, §6); see
    :func:`run_learners_experiment`.

    Returns the table, a summary with the findings, the stats and the figure (test error and
    training time of every learner on every dataset); with ``out_dir`` it writes ``learners.csv``,
    ``learners.json``, ``learners.md`` and the figure ``learners.png`` (or ``.svg``).
    """
    seed = 0 if seed is None else seed
    rows = run_learners_experiment(seed=seed, trials=trials, progress=progress)
    lines, stats = findings(rows)
    n_trials = DEFAULT_TRIALS if trials is None else trials
    head = (
        f"learners: test error on digits, breast cancer and their noisy variants "
        f"({int(100 * NOISE_RATE)} % of training labels flipped), mean of {n_trials} "
        f"split(s), {SWEEPS} sweeps each (Freund & Schapire 1999, §6)."
    )
    table = markdown_table(rows)
    summary = "\n".join([head, *("  " + line for line in lines), "", table])
    result = ExperimentResult(
        "learners",
        rows,
        summary,
        stats,
        {"learners": _learners_figure(rows, n_trials)},
        dict(seed=seed, trials=n_trials, sweeps=SWEEPS, noise_rate=NOISE_RATE),
        texts={"learners.md": table},
    )
    return finish(result, out_dir, progress)


def _learners_figure(rows: list[dict[str, Any]], trials: int) -> Figure:
    """Test error (left) and training time (right, log scale) of every learner, one bar per dataset."""
    from perceptronlab.plots import new_figure

    datasets = list(dict.fromkeys(r["dataset"] for r in rows))
    names = list(dict.fromkeys(r["learner"] for r in rows))
    cell = {(r["dataset"], r["learner"]): r for r in rows}
    fig = new_figure(13, 0.32 * len(names) * max(1, len(datasets) / 2) + 2.0)
    left, right = fig.subplots(1, 2, sharey=True)
    height = 0.8 / max(1, len(datasets))
    positions = np.arange(len(names), dtype=float)
    colors = ("#1b6ac9", "#9ecae1", "#d95f02", "#fdae6b", "#7b3294", "#c2a5cf")
    for k, dataset in enumerate(datasets):
        where = positions - 0.4 + height * (k + 0.5)
        errors = [
            100 * cell[dataset, n]["test_error"] if (dataset, n) in cell else np.nan for n in names
        ]
        times = [cell[dataset, n]["train_time"] if (dataset, n) in cell else np.nan for n in names]
        color = colors[k % len(colors)]
        left.barh(where, errors, height=height, color=color, label=dataset)
        right.barh(where, np.maximum(times, 1e-5), height=height, color=color, label=dataset)
    left.set_yticks(positions, names)
    left.invert_yaxis()
    left.set_xlabel("test error (%)")
    left.set_title(f"Test error, mean of {trials} split(s)")
    left.grid(True, axis="x", alpha=0.3)
    left.legend(loc="lower right", fontsize="small")
    right.set_xscale("log")
    right.set_xlabel("training time (s, log scale)")
    right.set_title("Time to fit")
    right.grid(True, axis="x", alpha=0.3)
    fig.suptitle(
        "The perceptron family and scikit-learn's linear learners (Freund & Schapire 1999, §6)"
    )
    return fig
