"""The lectures' datasets, generated exactly as the lectures do, with exact values where theirs are exact.

Every function returns a :class:`Dataset`: the rows ``X``, the labels ``y``, a name and a one-line
description (and, for :func:`lfd`, the ``target``). A Dataset unpacks like a tuple, so
``X, y = exam_task()`` works. Hand-worked datasets (:func:`exam_task`, :func:`margin_task`,
:func:`basis`) hold integer arrays, so ``perceptron(X, y, exact=True)`` reproduces the lectures'
worksheets digit for digit; random ones hold float64.

References: the lecture notes “Perceptron Mistake Bound” (its exam tasks), the notebook “The
Perceptron Convergence Theorem” ( Gaussian
pairs, the basis vectors, non-separable clouds), Abu-Mostafa, Magdon-Ismail and Lin, *Learning
From Data* (2012), Exercise 1.4 and Problem 1.4 (the PLA experiment on a random target line).
"""

from __future__ import annotations

import numbers
from collections.abc import Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np

from perceptronlab._ground.validation import check_positive_int, check_seed, fail

if TYPE_CHECKING:
    from numpy.typing import ArrayLike

    from perceptronlab._ground.types import Int64Array


@dataclass(frozen=True, eq=False)
class Dataset:
    """A small labelled dataset.

    Attributes
    ----------
    X : ndarray (n, d)
        The rows; int64 where the seed's numbers are integers, float64 otherwise.
    y : ndarray (n,)
        The labels, as the seed writes them (-1/+1, or 0/1 for :func:`nonseparable`).
    name : str
        A short identifier.
    description : str
        Where the data comes from, in one line.
    target : ndarray (d + 1,) or None
        :func:`lfd` only: the target line as ``(b, w1, w2)``, intercept first (as ``Run.coef``);
        a point is labelled +1 when ``b + w1*x1 + w2*x2 > 0``.

    Examples
    --------
    >>> X, y = exam_task()
    >>> X.tolist(), y.tolist()
    ([[1, 0], [1, 1], [0, 1]], [1, -1, -1])
    """

    X: np.ndarray
    y: np.ndarray
    name: str
    description: str
    target: np.ndarray | None = None

    def __iter__(self) -> Iterator[np.ndarray]:
        yield self.X
        yield self.y

    @property
    def n_samples(self) -> int:
        return int(self.X.shape[0])

    @property
    def n_features(self) -> int:
        return int(self.X.shape[1])


def exam_task() -> Dataset:
    """The exam task of the lecture notes “Perceptron Mistake Bound”: x₁ = (1, 0) (+1), x₂ = (1, 1)
    (−1), x₃ = (0, 1) (−1), no offset.

    Cyclic perceptron from w = 0: 5 mistakes in 4 sweeps, final w = (1, −2).

    Examples
    --------
    >>> from perceptronlab import perceptron
    >>> run = perceptron(*exam_task(), exact=True)
    >>> run.mistakes, run.sweeps, [int(v) for v in run.w]
    (5, 4, [1, -2])
    """
    return Dataset(
        np.array([[1, 0], [1, 1], [0, 1]], dtype=np.int64),
        np.array([1, -1, -1], dtype=np.int64),
        "exam-task",
        "the lecture notes “Perceptron Mistake Bound”, exam task 1: three points in the plane, no offset",
    )


def margin_task(with_x5: bool = False) -> Dataset:
    """The margin task of the lecture notes “Perceptron Mistake Bound”: x₁ = (3, 1), x₂ = (1, 2)
    (+1), x₃ = (−1, −1), x₄ = (0, −2) (−1).

    Parameters
    ----------
    with_x5 : bool
        Append part (c)'s extra point x₅ = (4, −3) with label +1 (R grows to 5, the margin of
        w_A = (1, 1) drops to 1/√2, the bound of w_A becomes 50).

    Examples
    --------
    >>> X, y = margin_task(with_x5=True)
    >>> X[-1].tolist(), int(y[-1])
    ([4, -3], 1)
    """
    if not isinstance(with_x5, bool | np.bool_):
        raise fail(
            "with_x5", "True or False", repr(with_x5), "Pass with_x5=True to add x5 = (4, -3)."
        )
    rows = [[3, 1], [1, 2], [-1, -1], [0, -2]] + ([[4, -3]] if with_x5 else [])
    labels = [1, 1, -1, -1] + ([1] if with_x5 else [])
    return Dataset(
        np.array(rows, dtype=np.int64),
        np.array(labels, dtype=np.int64),
        "margin-task" + ("-x5" if with_x5 else ""),
        "the lecture notes “Perceptron Mistake Bound”, margin task: four points"
        + (" and x5 = (4, -3)" if with_x5 else ""),
    )


def basis(n: int) -> Dataset:
    """The worst case of the notebook “The Perceptron Convergence Theorem”, §6.7: the basis vectors
    e₁ … e_n, all labelled +1.

    R = 1, the best margin is ρ* = 1/√n (w* = (1, …, 1)/√n), so Novikoff's bound R²/ρ² = n, and
    the cyclic perceptron makes exactly n mistakes: the bound is attained.

    Examples
    --------
    >>> from perceptronlab import perceptron
    >>> perceptron(*basis(7)).mistakes
    7
    """
    n = check_positive_int("n (the dimension)", n, "Pass e.g. basis(5).")
    return Dataset(
        np.eye(n, dtype=np.int64),
        np.ones(n, dtype=np.int64),
        f"basis-{n}",
        f"the notebook “The Perceptron Convergence Theorem”, section 6.7: the {n} basis vectors, all labelled +1",
    )


def _check_real(
    name: str, value: Any, *, minimum: float | None = None, positive: bool = False
) -> float:
    if (
        isinstance(value, bool)
        or not isinstance(value, numbers.Real)
        or not np.isfinite(float(value))
    ):
        raise fail(name, "a finite number", repr(value), f"Pass e.g. {name.split()[0]}=1.0.")
    number = float(value)
    if positive and number <= 0:
        raise fail(name, "a number > 0", number, f"Pass e.g. {name.split()[0]}=1.0.")
    if minimum is not None and number < minimum:
        raise fail(name, f"a number >= {minimum}", number, f"Pass e.g. {name.split()[0]}=3.0.")
    return number


def _legacy_seed(seed: Any) -> int:
    """A seed for the legacy ``RandomState`` the notebook uses: an integer in [0, 2**32)."""
    checked = check_seed(seed)
    if checked is None or checked >= 2**32:
        raise fail(
            "seed", "an integer in [0, 2**32)", repr(seed), "Pass e.g. seed=42 (the notebook's)."
        )
    return checked


def _two_clouds(n_per_class: int, offset: float, spread: float, seed: int) -> np.ndarray:
    """The notebook's two round clouds, stacked: from ``RandomState(seed)``, n points
    ``randn(n, 2) * spread`` around (−offset, 0), then n around (offset, 0)."""
    rng = np.random.RandomState(seed)
    first = rng.randn(n_per_class, 2) * spread + np.array([-offset, 0])
    second = rng.randn(n_per_class, 2) * spread + np.array([offset, 0])
    return np.vstack([first, second])


def gaussian_pair(
    n_per_class: int = 25,
    separation: float = 3.0,
    seed: int = 42,
    bias: bool = True,
    spread: float = 0.5,
) -> Dataset:
    """The Gaussian pair of the notebook “The Perceptron Convergence Theorem”: two round clouds at
    (∓separation/2, 0), labels −1 then +1.

    Exactly the notebook's construction: ``rng = np.random.RandomState(seed)``, then
    ``X0 = rng.randn(n, 2) * spread + (-separation/2, 0)`` (label −1) and
    ``X1 = rng.randn(n, 2) * spread + (separation/2, 0)`` (label +1), stacked; with ``bias`` a
    leading column of ones is prepended (the bias trick, x₀ = 1), so X is (2n, 3).

    Parameters
    ----------
    n_per_class : int
        Points per class (the notebook uses 30 in §6.5 and 25 in its bound-versus-actual study).
    separation : float
        Distance between the two centres (the notebook sweeps 1.5 … 6).
    seed : int
        The seed of the legacy ``RandomState`` (the study uses ``trial * 137 + int(sep * 100)``).
    bias : bool
        Prepend the constant-1 column, as the notebook does before running the perceptron.
    spread : float
        Standard deviation of each coordinate (0.5 in the notebook).

    Examples
    --------
    >>> X, y = gaussian_pair(30, 3.0, seed=42)
    >>> X.shape, sorted(set(y.tolist())), X[:, 0].tolist() == [1.0] * 60
    ((60, 3), [-1, 1], True)
    """
    n_per_class = check_positive_int("n_per_class", n_per_class, "Pass e.g. n_per_class=25.")
    separation = _check_real("separation", separation, minimum=0.0)
    spread = _check_real("spread", spread, positive=True)
    seed = _legacy_seed(seed)
    X = _two_clouds(n_per_class, separation / 2, spread, seed)
    if bias:
        X = np.hstack([np.ones((X.shape[0], 1)), X])
    y = np.array([-1] * n_per_class + [1] * n_per_class, dtype=np.int64)
    return Dataset(
        X,
        y,
        f"gaussian-pair-{separation:g}-{seed}",
        f"the notebook “The Perceptron Convergence Theorem”: two Gaussian clouds (sd {spread:g}) "
        f"{separation:g} apart, seed {seed}" + (", bias column first" if bias else ""),
    )


def label_by(target: ArrayLike, X: ArrayLike) -> Int64Array:
    """Labels of the points ``X`` under a line ``target = (b, w1, …, w_d)``: +1 where b + ⟨w, x⟩ > 0, else −1.

    Examples
    --------
    >>> label_by([0.0, 1.0, -1.0], [[2.0, 1.0], [0.0, 3.0]]).tolist()
    [1, -1]
    """
    target = np.asarray(target, dtype=np.float64)
    X = np.asarray(X, dtype=np.float64)
    if target.ndim != 1 or X.ndim != 2 or target.shape[0] != X.shape[1] + 1:
        raise fail(
            "target",
            f"a vector (b, w1, ..., w_d) of length d + 1 = {X.shape[-1] + 1}",
            f"shape {target.shape} for X of shape {X.shape}",
            "Pass Dataset.target from lfd().",
        )
    return np.where(target[0] + X @ target[1:] > 0, 1, -1).astype(np.int64)


def lfd(N: int = 10, seed: int | None = 0) -> Dataset:
    """The Learning From Data PLA setup: N points uniform in [−1, 1]², labelled by a random line.

    The target f is the line through two points drawn uniformly from [−1, 1]² (drawn first, then
    the N inputs, all from ``np.random.default_rng(seed)``); ``target = (b, w1, w2)`` with
    f(x) = sign(b + w1·x1 + w2·x2), +1 on the left of the direction from the first point to the
    second (both orientations are equally likely over the draws).

    Reference: Abu-Mostafa, Magdon-Ismail and Lin, *Learning From Data* (2012), Problem 1.4;
    the course's homework 1 (PLA iterations and P[f ≠ g] for N = 10 and N = 100).

    Examples
    --------
    >>> data = lfd(10, seed=1)
    >>> data.X.shape, bool((label_by(data.target, data.X) == data.y).all())
    ((10, 2), True)
    """
    N = check_positive_int("N (the number of points)", N, "Pass e.g. N=10.")
    seed = check_seed(seed)
    rng = np.random.default_rng(seed)
    p, q = rng.uniform(-1.0, 1.0, size=(2, 2))
    # the normal of the line through p and q: rotate the direction q - p by +90 degrees
    w = np.array([-(q[1] - p[1]), q[0] - p[0]])
    target = np.array([-float(w @ p), w[0], w[1]])
    X = rng.uniform(-1.0, 1.0, size=(N, 2))
    return Dataset(
        X,
        label_by(target, X),
        f"lfd-{N}-{seed}",
        f"Learning From Data: {N} points uniform in [-1, 1]^2, a random target line, seed {seed}",
        target=target,
    )


def nonseparable(
    n_per_class: int = 40, shift: float = 0.5, spread: float = 1.0, seed: int = 42
) -> Dataset:
    """The notebook “The Perceptron Convergence Theorem”, §6.9: two overlapping Gaussian clouds
    with labels 0 and 1 (not separable).

    Exactly the notebook's construction: ``RandomState(seed)``, ``X0 = randn(n, 2) * spread +
    (-shift, 0)`` labelled 0, ``X1 = randn(n, 2) * spread + (shift, 0)`` labelled 1 (the notebook
    uses n = 40, shift 0.5, spread 1, seed 42). No bias column: train with ``fit_intercept=True``.

    Examples
    --------
    >>> from perceptronlab import perceptron
    >>> X, y = nonseparable()
    >>> run = perceptron(X, y, fit_intercept=True, max_sweeps=50, warn=False)
    >>> run.converged, X.shape, sorted(set(y.tolist()))
    (False, (80, 2), [0, 1])
    """
    n_per_class = check_positive_int("n_per_class", n_per_class, "Pass e.g. n_per_class=40.")
    shift = _check_real("shift", shift, minimum=0.0)
    spread = _check_real("spread", spread, positive=True)
    seed = _legacy_seed(seed)
    return Dataset(
        _two_clouds(n_per_class, shift, spread, seed),
        np.array([0] * n_per_class + [1] * n_per_class, dtype=np.int64),
        f"nonseparable-{seed}",
        f"the notebook “The Perceptron Convergence Theorem”, section 6.9: overlapping clouds "
        f"(sd {spread:g}) at -{shift:g} and +{shift:g}, "
        f"labels 0/1, seed {seed}",
    )
