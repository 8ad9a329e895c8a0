"""
The family on real datasets
===========================

The last weight vector of a perceptron run depends on the last few updates; averaging all the
weights it went through (the averaged perceptron) or letting every weight vector vote with its
survival count (the voted perceptron, Freund and Schapire 1999) is far more stable, most of all
with noisy labels. Kernels make the same algorithm non-linear. Here every learner of the family is
trained on one seeded 75/25 split of scikit-learn's digits and breast-cancer data, with and without
15 % of the training labels flipped, against scikit-learn's ``Perceptron`` and ``LinearSVC``.
(``perceptronlab experiment learners`` averages three splits and adds the voted kernels.)
"""

import warnings

import numpy as np
from sklearn.datasets import load_breast_cancer, load_digits
from sklearn.linear_model import Perceptron as SklearnPerceptron
from sklearn.model_selection import train_test_split
from sklearn.preprocessing import StandardScaler
from sklearn.svm import LinearSVC

from perceptronlab import (
    AveragedPerceptron,
    KernelPerceptron,
    MulticlassPerceptron,
    Perceptron,
    VotedPerceptron,
)

common = dict(order="shuffle", random_state=0, max_iter=10)
learners = {
    "last (perceptron)": lambda: Perceptron(**common),
    "averaged": lambda: AveragedPerceptron(**common),
    "voted": lambda: VotedPerceptron(**common),
    "kernel poly 3, averaged": lambda: KernelPerceptron(
        kernel="poly", degree=3, variant="averaged", **common
    ),
    "kernel rbf, averaged": lambda: KernelPerceptron(kernel="rbf", variant="averaged", **common),
    "multiclass, averaged": lambda: MulticlassPerceptron(averaged=True, **common),
    "sklearn Perceptron": lambda: SklearnPerceptron(random_state=0),
    "sklearn LinearSVC": lambda: LinearSVC(random_state=0),
}

digits, cancer = load_digits(), load_breast_cancer()
rng = np.random.default_rng(0)
errors = {}
for name, X, y in [
    ("digits", digits.data / 16.0, digits.target),
    ("breast cancer", cancer.data, cancer.target),
]:
    X_train, X_test, y_train, y_test = train_test_split(
        X, y, test_size=0.25, stratify=y, random_state=0
    )
    scaler = StandardScaler().fit(X_train)
    X_train, X_test = scaler.transform(X_train), scaler.transform(X_test)
    flip = rng.random(len(y_train)) < 0.15
    noisy = np.where(flip, rng.permutation(y_train), y_train)  # 15 % of the labels redrawn
    for dataset, labels in ((name, y_train), (f"{name} (noisy)", noisy)):
        for learner, make in learners.items():
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")  # not converged within 10 sweeps: expected here
                model = make().fit(X_train, labels)
            errors[learner, dataset] = float(np.mean(model.predict(X_test) != y_test))

datasets = ["digits", "digits (noisy)", "breast cancer", "breast cancer (noisy)"]
print(f"{'test error':<26}" + "".join(f"{d:>24}" for d in datasets))
for learner in learners:
    print(f"{learner:<26}" + "".join(f"{errors[learner, d]:>24.1%}" for d in datasets))

# %%
# Averaging and voting are far ahead of the last hypothesis, most of all with noisy labels;
# the kernels beat every linear learner on digits.
from matplotlib.figure import Figure  # noqa: E402

fig = Figure(figsize=(10, 5), layout="constrained")
ax = fig.subplots()
width = 0.8 / len(learners)
for i, learner in enumerate(learners):
    ax.bar(
        np.arange(len(datasets)) + i * width,
        [100 * errors[learner, d] for d in datasets],
        width,
        label=learner,
    )
ax.set_xticks(np.arange(len(datasets)) + 0.4 - width / 2, datasets)
ax.set_ylabel("test error (%)")
ax.set_title("The perceptron family on scikit-learn's datasets (one split, 10 shuffled sweeps)")
ax.legend(ncols=2, fontsize=8)
