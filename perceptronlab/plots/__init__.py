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

# one module per figure; this package re-exports each figure and the names others use
from perceptronlab.plots._bound_surface import AROUND_THE_DATA as AROUND_THE_DATA
from perceptronlab.plots._bound_surface import DEFAULT_MARGINS as DEFAULT_MARGINS
from perceptronlab.plots._bound_surface import DEFAULT_RADII as DEFAULT_RADII
from perceptronlab.plots._bound_surface import bound_surface as bound_surface
from perceptronlab.plots._bound_vs_actual import Tabled as Tabled
from perceptronlab.plots._bound_vs_actual import bound_vs_actual as bound_vs_actual
from perceptronlab.plots._common import BOUND_COLOR as BOUND_COLOR
from perceptronlab.plots._common import NEGATIVE_COLOR as NEGATIVE_COLOR
from perceptronlab.plots._common import POSITIVE_COLOR as POSITIVE_COLOR
from perceptronlab.plots._common import new_figure as new_figure
from perceptronlab.plots._decision_regions import Fitted as Fitted
from perceptronlab.plots._decision_regions import decision_regions as decision_regions
from perceptronlab.plots._squeeze import squeeze as squeeze
from perceptronlab.plots._sweeps import AGGREGATE_AFTER as AGGREGATE_AFTER
from perceptronlab.plots._sweeps import AGGREGATE_BLOCKS as AGGREGATE_BLOCKS
from perceptronlab.plots._sweeps import sweeps as sweeps

__all__ = ["bound_surface", "bound_vs_actual", "decision_regions", "squeeze", "sweeps"]
