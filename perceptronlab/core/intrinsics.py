"""The compiled kernels' cache hints, offered to the family's loops (defined beside the core's kernels).

``prefetch(array, index)`` hints the CPU to load the cache line of ``array[index]``;
``prefetch_row(flat, row, d, step)`` every line of a row of a C-ordered matrix. Neither changes a
result.
"""

from perceptronlab.core.kernels import _prefetch as prefetch
from perceptronlab.core.kernels import _prefetch_row as prefetch_row

__all__ = ["prefetch", "prefetch_row"]
