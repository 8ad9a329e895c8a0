"""How many threads the compiled kernels use: the one place that pins Numba's thread count."""

from __future__ import annotations


def resolve_n_jobs(n_jobs: int | None) -> int:
    """None or -1: every core Numba may use; otherwise a positive count, capped at that."""
    import numba

    available = numba.config.NUMBA_NUM_THREADS
    if n_jobs is None or n_jobs == -1:
        return available
    return max(1, min(int(n_jobs), available))


class numba_threads:  # noqa: N801 - used as a function: ``with numba_threads(1): ...``
    """Run Numba's parallel kernels on ``n`` threads inside the block, then restore the count.

    >>> with numba_threads(1):
    ...     pass
    """

    def __init__(self, n: int):
        self.n = n

    def __enter__(self):
        import numba

        self.before = numba.get_num_threads()
        numba.set_num_threads(self.n)
        return self

    def __exit__(self, *exc):
        import numba

        numba.set_num_threads(self.before)
