"""The drop-in rows (issue 23): River's ``learn_many`` through the compiled core, and a shuffled fit
against scikit-learn's.

- River's own ``linear_model.Perceptron.learn_one`` loop is the baseline of
  ``perceptronlab.river_classifiers.Perceptron.learn_many`` on pandas mini-batches of 1,000 (the
  same examples, boolean labels), per example;
- scikit-learn's ``Perceptron(shuffle=True, random_state=0, penalty=None, tol=None)`` fit is the
  baseline of ``perceptronlab.Perceptron(shuffle=True, random_state=0)`` on the same data; both
  visit the rows in scikit-learn's permutations, and the row checks that the weights are the same
  bits.
"""

from __future__ import annotations

import warnings

import numpy as np

from benchmarks._data import noisy_dense
from benchmarks._timing import Stat, at_least, interleave, require, result_row, timed

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
