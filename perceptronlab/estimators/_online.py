"""The online perceptron as a scikit-learn classifier with River's one-example protocol, over
:class:`perceptronlab.core.online.OnlineState`."""

from __future__ import annotations

from collections.abc import Mapping
from numbers import Real
from typing import TYPE_CHECKING, Any, NamedTuple

import numpy as np
import scipy.sparse as sp
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.utils._param_validation import Interval

from perceptronlab._ground import validation as v
from perceptronlab.core.engines import CompiledEngine
from perceptronlab.core.online import OnlineState
from perceptronlab.core.scores import labels, scores
from perceptronlab.estimators._data import check_data
from perceptronlab.estimators._errors import NotFittedError
from perceptronlab.estimators._labels import (
    check_targets,
    classes_for_training,
    is_signed,
    python_label,
    signs_of,
    two_classes,
)
from perceptronlab.estimators._params import EstimatorNames, check_estimator_params

if TYPE_CHECKING:
    from numpy.typing import ArrayLike, NDArray
    from typing_extensions import Self

    from perceptronlab._ground.types import Float64Array, Int64Array, MatrixLike

__all__ = ["OnlinePerceptron", "Replay"]


class Replay(NamedTuple):
    """What :meth:`OnlinePerceptron.replay` found, as row indices of the stream.

    Attributes
    ----------
    updates : the rounds where the rule updated w: y(⟨w,x⟩ + b) ≤ ρ₀ (a tie included, also when
        the tie predicted the right label, and rows inside the margin ρ₀).
    errors : the rounds whose prediction, made before the label was seen, was wrong (progressive
        validation's errors). Every error is an update; an update is not an error when the
        prediction was right (a tie on a ``classes_[0]`` row, or a row right but within ρ₀).

    Examples
    --------
    >>> from perceptronlab import OnlinePerceptron
    >>> found = OnlinePerceptron(classes=["ham", "spam"]).replay([[1.0], [1.0]], ["ham", "spam"])
    >>> found.updates.tolist(), found.errors.tolist()  # round 0: a tie, predicted "ham", right
    ([0, 1], [1])
    """

    updates: Int64Array
    errors: Int64Array


class OnlinePerceptron(EstimatorNames, ClassifierMixin, BaseEstimator):
    """The online perceptron (“Perceptron Algorithm for Halfspaces”): predict first, then learn from the revealed label.

    On each example the learner predicts sign(⟨w,x⟩ + b) (a tie predicts ``classes_[0]``) from w
    and x alone; only then is the label used: y(⟨w,x⟩ + b) ≤ ρ₀ is a mistake and updates
    w ← w + η·y·x. ``learn_one`` / ``predict_one`` take one example (a NumPy vector or a
    River-style dict); ``partial_fit`` and ``replay`` run a whole stream in one compiled call.
    Binary only: ``classes_[1]`` is +1.

    Parameters
    ----------
    eta0 : float > 0, default=1.0
        The learning rate η.
    margin : float >= 0, default=0.0
    fit_intercept : bool, default=True
    classes : array-like of the two labels, or None
        Needed before the first example unless the labels are -1/+1 (or given to ``partial_fit``).

    Attributes
    ----------
    coef_ : ndarray of shape (1, n_features)
    intercept_ : ndarray of shape (1,)
    classes_ : ndarray of the two labels.
    n_mistakes_ : int, mistakes (updates) made so far.
    n_features_in_ : int (after matrix or vector input).

    Examples
    --------
    >>> from perceptronlab import OnlinePerceptron
    >>> model = OnlinePerceptron(fit_intercept=False)
    >>> for x, y in [([1, 0], 1), ([1, 1], -1), ([0, 1], -1), ([1, 0], 1)]:
    ...     guess = model.predict_one(x)  # None before the first label: the classes are unknown
    ...     model = model.learn_one(x, y)
    >>> model.n_mistakes_, model.coef_
    (3, array([[ 1., -1.]]))

    A stream in one compiled call, returning the rounds that updated and those predicted wrong (the
    first round is a tie, which predicts "ham": right, yet an update):

    >>> model = OnlinePerceptron(classes=["ham", "spam"])
    >>> X = [[0.0, 1.0], [1.0, 0.0], [0.1, 0.9], [0.9, 0.2]]
    >>> model.replay(X, ["ham", "spam", "ham", "spam"])
    Replay(updates=array([0, 1]), errors=array([1]))
    >>> model.predict([[1.0, 0.0], [0.0, 1.0]]).tolist(), model.n_mistakes_
    (['spam', 'ham'], 2)

    River-style dicts grow the feature set as names appear:

    >>> model = OnlinePerceptron(classes=[False, True])
    >>> model = model.learn_one({"sunny": 1.0}, True).learn_one({"rain": 1.0}, False)
    >>> model.predict_one({"sunny": 1.0, "rain": 0.0}), model.n_mistakes_
    (True, 2)
    """

    _parameter_constraints: dict[str, list[Any]] = {
        "eta0": [Interval(Real, 0, None, closed="neither")],
        "margin": [Interval(Real, 0, None, closed="left")],
        "fit_intercept": ["boolean"],
        "classes": ["array-like", None],
    }

    # what the first call sets (annotations only)
    classes_: NDArray[Any]
    n_features_in_: int
    _state: OnlineState
    _sign_of: dict[Any, int]

    def __init__(
        self,
        *,
        eta0: float = 1.0,
        margin: float = 0.0,
        fit_intercept: bool = True,
        classes: ArrayLike | None = None,
    ) -> None:
        self.eta0 = eta0
        self.margin = margin
        self.fit_intercept = fit_intercept
        self.classes = classes

    def __sklearn_tags__(self) -> Any:
        tags = super().__sklearn_tags__()
        tags.input_tags.sparse = True
        tags.classifier_tags.multi_class = False
        return tags

    def __sklearn_is_fitted__(self) -> bool:
        return "_state" in self.__dict__

    # ------------------------------------------------------------ state
    def _state_for(self, method: str) -> OnlineState:
        state: OnlineState | None = self.__dict__.get("_state")
        if state is None:
            name = type(self).__name__
            raise NotFittedError(
                f"This {name} instance is not fitted yet: {method} needs the "
                "weights learned from examples. Call fit, partial_fit, replay or learn_one first."
            )
        return state

    def _start(self, classes: NDArray[Any]) -> None:
        self._state = OnlineState(
            eta=self.eta0, margin=self.margin, fit_intercept=self.fit_intercept
        )
        self.classes_ = classes
        # one dict lookup per learn_one call instead of array work (River-speed rounds)
        self._sign_of = {python_label(classes[0]): -1, python_label(classes[1]): 1}

    def _first_classes(self, given: Any, labels: NDArray[Any], method: str) -> NDArray[Any]:
        for candidate in (given, self.classes):
            if candidate is not None:
                return two_classes(candidate)
        if labels.shape[0] and is_signed(labels):
            return np.array([-1, 1], dtype=labels.dtype)
        shown = labels[:2].tolist()
        where = "partial_fit(X, y, classes=[...]) or " if method == "partial_fit" else ""
        raise v.fail(
            "classes",
            f"the two class labels before the first example ({method})",
            f"none, with labels {shown} in the data",
            f"Pass {where}OnlinePerceptron(classes=[...]) with both labels (only -1/+1 labels need none).",
        )

    @property
    def coef_(self) -> Float64Array:
        coef: Float64Array = self._state_for("coef_").w.reshape(1, -1).copy()
        return coef

    @property
    def intercept_(self) -> Float64Array:
        return np.array([float(self._state_for("intercept_").b)])

    @property
    def n_mistakes_(self) -> int:
        return int(self._state_for("n_mistakes_").mistakes)

    # ------------------------------------------------------------ streams
    def _stream(self, X: Any, y: Any, classes: Any, method: str) -> Int64Array:
        check_estimator_params(self)
        first = "_state" not in self.__dict__
        X, y = check_data(self, X, y, reset=first)
        labels = check_targets(y, binary_only=True)
        if first:
            first_classes = self._first_classes(classes, labels, method)
            signs = signs_of(y, first_classes)  # refuse stray labels before any state exists
            self._start(first_classes)
            return self._state.replay(X, signs)
        if classes is not None and not np.array_equal(two_classes(classes), self.classes_):
            raise v.fail(
                "classes",
                f"the classes of the first call, {self.classes_.tolist()}",
                f"{np.asarray(classes).tolist()}",
                "Pass classes only on the first call, or call fit to start over.",
            )
        if self._state.feature_names is not None:
            raise v.fail(
                "X",
                "dict examples, as learned so far",
                "a matrix",
                "Keep using learn_one/predict_one with dicts, or call fit(X, y) to start "
                "over on a matrix.",
            )
        return self._state.replay(X, signs_of(y, self.classes_))

    def replay(self, X: MatrixLike, y: ArrayLike) -> Replay:
        """Progressive validation of a stream in one compiled call: each example is predicted from
        the weights learned on the examples before it, then learned; the state carries over to
        later calls.

        Returns
        -------
        Replay
            ``updates``: the rows where the rule updated w (y(⟨w,x⟩ + b) ≤ ρ₀, ties included);
            ``errors``: the rows predicted wrong (a subset of the updates: a tie on a
            ``classes_[0]`` row predicts it right, yet updates).
        """
        before = self.__dict__.get("_state")
        start = (
            None
            if before is None or before.feature_names is not None
            else (before.w.copy(), before.b)
        )
        updates = self._stream(X, y, None, "replay")
        return Replay(updates, self._errors(X, y, start, updates))

    def _errors(self, X: Any, y: Any, start: Any, updates: Int64Array) -> Int64Array:
        """The rounds of a replay predicted wrong: the same sweep again from its start weights (the
        same bits), with y(⟨w,x⟩ + b) before each update; a wrong prediction is < 0, or a tie on a
        classes_[1] row."""
        if updates.shape[0] == 0:
            return updates
        X = check_data(self, X, reset=False)
        signs = signs_of(np.asarray(y), self.classes_)
        w0, b0 = (None, 0.0) if start is None or start[0].shape[0] == 0 else start
        engine = CompiledEngine(
            X,
            signs,
            eta=self.eta0,
            margin=self.margin,
            fit_intercept=self.fit_intercept,
            w0=w0,
            b0=b0,
            n_jobs=1,
            track_loss=True,
        )
        engine.sweep(None, 1)
        margins = engine.update_margins
        wrong = (margins < 0) | ((margins == 0) & (signs[updates] > 0))
        errors: Int64Array = updates[wrong]
        return errors

    def partial_fit(self, X: MatrixLike, y: ArrayLike, classes: ArrayLike | None = None) -> Self:
        """Learn from a batch of a stream (as :meth:`replay`); ``classes`` on the first call.

        Returns
        -------
        self
        """
        self._stream(X, y, classes, "partial_fit")
        return self

    def fit(self, X: MatrixLike, y: ArrayLike) -> Self:
        """Start over and learn from (X, y) in one pass, in data order.

        Returns
        -------
        self
        """
        check_estimator_params(self)
        for attribute in ("_state", "classes_", "n_features_in_", "feature_names_in_"):
            self.__dict__.pop(attribute, None)
        X, y = check_data(self, X, y, reset=True)
        labels = check_targets(y, binary_only=True)
        classes = (
            two_classes(self.classes) if self.classes is not None else classes_for_training(labels)
        )
        self._start(classes)
        self._state.replay(X, signs_of(y, classes))
        return self

    # ------------------------------------------------------------ one example
    @staticmethod
    def _example(x: Any) -> Any:
        if type(x) is dict or isinstance(x, Mapping):
            return x
        if sp.issparse(x):
            x = x.toarray()
        arr = np.asarray(x)
        if arr.ndim == 2 and arr.shape[0] == 1:
            arr = arr[0]
        if arr.ndim != 1:
            raise v.fail(
                "x",
                "one example (a 1-D vector or a dict)",
                f"an array of shape {arr.shape}",
                "Use partial_fit(X, y) or replay(X, y) for many examples.",
            )
        try:
            return arr.astype(np.float64)
        except (TypeError, ValueError) as exc:
            raise v.fail(
                "x",
                "numeric values",
                f"{arr.tolist()!r} ({exc})",
                "Pass numbers (or a dict of numbers).",
            ) from None

    def predict_one(self, x: Mapping[Any, float] | ArrayLike) -> Any:
        """The label predicted for one example (vector or dict), from the current weights.

        Before the first example the weights are 0 and every score is a tie, which predicts
        ``classes_[0]``; if the classes are not known yet either, the answer is None (as in River).
        """
        state = self.__dict__.get("_state")
        if state is None:
            return None if self.classes is None else python_label(two_classes(self.classes)[0])
        sign = state.predict_sign(self._example(x))
        return python_label(self.classes_[1 if sign == 1 else 0])

    def learn_one(self, x: Mapping[Any, float] | ArrayLike, y: Any) -> Self:
        """Predict x from the current weights, then use the label y; a mistake updates w.

        Returns
        -------
        self
        """
        state: OnlineState | None = self.__dict__.get("_state")
        sign: Any
        if type(x) is dict and state is not None:  # the stream's hot path: a dict and a known label
            try:
                sign = self._sign_of[y]
            except (KeyError, TypeError):
                pass
            else:
                state.learn(x, sign)
                return self
        x = self._example(x)
        if "_state" not in self.__dict__:
            check_estimator_params(self)
            classes = self._first_classes(None, np.asarray([y]), "learn_one")
            sign = signs_of(np.asarray([y]), classes)[0]
            self._start(classes)
        else:
            try:
                sign = self._sign_of.get(y)
            except TypeError:  # an unhashable label: the general check names it
                sign = None
            if sign is None:
                sign = signs_of(np.asarray([y]), self.classes_)[0]
        self._state.learn(x, int(sign))
        if (
            type(x) is not dict
            and not isinstance(x, Mapping)
            and "n_features_in_" not in self.__dict__
        ):
            self.n_features_in_ = int(self._state.w.shape[0])
        return self

    # ------------------------------------------------------------ batch prediction
    def decision_function(self, X: MatrixLike) -> Float64Array:
        """⟨w, x⟩ + b for every row of X; > 0 means ``classes_[1]``."""
        state = self._state_for("decision_function")
        if state.feature_names is not None:
            raise v.fail(
                "X",
                "dict examples, as learned",
                "a matrix",
                "Predict one dict at a time with predict_one.",
            )
        X = check_data(self, X, reset=False)
        if state.w.shape[0] != X.shape[1]:
            v.check_n_features(X.shape[1], state.w.shape[0], type(self).__name__)
        return scores(X, state.w, state.b)

    def predict(self, X: MatrixLike) -> NDArray[Any]:
        """``classes_[1]`` where the score is > 0, else ``classes_[0]``."""
        self._state_for("predict")
        return labels(self.decision_function(X), self.classes_)
