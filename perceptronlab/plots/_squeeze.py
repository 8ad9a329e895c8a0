"""The squeeze of Novikoff's proof: ‖w_k‖ between kρ and √k·R (the notebook “The Perceptron
Convergence Theorem”, §6.5)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

from perceptronlab.plots._common import (
    BOUND_COLOR,
    POSITIVE_COLOR,
    check_run,
    new_figure,
    positive_number,
)

if TYPE_CHECKING:
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure

    from perceptronlab._ground.types import Float64Array, RealLike
    from perceptronlab.core.run import Run


def squeeze(run: Run, rho: RealLike, R: RealLike) -> Figure:
    r"""The squeeze of Novikoff's proof: ‖w_k‖ between kρ and √k·R, ‖w_k‖² between k²ρ² and kR².

    After k mistakes, ⟨w*, w_k⟩ ≥ kρ (each update gains at least ρ along the unit w*) and
    ‖w_k‖² ≤ kR² (a mistake adds at most ‖x‖² ≤ R²), so

    .. math:: k^2\rho^2 \le \lVert w_k\rVert^2 \le k R^2 \quad\Rightarrow\quad k \le R^2/\rho^2 .

    Reference: Novikoff (1962); the notebook “The Perceptron Convergence Theorem”, §6.4-6.5.

    Parameters
    ----------
    run : Run
        A perceptron run; its ``norms`` (‖w_k‖ after each update, the intercept included as a
        coordinate) are drawn from k = 0. A run whose log kept only its first updates
        (``run.log_complete`` False) is refused.
    rho, R : float
        The margin and the radius in the space the run updates in. Without an intercept:
        ``perceptronlab.max_margin(X, y).rho`` and ``perceptronlab.radius(X)``. With
        ``fit_intercept`` (the bias trick) both live in the augmented space of (1, x):
        ``perceptronlab.radius(X, fit_intercept=True)`` and the max margin *through the origin*
        of the augmented rows, ``max_margin(np.hstack([np.ones((n, 1)), X]), y).rho``
        (``max_margin(..., fit_intercept=True)`` is the SVM margin with a free b, a different
        quantity). The exact ρ* gives the tightest picture.

    Returns
    -------
    Figure
        Left: ``ax.lines`` = [‖w_k‖, kρ, √k·R]; right: [‖w_k‖², k²ρ², kR², the line k = R²/ρ²],
        on log-log axes (from k = 1) when the bound is more than 10 times the mistakes.

    Examples
    --------
    >>> from perceptronlab import datasets, max_margin, perceptron, plots, radius
    >>> X, y = datasets.exam_task()
    >>> fig = plots.squeeze(perceptron(X, y), max_margin(X, y).rho, radius(X))
    >>> round(float(fig.axes[1].lines[3].get_xdata()[0]), 9)     # the crossing k = R²/ρ*² = 10
    10.0
    """
    run = check_run(run, "squeeze")
    run.check_log_complete("squeeze")
    rho, R = positive_number("rho", rho), positive_number("R", R)
    norms = np.concatenate([[0.0], np.asarray(run.norms, dtype=np.float64)])
    k = np.arange(norms.shape[0], dtype=np.float64)
    bound = R * R / (rho * rho)
    fig = new_figure(12, 5)
    left, right = fig.subplots(1, 2)
    _draw_norms(left, k, norms, rho, R)
    _draw_squares(right, k, norms, rho, R)
    fig.suptitle(f"{run.mistakes} mistakes; Novikoff's bound R²/ρ² = {bound:.4g}")
    return fig


#: up to this many updates the run's line shows a dot at each; beyond, the dots would merge into the
#: line (a report's 100,000 sweeps made 1.4 million of them, seconds of drawing for one thick line)
DOTS_UP_TO = 500


def _run_style(k: Float64Array) -> dict[str, Any]:
    """The run's line: a dot at each update while there are few enough to tell apart."""
    return {"marker": ".", "ms": 4} if k.shape[0] <= DOTS_UP_TO else {"marker": None}


def _draw_norms(ax: Axes, k: Float64Array, norms: Float64Array, rho: float, R: float) -> None:
    """‖w_k‖ between kρ and √k·R, on linear axes."""
    k_left = np.linspace(0, max(k[-1], 1.0), 200)
    ax.plot(
        k, norms, **_run_style(k), color=POSITIVE_COLOR, lw=2, label=r"actual $\|w_k\|$", zorder=3
    )
    ax.plot(k_left, k_left * rho, "--", color="#1a9850", lw=2, label=r"lower bound $k\rho$")
    ax.plot(
        k_left, np.sqrt(k_left) * R, "--", color="#d73027", lw=2, label=r"upper bound $\sqrt{k}\,R$"
    )
    ax.fill_between(
        k_left,
        k_left * rho,
        np.sqrt(k_left) * R,
        where=k_left * rho <= np.sqrt(k_left) * R,
        color="#fee08b",
        alpha=0.3,
        label="feasible region",
    )
    ax.set_xlabel("number of mistakes $k$")
    ax.set_ylabel(r"$\|w_k\|$")
    ax.set_title(r"Growth of $\|w_k\|$: actual vs. bounds")
    ax.legend(loc="upper left")
    ax.grid(True, alpha=0.3)


def _draw_squares(ax: Axes, k: Float64Array, norms: Float64Array, rho: float, R: float) -> None:
    """‖w_k‖² between k²ρ² and kR², up to the crossing k = R²/ρ²."""
    bound = R * R / (rho * rho)
    # far from the bound, log-log axes keep both the run and the crossing k = R²/ρ² in view
    loglog = bound > 10 * max(k[-1], 1.0)
    if loglog:
        k_right = np.geomspace(1.0, bound * 1.5, 300)
        ax.set_xscale("log")
        ax.set_yscale("log")
        k, norms = k[1:], norms[1:]
    else:
        k_right = np.linspace(0, max(k[-1], bound) * 1.1, 300)
    ax.plot(
        k,
        norms**2,
        **_run_style(k),
        color=POSITIVE_COLOR,
        lw=2,
        label=r"actual $\|w_k\|^2$",
        zorder=3,
    )
    ax.plot(
        k_right, (k_right * rho) ** 2, "--", color="#1a9850", lw=2, label=r"lower bound $k^2\rho^2$"
    )
    ax.plot(k_right, k_right * R * R, "--", color="#d73027", lw=2, label=r"upper bound $kR^2$")
    ax.axvline(bound, color=BOUND_COLOR, ls=":", lw=2, label=rf"$R^2/\rho^2 = {bound:.4g}$")
    ax.fill_between(
        k_right,
        (k_right * rho) ** 2,
        k_right * R * R,
        where=k_right <= bound,
        color="#fee08b",
        alpha=0.3,
    )
    ax.set_xlabel("number of mistakes $k$")
    ax.set_ylabel(r"$\|w_k\|^2$")
    ax.set_title(r"The squeeze: $k^2\rho^2 \leq \|w_k\|^2 \leq kR^2$")
    ax.legend(loc="upper left")
    ax.grid(True, alpha=0.3)
