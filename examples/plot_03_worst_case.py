"""
The worst case: the basis vectors attain the bound
==================================================

The notebook "The Perceptron Convergence Theorem", section 6.7: the *n* standard basis vectors
:math:`e_1, \\dots, e_n`, all labelled +1,
have radius :math:`R = 1` and best margin :math:`\\rho^* = 1/\\sqrt{n}` (along the diagonal), so
Novikoff's bound is :math:`R^2/\\rho^{*2} = n`. Each :math:`e_i` is a tie (score 0, a mistake)
until it has been added once, so the perceptron makes exactly *n* mistakes, in any order: the
bound cannot be improved.
"""

from fractions import Fraction

from perceptronlab import bounds, datasets, max_margin, perceptron, plots, radius_squared
from perceptronlab.studies.experiments import run_experiment

X, y = datasets.basis(5)
best = max_margin(X, y)
print(
    f"R^2 = {radius_squared(X)}, rho*^2 = {best.rho_squared} (exact), "
    f"bound = {bounds.novikoff(radius_squared(X), best.rho_squared, squared=True)}"
)
run = perceptron(X, y, exact=True, trace=True)
print(run.table("md"))
assert run.mistakes == 5 and best.rho_squared == Fraction(1, 5)

# %%
# The experiment runs n = 2 ... 50, in cyclic and shuffled orders.
result = run_experiment("worst-case")
print(result.summary)
fig = result.figures["worst-case"]

# %%
# In the squeeze picture the run ends exactly where the two bounds cross.
fig_squeeze = plots.squeeze(perceptron(*datasets.basis(10)), rho=10**-0.5, R=1.0)
