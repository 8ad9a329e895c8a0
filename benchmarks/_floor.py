"""The physical floor of a sweep: a compiled streaming read of the bytes it must read.

A sweep reads every byte of X at least once (the rows of a dense matrix; ``data``, ``indices`` and
``indptr`` of a CSR matrix), so one pass that only reads them, summing them so the compiler cannot
drop the loads (reassociated: vector adds, as many in flight as the core allows), is as fast as a
sweep can be on one core. Every sweep row of ``make bench`` is reported against it.
"""

from __future__ import annotations

import numpy as np
from numba import njit, prange

from benchmarks._timing import Case, clock


@njit(cache=True, nogil=True, fastmath={"reassoc", "contract"})
def read_dense(X):
    """Σ of every entry of a C-ordered matrix (float32 entries widened), in any order."""
    flat = X.reshape(-1)
    s = 0.0
    for k in range(flat.shape[0]):
        s += np.float64(flat[k])
    return s


@njit(cache=True, nogil=True, fastmath={"reassoc", "contract"})
def read_csr(indptr, indices, data):
    """Σ of the CSR arrays' entries (the bytes a CSR sweep must read), in any order."""
    s = 0.0
    for k in range(data.shape[0]):
        s += np.float64(data[k])
    t = 0
    for k in range(indices.shape[0]):
        t += indices[k]
    for k in range(indptr.shape[0]):
        t += indptr[k]
    return s + t


@njit(cache=True, nogil=True, fastmath={"reassoc", "contract"})
def gather_csr(indices, data, w):
    """Σ w[indices[k]]·data[k] over every stored entry, in any order: the CSR arrays read once and
    the weights gathered, as every sweep and SpMV must (the floor where the gathers, not the
    stream, are the cost)."""
    s = 0.0
    for k in range(data.shape[0]):
        s += w[np.uint64(indices[k])] * np.float64(data[k])
    return s


@njit(cache=True, nogil=True, fastmath={"reassoc", "contract"})
def read_rows(X, order):
    """Σ of every entry of a C-ordered matrix, its rows read in ``order`` (a shuffled sweep's
    floor: every row once, in the permutation's order), each row's entries in any order."""
    s = 0.0
    for t in range(order.shape[0]):
        row = X[order[t]]
        for j in range(row.shape[0]):
            s += np.float64(row[j])
    return s


@njit(cache=True, nogil=True, fastmath={"reassoc", "contract"})
def _read_flat(part):
    """Σ of a 1-D array (float32 widened), reassociated: vector adds, as in :func:`read_dense`
    (indexed from 0, so that the compiler knows no index is negative and vectorizes the loop)."""
    s = 0.0
    for k in range(part.shape[0]):
        s += np.float64(part[k])
    return s


@njit(cache=True, nogil=True, parallel=True)
def read_dense_parallel(flat, chunks):
    """:func:`read_dense` of a C-ordered matrix's flat view, split into ``chunks`` contiguous parts
    read at once, one per thread (each part summed by :func:`_read_flat`, a separate function so
    that its loop is vectorized as one thread's read is)."""
    n = flat.shape[0]
    parts = np.zeros(chunks)
    for c in prange(chunks):
        parts[c] = _read_flat(flat[c * n // chunks : (c + 1) * n // chunks])
    return parts.sum()


def gathers(X, times: int = 5) -> Case:
    """Seconds per :func:`gather_csr` pass over a CSR X with a random w; CPU time on one core."""
    now = clock(cpu=True)
    indices, data = X.indices, X.data
    w = np.random.default_rng(0).standard_normal(X.shape[1])
    gather_csr(indices, data, w)

    def case() -> float:
        start = now()
        for _ in range(times):
            gather_csr(indices, data, w)
        return (now() - start) / times

    return case


def parallel_reads(X, threads: int, times: int = 1) -> Case:
    """Seconds (wall) per streaming read of a dense X on ``threads`` threads."""
    from perceptronlab.core.threads import numba_threads

    flat = np.ascontiguousarray(X).reshape(-1)
    now = clock(cpu=False)
    with numba_threads(threads):
        read_dense_parallel(flat, threads)

    def case() -> float:
        with numba_threads(threads):
            start = now()
            for _ in range(times):
                read_dense_parallel(flat, threads)
            return (now() - start) / times

    return case


def streaming_reads(X, times: int = 5) -> Case:
    """Seconds per streaming read of X (dense or CSR) over ``times`` reads in a row; CPU time on one core."""
    now = clock(cpu=True)
    if hasattr(X, "indptr"):
        arrays = (X.indptr, X.indices, X.data)
        read_csr(*arrays)  # compiled outside the timer

        def case() -> float:
            start = now()
            for _ in range(times):
                read_csr(*arrays)
            return (now() - start) / times
    else:
        X = np.ascontiguousarray(X)
        read_dense(X)

        def case() -> float:
            start = now()
            for _ in range(times):
                read_dense(X)
            return (now() - start) / times

    return case


def read_bytes(X) -> int:
    """The bytes a streaming read of X reads."""
    if hasattr(X, "indptr"):
        return int(X.indptr.nbytes + X.indices.nbytes + X.data.nbytes)
    return int(X.nbytes)
