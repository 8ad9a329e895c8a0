"""The online-learning chapter's figures: a shattered mistake tree, the Littlestone dimension on finer
grids, and each learner's mistakes against its bound.

Like every figure of :mod:`perceptronlab.plots`, each is a matplotlib Figure built without pyplot;
matplotlib is the ``plots`` extra.

Examples
--------
>>> from perceptronlab.online import FiniteClass, littlestone_dimension
>>> H = FiniteClass.thresholds(7)
>>> fig = mistake_tree(littlestone_dimension(H), H)
>>> [text.get_text() for text in fig.axes[0].texts if "/" in text.get_text()][:3]
['1/2', '1/4', '1/8']
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from perceptronlab._ground.validation import fail
from perceptronlab.plots._common import new_figure

if TYPE_CHECKING:
    from matplotlib.figure import Figure

    from perceptronlab.online import FiniteClass, LittlestoneDimension, MistakeTree

__all__ = ["ldim_growth", "mistake_tree", "mistakes_against_bound"]

#: the deepest tree drawn (2^depth leaves)
MAX_DRAWN_DEPTH = 7


def _point_text(H: FiniteClass | None, point: int) -> str:
    if H is None:
        return f"x{point}"
    value = H.points[point]
    if isinstance(value, tuple):
        return "(" + ", ".join(str(c) for c in value) + ")"
    return str(value)


def mistake_tree(result: LittlestoneDimension, H: FiniteClass | None = None) -> Figure:
    """Draw the shattered tree of a Littlestone dimension: each node the point asked, each edge a label.

    Parameters
    ----------
    result : from :func:`perceptronlab.online.littlestone_dimension`.
    H : the class, to name the points by ``H.points`` (else x0, x1, …).
    """
    depth = result.value
    if depth > MAX_DRAWN_DEPTH:
        raise fail(
            "result",
            f"a tree of depth at most {MAX_DRAWN_DEPTH} to draw",
            f"depth {depth}",
            "Draw the tree of a smaller class, or read it with result.tree.levels().",
        )
    fig = new_figure(max(5.0, 1.0 * 2 ** max(depth - 1, 0)), 1.2 + 1.1 * max(depth, 1))
    ax = fig.subplots()
    ax.set_axis_off()

    def draw(node: MistakeTree | None, x: float, y: float, width: float) -> None:
        if node is None or node.point is None:
            return
        ax.text(
            x,
            y,
            _point_text(H, node.point),
            ha="center",
            va="center",
            bbox={"boxstyle": "round", "facecolor": "white", "edgecolor": "0.3"},
        )
        for label, child, dx in ((0, node.zero, -width / 2), (1, node.one, width / 2)):
            end = (x + dx, y - 1)
            ax.plot([x, end[0]], [y, end[1]], color="0.6", zorder=0)
            ax.text(
                x + dx / 2, y - 0.5, str(label), ha="center", va="center", fontsize=8, color="C3"
            )
            draw(child, end[0], end[1], width / 2)

    draw(result.tree, 0.0, 0.0, 2.0 ** max(depth - 1, 0))
    ax.set_xlim(-(2.0 ** max(depth - 1, 0)) * 1.1, 2.0 ** max(depth - 1, 0) * 1.1)
    ax.set_ylim(-depth - 0.3, 0.5)
    ax.set_title(f"A mistake tree of depth {depth} shattered by the class (Ldim = {depth})")
    return fig


def ldim_growth(series: Mapping[str, Sequence[tuple[int, int]]]) -> Figure:
    """The Littlestone dimension against the number of points, one line per class.

    Parameters
    ----------
    series : class name → [(points, Ldim), …].
    """
    fig = new_figure(6.5, 4.0)
    ax = fig.subplots()
    for name, pairs in series.items():
        ax.plot([p for p, _ in pairs], [value for _, value in pairs], "o-", label=name)
    ax.set_xscale("log", base=2)
    ax.set_xlabel("points on the grid")
    ax.set_ylabel("Littlestone dimension")
    ax.set_title("Finer grids, deeper trees: no finite mistake bound in the limit")
    ax.grid(True, alpha=0.3)
    ax.legend()
    return fig


def mistakes_against_bound(table: Sequence[Mapping[str, Any]]) -> Figure:
    """Each learner's largest number of mistakes (bars) against its bound (black ticks), class by class.

    Parameters
    ----------
    table : rows with ``class``, ``learner``, ``mistakes`` and ``bound`` (the experiment
        :func:`perceptronlab.studies.online.mistakes_against_bounds` makes them); the largest
        mistakes of each (class, learner) are drawn.
    """
    worst: dict[tuple[str, str], tuple[float, float]] = {}
    for row in table:
        key = (str(row["class"]), str(row["learner"]))
        mistakes, bound = float(row["mistakes"]), float(row["bound"])
        old = worst.get(key, (mistakes, bound))
        worst[key] = (max(mistakes, old[0]), max(bound, old[1]))
    classes = list(dict.fromkeys(key[0] for key in worst))
    learners = list(dict.fromkeys(key[1] for key in worst))
    fig = new_figure(max(7.0, 1.6 * len(classes) + 2), 4.5)
    ax = fig.subplots()
    width = 0.8 / max(len(learners), 1)
    for j, learner in enumerate(learners):
        xs = [
            i + (j - (len(learners) - 1) / 2) * width
            for i, name in enumerate(classes)
            if (name, learner) in worst
        ]
        values = [worst[(name, learner)] for name in classes if (name, learner) in worst]
        ax.bar(xs, [m for m, _ in values], width * 0.9, label=learner, color=f"C{j}")
        ax.scatter(xs, [b for _, b in values], marker="_", s=300, color="black", zorder=3)
    ax.set_yscale("symlog", linthresh=10)
    ax.set_xticks(range(len(classes)), classes)
    ax.set_ylabel("mistakes (bars) and bound (black)")
    ax.set_title("Mistakes against the bound, for every learner on every class")
    ax.legend(fontsize=8, ncols=2)
    return fig
