"""The theory of the perceptron, computed: geometry, separability, bounds, leave-one-out, analysis.

>>> from perceptronlab.theory import max_margin
>>> print(max_margin([[1, 0], [1, 1], [0, 1]], [1, -1, -1]).rho_squared)
1/5
"""

from perceptronlab.theory.analysis import Analysis, analyze
from perceptronlab.theory.geometry import (
    MaxMarginResult,
    distance,
    margin,
    margin_squared,
    max_margin,
    radius,
    radius_squared,
)
from perceptronlab.theory.loo import LooResult, loo_error
from perceptronlab.theory.separability import SeparabilityResult, separable

__all__ = [
    "Analysis",
    "LooResult",
    "MaxMarginResult",
    "SeparabilityResult",
    "analyze",
    "distance",
    "loo_error",
    "margin",
    "margin_squared",
    "max_margin",
    "radius",
    "radius_squared",
    "separable",
]
