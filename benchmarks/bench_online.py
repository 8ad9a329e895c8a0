"""The online protocol (issue 16.5): replay, the compiled ``learn_many`` and ``learn_one`` against River.

River's ``Perceptron.learn_one`` on dicts is the baseline for both: ``learn_many`` per example (on
NumPy and pandas mini-batches of the same examples) and ``learn_one`` per call (the same dicts).
"""

from __future__ import annotations

import numpy as np

from benchmarks._data import separable_dense
from benchmarks._runs import sweeps
from benchmarks._timing import Stat, at_least, at_most, interleave, require, result_row, timed

FEATURES = 10
BATCH = 1000


def bench_online_replay(scale: float = 1.0):
    from perceptronlab.core.online import OnlineState

    n, d = max(1000, int(200_000 * scale)), 100
    X, y = separable_dense(n, d)
    seconds = interleave(
        {
            "replay": timed(lambda state: state.replay(X, y), setup=OnlineState, cpu=True),
            "sweep": sweeps(X, y, 1),
        }
    )
    return result_row(
        "online replay of a stream / one dense sweep",
        Stat.ratio(seconds["replay"], seconds["sweep"]),
        at_most(1.2),
        f"{n:,}×{d} stream, one compiled pass each from w = 0",
    )


def _stream(calls: int, seed: int = 0):
    rng = np.random.default_rng(seed)
    X = rng.standard_normal((calls, FEATURES))
    labels = rng.random(calls) < 0.5  # random labels: about half the rounds are mistakes
    names = [f"x{j}" for j in range(FEATURES)]
    dicts = [dict(zip(names, row, strict=True)) for row in X.tolist()]
    return X, labels, names, dicts


def _river_loop(dicts, labels):
    river = require("river.linear_model", "dev")

    def loop():
        model = river.Perceptron()
        for x, label in zip(dicts, labels, strict=True):
            model.learn_one(x, label)

    return loop


def bench_online_learn_many(scale: float = 1.0):
    """learn_many on mini-batches of 1,000 (NumPy, and pandas DataFrames) against River's learn_one loop."""
    pd = require("pandas", "dask")
    from perceptronlab.core.online import OnlineState

    calls = max(2 * BATCH, int(50_000 * scale))
    X, labels, names, dicts = _stream(calls)
    signs = np.where(labels, 1.0, -1.0)
    starts = range(0, calls, BATCH)
    arrays = [(X[s : s + BATCH], signs[s : s + BATCH]) for s in starts]
    frames = [(pd.DataFrame(X[s : s + BATCH], columns=names), signs[s : s + BATCH]) for s in starts]

    def batches(chunks):
        def run():
            state = OnlineState()
            for chunk, chunk_signs in chunks:
                state.learn_many(chunk, chunk_signs)

        return run

    seconds = interleave(
        {
            "River": timed(_river_loop(dicts, labels.tolist()), cpu=True),
            "NumPy": timed(batches(arrays), cpu=True),
            "pandas": timed(batches(frames), cpu=True),
        }
    )
    per = {name: np.median(values) / calls * 1e9 for name, values in seconds.items()}
    return [
        result_row(
            f"online: River's learn_one loop / learn_many on {kind} mini-batches of {BATCH:,}, per example",
            Stat.ratio(seconds["River"], seconds[kind]),
            at_least(20),
            f"{calls:,} examples of {FEATURES} features, half of them mistakes; learn_many "
            f"{per[kind]:.3g} ns, River {per['River']:.3g} ns per example",
        )
        for kind in ("NumPy", "pandas")
    ]


def bench_online_learn_one(scale: float = 1.0):
    """OnlinePerceptron.learn_one against River's, dict by dict."""
    from perceptronlab import OnlinePerceptron

    calls = max(2000, int(20_000 * min(1.0, scale * 10)))
    _, labels, _, dicts = _stream(calls)
    labels = labels.tolist()  # Python bools, the same objects on both sides

    def ours():
        model = OnlinePerceptron(classes=(False, True))
        for x, label in zip(dicts, labels, strict=True):
            model.learn_one(x, label)

    seconds = interleave(
        {"ours": timed(ours, cpu=True), "River": timed(_river_loop(dicts, labels), cpu=True)}
    )
    per = {name: np.median(values) / calls * 1e6 for name, values in seconds.items()}
    return result_row(
        "online: River's learn_one / OnlinePerceptron.learn_one, per call",
        Stat.ratio(seconds["River"], seconds["ours"]),
        at_least(2),
        f"dicts of {FEATURES} features, half of the rounds mistakes; ours {per['ours']:.2f} µs, "
        f"River {per['River']:.2f} µs per call",
    )
