"""The Learning From Data PLA experiment: random-mistake PLA from w = 0 on a random target line."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from perceptronlab._ground.validation import check_positive_int
from perceptronlab.studies._result import (
    ExperimentResult,
    Progress,
    begin,
    finish,
)

if TYPE_CHECKING:
    from matplotlib.figure import Figure

    from perceptronlab.core.run import Run


def lfd(
    out_dir: Path | str | None = None,
    *,
    seed: int | None = None,
    trials: int | None = None,
    progress: Progress | None = None,
    sizes: tuple[int, ...] = (10, 100),
    test_points: int = 10_000,
    max_sweeps: int = 100_000,
) -> ExperimentResult:
    """The Learning From Data PLA experiment (Abu-Mostafa et al. 2012, homework 1, Problems 7-10).

    For each N in ``sizes`` and each trial: :func:`perceptronlab.datasets.lfd` (N points uniform
    in [−1, 1]², a target line through two random points), random-mistake PLA with intercept from
    w = 0 until no point is misclassified; the iterations (= updates) and P[f ≠ g] estimated on
    ``test_points`` fresh uniform points. The course's answers: about 10 iterations and
    P ≈ 0.1 for N = 10, about 100 iterations and P ≈ 0.01 for N = 100.

    ``trials``: runs per N (default 1000).
    """
    seed, trials, progress = begin(seed, trials, 1000, progress)
    sizes = tuple(check_positive_int("sizes", N, "Pass e.g. sizes=(10, 100).") for N in sizes)
    rows = _runs(sizes, trials, seed, test_points, max_sweeps, progress)
    stats = _stats(rows, sizes)
    lines = [
        f"lfd: random-mistake PLA with intercept from w = 0, {trials} runs per N, "
        f"P[f != g] on {test_points} fresh points per run.",
        "     N  mean iter  median  q10   q90   q99   max   converged  mean P[f!=g]  median P[f!=g]",
    ]
    lines += [_row_line(N, stats[str(N)], rows) for N in sizes]
    figures = {
        "lfd": _lfd_figure(rows, sizes),
        "lfd-example": _example_figure(sizes[0], seed, max_sweeps),
    }
    result = ExperimentResult(
        "lfd",
        rows,
        "\n".join(lines),
        stats,
        figures,
        dict(seed=seed, trials=trials, sizes=list(sizes), test_points=test_points),
    )
    return finish(result, out_dir, progress)


def _pla(X: np.ndarray, y: np.ndarray, seed: int, max_sweeps: int) -> Run:
    """The course's PLA: random-mistake order, with intercept, from w = 0, until no mistake."""
    from perceptronlab.core.perceptron import perceptron

    return perceptron(
        X,
        y,
        fit_intercept=True,
        order="random-mistake",
        seed=seed,
        max_sweeps=max_sweeps,
        warn=False,
    )


def _runs(
    sizes: tuple[int, ...],
    trials: int,
    seed: int,
    test_points: int,
    max_sweeps: int,
    progress: Progress,
) -> list[dict[str, Any]]:
    """One row per N and trial: PLA's iterations and P[f ≠ g] on fresh points."""
    from perceptronlab.datasets import label_by
    from perceptronlab.datasets import lfd as make

    rows: list[dict[str, Any]] = []
    total = trials * len(sizes)
    progress("runs", 0, total)
    for s_index, N in enumerate(sizes):
        for trial in range(trials):
            data_seed, run_seed, test_seed = (
                int(s) for s in np.random.SeedSequence([seed, N, trial]).generate_state(3)
            )
            data = make(N, seed=data_seed)
            assert data.target is not None  # the Learning From Data setup draws its target line
            run = _pla(data.X, data.y, run_seed, max_sweeps)
            fresh = np.random.default_rng(test_seed).uniform(-1.0, 1.0, size=(test_points, 2))
            disagree = float(
                np.mean(label_by(data.target, fresh) != label_by(np.r_[run.b, run.w], fresh))
            )
            rows.append(
                dict(
                    N=N,
                    trial=trial,
                    seed=data_seed,
                    iterations=run.mistakes,
                    converged=run.converged,
                    disagreement=disagree,
                )
            )
            progress("runs", s_index * trials + trial + 1, total)
    return rows


def _stats(rows: list[dict[str, Any]], sizes: tuple[int, ...]) -> dict[str, dict[str, Any]]:
    """Per N: the iterations' mean, median, quantiles and maximum, and P[f ≠ g]'s mean and median."""
    stats: dict[str, dict[str, Any]] = {}
    for N in sizes:
        its = np.array([r["iterations"] for r in rows if r["N"] == N])
        dis = np.array([r["disagreement"] for r in rows if r["N"] == N])
        q10, q90, q99 = np.quantile(its, [0.1, 0.9, 0.99])
        stats[str(N)] = dict(
            mean_iterations=float(its.mean()),
            median_iterations=float(np.median(its)),
            q10=float(q10),
            q90=float(q90),
            q99=float(q99),
            max_iterations=int(its.max()),
            converged=int(sum(r["converged"] for r in rows if r["N"] == N)),
            mean_disagreement=float(dis.mean()),
            median_disagreement=float(np.median(dis)),
        )
    return stats


def _row_line(N: int, cells: dict[str, Any], rows: list[dict[str, Any]]) -> str:
    """The summary table's line of one N."""
    runs = sum(1 for r in rows if r["N"] == N)
    return (
        f"  {N:>4}  {cells['mean_iterations']:>9.1f}  {cells['median_iterations']:>6.0f}  "
        f"{cells['q10']:>4.0f}  {cells['q90']:>4.0f}  {cells['q99']:>4.0f}  "
        f"{cells['max_iterations']:>4d}  {cells['converged']:>5}/{runs:<5}  "
        f"{cells['mean_disagreement']:>12.4f}  {cells['median_disagreement']:>14.4f}"
    )


def _example_figure(N: int, seed: int, max_sweeps: int) -> Figure:
    """The learned line g of the first trial's dataset of size N."""
    from perceptronlab import plots
    from perceptronlab.datasets import lfd as make

    example = make(N, seed=int(np.random.SeedSequence([seed, N, 0]).generate_state(1)[0]))
    example_run = _pla(example.X, example.y, seed, max_sweeps)
    return plots.decision_regions(
        example_run, example.X, example.y, title=f"LFD, N = {N}: the learned line g"
    )


def _lfd_figure(rows: list[dict[str, Any]], sizes: tuple[int, ...]) -> Figure:
    from perceptronlab.plots import new_figure

    fig = new_figure(12, 4.8)
    left, right = fig.subplots(1, 2)
    for N in sizes:
        its = np.array([r["iterations"] for r in rows if r["N"] == N])
        dis = np.array([r["disagreement"] for r in rows if r["N"] == N])
        bins = np.logspace(0, np.log10(max(its.max(), 2)) + 0.05, 40)
        left.hist(
            np.maximum(its, 1), bins=bins, alpha=0.6, label=f"N = {N} (mean {its.mean():.1f})"
        )
        right.hist(dis, bins=40, alpha=0.6, label=f"N = {N} (mean {dis.mean():.4f})")
    left.set_xscale("log")
    left.set_xlabel("PLA iterations to converge")
    left.set_ylabel("runs")
    left.set_title("Iterations (random-mistake PLA from w = 0)")
    left.legend()
    right.set_xlabel("P[f ≠ g] on fresh points")
    right.set_ylabel("runs")
    right.set_title("Out-of-sample disagreement")
    right.legend()
    return fig
