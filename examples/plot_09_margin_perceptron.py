"""
The margin perceptron: more updates, a wider margin
===================================================

The exercise sheet of the lecture notes "Perceptron Mistake Bound": the margin perceptron updates
not only on mistakes but whenever
:math:`y\\langle w, x\\rangle \\le \\rho_0`. It makes at most :math:`(R^2 + 2\\rho_0)/\\rho^{*2}`
updates and stops with every point at a score above :math:`\\rho_0`. With
:math:`\\|w\\| \\le \\sqrt{M(R^2 + 2\\rho_0)}` after *M* updates, the margin of its final weights is at
least :math:`\\rho_0\\rho^*/(R^2 + 2\\rho_0)`, which tends to :math:`\\rho^*/2`: a larger
:math:`\\rho_0` buys a guaranteed margin with more updates. Everything here is exact.
"""

from fractions import Fraction

from perceptronlab import bounds, datasets, margin, max_margin, perceptron, radius_squared

X, y = datasets.margin_task()
R2, best = radius_squared(X), max_margin(X, y)
print(f"R^2 = {R2}, rho*^2 = {best.rho_squared}")

rho0_values = [0, 1, 2, 5, 10, 20, 50, 100]
updates, margins, limits = [], [], []
for rho0 in rho0_values:
    run = perceptron(X, y, margin=rho0, exact=True)
    limit = bounds.margin_perceptron(R2, best.rho_squared, rho0, squared=True)
    assert run.mistakes <= limit
    updates.append(run.mistakes)
    margins.append(margin(run.w, X, y))
    assert margins[-1] >= rho0 * best.rho / float(R2 + 2 * rho0) - 1e-12
    limits.append(limit)
    print(
        f"rho0 = {rho0:>3}: {run.mistakes:>3} updates (bound {str(limit):>5}), w = {run.w.tolist()}, "
        f"margin {margins[-1]:.4f}"
    )
assert limits[0] == bounds.novikoff(R2, best.rho_squared, squared=True) == Fraction(5)

# %%
# The margin of the final weights stays above its guarantee and, on this data, comes close to
# :math:`\rho^* = \sqrt{2}`; the bound on the updates grows linearly in :math:`\rho_0`.
from matplotlib.figure import Figure  # noqa: E402

fig = Figure(figsize=(11, 4.2), layout="constrained")
left, right = fig.subplots(1, 2)
left.plot(rho0_values, margins, "o-", label="margin of the final w")
left.plot(
    rho0_values,
    [r0 * best.rho / float(R2 + 2 * r0) for r0 in rho0_values],
    "s--",
    label=r"guarantee $\rho_0\rho^*/(R^2 + 2\rho_0)$",
)
left.axhline(best.rho, color="#7b3294", ls=":", label=r"best margin $\rho^*$")
left.set_xscale("symlog")
left.set_xlabel(r"$\rho_0$")
left.set_ylabel("margin")
left.legend()
right.plot(rho0_values, updates, "o-", label="updates")
right.plot(
    rho0_values, [float(v) for v in limits], "s--", label=r"bound $(R^2 + 2\rho_0)/\rho^{*2}$"
)
right.set_xscale("symlog")
right.set_xlabel(r"$\rho_0$")
right.set_ylabel("updates")
right.legend()
