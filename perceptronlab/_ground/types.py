"""The type aliases of the public API, written once (for the type checker: imported under
``typing.TYPE_CHECKING`` only, so this module, and SciPy with it, is never loaded at run time).

The choices (orders, checks, kernels, formats) are ``Literal`` types beside their validation tables
(``_validation.ORDERS`` is ``typing.get_args(Order)``), so the type and the check are one rule.
"""

from __future__ import annotations

from collections.abc import Sequence
from decimal import Decimal
from fractions import Fraction
from typing import Any, TypeAlias

import numpy as np
from numpy.typing import ArrayLike, NDArray
from scipy.sparse import sparray, spmatrix

__all__ = [
    "ArrayLike",
    "ExactRows",
    "MatrixLike",
    "VectorLike",
    "Float64Array",
    "Int64Array",
    "WeightArray",
    "RealLike",
    "RandomState",
]

#: rows of exact numbers: ints, Fractions, Decimals, floats (taken exactly) or strings like "1/3"
ExactRows: TypeAlias = Sequence[Sequence[Fraction | Decimal | float | str]]
#: X: anything NumPy reads as a 2-D array of numbers, rows of exact numbers, or a SciPy sparse
#: matrix (read as CSR)
MatrixLike: TypeAlias = ArrayLike | ExactRows | spmatrix | sparray
#: a vector (w): anything NumPy reads as a 1-D array of numbers, or exact numbers as in ExactRows
VectorLike: TypeAlias = ArrayLike | Sequence[Fraction | Decimal | float | str]
#: arrays whose dtype is fixed
Float64Array: TypeAlias = NDArray[np.float64]
Int64Array: TypeAlias = NDArray[np.int64]
#: weights: float64 (float32 kept for float32 data), or an object array of Fractions in exact mode
WeightArray: TypeAlias = NDArray[Any]
#: a number parameter (eta, margin): ints, floats, Fractions and Decimals are taken as they are
RealLike: TypeAlias = float | Fraction | Decimal
#: random_state of the estimators: None, a seed, or a NumPy RandomState to draw a seed from
RandomState: TypeAlias = int | np.random.RandomState | None
