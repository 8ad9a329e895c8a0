"""Kernel variants chosen by measuring them on this machine, once, the result cached beside Numba's.

Where two compiled loops give the same bits, which one is faster depends on the CPU (how its
caches, prefetchers and gathers behave), so the choice is measured here rather than set by a
constant tuned on one CPU: the first time a choice is needed, each variant runs on a small
synthetic problem of the kind it is meant for (a few tens of milliseconds), and the faster one is
kept in ``kernel-choices-<key>.json`` in the folder where Numba caches the kernels (``key`` names
the CPU, the Numba version and this package's version, so a new machine or a new release measures
again). :func:`perceptronlab.show_config` prints what was chosen.

Choices so far:

- ``csr_loop``: which CSR loop runs on matrices whose gathers miss the inner caches
  (:func:`perceptronlab.core.kernels.csr_gathers_miss`): row by row, row by row with the weights of
  the rows ahead prefetched ("prefetched"), or two rows at a time, prefetching ("paired"); a variant
  must beat the row-by-row loop by 3 %, in two measurements one after the other, to be chosen. On
  other matrices the row-by-row loop is always taken.
"""

from __future__ import annotations

import functools
import hashlib
import json
import time
from pathlib import Path
from typing import Any

import numpy as np

from perceptronlab._ground.files import atomic_write
from perceptronlab.core import kernels
from perceptronlab.core.cpu import cpu_text
from perceptronlab.exceptions import InputError

__all__ = ["choices", "csr_loop", "cache_file", "measure"]

#: a variant must be this much faster than the simpler one to be chosen
MARGIN = 0.97
_ROUNDS = 7


def cache_file() -> Path:
    """Where the measured choices are kept: Numba's cache folder for the kernels (``NUMBA_CACHE_DIR``
    when set, else the ``__pycache__`` beside :mod:`perceptronlab.core.kernels`), one file per CPU,
    Numba version and package version."""
    import numba

    from perceptronlab import __version__

    key = hashlib.sha256(f"{cpu_text()}|{numba.__version__}|{__version__}".encode()).hexdigest()[
        :16
    ]
    folder = (
        Path(numba.config.CACHE_DIR)
        if numba.config.CACHE_DIR
        else Path(__file__).parent / "__pycache__"
    )
    return folder / f"kernel-choices-{key}.json"


def _paired_problem(n: int = 8192, nnz: int = 48, d: int = 2**19, seed: int = 0):
    """Rows whose gathers miss the inner caches (w of 4 MiB, evenly spread columns), and a w that
    classifies them all (the sweep only scores, as a late sweep does)."""
    rng = np.random.default_rng(seed)
    indices = np.sort(rng.integers(0, d, size=(n, nnz)), axis=1).astype(np.int32).ravel()
    data = rng.standard_normal(n * nnz)
    indptr = np.arange(0, n * nnz + 1, nnz, dtype=np.int32)
    w = rng.standard_normal(d)
    scores = np.add.reduceat(w[indices] * data, indptr[:-1])
    y = np.where(scores > 0, 1.0, -1.0)
    return indptr, indices, data, y, w


def _time_loops() -> dict[str, float]:
    """The best of :data:`_ROUNDS` interleaved rounds of each CSR loop on :func:`_paired_problem`."""
    indptr, indices, data, y, w = _paired_problem()
    n = indptr.shape[0] - 1
    idx, norms, no_order = np.empty(n, dtype=np.int64), np.empty(n), np.empty(0, dtype=np.int64)
    best = {name: np.inf for name in kernels.CSR_LOOPS}
    for round_ in range(_ROUNDS + 1):  # the first round compiles (or loads) and warms up
        # each round in another order, so that no variant always runs right after the same one
        names = kernels.CSR_LOOPS[round_ % 3 :] + kernels.CSR_LOOPS[: round_ % 3]
        for name in names:
            weights = w.copy()
            start = time.perf_counter()
            kernels.sweep_csr(
                indptr,
                indices,
                data,
                y,
                no_order,
                False,
                (weights, 0.0, 1.0, 0.0, False, idx, norms),
                name,
            )
            if round_:
                best[name] = min(best[name], time.perf_counter() - start)
    return best


def _winner(best: dict[str, float]) -> str:
    fastest = min(best, key=best.__getitem__)
    return fastest if best[fastest] < MARGIN * best["row by row"] else "row by row"


def measure() -> dict[str, Any]:
    """Time the variants now (no cache): the choices, and the milliseconds each variant took.

    A loop other than row by row is chosen only when a second, independent measurement agrees: a
    moment of other work on the machine during the first must not fix the choice for good."""
    best = _time_loops()
    chosen = _winner(best)
    found: dict[str, Any] = {}
    if chosen != "row by row":
        again = _time_loops()
        found["confirmed_ms"] = {f"CSR {name}": round(t * 1e3, 3) for name, t in again.items()}
        chosen = chosen if _winner(again) == chosen else "row by row"
    return {
        "csr_loop": chosen,
        "measured_ms": {f"CSR {name}": round(seconds * 1e3, 3) for name, seconds in best.items()},
        **found,
    }


@functools.lru_cache(maxsize=1)
def choices() -> dict[str, Any]:
    """The choices for this machine: read from :func:`cache_file`, or measured now and written there
    (kept in memory only when the folder is not writable)."""
    path = cache_file()
    try:
        found = json.loads(path.read_text(encoding="utf-8"))
        if isinstance(found, dict) and found.get("csr_loop") in kernels.CSR_LOOPS:
            return {
                **found,
                "source": f"measured earlier on this machine ({path.name}, beside Numba's cache)",
            }
    except (OSError, ValueError):
        pass
    measured = measure()
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        atomic_write(path, json.dumps(measured))
        source = f"measured now, kept in {path.name} beside Numba's cache"
    except (OSError, InputError):
        source = "measured now (the cache folder is not writable: kept for this process)"
    return {**measured, "source": source}


def csr_loop(indptr, indices, d: int) -> str:
    """The CSR loop a sweep takes for this matrix (a name of
    :data:`perceptronlab.core.kernels.CSR_LOOPS`): the one measured fastest on this machine where
    the matrix's gathers miss the inner caches, else row by row."""
    if kernels.csr_gathers_miss(indptr, indices, d):
        return str(choices()["csr_loop"])
    return "row by row"
