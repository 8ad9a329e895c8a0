"""
Online learning on finite classes: the Littlestone dimension and its adversary
==============================================================================

The text "Perceptron Algorithm for Halfspaces" ends on a shattered tree of thresholds on [0, 1]:
halfspaces in the plane have no finite mistake bound. The chapter it comes from (Shalev-Shwartz and
Ben-David, *Understanding Machine Learning*, ch. 21) measures a finite class by its Littlestone
dimension: the depth of the deepest mistake tree it shatters, the best mistake bound of any
deterministic online learner. Here it is computed exactly, with its tree, on finer and finer grids,
and the chapter's learners play against the adversary that forces it.
"""

import numpy as np

from perceptronlab import bounds
from perceptronlab.online import (
    SOA,
    Consistent,
    FiniteClass,
    Halving,
    LdimAdversary,
    WeightedMajority,
    littlestone_dimension,
    play,
    vc_dimension,
)
from perceptronlab.plots.online import ldim_growth, mistake_tree, mistakes_against_bound
from perceptronlab.studies.online import findings, run_online_experiment

# %%
# Thresholds on 15 points of [0, 1]: 16 hypotheses, a tree of depth 4 whose root asks 1/2, then 1/4
# or 3/4, … (the tree of the text), while the VC dimension is 1.
H = FiniteClass.thresholds(15)
ldim = littlestone_dimension(H)
print(ldim.value, vc_dimension(H).value, "verified:", ldim.verify(H))
fig = mistake_tree(ldim, H)

# %%
# Finer grids, deeper trees: thresholds on k points have Ldim ⌊log₂(k + 1)⌋, and 2-D halfspaces
# with an intercept on random points grow the same way, without bound.
rng = np.random.default_rng(0)
points = rng.standard_normal((64, 2))
growth = {
    "thresholds": [
        (k, littlestone_dimension(FiniteClass.thresholds(k)).value)
        for k in (1, 3, 7, 15, 31, 63, 127)
    ],
    "2-D halfspaces": [
        (n, littlestone_dimension(FiniteClass.halfspaces(points[:n])).value) for n in (4, 8, 16, 32)
    ],
}
print(growth)
fig = ldim_growth(growth)

# %%
# The adversary asks the root of a deepest tree of the version space and answers against the
# prediction: every deterministic learner errs Ldim(H) times, SOA exactly that often, Halving at
# most ⌊log₂|H|⌋ times.
intervals = FiniteClass.intervals(32)
print(
    f"intervals on 32 points: |H| = {len(intervals)}, Ldim = {littlestone_dimension(intervals).value}, "
    f"⌊log₂|H|⌋ = {bounds.halving(len(intervals))}"
)
for learner in (
    SOA(intervals),
    Halving(intervals),
    Consistent(intervals),
    WeightedMajority(intervals, beta="1/2"),
):
    game = play(learner, LdimAdversary(intervals))
    print(
        f"{type(learner).__name__}: {game.mistakes} mistakes, labels realisable: {game.consistent}"
    )

# %%
# Mistakes against the bound, for every learner on every class, against the adversary and on
# random (and, for Weighted Majority, noisy) sequences.
rows = run_online_experiment(seed=0, trials=3)
print("\n".join(findings(rows)[0]))
fig = mistakes_against_bound(rows)
