"""The adversaries force the chapter's lower bounds: SOA exactly Ldim(H) mistakes, every deterministic
learner at least Ldim(H), Halving ⌊log₂|H|⌋ where that is the truth, and T mistakes on an unrealisable
sequence while the best expert makes at most T/2."""

from __future__ import annotations

import numpy as np
import pytest

from perceptronlab.exceptions import InputError
from perceptronlab.online import (
    SOA,
    Consistent,
    ContraryAdversary,
    FiniteClass,
    Halving,
    LdimAdversary,
    SequenceAdversary,
    WeightedMajority,
    Winnow,
    littlestone_dimension,
    play,
)


def random_classes(count, seed):
    rng = np.random.default_rng(seed)
    for _ in range(count):
        yield FiniteClass(
            (rng.random((int(rng.integers(1, 30)), int(rng.integers(1, 8)))) < 0.5).astype(int)
        )


def realised_by_some_row(H, sequence):
    return any(all(H.matrix[h, x] == y for x, y in sequence) for h in range(len(H)))


def test_soa_is_forced_to_exactly_ldim_and_every_learner_to_at_least_ldim():
    structured = [
        FiniteClass.thresholds(10),
        FiniteClass.intervals(8),
        FiniteClass.disjunctions(4, 2),
        FiniteClass.halfspaces(np.random.default_rng(0).standard_normal((9, 2))),
    ]
    for H in [*structured, *random_classes(120, seed=1)]:
        ldim = littlestone_dimension(H).value
        game = play(SOA(H), LdimAdversary(H))
        assert game.mistakes == ldim
        assert game.consistent and realised_by_some_row(H, game.sequence)
        for learner in (Consistent(H), Halving(H), WeightedMajority(H)):
            game = play(learner, LdimAdversary(H))
            assert game.mistakes >= ldim
            assert game.consistent and game.best_mistakes == 0


@pytest.mark.parametrize(
    "H",
    [
        FiniteClass.thresholds(2**5 - 1),
        FiniteClass.disjunctions(5),
        FiniteClass([[a, b, c] for a in (0, 1) for b in (0, 1) for c in (0, 1)]),
    ],
    ids=["thresholds on 31 points", "all disjunctions of 5", "all labellings of 3 points"],
)
def test_halving_is_forced_to_log_of_the_class_where_that_is_the_dimension(H):
    log_size = int(np.log2(len(H)))
    assert 2**log_size == len(H) == 2 ** littlestone_dimension(H).value
    game = play(Halving(H), LdimAdversary(H))
    assert game.mistakes == log_size and game.consistent


def test_a_deterministic_learner_errs_every_round_while_the_best_expert_errs_at_most_half():
    H = FiniteClass([[0] * 5, [1] * 5, [0, 1, 0, 1, 0]])
    T = 41
    for learner in (Consistent(H), Halving(H), SOA(H), WeightedMajority(H, beta="1/3")):
        game = play(learner, ContraryAdversary(H, seed=4), rounds=T)
        assert game.mistakes == T
        assert game.best_mistakes <= T / 2
        assert not game.consistent
        wrong = [sum(int(H.matrix[h, x] != y) for x, y in game.sequence) for h in range(len(H))]
        assert game.best_mistakes == min(wrong)


def test_winnow_plays_on_the_points_of_a_disjunction_class():
    H = FiniteClass.disjunctions(4, 1)
    game = play(Winnow(4), LdimAdversary(H))
    assert game.mistakes >= littlestone_dimension(H).value == 2
    assert game.consistent


def test_a_sequence_adversary_replays_its_sequence():
    H = FiniteClass.intervals(5)
    sequence = [(2, 1), (0, 0), (4, 0), (3, 1)]
    game = play(SOA(H), SequenceAdversary(H, sequence))
    assert game.sequence == sequence and len(game.predictions) == 4 and game.consistent
    assert play(SOA(H), SequenceAdversary(H, sequence), rounds=2).sequence == sequence[:2]


def test_bad_games_get_one_line():
    H = FiniteClass.thresholds(3)
    for call, words in [
        (lambda: play(object(), LdimAdversary(H)), "predict_one"),
        (lambda: play(Halving(H), H), "an Adversary"),
        (lambda: play(Halving(H), ContraryAdversary(H)), "rounds"),
        (lambda: play(Halving(H), LdimAdversary(H), rounds=0), "rounds"),
        (lambda: SequenceAdversary(H, [(0, 2)]), "label: expected 0 or 1"),
        (lambda: LdimAdversary([[0, 1]]), "a FiniteClass"),
    ]:
        with pytest.raises(InputError, match=words):
            call()


def test_the_threshold_adversary_is_the_ldim_adversary_on_the_dyadic_grid():
    from fractions import Fraction

    from sklearn.linear_model import Perceptron

    from perceptronlab.adversary import SklearnAdapter, ThresholdAdversary, littlestone

    depth = 6
    grid = 2**depth
    H = FiniteClass.thresholds(grid - 1)  # row j: the threshold a_j between j/grid and (j + 1)/grid
    finite, whole = LdimAdversary(H), ThresholdAdversary()
    rng = np.random.default_rng(0)
    for played in range(1, depth + 1):
        x, t = finite.point(), whole.point()
        assert H.points[x] == t  # the same point, 1/2 first, then 1/4 or 3/4, ...
        prediction = int(rng.integers(2))
        assert finite.label(prediction) == whole.label(prediction) == 1 - prediction
        lo, hi = whole.interval
        assert hi - lo == Fraction(1, 2**played)
        inside = [
            j for j in range(len(H)) if lo <= Fraction(j, grid) and Fraction(j + 1, grid) <= hi
        ]
        assert [j for j in range(len(H)) if finite.version_space >> j & 1] == inside
    assert finite.finished and not whole.finished
    # the public game keeps its behaviour: 20 rounds, 20 mistakes, a proof that checks
    proof = littlestone(SklearnAdapter(Perceptron()), rounds=20)
    assert proof.mistakes == 20 and proof.verify()
    with pytest.raises(InputError, match="infinite dimension"):
        _ = whole.dimension
