"""Bound against actual: Novikoff's R²/ρ*² with the exact ρ* beside the mistakes of real runs.

The study of the notebook "The Perceptron Convergence Theorem": Gaussian pairs with separations
1.5 … 6 and a bias column; the notebook's approximate margin (the mean-difference direction) is kept
in the table for comparison.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from perceptronlab.studies._result import (
    ExperimentResult,
    Progress,
    begin,
    finish,
    radius_margin_bound,
)

if TYPE_CHECKING:
    from matplotlib.figure import Figure

    from perceptronlab.core.batch import BatchResult
    from perceptronlab.datasets import Dataset


#: the notebook's separations ("Theoretical Bound vs. Actual Iterations")
SEPARATIONS = (1.5, 2.0, 2.5, 3.0, 3.5, 4.0, 5.0, 6.0)


def study_seed(separation: float, trial: int, seed: int = 0) -> int:
    """The data seed of one dataset: the notebook's ``trial * 137 + int(sep * 100)`` (``seed`` = 0)."""
    return (seed * 1_000_003 + trial * 137 + int(separation * 100)) % 2**32


def mean_difference_margin(X: np.ndarray, y_signs: np.ndarray) -> float:
    """The notebook's approximation: the margin of the mean-difference direction (may be ≤ 0).

    Kept only for comparison with the exact ρ*: min_i yᵢ⟨u, xᵢ⟩ with u ∝ mean(x | +1) − mean(x | −1).
    """
    direction = X[y_signs > 0].mean(axis=0) - X[y_signs < 0].mean(axis=0)
    direction = direction / np.linalg.norm(direction)
    return float(np.min(y_signs * (X @ direction)))


def bound_vs_actual(
    out_dir: Path | str | None = None,
    *,
    seed: int | None = None,
    trials: int | None = None,
    progress: Progress | None = None,
    n_per_class: int = 25,
    separations: tuple[float, ...] = SEPARATIONS,
    max_sweeps: int = 500,
) -> ExperimentResult:
    """The study of the notebook “The Perceptron Convergence Theorem”: actual perceptron mistakes
    against R²/ρ*² on random Gaussian pairs.

    For every separation and trial: :func:`perceptronlab.datasets.gaussian_pair` (bias column
    first, seed ``trial * 137 + int(separation * 100)`` as in the notebook; ``seed`` shifts it),
    R = ``perceptronlab.radius``, ρ* = ``perceptronlab.max_margin(...).rho`` (exact, instead of the
    notebook's mean-difference approximation), the cyclic perceptron from w = 0, and Novikoff's
    bound. Datasets that are not separable are counted and left out of the bound check.

    ``trials``: datasets per separation (default 15, the notebook's).
    """
    from perceptronlab.core.batch import perceptron_batch
    from perceptronlab.datasets import gaussian_pair

    seed, trials, progress = begin(seed, trials, 15, progress)
    datasets = [
        (separation, trial, study_seed(separation, trial, seed))
        for separation in separations
        for trial in range(trials)
    ]
    pairs = [
        gaussian_pair(n_per_class, separation, seed=data_seed)
        for separation, _, data_seed in datasets
    ]
    # every dataset has the same shape: one compiled call runs them all (exactly perceptron(X, y) each)
    batch = perceptron_batch(
        np.stack([X for X, _ in pairs]), np.stack([y for _, y in pairs]), max_sweeps=max_sweeps
    )
    rows = _rows(datasets, pairs, batch, progress)
    stats = _stats(rows, separations)
    lines = _summary(stats, trials, n_per_class)
    separable = [r for r in rows if r["separable"]]
    figures = _figures(separable, n_per_class, max_sweeps) if separable else {}
    result = ExperimentResult(
        "bound-vs-actual",
        rows,
        "\n".join(lines),
        stats,
        figures,
        dict(
            seed=seed,
            trials=trials,
            n_per_class=n_per_class,
            separations=list(separations),
            max_sweeps=max_sweeps,
        ),
    )
    return finish(result, out_dir, progress)


def _rows(
    datasets: list[tuple[float, int, int]],
    pairs: list[Dataset],
    batch: BatchResult,
    progress: Progress,
) -> list[dict[str, Any]]:
    """One row per dataset: R, the exact ρ* (None when not separable), the bound, the run."""
    rows: list[dict[str, Any]] = []
    total = len(datasets)
    progress("datasets", 0, total)
    for done, ((separation, trial, data_seed), (X, y)) in enumerate(
        zip(datasets, pairs, strict=True), start=1
    ):
        R, rho, bound = radius_margin_bound(X, y)
        mistakes = int(batch.mistakes[done - 1])
        rows.append(
            dict(
                separation=separation,
                trial=trial,
                seed=data_seed,
                n=int(X.shape[0]),
                separable=rho is not None,
                R=R,
                rho=rho,
                bound=bound,
                mistakes=mistakes,
                sweeps=int(batch.sweeps[done - 1]),
                converged=bool(batch.converged[done - 1]),
                ratio=bound / max(mistakes, 1) if bound else None,
                within_bound=mistakes <= bound * (1 + 1e-9) if bound else None,
                rho_mean_diff=mean_difference_margin(X, np.where(y > 0, 1.0, -1.0)),
            )
        )
        progress("datasets", done, total)
    return rows


def _stats(rows: list[dict[str, Any]], separations: tuple[float, ...]) -> dict[str, Any]:
    """The bound check over the separable datasets, overall and per separation."""
    separable = [r for r in rows if r["separable"]]
    ratios = np.array([r["ratio"] for r in separable])
    looser = [(r["rho"] / r["rho_mean_diff"]) ** 2 for r in separable if r["rho_mean_diff"] > 0]
    per_separation: dict[str, dict[str, Any]] = {}
    for separation in separations:
        group = [r for r in separable if r["separation"] == separation]
        if group:
            per_separation[f"{separation:g}"] = dict(
                datasets=len(group),
                mean_mistakes=float(np.mean([r["mistakes"] for r in group])),
                mean_bound=float(np.mean([r["bound"] for r in group])),
                median_ratio=float(np.median([r["ratio"] for r in group])),
            )
    return dict(
        datasets=len(rows),
        separable=len(separable),
        not_separable=len(rows) - len(separable),
        all_within_bound=all(r["within_bound"] for r in separable),
        max_fraction_of_bound=max((r["mistakes"] / r["bound"] for r in separable), default=None),
        mean_ratio=float(ratios.mean()) if len(ratios) else None,
        median_ratio=float(np.median(ratios)) if len(ratios) else None,
        mean_difference_failed=sum(1 for r in separable if r["rho_mean_diff"] <= 0),
        mean_difference_bound_factor=float(np.median(looser)) if looser else None,
        per_separation=per_separation,
    )


def _summary(stats: dict[str, Any], trials: int, n_per_class: int) -> list[str]:
    """The study's summary lines, from its stats."""
    lines = [
        f"bound-vs-actual: {stats['datasets']} Gaussian pairs ({trials} per separation, "
        f"{n_per_class} points per class, bias column), exact max margin ρ*.",
        f"  separable: {stats['separable']}; not separable (left out): {stats['not_separable']}",
        "  every run respected Novikoff's bound R²/ρ*²: "
        + ("yes" if stats["all_within_bound"] else "NO"),
    ]
    if stats["mean_ratio"] is not None:
        lines.append(
            f"  bound / actual: mean {stats['mean_ratio']:.1f}x, median {stats['median_ratio']:.1f}x; "
            f"the largest share of its bound any run used: {stats['max_fraction_of_bound']:.1%}"
        )
    factor = stats["mean_difference_bound_factor"]
    lines.append(
        "  the notebook's mean-difference margin: fails (<= 0) on "
        f"{stats['mean_difference_failed']} separable datasets"
        + (
            f"; elsewhere its bound is a median {factor:.2f}x the exact one"
            if factor is not None
            else ""
        )
    )
    lines.append("  separation  datasets  mean mistakes  mean bound  median bound/actual")
    for key, cells in stats["per_separation"].items():
        lines.append(
            f"  {key:>10}  {cells['datasets']:>8}  {cells['mean_mistakes']:>13.1f}  "
            f"{cells['mean_bound']:>10.1f}  {cells['median_ratio']:>19.1f}"
        )
    return lines


def _figures(
    separable: list[dict[str, Any]], n_per_class: int, max_sweeps: int
) -> dict[str, Figure]:
    """Mistakes against the bound, the busiest run's squeeze, and the bound's surface."""
    from perceptronlab import plots
    from perceptronlab.core.perceptron import perceptron
    from perceptronlab.datasets import gaussian_pair

    figures = {"bound-vs-actual": plots.bound_vs_actual(separable)}
    busiest = max(separable, key=lambda r: r["mistakes"])
    X, y = gaussian_pair(n_per_class, busiest["separation"], seed=busiest["seed"])
    run = perceptron(X, y, max_sweeps=max_sweeps, warn=False)
    figures["squeeze"] = plots.squeeze(run, busiest["rho"], busiest["R"])
    figures["bound-surface"] = plots.bound_surface()
    return figures
