"""Novikoff's bound R²/ρ² over (R, ρ) as a surface, and its slices (the notebook “The Perceptron
Convergence Theorem”, §6.5)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from perceptronlab._ground.validation import fail
from perceptronlab.plots._common import new_figure, positive_number

if TYPE_CHECKING:
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure

    from perceptronlab._ground.types import Float64Array, RealLike

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
    point, radius_list, margin_list = _slices(radii, margins, mark)
    fig = new_figure(18, 5.5)
    surface = fig.add_subplot(1, 3, 1, projection="3d")
    by_margin = fig.add_subplot(1, 3, 2)
    by_radius = fig.add_subplot(1, 3, 3)

    r_span = _span(radius_list + ([point[0]] if point else []))
    m_span = _span(margin_list + ([point[1]] if point else []))
    _draw_surface(surface, r_span, m_span, point)
    if point is not None:
        radius_list = radius_list + [point[0]]
        margin_list = margin_list + [point[1]]
    _draw_slices(by_margin, np.geomspace(*m_span, 200), radius_list, point, along_margin=True)
    _draw_slices(by_radius, np.geomspace(*r_span, 200), margin_list, point, along_margin=False)
    return fig


def _slices(
    radii: Sequence[RealLike] | None,
    margins: Sequence[RealLike] | None,
    mark: tuple[RealLike, RealLike] | None,
) -> tuple[tuple[float, float] | None, list[float], list[float]]:
    """(the mark as floats or None, the radii, the margins), checked, with their defaults."""
    point: tuple[float, float] | None = None
    if mark is not None:
        if not isinstance(mark, tuple | list) or len(mark) != 2:
            raise fail(
                "bound_surface: mark", "a pair (R, rho)", repr(mark), "Pass e.g. mark=(1.41, 0.45)."
            )
        point = (positive_number("R", mark[0]), positive_number("rho", mark[1]))
    if radii is None:
        radii = DEFAULT_RADII if point is None else [point[0] * k for k in AROUND_THE_DATA]
    if margins is None:
        margins = DEFAULT_MARGINS if point is None else [point[1] * k for k in AROUND_THE_DATA]
    radius_list = [positive_number("radii", r) for r in radii]
    margin_list = [positive_number("margins", m) for m in margins]
    if not radius_list or not margin_list:
        raise fail(
            "bound_surface",
            "at least one radius and one margin",
            f"{radius_list}, {margin_list}",
            "Pass e.g. radii=(1, 2) and margins=(0.5, 1).",
        )
    return point, radius_list, margin_list


def _draw_surface(
    ax: Any,
    r_span: tuple[float, float],
    m_span: tuple[float, float],
    point: tuple[float, float] | None,
) -> None:
    """log₁₀(R²/ρ²) over the spans of R and ρ (log axes), with the mark as a dot."""
    grid_R, grid_rho = np.meshgrid(np.geomspace(*r_span, 50), np.geomspace(*m_span, 50))
    ax.plot_surface(
        np.log10(grid_R),
        np.log10(grid_rho),
        np.log10(_novikoff(grid_R, grid_rho)),
        cmap="RdYlGn_r",
        alpha=0.85,
        edgecolor="none",
    )
    ax.set_xlabel("log₁₀ R (radius)")
    ax.set_ylabel("log₁₀ ρ (margin)")
    ax.set_zlabel("log₁₀(R²/ρ²)")
    ax.set_title("Novikoff's bound R²/ρ²")
    ax.view_init(elev=25, azim=-130)
    if point is not None:
        ax.scatter(
            [np.log10(point[0])],
            [np.log10(point[1])],
            [np.log10(_marked(point))],
            color="black",
            s=40,
            depthshade=False,
        )


def _draw_slices(
    ax: Axes,
    along: Float64Array,
    fixed: list[float],
    point: tuple[float, float] | None,
    along_margin: bool,
) -> None:
    """R²/ρ² against ρ, one line per fixed radius (``along_margin``), or against R, one line per
    fixed margin; the mark's own slice is the last, dotted, and the mark a dot."""
    symbol = "R" if along_margin else "ρ"
    for i, value in enumerate(fixed):
        marked = point is not None and i == len(fixed) - 1
        constant = np.full_like(along, value)
        ax.plot(
            along,
            _novikoff(constant, along) if along_margin else _novikoff(along, constant),
            lw=2,
            ls=":" if marked else "-",
            color="black" if marked else None,
            label=f"{symbol} = {_shown(value)}" + (" (the data)" if marked else ""),
        )
    if point is not None:
        bound = _marked(point)
        ax.plot(
            [point[1] if along_margin else point[0]],
            [bound],
            "o",
            color="black",
            label=f"the data: R²/ρ² = {_shown(bound)}",
        )
    ax.set_yscale("log")
    ax.set_xscale("log")
    ax.set_xlabel("margin ρ" if along_margin else "radius R")
    ax.set_ylabel("bound R²/ρ²")
    ax.set_title(
        "Bound vs. margin (fixed radius)" if along_margin else "Bound vs. radius (fixed margin)"
    )
    ax.legend()
    ax.grid(True, alpha=0.3)


def _marked(point: tuple[float, float]) -> float:
    """The bound at the mark (R, ρ)."""
    return float(_novikoff(np.array(point[0]), np.array(point[1])))


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
