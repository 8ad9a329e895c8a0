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
- ``dense_sweep``: which dense sweep runs on matrices larger than the L3 (:data:`kernels.DENSE_SWEEPS
  <perceptronlab.core.kernels.DENSE_SWEEPS>`: eight or four rows at a time in SIMD lanes, with or
  without the rows ahead prefetched, or one row at a time), timed on a matrix twice the L3 (at most
  1 GiB, and a quarter of the memory available) in two sweeps: the first from w = 0, where updates
  interrupt the groups, and a late one with few updates. The fastest in the sum of both is chosen
  where it beats the loop tuned first (eight rows, prefetched) by 3 %, in two measurements one after
  the other (:func:`dense_sweep`). On matrices in the L3 that loop is always taken.
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
from perceptronlab._ground.memory import available_memory
from perceptronlab.core import kernels
from perceptronlab.core.cpu import cpu_text, l3_cache
from perceptronlab.exceptions import InputError

__all__ = ["choices", "csr_loop", "dense_sweep", "cache_file", "compiled_for", "measure"]

#: a variant must be this much faster than the simpler one to be chosen
MARGIN = 0.97
_ROUNDS = 7


def cache_file() -> Path:
    """Where the measured choices are kept: Numba's cache folder for the kernels (``NUMBA_CACHE_DIR``
    when set, else the ``__pycache__`` beside :mod:`perceptronlab.core.kernels`), one file per CPU,
    Numba version and package version."""
    import numba

    from perceptronlab import __version__

    key = hashlib.sha256(
        f"{cpu_text()}|{numba.__version__}|{__version__}|{compiled_for()}".encode()
    ).hexdigest()[:16]
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
    """Time the variants now (no cache): the choices, and the milliseconds each variant took (the
    dense sweeps': :func:`measure_dense`).

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
        **measure_dense(),
    }


@functools.lru_cache(maxsize=1)
def choices() -> dict[str, Any]:
    """The choices for this machine: read from :func:`cache_file`, or measured now and written there
    (kept in memory only when the folder is not writable)."""
    path = cache_file()
    try:
        found = json.loads(path.read_text(encoding="utf-8"))
        if (
            isinstance(found, dict)
            and found.get("csr_loop") in kernels.CSR_LOOPS
            and _dense_known(found)
        ):
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


# ------------------------------------------------------------------ the dense sweep

#: where nothing else says: the matrix the dense sweeps are timed on, as a multiple of the L3
DENSE_L3_MULTIPLE = 2
DENSE_MIN_BYTES = 64 * 2**20
DENSE_MAX_BYTES = 2**30
_DENSE_ROUNDS = 3
DENSE_BLOCK_BYTES = 32 * 2**20


def compiled_for() -> str:
    """The CPU the kernels are compiled for: ``host``, or what ``NUMBA_CPU_NAME`` (and
    ``NUMBA_CPU_FEATURES``) name, as when testing the build for a CPU without AVX-512."""
    import numba

    name = numba.config.CPU_NAME
    if not name:
        return "host"
    features = numba.config.CPU_FEATURES
    return f"{name} (NUMBA_CPU_NAME" + (f", features {features!r})" if features else ")")


def _dense_bytes() -> int:
    """The size of the matrix the dense sweeps are timed on: :data:`DENSE_L3_MULTIPLE` L3s, at
    least :data:`DENSE_MIN_BYTES`, at most :data:`DENSE_MAX_BYTES` and a quarter of the memory
    available."""
    wanted = max(DENSE_L3_MULTIPLE * l3_cache()[0], DENSE_MIN_BYTES)
    return int(min(wanted, DENSE_MAX_BYTES, available_memory() // 4))


def _dense_problem(nbytes: int | None = None, d: int = 100, seed: int = 0):
    """A float64 matrix of ``nbytes`` (:func:`_dense_bytes`), labels that a w_true separates but
    for one in 2,000 flipped, and w_true: from w = 0 the first sweep updates often, from w_true a
    sweep updates only on the flipped rows (a late sweep). The rows are a block of
    :data:`DENSE_BLOCK_BYTES` drawn once and repeated (drawing them all takes seconds)."""
    n = max(256, (_dense_bytes() if nbytes is None else nbytes) // (8 * d))
    rng = np.random.default_rng(seed)
    block = min(n, max(256, DENSE_BLOCK_BYTES // (8 * d)))
    base = rng.standard_normal((block, d))
    w_true = rng.standard_normal(d)
    labels = np.where(base @ w_true > 0, 1.0, -1.0)
    labels[rng.integers(0, block, size=max(1, block // 2000))] *= -1.0
    X = np.empty((n, d))
    y = np.empty(n)
    for start in range(0, n, block):
        stop = min(n, start + block)
        X[start:stop] = base[: stop - start]
        y[start:stop] = labels[: stop - start]
    return X, y, w_true * 1e4  # long enough that an update (‖x‖ ≈ √d) hardly turns it


def _time_dense_sweeps() -> tuple[dict[str, list[float]], dict[str, Any]]:
    """The best of :data:`_DENSE_ROUNDS` interleaved rounds of each dense sweep on
    :func:`_dense_problem`: (seconds [first sweep from w = 0, late sweep] by name, the problem)."""
    X, y, w_true = _dense_problem()
    n, d = X.shape
    idx, norms, no_order = np.empty(n, dtype=np.int64), np.empty(n), np.empty(0, dtype=np.int64)
    names = kernels.DENSE_SWEEPS
    for name in names:  # compile (or load) each loop on a few rows, out of the timing
        kernels.sweep_dense_loop(
            X[:64], y[:64], no_order, False, (np.zeros(d), 0.0, 1.0, 0.0, True, idx, norms), name
        )
    best = {name: [np.inf, np.inf] for name in names}
    updates = [0, 0]
    for round_ in range(_DENSE_ROUNDS):
        shift = round_ % len(names)  # each round in another order
        for name in names[shift:] + names[:shift]:
            for case, w0 in enumerate((np.zeros(d), w_true)):
                rule = (w0.copy(), 0.0, 1.0, 0.0, True, idx, norms)
                start = time.thread_time()  # CPU time: other processes' turns left out
                count, _, _ = kernels.sweep_dense_loop(X, y, no_order, False, rule, name)
                best[name][case] = min(best[name][case], time.thread_time() - start)
                updates[case] = int(count)
    problem = {
        "rows": n,
        "columns": d,
        "MiB": round(X.nbytes / 2**20),
        "updates": {"from w = 0": updates[0], "late": updates[1]},
    }
    return best, problem


def _dense_winner(best: dict[str, list[float]]) -> str:
    total = {name: sum(times) for name, times in best.items()}
    fastest = min(total, key=total.__getitem__)
    default = kernels.DEFAULT_DENSE_SWEEP
    return fastest if total[fastest] < MARGIN * total[default] else default


def _dense_ms(best: dict[str, list[float]]) -> dict[str, list[float]]:
    return {name: [round(t * 1e3, 2) for t in times] for name, times in best.items()}


def measure_dense() -> dict[str, Any]:
    """Time the dense sweeps now (no cache): the choice (``dense_sweep``), the milliseconds of each
    sweep [first from w = 0, late] (``dense_measured_ms``, and ``dense_confirmed_ms`` when a second
    measurement was needed) and the matrix they ran on (``dense_problem``). A loop other than the
    default is chosen only when a second, independent measurement agrees."""
    best, problem = _time_dense_sweeps()
    chosen = _dense_winner(best)
    found: dict[str, Any] = {}
    if chosen != kernels.DEFAULT_DENSE_SWEEP:
        again, _ = _time_dense_sweeps()
        found["dense_confirmed_ms"] = _dense_ms(again)
        chosen = chosen if _dense_winner(again) == chosen else kernels.DEFAULT_DENSE_SWEEP
    return {
        "dense_sweep": chosen,
        "dense_measured_ms": _dense_ms(best),
        "dense_problem": problem,
        **found,
    }


def _dense_known(found: dict[str, Any]) -> bool:
    """Whether a kept file has the dense sweep's choice (an older version's has not: measure again)."""
    return found.get("dense_sweep") in kernels.DENSE_SWEEPS


def dense_sweep(X) -> str:
    """The dense sweep this matrix takes (a name of :data:`perceptronlab.core.kernels.DENSE_SWEEPS`):
    the one measured fastest on this machine where X is larger than the L3, else the default (a
    matrix in the cache needs no measurement, and a small fit waits for none)."""
    if X.nbytes > l3_cache()[0]:
        return str(choices()["dense_sweep"])
    return kernels.DEFAULT_DENSE_SWEEP
