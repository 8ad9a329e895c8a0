"""The Figure that :mod:`perceptronlab.plots` returns: matplotlib's, shown as a PNG in Jupyter.

The plots are built without pyplot (no global state, headless by construction), so IPython's
matplotlib support, which hooks pyplot, does not know them; ``_repr_png_`` lets a notebook show a
figure that a cell returns, with or without ``%matplotlib inline``. Imported only when a plot is
drawn (matplotlib is the ``plots`` extra).
"""

from __future__ import annotations

import io

from matplotlib.figure import Figure


class PlotFigure(Figure):
    """A :class:`matplotlib.figure.Figure` that IPython displays as a PNG."""

    def _repr_png_(self) -> bytes:
        buffer = io.BytesIO()
        self.savefig(buffer, format="png")
        return buffer.getvalue()
