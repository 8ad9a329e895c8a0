"""scikit-learn estimators over the one engine, and models loaded back from files.

- :class:`Perceptron`, :class:`PocketPerceptron`: :func:`perceptronlab.perceptron` and
  :func:`perceptronlab.pocket` as classifiers (one-vs-rest for more classes).
- :class:`OnlinePerceptron`: the online protocol, one example (vector or dict) or a stream at a time.
- :class:`AveragedPerceptron`, :class:`VotedPerceptron`, :class:`KernelPerceptron`,
  :class:`MulticlassPerceptron`: the family.
- :func:`load_model`, :class:`LoadedModel`: models read back from the JSON files of
  :func:`perceptronlab.save_model`.

This package is the one public home of these names (``perceptronlab`` re-exports them); the
implementation lives in its private modules.
"""

from perceptronlab.estimators._errors import (
    InvalidParameterError,
    NonNumericCellError,
    NotFittedError,
)
from perceptronlab.estimators._family import (
    AveragedPerceptron,
    KernelPerceptron,
    MulticlassPerceptron,
    VotedPerceptron,
)
from perceptronlab.estimators._linear import Perceptron, PocketPerceptron
from perceptronlab.estimators._loaded import LoadedModel, load_model
from perceptronlab.estimators._online import OnlinePerceptron, Replay

__all__ = [
    "AveragedPerceptron",
    "InvalidParameterError",
    "KernelPerceptron",
    "LoadedModel",
    "MulticlassPerceptron",
    "NonNumericCellError",
    "NotFittedError",
    "OnlinePerceptron",
    "Perceptron",
    "PocketPerceptron",
    "Replay",
    "VotedPerceptron",
    "load_model",
]

# The public home, for reprs, pickles and model files (``"estimator": "perceptronlab.estimators.Perceptron"``).
for _name in __all__:
    _obj = globals()[_name]
    if isinstance(_obj, type):
        _obj.__module__ = __name__
del _name, _obj
