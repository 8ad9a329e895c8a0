"""This machine's ceilings, measured in the same run as every floor row that quotes them (issue 37.5).

What no sweep can beat here: a streaming read of data beyond the L3 on one thread (the floor of a
one-core dense sweep), the same read on two threads (what a second core can add to any pass over
memory) and a pass that only gathers w at CSR indices (the floor of a sparse sweep whose gathers
miss the inner caches). Reported, without targets: they are the yardsticks of the other rows.
"""

from __future__ import annotations

from benchmarks._floor import ceilings
from benchmarks._timing import Stat, result_row


def bench_machine_ceilings(scale: float = 1.0):
    found = ceilings(scale)
    seconds, size = found["seconds"], found["read_bytes"]
    nnz = found["gather_nnz"]
    where = f"a slice of {size / 2**20:.0f} MiB (twice the L3 at full scale), float64, read five times a round"
    return [
        result_row(
            "machine ceiling: streaming read on one thread (GB/s)",
            Stat.of(size / seconds["read, 1 thread"] / 1e9),
            None,
            f"{where}; wall time",
        ),
        result_row(
            "machine ceiling: streaming read on two threads / on one (speed-up)",
            Stat.ratio(seconds["read, 1 thread"], seconds["read, 2 threads"]),
            None,
            f"{where}; what a second core can add to any pass over memory; wall time",
        ),
        result_row(
            "machine ceiling: gathers of w at CSR indices (ns a stored entry)",
            Stat.of(seconds["gather"] / nnz * 1e9),
            None,
            f"Σ w[indices]·data over {nnz:,} entries in uniformly random columns of 2^18 weights "
            "(2 MiB), reassociated: the floor of a sparse sweep or SpMV where the gathers are the "
            "cost; one thread, CPU time",
        ),
    ]
