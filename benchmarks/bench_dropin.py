"""The drop-in rows (issue 23): River's ``learn_many`` through the compiled core, and a shuffled fit
against scikit-learn's.

- River's own ``linear_model.Perceptron.learn_one`` loop is the baseline of
  ``perceptronlab.river_classifiers.Perceptron.learn_many`` on pandas mini-batches of 1,000 (the
  same examples, boolean labels), per example;
- scikit-learn's ``Perceptron(shuffle=True, random_state=0, penalty=None, tol=None)`` fit is the
  baseline of ``perceptronlab.Perceptron(shuffle=True, random_state=0)`` on the same data; both
  visit the rows in scikit-learn's permutations, and the row checks that the weights are the same
  bits;
- each further epoch of ``perceptronlab.Perceptron().fit`` ((the fit at ``max_iter=6`` − the fit
  at ``max_iter=1``) / 5, 2 % of the labels flipped so that every epoch runs) against a streaming
  read of X, in data order and in scikit-learn's shuffles, and the fixed cost of a fit (the
  one-epoch fit less one epoch) against scikit-learn's own (issue 37, item 0).
"""

from __future__ import annotations

import warnings

import numpy as np

from benchmarks._data import noisy_dense
from benchmarks._floor import read_rows, streaming_reads
from benchmarks._timing import (
    Stat,
    at_least,
    at_most,
    difference,
    interleave,
    median_ms,
    require,
    result_row,
    timed,
)

FEATURES = 10
BATCH = 1000


def bench_dropin_river_learn_many(scale: float = 1.0):
    """River's learn_one loop / perceptronlab.river_classifiers.Perceptron.learn_many (pandas, 1,000 a batch)."""
    pd = require("pandas", "river")
    river = require("river.linear_model", "river")
    from perceptronlab.river_classifiers import Perceptron

    calls = max(2 * BATCH, int(50_000 * scale))
    rng = np.random.default_rng(0)
    X = rng.standard_normal((calls, FEATURES))
    labels = (rng.random(calls) < 0.5).tolist()  # random labels: about half the rounds are mistakes
    names = [f"x{j}" for j in range(FEATURES)]
    dicts = [dict(zip(names, row, strict=True)) for row in X.tolist()]
    frames = [
        (pd.DataFrame(X[s : s + BATCH], columns=names), pd.Series(labels[s : s + BATCH]))
        for s in range(0, calls, BATCH)
    ]

    def river_loop():
        model = river.Perceptron()
        for x, label in zip(dicts, labels, strict=True):
            model.learn_one(x, label)

    def ours():
        model = Perceptron()
        for frame, batch_labels in frames:
            model.learn_many(frame, batch_labels)
        return model

    one_by_one = Perceptron()
    for x, label in zip(dicts, labels, strict=True):
        one_by_one.learn_one(x, label)
    batched = ours()
    seconds = interleave(
        {"River": timed(river_loop, cpu=True), "learn_many": timed(ours, cpu=True)}
    )
    per = {name: np.median(values) / calls * 1e9 for name, values in seconds.items()}
    return result_row(
        f"River: River's learn_one loop / river_classifiers.Perceptron.learn_many on pandas batches of {BATCH:,}, "
        "per example",
        Stat.ratio(seconds["River"], seconds["learn_many"]),
        at_least(20),
        f"{calls:,} examples of {FEATURES} features; learn_many {per['learn_many']:.3g} ns, River "
        f"{per['River']:.3g} ns per example",
        {
            "the learn_one loop's weights": batched.weights == one_by_one.weights
            and batched.intercept == one_by_one.intercept
        },
    )


def bench_dropin_shuffled_fit(scale: float = 1.0):
    """scikit-learn's shuffled Perceptron fit / perceptronlab's with the same permutations."""
    from sklearn.linear_model import Perceptron as SkPerceptron

    from perceptronlab import Perceptron

    n, d, sweeps = max(2000, int(100_000 * scale)), 50, 10
    X, noisy = noisy_dense(n, d, flip=0.05)  # not separable: every sweep runs
    options = dict(shuffle=True, random_state=0, max_iter=sweeps)
    theirs = SkPerceptron(penalty=None, tol=None, **options)
    ours = Perceptron(n_jobs=1, **options)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # both warn that max_iter ends the run
        same = theirs.fit(X, noisy).coef_.tobytes() == ours.fit(X, noisy).coef_.tobytes()

        def fit(estimator):
            return lambda: estimator.fit(X, noisy)

        seconds = interleave(
            {"scikit-learn": timed(fit(theirs), cpu=True), "ours": timed(fit(ours), cpu=True)}
        )
    return result_row(
        "shuffled fit: scikit-learn's Perceptron(shuffle=True) / ours, the same permutations",
        Stat.ratio(seconds["scikit-learn"], seconds["ours"]),
        at_least(1.0),
        f"{n:,}×{d} float64, 5% labels flipped, {sweeps} shuffled sweeps, one thread",
        {"same weights as scikit-learn": same},
    )


EPOCH_ROWS, EPOCH_FEATURES = 300_000, 100


def bench_dropin_epoch(scale: float = 1.0):
    """Each further epoch of Perceptron().fit / a streaming read of X; the fixed cost of a fit /
    scikit-learn's (issue 37, item 0: one pass over X per epoch, nothing else)."""
    from sklearn.linear_model import Perceptron as SkPerceptron

    from perceptronlab import Perceptron
    from perceptronlab.core.sgd import sgd_permutations

    n = max(2000, int(EPOCH_ROWS * scale))
    X, y = noisy_dense(n, EPOCH_FEATURES, flip=0.02)  # not separable: every epoch runs

    def fits(make):
        one, six = (timed(lambda k=k: make(k).fit(X, y), cpu=True) for k in (1, 6))
        return one, difference(six, one, per=5)

    order = next(sgd_permutations(n, 0))
    cases = {
        "read": streaming_reads(X),
        "shuffled read": timed(lambda: read_rows(X, order), cpu=True),
    }
    for name, options in (("data order", {"shuffle": False}), ("shuffled", {})):
        cases[f"{name} fit"], cases[f"{name} epoch"] = fits(
            lambda k, options=options: Perceptron(max_iter=k, n_jobs=1, **options)
        )
    cases["scikit-learn fit"], cases["scikit-learn epoch"] = fits(
        lambda k: SkPerceptron(max_iter=k, random_state=0)
    )
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # every fit ends at max_iter
        same = all(
            Perceptron(max_iter=k).fit(X, y).coef_.tobytes()
            == SkPerceptron(max_iter=k, random_state=0).fit(X, y).coef_.tobytes()
            for k in (1, 6)
        )
        seconds = interleave(cases)
    size = f"{n:,}×{EPOCH_FEATURES} float64 ({X.nbytes / 2**20:.0f} MiB), 2% of the labels flipped"
    return [
        *_epoch_rows(seconds, size, {"same weights as scikit-learn": same}),
        result_row(
            "Perceptron().fit, the fixed cost of a fit (a one-epoch fit less one epoch): ours / "
            "scikit-learn's",
            Stat.ratio(
                seconds["shuffled fit"] - seconds["shuffled epoch"],
                seconds["scikit-learn fit"] - seconds["scikit-learn epoch"],
            ),
            at_most(1.0),
            f"{size}; the defaults on both sides (scikit-learn's shuffles, tol=1e-3), one thread; "
            f"scikit-learn's one-epoch fit {median_ms(seconds['scikit-learn fit'])}, its epoch "
            f"{median_ms(seconds['scikit-learn epoch'])}",
            {"same weights as scikit-learn": same},
        ),
    ]


def _epoch_rows(seconds: dict, size: str, same: dict) -> list[dict]:
    """The rows of each further epoch against a streaming read of X, in data order and shuffled."""
    read = seconds["read"]
    shuffled_read = Stat.ratio(seconds["shuffled read"], read).median
    rows = []
    for name, call in (("data order", "Perceptron(shuffle=False)"), ("shuffled", "Perceptron()")):
        floor = (
            f"; X's rows read in a shuffle's order: {shuffled_read:.3g}× a streaming read"
            if name == "shuffled"
            else ""
        )
        rows.append(
            result_row(
                f"{call}.fit, each further epoch ({name}) / streaming read of X",
                Stat.ratio(seconds[f"{name} epoch"], read),
                at_most(1.3),
                f"{size}; (fit at max_iter=6 − fit at max_iter=1) / 5, tol=1e-3, one thread: an "
                f"epoch {median_ms(seconds[f'{name} epoch'])}, a one-epoch fit "
                f"{median_ms(seconds[f'{name} fit'])}, a streaming read {median_ms(read)}{floor}",
                same,
            )
        )
    return rows
