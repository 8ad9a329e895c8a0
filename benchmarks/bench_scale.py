"""Benchmark: epochs per second of iterative parameter mixing on 1 and 2 local Dask workers against
one core sweeping the same data in memory (issues 18.2 and 27.4: Dask's overhead per epoch), 2
workers against 1, and the overhead per epoch of a simulated 8-worker cluster; streamed from disk
for reference.

The dataset (at least 1 GB of Parquet by default) is written by the benchmark into
``benchmarks/_data/`` one file at a time (never whole in memory), and deleted afterwards. Seeded,
network-free; the baselines are measured in the same run.

Run alone: ``.venv/bin/python -m benchmarks --only bench_scale``
"""

from __future__ import annotations

import contextlib
import logging
import math
import os
import shutil
import time
import uuid
from pathlib import Path

import numpy as np

DATA_DIR = Path(__file__).resolve().parent / "_data"
FILE_BYTES = 64 * 2**20
#: epochs/s against one core sweeping the same data in memory (issue 27.4): a worker's epoch should
#: be its sweep, not Dask's overhead
TARGET_ONE_WORKER = 0.9
TARGET_TWO_WORKERS = 1.0
#: the simulated cluster: this many one-thread worker processes, each shard this many rows
SIMULATED_WORKERS = 8
SIMULATED_ROWS = 2_000


def write_dataset(folder: Path, size_gb: float, n_features: int, seed: int) -> dict:
    """Parquet files of ~64 MB (one row group each), generated file by file."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    rng = np.random.default_rng(seed)
    direction = rng.normal(size=n_features)
    total = size_gb * 1e9
    n_files = max(4, math.ceil(total / FILE_BYTES))
    rows_per_file = max(1, int(total / n_files) // (8 * (n_features + 1)))
    names = [f"x{j}" for j in range(n_features)]
    folder.mkdir(parents=True, exist_ok=True)
    for i in range(n_files):
        X = rng.normal(size=(rows_per_file, n_features))
        noise = rng.normal(scale=0.5, size=rows_per_file)
        label = np.where(X @ direction + noise > 0, 1.0, -1.0)  # noisy: every epoch makes mistakes
        columns = {name: X[:, j] for j, name in enumerate(names)}
        columns["label"] = label
        pq.write_table(
            pa.table(columns),
            folder / f"part-{i:04d}.parquet",
            compression="NONE",
            row_group_size=rows_per_file,
        )
    size = sum(p.stat().st_size for p in folder.glob("*.parquet"))
    return {"files": n_files, "rows": n_files * rows_per_file, "bytes_on_disk": size}


def _epoch_rate(stamps: list[float]) -> float:
    """Epochs per second from the end-of-epoch times, the first epoch (warm-up) left out."""
    return (len(stamps) - 1) / (stamps[-1] - stamps[0])


def _timed(run) -> float:
    stamps: list[float] = []
    run(lambda info: stamps.append(time.perf_counter()))
    return _epoch_rate(stamps)


@contextlib.contextmanager
def _local_cluster(workers: int, processes: bool):
    """A fresh LocalCluster of one-thread workers (ports chosen by the system, no dashboard) and its client."""
    from distributed import Client, LocalCluster

    with (
        LocalCluster(
            n_workers=workers,
            threads_per_worker=1,
            processes=processes,
            scheduler_port=0,
            dashboard_address=":0",
            silence_logs=logging.ERROR,
        ) as cluster,
        Client(cluster) as client,
    ):
        yield client


def _dask_rate(pattern: str, workers: int, epochs: int, shards: int, processes: bool) -> float:
    """A fresh LocalCluster (ports chosen by the system, no dashboard), one fit, epochs per second."""

    from perceptronlab.distributed import fit

    with _local_cluster(workers, processes) as client:
        return _timed(
            lambda cb: fit(
                pattern, client=client, shards=shards, max_epochs=epochs, callback=cb, warn=False
            )
        )


def _in_memory(folder: Path):
    """The whole dataset in memory, as the single-machine sweep reads it."""
    from perceptronlab.distributed.sources import finalize, open_source, summarize

    source = open_source(str(folder / "*.parquet"))
    raws = [source.read_local(i) for i in range(len(source))]
    source.learn([summarize(raw) for raw in raws])
    parts = [finalize(raw, source.spec) for raw in raws]
    del raws
    X = np.concatenate([p[0] for p in parts])
    y = np.concatenate([p[1] for p in parts])
    return X, y


def _memory_rate(X, y, epochs: int) -> float:
    """The single-machine sweep on one core: the compiled kernel over the whole dataset in memory."""
    from benchmarks._runs import engine as compiled_engine

    engine = compiled_engine(X, y)
    stamps = []
    for sweep in range(1, epochs + 1):
        engine.sweep(None, sweep)
        stamps.append(time.perf_counter())
    return _epoch_rate(stamps)


def _streaming_read_ceiling(X: np.ndarray, repeats: int = 5) -> float:
    """How much faster two threads read X than one (each thread sums half of the rows; numpy's
    reduction releases the GIL): the most a second worker can add to a sweep bound by memory."""
    import threading

    def read(rows: np.ndarray) -> None:
        np.add.reduce(rows, axis=None)

    half = X.shape[0] // 2
    one, two = [], []
    for _ in range(repeats):
        start = time.perf_counter()
        read(X)
        one.append(time.perf_counter() - start)
        threads = [threading.Thread(target=read, args=(part,)) for part in (X[:half], X[half:])]
        start = time.perf_counter()
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        two.append(time.perf_counter() - start)
    return float(np.median(one) / np.median(two))


def _shard_sweep_seconds(rows: int, n_features: int, seed: int, repeats: int = 20) -> float:
    """On a worker: the median time of one sweep of a shard like the simulated run's (its rows
    generated here), as the epoch task sweeps it."""
    from perceptronlab.distributed.shard import ShardRows

    rng = np.random.default_rng(seed)
    X = rng.normal(size=(rows, n_features))
    y = np.where(X @ rng.normal(size=n_features) + rng.normal(scale=0.5, size=rows) > 0, 1.0, -1.0)
    shard = ShardRows([(X, y)], eta=1.0, margin=0.0, fit_intercept=False)
    w, seconds = np.zeros(n_features), []
    for _ in range(repeats):
        start = time.perf_counter()
        w = shard.sweep(w, 0.0, None)[0]
        seconds.append(time.perf_counter() - start)
    return float(np.median(seconds))


def _simulated_epoch(
    workers: int, rows: int, n_features: int, epochs: int, seed: int, processes: bool
) -> tuple[float, float]:
    """(seconds per epoch, one shard's sweep seconds) of a fresh cluster of ``workers`` one-thread
    workers, one shard each, the data generated on the workers (a dask random array: nothing is
    sent from the client but the graph)."""
    import dask.array as da

    from perceptronlab.distributed import fit

    with _local_cluster(workers, processes) as client:
        rng = da.random.default_rng(seed)
        X = rng.normal(size=(workers * rows, n_features), chunks=(rows, n_features))
        direction = np.random.default_rng(seed).normal(size=n_features)
        noise = rng.normal(scale=0.5, size=workers * rows, chunks=rows)
        y = da.where(X @ direction + noise > 0, 1, -1)  # noisy: every epoch makes mistakes
        rate = _timed(
            lambda cb: fit(X, y, client=client, max_epochs=epochs, callback=cb, warn=False)
        )
        sweep = client.submit(_shard_sweep_seconds, rows, n_features, seed, pure=False).result()
    return 1 / rate, sweep


def bench_scale(
    size_gb: float = 1.0,
    *,
    n_features: int = 100,
    epochs: int = 6,
    seed: int = 0,
    stream: bool = True,
    processes: bool = True,
    scale: float = 1.0,
    n_rounds: int | None = None,
    simulated_workers: int = SIMULATED_WORKERS,
    simulated_rows: int = SIMULATED_ROWS,
    simulated_epochs: int = 30,
) -> list[dict]:
    """Epochs/s of ``perceptronlab.distributed.fit`` on 1 and 2 local workers against one in-memory
    core, in interleaved rounds (a fresh cluster every round); and the overhead per epoch of
    ``simulated_workers`` one-thread workers holding one small shard each.

    ``processes=False`` (threads in this process) is only for smoke tests: the kernel releases the
    GIL, but the numbers are not the benchmark's.
    """
    from benchmarks._timing import Stat, at_least, interleave, median_ms, result_row
    from perceptronlab._ground.numbers import format_count
    from perceptronlab.distributed import stream_fit

    size_gb = size_gb * scale
    simulated_epochs = max(4, round(simulated_epochs * min(scale, 1.0)))  # smoke runs: fewer
    folder = DATA_DIR / f"scale-{uuid.uuid4().hex[:8]}"
    try:
        start = time.perf_counter()
        data = write_dataset(folder, size_gb, n_features, seed)
        written = time.perf_counter() - start
        pattern = str(folder / "*.parquet")
        held = dict(zip(("X", "y"), _in_memory(folder), strict=True))
        # each case returns seconds per epoch, so that the per-round ratios are ratios of rates
        rates = interleave(
            {
                "1 worker": lambda: (
                    1 / _dask_rate(pattern, 1, epochs, shards=2, processes=processes)
                ),
                "2 workers": lambda: (
                    1 / _dask_rate(pattern, 2, epochs, shards=2, processes=processes)
                ),
                "in memory": lambda: 1 / _memory_rate(held["X"], held["y"], epochs),
            },
            n_rounds=n_rounds or 3,
            warmup=False,
        )
        ceiling = _streaming_read_ceiling(held["X"])
        held.clear()
        simulated = [
            _simulated_epoch(
                simulated_workers, simulated_rows, n_features, simulated_epochs, seed + r, processes
            )
            for r in range(n_rounds or 3)
        ]
        streamed = (
            _timed(
                lambda cb: stream_fit(
                    pattern, max_epochs=min(epochs, 3), callback=cb, progress=False, warn=False
                )
            )
            if stream
            else None
        )
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    per_s = {name: 1 / np.median(seconds) for name, seconds in rates.items()}
    dataset = (
        f"{data['bytes_on_disk'] / 1e9:.3g} GB of Parquet ({data['files']} files, {data['rows']:,} rows × "
        f"{n_features}), written in {written:.0f} s and deleted by the benchmark"
    )
    epochs_s = (
        f"epochs/s: 1 worker {per_s['1 worker']:.3g}, 2 workers {per_s['2 workers']:.3g}, one core in "
        f"memory {per_s['in memory']:.3g}"
        + (f", streamed from disk {streamed:.3g} (one run)" if streamed is not None else "")
    )
    cores = min(simulated_workers, os.cpu_count() or 1)
    epoch_s = np.array([epoch for epoch, _ in simulated])
    sweep_s = np.array([sweep for _, sweep in simulated])
    # the shards' sweeps share the cores: the epoch's own work is (workers / cores) sweeps of time
    overhead_ms = (epoch_s - sweep_s * simulated_workers / cores) * 1e3
    size = f"{data['bytes_on_disk'] / 1e9:.3g} GB"
    return [
        result_row(
            f"iterative parameter mixing, {size}: 1 Dask worker / one core in memory (epochs/s)",
            Stat.ratio(rates["in memory"], rates["1 worker"]),
            at_least(TARGET_ONE_WORKER),
            f"{dataset}; {epochs_s}; 2 shards, {epochs} epochs a fit, the first left out; the "
            "single-machine sweep over the same data held in memory (n_jobs=1); wall time",
        ),
        result_row(
            f"iterative parameter mixing, {size}: 2 Dask workers / one core in memory (epochs/s)",
            Stat.ratio(rates["in memory"], rates["2 workers"]),
            at_least(TARGET_TWO_WORKERS),
            f"{epochs_s}; {os.cpu_count()} cores",
        ),
        result_row(
            f"iterative parameter mixing, {size}: 2 Dask workers / 1 Dask worker (epochs/s)",
            Stat.ratio(rates["1 worker"], rates["2 workers"]),
            None,
            f"{epochs_s}; its ceiling where the sweep is bound by memory: two threads read the data "
            f"{ceiling:.3g}x as fast as one (one run)",
        ),
        result_row(
            f"iterative parameter mixing, {simulated_workers} simulated Dask workers: overhead a "
            "cluster pays per epoch (ms)",
            Stat.of(overhead_ms),
            None,
            f"{simulated_workers} one-thread worker processes on {cores} cores, one shard of "
            f"{format_count(simulated_rows, 'row')} × {n_features} each, generated on the workers; "
            f"epoch {median_ms(epoch_s)} against one shard's sweep {median_ms(sweep_s)} (timed "
            f"inside a worker): overhead = epoch − sweep × {simulated_workers} workers / {cores} "
            f"cores; {simulated_epochs} epochs a fit, the first left out, a fresh cluster each round",
        ),
    ]
