"""
Decision regions: the perceptron's line and the best one
========================================================

The perceptron stops at the first separating line it reaches; the maximum-margin line (what a
hard-margin SVM finds, and what Novikoff's bound is computed with) is the one farthest from both
classes. Here both are drawn for the margin task of the lecture notes "Perceptron Mistake Bound"
and for a random Gaussian pair, with
:math:`w` as an arrow. A kernel perceptron draws a curved boundary where no line exists.
"""

import numpy as np

from perceptronlab import datasets, kernel_perceptron, margin, max_margin, perceptron, plots

X, y = datasets.margin_task()  # "Perceptron Mistake Bound": four points, exact
run = perceptron(X, y, exact=True)
best = max_margin(X, y)
print(
    f"perceptron: w = {run.w.tolist()}, margin {margin(run.w, X, y):.4f}; "
    f"best margin rho* = {best.rho:.4f} (rho*^2 = {best.rho_squared})"
)
fig = plots.decision_regions(run, X, y, max_margin=True, title="The lecture notes' margin task")

# %%
# With an intercept (the bias trick) on a Gaussian pair.
X2, y2 = datasets.gaussian_pair(n_per_class=25, separation=3.0, seed=3, bias=False)
run2 = perceptron(X2, y2, fit_intercept=True)
fig_pair = plots.decision_regions(
    run2, X2, y2, max_margin=True, title="A Gaussian pair, with intercept"
)

# %%
# XOR has no separating line; a degree-2 polynomial kernel perceptron separates it.
X_xor = np.array([[1, 1], [-1, -1], [1, -1], [-1, 1]], dtype=float)
y_xor = np.array([1, 1, -1, -1])
kernel_run = kernel_perceptron(X_xor, y_xor, kernel="poly", degree=2, gamma=1.0, coef0=1.0)
print("kernel perceptron on XOR:", kernel_run.converged, kernel_run.predict(X_xor).tolist())

from matplotlib.figure import Figure  # noqa: E402

grid = np.linspace(-2, 2, 201)
xx, yy = np.meshgrid(grid, grid)
scores = kernel_run.decision_function(np.column_stack([xx.ravel(), yy.ravel()])).reshape(xx.shape)
fig_xor = Figure(figsize=(5, 5), layout="constrained")
ax = fig_xor.subplots()
ax.contourf(xx, yy, scores, levels=[-np.inf, 0, np.inf], colors=["#fde0c5", "#cfe0f5"])
ax.contour(xx, yy, scores, levels=[0], colors="k")
ax.scatter(*X_xor[y_xor > 0].T, c="#1b6ac9", s=80, label="+1")
ax.scatter(*X_xor[y_xor < 0].T, c="#d95f02", s=80, label="-1")
ax.set_aspect("equal")
ax.set_title("XOR: a degree-2 kernel perceptron")
ax.legend()
