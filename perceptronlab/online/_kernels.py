"""The compiled loop of the Littlestone-dimension search: how many hypotheses of a version space
label each point with 1, for every point at once.

The version space and the points' columns are bit sets in 64-bit words; the loop ANDs them and counts
the bits (the SWAR popcount), with no temporary arrays: about five times NumPy's
``bitwise_count(words & space).sum(axis=1)``, which the tests hold it to.
"""

from __future__ import annotations

import numpy as np
from numba import njit

_M1 = np.uint64(0x5555555555555555)
_M2 = np.uint64(0x3333333333333333)
_M4 = np.uint64(0x0F0F0F0F0F0F0F0F)
_H01 = np.uint64(0x0101010101010101)


@njit(cache=True, nogil=True)
def column_counts(
    words: np.ndarray, space: np.ndarray
) -> np.ndarray:  # pragma: no cover - compiled
    """For each row i of ``words`` (a point's column, as words), the bits set in ``words[i] & space``."""
    out = np.empty(words.shape[0], np.int64)
    one, two, four, top = np.uint64(1), np.uint64(2), np.uint64(4), np.uint64(56)
    for i in range(words.shape[0]):
        total = 0
        for j in range(words.shape[1]):
            x = words[i, j] & space[j]
            x = x - ((x >> one) & _M1)
            x = (x & _M2) + ((x >> two) & _M2)
            x = (x + (x >> four)) & _M4
            total += np.int64((x * _H01) >> top)
        out[i] = total
    return out
