"""The chapter's learners: their mistakes stay within their bounds on random realisable (or, for
Weighted Majority and Hedge, noisy) sequences; twins written here check what they predict and their
exact weights."""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
import pytest

from perceptronlab import bounds
from perceptronlab.exceptions import InputError
from perceptronlab.online import (
    SOA,
    Consistent,
    FiniteClass,
    Halving,
    Hedge,
    WeightedMajority,
    Winnow,
    littlestone_dimension,
)


def classes():
    rng = np.random.default_rng(3)
    yield FiniteClass.thresholds(12)
    yield FiniteClass.intervals(9)
    yield FiniteClass.halfspaces(rng.standard_normal((10, 2)))
    yield FiniteClass.disjunctions(5, 2)
    for _ in range(6):
        yield FiniteClass((rng.random((int(rng.integers(2, 40)), 7)) < 0.5).astype(int))


def sequence(H, rng, T, noise=0.0):
    target = int(rng.integers(len(H)))
    points = rng.integers(H.n_points, size=T)
    labels = H.matrix[target, points].astype(int)
    flips = rng.random(T) < noise
    return list(zip(points.tolist(), np.where(flips, 1 - labels, labels).tolist(), strict=True))


def run(learner, pairs):
    for x, y in pairs:
        learner.learn_one(x, y)
    return learner


def test_realisable_sequences_stay_within_each_bound():
    rng = np.random.default_rng(0)
    for H in classes():
        ldim = littlestone_dimension(H).value
        for _ in range(5):
            pairs = sequence(H, rng, 60)
            assert run(Consistent(H), pairs).mistakes <= bounds.consistent(len(H))
            assert run(Halving(H), pairs).mistakes <= bounds.halving(len(H))
            assert run(SOA(H), pairs).mistakes <= ldim
            for beta in (Fraction(0), Fraction(1, 2), Fraction(9, 10)):
                learner = run(WeightedMajority(H, beta=beta), pairs)
                assert learner.best_mistakes == 0
                assert learner.mistakes <= bounds.weighted_majority(len(H), 0, beta)


def test_weighted_majority_and_hedge_on_noisy_sequences():
    rng = np.random.default_rng(1)
    for H in classes():
        for _ in range(4):
            pairs = sequence(H, rng, 80, noise=0.15)
            for beta in (Fraction(1, 2), Fraction(3, 4)):
                learner = run(WeightedMajority(H, beta=beta), pairs)
                assert learner.mistakes <= bounds.weighted_majority(
                    len(H), learner.best_mistakes, beta
                )
            hedge = run(Hedge(H, rounds=len(pairs), seed=0), pairs)
            assert hedge.expected_mistakes - hedge.best_mistakes <= bounds.hedge_regret(
                len(H), len(pairs)
            )
            assert 0 <= hedge.mistakes <= len(pairs)


def test_halving_and_consistent_against_twins_written_here():
    rng = np.random.default_rng(2)
    for H in classes():
        pairs = sequence(H, rng, 30)
        halving, consistent = Halving(H), Consistent(H)
        alive = list(range(len(H)))
        for x, y in pairs:
            ones = sum(int(H.matrix[h, x]) for h in alive)
            assert halving.predict_one(x) == int(2 * ones >= len(alive))
            assert consistent.predict_one(x) == int(H.matrix[alive[0], x])
            halving.learn_one(x, y)
            consistent.learn_one(x, y)
            alive = [h for h in alive if H.matrix[h, x] == y]
            assert halving.alive == consistent.alive == alive


def test_soa_predicts_the_side_of_larger_dimension():
    H = FiniteClass.intervals(7)
    learner = SOA(H)
    for x in range(7):
        sides = [
            littlestone_dimension(FiniteClass(H.matrix[H.matrix[:, x] == label])).value
            for label in (0, 1)
        ]
        assert learner.predict_one(x) == int(sides[1] >= sides[0])


def test_weighted_majority_weights_are_exact_powers_of_beta():
    H = FiniteClass.thresholds(4)
    learner = WeightedMajority(H, beta=0.3)  # read as 3/10
    assert learner.beta == Fraction(3, 10)
    wrong = [0] * len(H)
    for x, y in [
        (0, 1),
        (2, 0),
        (1, 0),
        (3, 1),
        (1, 1),
    ]:  # the last two contradict: no expert is right
        zero = sum(Fraction(3, 10) ** wrong[h] for h in range(len(H)) if H.matrix[h, x] == 0)
        one = sum(Fraction(3, 10) ** wrong[h] for h in range(len(H)) if H.matrix[h, x] == 1)
        assert learner.votes(x) == (zero, one)
        learner.learn_one(x, y)
        wrong = [w + int(H.matrix[h, x] != y) for h, w in enumerate(wrong)]
    assert learner.weights == [Fraction(3, 10) ** w for w in wrong]
    assert all(isinstance(w, Fraction) for w in learner.weights)


def test_hedge_probability_is_the_weight_share():
    H = FiniteClass.thresholds(3)
    learner = Hedge(H, eta=0.7, seed=1)
    for x, y in [(0, 1), (1, 1), (2, 0)]:
        learner.learn_one(x, y)
    weights = np.exp(-0.7 * learner.expert_mistakes)
    assert learner.probability(1) == pytest.approx(
        weights[H.matrix[:, 1] == 1].sum() / weights.sum()
    )


def disjunction_data(n, relevant, T, rng):
    X = (rng.random((T, n)) < 0.2).astype(int)
    y = X[:, relevant].max(axis=1)
    return X, y


@pytest.mark.parametrize("variant", ["demotion", "elimination"])
@pytest.mark.parametrize("k", [1, 2, 4])
def test_winnow_stays_within_littlestones_bound(variant, k):
    rng = np.random.default_rng(k)
    n = 40
    for _ in range(3):
        relevant = rng.choice(n, size=k, replace=False)
        X, y = disjunction_data(n, relevant, 300, rng)
        learner = Winnow(n, variant=variant)
        for x, label in zip(X, y, strict=True):
            learner.learn_one(x, int(label))
        assert learner.mistakes <= bounds.winnow(n, k, 2, n / 2, variant=variant)
        # the proof's invariant: a relevant variable is never active on a false 1, so never demoted
        assert all(learner.weights[i] >= 1 for i in relevant)
        assert learner.weights[0] >= 0 and len(learner.weights) == n


def test_winnow_weights_by_hand():
    learner = Winnow(4, alpha=Fraction(3, 2), theta=Fraction(3, 2))
    assert learner.predict_one([1, 1, 0, 0]) == 1  # 2 > 3/2
    learner.learn_one([1, 1, 0, 0], 0)  # false 1: divide by 3/2
    assert learner.weights == [Fraction(2, 3), Fraction(2, 3), 1, 1]
    learner.learn_one([1, 0, 0, 0], 1)  # 2/3 <= 3/2, a missed 1: multiply by 3/2
    assert learner.weights == [1, Fraction(2, 3), 1, 1] and learner.mistakes == 2
    eliminate = Winnow(4, variant="elimination")
    eliminate.learn_one([1, 1, 1, 0], 0)  # 3 > 2: false 1, the active weights go to 0
    assert eliminate.weights == [0, 0, 0, 1]


def test_the_perceptron_within_its_online_gradient_descent_bound():
    from perceptronlab import OnlinePerceptron

    rng = np.random.default_rng(5)
    X = rng.standard_normal((400, 3))
    u = np.array([1.0, -2.0, 0.5])
    y = np.where(X @ u > 0, 1, -1)
    y[rng.random(400) < 0.1] *= -1  # not separable
    learner = OnlinePerceptron(fit_intercept=False, classes=[-1, 1])
    mistakes, hinge = 0, 0.0
    for scale in (0.5, 1.0, 2.0):
        learner, mistakes, hinge = OnlinePerceptron(fit_intercept=False, classes=[-1, 1]), 0, 0.0
        w = scale * u
        for x, label in zip(X, y, strict=True):
            if learner.predict_one(x) != label:
                mistakes += 1
                hinge += max(0.0, 1 - label * float(x @ w))
            learner.learn_one(x, label)
        R = float(np.linalg.norm(X, axis=1).max())
        assert mistakes <= bounds.online_gradient_descent(R, float(np.linalg.norm(w)), hinge)
    assert mistakes > 0
    # next to Freund and Schapire's bound for the same comparison direction (the best margin for it)
    freund_schapire, _ = bounds.best_freund_schapire(u / np.linalg.norm(u), X, y)
    assert mistakes <= freund_schapire


def test_bounds_exact_values_and_bad_inputs():
    assert bounds.halving(1) == 0 and bounds.halving(1024) == 10 and bounds.halving(1023) == 9
    assert bounds.consistent(5) == 4
    assert bounds.weighted_majority(8, 0, 0) == 3
    assert bounds.weighted_majority(8, 2, Fraction(1, 2)) == pytest.approx(5 / math.log2(4 / 3))
    assert bounds.online_gradient_descent(2, 3, 0) == 36  # Novikoff's (RB)^2 when the hinge is 0
    for call, words in [
        (lambda: bounds.halving(0), "n_hypotheses: expected an integer >= 1"),
        (lambda: bounds.weighted_majority(4, 1, 1), "beta: expected a number in"),
        (lambda: bounds.winnow(4, 1, 1), "alpha: expected a number > 1"),
        (lambda: bounds.winnow(4, 1, 2, 0.1), "theta: expected at least"),
        (lambda: bounds.hedge_regret(3, 0), "rounds"),
        (lambda: WeightedMajority(FiniteClass.thresholds(2), beta=2), "beta"),
        (lambda: Winnow(3).learn_one([1, 2, 0], 1), "a 0/1 vector of n = 3"),
        (lambda: Halving(FiniteClass.thresholds(2)).learn_one(0, -1), "a label 0 or 1"),
        (lambda: Halving(FiniteClass.thresholds(2)).predict_one(5), "a column number 0 to 1"),
        (lambda: Hedge(FiniteClass.thresholds(2)), "rounds"),
    ]:
        with pytest.raises(InputError, match=words):
            call()
