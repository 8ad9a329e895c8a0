"""The Littlestone adversary ("Perceptron Algorithm for Halfspaces"): every round a mistake, every
label realizable, checked exactly."""

from __future__ import annotations

import dataclasses
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from river import linear_model as river_lm
from sklearn.linear_model import Perceptron as SkPerceptron

import perceptronlab
from perceptronlab import InputError, perceptron
from perceptronlab.adversary import ProofError, SklearnAdapter, littlestone
from perceptronlab.core.exact import ExactEngine
from perceptronlab.core.online import OnlineState
from perceptronlab.core.scores import exact_dot


class OnlineStateLearner:
    """River's protocol over the engine's OnlineState (floats)."""

    def __init__(self):
        self.state = OnlineState()

    def predict_one(self, x):
        return self.state.predict_sign(x)

    def learn_one(self, x, y):
        self.state.learn(x, y)


class ExactOnlineLearner:
    """An exact online perceptron: each round is a one-example sweep of the engine's Fraction engine,
    from the weights the last round left."""

    def __init__(self):
        self.w = None

    def predict_one(self, x):
        if self.w is None:
            return -1  # w = 0: a tie predicts -1
        return 1 if exact_dot(self.w, [Fraction(v) for v in x]) > 0 else -1

    def learn_one(self, x, y):
        engine = ExactEngine([[Fraction(v) for v in x]], [y], eta=1, margin=0, fit_intercept=False)
        if self.w is not None:
            engine.restore(self.w, Fraction(0))
        engine.sweep(None, 1)
        self.w = engine.w


class Scripted:
    """A 'learner' that predicts a given sign sequence: walks one chosen path of the tree."""

    def __init__(self, signs):
        self.signs = list(signs)
        self.k = 0

    def predict_one(self, x):
        return self.signs[self.k]

    def learn_one(self, x, y):
        self.k += 1


def rows(proof, exact=True):
    return [
        list(r.x)
        if exact
        else [float(v) for v in (r.fed.values() if isinstance(r.fed, dict) else r.fed)]
        for r in proof.rounds
    ]


# ---------------------------------------------------------------- the seed's tree


def test_first_points_are_the_texts_tree():
    # "Perceptron Algorithm for Halfspaces": (1/2, 1, 0, ..., 0), then (1/4, 1, ...) or
    # (3/4, 1, ...), hypotheses (-1, a, 0, ...), a in [0, 1]
    down = littlestone(Scripted([1, 1, 1]), 3, d=4)  # learner says +1, label -1: a < t, go left
    up = littlestone(Scripted([-1, -1, -1]), 3, d=4)
    assert [r.t for r in down.rounds] == [Fraction(1, 2), Fraction(1, 4), Fraction(1, 8)]
    assert [r.t for r in up.rounds] == [Fraction(1, 2), Fraction(3, 4), Fraction(7, 8)]
    assert down.rounds[0].x == (Fraction(1, 2), 1, 0, 0)
    assert down.hypothesis == (-1, Fraction(1, 16), 0, 0) and down.verify()
    assert up.a == Fraction(15, 16) and [r.label for r in up.rounds] == [1, 1, 1]
    # label = sign(a - t): +1 exactly when a > t
    for proof in (down, up):
        assert all((1 if proof.a > r.t else -1) == r.label for r in proof.rounds)


def test_the_tree_is_shattered_to_depth_8():
    # every one of the 2^8 label paths is realized by some a: the tree of depth 8 is shattered
    seen = set()
    for code in range(2**8):
        signs = [1 if code >> k & 1 else -1 for k in range(8)]
        proof = littlestone(Scripted(signs), 8)
        assert proof.verify()
        labels = tuple(r.label for r in proof.rounds)
        assert labels == tuple(-s for s in signs)
        seen.add(labels)
    assert len(seen) == 2**8


@settings(max_examples=40, deadline=None)
@given(st.lists(st.sampled_from([-1, 1]), min_size=1, max_size=80), st.integers(2, 6))
def test_any_prediction_path_gives_a_valid_proof(signs, d):
    proof = littlestone(Scripted(signs), len(signs), d=d)
    assert proof.verify() and proof.mistakes == len(signs)
    lo, hi = Fraction(0), Fraction(1)
    for r in proof.rounds:
        assert lo < r.t < hi  # t strictly inside: no tie is possible
        assert r.t.denominator == 2**r.number  # dyadic, one more bit per round
        lo, hi = r.interval
        assert lo < proof.a < hi
        assert proof.a != r.t


# ---------------------------------------------------------------- real learners, 1,000 rounds


def test_exact_learner_1000_rounds_fully_faithful():
    proof = littlestone(ExactOnlineLearner(), 1000, feed="exact")
    assert proof.mistakes == 1000 and proof.verify()
    assert proof.faithful_rounds == 1000 and proof.realizable_fed_rounds == 1000
    # oracle: the engine's exact batch perceptron, one sweep over the same sequence, errs on every point
    run = perceptron(
        rows(proof), [r.label for r in proof.rounds], exact=True, max_sweeps=1, warn=False
    )
    assert run.mistakes == 1000
    assert run.mistake_indices.tolist() == list(range(1000))


def test_online_state_1000_rounds():
    proof = littlestone(OnlineStateLearner(), 1000)
    assert proof.mistakes == 1000 and proof.verify()
    # floats carry t exactly while it has at most 53 significant bits (denominator 2^k, k <= 53)
    assert proof.faithful_rounds == 53
    assert 53 <= proof.realizable_fed_rounds < 1000
    # oracle: the compiled engine's first sweep over the fed floats errs on every point too
    run = perceptron(
        np.array(rows(proof, exact=False)),
        [r.label for r in proof.rounds],
        max_sweeps=1,
        warn=False,
    )
    assert run.mistakes == 1000


def test_online_perceptron_of_this_project():
    learner = perceptronlab.OnlinePerceptron()
    proof = littlestone(learner, 300)
    assert proof.mistakes == 300 and proof.verify()
    for r in proof.rounds[:40]:
        assert r.fed == [float(r.t), 1.0]


def test_river_perceptron_1000_rounds():
    learner = river_lm.Perceptron()
    proof = littlestone(learner, 1000)
    assert proof.classes == (False, True)
    assert proof.mistakes == 1000 and proof.verify()
    assert isinstance(proof.rounds[0].fed, dict) and isinstance(proof.rounds[0].prediction, bool)
    # oracle: a fresh River perceptron replayed on the same stream makes the same predictions
    fresh = river_lm.Perceptron()
    for r in proof.rounds[:200]:
        assert fresh.predict_one(r.fed) == r.prediction != (r.label == 1)
        fresh.learn_one(r.fed, r.label == 1)


def test_sklearn_perceptron_partial_fit():
    proof = littlestone(SklearnAdapter(SkPerceptron()), 300, d=3)
    assert proof.mistakes == 300 and proof.verify()
    # oracle: scikit-learn itself, replayed without the adapter
    fresh = SkPerceptron()
    for k, r in enumerate(proof.rounds):
        x = np.array([r.fed])
        if k:
            assert fresh.predict(x)[0] == r.prediction
        fresh.partial_fit(x, [r.label], classes=[-1, 1])


def test_sklearn_adapter_with_other_labels():
    proof = littlestone(
        SklearnAdapter(SkPerceptron(), classes=("spam", "ham")), 30, classes=("spam", "ham")
    )
    assert proof.mistakes == 30 and proof.verify()
    assert {r.prediction for r in proof.rounds} <= {"spam", "ham"}


# ---------------------------------------------------------------- the proof really checks


def test_verify_catches_tampering():
    proof = littlestone(Scripted([1, -1, 1, 1, -1]), 5)
    assert proof.verify()
    bad_a = dataclasses.replace(proof, a=proof.rounds[2].t)  # a tie on round 3
    with pytest.raises(ProofError, match="round 3"):
        bad_a.verify()
    flipped = list(proof.rounds)
    flipped[1] = dataclasses.replace(flipped[1], label=-flipped[1].label)
    with pytest.raises(ProofError, match="round 2"):
        dataclasses.replace(proof, rounds=flipped).verify()
    moved = list(proof.rounds)
    moved[3] = dataclasses.replace(moved[3], t=Fraction(1, 3), x=(Fraction(1, 3), Fraction(1)))
    with pytest.raises(ProofError, match="round 4"):
        dataclasses.replace(proof, rounds=moved).verify()
    rising = littlestone(Scripted([-1, -1, -1]), 3)  # every label +1: a = 2 also labels all rounds
    with pytest.raises(ProofError, match="outside"):
        dataclasses.replace(rising, a=Fraction(2)).verify()


# ---------------------------------------------------------------- bad input


@pytest.mark.parametrize(
    "kwargs, match",
    [
        (dict(rounds=0), "rounds"),
        (dict(rounds=3, d=1), "d: expected an integer >= 2"),
        (dict(rounds=3, feed="decimal"), "feed"),
        (dict(rounds=3, classes=(1, 1)), "classes"),
    ],
)
def test_bad_arguments(kwargs, match):
    with pytest.raises(InputError, match=match):
        littlestone(OnlineStateLearner(), **kwargs)


def test_bad_learners():
    with pytest.raises(InputError, match="predict_one"):
        littlestone(SkPerceptron(), 3)
    with pytest.raises(InputError, match="partial_fit"):
        SklearnAdapter(object())
    with pytest.raises(InputError, match="prediction in round 1"):
        littlestone(Scripted(["maybe"]), 1)
