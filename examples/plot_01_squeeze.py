"""
The squeeze of Novikoff's proof
===============================

The notebook "The Perceptron Convergence Theorem" proves Novikoff's theorem with a squeeze: after
*k* mistakes the weight vector has grown
at least linearly along the best separator, :math:`\\langle w^*, w_k\\rangle \\ge k\\rho`, but its
length at most like a square root, :math:`\\|w_k\\|^2 \\le kR^2`. Both can only hold while
:math:`k \\le R^2/\\rho^2`.

The notebook draws the picture with a margin :math:`\\gamma` estimated from the mean-difference
direction. Here :math:`\\rho^*` is the exact maximum margin of the data, computed by
:func:`perceptronlab.max_margin`, and the run is the engine's cyclic perceptron from
:math:`w = 0` on the notebook's Gaussian pair (bias column first).
"""

import numpy as np

from perceptronlab import datasets, max_margin, perceptron, plots, radius
from perceptronlab.studies.bound_vs_actual import mean_difference_margin

X, y = datasets.gaussian_pair(n_per_class=30, separation=3.0, seed=42)  # rows (1, x1, x2)
run = perceptron(X, y)
best = max_margin(X, y)
R = radius(X)
print(run.summary())
print(
    f"R = {R:.4f}, exact rho* = {best.rho:.4f}: Novikoff's bound R^2/rho*^2 = {(R / best.rho) ** 2:.1f}"
)

# %%
# The notebook's estimate of the margin comes from the direction between the class means. Any
# unit vector gives a lower bound on :math:`\rho^*`, so its bound is looser (or, when the
# direction does not separate the data, no bound at all).
gamma = mean_difference_margin(X, np.where(y > 0, 1.0, -1.0))
print(
    f"mean-difference margin gamma = {gamma:.4f} <= rho* = {best.rho:.4f}; "
    f"its bound R^2/gamma^2 = {(R / gamma) ** 2:.1f}"
)

# %%
# The squeeze: the actual :math:`\|w_k\|` stays between :math:`k\rho^*` and
# :math:`\sqrt{k}\,R`, and the two bounds on :math:`\|w_k\|^2` cross at :math:`k = R^2/\rho^{*2}`.
fig = plots.squeeze(run, best.rho, R)

# %%
# Classes closer together make the perceptron work harder (and the bound looser still).
X2, y2 = datasets.gaussian_pair(n_per_class=30, separation=2.0, seed=8)
run2, best2, R2 = perceptron(X2, y2), max_margin(X2, y2), radius(X2)
print(f"{run2.mistakes} mistakes; bound R^2/rho*^2 = {(R2 / best2.rho) ** 2:.0f}")
fig_closer = plots.squeeze(run2, best2.rho, R2)
