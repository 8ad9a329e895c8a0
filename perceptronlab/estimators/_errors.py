"""The estimators' errors: each is perceptronlab's and scikit-learn's at once, so that both kinds of
handler catch it, and scikit-learn's words for a refusal put before perceptronlab's.

Every bad input raises :class:`perceptronlab.InputError` (a ``ValueError``) whose message names the
thing, what was expected, what came, and how to fix it; bad constructor parameters raise an error
that is also scikit-learn's ``InvalidParameterError``, and using a model before ``fit`` raises an
error that is both perceptronlab's and scikit-learn's ``NotFittedError``.
"""

from __future__ import annotations

from sklearn.exceptions import NotFittedError as _SklearnNotFittedError
from sklearn.utils._param_validation import InvalidParameterError as _SklearnInvalidParameterError

from perceptronlab import exceptions as _exceptions
from perceptronlab.exceptions import InputError


# Raised here so that both perceptronlab's and scikit-learn's handlers catch them.
class InvalidParameterError(InputError, _SklearnInvalidParameterError):
    """A bad constructor parameter: InputError and scikit-learn's InvalidParameterError.

    Examples
    --------
    >>> from perceptronlab import Perceptron
    >>> from perceptronlab.estimators import InvalidParameterError
    >>> try:
    ...     Perceptron(order="sorted").fit([[1, 0], [0, 1]], [1, -1])
    ... except InvalidParameterError as error:
    ...     print(type(error).__mro__[1].__name__)
    InputError
    """


class NonNumericCellError(InputError, TypeError):
    """A cell of X that is not a number; also a TypeError, as NumPy raises it for such cells.

    Examples
    --------
    >>> from perceptronlab import Perceptron
    >>> from perceptronlab.estimators import NonNumericCellError
    >>> try:
    ...     Perceptron().fit([[1, {}], [0, 1]], [1, -1])  # a dict is no number
    ... except NonNumericCellError as error:
    ...     print(isinstance(error, TypeError))
    True
    """


class NotFittedError(_exceptions.NotFittedError, _SklearnNotFittedError):
    """Used before fit: perceptronlab's and scikit-learn's NotFittedError at once.

    Examples
    --------
    >>> import sklearn.exceptions
    >>> from perceptronlab import Perceptron
    >>> try:
    ...     Perceptron().predict([[1, 0]])
    ... except sklearn.exceptions.NotFittedError as error:
    ...     print(type(error).__module__, type(error).__name__)
    perceptronlab.estimators NotFittedError
    """


def in_sklearn_words(words: str, error: InputError) -> InputError:
    """``error`` with scikit-learn's message for the same refusal first (what its tests and its
    users match on), then perceptronlab's (what, expected, got, fix)."""
    return InputError(f"{words} {error}")
