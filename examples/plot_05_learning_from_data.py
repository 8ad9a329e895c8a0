"""
The Learning From Data experiment
=================================

The PLA homework of *Learning From Data* (Abu-Mostafa, Magdon-Ismail and Lin, 2012): *N* points
uniform in :math:`[-1, 1]^2`, a target line through two random points, and the perceptron with an
intercept that updates on a uniformly random misclassified point until none is left
(``order="random-mistake"``). How many iterations does it take, and how often does the learned
line *g* disagree with the target *f* on fresh points? The course's answers: about 10 iterations
and :math:`P[f \\ne g] \\approx 0.1` for N = 10, about 100 and 0.01 for N = 100.
"""

from perceptronlab import datasets, perceptron, plots
from perceptronlab.studies.experiments import run_experiment

data = datasets.lfd(10, seed=1)
run = perceptron(data.X, data.y, fit_intercept=True, order="random-mistake", seed=1)
print(run.summary())
fig_example = plots.decision_regions(run, data.X, data.y, title="N = 10: the learned line g")

# %%
# 300 runs for each N (the course uses 1000; ``perceptronlab experiment lfd`` does).
result = run_experiment("lfd", trials=300)
print(result.summary)
for N in ("10", "100"):
    stats = result.stats[N]
    print(
        f"N = {N}: {stats['mean_iterations']:.1f} iterations, P[f != g] = {stats['mean_disagreement']:.3f}"
    )
fig = result.figures["lfd"]
