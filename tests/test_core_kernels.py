"""The fast paths give the very same bits as the one-row loop (and so as the NumPy twin)."""

import numpy as np
import pytest
import scipy.sparse as sp

from perceptronlab import perceptron
from perceptronlab.core import kernels
from perceptronlab.core.batch import perceptron_batch
from perceptronlab.core.engines import CompiledEngine
from perceptronlab.core.reference import ordered_dot, reference_update
from perceptronlab.core.scores import margins

NO_ORDER = np.empty(0, dtype=np.int64)


def problem(seed, n=3000, d=17, dtype=np.float64, integer=False):
    rng = np.random.default_rng(seed)
    X = rng.integers(-4, 5, size=(n, d)) if integer else rng.normal(size=(n, d))
    X = X.astype(dtype)
    y = np.sign(X.astype(np.float64) @ rng.normal(size=d) + 0.01)
    return X, y


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("block", [7, 64, 1000])
@pytest.mark.parametrize("use_order", [False, True])
def test_blocked_parallel_sweep_equals_sequential_bits(dtype, block, use_order):
    X, y = problem(1, dtype=dtype)
    order = np.random.default_rng(2).permutation(X.shape[0]) if use_order else NO_ORDER
    n = X.shape[0]
    row_sq = kernels.row_squared_norms(X, np.empty(n))
    assert np.all(
        row_sq >= np.einsum("ij,ij->i", X.astype(np.float64), X.astype(np.float64)) * (1 - 1e-12)
    )
    for sweep in range(4):  # early sweeps (many updates) and later ones
        w_seq, w_par = np.zeros(X.shape[1]), np.zeros(X.shape[1])
        for _ in range(sweep + 1):
            outs = [np.empty(n, np.int64), np.empty(n), np.empty(n, np.int64), np.empty(n)]
            c1, b1, _ = kernels.sweep_dense(
                X, y, order, use_order, w_seq, 0.5, 1.0, 0.0, True, outs[0], outs[1]
            )
            c2, b2, _ = kernels.sweep_dense_blocked(
                X,
                y,
                order,
                use_order,
                (w_par, 0.5, 1.0, 0.0, True, outs[2], outs[3]),
                block,
                np.empty(block),
                row_sq,
            )
            assert c1 == c2 and b1 == b2
            assert np.array_equal(w_seq, w_par)
            assert np.array_equal(outs[0][:c1], outs[2][:c2])


@pytest.fixture
def two_threads_pay(monkeypatch):
    """This machine's thread choice said yes (whatever its own measurement found: the path under
    test is the parallel one), with the fork/join of a measured machine."""
    from perceptronlab.core import choice

    monkeypatch.setattr(choice, "threads_choice", lambda: {"two_threads": True, "fork_rows": 300.0})


def test_engine_switches_to_the_parallel_sweep_in_late_sweeps_with_identical_weights(
    two_threads_pay,
):
    X, y = problem(3, n=40_000, d=8)
    one = perceptron(X, y, max_sweeps=12, n_jobs=1, warn=False)
    two = perceptron(X, y, max_sweeps=12, n_jobs=2, warn=False)
    assert (
        np.array_equal(one.w, two.w)
        and one.mistake_indices.tolist() == two.mistake_indices.tolist()
    )
    engine = CompiledEngine(X, y, eta=1.0, margin=0.0, fit_intercept=False, w0=two.w, n_jobs=2)
    engine._last_updates = 0
    assert engine._use_parallel()


def test_the_engine_leaves_two_cores_that_do_not_pay_with_the_same_weights(two_threads_pay):
    X, y = problem(3, n=40_000, d=8)
    one = perceptron(X, y, max_sweeps=12, n_jobs=1, warn=False)
    engine = CompiledEngine(X, y, eta=1.0, margin=0.0, fit_intercept=False, n_jobs=2)
    engine.sweep(None, 1)
    engine._last_updates = 0  # as if the last sweep were late: the next ones try two cores
    engine._one_core_seconds = 0.0  # and one core were unbeatable
    for sweep in range(2, 13):
        tried = engine._use_parallel()
        engine.sweep(None, sweep)
        engine._last_updates = 0
        if sweep <= 3:
            assert tried  # two tries ...
    assert (
        not engine._use_parallel() and engine._parallel_losses == 2
    )  # ... then one core for the rest
    assert (
        np.array_equal(engine.w, one.w) and engine.indices.tolist() == one.mistake_indices.tolist()
    )


def test_late_sweeps_stay_on_one_core_where_two_threads_were_measured_not_to_pay(monkeypatch):
    from perceptronlab.core import choice

    X, y = problem(3, n=40_000, d=8)
    one = perceptron(X, y, max_sweeps=12, n_jobs=1, warn=False)
    monkeypatch.setattr(choice, "threads_choice", lambda: {"two_threads": False})
    engine = CompiledEngine(X, y, eta=1.0, margin=0.0, fit_intercept=False, n_jobs=2)
    for sweep in range(1, 13):
        engine._last_updates = 0 if sweep > 1 else None  # every sweep after the first a late one
        assert not engine._use_parallel()
        engine.sweep(None, sweep)
    assert engine._row_sq is None  # the parallel path never ran (it computes the rows' norms)
    assert np.array_equal(engine.w, one.w)


def test_the_parallel_block_balances_fork_joins_against_thrown_away_scores():
    from perceptronlab.core.choice import PARALLEL_BLOCK_ROWS, parallel_block

    low, high = PARALLEL_BLOCK_ROWS
    # √(n·F/(k + 1)): a million rows, 11 updates, a fork/join worth 300 rows: √(10⁶·300/12) = 5,000
    assert parallel_block(1_000_000, 11, 300.0) == 5000
    assert parallel_block(1_000_000, 0, 300.0) == round((1_000_000 * 300) ** 0.5)
    assert parallel_block(10**9, 0, 10_000.0) == high and parallel_block(20_000, 50, 1.0) == low
    lengths = [parallel_block(1_000_000, k, 300.0) for k in (0, 1, 10, 100, 1000)]
    assert lengths == sorted(lengths, reverse=True)  # more updates, shorter blocks
    assert parallel_block(1_000_000, 11, 0.0) == parallel_block(1_000_000, 11, 1.0)


def test_the_thread_choices_slice_has_a_late_sweep_with_exactly_its_flipped_labels_updating():
    from perceptronlab.core import choice

    X, y, w = choice._late_slice(3 * choice._SLICE_FLIP_EVERY * 8 * choice._SLICE_D)
    n = X.shape[0]
    assert X.shape[1] == choice._SLICE_D and n > 2 * choice._SLICE_FLIP_EVERY  # three flips or more
    idx, norms = np.empty(n, dtype=np.int64), np.empty(n)
    count, _, stopped = kernels.sweep_dense(
        X, y, NO_ORDER, False, w.copy(), 0.0, 1.0, 0.0, False, idx, norms
    )
    assert stopped == -1
    assert idx[:count].tolist() == list(range(0, n, choice._SLICE_FLIP_EVERY))


@pytest.mark.skipif(
    __import__("numba").config.NUMBA_NUM_THREADS < 2, reason="needs two threads for Numba"
)
def test_the_thread_choice_follows_its_measured_gain(monkeypatch):
    from perceptronlab.core import choice

    # a small slice (in cache: what is tested is the measurement's arithmetic, not what it finds)
    found = choice.measure_threads(nbytes=2**20, rounds=2)
    ms = found["measured_ms"]
    assert set(ms) == {
        "read, 1 thread",
        "read, 2 threads",
        "late sweep, 1 thread",
        "late sweep, 2 threads",
        "fork/join",
    }
    assert all(value > 0 for value in ms.values()) and found["fork_rows"] > 0
    assert found["two_threads"] is (found["gain"] >= choice.THREADS_MIN_GAIN)
    if not found["two_threads"]:
        assert found["measured_twice"]  # a "no" is measured again (the second one decides)
    ratio = ms["late sweep, 1 thread"] / ms["late sweep, 2 threads"]
    # the gain is the rounds' median ratio: within the span of the medians' ratio
    assert 0 < found["gain"] and min(ratio, 1.0) / 10 < found["gain"] < max(ratio, 1.0) * 10


def test_the_thread_choice_is_measured_once_and_kept(monkeypatch, tmp_path, kernel_choices_small):
    import json

    from perceptronlab.core import choice, config

    monkeypatch.setattr(choice, "cache_file", lambda: tmp_path / "kernel-choices-test.json")
    monkeypatch.setattr(  # beside cache_file
        choice, "threads_cache_file", kernel_choices_small.threads_cache_file
    )
    measured = {
        "two_threads": False,
        "gain": 0.98,
        "read_ceiling": 1.51,
        "fork_rows": 250.0,
        "measured_ms": {
            "read, 1 thread": 40.0,
            "read, 2 threads": 26.5,
            "late sweep, 1 thread": 60.0,
            "late sweep, 2 threads": 61.2,
            "fork/join": 0.02,
        },
        "slice": "655,360×100 float64, 500 MiB",
        "threads_per_core": 2,
        "measured_twice": True,
    }
    calls = []
    monkeypatch.setattr(choice, "measure_threads", lambda: calls.append(1) or dict(measured))
    choice.threads_choice.cache_clear()
    try:
        assert "measured now" in choice.threads_choice()["source"] and len(calls) == 1
        path = choice.threads_cache_file()
        assert path.name == "late-sweep-threads-test.json"
        assert json.loads(path.read_text()) == measured
        choice.threads_choice.cache_clear()
        again = choice.threads_choice()
        assert "measured earlier" in again["source"] and len(calls) == 1
        assert not choice.two_threads_pay() and choice.fork_rows() == 250.0
        text = config.threads_text()
        assert text.startswith("on one thread (two did not make it 1.05× faster here)")
        for part in (
            "60.0 ms",
            "61.2 ms (0.98×)",
            "(the memory's ceiling 1.51×)",
            "2 logical CPUs",
        ):
            assert part in text
        path.write_text("not json")  # a damaged file is measured again
        choice.threads_choice.cache_clear()
        assert "measured now" in choice.threads_choice()["source"] and len(calls) == 2
    finally:
        choice.threads_choice.cache_clear()


def test_margins_kernel_matches_ordered_dot():
    X, y = problem(4, n=200)
    w = np.random.default_rng(5).normal(size=X.shape[1])
    expected = [y[i] * (ordered_dot(w, X[i]) + 0.25) for i in range(X.shape[0])]
    assert margins(X, y, w, 0.25).tolist() == expected
    assert kernels.margins_dense_parallel(X, y, w, 0.25, np.empty(X.shape[0])).tolist() == expected
    assert np.array_equal(margins(sp.csr_matrix(X), y, w, 0.25), margins(X, y, w, 0.25))


def test_batch_equals_single_runs():
    rng = np.random.default_rng(6)
    Xs = rng.normal(size=(25, 60, 3))
    Xs[:, :, 2] = 1.0
    ys = np.sign(Xs[:, :, 0] + 0.5 * Xs[:, :, 1] + 0.1)
    batch = perceptron_batch(Xs, ys, max_sweeps=200)
    for r in range(25):
        single = perceptron(Xs[r], ys[r], max_sweeps=200, warn=False)
        assert np.array_equal(batch.w[r], single.w)
        assert batch.mistakes[r] == single.mistakes and batch.sweeps[r] == single.sweeps
        assert batch.converged[r] == single.converged


def test_batch_stops_where_the_driver_stops_cycles_and_limits():
    """Non-separable runs: the driver's cycle proof ends them at the same sweep as perceptron()."""
    rng = np.random.default_rng(16)
    Xs = rng.integers(-2, 3, size=(30, 12, 2)).astype(np.float64)
    ys = np.where(rng.random((30, 12)) < 0.5, -1.0, 1.0)  # random labels: most runs cycle
    for max_sweeps in (3, 400):
        batch = perceptron_batch(Xs, ys, max_sweeps=max_sweeps, fit_intercept=True)
        for r in range(30):
            single = perceptron(Xs[r], ys[r], max_sweeps=max_sweeps, fit_intercept=True, warn=False)
            assert np.array_equal(batch.w[r], single.w) and batch.b[r] == single.b
            assert (batch.mistakes[r], batch.sweeps[r]) == (single.mistakes, single.sweeps)
            assert (batch.converged[r], batch.cycled[r]) == (single.converged, single.cycled)
    assert batch.cycled.sum() >= 10


def test_batch_overflow_is_the_drivers_error():
    from perceptronlab.exceptions import WeightOverflowError

    X = np.array([[[1.0, 0.0], [0.0, 1.0]], [[1e308, 1e308], [-1e308, 1e308]]])
    with pytest.raises(WeightOverflowError, match="sweep 1 of run 1.*Scale"):
        perceptron_batch(X, np.array([[1, -1], [1, 1]]), eta=10.0)


def test_batch_rejects_bad_shapes():
    from perceptronlab.exceptions import InputError

    with pytest.raises(InputError, match="3-D array"):
        perceptron_batch(np.zeros((3, 2)), np.ones((3, 2)))


@pytest.mark.parametrize("order", ["cyclic", "shuffle"])
def test_csr_equals_dense_bits_on_float_data_with_ragged_rows(order):
    rng = np.random.default_rng(8)
    X = rng.normal(size=(501, 40))
    X[rng.random(X.shape) < 0.8] = 0.0  # rows of different lengths, some nearly empty
    y = np.sign(X @ rng.normal(size=40) + 0.01)
    dense = perceptron(X, y, order=order, seed=1, fit_intercept=True, max_sweeps=6, warn=False)
    sparse = perceptron(
        sp.csr_matrix(X), y, order=order, seed=1, fit_intercept=True, max_sweeps=6, warn=False
    )
    assert np.array_equal(dense.w, sparse.w) and dense.b == sparse.b
    assert dense.mistake_indices.tolist() == sparse.mistake_indices.tolist()


def _sklearn_csr_weights(X, y, epochs):
    import warnings

    from sklearn.exceptions import ConvergenceWarning
    from sklearn.linear_model import Perceptron

    model = Perceptron(
        shuffle=False,
        eta0=1.0,
        alpha=0.0,
        penalty=None,
        fit_intercept=False,
        tol=None,
        max_iter=epochs,
    )
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        return model.fit(X, y).coef_[0]


@pytest.mark.parametrize(
    "kind", ["uniform columns (the paired loop)", "power-law columns (row by row)"]
)
def test_every_csr_loop_equals_sklearn_bit_for_bit(kind):
    from perceptronlab.core.kernels import csr_gathers_miss

    rng = np.random.default_rng(11)
    n, d = 3000, 2**18
    if kind.startswith("uniform"):
        columns = np.sort(rng.integers(0, d, size=(n, 40)), axis=1)
    else:  # a few columns in most rows, as words in documents
        ranks = np.minimum((rng.pareto(0.9, size=(n, 40)) * 3).astype(np.int64), d - 1)
        columns = np.sort(rng.permutation(d)[ranks], axis=1)
    X = sp.csr_matrix(
        (rng.standard_normal(columns.size), columns.ravel(), np.arange(0, columns.size + 1, 40)),
        shape=(n, d),
    )
    X.sum_duplicates()
    y = np.where(X @ rng.standard_normal(d) > 0, 1.0, -1.0)
    assert csr_gathers_miss(X.indptr, X.indices, d) == kind.startswith("uniform")
    ours = perceptron(X, y, max_sweeps=3, warn=False)
    assert ours.sweeps == 3 and ours.mistakes > 300
    expected = _sklearn_csr_weights(X, y, 3)
    assert np.array_equal(ours.w, expected)
    assert kernels.CSR_LOOPS == ("row by row", "prefetched", "paired")
    for loop in kernels.CSR_LOOPS:  # each variant, whichever this machine chose: the same bits
        w, idx, norms = np.zeros(d), np.empty(n, np.int64), np.empty(n)
        for _ in range(3):
            kernels.sweep_csr(
                X.indptr,
                X.indices,
                X.data,
                y,
                NO_ORDER,
                False,
                (w, 0.0, 1.0, 0.0, False, idx, norms),
                loop,
            )
        assert np.array_equal(w, expected)


def test_the_weights_fingerprint_tells_every_bit_apart():
    from perceptronlab.core.kernels import fingerprint

    rng = np.random.default_rng(12)
    w = rng.standard_normal(1000)
    seen = {fingerprint(w, 0.5)}
    assert fingerprint(w.copy(), 0.5) in seen  # the same bits, the same key
    for j in range(0, 1000, 7):  # one bit flipped anywhere, or b changed, is another key
        for bit in (0, 31, 63):
            other = w.copy()
            other.view(np.uint64)[j] ^= np.uint64(1) << np.uint64(bit)
            key = fingerprint(other, 0.5)
            assert key not in seen
            seen.add(key)
    for b in (-0.5, 0.0, -0.0, np.nextafter(0.5, 1)):
        assert fingerprint(w, b) not in seen
        seen.add(fingerprint(w, b))
    assert fingerprint(np.zeros(3), 0.0) != fingerprint(np.zeros(4), 0.0)  # the length counts


@pytest.mark.parametrize("kind", ["integer ties", "wide range", "float32 near ties"])
def test_blocked_sweep_decides_stale_rows_only_when_the_bound_allows(kind):
    """Late sweeps where many rows sit on or near the margin (exact ties on integer data, rows of
    magnitudes 1e-6 … 1e6, float32 rows next to the hyperplane): the blocked sweep's stale scores
    must never decide a row the exact score would decide otherwise."""
    rng = np.random.default_rng(13)
    n, d = 20_000, 12
    if kind == "integer ties":
        X = rng.integers(-2, 3, size=(n, d)).astype(np.float64)
    elif kind == "wide range":
        X = rng.normal(size=(n, d)) * 10.0 ** rng.integers(-6, 7, size=(n, 1))
    else:
        X = rng.normal(size=(n, d)).astype(np.float32)
    w_true = rng.normal(size=d)
    y = np.where(X.astype(np.float64) @ w_true >= 0, 1.0, -1.0)
    w0 = w_true + 1e-3 * rng.normal(
        size=d
    )  # a near-final w: few updates, many rows close to the margin
    for block in (512, 4096):
        w_seq, w_par = w0.copy(), w0.copy()
        outs = [np.empty(n, np.int64), np.empty(n), np.empty(n, np.int64), np.empty(n)]
        b_seq = b_par = 0.0
        for _ in range(3):
            c1, b_seq, _ = kernels.sweep_dense(
                X, y, NO_ORDER, False, w_seq, b_seq, 1.0, 0.0, True, outs[0], outs[1]
            )
            c2, b_par, _ = kernels.sweep_dense_blocked(
                X,
                y,
                NO_ORDER,
                False,
                (w_par, b_par, 1.0, 0.0, True, outs[2], outs[3]),
                block,
                np.empty(block),
                kernels.row_squared_norms(X, np.empty(n)),
            )
            assert c1 == c2 and b_seq == b_par and np.array_equal(w_seq, w_par)
            assert np.array_equal(outs[0][:c1], outs[2][:c2]) and np.array_equal(
                outs[1][:c1], outs[3][:c2]
            )
        assert c1 > 0  # the late sweeps still update


def test_show_config_names_the_cpu_and_the_kernels_chosen():
    import io

    import perceptronlab
    from perceptronlab.core import config, cpu

    out = io.StringIO()
    perceptronlab.show_config(file=out)
    lines = out.getvalue().splitlines()
    assert lines[0] == f"perceptronlab {perceptronlab.__version__}"
    assert lines[2] == f"CPU: {cpu.cpu_text()}"
    assert {line.split(":")[0] for line in lines[3:]} == set(config.kernel_choices())
    info = cpu.cpu()
    assert info["avx512"] in (True, False, None) and (
        info["model_name"] is None or isinstance(info["model_name"], str)
    )
    if (
        info["vendor"] is not None
    ):  # Linux: the first processor's fields, as /proc/cpuinfo writes them
        text = open("/proc/cpuinfo", encoding="utf-8").read()
        assert f"vendor_id\t: {info['vendor']}" in text and (
            ("avx512f" in text.split()) == info["avx512"]
        )


def test_a_csr_loop_other_than_row_by_row_needs_a_second_measurement_to_agree(monkeypatch):
    from perceptronlab.core import choice

    paired_wins = {"row by row": 2.4, "prefetched": 2.3, "paired": 2.0}
    rows_win = {"row by row": 1.8, "prefetched": 2.0, "paired": 2.0}
    for sequence, chosen in (
        ([paired_wins, rows_win], "row by row"),  # a disturbed first measurement is not kept
        ([paired_wins, paired_wins], "paired"),
        ([rows_win], "row by row"),  # row by row needs no second measurement
    ):
        calls = iter(sequence)
        monkeypatch.setattr(choice, "_time_loops", lambda calls=calls: dict(next(calls)))
        monkeypatch.setattr(choice, "measure_dense", lambda: {"dense_sweep": "8 rows"})
        found = choice.measure()
        assert found["csr_loop"] == chosen and next(calls, None) is None
        assert ("confirmed_ms" in found) == (len(sequence) == 2)


def test_the_csr_loop_choice_is_measured_once_and_kept(monkeypatch, tmp_path):
    import functools
    import json

    from perceptronlab.core import choice

    path = tmp_path / "kernel-choices-test.json"
    monkeypatch.setattr(choice, "cache_file", lambda: path)
    # measured on a small problem of the same kind (the same compiled loops, a tenth of a second):
    # what is tested is that the measurement is made once and kept, not what it finds
    small = functools.partial(choice._paired_problem, n=512, nnz=16, d=2**14)
    monkeypatch.setattr(choice, "_paired_problem", small)
    monkeypatch.setattr(choice, "_dense_bytes", lambda: 2**20)
    choice.choices.cache_clear()
    try:
        first = choice.choices()
        assert "measured now" in first["source"] and set(first["measured_ms"]) == {
            "CSR paired",
            "CSR prefetched",
            "CSR row by row",
        }
        kept = json.loads(path.read_text())
        assert kept["csr_loop"] == first["csr_loop"] in kernels.CSR_LOOPS
        times = first[
            "measured_ms"
        ]  # the chosen loop is the fastest, by at least 3 %, or row by row
        fastest = min(times, key=times.__getitem__).removeprefix("CSR ")
        assert kept["csr_loop"] == (
            fastest
            if times[f"CSR {fastest}"] < choice.MARGIN * times["CSR row by row"]
            else "row by row"
        )
        other = next(name for name in kernels.CSR_LOOPS if name != kept["csr_loop"])
        kept["csr_loop"] = other  # what the file says is what is used
        path.write_text(json.dumps(kept))
        choice.choices.cache_clear()
        assert choice.choices()["csr_loop"] == other
        # (a Generator: the legacy RandomState drew the 160,000 positions by shuffling all 10⁹)
        X = sp.random(
            4000, 2**18, density=40 / 2**18, format="csr", random_state=np.random.default_rng(0)
        )
        assert choice.csr_loop(X.indptr, X.indices, X.shape[1]) == other
        narrow = sp.random(2000, 100, density=0.4, format="csr", random_state=0)
        assert choice.csr_loop(narrow.indptr, narrow.indices, 100) == "row by row"
        assert "measured earlier" in choice.choices()["source"]
        path.write_text("not json")  # a damaged file is measured again
        choice.choices.cache_clear()
        assert "measured now" in choice.choices()["source"]
        path.write_text(json.dumps({"csr_paired": True}))  # an older version's file: measured again
        choice.choices.cache_clear()
        assert "measured now" in choice.choices()["source"]
    finally:
        choice.choices.cache_clear()


def _one_row_oracle(X, y, order, w, b, eta, margin, fit_intercept):
    """The rule one row at a time in Python (the NumPy twin's dot product and update): the bits
    every dense loop must give. Returns (w, b, rows updated)."""
    updated = []
    for i in order:
        step = eta * y[i]
        if y[i] * (ordered_dot(w, X[i]) + b) <= margin:
            w = reference_update(w, X[i], step)
            b = b + step if fit_intercept else b
            updated.append(int(i))
    return w, b, updated


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
@pytest.mark.parametrize(
    ("d", "use_order", "margin", "fit_intercept"),
    [(13, False, 0.0, True), (3, True, 0.0, False), (20, True, 0.5, True), (1, False, 0.5, False)],
)
def test_every_dense_loop_gives_the_bits_of_the_one_row_rule(
    dtype, d, use_order, margin, fit_intercept
):
    """Eight or four rows in SIMD lanes, prefetching or not, or one row at a time: whichever loop this
    CPU chose, the same w, b and updates, bit for bit, as the rule run one row at a time in Python,
    in early sweeps (updates interrupt the groups) and later ones."""
    rng = np.random.default_rng(d)
    n = 301  # not a multiple of a group: the last group is short
    X = rng.normal(size=(n, d)).astype(dtype)
    y = np.where(X.astype(np.float64) @ rng.normal(size=d) + 0.05 > 0, 1.0, -1.0)
    order = rng.permutation(n) if use_order else NO_ORDER
    expected_w, expected_b, expected_rows = np.zeros(d), 0.25, []
    for _ in range(3):
        expected_w, expected_b, rows = _one_row_oracle(
            X,
            y,
            order if use_order else range(n),
            expected_w,
            expected_b,
            0.7,
            margin,
            fit_intercept,
        )
        expected_rows.append(rows)
    assert len(expected_rows[0]) > 20 and kernels.DEFAULT_DENSE_SWEEP in kernels.DENSE_SWEEPS
    assert set(kernels.DENSE_SWEEPS) == {
        "8 rows, prefetched",
        "8 rows",
        "4 rows, prefetched",
        "4 rows",
        "row by row",
    }
    logs = []
    for loop in kernels.DENSE_SWEEPS:
        w, b = np.zeros(d), 0.25
        idx, norms = np.empty(n, np.int64), np.empty(n)
        for sweep in range(3):
            count, b, stopped = kernels.sweep_dense_loop(
                X, y, order, use_order, (w, b, 0.7, margin, fit_intercept, idx, norms), loop
            )
            assert stopped == -1 and idx[:count].tolist() == expected_rows[sweep], loop
        assert np.array_equal(w, expected_w) and b == expected_b, loop
        logs.append(norms[:count].tobytes())
    assert len(set(logs)) == 1  # the norms logged, too


def test_every_dense_loop_stops_at_the_first_row_that_is_not_finite():
    X, y = problem(5, n=200, d=9)
    X[77, 4] = np.nan
    for loop in kernels.DENSE_SWEEPS:
        rule = (np.zeros(9), 0.0, 1.0, 0.0, True, np.empty(200, np.int64), np.empty(200))
        count, _, stopped = kernels.sweep_dense_loop(X, y, NO_ORDER, False, rule, loop)
        assert stopped == 77, loop


def test_a_dense_loop_other_than_the_default_needs_a_second_measurement_to_agree(monkeypatch):
    from perceptronlab.core import choice

    problem_seen = {"rows": 10, "columns": 100, "MiB": 1, "updates": {"from w = 0": 5, "late": 1}}
    default = {name: [1.0, 1.0] for name in kernels.DENSE_SWEEPS}
    fours_win = {**default, "4 rows": [0.9, 0.9]}
    close = {**default, "row by row": [0.99, 0.99]}  # 1 % faster: not enough
    early_only = {**default, "row by row": [0.5, 1.6]}  # the sum of both sweeps decides
    for sequence, chosen in (
        ([fours_win, default], "8 rows, prefetched"),  # a disturbed first measurement is not kept
        ([fours_win, fours_win], "4 rows"),
        ([close], "8 rows, prefetched"),  # the default needs no second measurement
        ([early_only], "8 rows, prefetched"),
    ):
        calls = iter(sequence)
        monkeypatch.setattr(
            choice, "_time_dense_sweeps", lambda calls=calls: (dict(next(calls)), problem_seen)
        )
        found = choice.measure_dense()
        assert found["dense_sweep"] == chosen and next(calls, None) is None
        assert ("dense_confirmed_ms" in found) == (len(sequence) == 2)


def test_the_dense_loop_choice_is_measured_once_kept_and_taken_by_the_engine(monkeypatch, tmp_path):
    import functools
    import json

    from perceptronlab.core import choice

    path = tmp_path / "kernel-choices-test.json"
    monkeypatch.setattr(choice, "cache_file", lambda: path)
    monkeypatch.setattr(choice, "_dense_bytes", lambda: 2**20)  # the loops, not the sizes
    small = functools.partial(choice._paired_problem, n=512, nnz=16, d=2**14)
    monkeypatch.setattr(choice, "_paired_problem", small)
    choice.choices.cache_clear()
    try:
        first = choice.choices()
        assert set(first["dense_measured_ms"]) == set(kernels.DENSE_SWEEPS)
        assert first["dense_problem"]["rows"] * 100 * 8 <= 2**20
        assert first["dense_problem"]["updates"]["from w = 0"] > 100
        total = {name: sum(ms) for name, ms in first["dense_measured_ms"].items()}
        fastest = min(total, key=total.__getitem__)
        if "dense_confirmed_ms" not in first:  # one measurement: the default, unless beaten by 3 %
            assert first["dense_sweep"] == kernels.DEFAULT_DENSE_SWEEP
            assert total[fastest] >= choice.MARGIN * total[kernels.DEFAULT_DENSE_SWEEP] * 0.9999
        kept = json.loads(path.read_text())
        assert kept["dense_sweep"] == first["dense_sweep"]
        kept["dense_sweep"] = "4 rows"  # what the file says is what is used
        path.write_text(json.dumps(kept))
        choice.choices.cache_clear()
        X, y = problem(7, n=4000, d=40)
        assert choice.dense_sweep(X) == kernels.DEFAULT_DENSE_SWEEP  # in the L3: the default
        monkeypatch.setattr(choice, "l3_cache", lambda: (2**16, "test"))  # X beyond the "L3"
        assert choice.dense_sweep(X) == "4 rows"
        engine = CompiledEngine(X, y, eta=1.0, margin=0.0, fit_intercept=True, n_jobs=1)
        assert engine._dense_loop == "4 rows"
        taken = []
        real = kernels.sweep_dense_loop
        monkeypatch.setattr(kernels, "sweep_dense_loop", lambda *a: taken.append(a[-1]) or real(*a))
        fit = perceptron(X, y, max_sweeps=3, n_jobs=1, warn=False)
        monkeypatch.undo()
        assert taken == ["4 rows"] * 3
        assert np.array_equal(fit.w, perceptron(X, y, max_sweeps=3, n_jobs=1, warn=False).w)
        monkeypatch.setattr(choice, "cache_file", lambda: path)
        del kept["dense_sweep"]  # an older version's file, without the dense choice: measured again
        path.write_text(json.dumps(kept))
        choice.choices.cache_clear()
        monkeypatch.setattr(choice, "_dense_bytes", lambda: 2**20)
        monkeypatch.setattr(choice, "_paired_problem", small)
        assert "measured now" in choice.choices()["source"]
    finally:
        choice.choices.cache_clear()


@pytest.mark.slow
def test_a_build_for_a_cpu_without_avx512_gives_the_same_bits_and_chooses(tmp_path):
    """The kernels compiled for Haswell (AVX2, no AVX-512: ``NUMBA_CPU_NAME=haswell``, in its own
    Numba cache) give every dense and CSR loop's bits of this process's native build, and the
    kernel choice runs there."""
    import json
    import os
    import subprocess
    import sys
    from pathlib import Path

    import other_cpu

    import perceptronlab

    env = {
        **os.environ,
        "NUMBA_CPU_NAME": "haswell",
        "NUMBA_CPU_FEATURES": "",  # the features of the CPU named, not of this one
        "NUMBA_CACHE_DIR": str(tmp_path / "numba-haswell"),
        "PYTHONPATH": os.pathsep.join(
            [str(Path(perceptronlab.__file__).parents[1]), os.environ.get("PYTHONPATH", "")]
        ),
    }
    done = subprocess.run(
        [sys.executable, other_cpu.__file__], env=env, capture_output=True, text=True, timeout=600
    )
    assert done.returncode == 0, done.stderr[-3000:]
    haswell = json.loads(done.stdout)
    assert haswell["compiled_for"].startswith("haswell")
    registers, simd_instructions = haswell["avx512_registers"]
    assert registers == [] and simd_instructions > 50  # compiled there, and AVX-512-free
    assert haswell["choice"]["dense_sweep"] in kernels.DENSE_SWEEPS
    assert haswell["choice"]["csr_loop"] in kernels.CSR_LOOPS
    native = other_cpu.fingerprints()
    assert haswell["fingerprints"] == native
    by_case: dict[str, set[str]] = {}  # and within a build, every dense loop gives the same bits
    for key, value in native.items():
        if key.startswith("dense "):
            by_case.setdefault(key.split(" | ")[1], set()).add(value)
    assert len(by_case) == 4 and all(len(values) == 1 for values in by_case.values())
    assert len(set.union(*by_case.values())) == 4  # (the cases themselves differ)
    assert len({v for k, v in native.items() if k.startswith("CSR ")}) == 1


def test_a_build_for_another_cpu_is_named_and_keeps_its_own_choices(
    monkeypatch, kernel_choices_small
):
    import numba

    from perceptronlab.core import choice, cpu

    monkeypatch.setattr(choice, "cache_file", kernel_choices_small.cache_file)  # the real one
    host_file = choice.cache_file()
    monkeypatch.setattr(numba.config, "CPU_NAME", "haswell")
    monkeypatch.setattr(numba.config, "CPU_FEATURES", "")
    assert choice.compiled_for() == "haswell (NUMBA_CPU_NAME)"
    assert choice.cache_file() != host_file  # never the native build's measurements
    monkeypatch.setattr(numba.config, "CPU_NAME", None)
    assert choice.compiled_for() == "host" and choice.cache_file() == host_file
    size, source = cpu.l3_cache()
    assert size >= 2**20 and source  # what the dense choice sizes its matrix by
    assert choice._dense_bytes() <= choice.DENSE_MAX_BYTES
