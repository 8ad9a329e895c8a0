"""
Non-separable data: the errors oscillate, Pocket keeps the best
===============================================================

The notebook "The Perceptron Convergence Theorem", section 6.9: on two overlapping clouds no line
separates the classes (a linear program
proves it with Gordan weights), so the perceptron never stops updating: the training errors of
its weights jump up and down from sweep to sweep. Pocket (Gallant 1990; Lin's *Machine Learning
Foundations*, lecture 2) runs the same
updates and keeps in its pocket the weights with the fewest training errors seen so far.
"""

from perceptronlab import datasets, perceptron, plots, pocket, separable

X, y = datasets.nonseparable(seed=42)  # 80 points, labels 0/1
verdict = separable(X, y, fit_intercept=True)
print(verdict.message)

run = perceptron(X, y, fit_intercept=True, max_sweeps=200, warn=False)
print(run.summary())
print("errors after the last ten sweeps:", run.errors_after_sweep[-10:].tolist())
fig_oscillation = plots.sweeps(run)

# %%
# Pocket checked after every sweep (as in the notebook) and after every update in random-mistake order
# (Lin's lecture 2). Checking after every update finds better weights.
by_sweep = pocket(X, y, fit_intercept=True, order="cyclic", check="sweep", max_sweeps=200)
by_update = pocket(X, y, fit_intercept=True, check="update", max_sweeps=200, seed=42)
print(
    f"pocket, checked per sweep: {by_sweep.pocket_errors} errors; "
    f"per update: {by_update.pocket_errors} errors (of {len(y)})"
)
fig_pocket = plots.sweeps(by_update)

# %%
# Pocket's line; the misclassified points are circled.
fig_line = plots.decision_regions(
    by_update, X, y, title=f"Pocket: {by_update.pocket_errors} of {len(y)} wrong"
)
