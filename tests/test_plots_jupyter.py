"""The plots show themselves in Jupyter: a cell that returns a figure displays it as a PNG."""

from __future__ import annotations

import pickle

from IPython.core.formatters import PNGFormatter
from matplotlib.figure import Figure

from perceptronlab import datasets, perceptron, plots


def test_a_returned_figure_is_shown_as_png_without_pyplot():
    fig = plots.sweeps(perceptron(*datasets.exam_task()))
    assert isinstance(fig, Figure)
    png = PNGFormatter()(fig)  # what IPython's display does with a cell's result
    assert png is not None and png.startswith(b"\x89PNG\r\n\x1a\n")


def test_the_figures_pickle_like_matplotlibs():
    fig = plots.bound_surface()
    again = pickle.loads(pickle.dumps(fig))
    assert isinstance(again, Figure) and len(again.axes) == len(fig.axes)
