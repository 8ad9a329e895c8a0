"""scikit-learn's fitting options for the engine, with scikit-learn's own helpers and rule.

- sample and class weights become per-row update scales (``compute_class_weight``; a sample's
  update is scaled by its weight times its class's weight, in scikit-learn's order of the product);
- the validation split of ``early_stopping`` is scikit-learn's ``StratifiedShuffleSplit``;
- the stopping rule of ``tol`` / ``n_iter_no_change`` is the one scikit-learn's SGD loop applies
  after every epoch, on the epoch's hinge loss or on the validation accuracy (``accuracy_score``);
  here it runs as the driver's per-sweep hook;
- the seeds of a fit are drawn from ``random_state`` as scikit-learn draws them (:func:`sgd_seeds`):
  each run's seed drives its shuffles (:func:`perceptronlab.core.sgd.sgd_permutations`).

With these, ``perceptronlab.Perceptron`` gives scikit-learn's ``Perceptron`` weights, ``n_iter_``
and ``t_`` bit for bit, in data order and shuffled.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import numpy as np
from sklearn.metrics import accuracy_score
from sklearn.model_selection import StratifiedShuffleSplit
from sklearn.utils import check_random_state, compute_class_weight

from perceptronlab._ground import validation as v
from perceptronlab.core.scores import scores
from perceptronlab.estimators._errors import in_sklearn_words
from perceptronlab.estimators._labels import python_label

if TYPE_CHECKING:
    from numpy.typing import NDArray

    from perceptronlab.core.driver import SweepInfo

__all__ = [
    "check_sample_weight",
    "class_weights",
    "update_scales",
    "validation_mask",
    "StoppingRule",
    "sgd_seeds",
]

#: scikit-learn draws its SGD seeds below this (``MAX_INT`` of ``_stochastic_gradient.py``)
_MAX_INT = int(np.iinfo(np.int32).max)


def check_sample_weight(
    sample_weight: Any, n: int, *, allow_all_zero: bool = False
) -> NDArray[Any] | None:
    """None, or one finite weight >= 0 per row as float64 (some > 0, unless ``allow_all_zero``: with
    ``early_stopping`` the split's own check says more, as in scikit-learn)."""
    if sample_weight is None:
        return None
    try:
        weights = np.asarray(sample_weight, dtype=np.float64)
    except (TypeError, ValueError) as exc:
        raise v.fail(
            "sample_weight",
            "one number per row of X",
            f"values that are not numbers ({exc})",
            "Pass an array of weights >= 0, or None.",
        ) from None
    if weights.ndim == 0:
        weights = np.full(n, float(weights))
    if weights.ndim != 1 or weights.shape[0] != n:
        raise v.fail(
            "sample_weight",
            f"shape ({n},), one weight per row of X",
            f"shape {weights.shape}",
            "Pass one weight per example, or None.",
        )
    bad = np.flatnonzero(~np.isfinite(weights) | (weights < 0))
    if bad.shape[0]:
        raise v.fail(
            "sample_weight",
            "finite weights >= 0",
            f"{weights[bad[0]]} at row {bad[0]}",
            "A weight scales the example's update; use 0 to leave an example out.",
        )
    if n and not allow_all_zero and not np.any(weights > 0):
        raise v.fail(
            "sample_weight",
            "at least one weight > 0",
            "all zero",
            "Weight the examples to learn from.",
        )
    return np.ascontiguousarray(weights)


def class_weights(class_weight: Any, classes: NDArray[Any], y: NDArray[Any]) -> NDArray[Any]:
    """scikit-learn's ``compute_class_weight`` (one weight per class of ``classes``)."""
    try:
        weights: NDArray[Any] = compute_class_weight(class_weight, classes=classes, y=y)
        return weights
    except ValueError as exc:
        shown = [python_label(c) for c in classes]
        if class_weight == "balanced":
            raise v.fail(
                "class_weight='balanced'",
                f"examples of every class {shown} in y",
                f"y without some of them ({exc})",
                "Pass a dict of class weights, or class_weight=None.",
            ) from None
        raise v.fail(
            "class_weight",
            f"a dict whose keys are among the classes {shown}",
            f"{class_weight!r} ({exc})",
            "Fix the keys of the dict (they are labels of y).",
        ) from None


def update_scales(
    class_weight: NDArray[Any] | None,
    sample_weight: NDArray[Any] | None,
    signs: NDArray[Any],
    task: int | None,
    *,
    single: bool = False,
) -> NDArray[Any] | None:
    """Each row's update scale for one run: its class weight times its sample weight.

    As in scikit-learn's one-vs-rest, a binary run weighs +1 rows by the weight of ``classes[1]``
    and -1 rows by that of ``classes[0]``; the run of class k (``task``) weighs its own rows by the
    class's weight and the rest by 1. None when every scale is 1 (the plain engine then runs).
    With ``single`` (float32 X) both weights and their product are float32, as in scikit-learn's
    float32 loop (returned widened to float64, exactly).
    """
    if class_weight is None and sample_weight is None:
        return None
    n = signs.shape[0]
    if class_weight is None:
        per_row = np.ones(n)
    elif task is None:
        per_row = np.where(signs > 0, class_weight[1], class_weight[0])
    else:
        per_row = np.where(signs > 0, class_weight[task], 1.0)
    if single:
        per_row = per_row.astype(np.float32)
        product = per_row if sample_weight is None else per_row * sample_weight.astype(np.float32)
        return product.astype(np.float64)
    return per_row if sample_weight is None else per_row * sample_weight


def validation_mask(
    y: NDArray[Any], sample_weight: NDArray[Any], validation_fraction: float, random_state: Any
) -> NDArray[Any]:
    """The rows held out by ``early_stopping``: scikit-learn's stratified split of its SGD."""
    n = y.shape[0]
    splitter = StratifiedShuffleSplit(test_size=validation_fraction, random_state=random_state)
    try:
        train, held_out = next(splitter.split(np.zeros((n, 1)), y))
    except ValueError as exc:
        raise v.fail(
            "early_stopping",
            "a validation set with examples of every class",
            f"{n} examples split by validation_fraction={validation_fraction} ({exc})",
            "Raise validation_fraction, pass more examples, or early_stopping=False.",
        ) from None
    if train.shape[0] == 0 or held_out.shape[0] == 0:
        raise v.fail(
            "early_stopping",
            "a training set and a validation set, both non-empty",
            f"{train.shape[0]} and {held_out.shape[0]} examples (validation_fraction="
            f"{validation_fraction})",
            "Change validation_fraction, pass more examples, or early_stopping=False.",
        )
    if not np.any(sample_weight[held_out] > 0):
        raise in_sklearn_words(
            "The sample weights for validation set are all zero, consider using a different "
            "random state.",
            v.fail(
                "early_stopping",
                "a validation set with some weight",
                "sample weights all zero there",
                "Pass another random_state, or early_stopping=False.",
            ),
        )
    mask = np.zeros(n, dtype=bool)
    mask[held_out] = True
    return mask


def sgd_seeds(random_state: Any, n_runs: int, split: Callable[[], Any]) -> tuple[Any, list[int]]:
    """scikit-learn's draws from ``random_state`` for one fit: (the held-out mask, each run's seed).

    As its ``fit_binary`` and ``_fit_multiclass`` draw them, in their order, so that a numpy
    ``RandomState`` passed as ``random_state`` is left as scikit-learn leaves it: one run draws the
    dataset's seed (unused by SGD), then splits (``split()``: the mask of ``early_stopping``, or
    None), then draws the run's seed; one-vs-rest splits first, then draws one seed per class, each
    the seed of a ``RandomState`` that draws the dataset's seed and then the run's seed.
    """
    if n_runs == 1:
        generator = check_random_state(random_state)
        generator.randint(1, _MAX_INT)
        held = split()
        return held, [int(generator.randint(_MAX_INT))]
    held = split()
    seeds = []
    for seed in check_random_state(random_state).randint(_MAX_INT, size=n_runs):
        generator = check_random_state(seed)
        generator.randint(1, _MAX_INT)
        seeds.append(int(generator.randint(_MAX_INT)))
    return held, seeds


class StoppingRule:
    """scikit-learn's ``tol`` / ``n_iter_no_change`` rule, as the driver's per-sweep hook.

    After each sweep: with a validation set, its accuracy (``accuracy_score`` with the held-out
    sample weights) fails to improve when it is below the best so far + ``tol``; without, the
    sweep's mean hinge loss over the training rows fails to improve when it is above the best so
    far − ``tol``. ``n_iter_no_change`` failures in a row stop the run. ``tol`` None never stops
    (the perceptron's own stop is then the driver's). With ``verbose`` a line per sweep.

    ``engine`` is a :class:`~perceptronlab.core.engines.CompiledEngine` with ``track_loss`` (it keeps the sweep's loss).
    """

    def __init__(
        self,
        engine: Any,
        *,
        tol: float | None,
        n_iter_no_change: int,
        validation: Any = None,
        verbose: int = 0,
        name: str = "",
    ):
        self.engine = engine
        self.tol = tol
        self.n_iter_no_change = n_iter_no_change
        self.validation = validation  # (X, signs, sample weights) of the held-out rows, or None
        self.verbose = verbose
        self.name = name
        self.best = -np.inf if validation is not None else np.inf
        self.no_improvement = 0

    def __call__(self, info: SweepInfo) -> bool:
        engine = self.engine
        objective = engine.sweep_loss / engine.n
        if self.validation is not None:
            X, signs, weights = self.validation
            predicted = np.where(scores(X, engine.w, engine.b) > 0, 1.0, -1.0)
            score = accuracy_score(signs, predicted, sample_weight=weights)
            worse = self.tol is not None and score < self.best + self.tol
            self.best = max(self.best, score)
        else:
            score = None
            worse = self.tol is not None and objective > self.best - self.tol
            self.best = min(self.best, objective)
        self.no_improvement = self.no_improvement + 1 if worse else 0
        if self.verbose:
            self._say(info, objective, score)
        return self.no_improvement >= self.n_iter_no_change

    def _say(self, info: SweepInfo, objective: float, score: float | None) -> None:
        engine = self.engine
        norm = float(np.sqrt(engine.w @ engine.w))
        line = (
            f"Norm: {norm:.2f}, NNZs: {int(np.count_nonzero(engine.w))}, Bias: {engine.b:.6f}, "
            f"T: {info.sweep * engine.n}, Avg. loss: {objective:.6f}, Updates: {info.updates}"
        )
        if score is not None:
            line += f", Validation score: {score:.6f}"
        print(f"-- {self.name}Epoch {info.sweep}\n{line}", flush=True)
