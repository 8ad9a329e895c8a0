"""Errors and warnings of perceptronlab.

Every error message says what was wrong, what was expected, what came, and how to fix it.
"""

from __future__ import annotations

import warnings

__all__ = [
    "PerceptronLabError",
    "InputError",
    "NotSeparableError",
    "WeightOverflowError",
    "NotFittedError",
    "PerceptronLabWarning",
    "NotConvergedWarning",  # noqa: F822 (made by __getattr__ on first use)
    "CycledWarning",  # noqa: F822
]

#: how to get finite weights back, said by every overflow message
SCALE_FIX = (
    "Scale the data (e.g. sklearn.preprocessing.StandardScaler or MaxAbsScaler) or lower eta."
)


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


# The warnings that mean "did not converge" are also scikit-learn's ConvergenceWarning, so the
# filters scikit-learn users already have catch them. Importing scikit-learn costs a second or
# more, so the two classes are made on first use (``exceptions.NotConvergedWarning``, or a warning
# being issued), not when perceptronlab is imported; each is made once, so it is one class.
_CONVERGENCE_WARNINGS = {
    "NotConvergedWarning": "The run ended at ``max_sweeps`` (or ``max_updates``) without a clean sweep, or, "
    "with a stopping rule (``tol``), at ``max_iter`` before the rule was met. Also "
    "scikit-learn's ``ConvergenceWarning``.",
    "CycledWarning": "A start-of-sweep weight vector repeated: proof that the cyclic run never converges. "
    "Also scikit-learn's ``ConvergenceWarning``.",
}


def __getattr__(name: str) -> type:
    if name not in _CONVERGENCE_WARNINGS:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    from sklearn.exceptions import ConvergenceWarning

    for made, doc in _CONVERGENCE_WARNINGS.items():
        globals()[made] = type(
            made,
            (PerceptronLabWarning, ConvergenceWarning),
            {"__doc__": doc, "__module__": __name__},
        )
    made_class: type = globals()[name]
    return made_class


def warn(kind: str, message: str, *, stacklevel: int = 1) -> None:
    """Issue the warning ``kind`` ("NotConvergedWarning" or "CycledWarning") from the caller's
    caller's frame (``stacklevel`` counts from the caller, as in :func:`warnings.warn`)."""
    warnings.warn(message, globals().get(kind) or __getattr__(kind), stacklevel=stacklevel + 1)


def fail(what: str, expected: str, got: object, fix: str) -> InputError:
    """The one message shape of a bad input: ``what: expected E, got G. Fix.``"""
    return InputError(f"{what}: expected {expected}, got {got}. {fix}")


def overflow_error(
    when: str, *, what: str = "weights", fix: str = SCALE_FIX
) -> WeightOverflowError:
    """The one overflow message: ``The weights overflowed during sweep 3: ... Scale the data ...``."""
    return WeightOverflowError(
        f"The {what} overflowed {when}: expected finite {what}, got inf or NaN. {fix}"
    )
