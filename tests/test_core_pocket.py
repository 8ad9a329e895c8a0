"""Pocket, every check against oracles written here in plain Python: a brute-force error count, the
perceptron's iterates replayed by hand, and Gallant's pocket algorithm with ratchet as he states it
(1990, §V: recount whenever the run beats the pocket's, replace only on fewer errors)."""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest
import scipy.sparse as sp

from perceptronlab import InputError, PocketPerceptron, pocket
from perceptronlab.core.driver import drive_pocket
from perceptronlab.core.engines import CompiledEngine
from perceptronlab.core.exact import ExactEngine
from perceptronlab.core.reference import ReferenceEngine

EXAM_X = [[1, 0], [1, 1], [0, 1]]
EXAM_Y = [1, -1, -1]
ORDERS = ["cyclic", "shuffle", "random-mistake"]


# ---------------------------------------------------------------- the oracles


def score(w, b, x) -> float:
    """⟨w, x⟩ + b summed left to right in Python (exact on the small integers used here)."""
    total = 0
    for wj, xj in zip(w, x, strict=True):
        total += wj * xj
    return total + b


def brute_errors(X, y, w, b) -> int:
    """Examples with y(⟨w,x⟩ + b) ≤ 0, one by one (a tie is an error)."""
    return sum(1 for x, label in zip(X, y, strict=True) if label * score(w, b, x) <= 0)


def iterates(X, y, indices, fit_intercept=False, eta=1):
    """The weights after each update on the examples ``indices``, from w = 0, in plain Python."""
    w, b = [0] * len(X[0]), 0
    out = []
    for i in indices:
        w = [wj + eta * y[i] * xj for wj, xj in zip(w, X[i], strict=True)]
        b = b + eta * y[i] if fit_intercept else b
        out.append((w, b))
    return out


def pick_stream(order, n, seed):
    """The ratchet's documented picks, one sweep (n picks) at a time."""
    rng = np.random.default_rng(seed)
    while True:
        if order == "random-mistake":
            yield rng.integers(0, n, size=n).tolist()
        elif order == "shuffle":
            yield rng.permutation(n).tolist()
        else:
            yield list(range(n))


def gallant(X, y, picks, *, max_sweeps, fit_intercept=False, max_updates=None):
    """Gallant's pocket algorithm with ratchet, literally: returns (pocket w, b, errors, the updated
    examples, the pocket's errors at the end of each sweep)."""
    n, d = len(X), len(X[0])
    w, b = [0] * d, 0
    kept = ([0] * d, 0, n, 0)  # w, b, errors, run
    run, updated, history = 0, [], []
    for _, sweep in zip(range(max_sweeps), picks, strict=False):  # picks never end
        for i in sweep:
            if y[i] * score(w, b, X[i]) > 0:
                run += 1
                if run > kept[3]:
                    errors = brute_errors(
                        X, y, w, b
                    )  # counted again at every such pick: same weights, same count
                    if errors < kept[2]:
                        kept = (list(w), b, errors, run)
                        if errors == 0:
                            return kept[0], kept[1], 0, updated, [*history, 0]
            else:
                w = [wj + y[i] * xj for wj, xj in zip(w, X[i], strict=True)]
                b = b + y[i] if fit_intercept else b
                run = 0
                updated.append(i)
                if len(updated) == max_updates:
                    return kept[0], kept[1], kept[2], updated, [*history, kept[2]]
        history.append(kept[2])
    return kept[0], kept[1], kept[2], updated, history


def integer_noisy(seed, n=60, d=2, flips=None):
    """Small integers labelled by a line, some labels flipped: float arithmetic on them is exact."""
    rng = np.random.default_rng(seed)
    X = rng.integers(-6, 7, size=(n, d))
    y = np.where(X @ np.arange(1, d + 1) + 0.5 > 0, 1, -1)
    flip = rng.choice(n, size=n // 8 if flips is None else flips, replace=False)
    y[flip] *= -1
    return X.tolist(), y.tolist()


def as_float(X, y):
    return np.asarray(X, dtype=np.float64), np.asarray(y, dtype=np.float64)


# ---------------------------------------------------------------- every check keeps what it says


@pytest.mark.parametrize("order", ORDERS)
@pytest.mark.parametrize("check", ["update", "sweep", "ratchet"])
def test_the_kept_weights_make_the_errors_a_brute_force_count_finds(order, check):
    X, y = integer_noisy(0)
    run = pocket(*as_float(X, y), order=order, check=check, seed=0, max_sweeps=20)
    assert run.pocket_errors == brute_errors(X, y, run.w.tolist(), run.b)
    assert (
        run.pocket_errors < len(y) // 4
    )  # 7 labels of 60 flipped: a good line makes about that many
    assert np.all(np.diff(run.pocket_history) <= 0)  # the pocket's errors never rise
    assert run.pocket_history[-1] == run.pocket_errors


@pytest.mark.parametrize("order", ORDERS)
def test_check_update_keeps_the_best_of_all_iterates(order):
    X, y = integer_noisy(1, n=40)
    run = pocket(*as_float(X, y), order=order, check="update", seed=2, max_sweeps=4)
    counts = [brute_errors(X, y, w, b) for w, b in iterates(X, y, run.mistake_indices)]
    best = min(counts)
    assert run.pocket_errors == best
    w, _ = iterates(X, y, run.mistake_indices)[counts.index(best)]  # the first with that count
    assert run.w.tolist() == w
    if order == "cyclic":  # Pocket's updates are the cyclic perceptron's
        updated, w = [], [0] * len(X[0])
        for _ in range(4):
            for i, (x, label) in enumerate(zip(X, y, strict=True)):
                if label * score(w, 0, x) <= 0:
                    w = [wj + label * xj for wj, xj in zip(w, x, strict=True)]
                    updated.append(i)
        assert run.mistake_indices.tolist() == updated


@pytest.mark.parametrize("order", ["cyclic", "shuffle"])
def test_check_sweep_keeps_the_best_end_of_sweep_weights(order):
    X, y = integer_noisy(2, n=40)
    run = pocket(*as_float(X, y), order=order, check="sweep", seed=3, max_sweeps=12)
    path = iterates(X, y, run.mistake_indices)
    ends = np.cumsum(run.updates_per_sweep) - 1
    counts = [brute_errors(X, y, *path[k]) for k in ends]
    assert run.pocket_errors == min(counts)
    assert run.pocket_history.tolist() == np.minimum.accumulate(counts).tolist()
    assert run.w.tolist() == path[ends[counts.index(min(counts))]][0]


# ---------------------------------------------------------------- Gallant's ratchet


@pytest.mark.parametrize("order", ORDERS)
@pytest.mark.parametrize("fit_intercept", [False, True])
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_ratchet_is_gallants_algorithm(order, fit_intercept, seed):
    X, y = integer_noisy(10 + seed, n=50)
    run = pocket(
        *as_float(X, y),
        order=order,
        check="ratchet",
        seed=seed,
        max_sweeps=15,
        fit_intercept=fit_intercept,
    )
    w, b, errors, updated, history = gallant(
        X, y, pick_stream(order, len(y), seed), max_sweeps=15, fit_intercept=fit_intercept
    )
    assert run.mistake_indices.tolist() == updated
    assert (run.w.tolist(), run.b, run.pocket_errors) == (w, b, errors)
    assert run.pocket_history.tolist() == history
    assert run.sweeps == len(history) and run.updates_per_sweep.sum() == len(updated)


def test_ratchet_respects_max_updates_and_max_sweeps():
    X, y = integer_noisy(5)
    run = pocket(*as_float(X, y), check="ratchet", seed=4, max_updates=9, max_sweeps=50)
    w, b, errors, updated, history = gallant(
        X, y, pick_stream("random-mistake", 60, 4), max_sweeps=50, max_updates=9
    )
    assert run.mistakes == 9 and run.mistake_indices.tolist() == updated
    assert (run.w.tolist(), run.pocket_errors, run.pocket_history.tolist()) == (w, errors, history)
    short = pocket(*as_float(X, y), check="ratchet", seed=4, max_sweeps=3)
    assert short.sweeps == 3 and not short.converged


def test_ratchet_stops_at_zero_errors():
    run = pocket(EXAM_X, EXAM_Y, check="ratchet", seed=0)
    assert run.converged and run.pocket_errors == 0 == brute_errors(
        EXAM_X, EXAM_Y, run.w.tolist(), run.b
    )
    assert run.pocket_history[-1] == 0 and run.sweeps < 100


def test_ratchet_is_seeded():
    X, y = as_float(*integer_noisy(6))
    a, b = (pocket(X, y, check="ratchet", seed=7, max_sweeps=10) for _ in range(2))
    c = pocket(X, y, check="ratchet", seed=8, max_sweeps=10)
    assert (
        a.mistake_indices.tolist() == b.mistake_indices.tolist() and a.w.tobytes() == b.w.tobytes()
    )
    assert a.mistake_indices.tolist() != c.mistake_indices.tolist()
    fits = [PocketPerceptron(random_state=3, max_iter=10).fit(X, y) for _ in range(2)]
    assert fits[0].coef_.tobytes() == fits[1].coef_.tobytes()


@pytest.mark.parametrize("order", ORDERS)
def test_ratchet_exact_equals_float_on_integer_data(order):
    X, y = integer_noisy(7, n=40)
    exact = pocket(
        X, y, check="ratchet", order=order, seed=5, max_sweeps=10, exact=True, fit_intercept=True
    )
    floating = pocket(
        *as_float(X, y), check="ratchet", order=order, seed=5, max_sweeps=10, fit_intercept=True
    )
    assert all(isinstance(v, Fraction) for v in exact.w)
    assert [float(v) for v in exact.w] == floating.w.tolist() and float(exact.b) == floating.b
    assert exact.mistake_indices.tolist() == floating.mistake_indices.tolist()
    assert exact.pocket_errors == floating.pocket_errors
    assert exact.pocket_history.tolist() == floating.pocket_history.tolist()


def test_ratchet_compiled_equals_its_twin_bit_for_bit_on_real_data():
    """Real-valued data (rounding everywhere): the compiled walks and counts make the NumPy twin's
    decisions, so the same picks give the same bits; CSR input too."""
    rng = np.random.default_rng(8)
    X = rng.normal(size=(300, 5)) * rng.uniform(0.1, 10, size=5)
    y = np.where(X @ rng.normal(size=5) + 0.3 * rng.normal(size=300) > 0, 1.0, -1.0)
    outcomes = []
    for engine in (
        CompiledEngine(X, y, eta=0.7, margin=0.0, fit_intercept=True),
        CompiledEngine(sp.csr_matrix(X), y, eta=0.7, margin=0.0, fit_intercept=True),
        ReferenceEngine(X, y, eta=0.7, margin=0.0, fit_intercept=True),
    ):
        outcome = drive_pocket(
            engine, order="random-mistake", check="ratchet", max_sweeps=20, max_updates=None, seed=9
        )
        outcomes.append(
            (
                engine.indices.tolist(),
                outcome.pocket.w.tobytes(),
                outcome.pocket.b,
                outcome.pocket.errors,
                outcome.pocket.history,
                engine.w.tobytes(),
            )
        )
    assert outcomes[0] == outcomes[1] == outcomes[2]
    X32 = X.astype(np.float32)  # float32 rows are widened exactly: the run of their float64 values
    a = pocket(X32, y, check="ratchet", seed=9, max_sweeps=20, fit_intercept=True)
    b = pocket(
        X32.astype(np.float64), y, check="ratchet", seed=9, max_sweeps=20, fit_intercept=True
    )
    assert (
        a.w.tobytes() == b.w.tobytes() and a.mistake_indices.tolist() == b.mistake_indices.tolist()
    )
    assert a.pocket_history.tolist() == b.pocket_history.tolist()


@pytest.mark.parametrize("sparse", [False, True])
def test_the_counts_stop_at_their_limit_and_are_exact_below_it(sparse):
    """errors_up_to(limit) is min(errors, limit) whatever the order it counts in (it moves the rows
    the last complete count found wrong to the front)."""
    rng = np.random.default_rng(11)
    X = rng.integers(-4, 5, size=(700, 4)).astype(np.float64)  # > one count block; ties happen
    y = np.where(rng.random(700) < 0.5, 1.0, -1.0)
    engines = [
        CompiledEngine(
            sp.csr_matrix(X) if sparse else X, y, eta=1.0, margin=0.0, fit_intercept=True
        ),
        ReferenceEngine(X, y, eta=1.0, margin=0.0, fit_intercept=True),
        ExactEngine(
            X.astype(int).tolist(), y.astype(int).tolist(), eta=1, margin=0, fit_intercept=True
        ),
    ]
    for _ in range(30):
        w, b = rng.integers(-3, 4, size=4), int(rng.integers(-2, 3))
        truth = brute_errors(X.tolist(), y.tolist(), w.tolist(), b)
        limit = int(rng.integers(1, 701))
        for engine in engines:
            engine.restore(
                w.astype(np.float64) if not engine.exact else [Fraction(int(v)) for v in w],
                float(b) if not engine.exact else Fraction(b),
            )
            assert engine.errors_up_to(limit) == min(truth, limit), type(engine).__name__
            assert engine.errors_up_to(len(y) + 1) == truth


def test_ratchet_trace_records_every_pick():
    X, y = integer_noisy(9, n=12)
    run = pocket(*as_float(X, y), check="ratchet", order="cyclic", max_sweeps=3, trace=True)
    picks = [s for s in run.steps]
    assert [s.index for s in picks] == list(range(12)) * (len(picks) // 12) + list(
        range(len(picks) % 12)
    )
    assert [s.index for s in picks if s.mistake] == run.mistake_indices.tolist()
    assert all((s.score <= 0) == s.mistake for s in picks)


# ---------------------------------------------------------------- the rest of Pocket


def test_pocket_stops_at_zero_errors():
    run = pocket(EXAM_X, EXAM_Y, seed=0)
    assert run.converged and run.pocket_errors == 0


def test_pocket_respects_max_updates():
    X, y = as_float(*integer_noisy(2))
    run = pocket(X, y, max_updates=7, seed=0)
    assert run.mistakes == 7


def test_pocket_exact():
    run = pocket(EXAM_X, EXAM_Y, exact=True, order="cyclic")
    assert run.pocket_errors == 0 and list(run.w) == [1, -2]


@pytest.mark.parametrize("check", ["update", "sweep", "ratchet"])
def test_the_estimator_is_the_functional_run(check):
    X, y = integer_noisy(12, n=80)
    clf = PocketPerceptron(check=check, random_state=6, max_iter=9).fit(*as_float(X, y))
    run = pocket(*as_float(X, y), check=check, seed=6, max_sweeps=9, fit_intercept=True)
    assert clf.coef_[0].tobytes() == run.w.tobytes() and clf.intercept_[0] == run.b
    assert clf.pocket_errors_ == run.pocket_errors == brute_errors(X, y, run.w.tolist(), run.b)


def test_ratchet_bad_input_is_named():
    X = np.ones((30, 2))
    X[4, 1] = np.inf
    with pytest.raises(InputError, match="row 4, column 1"):
        pocket(X, np.where(np.arange(30) % 2, 1, -1), check="ratchet", max_updates=1, seed=0)
