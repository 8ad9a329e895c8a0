"""The perceptron's bounds: Novikoff, Freund–Schapire, the test-error bound and the sample size.

This module is the one public home of these names (the implementation is private).

>>> from perceptronlab import bounds
>>> bounds.novikoff(2, 0.5), bounds.sample_size(2, 0.5, 0.005)
(16.0, 3199)
"""

from perceptronlab.theory._bounds import (
    best_freund_schapire,
    consistent,
    freund_schapire,
    halving,
    hedge_regret,
    margin_perceptron,
    novikoff,
    novikoff_rb,
    online_gradient_descent,
    sample_size,
    slack,
    test_error,
    weighted_majority,
    winnow,
)

__all__ = [
    "best_freund_schapire",
    "freund_schapire",
    "margin_perceptron",
    "novikoff",
    "novikoff_rb",
    "sample_size",
    "slack",
    "test_error",
]
__all__ += [
    "consistent",
    "halving",
    "hedge_regret",
    "online_gradient_descent",
    "weighted_majority",
    "winnow",
]
