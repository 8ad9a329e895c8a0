"""perceptronlab.distributed on a real LocalCluster of 2 worker processes: equality, killed workers, CLI.

A worker is killed *during* an epoch by a worker plugin that ends the worker process the moment a
sweep task of the chosen shard starts executing (counted with marker files, so "once", "twice" or
"always"); the nanny restarts the process, and the run must either finish with exactly the
weights of the undisturbed in-process run, or raise a ShardError naming the shard.

No fixed ports: the scheduler binds port 0 (the system picks a free one, read back from the
client), there is no dashboard, and the workers' ports are Dask's own choice. Waits are scaled to
the work: a multiple of the time this machine took to start the cluster, never less than a floor.
"""

from __future__ import annotations

import json
import logging
import os
import subprocess
import sys
import textwrap
import time
import warnings

import cloudpickle
import dask
import dask.array as da
import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from distributed import Client, LocalCluster, WorkerPlugin
from typer.testing import CliRunner

from perceptronlab import perceptron
from perceptronlab.distributed import ShardError, fit, fit_in_process

# a lost cluster must fail a test, not hang the suite; starting clusters takes seconds: `slow`
pytestmark = [pytest.mark.timeout(300), pytest.mark.slow]

# the plugin class below travels to the workers by value (tests/ is not importable there)
cloudpickle.register_pickle_by_value(sys.modules[__name__])


class KillDuringSweep(WorkerPlugin):
    """End the worker process when a sweep of ``shard`` in ``epoch`` starts, ``times`` times."""

    name = "kill-during-sweep"

    def __init__(self, folder, *, shard, epoch, times):
        self.folder, self.shard, self.epoch, self.times = str(folder), shard, epoch, times

    def transition(self, key, start, finish, **kwargs):
        import re

        key = str(key)
        if finish != "executing" or not key.startswith("perceptronlab-sweep-"):
            return
        # one task per worker sweeps its shards: perceptronlab-sweep-<token>-e<epoch>-s0.2.5-a<attempt>
        found = re.search(r"-e(\d+)-s([\d.]+)-a\d+$", key)
        if found is None or int(found[1]) != self.epoch:
            return
        if str(self.shard) not in found[2].split("."):
            return
        for i in range(self.times):
            try:
                fd = os.open(
                    os.path.join(self.folder, f"kill-{i}"), os.O_CREAT | os.O_EXCL | os.O_WRONLY
                )
            except FileExistsError:
                continue
            os.close(fd)
            os._exit(1)  # the worker dies mid-epoch, with the sweep task in its hands


def local_cluster(**kwargs) -> LocalCluster:
    """A LocalCluster on ports the system picks: scheduler and HTTP routes on port 0."""
    return LocalCluster(
        threads_per_worker=1,
        scheduler_port=0,
        dashboard_address=":0",
        silence_logs=logging.ERROR,
        **kwargs,
    )


def scaled_wait(startup_seconds: float, floor: float = 30.0) -> float:
    """Seconds to wait for work that a cluster start of ``startup_seconds`` predicts: ten of those
    (a restarted worker or a fresh cluster is about one), never below ``floor``."""
    return max(floor, 10.0 * startup_seconds)


@pytest.fixture(scope="session")
def cluster_client():
    # allowed-failures=1: the second death of the same task gives KilledWorker (quick to reach)
    # where the scheduler, not fit, reschedules (the data-loading tasks)
    start = time.perf_counter()
    with dask.config.set({"distributed.scheduler.allowed-failures": 1}):
        cluster = local_cluster(n_workers=2, processes=True, memory_limit="1GiB")
    client = Client(cluster, set_as_default=False)
    client.wait_for_workers(2, timeout=scaled_wait(time.perf_counter() - start, floor=60))
    client.startup_seconds = time.perf_counter() - start
    yield client
    client.close()
    cluster.close()


def test_clusters_bind_ports_the_system_chose(cluster_client):
    """A second cluster beside the session's starts without a port clash (no fixed 8786 or 8787)."""
    address = cluster_client.scheduler.address
    assert address.startswith("tcp://") and int(address.rsplit(":", 1)[1]) > 0
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        with local_cluster(n_workers=1, processes=False) as other:
            assert other.scheduler_address != address
    assert not [w for w in caught if "already in use" in str(w.message)]


@pytest.fixture
def parquet_glob(tmp_path):
    rng = np.random.default_rng(21)
    X = rng.normal(size=(1200, 6)) + 0.2
    w, b = rng.normal(size=6), 0.3
    scores = X @ w + b
    keep = np.abs(scores) > 0.15 * np.linalg.norm(w)
    X, y = X[keep][:900], np.where(scores[keep][:900] > 0, 1, -1)
    for i, rows in enumerate(np.array_split(np.arange(900), 2)):
        table = pa.table({**{f"f{j}": X[rows, j] for j in range(6)}, "y": y[rows]})
        pq.write_table(
            table, tmp_path / f"part-{i:03d}.parquet", row_group_size=150
        )  # 3 row groups each
    return str(tmp_path / "*.parquet"), X, y


def same_bits(a, b) -> bool:
    return np.asarray(a, dtype=np.float64).tobytes() == np.asarray(b, dtype=np.float64).tobytes()


def test_parquet_read_on_worker_processes_equals_in_process(cluster_client, parquet_glob):
    pattern, _, _ = parquet_glob
    kwargs = dict(mixing="weighted", shards=2, fit_intercept=True, max_epochs=200)
    model = fit(pattern, client=cluster_client, **kwargs)
    reference = fit_in_process(pattern, **kwargs)
    assert same_bits(model.w, reference.w) and model.b == reference.b
    assert model.history.tolist() == reference.history.tolist() and model.converged
    assert model.shards == [[0, 1, 2], [3, 4, 5]]


def test_worker_killed_during_an_epoch_does_not_lose_the_run(
    cluster_client, parquet_glob, tmp_path
):
    pattern, _, _ = parquet_glob
    kwargs = dict(mixing="uniform", shards=3, fit_intercept=True, max_epochs=200)
    reference = fit_in_process(pattern, **kwargs)
    assert reference.epochs >= 3
    # the worker sweeping shard 0 dies twice in epoch 2: the epoch is submitted again, twice
    cluster_client.register_plugin(KillDuringSweep(tmp_path, shard=0, epoch=2, times=2))
    try:
        model = fit(pattern, client=cluster_client, epoch_retries=2, **kwargs)
    finally:
        cluster_client.unregister_worker_plugin(KillDuringSweep.name)
    assert os.path.exists(tmp_path / "kill-0") and os.path.exists(tmp_path / "kill-1")
    assert same_bits(model.w, reference.w) and model.history.tolist() == reference.history.tolist()
    cluster_client.wait_for_workers(2, timeout=scaled_wait(cluster_client.startup_seconds))


def test_a_shard_whose_workers_keep_dying_is_named_and_no_weights_return(
    cluster_client, parquet_glob, tmp_path
):
    pattern, _, _ = parquet_glob
    # epoch_retries=0: the first death of the worker sweeping shard 1 ends the run
    cluster_client.register_plugin(KillDuringSweep(tmp_path, shard=1, epoch=1, times=1))
    try:
        with pytest.raises(
            ShardError,
            # the worker's task may hold shard 0 too: then both are named
            match=r"(Shard|Shards 0 \(.*\),) 1 \(.*part-001\.parquet \(row group 0\).*epoch 1.*"
            r"No weights are returned",
        ):
            fit(pattern, client=cluster_client, shards=2, fit_intercept=True, epoch_retries=0)
    finally:
        cluster_client.unregister_worker_plugin(KillDuringSweep.name)
    cluster_client.wait_for_workers(2, timeout=scaled_wait(cluster_client.startup_seconds))


def test_client_none_reuses_the_running_client(cluster_client, parquet_glob, monkeypatch):
    import distributed

    def no_new_cluster(*args, **kwargs):
        raise AssertionError("a new LocalCluster was started")

    monkeypatch.setattr(distributed, "LocalCluster", no_new_cluster)
    pattern, X, y = parquet_glob
    with cluster_client.as_current():
        model = fit(pattern, shards=1, fit_intercept=True)  # one shard: the cyclic perceptron
    run = perceptron(X, y, fit_intercept=True)
    assert same_bits(model.w, run.w) and model.b == run.b
    assert model.history[:, 0].tolist() == run.updates_per_sweep.tolist()


def test_cli_train_dask_on_a_scheduler_address(cluster_client, parquet_glob):
    from perceptronlab.cli import app

    pattern, _, _ = parquet_glob
    address = cluster_client.scheduler.address
    result = CliRunner().invoke(
        app,
        [
            "train",
            pattern,
            "--dask",
            "--scheduler",
            address,
            "--shards",
            "2",
            "--intercept",
            "--json",
            "--quiet",
        ],
    )
    assert result.exit_code == 0, result.output
    record = json.loads(result.stdout)
    reference = fit_in_process(pattern, shards=2, fit_intercept=True)
    assert record["w"] == reference.w.tolist() and record["b"] == reference.b
    assert record["sweeps"] == reference.epochs
    assert record["mistakes"] == reference.mistakes
    bad = CliRunner().invoke(
        app, ["train", pattern, "--dask", "--scheduler", address, "--shards", "99"]
    )
    assert bad.exit_code == 1 and "shards" in bad.output


SCRIPT = """
import json
import numpy as np
import dask.array as da
import distributed
from perceptronlab.distributed import fit

if __name__ == "__main__":  # worker processes re-import this file: guard the work
    X = np.array([[1., 0], [1, 1], [0, 1], [2, 0], [0, 2], [3, 1]])
    y = np.array([1, -1, -1, 1, -1, 1])
    model = fit(da.from_array(X, chunks=2), da.from_array(y, chunks=2))  # starts its own cluster
    try:
        distributed.get_client()
        closed = False
    except ValueError:
        closed = True
    print(json.dumps({"w": model.w.tolist(), "history": model.history.tolist(), "closed": closed}))
"""


def test_a_script_without_a_client_starts_and_closes_a_local_cluster(cluster_client, tmp_path):
    script = tmp_path / "train_script.py"
    script.write_text(textwrap.dedent(SCRIPT))
    done = subprocess.run(
        [sys.executable, str(script)],
        capture_output=True,
        text=True,
        timeout=scaled_wait(cluster_client.startup_seconds, floor=120),
        cwd=tmp_path,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    assert "already in use" not in done.stderr  # its own cluster did not ask for a fixed port
    result = json.loads(done.stdout.strip().splitlines()[-1])
    X = np.array([[1.0, 0], [1, 1], [0, 1], [2, 0], [0, 2], [3, 1]])
    y = np.array([1, -1, -1, 1, -1, 1])
    reference = fit_in_process(da.from_array(X, chunks=2), da.from_array(y, chunks=2))
    assert result["w"] == reference.w.tolist() and result["history"] == reference.history.tolist()
    assert result["closed"]


def test_bench_scale_smoke():
    sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    from benchmarks._timing import check_row
    from benchmarks.bench_scale import DATA_DIR, bench_scale

    before = set(DATA_DIR.glob("scale-*")) if DATA_DIR.exists() else set()
    rows = bench_scale(
        size_gb=0.001,
        n_features=4,
        epochs=3,
        stream=False,
        processes=False,
        n_rounds=2,
        simulated_workers=3,
        simulated_rows=200,
        simulated_epochs=4,
    )
    assert [row["case"].split(": ")[1] for row in rows] == [
        "1 Dask worker / one core in memory (epochs/s)",
        "2 Dask workers / one core in memory (epochs/s)",
        "2 Dask workers / 1 Dask worker (epochs/s)",
        "overhead a cluster pays per epoch (ms)",
    ]
    for row in rows:
        check_row(row)
        assert row["rounds"] == 2
    assert [row["target"] for row in rows] == ["≥ 0.9", "≥ 1", "— (reported)", "— (reported)"]
    assert "epochs/s: 1 worker" in rows[0]["detail"] and "files" in rows[0]["detail"]
    assert "two threads read the data" in rows[2]["detail"]
    assert (
        "3 one-thread worker processes" in rows[3]["detail"] and "200 rows × 4" in rows[3]["detail"]
    )
    assert set(DATA_DIR.glob("scale-*")) == before  # the data was deleted
