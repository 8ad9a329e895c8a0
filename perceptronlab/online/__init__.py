"""Online learning on finite classes: the Littlestone and VC dimensions, the chapter's learners, games."""

from perceptronlab.online.classes import FiniteClass
from perceptronlab.online.dimension import (
    LittlestoneDimension,
    MistakeTree,
    VCDimension,
    littlestone_dimension,
    vc_dimension,
)

__all__ = ["FiniteClass", "LittlestoneDimension", "MistakeTree", "VCDimension", "littlestone_dimension",
           "vc_dimension"]
