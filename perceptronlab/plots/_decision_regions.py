"""The plane with both classes, the decision line, w as an arrow, the misclassified points and the
max-margin band."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Protocol

import numpy as np

from perceptronlab._ground.markup import mathtext_literal
from perceptronlab._ground.validation import check_labels, check_matrix, fail
from perceptronlab.plots._common import BOUND_COLOR, NEGATIVE_COLOR, POSITIVE_COLOR, new_figure

if TYPE_CHECKING:
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure
    from numpy.typing import ArrayLike

    from perceptronlab._ground.types import Float64Array
    from perceptronlab.core.run import Run
    from perceptronlab.theory.geometry import MaxMarginResult

#: the view's limits: (low, high) along x₁ or x₂
Limits = tuple[float, float]


class Fitted(Protocol):
    """A fitted linear model: this package's estimators and scikit-learn's (``coef_``, and
    ``intercept_`` and ``fit_intercept`` when they have them)."""

    @property
    def coef_(self) -> ArrayLike: ...


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
    w, b, intercept, points, signs, classes = _plane(fitted, X, y)
    xlim, ylim = _view(points)
    fig = new_figure(9.5, 6.2)
    ax = fig.subplots()
    _draw_line(ax, w, b, xlim, ylim)
    if max_margin is not False:
        _max_margin_band(
            ax, points, y, intercept, xlim, ylim, None if max_margin is True else max_margin
        )
    _draw_w(ax, w, b, xlim, ylim)
    wrong = _draw_points(ax, points, signs, classes, signs * (points @ w + b) <= 0)
    _finish(
        ax, xlim, ylim, title or f"w = ({w[0]:.4g}, {w[1]:.4g}), b = {b:.4g}; {wrong} misclassified"
    )
    return fig


def _view(points: Float64Array) -> tuple[Limits, Limits]:
    """The view's limits: the points with a margin of 15 % of their wider spread (at least 0.15)."""
    pad = 0.15 * max(np.ptp(points[:, 0]), np.ptp(points[:, 1]), 1.0)
    xlim = (float(points[:, 0].min() - pad), float(points[:, 0].max() + pad))
    ylim = (float(points[:, 1].min() - pad), float(points[:, 1].max() + pad))
    return xlim, ylim


def _finish(ax: Axes, xlim: Limits, ylim: Limits, title: str) -> None:
    """The view, equal scales, the labels, the title, the legend beside the axes and the grid."""
    ax.set_xlim(*xlim)
    ax.set_ylim(*ylim)
    ax.set_aspect("equal", adjustable="box")
    ax.set_xlabel("$x_1$")
    ax.set_ylabel("$x_2$")
    ax.set_title(title)
    # outside the axes: a legend inside would hide points
    ax.legend(loc="upper left", bbox_to_anchor=(1.02, 1.0), fontsize=9, borderaxespad=0)
    ax.grid(True, alpha=0.3)


def _plane(
    fitted: Any, X: ArrayLike, y: ArrayLike
) -> tuple[Float64Array, float, bool, Float64Array, Float64Array, Any]:
    """(w, b, fit_intercept, the points in the plane, the signs, the classes), checked: two
    features (the bias trick's leading column of ones folded into b) and a nonzero w."""
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
    return w, b, intercept, points, signs, classes


def _draw_line(ax: Axes, w: Float64Array, b: float, xlim: Limits, ylim: Limits) -> None:
    """Both regions shaded, and the decision line ⟨w,x⟩ + b = 0."""
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


def _draw_w(ax: Axes, w: Float64Array, b: float, xlim: Limits, ylim: Limits) -> None:
    """w as an arrow from the point of the line nearest to the centre of the view."""
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


def _draw_points(
    ax: Axes, points: Float64Array, signs: Float64Array, classes: Any, wrong: Any
) -> int:
    """Both classes, and the misclassified points circled; returns how many are misclassified."""
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
    return int(wrong.sum())


def _max_margin_band(
    ax: Axes,
    X: Float64Array,
    y: ArrayLike,
    intercept: bool,
    xlim: Limits,
    ylim: Limits,
    best: Any = None,
) -> None:
    """The maximum-margin line, its band's edges through the support vectors, and those vectors;
    a note instead when the data is not separable."""
    best = _solved(ax, X, y, intercept, best)
    if best is None:
        return
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
    _draw_support(ax, X, best)


def _solved(ax: Axes, X: Float64Array, y: ArrayLike, intercept: bool, best: Any) -> Any:
    """The max-margin result given, or solved here; None (with a note on the axes) when the data
    is not separable."""
    from perceptronlab.exceptions import NotSeparableError
    from perceptronlab.theory.geometry import MaxMarginResult
    from perceptronlab.theory.geometry import max_margin as solve

    if best is None:
        try:
            return solve(X, y, fit_intercept=intercept)
        except NotSeparableError:
            ax.text(
                0.02, 0.02, "not separable: no max-margin band", transform=ax.transAxes, color="red"
            )
            return None
    if not isinstance(best, MaxMarginResult):
        raise fail(
            "decision_regions: max_margin",
            "True, False or a MaxMarginResult",
            repr(best)[:80],
            "Pass max_margin=True to compute it, or perceptronlab.max_margin(X, y).",
        )
    return best


def _draw_support(ax: Axes, X: Float64Array, best: Any) -> None:
    """The support vectors, circled."""
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


def _segment(w: Float64Array, b: float, xlim: Limits, ylim: Limits) -> Float64Array:
    """Two points of the line ⟨w, x⟩ + b = 0 spanning the view (parametrised along the long axis)."""
    if abs(w[1]) >= abs(w[0]):
        xs = np.array(xlim, dtype=np.float64)
        return np.column_stack([xs, -(b + w[0] * xs) / w[1]])
    ys = np.array(ylim, dtype=np.float64)
    return np.column_stack([-(b + w[1] * ys) / w[0], ys])
