"""The worst case: the basis vectors e₁ … eₙ, all +1, where mistakes = n = R²/ρ*²."""

from __future__ import annotations

import math
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

    from perceptronlab.core.run import Run


def worst_case(
    out_dir: Path | str | None = None,
    *,
    seed: int | None = None,
    trials: int | None = None,
    progress: Progress | None = None,
    dimensions: tuple[int, ...] = (2, 3, 5, 10, 20, 50),
) -> ExperimentResult:
    """The notebook “The Perceptron Convergence Theorem”, §6.7: the basis vectors e₁ … e_n, all +1,
    attain Novikoff's bound: mistakes = n.

    R = 1 and ρ* = 1/√n (computed by ``perceptronlab.radius`` and ``perceptronlab.max_margin``), so
    R²/ρ*² = n; the cyclic perceptron (exact arithmetic) makes exactly n mistakes, and so does a
    shuffled order (seeded by ``seed``): each e_i is a tie until it is added once.

    ``trials``: the number of shuffled orders per n (default 5).
    """
    from perceptronlab import plots

    seed, trials, progress = begin(seed, trials, 5, progress)
    rows, runs = _rows(dimensions, trials, seed, progress)
    tight = all(
        r["attains_bound"] and r["shuffled_mistakes_min"] == r["shuffled_mistakes_max"] == r["n"]
        for r in rows
    )
    figures = {"worst-case": _worst_case_figure(rows)}
    middle = dimensions[len(dimensions) // 2]
    figures["worst-case-squeeze"] = plots.squeeze(*runs[middle])
    stats = dict(attains_bound=tight, dimensions=list(dimensions))
    result = ExperimentResult(
        "worst-case",
        rows,
        "\n".join(_summary(rows, trials, tight)),
        stats,
        figures,
        dict(seed=seed, trials=trials, dimensions=list(dimensions)),
    )
    return finish(result, out_dir, progress)


def _rows(
    dimensions: tuple[int, ...], trials: int, seed: int, progress: Progress
) -> tuple[list[dict[str, Any]], dict[int, tuple[Run, float, float]]]:
    """One row per n: R, ρ*, the bound, the cyclic run's mistakes and the shuffled runs' range;
    with each n's cyclic run, ρ* and R (for the squeeze figure)."""
    from perceptronlab.core.perceptron import perceptron
    from perceptronlab.datasets import basis

    rows, runs = [], {}
    progress("dimensions", 0, len(dimensions))
    for done, n in enumerate(dimensions, start=1):
        X, y = basis(n)
        R, rho, bound = radius_margin_bound(X, y)
        assert rho is not None and bound is not None  # the basis vectors are separable
        run = perceptron(X, y, exact=True)
        shuffled = [
            perceptron(X, y, order="shuffle", seed=seed + t).mistakes for t in range(trials)
        ]
        rows.append(
            dict(
                n=n,
                R=R,
                rho=rho,
                bound=round(bound, 9),
                mistakes=run.mistakes,
                sweeps=run.sweeps,
                shuffled_mistakes_min=min(shuffled),
                shuffled_mistakes_max=max(shuffled),
                attains_bound=run.mistakes == n and math.isclose(bound, n, rel_tol=1e-6),
            )
        )
        runs[n] = (run, rho, R)
        progress("dimensions", done, len(dimensions))
    return rows, runs


def _summary(rows: list[dict[str, Any]], trials: int, tight: bool) -> list[str]:
    lines = [
        "worst-case: the basis vectors e₁…eₙ, all labelled +1 "
        "(the notebook “The Perceptron Convergence Theorem”, section 6.7).",
        f"  mistakes = n = R²/ρ*² for every n, in cyclic and {trials} shuffled orders: "
        f"{'yes' if tight else 'NO'}",
        "     n    R      ρ*     bound  mistakes  shuffled",
    ]
    return lines + [
        f"  {r['n']:>4}  {r['R']:.3f}  {r['rho']:.4f}  {r['bound']:>5g}  {r['mistakes']:>8}  "
        f"{r['shuffled_mistakes_min']}..{r['shuffled_mistakes_max']}"
        for r in rows
    ]


def _worst_case_figure(rows: list[dict[str, Any]]) -> Figure:
    from perceptronlab.plots import BOUND_COLOR, POSITIVE_COLOR, new_figure

    fig = new_figure(7, 5)
    ax = fig.subplots()
    n = np.array([r["n"] for r in rows], dtype=np.float64)
    ax.plot(
        n,
        [r["bound"] for r in rows],
        "-",
        color=BOUND_COLOR,
        lw=2,
        label=r"bound $R^2/\rho^{*2} = n$",
    )
    ax.plot(
        n,
        [r["mistakes"] for r in rows],
        "o",
        color=POSITIVE_COLOR,
        ms=8,
        label="perceptron mistakes",
    )
    ax.set_xlabel("dimension n")
    ax.set_ylabel("mistakes")
    ax.set_title("The basis vectors attain Novikoff's bound")
    ax.legend()
    ax.grid(True, alpha=0.3)
    return fig
