"""Actual mistakes against Novikoff's bound R²/ρ² over many datasets (the notebook “The Perceptron
Convergence Theorem”, §6.5)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, Protocol

import numpy as np

from perceptronlab._ground.validation import fail
from perceptronlab.plots._common import new_figure

if TYPE_CHECKING:
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure

    from perceptronlab._ground.types import Float64Array


class Tabled(Protocol):
    """A result with a ``table`` of rows, as :class:`perceptronlab.studies.experiments.ExperimentResult`."""

    @property
    def table(self) -> Iterable[Mapping[str, Any]]: ...


def _rows(results: Any) -> list[Mapping[str, Any]]:
    table = getattr(results, "table", results)
    if isinstance(table, Mapping):
        table = [
            dict(zip(table, values, strict=True)) for values in zip(*table.values(), strict=True)
        ]
    if not isinstance(table, Iterable):
        raise fail(
            "bound_vs_actual: results",
            "rows with 'bound', 'mistakes' and 'separation'",
            type(results).__name__,
            "Pass the table of the 'bound-vs-actual' experiment.",
        )
    rows = list(table)
    if not rows:
        raise fail(
            "bound_vs_actual: results",
            "at least one row",
            "none",
            "Run perceptronlab.studies.experiments.run('bound-vs-actual') first.",
        )
    for i, row in enumerate(rows):
        if not isinstance(row, Mapping) or not {"bound", "mistakes"} <= set(row):
            raise fail(
                f"bound_vs_actual: results[{i}]",
                "a mapping with keys 'bound' and 'mistakes'",
                repr(row)[:80],
                "Pass the table of the 'bound-vs-actual' experiment.",
            )
    return rows


def bound_vs_actual(
    results: Tabled | Iterable[Mapping[str, Any]] | Mapping[str, Sequence[Any]],
) -> Figure:
    """Actual mistakes against Novikoff's bound R²/ρ² over many datasets, and how loose it is.

    Parameters
    ----------
    results : list of dict, or an ExperimentResult
        Rows with ``bound`` (R²/ρ²), ``mistakes`` and optionally ``separation`` (the colour and the
        box-plot groups), e.g. the table of the ``bound-vs-actual`` experiment.

    Returns
    -------
    Figure
        Left: the scatter (``ax.collections[0]``) with the line y = x (``ax.lines[0]``); right: the
        ratio bound / actual as box plots per separation, with the line ratio = 1.

    Examples
    --------
    >>> from perceptronlab import plots
    >>> rows = [{"bound": 36.2, "mistakes": 2, "separation": 3.0},
    ...         {"bound": 777.0, "mistakes": 23, "separation": 2.0}]
    >>> fig = plots.bound_vs_actual(rows)
    >>> fig.get_suptitle()
    '2 runs; every run within its bound: yes'
    """
    rows = _rows(results)
    bounds = np.array([float(r["bound"]) for r in rows])
    actual = np.array([float(r["mistakes"]) for r in rows])
    separations = np.array([float(r.get("separation", 0.0)) for r in rows])
    fig = new_figure(13, 5.5)
    left, right = fig.subplots(1, 2)
    points = _draw_scatter(left, bounds, actual, separations)
    if len(set(separations.tolist())) > 1:
        fig.colorbar(points, ax=left, label="cluster separation")
    _draw_ratios(right, bounds, actual, separations)
    respected = bool(np.all(actual <= bounds * (1 + 1e-9)))
    fig.suptitle(f"{len(rows)} runs; every run within its bound: {'yes' if respected else 'NO'}")
    return fig


def _draw_scatter(
    ax: Axes, bounds: Float64Array, actual: Float64Array, separations: Float64Array
) -> Any:
    """Each run's mistakes against its bound, with the line y = x; returns the scatter."""
    # log-log: bounds span orders of magnitude (thin margins make huge bounds)
    low = max(min(bounds.min(), actual.min()) / 1.5, 0.5)
    top = max(bounds.max(), actual.max()) * 1.5
    points = ax.scatter(
        bounds,
        actual,
        c=separations,
        cmap="viridis",
        edgecolors="black",
        s=45,
        alpha=0.8,
        linewidths=0.5,
    )
    ax.plot([low, top], [low, top], "--", color="#d73027", lw=2, label="actual = bound")
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlim(low, top)
    ax.set_ylim(low, top)
    ax.set_xlabel(r"Novikoff's bound $R^2/\rho^{*2}$ (exact max margin)")
    ax.set_ylabel("actual mistakes $k$")
    ax.set_title("Bound vs. actual mistakes")
    ax.legend(loc="upper left")
    ax.grid(True, alpha=0.3)
    return points


def _draw_ratios(
    ax: Axes, bounds: Float64Array, actual: Float64Array, separations: Float64Array
) -> None:
    """The ratio bound / actual as box plots per separation, with the line ratio = 1."""
    groups = sorted(set(separations.tolist()))
    ratios = [bounds[separations == s] / np.maximum(actual[separations == s], 1) for s in groups]
    boxes = ax.boxplot(ratios, positions=range(len(groups)), widths=0.6, patch_artist=True)
    from matplotlib import colormaps

    cmap = colormaps["viridis"]
    for i, patch in enumerate(boxes["boxes"]):
        patch.set_facecolor(cmap(i / max(len(groups) - 1, 1)))
        patch.set_alpha(0.7)
    ax.set_xticks(range(len(groups)), [f"{s:g}" for s in groups])
    ax.axhline(1.0, color="#d73027", ls="--", lw=1.5, label="tight bound (ratio = 1)")
    ax.set_yscale("log")
    ax.set_xlabel("cluster separation")
    ax.set_ylabel("bound / actual")
    ax.set_title("How loose is the bound?")
    ax.legend(loc="upper left")
    ax.grid(True, alpha=0.3, axis="y")
