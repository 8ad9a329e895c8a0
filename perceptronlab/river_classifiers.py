"""River classifiers over perceptronlab's online engine: :class:`Perceptron` and :class:`AveragedPerceptron`.

Real ``river.base.MiniBatchClassifier`` subclasses, so they go into River pipelines, River's
evaluation and River's own checks. Examples are dicts of features; labels are River's booleans
(``True`` is the positive class; 1/0 and +1/-1 are read the same way). Each round predicts from
the weights first, then learns: y(⟨w,x⟩ + b) ≤ ρ₀ (ties included) updates w ← w + η·y·x, in
:class:`perceptronlab.core.online.OnlineState`, the engine behind
:class:`perceptronlab.OnlinePerceptron`.

With the defaults, ``perceptronlab.river_classifiers.Perceptron`` is River's ``linear_model.Perceptron``: the
same predictions, accuracy and weights in ``evaluate.progressive_val_score``.

Needs River, an optional extra: ``pip install "perceptronlab[river]"``.

>>> from river import datasets, evaluate, metrics, preprocessing
>>> from perceptronlab.river_classifiers import Perceptron
>>> model = preprocessing.StandardScaler() | Perceptron()
>>> evaluate.progressive_val_score(datasets.Phishing(), model, metrics.Accuracy())
Accuracy: 85.84%
"""

from __future__ import annotations

import numbers
from collections.abc import Hashable, Iterable
from typing import TYPE_CHECKING, Any

import numpy as np

try:
    from river import base
except ImportError as exc:  # pragma: no cover - the extra is installed where this is tested
    raise ImportError(
        "perceptronlab.river_classifiers needs River, an optional extra of perceptronlab: "
        'pip install "perceptronlab[river]" (or pip install river).'
    ) from exc

from perceptronlab._ground import validation as v
from perceptronlab.core.online import OnlineState
from perceptronlab.core.online_average import AveragedOnlineState

if TYPE_CHECKING:
    import pandas as pd

__all__ = ["Perceptron", "AveragedPerceptron"]


def _sign(y: Any) -> int:
    """+1 for River's True (or 1), -1 for False (or 0, or -1)."""
    if y is True:
        return 1
    if y is False:
        return -1
    if isinstance(y, np.bool_):
        return 1 if y else -1
    if isinstance(y, numbers.Real) and y in (1, 0, -1):
        return 1 if y == 1 else -1
    raise v.fail(
        "y",
        "a boolean label (True is the positive class; 1/0 and +1/-1 read the same)",
        repr(y),
        "Map the labels to True/False, e.g. y == 'spam'; perceptronlab.river_classifiers's perceptrons are binary.",
    )


def _signs(y: Any) -> np.ndarray:
    """+1/-1 of a batch of labels, as :func:`_sign` reads each (booleans at NumPy speed)."""
    if hasattr(type(y), "to_numpy") and isinstance(getattr(y, "dtype", None), np.dtype):
        labels = y.to_numpy()  # a pandas Series of a NumPy dtype: its array, as np.asarray gives
    else:  # the type: pandas looks up columns
        labels = np.asarray(y if hasattr(type(y), "__array__") else list(y))
    if labels.dtype == np.bool_:
        return np.where(labels, 1.0, -1.0)
    if labels.dtype.kind in "iuf" and ((labels == 1) | (labels == 0) | (labels == -1)).all():
        return np.where(labels == 1, 1.0, -1.0)
    return np.array([_sign(label) for label in labels.tolist()], dtype=np.float64)


class Perceptron(base.MiniBatchClassifier):
    """The online perceptron as a River classifier (River's ``linear_model.Perceptron`` with the
    defaults).

    Parameters
    ----------
    eta0
        The learning rate η > 0 (River's Perceptron: 1).
    margin
        ρ₀ ≥ 0: update while y(⟨w,x⟩ + b) ≤ ρ₀ (0: the plain perceptron, ties included).
    fit_intercept
        Learn the intercept b (River's Perceptron does).

    Attributes
    ----------
    weights : dict
        The weight of each feature seen in an update.
    intercept : float
    n_mistakes : int
        Updates made so far.

    Examples
    --------
    >>> from perceptronlab.river_classifiers import Perceptron
    >>> model = Perceptron()
    >>> model.learn_one({"sunny": 1.0}, True)
    >>> model.learn_one({"rain": 1.0}, False)
    >>> model.predict_one({"sunny": 1.0, "rain": 0.0}), model.weights, model.n_mistakes
    (True, {'sunny': 1.0, 'rain': -1.0}, 2)
    """

    def __init__(self, eta0: float = 1.0, margin: float = 0.0, fit_intercept: bool = True) -> None:
        self.eta0 = eta0
        self.margin = margin
        self.fit_intercept = fit_intercept
        self._state = OnlineState(eta=eta0, margin=margin, fit_intercept=fit_intercept)

    @property
    def weights(self) -> dict[Hashable, float]:
        return dict(self._state.weights or {})

    @property
    def intercept(self) -> float:
        return float(self._state.b)

    @property
    def n_mistakes(self) -> int:
        return int(self._state.mistakes)

    def learn_one(self, x: dict[Hashable, Any], y: Any) -> None:
        """Predict x from the current weights, then learn from its label y (True: +1)."""
        self._state.learn(x, _sign(y))

    def predict_one(self, x: dict[Hashable, Any], **kwargs: Any) -> bool:
        """True where ⟨w,x⟩ + b > 0 (a tie predicts False, as before any learning)."""
        return self._state.predict_sign(x) == 1

    def learn_many(self, X: pd.DataFrame, y: pd.Series | Iterable[Any]) -> None:
        """Learn a pandas DataFrame's rows (dicts keyed by column name) in order, in one compiled
        loop: each row is predicted from the weights the rows before it left, then learned, so the
        weights are :meth:`learn_one`'s on each row in turn, bit for bit.

        This is the rule's sequential rounds, not River's mini-batch step (River's linear models
        take one step along the batch's mean gradient); a batch learns here what the same rows
        learn one at a time.
        """
        frame = _frame(X)
        signs = _signs(y)
        if signs.shape[0] != frame.shape[0]:
            raise v.label_count_error(frame.shape[0], signs.shape[0], "y")
        self._state.learn_many(frame, signs)

    def predict_many(self, X: pd.DataFrame) -> pd.Series:
        """A pandas Series of the rows' predictions (:meth:`predict_one`'s, bit for bit: each score
        summed over the columns in order, then the intercept added), indexed like X."""
        import pandas as pd

        frame = _frame(X)
        weights = self._state.weights or {}
        try:
            values = np.ascontiguousarray(frame.to_numpy(dtype=np.float64))
        except (TypeError, ValueError):  # a cell that is not a number: predict_one names it
            values = None
        if values is None or not np.isfinite(values).all():
            return pd.Series(
                [self.predict_one(x) for x in _rows(frame)], index=frame.index, dtype=bool
            )
        total = np.zeros(values.shape[0])
        for j, name in enumerate(frame.columns):  # left to right, as predict_one's sum
            total += values[:, j] * weights.get(name, 0.0)
        return pd.Series(self._state.b + total > 0, index=frame.index, dtype=bool)


class AveragedPerceptron(Perceptron):
    """The averaged perceptron as a River classifier: it learns as :class:`Perceptron` and
    predicts with the average of its weights after every round so far, w̄ = (1/T) Σ_t w_t
    (:class:`perceptronlab.core.online_average.AveragedOnlineState`).

    Parameters
    ----------
    eta0, margin, fit_intercept
        As in :class:`Perceptron`.

    Attributes
    ----------
    weights, intercept : the averaged weights and intercept.
    n_rounds : int
        T, the rounds averaged over.

    Examples
    --------
    >>> from perceptronlab.river_classifiers import AveragedPerceptron
    >>> model = AveragedPerceptron(fit_intercept=False)
    >>> for x, y in [({"a": 1.0}, True), ({"b": 1.0}, False), ({"a": 1.0}, True), ({"b": 1.0}, False)]:
    ...     model.learn_one(x, y)
    >>> model.weights, model.n_rounds
    ({'a': 1.0, 'b': -0.75}, 4)
    """

    def __init__(self, eta0: float = 1.0, margin: float = 0.0, fit_intercept: bool = True) -> None:
        super().__init__(eta0=eta0, margin=margin, fit_intercept=fit_intercept)
        self._state: AveragedOnlineState = AveragedOnlineState(
            eta=eta0, margin=margin, fit_intercept=fit_intercept
        )

    @property
    def weights(self) -> dict[Hashable, float]:
        return dict(self._state.average_weights()) if self._state.weights is not None else {}

    @property
    def intercept(self) -> float:
        return self._state.average_intercept()

    @property
    def n_rounds(self) -> int:
        return int(self._state.rounds)

    def predict_one(self, x: dict[Hashable, Any], **kwargs: Any) -> bool:
        """True where ⟨w̄, x⟩ + b̄ > 0 (a tie predicts False)."""
        return self._state.average_score(x) > 0

    def learn_many(self, X: pd.DataFrame, y: pd.Series | Iterable[Any]) -> None:
        """Learn a DataFrame's rows in order, each as :meth:`learn_one` (the average is kept round
        by round, in Python)."""
        for x, label in zip(_rows(X), list(y), strict=True):
            self.learn_one(x, label)

    def predict_many(self, X: pd.DataFrame) -> pd.Series:
        """A pandas Series of :meth:`predict_one`'s predictions, indexed like X."""
        import pandas as pd

        return pd.Series([self.predict_one(x) for x in _rows(X)], index=X.index, dtype=bool)


def _frame(X: Any) -> pd.DataFrame:
    """X, checked to be a pandas DataFrame (one column per feature)."""
    if not (hasattr(X, "columns") and hasattr(X, "to_dict") and hasattr(X, "to_numpy")):
        raise v.fail(
            "X",
            "a pandas DataFrame (one column per feature)",
            type(X).__name__,
            "Pass pandas.DataFrame(rows); learn_one/predict_one take one dict.",
        )
    return X


def _rows(X: pd.DataFrame) -> list[dict[Hashable, Any]]:
    """A DataFrame's rows as dicts keyed by column name, in column order."""
    rows: list[dict[Hashable, Any]] = _frame(X).to_dict(orient="records")
    return rows
