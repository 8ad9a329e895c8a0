"""The physical floor of a sweep: a compiled streaming read of the bytes it must read.

A sweep reads every byte of X at least once (the rows of a dense matrix; ``data``, ``indices`` and
``indptr`` of a CSR matrix), so one pass that only reads them, summing them so the compiler cannot
drop the loads (reassociated: vector adds, as many in flight as the core allows), is as fast as a
sweep can be on one core. Every sweep row of ``make bench`` is reported against it.
"""

from __future__ import annotations

import functools

import numpy as np
from numba import njit

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


def read_dense_parallel(flat, chunks):
    """:func:`read_dense` of a C-ordered matrix's flat view, split into ``chunks`` contiguous parts
    read at once, one per thread: the kernel the package measures its thread choice with
    (:func:`perceptronlab.core.kernels.streaming_read`), so that both read alike."""
    from perceptronlab.core.kernels import streaming_read

    return streaming_read(flat, chunks)


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


#: the gather ceiling's matrix: the issue's sparse case (200,000 rows × 2^18 columns, 60 a row)
GATHER_ROWS, GATHER_COLUMNS, GATHER_ROW_NNZ = 200_000, 2**18, 60


@functools.lru_cache(maxsize=4)
def ceilings(scale: float = 1.0) -> dict:
    """This machine's ceilings, measured once per run (every floor row quotes the same figures) in
    interleaved rounds: a streaming read of a slice twice the L3 on one thread and on two (wall
    time, :func:`parallel_reads`), and a pass that only gathers w at CSR indices (uniformly random
    columns, :func:`gather_csr`; CPU time). Returns the seconds of each round and the sizes."""
    from benchmarks._machine import l3_bytes
    from benchmarks._timing import interleave

    slice_ = np.full(max(2**16, int(2 * l3_bytes() * scale) // 8), 1.0)
    nnz = max(10_000, int(GATHER_ROWS * scale)) * GATHER_ROW_NNZ
    rng = np.random.default_rng(0)
    indices = rng.integers(0, GATHER_COLUMNS, size=nnz).astype(np.int32)
    data = rng.standard_normal(nnz)
    w = rng.standard_normal(GATHER_COLUMNS)
    now = clock(cpu=True)
    gather_csr(indices, data, w)

    def gather() -> float:
        start = now()
        gather_csr(indices, data, w)
        return now() - start

    seconds = interleave(
        {
            # five reads in a row each: the threads woken once (after the settling sleep) per five
            "read, 1 thread": parallel_reads(slice_, 1, times=5),
            "read, 2 threads": parallel_reads(slice_, 2, times=5),
            "gather": gather,
        },
        settle=0.1,
    )
    return {"seconds": seconds, "read_bytes": slice_.nbytes, "gather_nnz": nnz}


def ceilings_text(scale: float = 1.0) -> str:
    """The ceilings of :func:`ceilings` in one phrase, for a floor row's detail and the machine line."""
    found = ceilings(scale)
    seconds = found["seconds"]
    one = found["read_bytes"] / float(np.median(seconds["read, 1 thread"])) / 1e9
    two = found["read_bytes"] / float(np.median(seconds["read, 2 threads"])) / 1e9
    gather = float(np.median(seconds["gather"])) / found["gather_nnz"] * 1e9
    return (
        f"this machine's ceilings in this run: streaming read {one:.1f} GB/s on one thread, "
        f"{two:.1f} GB/s on two ({two / one:.2f}×; {found['read_bytes'] / 2**20:.0f} MiB), "
        f"gathers of w {gather:.2f} ns a stored entry (2^18 weights, random columns)"
    )
