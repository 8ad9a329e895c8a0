"""The online protocol (seed 001): predict from w and x first, then learn from the revealed label.

On round t the learner sees x_t, predicts sign(⟨w,x_t⟩ + b) (a tie predicts −1), and only then
receives y_t; y_t(⟨w,x_t⟩ + b) ≤ ρ₀ is a mistake (ties included) and triggers w ← w + η·y_t·x_t.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

import numpy as np

from perceptronlab import _validation as v
from perceptronlab.core.engines import CompiledEngine
from perceptronlab.core.scores import scores

_INF = float("inf")


class OnlineState:
    """Weights and counts of an online perceptron; inputs are vectors or River-style dicts.

    Vectors use a NumPy weight vector. Dicts use a dict of weights keyed by feature name, so one
    round costs a few dictionary operations (a feature never seen counts as 0); ``w`` then lists the
    weights in order of first appearance (``feature_names``).

    Examples
    --------
    >>> state = OnlineState()
    >>> state.predict_sign({"a": 1.0}), state.learn({"a": 1.0}, 1), state.mistakes
    (-1, True, 1)
    """

    def __init__(self, *, eta: float = 1.0, margin: float = 0.0, fit_intercept: bool = False):
        self.eta = float(v.check_eta(eta))
        self.margin = float(v.check_margin(margin))
        self.fit_intercept = bool(fit_intercept)
        self._w = np.zeros(0)
        self.weights: dict[Any, float] | None = None  # dict mode
        self.b = 0.0
        self.mistakes = 0
        self.seen = 0

    @property
    def feature_names(self) -> dict[Any, int] | None:
        return None if self.weights is None else {name: k for k, name in enumerate(self.weights)}

    @property
    def w(self) -> np.ndarray:
        return self._w if self.weights is None else np.fromiter(self.weights.values(), float, len(self.weights))

    @w.setter
    def w(self, value: np.ndarray) -> None:
        self._w = value

    # ------------------------------------------------------------ dicts
    def _dict_score(self, x: Mapping) -> float:
        if self.weights is None:
            if self._w.shape[0] or self.seen:
                raise v.fail("x", "a vector, as in earlier rounds", "a dict", "Use one input kind per learner.")
            self.weights = {}
        weights = self.weights
        try:
            score = self.b + sum([weights.get(name, 0.0) * value for name, value in x.items()])
        except TypeError:
            score = float("nan")
        if not math.isfinite(score):  # only now look at each value, to name the bad one
            for name, value in x.items():
                _finite(value, name)
            raise v.overflow_error("during training")
        return score

    # ------------------------------------------------------------ vectors
    def vector(self, x: Any) -> np.ndarray:
        if self.weights is not None:
            raise v.fail("x", "a dict, as in earlier rounds", type(x).__name__, "Use one input kind per learner.")
        vec = np.asarray(x, dtype=np.float64).ravel()
        if not np.isfinite(vec).all():
            raise v.fail("x", "finite values", "NaN or inf", "Remove or impute the missing values.")
        if self._w.shape[0] == 0 and self.seen == 0:
            self._w = np.zeros(vec.shape[0])
        if vec.shape[0] != self._w.shape[0]:
            raise v.fail("x", f"{self._w.shape[0]} features, as in earlier rounds", f"{vec.shape[0]}",
                         "Pass every example with the same features.")
        return vec

    # ------------------------------------------------------------ protocol
    def score(self, x: Any) -> float:
        """⟨w, x⟩ + b with the current weights (no label involved)."""
        if isinstance(x, Mapping):
            return self._dict_score(x)
        vec = self.vector(x)
        return float(scores(vec.reshape(1, -1), self._w, self.b)[0])  # the kernels' order, as replay

    def predict_sign(self, x: Any) -> int:
        return 1 if self.score(x) > 0 else -1

    def learn(self, x: Any, y_sign: int) -> bool:
        """Predict first (from w and x alone), then use y_sign; returns whether it was a mistake."""
        if type(x) is dict and self.weights is not None:
            # the hot path of a stream of dicts, written out: a few dict operations per feature
            get = self.weights.get
            score = self.b
            try:
                for name, value in x.items():
                    score += get(name, 0.0) * value
            except TypeError:
                score = _INF
            if score != score or score in (_INF, -_INF):
                score = self._dict_score(x)  # names the bad value
        else:
            score = self.score(x)  # the prediction's score, computed before y is read
        self.seen += 1
        if y_sign != 1 and y_sign != -1:
            raise v.fail("y", "-1 or +1", repr(y_sign), "Map the labels to -1/+1 first.")
        if y_sign * score > self.margin:
            return False
        c = self.eta * y_sign
        if isinstance(x, Mapping):
            weights = self.weights
            get = weights.get
            for name, value in x.items():
                weights[name] = get(name, 0.0) + value * c
        else:
            self._w += self.vector(x) * c
        if self.fit_intercept:
            self.b += c
        self.mistakes += 1
        return True

    def replay(self, X: np.ndarray, y_signs: np.ndarray) -> np.ndarray:
        """Progressive validation of a whole stream in one compiled sweep; returns mistake indices."""
        if self.weights is not None:
            raise v.fail("X", "dict examples, as learned so far", "a matrix", "Use learn with dicts.")
        X = v.check_matrix(X, check_finite=False)  # the compiled sweep names a NaN/inf cell itself
        if self._w.shape[0] == 0 and self.seen == 0:
            self._w = np.zeros(X.shape[1])
        v.check_n_features(X.shape[1], self._w.shape[0], "this online learner")
        engine = CompiledEngine(X, y_signs, eta=self.eta, margin=self.margin, fit_intercept=self.fit_intercept,
                                w0=self._w, b0=self.b)
        engine.sweep(None, 1)
        self._w, self.b = engine.w, engine.b
        indices = engine.indices
        self.mistakes += int(indices.shape[0])
        self.seen += X.shape[0]
        return indices


def _finite(value: Any, name: Any) -> float:
    try:
        number = float(value)
    except (TypeError, ValueError) as exc:
        raise v.fail(f"x[{name!r}]", "a number", repr(value), "Fix the feature value.") from exc
    if not math.isfinite(number):
        raise v.fail(f"x[{name!r}]", "a finite number", number, "Remove or impute the missing value.")
    return number
