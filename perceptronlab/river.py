"""Deprecated alias of :mod:`perceptronlab.river_classifiers` (the name until 0.2.0).

``import perceptronlab.river`` still works, with a :class:`DeprecationWarning` naming the new
module; :class:`Perceptron` and :class:`AveragedPerceptron` are the very classes of
:mod:`perceptronlab.river_classifiers`. Removed in 0.5.0.
"""

import warnings

from perceptronlab.river_classifiers import AveragedPerceptron, Perceptron

__all__ = ["Perceptron", "AveragedPerceptron"]

warnings.warn(
    "perceptronlab.river was renamed perceptronlab.river_classifiers in 0.3.0; "
    "import perceptronlab.river_classifiers instead (the old name goes in 0.5.0)",
    DeprecationWarning,
    stacklevel=2,
)
