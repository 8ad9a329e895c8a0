"""Benchmark: epochs per second of iterative parameter mixing on 2 local Dask workers against 1,
and against the single-machine sweep (in memory, and streamed from disk).

The dataset (at least 1 GB of Parquet by default) is written by the benchmark into
``benchmarks/_data/`` one file at a time (never whole in memory), and deleted afterwards. Seeded,
network-free; the baselines are measured in the same run.

Run: ``.venv/bin/python benchmarks/bench_scale.py [size_gb]``
"""

from __future__ import annotations

import json
import logging
import math
import shutil
import sys
import time
import uuid
from pathlib import Path

import numpy as np

DATA_DIR = Path(__file__).resolve().parent / "_data"
FILE_BYTES = 64 * 2**20
TARGET = 1.5  # 2 workers should give at least 1.5x the epochs per second of 1 worker


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
        pq.write_table(pa.table(columns), folder / f"part-{i:04d}.parquet", compression="NONE",
                       row_group_size=rows_per_file)
    size = sum(p.stat().st_size for p in folder.glob("*.parquet"))
    return {"files": n_files, "rows": n_files * rows_per_file, "bytes_on_disk": size}


def _epoch_rate(stamps: list[float]) -> float:
    """Epochs per second from the end-of-epoch times, the first epoch (warm-up) left out."""
    return (len(stamps) - 1) / (stamps[-1] - stamps[0])


def _timed(run) -> float:
    stamps: list[float] = []
    run(lambda info: stamps.append(time.perf_counter()))
    return _epoch_rate(stamps)


def _dask_rate(pattern: str, workers: int, epochs: int, shards: int, processes: bool) -> float:
    from distributed import Client, LocalCluster

    from perceptronlab.scale import fit

    with LocalCluster(n_workers=workers, threads_per_worker=1, processes=processes, dashboard_address=None,
                      silence_logs=logging.ERROR) as cluster, Client(cluster) as client:
        return _timed(lambda cb: fit(pattern, client=client, shards=shards, max_epochs=epochs, callback=cb,
                                     warn=False))


def _memory_rate(folder: Path, epochs: int) -> float:
    """The single-machine sweep: the compiled kernel over the whole dataset in memory."""
    from perceptronlab.core.engines import CompiledEngine
    from perceptronlab.scale.sources import finalize, open_source, summarize

    source = open_source(str(folder / "*.parquet"))
    raws = [source.read_local(i) for i in range(len(source))]
    source.learn([summarize(raw) for raw in raws])
    parts = [finalize(raw, source.spec) for raw in raws]
    del raws
    X = np.concatenate([p[0] for p in parts])
    y = np.concatenate([p[1] for p in parts])
    del parts
    engine = CompiledEngine(X, y, eta=1.0, margin=0.0, fit_intercept=False)
    stamps = []
    for sweep in range(1, epochs + 1):
        engine.sweep(None, sweep)
        stamps.append(time.perf_counter())
    return _epoch_rate(stamps)


def bench_scale(size_gb: float = 1.0, *, n_features: int = 100, epochs: int = 6, seed: int = 0,
                stream: bool = True, processes: bool = True) -> dict:
    """Epochs/s of ``perceptronlab.scale.fit`` on 2 local workers vs 1, and vs one machine.

    Returns
    -------
    dict
        ``case``, ``target``, ``ratio`` (2 workers / 1 worker), ``met``, ``detail`` (every rate,
        the dataset's size on disk, the ratios against the single-machine sweep).

    ``processes=False`` (threads in this process) is only for smoke tests: the kernel releases
    the GIL, but the numbers are not the benchmark's.
    """
    from perceptronlab.scale import stream_fit

    folder = DATA_DIR / f"scale-{uuid.uuid4().hex[:8]}"
    try:
        start = time.perf_counter()
        data = write_dataset(folder, size_gb, n_features, seed)
        written = time.perf_counter() - start
        pattern = str(folder / "*.parquet")
        one = _dask_rate(pattern, 1, epochs, shards=2, processes=processes)
        two = _dask_rate(pattern, 2, epochs, shards=2, processes=processes)
        memory = _memory_rate(folder, epochs)
        streamed = (_timed(lambda cb: stream_fit(pattern, max_epochs=min(epochs, 3), callback=cb,
                                                 progress=False, warn=False)) if stream else None)
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    ratio = two / one
    detail = {
        "dataset": {**data, "gb_on_disk": round(data["bytes_on_disk"] / 1e9, 3), "n_features": n_features,
                    "write_s": round(written, 1)},
        "epochs_per_s": {"dask_1_worker": round(one, 3), "dask_2_workers": round(two, 3),
                         "single_machine_in_memory": round(memory, 3),
                         "single_machine_streamed": None if streamed is None else round(streamed, 3)},
        "ratio_2_workers_vs_in_memory": round(two / memory, 3),
        "shards": 2,
    }
    return {"case": f"iterative parameter mixing, {detail['dataset']['gb_on_disk']} GB Parquet, "
                    "2 local workers vs 1 (epochs/s)",
            "target": f">= {TARGET}x", "ratio": round(ratio, 3), "met": bool(ratio >= TARGET), "detail": detail}


if __name__ == "__main__":
    print(json.dumps(bench_scale(float(sys.argv[1]) if len(sys.argv) > 1 else 1.0), indent=2))
