"""
The Littlestone adversary: no mistake bound for halfspaces
==========================================================

The text "Perceptron Algorithm for Halfspaces": halfspaces in :math:`d \\ge 2` have infinite
Littlestone dimension, so no online learner
has a finite mistake bound on them. The adversary plays the points :math:`x = (t, 1)` with
dyadic *t*, chosen by bisection, and always reveals the opposite of the learner's prediction.
Every label so far is still realized by a halfspace :math:`h = (-1, a)` for the *a* left in the
shrinking interval, so the data stays separable, and every round is a mistake.

Novikoff's theorem is not contradicted: the margin of the points played so far halves every
round, so the bound :math:`R^2/\\rho^{*2}` grows like :math:`4^k`.
"""

import numpy as np
from river import linear_model
from sklearn.linear_model import Perceptron as SklearnPerceptron

from perceptronlab import bounds, max_margin, radius_squared
from perceptronlab.adversary import SklearnAdapter, littlestone

proof = littlestone(linear_model.Perceptron(), rounds=200)  # River's perceptron
print(proof.summary())
print("verified in exact arithmetic:", proof.verify())

# %%
# Any learner with River's ``predict_one``/``learn_one`` protocol plays, and scikit-learn's
# estimators with ``partial_fit`` through :class:`~perceptronlab.adversary.SklearnAdapter`.
sklearn_proof = littlestone(SklearnAdapter(SklearnPerceptron()), rounds=200, d=5)
print(sklearn_proof.summary())

# %%
# The first rounds: the point, the learner's prediction, the revealed label and the interval of
# the *a* that are still consistent with every label.
for r in proof.rounds[:6]:
    print(
        f"round {r.number}: t = {r.t}, predicted {r.predicted_sign:+d}, label {r.label:+d}, "
        f"a in ({r.interval[0]}, {r.interval[1]})"
    )

# %%
# The bound of the points played so far, computed exactly: it grows fourfold a round, while the
# mistakes grow by one.
rounds = range(1, 13)
bound_after = []
for k in rounds:
    X = [list(r.x) for r in proof.rounds[:k]]
    labels = [r.label for r in proof.rounds[:k]]
    bound_after.append(
        bounds.novikoff(radius_squared(X), max_margin(X, labels).rho_squared, squared=True)
    )
print([str(b) for b in bound_after[:6]])

from matplotlib.figure import Figure  # noqa: E402

fig = Figure(figsize=(7, 4.5), layout="constrained")
ax = fig.subplots()
ax.semilogy(
    list(rounds),
    [float(b) for b in bound_after],
    "o-",
    label=r"Novikoff's bound $R^2/\rho^{*2}$ so far",
)
ax.semilogy(list(rounds), list(rounds), "s-", label="mistakes so far (every round)")
ax.set_xlabel("round")
ax.set_ylabel("mistakes")
ax.set_title("The adversary forces a mistake every round; the bound runs away")
ax.legend()
ax.grid(True, which="both", alpha=0.3)
assert np.all(np.array(list(rounds)) <= np.array([float(b) for b in bound_after]))
