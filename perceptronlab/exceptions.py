"""Errors and warnings of perceptronlab.

Every error message says what was wrong, what was expected, what came, and how to fix it.
"""

from __future__ import annotations


class PerceptronLabError(Exception):
    """Base class of every error raised by perceptronlab."""


class InputError(PerceptronLabError, ValueError):
    """Bad input at the boundary: data, labels, parameters or files."""


class NotSeparableError(PerceptronLabError, ValueError):
    """The data has no separating hyperplane, so the requested quantity does not exist."""


class WeightOverflowError(PerceptronLabError, FloatingPointError):
    """The weights left the floating-point range during training."""


class NotFittedError(PerceptronLabError, AttributeError):
    """A model was used before it was fitted."""


class PerceptronLabWarning(UserWarning):
    """Base class of every warning issued by perceptronlab."""


class NotConvergedWarning(PerceptronLabWarning):
    """The run ended at ``max_sweeps`` (or ``max_updates``) without a clean sweep."""


class CycledWarning(PerceptronLabWarning):
    """A start-of-sweep weight vector repeated: proof that the cyclic run never converges."""
