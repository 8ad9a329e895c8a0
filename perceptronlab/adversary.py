"""The Littlestone adversary (“Perceptron Algorithm for Halfspaces”): every round a mistake, every label realizable.

This module is the one public home of these names (the implementation is private).

>>> from sklearn.linear_model import Perceptron
>>> from perceptronlab.adversary import SklearnAdapter, littlestone
>>> littlestone(SklearnAdapter(Perceptron()), rounds=5).mistakes
5
"""

from perceptronlab.teach._adversary import (
    LittlestoneResult,
    ProofError,
    Round,
    SklearnAdapter,
    ThresholdAdversary,
    littlestone,
)

__all__ = [
    "LittlestoneResult",
    "ProofError",
    "Round",
    "SklearnAdapter",
    "ThresholdAdversary",
    "littlestone",
]
