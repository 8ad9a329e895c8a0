"""The Littlestone adversary (public face of :mod:`perceptronlab.teach.adversary`).

>>> from sklearn.linear_model import Perceptron
>>> from perceptronlab.adversary import SklearnAdapter, littlestone
>>> littlestone(SklearnAdapter(Perceptron()), rounds=5).mistakes
5
"""

from perceptronlab.teach.adversary import (
    LittlestoneResult,
    ProofError,
    Round,
    SklearnAdapter,
    littlestone,
)

__all__ = ["LittlestoneResult", "ProofError", "Round", "SklearnAdapter", "littlestone"]
