"""Updates per sweep and errors after each sweep, and the pocket's errors (the notebook “The
Perceptron Convergence Theorem”, §6.9)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

from perceptronlab.plots._common import NEGATIVE_COLOR, POSITIVE_COLOR, check_run, new_figure

if TYPE_CHECKING:
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure

    from perceptronlab._ground.types import Float64Array
    from perceptronlab.core.run import Run


def sweeps(run: Run) -> Figure:
    """Updates made in each sweep and training errors after each sweep (and the pocket's errors).

    On separable data both fall to 0; on non-separable data they oscillate for ever (the notebook
    “The Perceptron Convergence Theorem”,
    §6.9), while Pocket keeps the fewest errors seen (Gallant 1990).

    Returns
    -------
    Figure
        One axes; ``ax.lines`` = [updates per sweep, errors after sweep] (+ [pocket errors] for a
        pocket run), against the sweep number 1, 2, ….

    Examples
    --------
    >>> from perceptronlab import datasets, perceptron, plots
    >>> fig = plots.sweeps(perceptron(*datasets.exam_task()))
    >>> [[int(v) for v in line.get_ydata()] for line in fig.axes[0].lines[:2]]  # updates, errors after
    [[2, 2, 1, 0], [1, 1, 0, 0]]
    """
    run = check_run(run, "sweeps")
    updates = np.asarray(run.updates_per_sweep)
    errors = np.asarray(run.errors_after_sweep)
    fig = new_figure(8, 4.5)
    ax = fig.subplots()
    block = _block(max(updates.shape[0], errors.shape[0]))
    for values, color, lw, label in (
        (updates, "#999999", 1.2, "updates in the sweep"),
        (errors, NEGATIVE_COLOR, 1.5, "training errors after the sweep"),
    ):
        x, mean, low, high = _aggregate(values, block)
        ax.plot(
            x,
            mean,
            "-",
            color=color,
            lw=lw,
            marker="." if block == 1 else None,
            label=label if block == 1 else f"{label} (mean of {block:,} sweeps; band: min to max)",
        )
        if block > 1:
            ax.fill_between(x, low, high, color=color, alpha=0.25, lw=0)
    if run.pocket_history is not None and len(run.pocket_history):
        _draw_pocket(ax, run.pocket_history, block)
    _label(ax, run)
    return fig


def _draw_pocket(ax: Axes, pocket_history: Any, block: int) -> None:
    """The pocket's errors: the fewest seen so far, as steps."""
    history = np.asarray(pocket_history)
    x, _, best, _ = _aggregate(history, block)  # the best so far: the block's smallest is its last
    ax.plot(
        x,
        best,
        "-",
        color=POSITIVE_COLOR,
        lw=2.5,
        drawstyle="steps-post",
        label="pocket's errors (best so far)",
    )


def _label(ax: Axes, run: Run) -> None:
    """The zero line, integer ticks, the labels and the title that tells how the run ended."""
    ax.axhline(0, color="#1a9850", ls="--", lw=1, alpha=0.6)
    from matplotlib.ticker import MaxNLocator

    ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    ax.yaxis.set_major_locator(MaxNLocator(integer=True))
    ax.set_xlabel("sweep" if run.params.get("order") != "random-mistake" else "sweep (n updates)")
    ax.set_ylabel("count")
    state = "converged" if run.converged else "cycled" if run.cycled else "did not converge"
    from perceptronlab._ground.numbers import format_count

    ax.set_title(
        f"{run.algorithm}: {format_count(run.mistakes, 'update')} in {format_count(run.sweeps, 'sweep')}, "
        f"{state}"
    )
    ax.legend()
    ax.grid(True, alpha=0.3)


#: per-sweep series longer than this are drawn per block of sweeps (mean, and a min–max band):
#: a line of 100,000 points is a solid block at any size a page can show
AGGREGATE_AFTER = 2000
#: ...into about this many blocks
AGGREGATE_BLOCKS = 500


def _block(length: int) -> int:
    """Sweeps per drawn point: 1 up to :data:`AGGREGATE_AFTER` sweeps, then about
    :data:`AGGREGATE_BLOCKS` blocks."""
    return 1 if length <= AGGREGATE_AFTER else -(-length // AGGREGATE_BLOCKS)


def _aggregate(
    values: Any, block: int
) -> tuple[Float64Array, Float64Array, Float64Array, Float64Array]:
    """(x, mean, min, max) per block of ``block`` sweeps; x is each block's last sweep (1-based)."""
    values = np.asarray(values, dtype=np.float64)
    n = values.shape[0]
    if block == 1 or n == 0:
        x = np.arange(1, n + 1, dtype=np.float64)
        return x, values, values, values
    starts = np.arange(0, n, block)
    ends = np.minimum(starts + block, n)
    mean = np.add.reduceat(values, starts) / (ends - starts)
    return (
        ends.astype(np.float64),
        mean,
        np.minimum.reduceat(values, starts),
        np.maximum.reduceat(values, starts),
    )
