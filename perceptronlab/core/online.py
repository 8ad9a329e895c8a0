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


class OnlineState:
    """Weights and counts of an online perceptron; inputs are vectors or River-style dicts.

    Dict inputs map feature names to columns in order of first appearance; unseen features of a
    dict count as 0 and grow w when they first carry a value.

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
        self.w = np.zeros(0)
        self.b = 0.0
        self.mistakes = 0
        self.seen = 0
        self.feature_names: dict[Any, int] | None = None

    # ------------------------------------------------------------ inputs
    def vector(self, x: Any, *, grow: bool) -> np.ndarray:
        if isinstance(x, Mapping):
            if self.feature_names is None:
                if self.w.shape[0]:
                    raise v.fail("x", "a vector, as in earlier rounds", "a dict", "Use one input kind per learner.")
                self.feature_names = {}
            if grow:
                for name in x:
                    if name not in self.feature_names:
                        self.feature_names[name] = len(self.feature_names)
                if len(self.feature_names) > self.w.shape[0]:
                    self.w = np.concatenate([self.w, np.zeros(len(self.feature_names) - self.w.shape[0])])
            vec = np.zeros(self.w.shape[0])
            for name, value in x.items():
                col = self.feature_names.get(name)
                if col is not None and col < vec.shape[0]:
                    vec[col] = _finite(value, name)
            return vec
        if self.feature_names is not None:
            raise v.fail("x", "a dict, as in earlier rounds", type(x).__name__, "Use one input kind per learner.")
        vec = np.asarray(x, dtype=np.float64).ravel()
        if not np.isfinite(vec).all():
            raise v.fail("x", "finite values", "NaN or inf", "Remove or impute the missing values.")
        if self.w.shape[0] == 0 and self.seen == 0:
            self.w = np.zeros(vec.shape[0])
        if vec.shape[0] != self.w.shape[0]:
            raise v.fail("x", f"{self.w.shape[0]} features, as in earlier rounds", f"{vec.shape[0]}",
                         "Pass every example with the same features.")
        return vec

    # ------------------------------------------------------------ protocol
    def score(self, x: Any) -> float:
        """⟨w, x⟩ + b with the current weights (no label involved)."""
        vec = self.vector(x, grow=False)
        return float(vec @ self.w[: vec.shape[0]]) + self.b

    def predict_sign(self, x: Any) -> int:
        return 1 if self.score(x) > 0 else -1

    def learn(self, x: Any, y_sign: int) -> bool:
        """Predict first (from w and x alone), then use y_sign; returns whether it was a mistake."""
        vec = self.vector(x, grow=True)
        score = float(vec @ self.w) + self.b  # the prediction's score, computed before y is read
        self.seen += 1
        if y_sign not in (-1, 1):
            raise v.fail("y", "-1 or +1", repr(y_sign), "Map the labels to -1/+1 first.")
        if y_sign * score > self.margin:
            return False
        c = self.eta * y_sign
        self.w += c * vec
        if self.fit_intercept:
            self.b += c
        self.mistakes += 1
        return True

    def replay(self, X: np.ndarray, y_signs: np.ndarray) -> np.ndarray:
        """Progressive validation of a whole stream in one compiled sweep; returns mistake indices."""
        X = v.check_matrix(X)
        if self.w.shape[0] == 0 and self.seen == 0:
            self.w = np.zeros(X.shape[1])
        v.check_n_features(X.shape[1], self.w.shape[0], "this online learner")
        engine = CompiledEngine(X, y_signs, eta=self.eta, margin=self.margin, fit_intercept=self.fit_intercept,
                                w0=self.w, b0=self.b)
        engine.sweep(None, 1)
        self.w, self.b = engine.w, engine.b
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
