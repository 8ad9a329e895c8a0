"""The perceptron's bounds (public face of :mod:`perceptronlab.theory.bounds`).

>>> from perceptronlab import bounds
>>> bounds.novikoff(2, 0.5), bounds.sample_size(2, 0.5, 0.005)
(16.0, 3199)
"""

from perceptronlab.theory.bounds import (
    best_freund_schapire,
    freund_schapire,
    margin_perceptron,
    novikoff,
    novikoff_rb,
    sample_size,
    slack,
    test_error,
)

__all__ = ["best_freund_schapire", "freund_schapire", "margin_perceptron", "novikoff", "novikoff_rb", "sample_size",
           "slack", "test_error"]
