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
- ``threads_choice`` (a file of its own, ``late-sweep-threads-<key>.json``): whether late sweeps take
  two threads (the late sweep and a streaming read of a slice beyond the L3 timed on one thread and
  on two), and what a fork/join of the threads costs, which sets the parallel blocks' length.
"""

from __future__ import annotations

import functools
import hashlib
import json
import math
import time
from pathlib import Path
from typing import Any

import numpy as np

from perceptronlab._ground.files import atomic_write
from perceptronlab._ground.memory import available_memory
from perceptronlab.core import kernels
from perceptronlab.core.cpu import cpu_text, l3_cache
from perceptronlab.exceptions import InputError

__all__ = [
    "choices",
    "csr_loop",
    "dense_sweep",
    "cache_file",
    "compiled_for",
    "measure",
    "threads_choice",
    "two_threads_pay",
    "fork_rows",
    "parallel_block",
]

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
    return _keep(path, measure())


def _keep(path: Path, measured: dict[str, Any]) -> dict[str, Any]:
    """A measurement written to ``path`` (where it can be), with a ``source`` that says where it is."""
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


# ---------------------------------------------------------------- two threads for late sweeps
# Kept apart from the loop choices above (a file of its own beside theirs, measured only when a fit
# could use two threads): whether a second thread makes a late sweep faster depends on the machine
# (how much more the memory gives two threads, whether the two logical CPUs share one core's
# arithmetic units) and on the one-thread sweep's speed there, so it is measured, not assumed.

#: two threads must make the late sweep this much faster (one-thread time / two-thread time)
THREADS_MIN_GAIN = 1.05
#: the measured slice: twice the L3 (beyond every cache), within these bounds
THREADS_SLICE_BYTES = (64 * 2**20, 512 * 2**20)
#: fork/join of a parallel block where it was not measured, in rows of a one-thread sweep
FORK_ROWS_DEFAULT = 512.0
_THREADS_ROUNDS = 3
_SLICE_D = 100
# one label in this many flipped: the slice's late sweep has a few updates
_SLICE_FLIP_EVERY = 65_536


#: the parallel blocks' length stays within these (:func:`parallel_block`)
PARALLEL_BLOCK_ROWS = (1024, 65_536)


def parallel_block(n_rows: int, last_updates: int, fork_rows: float) -> int:
    """Rows scored per parallel block: the length that makes the two costs of the blocks least.

    Each block costs a fork/join of the threads (``fork_rows``: its time in rows of a one-thread
    sweep, measured per machine, :func:`perceptronlab.core.choice.fork_rows`), so n/B blocks cost
    n·F/B; each update throws away the scores of the rest of its block and scores a new one, about
    a block's work (measured: the one-thread blocked sweep's excess grows with B as k·B), so k
    updates cost k·B. The sum is least at B = √(n·F/k), with k the last sweep's updates (+1).
    (Until 0.3 the block was n/(k + 1) clipped to 2,048–16,384: on a late sweep of a million rows
    with 11 updates, 16,384 rows, whose thrown-away scores cost a fifth of a sweep.)"""
    best = math.sqrt(n_rows * max(fork_rows, 1.0) / (last_updates + 1))
    return int(np.clip(round(best), PARALLEL_BLOCK_ROWS[0], PARALLEL_BLOCK_ROWS[1]))


def threads_cache_file() -> Path:
    """Where the thread choice is kept: beside :func:`cache_file`, with the same key."""
    path = cache_file()
    return path.with_name(path.name.replace("kernel-choices-", "late-sweep-threads-"))


def _late_slice(nbytes: int, seed: int = 0):
    """About ``nbytes`` of float64 rows (d = 100; a random block of 4,096 rows repeated, cheap to
    make) and a w that classifies them with a margin its updates do not cross, but for one label in
    :data:`_SLICE_FLIP_EVERY` flipped: a late sweep, with a few updates, as a fit's late sweeps."""
    rng = np.random.default_rng(seed)
    block = rng.standard_normal((4096, _SLICE_D))
    w = rng.standard_normal(_SLICE_D)
    cosine = block @ w / (np.linalg.norm(block, axis=1) * np.linalg.norm(w))
    block = block[np.abs(cosine) > 0.05]
    # ‖w‖ ≈ 500 and every score ≥ 250 in size: the k updates of a sweep (each moves a score by about
    # N(0, 10)) change no other row's side, but their bound (about 100·k) soon exceeds a score's distance
    # to the margin, so rows are scored again after updates, as in the late sweeps of a fit
    w *= 50.0
    reps = max(1, nbytes // block.nbytes)
    X = np.tile(block, (reps, 1))
    y = np.tile(np.where(block @ w > 0, 1.0, -1.0), reps)
    y[::_SLICE_FLIP_EVERY] *= -1.0
    return X, y, w


def _late_cases(X, y, w, threads: int) -> dict[str, Any]:
    """The four measurements, each returning wall seconds: a streaming read of the slice on one thread
    and on ``threads``, its late sweep on one thread (:func:`kernels.sweep_dense`) and on ``threads``
    (:func:`kernels.sweep_dense_blocked`, the blocks the engine would take); and a fork/join."""
    from perceptronlab.core.threads import numba_threads

    n = X.shape[0]
    flat, no_order = X.reshape(-1), np.empty(0, dtype=np.int64)
    updates = n // _SLICE_FLIP_EVERY + 1
    row_sq = kernels.row_squared_norms(X, np.empty(n))

    def rule():
        return (w.copy(), 0.0, 1.0, 0.0, False, np.empty(n, dtype=np.int64), np.empty(n))

    def read(count):
        with numba_threads(count):
            start = time.perf_counter()
            kernels.streaming_read(flat, count)
            return time.perf_counter() - start

    def sweep_one():
        start = time.perf_counter()
        kernels.sweep_dense(X, y, no_order, False, *rule())
        return time.perf_counter() - start

    def sweep_blocked():
        block = parallel_block(n, updates, fork_cost[0])
        with numba_threads(threads):
            start = time.perf_counter()
            kernels.sweep_dense_blocked(
                X, y, no_order, False, rule(), block, np.empty(block), row_sq
            )
            return time.perf_counter() - start

    def fork(times=64):
        """A fork/join as a sweep meets it: after a stretch of one-thread work (a block's walk, while
        the other threads wait, spinning or asleep), so that waking them is counted too."""
        span = min(1024, n)  # rows of one-thread work between two forks, within X
        head = min(32, n)
        out, walk = np.empty(head), np.empty(span)
        took = 0.0
        with numba_threads(threads):
            for k in range(times):
                first = (k * span) % (n - span + 1)
                kernels._score_span(X, no_order, False, w, first, first + span, walk, first)
                start = time.perf_counter()
                kernels._score_rows(X, no_order, False, w, 0, head, out)
                took += time.perf_counter() - start
        return took / times

    # the blocks: the engine's length for this machine's fork/join, from a first measurement of both
    fork(), sweep_one()  # compiled (or loaded) and warmed up
    fork_cost = [min(fork() for _ in range(3)) / (sweep_one() / n)]

    return {
        "read, 1 thread": lambda: read(1),
        f"read, {threads} threads": lambda: read(threads),
        "late sweep, 1 thread": sweep_one,
        f"late sweep, {threads} threads": sweep_blocked,
        "fork/join": fork,
    }


def _rounds(cases: dict[str, Any], rounds: int) -> dict[str, list[float]]:
    """Each case's seconds in ``rounds`` interleaved rounds (the order reversed from one to the next)
    after one to warm up; only that one where two threads took twice one's time in it (no gain to
    find: a busy machine, where each of a sweep's fork/joins waits for the other core, must not make
    the measurement long)."""
    names = list(cases)
    warm = {name: cases[name]() for name in names[::-1]}
    if warm["late sweep, 2 threads"] >= 2 * warm["late sweep, 1 thread"]:
        return {name: [took] for name, took in warm.items()}
    seconds: dict[str, list[float]] = {name: [] for name in names}
    for round_ in range(rounds):
        for name in names if round_ % 2 == 0 else names[::-1]:
            seconds[name].append(cases[name]())
    return seconds


def _median_ratio(top: list[float], bottom: list[float]) -> float:
    return float(np.median(np.asarray(top) / np.asarray(bottom)))


def measure_threads(nbytes: int | None = None, rounds: int = _THREADS_ROUNDS) -> dict[str, Any]:
    """Time the late sweep and the streaming read on one thread and on two, now (no cache), on a slice
    of ``nbytes`` (twice the L3 by default, within :data:`THREADS_SLICE_BYTES`), in ``rounds``
    interleaved rounds after one to warm up; every figure a median of the rounds. Two threads are
    used for late sweeps when their measured gain reaches :data:`THREADS_MIN_GAIN`; a "no" is
    measured again and kept only if the second measurement agrees (a moment of other work on the
    machine must not fix it for good; a "yes" that does not pay in a fit is left by the engine)."""
    from perceptronlab.core.cpu import l3_cache, threads_per_core

    low, high = THREADS_SLICE_BYTES
    nbytes = int(min(max(2 * l3_cache()[0], low), high)) if nbytes is None else int(nbytes)
    X, y, w = _late_slice(nbytes)
    cases = _late_cases(X, y, w, 2)
    for attempt in range(2):
        seconds = _rounds(cases, rounds)
        gain = _median_ratio(seconds["late sweep, 1 thread"], seconds["late sweep, 2 threads"])
        if gain >= THREADS_MIN_GAIN or attempt:
            break
    ms = {name: round(float(np.median(times)) * 1e3, 3) for name, times in seconds.items()}
    return {
        "two_threads": bool(gain >= THREADS_MIN_GAIN),
        "gain": round(gain, 3),
        "read_ceiling": round(
            _median_ratio(seconds["read, 1 thread"], seconds["read, 2 threads"]), 3
        ),
        "fork_rows": round(
            float(np.median(seconds["fork/join"]))
            / (ms["late sweep, 1 thread"] / 1e3 / X.shape[0]),
            1,
        ),
        "measured_ms": ms,
        "slice": f"{X.shape[0]:,}×{_SLICE_D} float64, {X.nbytes / 2**20:.0f} MiB",
        "threads_per_core": threads_per_core(),
        "measured_twice": attempt == 1,
    }


@functools.lru_cache(maxsize=1)
def threads_choice() -> dict[str, Any]:
    """Whether late sweeps take two threads on this machine, and the measurement that decided:
    read from :func:`threads_cache_file`, or measured now (:func:`measure_threads`) and kept there.
    Without a second thread for Numba nothing is measured."""
    import numba

    if numba.config.NUMBA_NUM_THREADS < 2:
        return {"two_threads": False, "source": "one thread: Numba may use no other"}
    path = threads_cache_file()
    try:
        found = json.loads(path.read_text(encoding="utf-8"))
        if isinstance(found, dict) and isinstance(found.get("two_threads"), bool):
            return {**found, "source": f"measured earlier on this machine ({path.name})"}
    except (OSError, ValueError):
        pass
    return _keep(path, measure_threads())


def two_threads_pay() -> bool:
    """Whether a late sweep runs on several threads here (:func:`threads_choice`)."""
    return bool(threads_choice()["two_threads"])


def fork_rows() -> float:
    """What starting and joining a parallel block costs here, in rows of a one-thread late sweep
    (measured with the thread choice; :data:`FORK_ROWS_DEFAULT` where it was not)."""
    value = threads_choice().get("fork_rows")
    return float(value) if isinstance(value, (int, float)) and value > 0 else FORK_ROWS_DEFAULT
