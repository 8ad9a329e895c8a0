"""Online learning on finite classes: the chapter of Shalev-Shwartz and Ben-David's *Understanding
Machine Learning* that leads to the perceptron, computed.

- :class:`FiniteClass`: a finite class as a 0/1 matrix, with the chapter's classes (thresholds,
  intervals, halfspaces on given points, monotone disjunctions);
- :func:`littlestone_dimension` (with its shattered tree) and :func:`vc_dimension` (with the
  shattered points), exact;
- the learners :class:`Consistent`, :class:`Halving`, :class:`SOA`, :class:`WeightedMajority`,
  :class:`Hedge` and :class:`Winnow`, with the online protocol of ``OnlinePerceptron``;
- the adversaries :class:`LdimAdversary`, :class:`ContraryAdversary`, :class:`SequenceAdversary`
  and :func:`play`.

Their bounds are in :mod:`perceptronlab.bounds`.

>>> from perceptronlab.online import FiniteClass, Halving, LdimAdversary, littlestone_dimension, play
>>> H = FiniteClass.thresholds(15)
>>> littlestone_dimension(H).value, play(Halving(H), LdimAdversary(H)).mistakes
(4, 4)
"""

from perceptronlab.online.classes import FiniteClass
from perceptronlab.online.dimension import (
    LittlestoneDimension,
    MistakeTree,
    VCDimension,
    littlestone_dimension,
    vc_dimension,
)
from perceptronlab.online.games import (
    Adversary,
    ContraryAdversary,
    GameResult,
    LdimAdversary,
    SequenceAdversary,
    play,
)
from perceptronlab.online.learners import SOA, Consistent, Halving, Hedge, WeightedMajority, Winnow

__all__ = [
    "SOA",
    "Adversary",
    "Consistent",
    "ContraryAdversary",
    "FiniteClass",
    "GameResult",
    "Halving",
    "Hedge",
    "LdimAdversary",
    "LittlestoneDimension",
    "MistakeTree",
    "SequenceAdversary",
    "VCDimension",
    "WeightedMajority",
    "Winnow",
    "littlestone_dimension",
    "play",
    "vc_dimension",
]
