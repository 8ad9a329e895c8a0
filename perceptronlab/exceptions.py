"""Errors and warnings of perceptronlab.

Every error message says what was wrong, what was expected, what came, and how to fix it.
"""

from __future__ import annotations

__all__ = ["PerceptronLabError", "InputError", "NotSeparableError", "WeightOverflowError", "NotFittedError",
           "PerceptronLabWarning", "NotConvergedWarning", "CycledWarning"]

#: how to get finite weights back, said by every overflow message
SCALE_FIX = "Scale the data (e.g. sklearn.preprocessing.StandardScaler or MaxAbsScaler) or lower eta."


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


def fail(what: str, expected: str, got: object, fix: str) -> InputError:
    """The one message shape of a bad input: ``what: expected E, got G. Fix.``"""
    return InputError(f"{what}: expected {expected}, got {got}. {fix}")


def overflow_error(when: str, *, what: str = "weights", fix: str = SCALE_FIX) -> WeightOverflowError:
    """The one overflow message: ``The weights overflowed during sweep 3: ... Scale the data ...``."""
    return WeightOverflowError(f"The {what} overflowed {when}: expected finite {what}, got inf or NaN. {fix}")
