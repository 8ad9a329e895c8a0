"""The lectures' figures, drawn from the engine's and the theory toolkit's numbers.

Every function returns a :class:`matplotlib.figure.Figure` built without ``pyplot`` (no global
state, headless by construction): save it with ``fig.savefig("x.png")``; in Jupyter it displays
itself. Matplotlib is imported on first use; install it with ``pip install 'perceptronlab[plots]'``.

- :func:`squeeze`: the proof of Novikoff's theorem as a picture (the notebook “The Perceptron
Convergence Theorem”, §6.5).
- :func:`bound_vs_actual`: actual mistakes against R²/ρ² over many datasets (the notebook “The
Perceptron Convergence Theorem”, §6.5).
- :func:`sweeps`: updates per sweep and errors after each sweep (the notebook “The Perceptron
Convergence Theorem”, §6.9; pocket).
- :func:`decision_regions`: the plane, the line, w as an arrow, the max-margin band.
- :func:`bound_surface`: R²/ρ² over (R, ρ) and its slices (the notebook “The Perceptron Convergence Theorem”, §6.5).

Examples
--------
>>> from perceptronlab import perceptron, plots
>>> from perceptronlab.datasets import basis
>>> run = perceptron(*basis(4))
>>> fig = plots.squeeze(run, rho=0.5, R=1.0)        # rho* = 1/sqrt(4), R = 1: bound 4 = mistakes
>>> fig.axes[0].lines[0].get_ydata().tolist()       # ||w_k|| = sqrt(k)
[0.0, 1.0, 1.4142135623730951, 1.7320508075688772, 2.0]
>>> fig.savefig(__import__("io").BytesIO(), format="png")
"""

from __future__ import annotations

import numbers
from collections.abc import Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, Protocol

import numpy as np

from perceptronlab._ground.markup import mathtext_literal
from perceptronlab._ground.validation import check_labels, check_matrix, fail

if TYPE_CHECKING:
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure
    from numpy.typing import ArrayLike

    from perceptronlab._ground.types import Float64Array, RealLike
    from perceptronlab.core.run import Run
    from perceptronlab.plots.figure import PlotFigure
    from perceptronlab.theory.geometry import MaxMarginResult

__all__ = ["bound_surface", "bound_vs_actual", "decision_regions", "squeeze", "sweeps"]

#: colours of the negative and the positive class (colour-blind safe pair)
NEGATIVE_COLOR = "#d95f02"
POSITIVE_COLOR = "#1b6ac9"
BOUND_COLOR = "#7b3294"


class Fitted(Protocol):
    """A fitted linear model: this package's estimators and scikit-learn's (``coef_``, and
    ``intercept_`` and ``fit_intercept`` when they have them)."""

    @property
    def coef_(self) -> ArrayLike: ...


class Tabled(Protocol):
    """A result with a ``table`` of rows, as :class:`perceptronlab.studies.experiments.ExperimentResult`."""

    @property
    def table(self) -> Iterable[Mapping[str, Any]]: ...


def new_figure(width: float, height: float) -> PlotFigure:
    try:
        from perceptronlab.plots.figure import PlotFigure
    except ImportError as exc:  # pragma: no cover - matplotlib is in the test environment
        raise ImportError(
            "perceptronlab.plots needs matplotlib: pip install 'perceptronlab[plots]'"
        ) from exc
    return PlotFigure(figsize=(width, height), layout="constrained")


def _positive_number(name: str, value: Any) -> float:
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        try:
            value = float(value)
        except (TypeError, ValueError):
            raise fail(
                name, "a number > 0", repr(value), f"Pass e.g. {name}=perceptronlab.radius(X)."
            ) from None
    number = float(value)
    if not np.isfinite(number) or number <= 0:
        raise fail(
            name, "a finite number > 0", number, f"Pass e.g. {name}=perceptronlab.radius(X)."
        )
    return number


def _check_run(run: Any, who: str) -> Run:
    from perceptronlab.core.run import Run

    if not isinstance(run, Run):
        raise fail(
            f"{who}: run",
            "a perceptronlab.Run (from perceptron() or pocket())",
            type(run).__name__,
            "Pass the result of perceptronlab.perceptron(X, y).",
        )
    return run


# ---------------------------------------------------------------- squeeze


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
    run = _check_run(run, "squeeze")
    run.check_log_complete("squeeze")
    rho, R = _positive_number("rho", rho), _positive_number("R", R)
    norms = np.concatenate([[0.0], np.asarray(run.norms, dtype=np.float64)])
    k = np.arange(norms.shape[0], dtype=np.float64)
    bound = R * R / (rho * rho)
    fig = new_figure(12, 5)
    left, right = fig.subplots(1, 2)

    k_left = np.linspace(0, max(k[-1], 1.0), 200)
    left.plot(k, norms, ".-", color=POSITIVE_COLOR, lw=2, ms=4, label=r"actual $\|w_k\|$", zorder=3)
    left.plot(k_left, k_left * rho, "--", color="#1a9850", lw=2, label=r"lower bound $k\rho$")
    left.plot(
        k_left, np.sqrt(k_left) * R, "--", color="#d73027", lw=2, label=r"upper bound $\sqrt{k}\,R$"
    )
    left.fill_between(
        k_left,
        k_left * rho,
        np.sqrt(k_left) * R,
        where=k_left * rho <= np.sqrt(k_left) * R,
        color="#fee08b",
        alpha=0.3,
        label="feasible region",
    )
    left.set_xlabel("number of mistakes $k$")
    left.set_ylabel(r"$\|w_k\|$")
    left.set_title(r"Growth of $\|w_k\|$: actual vs. bounds")
    left.legend(loc="upper left")
    left.grid(True, alpha=0.3)

    # far from the bound, log-log axes keep both the run and the crossing k = R²/ρ² in view
    loglog = bound > 10 * max(k[-1], 1.0)
    if loglog:
        k_right = np.geomspace(1.0, bound * 1.5, 300)
        right.set_xscale("log")
        right.set_yscale("log")
        k, norms = k[1:], norms[1:]
    else:
        k_right = np.linspace(0, max(k[-1], bound) * 1.1, 300)
    right.plot(
        k, norms**2, ".-", color=POSITIVE_COLOR, lw=2, ms=4, label=r"actual $\|w_k\|^2$", zorder=3
    )
    right.plot(
        k_right, (k_right * rho) ** 2, "--", color="#1a9850", lw=2, label=r"lower bound $k^2\rho^2$"
    )
    right.plot(k_right, k_right * R * R, "--", color="#d73027", lw=2, label=r"upper bound $kR^2$")
    right.axvline(bound, color=BOUND_COLOR, ls=":", lw=2, label=rf"$R^2/\rho^2 = {bound:.4g}$")
    right.fill_between(
        k_right,
        (k_right * rho) ** 2,
        k_right * R * R,
        where=k_right <= bound,
        color="#fee08b",
        alpha=0.3,
    )
    right.set_xlabel("number of mistakes $k$")
    right.set_ylabel(r"$\|w_k\|^2$")
    right.set_title(r"The squeeze: $k^2\rho^2 \leq \|w_k\|^2 \leq kR^2$")
    right.legend(loc="upper left")
    right.grid(True, alpha=0.3)
    fig.suptitle(f"{run.mistakes} mistakes; Novikoff's bound R²/ρ² = {bound:.4g}")
    return fig


# ---------------------------------------------------------------- bound vs actual


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

    # log-log: bounds span orders of magnitude (thin margins make huge bounds)
    low = max(min(bounds.min(), actual.min()) / 1.5, 0.5)
    top = max(bounds.max(), actual.max()) * 1.5
    points = left.scatter(
        bounds,
        actual,
        c=separations,
        cmap="viridis",
        edgecolors="black",
        s=45,
        alpha=0.8,
        linewidths=0.5,
    )
    left.plot([low, top], [low, top], "--", color="#d73027", lw=2, label="actual = bound")
    left.set_xscale("log")
    left.set_yscale("log")
    left.set_xlim(low, top)
    left.set_ylim(low, top)
    left.set_xlabel(r"Novikoff's bound $R^2/\rho^{*2}$ (exact max margin)")
    left.set_ylabel("actual mistakes $k$")
    left.set_title("Bound vs. actual mistakes")
    left.legend(loc="upper left")
    left.grid(True, alpha=0.3)
    if len(set(separations.tolist())) > 1:
        fig.colorbar(points, ax=left, label="cluster separation")

    groups = sorted(set(separations.tolist()))
    ratios = [bounds[separations == s] / np.maximum(actual[separations == s], 1) for s in groups]
    boxes = right.boxplot(ratios, positions=range(len(groups)), widths=0.6, patch_artist=True)
    from matplotlib import colormaps

    cmap = colormaps["viridis"]
    for i, patch in enumerate(boxes["boxes"]):
        patch.set_facecolor(cmap(i / max(len(groups) - 1, 1)))
        patch.set_alpha(0.7)
    right.set_xticks(range(len(groups)), [f"{s:g}" for s in groups])
    right.axhline(1.0, color="#d73027", ls="--", lw=1.5, label="tight bound (ratio = 1)")
    right.set_yscale("log")
    right.set_xlabel("cluster separation")
    right.set_ylabel("bound / actual")
    right.set_title("How loose is the bound?")
    right.legend(loc="upper left")
    right.grid(True, alpha=0.3, axis="y")
    respected = bool(np.all(actual <= bounds * (1 + 1e-9)))
    fig.suptitle(f"{len(rows)} runs; every run within its bound: {'yes' if respected else 'NO'}")
    return fig


# ---------------------------------------------------------------- sweeps


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
    run = _check_run(run, "sweeps")
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
        history = np.asarray(run.pocket_history)
        x, _, best, _ = _aggregate(
            history, block
        )  # the best so far: the block's smallest is its last
        ax.plot(
            x,
            best,
            "-",
            color=POSITIVE_COLOR,
            lw=2.5,
            drawstyle="steps-post",
            label="pocket's errors (best so far)",
        )
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
    return fig


# ---------------------------------------------------------------- decision regions


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


def _weights(fitted: Any) -> tuple[Float64Array, float, bool]:
    """(w, b, fit_intercept) from a Run, an estimator with coef_/intercept_, or a weight vector."""
    from perceptronlab.core.run import Run

    if isinstance(fitted, Run):
        return np.asarray(fitted.w, dtype=np.float64), float(fitted.b), fitted.fit_intercept
    if hasattr(fitted, "coef_"):
        coef = np.asarray(fitted.coef_, dtype=np.float64)
        if coef.ndim == 2 and coef.shape[0] != 1:
            raise fail(
                "decision_regions: fitted",
                "a binary model (one row of coef_)",
                f"coef_ of shape {coef.shape}",
                "Fit the model on two classes.",
            )
        intercept = np.ravel(np.asarray(getattr(fitted, "intercept_", 0.0), dtype=np.float64))
        b = float(intercept[0]) if intercept.shape[0] else 0.0
        return coef.ravel(), b, bool(getattr(fitted, "fit_intercept", b != 0.0))
    try:
        vector = np.asarray(fitted, dtype=np.float64)
    except (TypeError, ValueError):
        vector = None
    if (
        vector is None
        or vector.ndim != 1
        or vector.shape[0] not in (2, 3)
        or not np.isfinite(vector).all()
    ):
        raise fail(
            "decision_regions: fitted",
            "a fitted estimator, a Run, or a weight vector (w1, w2) or (b, w1, w2)",
            repr(fitted)[:80],
            "Pass e.g. perceptronlab.perceptron(X, y).",
        )
    if vector.shape[0] == 3:
        return vector[1:], float(vector[0]), True
    return vector, 0.0, False


def _segment(
    w: Float64Array, b: float, xlim: tuple[float, float], ylim: tuple[float, float]
) -> Float64Array:
    """Two points of the line ⟨w, x⟩ + b = 0 spanning the view (parametrised along the long axis)."""
    if abs(w[1]) >= abs(w[0]):
        xs = np.array(xlim, dtype=np.float64)
        return np.column_stack([xs, -(b + w[0] * xs) / w[1]])
    ys = np.array(ylim, dtype=np.float64)
    return np.column_stack([-(b + w[1] * ys) / w[0], ys])


def decision_regions(
    fitted: Run | Fitted | ArrayLike,
    X: ArrayLike,
    y: ArrayLike,
    max_margin: bool | MaxMarginResult = False,
    title: str | None = None,
) -> Figure:
    """The plane with both classes, the decision line, w as an arrow and the misclassified points.

    Parameters
    ----------
    fitted : Run, estimator or array
        A :class:`~perceptronlab.Run`, a fitted estimator with ``coef_``/``intercept_`` (this
        package's or scikit-learn's), or a weight vector: (w1, w2) for a line through the origin,
        (b, w1, w2) with the intercept first (as ``Run.coef``).
    X : array-like (n, 2)
        The points. A leading constant-1 column (the lectures' bias trick, X of shape (n, 3)) is
        recognised: with a weight vector of length 3 its first weight is drawn as the intercept.
    y : array-like (n,)
        Any two labels (−1/+1, 0/1, strings); the larger is the positive class, as in training.
    max_margin : bool or MaxMarginResult
        Also draw the maximum-margin line and its band: True computes it (``perceptronlab.max_margin``,
        with an intercept when the model has one; skipped, with a note, when the data is not
        separable); a :class:`~perceptronlab.MaxMarginResult` already computed is drawn as it is (one
        of the rows' space, or of the rows with leading constant coordinates, the bias trick's
        (1, x), whose weights are then the line's intercept).
    title : str, optional
        The axes title.

    Returns
    -------
    Figure
        One axes; ``ax.lines[0]`` is the decision line, then the max-margin lines when asked.

    Examples
    --------
    >>> from perceptronlab import datasets, perceptron, plots
    >>> X, y = datasets.margin_task()
    >>> fig = plots.decision_regions(perceptron(X, y), X, y, max_margin=True)
    >>> len(fig.axes[0].lines) > 1                     # the perceptron's line and the max-margin band
    True
    """
    w, b, intercept = _weights(fitted)
    points: Float64Array = check_matrix(X, allow_sparse=False)
    signs, classes = check_labels(y, points.shape[0])
    if points.shape[1] == 3 and np.all(points[:, 0] == 1.0) and w.shape[0] == 3:
        b, w, intercept = b + float(w[0]), w[1:], True
        points = np.ascontiguousarray(points[:, 1:])
    if points.shape[1] != 2:
        raise fail(
            "decision_regions: X",
            "2 features (a plane), or 3 with a leading column of ones",
            f"{points.shape[1]} features",
            "Select two columns, e.g. X[:, :2], or project the data.",
        )
    if w.shape[0] != 2:
        raise fail(
            "decision_regions: fitted",
            "weights for 2 features",
            f"{w.shape[0]} weights",
            "Fit the model on the same two columns you plot.",
        )
    if not np.any(w):
        raise fail(
            "decision_regions: fitted",
            "a nonzero w (a line to draw)",
            "w = 0",
            "Train first: w = 0 classifies nothing.",
        )

    pad = 0.15 * max(np.ptp(points[:, 0]), np.ptp(points[:, 1]), 1.0)
    xlim = (float(points[:, 0].min() - pad), float(points[:, 0].max() + pad))
    ylim = (float(points[:, 1].min() - pad), float(points[:, 1].max() + pad))
    fig = new_figure(9.5, 6.2)
    ax = fig.subplots()
    grid_x, grid_y = np.meshgrid(np.linspace(*xlim, 300), np.linspace(*ylim, 300))
    score = w[0] * grid_x + w[1] * grid_y + b
    ax.contourf(
        grid_x,
        grid_y,
        np.where(score > 0, 1.0, -1.0),
        levels=[-2, 0, 2],
        colors=[NEGATIVE_COLOR, POSITIVE_COLOR],
        alpha=0.12,
    )

    line = _segment(w, b, xlim, ylim)
    ax.plot(
        line[:, 0],
        line[:, 1],
        "-",
        color="black",
        lw=2,
        label="decision line ⟨w,x⟩ + b = 0",
        zorder=5,
    )
    if max_margin is not False:
        _max_margin_band(
            ax, points, y, intercept, xlim, ylim, None if max_margin is True else max_margin
        )

    # w as an arrow from the point of the line nearest to the centre of the view
    centre = np.array([(xlim[0] + xlim[1]) / 2, (ylim[0] + ylim[1]) / 2])
    unit = w / np.linalg.norm(w)
    foot = centre - (float(w @ centre) + b) / float(w @ w) * w
    tip = foot + unit * 0.18 * min(xlim[1] - xlim[0], ylim[1] - ylim[0])
    ax.annotate(
        "",
        xy=tip,
        xytext=(float(foot[0]), float(foot[1])),
        arrowprops=dict(arrowstyle="-|>", color="black", lw=2),
    )
    ax.annotate(
        "w", xy=tip, xytext=(4, 4), textcoords="offset points", fontsize=13, fontweight="bold"
    )

    margins = signs * (points @ w + b)
    for sign, color, marker, name in (
        (-1.0, NEGATIVE_COLOR, "o", classes[0]),
        (1.0, POSITIVE_COLOR, "s", classes[1]),
    ):
        mask = signs == sign
        ax.scatter(
            points[mask, 0],
            points[mask, 1],
            c=color,
            marker=marker,
            s=50,
            edgecolors="black",
            linewidths=0.6,
            label=f"class {mathtext_literal(name)}",
            zorder=3,
        )
    wrong = margins <= 0
    if wrong.any():
        ax.scatter(
            points[wrong, 0],
            points[wrong, 1],
            s=160,
            facecolors="none",
            edgecolors="red",
            linewidths=2,
            label=f"misclassified ({int(wrong.sum())})",
            zorder=4,
        )
    ax.set_xlim(*xlim)
    ax.set_ylim(*ylim)
    ax.set_aspect("equal", adjustable="box")
    ax.set_xlabel("$x_1$")
    ax.set_ylabel("$x_2$")
    ax.set_title(
        title or f"w = ({w[0]:.4g}, {w[1]:.4g}), b = {b:.4g}; {int(wrong.sum())} misclassified"
    )
    # outside the axes: a legend inside would hide points
    ax.legend(loc="upper left", bbox_to_anchor=(1.02, 1.0), fontsize=9, borderaxespad=0)
    ax.grid(True, alpha=0.3)
    return fig


def _max_margin_band(
    ax: Axes,
    X: Float64Array,
    y: ArrayLike,
    intercept: bool,
    xlim: tuple[float, float],
    ylim: tuple[float, float],
    best: Any = None,
) -> None:
    from perceptronlab.exceptions import NotSeparableError
    from perceptronlab.theory.geometry import MaxMarginResult
    from perceptronlab.theory.geometry import max_margin as solve

    if best is None:
        try:
            best = solve(X, y, fit_intercept=intercept)
        except NotSeparableError:
            ax.text(
                0.02, 0.02, "not separable: no max-margin band", transform=ax.transAxes, color="red"
            )
            return
    elif not isinstance(best, MaxMarginResult):
        raise fail(
            "decision_regions: max_margin",
            "True, False or a MaxMarginResult",
            repr(best)[:80],
            "Pass max_margin=True to compute it, or perceptronlab.max_margin(X, y).",
        )
    w_star = np.asarray(best.w, dtype=np.float64)
    b_star = float(best.b)
    if (
        w_star.shape[0] > 2
    ):  # the bias trick: the leading coordinates are constant 1, their weights b
        b_star += float(w_star[:-2].sum())
        w_star = w_star[-2:]
    signs, _ = check_labels(y, X.shape[0])
    # the band's edges are the level sets through the support vectors, whatever w*'s scale
    level = float(np.min(signs * (X @ w_star + b_star)))
    rho = float(best.rho)
    centre = _segment(w_star, b_star, xlim, ylim)
    ax.plot(
        centre[:, 0],
        centre[:, 1],
        "-",
        color=BOUND_COLOR,
        lw=5,
        alpha=0.45,
        label=f"max-margin line (ρ* = {rho:.4g})",
    )
    for offset in (-level, level):
        edge = _segment(w_star, b_star - offset, xlim, ylim)
        ax.plot(edge[:, 0], edge[:, 1], "--", color=BOUND_COLOR, lw=1)
    grid_x, grid_y = np.meshgrid(np.linspace(*xlim, 300), np.linspace(*ylim, 300))
    inside = np.abs(w_star[0] * grid_x + w_star[1] * grid_y + b_star) < level
    ax.contourf(
        grid_x, grid_y, inside.astype(float), levels=[0.5, 1.5], colors=[BOUND_COLOR], alpha=0.12
    )
    support = np.asarray(getattr(best, "support", []), dtype=np.int64).ravel()
    if support.shape[0]:
        ax.scatter(
            X[support, 0],
            X[support, 1],
            s=260,
            facecolors="none",
            edgecolors=BOUND_COLOR,
            linewidths=1.2,
            linestyle="--",
            label="support vectors",
            zorder=4,
        )


# ---------------------------------------------------------------- the bound as a surface


#: the slices of :func:`bound_surface` without a dataset
DEFAULT_RADII, DEFAULT_MARGINS = (1.0, 2.0, 3.0, 5.0), (0.1, 0.5, 1.0, 2.0)
#: with a dataset (R, ρ*) and no slices given: R and ρ* times these
AROUND_THE_DATA = (0.25, 0.5, 2.0, 4.0)


def bound_surface(
    radii: Sequence[RealLike] | None = None,
    margins: Sequence[RealLike] | None = None,
    mark: tuple[RealLike, RealLike] | None = None,
) -> Figure:
    """Novikoff's bound R²/ρ² over (R, ρ) as a surface (log₁₀), and its slices (the notebook “The
    Perceptron Convergence Theorem”, §6.5).

    Halving the margin quadruples the bound; doubling the radius does too.

    Parameters
    ----------
    radii : sequence of float, optional
        The fixed radii of the middle panel (bound against ρ). Default: 1, 2, 3, 5, or with ``mark``
        its R times ¼, ½, 2 and 4, so that any R is read at its own scale.
    margins : sequence of float, optional
        The fixed margins of the right panel (bound against R); default likewise.

    Every axis of R and ρ is logarithmic and spans the slices and the mark (with room on each
    side), so a dataset with R = 4000 and ρ* = 0.02 sits in the middle of its panels.
    mark : (R, rho), optional
        A dataset's radius and margin: marked on all three panels (and its R and ρ drawn as one
        more slice each).

    Returns
    -------
    Figure
        Three axes: the 3-D surface of log₁₀(R²/ρ²), then ``lines`` of R²/ρ² against ρ (one per
        radius) and against R (one per margin), on log scales.

    Examples
    --------
    >>> from perceptronlab import plots
    >>> # the exam task of the lecture notes “Perceptron Mistake Bound”: R²/ρ*² = 10
    >>> fig = plots.bound_surface(mark=(2 ** 0.5, 5 ** -0.5))
    >>> len(fig.axes)
    3
    """
    point: tuple[float, float] | None = None
    if mark is not None:
        if not isinstance(mark, tuple | list) or len(mark) != 2:
            raise fail(
                "bound_surface: mark", "a pair (R, rho)", repr(mark), "Pass e.g. mark=(1.41, 0.45)."
            )
        point = (_positive_number("R", mark[0]), _positive_number("rho", mark[1]))
    if radii is None:
        radii = DEFAULT_RADII if point is None else [point[0] * k for k in AROUND_THE_DATA]
    if margins is None:
        margins = DEFAULT_MARGINS if point is None else [point[1] * k for k in AROUND_THE_DATA]
    radius_list = [_positive_number("radii", r) for r in radii]
    margin_list = [_positive_number("margins", m) for m in margins]
    if not radius_list or not margin_list:
        raise fail(
            "bound_surface",
            "at least one radius and one margin",
            f"{radius_list}, {margin_list}",
            "Pass e.g. radii=(1, 2) and margins=(0.5, 1).",
        )
    fig = new_figure(18, 5.5)
    surface = fig.add_subplot(1, 3, 1, projection="3d")
    by_margin = fig.add_subplot(1, 3, 2)
    by_radius = fig.add_subplot(1, 3, 3)

    r_low, r_high = _span(radius_list + ([point[0]] if point else []))
    m_low, m_high = _span(margin_list + ([point[1]] if point else []))
    grid_R, grid_rho = np.meshgrid(np.geomspace(r_low, r_high, 50), np.geomspace(m_low, m_high, 50))
    surface.plot_surface(
        np.log10(grid_R),
        np.log10(grid_rho),
        np.log10(_novikoff(grid_R, grid_rho)),
        cmap="RdYlGn_r",
        alpha=0.85,
        edgecolor="none",
    )
    surface.set_xlabel("log₁₀ R (radius)")
    surface.set_ylabel("log₁₀ ρ (margin)")
    surface.set_zlabel("log₁₀(R²/ρ²)")
    surface.set_title("Novikoff's bound R²/ρ²")
    surface.view_init(elev=25, azim=-130)
    if point is not None:
        value = float(_novikoff(np.array(point[0]), np.array(point[1])))
        surface.scatter(
            [np.log10(point[0])],
            [np.log10(point[1])],
            [np.log10(value)],
            color="black",
            s=40,
            depthshade=False,
        )
        radius_list = radius_list + [point[0]]
        margin_list = margin_list + [point[1]]

    rho = np.geomspace(m_low, m_high, 200)
    for i, radius in enumerate(radius_list):
        marked = point is not None and i == len(radius_list) - 1
        by_margin.plot(
            rho,
            _novikoff(np.full_like(rho, radius), rho),
            lw=2,
            ls=":" if marked else "-",
            color="black" if marked else None,
            label=f"R = {_shown(radius)}" + (" (the data)" if marked else ""),
        )
    if point is not None:
        by_margin.plot(
            [point[1]], [value], "o", color="black", label=f"the data: R²/ρ² = {_shown(value)}"
        )
    by_margin.set_yscale("log")
    by_margin.set_xscale("log")
    by_margin.set_xlabel("margin ρ")
    by_margin.set_ylabel("bound R²/ρ²")
    by_margin.set_title("Bound vs. margin (fixed radius)")
    by_margin.legend()
    by_margin.grid(True, alpha=0.3)

    R = np.geomspace(r_low, r_high, 200)
    for i, margin in enumerate(margin_list):
        marked = point is not None and i == len(margin_list) - 1
        by_radius.plot(
            R,
            _novikoff(R, np.full_like(R, margin)),
            lw=2,
            ls=":" if marked else "-",
            color="black" if marked else None,
            label=f"ρ = {_shown(margin)}" + (" (the data)" if marked else ""),
        )
    if point is not None:
        by_radius.plot(
            [point[0]], [value], "o", color="black", label=f"the data: R²/ρ² = {_shown(value)}"
        )
    by_radius.set_yscale("log")
    by_radius.set_xscale("log")
    by_radius.set_xlabel("radius R")
    by_radius.set_ylabel("bound R²/ρ²")
    by_radius.set_title("Bound vs. radius (fixed margin)")
    by_radius.legend()
    by_radius.grid(True, alpha=0.3)
    return fig


def _shown(value: float) -> str:
    from perceptronlab._ground.numbers import format_display

    return format_display(float(value), 4)


def _span(values: list[float]) -> tuple[float, float]:
    """A logarithmic axis range around ``values``: from half the smallest to twice the largest."""
    return min(values) / 2, max(values) * 2


def _novikoff(R: Float64Array, rho: Float64Array) -> Float64Array:
    """perceptronlab.bounds.novikoff elementwise, as floats."""
    from perceptronlab.bounds import novikoff

    def one(r: float, p: float) -> float:
        value = novikoff(float(r), float(p))
        return float(getattr(value, "value", value))

    bounds: Float64Array = np.vectorize(one, otypes=[np.float64])(R, rho)
    return bounds
