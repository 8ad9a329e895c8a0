"""perceptronlab.distributed in process and on a threads cluster: mixing, sources, streaming, the CLI.

Oracles: the plain cyclic perceptron (one shard, bit for bit), iterative parameter mixing computed
here in exact fractions (McDonald, Hall & Mann 2010), and the in-process reference (the Dask run
must equal it bit for bit). The cluster of worker processes is in test_scale_cluster.py.

No fixed ports: the threads cluster's HTTP routes bind port 0 (``dashboard_address=":0"``; None would
bind Dask's default 8787, and warn "port 8787 in use" beside any other cluster).
"""

from __future__ import annotations

import json
import logging
import pickle
import re
import tracemalloc
import warnings
from fractions import Fraction

import dask.array as da
import dask.dataframe as dd
import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq
import pytest
import scipy.sparse as sp
from distributed import Client, LocalCluster
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sklearn.datasets import dump_svmlight_file
from typer.testing import CliRunner

from perceptronlab import perceptron
from perceptronlab.distributed import (
    EpochInfo,
    MixedPerceptron,
    fit,
    fit_in_process,
    one_shot_average,
    stream_fit,
    train_from_cli,
)
from perceptronlab.distributed.mixing import mix, plan_shards
from perceptronlab.exceptions import CycledWarning, InputError, NotConvergedWarning


def separable(n, d, seed, *, integer=False, gap=0.5):
    """n points with labels from a random hyperplane through 0, none closer to it than ``gap``."""
    rng = np.random.default_rng(seed)
    X = (
        rng.integers(-4, 5, size=(4 * n, d)).astype(float)
        if integer
        else rng.normal(size=(4 * n, d))
    )
    w = rng.normal(size=d)
    scores = X @ w / np.linalg.norm(w)
    keep = np.abs(scores) > gap
    X, scores = X[keep][:n], scores[keep][:n]
    assert X.shape[0] == n
    return np.ascontiguousarray(X), np.where(scores > 0, 1, -1)


def same_bits(a, b) -> bool:
    a, b = np.asarray(a, dtype=np.float64), np.asarray(b, dtype=np.float64)
    return a.shape == b.shape and a.tobytes() == b.tobytes()


def assert_same_model(a: MixedPerceptron, b: MixedPerceptron):
    assert same_bits(a.coef_, b.coef_) and same_bits(a.intercept_, b.intercept_)
    assert np.array_equal(a.history, b.history)
    assert (a.converged, a.cycled, a.epochs) == (b.converged, b.cycled, b.epochs)
    assert list(a.classes_) == list(b.classes_)


def ipm_fractions(shards, *, mixing, max_epochs=100, eta=1, fit_intercept=False):
    """Iterative parameter mixing in exact arithmetic, written from the paper's pseudo-code."""
    d = len(shards[0][0][0])
    w, b = [Fraction(0)] * d, Fraction(0)
    history = []
    for _ in range(max_epochs):
        results = []
        for X, y in shards:
            wi, bi, k = list(w), b, 0
            for x, label in zip(X, y, strict=True):
                if label * (sum(wj * Fraction(xj) for wj, xj in zip(wi, x, strict=True)) + bi) <= 0:
                    wi = [wj + eta * label * Fraction(xj) for wj, xj in zip(wi, x, strict=True)]
                    bi += eta * label if fit_intercept else 0
                    k += 1
            results.append((wi, bi, k))
        counts = [k for _, _, k in results]
        history.append(counts)
        if sum(counts) == 0:
            break
        mu = (
            [Fraction(1, len(shards))] * len(shards)
            if mixing == "uniform"
            else [Fraction(k, sum(counts)) for k in counts]
        )
        w = [sum(m * r[0][j] for m, r in zip(mu, results, strict=True)) for j in range(d)]
        b = sum(m * r[1] for m, r in zip(mu, results, strict=True))
    return w, b, history


@pytest.fixture(scope="module")
def threads_client():
    cluster = LocalCluster(
        n_workers=2,
        threads_per_worker=1,
        processes=False,
        dashboard_address=":0",
        silence_logs=logging.ERROR,
    )
    client = Client(cluster, set_as_default=False)
    assert cluster.scheduler.http_server.port != 8787  # a port the system picked
    yield client
    client.close()
    cluster.close()


def write_parquet(folder, X, y, *, files, row_group_size, label="label", names=None):
    names = names or [f"x{j}" for j in range(X.shape[1])]
    paths = []
    for i, rows in enumerate(np.array_split(np.arange(X.shape[0]), files)):
        table = pa.table({**{n: X[rows, j] for j, n in enumerate(names)}, label: y[rows]})
        path = folder / f"part-{i:03d}.parquet"
        pq.write_table(table, path, row_group_size=row_group_size)
        paths.append(path)
    return paths


# ---------------------------------------------------------------- the pieces


def test_mix_uniform_weighted_and_the_zero_fallback():
    w, b = np.array([9.0, 9.0]), 3.0
    results = [(np.array([1.0, 2.0]), 1.0, 3), (np.array([5.0, -2.0]), -1.0, 1)]
    assert mix(results, w, b, "uniform")[0].tolist() == [3.0, 0.0]
    weighted, bias = mix(results, w, b, "weighted")
    assert weighted.tolist() == [0.75 * 1 + 0.25 * 5, 0.75 * 2 - 0.25 * 2] and bias == 0.5
    clean = [(w.copy(), b, 0), (w.copy(), b, 0), (w.copy(), b, 0)]
    for mixing in ("uniform", "weighted"):
        kept, kept_b = mix(clean, w, b, mixing)
        assert kept is w and kept_b == b  # Σk = 0: the weights stay exactly as they were


def test_plan_shards_cuts_consecutive_runs():
    assert plan_shards(5, None) == [[0], [1], [2], [3], [4]]
    assert plan_shards(5, 2) == [[0, 1, 2], [3, 4]]
    assert plan_shards(4, 1) == [[0, 1, 2, 3]]
    with pytest.raises(InputError, match="at most the number of partitions"):
        plan_shards(3, 4)


# ---------------------------------------------------------------- one shard = the cyclic perceptron


@pytest.mark.parametrize(
    "params",
    [
        dict(),
        dict(fit_intercept=True),
        dict(eta=0.37, margin=0.8),
        dict(fit_intercept=True, margin=1.5, eta=2.0),
    ],
)
def test_one_shard_is_the_cyclic_perceptron_bit_for_bit(params):
    X, y = separable(150, 6, seed=1)
    X = X + 0.3  # off-centre, so the intercept matters
    run = perceptron(X, y, order="cyclic", max_sweeps=200, **params)
    Xd = da.from_array(X, chunks=(37, 6))  # uneven blocks: w continues across them
    model = fit_in_process(
        Xd, da.from_array(y, chunks=37), shards=1, max_epochs=200, warn=False, **params
    )
    assert same_bits(model.w, run.w) and model.b == run.b
    assert model.history[:, 0].tolist() == run.updates_per_sweep.tolist()
    assert (model.converged, model.cycled, model.epochs) == (run.converged, run.cycled, run.sweeps)


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data(), n=st.integers(2, 10), d=st.integers(1, 3), fit_intercept=st.booleans())
def test_property_partitions_continue_w_like_the_concatenation(data, n, d, fit_intercept):
    X = np.array(
        data.draw(
            st.lists(st.lists(st.integers(-3, 3), min_size=d, max_size=d), min_size=n, max_size=n)
        ),
        dtype=float,
    )
    y = np.array(data.draw(st.lists(st.sampled_from([-1, 1]), min_size=n, max_size=n)))
    cuts = sorted(set(data.draw(st.lists(st.integers(1, n - 1), max_size=3))))
    chunks = tuple(np.diff([0, *cuts, n]).tolist())
    run = perceptron(X, y, fit_intercept=fit_intercept, max_sweeps=12, warn=False)
    model = fit_in_process(
        da.from_array(X, chunks=(chunks, d)),
        da.from_array(y, chunks=(chunks,)),
        shards=1,
        fit_intercept=fit_intercept,
        max_epochs=12,
        warn=False,
    )
    assert same_bits(model.final_w_, run.w) and model.final_b_ == run.b
    assert model.history[:, 0].tolist() == run.updates_per_sweep.tolist()
    assert (model.converged, model.cycled) == (run.converged, run.cycled)


def test_one_shard_cycles_where_the_cyclic_perceptron_cycles():
    X = np.array([[1.0, 1], [1, -1], [-1, 1], [-1, -1]])
    y = np.array([1, -1, -1, 1])  # XOR: never separable
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        run = perceptron(X, y, fit_intercept=True)
    with pytest.warns(CycledWarning):
        model = fit_in_process(
            da.from_array(X, chunks=2), da.from_array(y, chunks=2), shards=1, fit_intercept=True
        )
    assert run.cycled and model.cycled and not model.converged
    assert model.epochs == run.sweeps and same_bits(model.w, run.w)


def test_not_converged_warns_and_keeps_the_last_mix():
    X, y = separable(60, 3, seed=2)
    y = y.copy()
    y[:5] = -y[:5]  # noise: not separable
    with pytest.warns(NotConvergedWarning, match="max_epochs=4"):
        model = fit_in_process(
            da.from_array(X, chunks=20), da.from_array(y, chunks=20), max_epochs=4, seed=0
        )
    assert model.epochs == 4 and not model.converged and model.history.shape == (4, 3)


# ---------------------------------------------------------------- several shards: the exact oracle


@pytest.mark.parametrize("mixing", ["uniform", "weighted"])
def test_in_process_mixing_equals_exact_ipm(mixing):
    X, y = separable(96, 4, seed=3, integer=True, gap=0.8)
    parts = np.array_split(np.arange(96), 4)
    w, b, history = ipm_fractions(
        [(X[p].tolist(), y[p].tolist()) for p in parts], mixing=mixing, fit_intercept=True
    )
    model = fit_in_process(
        da.from_array(X, chunks=24), da.from_array(y, chunks=24), mixing=mixing, fit_intercept=True
    )
    assert model.history.tolist() == history
    assert model.converged
    if mixing == "uniform":  # integers mixed by 1/4: every float is exact
        assert model.w.tolist() == [float(v) for v in w] and model.b == float(b)
    else:
        np.testing.assert_allclose(model.w, [float(v) for v in w], rtol=1e-12)


# ---------------------------------------------------------------- the threads cluster


@pytest.mark.parametrize("mixing", ["uniform", "weighted"])
@pytest.mark.parametrize("seed", [None, 7])
def test_dask_run_equals_in_process_reference_bit_for_bit(threads_client, mixing, seed):
    X, y = separable(300, 5, seed=4, gap=0.3)
    Xd, yd = da.from_array(X, chunks=(50, 5)), da.from_array(y, chunks=50)
    kwargs = dict(mixing=mixing, seed=seed, shards=3, fit_intercept=True, eta=0.5, max_epochs=60)
    reference = fit_in_process(Xd, yd, **kwargs)
    model = fit(Xd, yd, client=threads_client, **kwargs)
    assert_same_model(model, reference)
    assert model.converged and model.shards == [[0, 1], [2, 3], [4, 5]]
    assert model.history.shape[1] == 3


def test_dask_dataframe_with_string_labels_and_dask_predict(threads_client):
    X, y = separable(200, 3, seed=5)
    frame = pd.DataFrame(
        {"a": X[:, 0], "cls": np.where(y > 0, "spam", "ham"), "b": X[:, 1], "c": X[:, 2]}
    )
    ddf = dd.from_pandas(frame, npartitions=4)
    model = fit(ddf, client=threads_client, label="cls", mixing="weighted")
    reference = fit_in_process(ddf, label="cls", mixing="weighted")
    assert_same_model(model, reference)
    assert model.classes_.tolist() == ["ham", "spam"] and model.feature_names_in_.tolist() == [
        "a",
        "b",
        "c",
    ]
    lazy = model.predict(ddf)  # the label column is dropped by name
    assert isinstance(lazy, da.Array)
    predicted = lazy.compute(scheduler=threads_client.get)
    assert predicted.tolist() == model.predict(X).tolist()
    assert (predicted == frame["cls"].to_numpy()).all()  # it converged: every training row is right


def test_predict_on_dask_arrays_is_lazy_and_blockwise():
    X, y = separable(120, 4, seed=6)
    Xd = da.from_array(X, chunks=(30, 4))
    model = fit_in_process(Xd, da.from_array(y, chunks=30), mixing="weighted")
    scores = model.decision_function(Xd)
    assert isinstance(scores, da.Array) and scores.chunks == ((30, 30, 30, 30),)
    assert same_bits(scores.compute(), model.decision_function(X))
    np.testing.assert_allclose(model.decision_function(X), X @ model.w + model.b, rtol=1e-12)
    assert model.predict(Xd).compute().tolist() == y.tolist()
    assert model.score(Xd, da.from_array(y, chunks=30)) == 1.0 and model.score(X, y) == 1.0
    with pytest.raises(InputError, match="4 features"):
        model.predict(np.ones((2, 3)))


def test_averaged_weights_are_the_mean_of_the_mixes_and_callback_can_stop():
    X, y = separable(200, 4, seed=8, gap=0.1)
    Xd, yd = da.from_array(X, chunks=50), da.from_array(y, chunks=50)
    seen: list[EpochInfo] = []
    model = fit_in_process(Xd, yd, averaged=True, fit_intercept=True, callback=seen.append)
    assert len(seen) == model.epochs and [info.epoch for info in seen] == list(
        range(1, model.epochs + 1)
    )
    np.testing.assert_allclose(model.w, np.mean([info.w for info in seen], axis=0), rtol=1e-12)
    assert model.b == pytest.approx(np.mean([info.b for info in seen]))
    assert same_bits(model.final_w_, seen[-1].w)
    assert seen[0].mistakes.tolist() == model.history[0].tolist()
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # stopped on purpose: no NotConvergedWarning
        stopped = fit_in_process(Xd, yd, callback=lambda info: info.epoch == 2)
    assert stopped.epochs == 2 and not stopped.converged


def test_one_shot_average_is_only_a_baseline():
    X, y = separable(80, 3, seed=9)
    halves = [(X[:40], y[:40]), (X[40:], y[40:])]
    w, b = one_shot_average(halves)
    runs = [perceptron(Xh, yh) for Xh, yh in halves]
    np.testing.assert_allclose(w, (runs[0].w + runs[1].w) / 2)
    assert b == 0.0


# ---------------------------------------------------------------- files, partition by partition


def test_stream_parquet_equals_the_cyclic_perceptron_over_the_concatenation(tmp_path):
    X, y = separable(500, 5, seed=10, gap=0.2)
    write_parquet(tmp_path, X, y, files=3, row_group_size=60)  # 3 files, 9 row groups
    run = perceptron(X, y, fit_intercept=True, max_sweeps=500)
    model = stream_fit(
        str(tmp_path / "*.parquet"), fit_intercept=True, max_epochs=500, progress=False
    )
    assert same_bits(model.w, run.w) and model.b == run.b
    assert model.history[:, 0].tolist() == run.updates_per_sweep.tolist() and model.converged
    assert model.feature_names_in_.tolist() == [f"x{j}" for j in range(5)] and model.n_rows == 500
    directory = stream_fit(str(tmp_path), fit_intercept=True, max_epochs=500, progress=False)
    assert same_bits(directory.w, run.w)


def test_stream_csv_in_byte_ranges_with_string_labels(tmp_path):
    X, y = separable(300, 3, seed=11)
    labels = np.where(y > 0, "yes", "no")
    for i, rows in enumerate(np.array_split(np.arange(300), 2)):
        pd.DataFrame(
            {"target": labels[rows], "u": X[rows, 0], "v": X[rows, 1], "w": X[rows, 2]}
        ).to_csv(tmp_path / f"d{i}.csv", index=False)
    run = perceptron(X, labels, eta=0.5)
    model = stream_fit(
        str(tmp_path / "d*.csv"), label="target", eta=0.5, blocksize=700, progress=False
    )
    assert same_bits(model.w, run.w) and model.classes_.tolist() == ["no", "yes"]
    assert model.history[:, 0].tolist() == run.updates_per_sweep.tolist()


def test_stream_libsvm_sparse_one_based(tmp_path):
    X, y = separable(200, 7, seed=12, integer=True, gap=0.8)
    X = np.insert(X, 3, 0.0, axis=1)  # a column never stored
    for i, rows in enumerate(np.array_split(np.arange(200), 2)):
        dump_svmlight_file(X[rows], y[rows], str(tmp_path / f"s{i}.libsvm"), zero_based=False)
    run = perceptron(sp.csr_matrix(X), y)
    model = stream_fit(str(tmp_path / "*.libsvm"), blocksize=500, progress=False)
    assert model.n_features_in_ == 8 and same_bits(model.w, run.w) and model.converged
    assert model.history[:, 0].tolist() == run.updates_per_sweep.tolist()


def test_stream_holds_one_partition_in_memory(tmp_path):
    rng = np.random.default_rng(13)
    X = rng.normal(size=(80_000, 10))
    y = np.where(X @ rng.normal(size=10) > 0, 1, -1)
    write_parquet(tmp_path, X, y, files=1, row_group_size=10_000)  # 8 partitions of 800 kB
    partition = 10_000 * 10 * 8
    tracemalloc.start()
    try:
        model = stream_fit(str(tmp_path / "*.parquet"), max_epochs=3, progress=False, warn=False)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert model.epochs == 3
    assert peak < 3.5 * partition < X.nbytes / 2, peak


def test_stream_progress_bar_goes_to_stderr(tmp_path, capsys):
    X, y = separable(40, 2, seed=14)
    write_parquet(tmp_path, X, y, files=1, row_group_size=20)
    model = stream_fit(str(tmp_path / "*.parquet"), progress=True)
    captured = capsys.readouterr()
    assert (
        f"sweep {model.epochs}" in captured.err and "40/40" in captured.err and captured.out == ""
    )


# ---------------------------------------------------------------- bad input


def test_bad_inputs_say_what_expected_got_and_fix(tmp_path):
    X, y = separable(40, 2, seed=15)
    Xd, yd = da.from_array(X, chunks=10), da.from_array(y, chunks=10)
    with pytest.raises(InputError, match="data path.*does-not-exist"):
        fit_in_process(str(tmp_path / "does-not-exist-*.parquet"))
    with pytest.raises(InputError, match="row-chunked dask array.*ndarray.*from_array"):
        fit_in_process(X, y)
    with pytest.raises(InputError, match="y.*None"):
        fit_in_process(Xd)
    with pytest.raises(InputError, match="mixing"):
        fit_in_process(Xd, yd, mixing="median")
    with pytest.raises(InputError, match="shards"):
        fit_in_process(Xd, yd, shards=5)
    with pytest.raises(InputError, match="max_epochs"):
        fit_in_process(Xd, yd, max_epochs=0)
    with pytest.raises(InputError, match="fit_in_process option 'max_epoch'.*max_epochs"):
        fit_in_process(Xd, yd, max_epoch=3)  # a typo
    with pytest.raises(InputError, match="stream_fit option 'shards'"):
        stream_fit(Xd, yd, shards=2, progress=False)  # stream_fit runs one shard
    with pytest.raises(InputError, match="40 labels"):
        fit_in_process(Xd, da.from_array(np.ones(39), chunks=10))
    with pytest.raises(InputError, match="exactly two classes.*3 classes"):
        fit_in_process(Xd, da.from_array(np.arange(40) % 3, chunks=10))
    write_parquet(tmp_path, X, y, files=2, row_group_size=10)
    with pytest.raises(InputError, match="label.*x0, x1, label.*'target'"):
        fit_in_process(str(tmp_path / "*.parquet"), label="target")
    with pytest.raises(InputError, match="y.*None when X is a path"):
        fit_in_process(str(tmp_path / "*.parquet"), y)
    bad = X.copy()
    bad[33, 1] = np.nan
    nan_dir = tmp_path / "nan"
    nan_dir.mkdir()
    write_parquet(nan_dir, bad, y, files=2, row_group_size=10)
    with pytest.raises(InputError, match=r"part-001\.parquet \(row group 1\).*finite"):
        stream_fit(str(nan_dir / "*.parquet"), progress=False)
    (tmp_path / "x.csv").write_text("a,label\n1,1\n")
    with pytest.raises(InputError, match="one format"):
        fit_in_process(str(tmp_path / "*.*"))


# ---------------------------------------------------------------- the CLI hand-off


def test_train_from_cli_stream_and_the_train_command(tmp_path, capsys):
    X, y = separable(120, 3, seed=16)
    write_parquet(tmp_path, X, y, files=2, row_group_size=25)
    run = perceptron(X, y, fit_intercept=True)
    options = dict(
        eta=1.0,
        fit_intercept=True,
        max_sweeps=None,
        margin=0.0,
        label=None,
        algorithm="perceptron",
        order=None,
        seed=None,
        exact=False,
        fmt=None,
        max_updates=None,
    )
    model = train_from_cli(tmp_path / "*.parquet", stream=True, options=options, quiet=True)
    assert same_bits(model.w, run.w) and model.b == run.b and capsys.readouterr().out == ""
    with pytest.raises(InputError, match="--algorithm with --stream"):
        train_from_cli(
            tmp_path / "*.parquet", stream=True, options=dict(options, algorithm="pocket")
        )
    with pytest.raises(InputError, match="--scheduler or --shards"):
        train_from_cli(tmp_path / "*.parquet", stream=True, shards=2, options=options)

    from perceptronlab.cli import app

    out = tmp_path / "model.json"
    result = CliRunner().invoke(
        app,
        [
            "train",
            str(tmp_path / "*.parquet"),
            "--stream",
            "--intercept",
            "--json",
            "--quiet",
            "--out",
            str(out),
        ],
    )
    assert result.exit_code == 0, result.output
    record = json.loads(result.stdout)
    assert record["w"] == run.w.tolist() and record["mistakes"] == run.mistakes
    assert record["sweeps"] == run.sweeps and record["converged"] is True
    saved = json.loads(out.read_text())
    assert saved["w"] == run.w.tolist() and saved["b"] == run.b


# ---------------------------------------------------------------- the shard kept on a worker


def shard_parts(X, y, sizes, *, sparse):
    """Cut (X, ±1 labels) into partitions of the given row counts, as ``finalize`` returns them."""
    cuts = np.cumsum(sizes)[:-1]
    rows = np.split(np.arange(X.shape[0]), cuts)
    return [
        (
            (sp.csr_matrix(X[r]) if sparse else np.ascontiguousarray(X[r])),
            np.where(y[r] > 0, 1.0, -1.0),
        )
        for r in rows
    ]


@pytest.mark.parametrize("sparse", [False, True])
@pytest.mark.parametrize("seed", [None, 11])
@pytest.mark.parametrize("fit_intercept", [False, True])
def test_shard_rows_sweep_equals_sweep_partitions_epoch_after_epoch(sparse, seed, fit_intercept):
    """The engines built once and reused give the per-sweep engines' bits, every epoch."""
    from perceptronlab.distributed.mixing import shard_seed, sweep_partitions
    from perceptronlab.distributed.shard import ShardRows

    X, y = separable(203, 37, seed=12, gap=0.05)  # 37 columns: rows start at odd offsets
    if sparse:
        X = np.where(np.abs(X) > 0.8, X, 0.0)  # about 40 % nonzero
    parts = shard_parts(X, y, [50, 71, 1, 81], sparse=sparse)
    params = dict(eta=0.7, margin=0.25, fit_intercept=fit_intercept)
    rows = ShardRows(parts, **params)
    assert rows.n_rows == 203
    w, b = np.zeros(37), 0.0
    mistakes = []
    for epoch in range(1, 7):
        entropy = shard_seed(seed, epoch, 3)
        got = rows.sweep(w, b, entropy)
        want = sweep_partitions(parts, w, b, seed=entropy, **params)
        assert same_bits(got[0], want[0]) and got[1] == want[1] and got[2] == want[2]
        mistakes.append(got[2])
        w, b = (
            0.5 * got[0] + 0.25,
            got[1] - 0.125,
        )  # the next epoch starts elsewhere, as after a mix
    assert sum(mistakes) > 0
    spilled = pickle.loads(pickle.dumps(rows))  # a worker may spill the shard to disk and back
    assert same_bits(spilled.sweep(w, b, seed)[0], rows.sweep(w, b, seed)[0])
    returned = rows.sweep(w, b, None)[0]
    returned[:] = np.nan  # the result is the caller's own: the next sweep is not disturbed
    assert same_bits(rows.sweep(w, b, None)[0], sweep_partitions(parts, w, b, **params)[0])


def test_sweep_shards_names_the_shard_whose_sweep_failed():
    from perceptronlab.distributed.shard import ShardRows, ShardSweepError, sweep_shards

    X, y = separable(40, 3, seed=2)
    good = ShardRows(
        shard_parts(X, y, [40], sparse=False), eta=1.0, margin=0.0, fit_intercept=False
    )
    huge = ShardRows(  # finite rows whose updates overflow w
        shard_parts(X * 1e200, y, [40], sparse=False), eta=1e200, margin=0.0, fit_intercept=False
    )
    results = sweep_shards([good, good], np.zeros(3), 0.0, [None, (1, 1, 1)])
    assert len(results) == 2 and same_bits(results[0][0], good.sweep(np.zeros(3), 0.0, None)[0])
    with pytest.raises(ShardSweepError) as caught:
        sweep_shards([good, huge, good], np.zeros(3), 0.0, [None, None, None])
    position, cause = caught.value.args
    assert position == 1 and "finite" in str(cause).lower()


def test_dask_sparse_shuffled_run_sweeps_one_task_per_worker_per_epoch(threads_client, tmp_path):
    """LIBSVM (CSR) files, seed, intercept and margin, 5 shards on 2 workers: the in-process bits,
    and every epoch exactly one sweep task per worker holding shards."""
    from distributed import get_task_stream

    X, y = separable(400, 8, seed=9, gap=0.2)
    X = np.where(np.abs(X) > 0.5, X, 0.0)
    for i, rows in enumerate(np.array_split(np.arange(400), 4)):
        dump_svmlight_file(X[rows], y[rows], str(tmp_path / f"s{i}.libsvm"), zero_based=True)
    pattern = str(tmp_path / "*.libsvm")
    kwargs = dict(
        seed=5, shards=5, fit_intercept=True, margin=0.5, max_epochs=8, blocksize=1500, warn=False
    )
    reference = fit_in_process(pattern, **kwargs)
    assert reference.history.shape[1] == 5 and reference.history.sum() > 0
    with get_task_stream(client=threads_client) as stream:
        model = fit(pattern, client=threads_client, **kwargs)
    assert_same_model(model, reference)
    sweeps = [
        str(task["key"]) for task in stream.data if "perceptronlab-sweep-" in str(task["key"])
    ]
    per_epoch: dict[int, list[list[int]]] = {}
    for key in sweeps:  # perceptronlab-sweep-<token>-e<epoch>-s<shard>.<shard>...-a<attempt>
        found = re.search(r"-e(\d+)-s([\d.]+)-a0$", key)
        assert found is not None, key
        per_epoch.setdefault(int(found[1]), []).append([int(s) for s in found[2].split(".")])
    assert sorted(per_epoch) == list(range(1, model.epochs + 1))
    for tasks in per_epoch.values():
        assert 1 <= len(tasks) <= 2  # one task per worker (2 workers), never one per shard
        assert sorted(s for shards in tasks for s in shards) == [0, 1, 2, 3, 4]
        assert all(shards == sorted(shards) for shards in tasks)  # in shard order
