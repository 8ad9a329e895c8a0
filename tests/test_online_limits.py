"""The online-learning searches bounded by memory as well as visits, and exact Weighted Majority
bounded in rounds: one line before the work, never a bare MemoryError or an endless run."""

from __future__ import annotations

import numpy as np
import pytest

from perceptronlab.exceptions import InputError
from perceptronlab.online import (
    SOA,
    FiniteClass,
    Hedge,
    WeightedMajority,
    littlestone_dimension,
    vc_dimension,
)
from perceptronlab.online._search import (
    MAX_VISITS,
    SearchBudgetError,
    check_search_memory,
    space_bytes,
)
from perceptronlab.online.games import LdimAdversary


def test_a_million_hypotheses_over_40_points_is_refused_from_arithmetic_alone():
    """The issue's class: each version space is a 10⁶-bit integer; a tree of depth up to 19 needs
    2²⁰ of them, about 130 GiB, refused under a 4 GiB budget before anything is built."""
    with pytest.raises(InputError, match=r"130\.\d GiB.*depth 19") as refused:
        check_search_memory(10**6, 40, MAX_VISITS, "Littlestone dimension", "4G")
    assert "max_bytes" in str(refused.value) and "\n" not in str(refused.value)
    assert space_bytes(10**6) > 10**6 // 8


@pytest.fixture(scope="module")
def random_class():
    rng = np.random.default_rng(0)
    return FiniteClass(rng.integers(0, 2, size=(20_000, 40), dtype=np.uint8))


@pytest.mark.parametrize(
    "start",
    [
        lambda H: littlestone_dimension(H, max_bytes="64M"),
        lambda H: vc_dimension(H, max_bytes="64M"),
        lambda H: SOA(H, max_bytes="64M"),
        lambda H: LdimAdversary(H, max_bytes="64M"),
    ],
    ids=["littlestone_dimension", "vc_dimension", "SOA", "LdimAdversary"],
)
def test_every_search_refuses_up_front(random_class, start):
    # 20,000 hypotheses: 2,928 bytes a version space, 2¹⁵ of them for a tree of depth 14: 94 MiB
    with pytest.raises(InputError, match="64.0 MiB") as refused:
        start(random_class)
    assert "use fewer hypotheses or points" in str(refused.value)


def test_the_memory_budget_also_caps_the_visits():
    H = FiniteClass.intervals(12)
    assert littlestone_dimension(H).value == littlestone_dimension(H, max_bytes="1M").value
    per_space = space_bytes(len(H))
    # room for the deepest tree the class allows, not for the search that proves it
    tight = per_space * 2 ** (min(len(H).bit_length() - 1, H.n_points) + 1)
    with pytest.raises(SearchBudgetError, match="memory budget"):
        littlestone_dimension(H, max_bytes=tight)


def test_exact_weighted_majority_stops_at_its_round_limit_and_names_hedge():
    H = FiniteClass.thresholds(5)
    learner = WeightedMajority(H, beta="1/2", max_rounds=4)
    for x, y in [(1, 0), (3, 1), (2, 1), (4, 1)]:
        learner.learn_one(x, y)
    before = (learner.mistakes, learner.expert_mistakes.tolist())
    with pytest.raises(InputError, match=r"round 5\b.*Hedge\(H, rounds=T\)"):
        learner.learn_one(0, 0)
    assert (learner.mistakes, learner.expert_mistakes.tolist()) == before  # nothing half done
    halving_like = WeightedMajority(H, beta=0, max_rounds=1)  # β = 0 stays cheap: no limit
    hedge = Hedge(H, rounds=10, seed=0)
    for _ in range(3):
        halving_like.learn_one(2, 1)
        hedge.learn_one(2, 1)
    assert hedge.mistakes <= 3 and halving_like.rounds == 3
