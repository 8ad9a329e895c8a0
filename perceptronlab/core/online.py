"""The online protocol (“Perceptron Algorithm for Halfspaces”): predict from w and x first, then
learn from the revealed label.

On round t the learner sees x_t, predicts sign(⟨w,x_t⟩ + b) (a tie predicts −1), and only then
receives y_t; y_t(⟨w,x_t⟩ + b) ≤ ρ₀ is a mistake (ties included) and triggers w ← w + η·y_t·x_t.

A mini-batch (:meth:`OnlineState.learn_many`) runs the same rounds in one compiled loop, with the
same bits as learning its rows one at a time: vectors sum ⟨w,x⟩ in feature order and add b last
(the compiled sweep's order), and so do dicts, in the dict's order (a pandas row's column order:
:func:`~perceptronlab.core.scores.dict_score`, River's order).
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any, cast

import numpy as np

from perceptronlab._ground import validation as v
from perceptronlab.core import choice, kernels
from perceptronlab.core.scores import dict_score, score_one

_NAN = float("nan")


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
        # the last DataFrame columns learned and their names (the Index is immutable)
        self._columns: tuple[Any, list[Any]] | None = None

    @property
    def feature_names(self) -> dict[Any, int] | None:
        return None if self.weights is None else {name: k for k, name in enumerate(self.weights)}

    @property
    def w(self) -> np.ndarray:
        return (
            self._w
            if self.weights is None
            else np.fromiter(self.weights.values(), float, len(self.weights))
        )

    @w.setter
    def w(self, value: np.ndarray) -> None:
        self._w = value

    # ------------------------------------------------------------ dicts
    def _start_dict(self, name: str, kind: str, got: str, fix: str) -> dict[Any, float]:
        """The dict of weights; on the first named input (a dict, a DataFrame) a new one, unless
        the learner has seen vectors of ``kind`` before (one input kind per learner)."""
        if self.weights is None:
            if self._w.shape[0] or self.seen:
                raise v.fail(name, f"{kind}, as in earlier rounds", got, fix)
            self.weights = {}
        return self.weights

    def _dict_score(self, x: Mapping) -> float:
        weights = self._start_dict("x", "a vector", "a dict", "Use one input kind per learner.")
        try:
            score = dict_score(weights, x, self.b)
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
            raise v.fail(
                "x",
                "a dict, as in earlier rounds",
                type(x).__name__,
                "Use one input kind per learner.",
            )
        vec = np.asarray(x, dtype=np.float64).ravel()
        if not np.isfinite(vec).all():
            raise v.fail("x", "finite values", "NaN or inf", "Remove or impute the missing values.")
        if self._w.shape[0] == 0 and self.seen == 0:
            self._w = np.zeros(vec.shape[0])
        if vec.shape[0] != self._w.shape[0]:
            raise v.fail(
                "x",
                f"{self._w.shape[0]} features, as in earlier rounds",
                f"{vec.shape[0]}",
                "Pass every example with the same features.",
            )
        return vec

    # ------------------------------------------------------------ protocol
    def score(self, x: Any) -> float:
        """⟨w, x⟩ + b with the current weights (no label involved)."""
        if isinstance(x, Mapping):
            return self._dict_score(x)
        vec = self.vector(x)
        return score_one(vec, self._w, self.b)  # the sweeps' order, as replay

    def predict_sign(self, x: Any) -> int:
        return 1 if self.score(x) > 0 else -1

    def learn(self, x: Any, y_sign: int) -> bool:
        """Predict first (from w and x alone), then use y_sign; returns whether it was a mistake."""
        weights: Any = self.weights  # used as the dict of weights only when ``known``
        known = type(x) is dict and weights is not None  # the hot path of a stream of dicts
        if known:  # the hot path: the score without _dict_score's checks of the input's kind
            try:
                score = dict_score(weights, x, self.b)
            except TypeError:
                score = _NAN
            if score - score != 0.0:  # NaN or inf (or not a number): name the bad value
                score = self._dict_score(x)
        else:
            score = self.score(x)  # the prediction's score, computed before y is read
        self.seen += 1
        if y_sign != 1 and y_sign != -1:
            raise v.fail("y", "-1 or +1", repr(y_sign), "Map the labels to -1/+1 first.")
        if y_sign * score > self.margin:
            return False
        c = self.eta * y_sign
        if known:
            try:
                for name, value in x.items():
                    weights[name] += value * c
            except KeyError:  # a new name (those before it are updated, and stay so)
                self._add_from(x, c, name)
        elif isinstance(x, Mapping):
            self._add_from(x, c, None)
        else:
            self._w += self.vector(x) * c
        if self.fit_intercept:
            self.b += c
        self.mistakes += 1
        return True

    def _add_from(self, x: Mapping, c: float, first: Any) -> None:
        """weights[name] += value·c for the names of x from ``first`` on (from the start if None)."""
        weights = cast("dict[Any, float]", self.weights)  # x is a dict: so are the weights
        get = weights.get
        started = first is None
        for name, value in x.items():
            started = started or name == first
            if started:
                weights[name] = get(name, 0.0) + value * c

    def learn_many(self, X: Any, y_signs: Any) -> np.ndarray:
        """Learn a mini-batch row by row in one compiled loop; returns which rows were mistakes.

        Every row is predicted from the weights left by the rows before it, then learned, exactly
        as :meth:`learn` on each row in turn (the same bits). ``X`` is a 2-D array or CSR matrix
        (vector rounds), or a pandas DataFrame, whose rows are dict rounds keyed by column name.

        Examples
        --------
        >>> import numpy as np
        >>> state = OnlineState()
        >>> state.learn_many(np.array([[1.0, 0.0], [0.0, 1.0], [2.0, 1.0]]), [1, -1, 1]).tolist()
        [True, True, False]
        >>> state.w.tolist(), state.mistakes
        ([1.0, -1.0], 2)
        """
        if _is_data_frame(X):
            return self._learn_frame(X, y_signs)
        if self.weights is not None:
            raise v.fail(
                "X",
                "dict examples (or a pandas DataFrame), as learned so far",
                "a matrix",
                "Use learn with dicts, or learn_many with a DataFrame.",
            )
        X = v.check_matrix(X, check_finite=False)  # the compiled sweep names a NaN/inf cell itself
        signs = _check_signs(y_signs, X.shape[0])
        if self._w.shape[0] == 0 and self.seen == 0:
            self._w = np.zeros(X.shape[1])
        v.check_n_features(X.shape[1], self._w.shape[0], "this online learner")
        idx, norms = np.empty(X.shape[0], dtype=np.int64), np.empty(X.shape[0])
        no_order = np.empty(0, dtype=np.int64)
        rule = (self._w, self.b, self.eta, self.margin, self.fit_intercept, idx, norms)
        if v.is_sparse(X):
            loop = choice.csr_loop(X.indptr, X.indices, X.shape[1])
            count, b, stopped = kernels.sweep_csr(
                X.indptr, X.indices, X.data, signs, no_order, False, rule, loop
            )
        else:
            count, b, stopped = kernels.sweep_dense(X, signs, no_order, False, *rule)
        return self._finish_batch(X, count, b, stopped, idx)

    def _learn_frame(self, frame: Any, y_signs: Any) -> np.ndarray:
        fix = "Use one input kind per learner (pass frame.to_numpy())."
        weights = self._start_dict("X", "a matrix", "a pandas DataFrame", fix)
        names = _column_names(frame, self._columns)
        self._columns = (frame.columns, names)
        try:
            X = np.ascontiguousarray(frame.to_numpy(dtype=np.float64))
        except (TypeError, ValueError) as exc:
            raise v.fail(
                "X",
                "numeric columns",
                f"a cell that is not a number ({exc})",
                "Fix or drop non-numeric columns (e.g. with pandas.to_numeric).",
            ) from exc
        signs = _check_signs(y_signs, X.shape[0])
        w = np.array([weights.get(name, 0.0) for name in names], dtype=np.float64)
        idx, norms = np.empty(X.shape[0], dtype=np.int64), np.empty(X.shape[0])
        no_order = np.empty(0, dtype=np.int64)
        rule = (w, self.b, self.eta, self.margin, self.fit_intercept, idx, norms)
        count, b, stopped = kernels.sweep_dense(
            X, signs, no_order, False, *rule
        )  # dict_score's sums
        if count:  # a mistake writes every feature of its row, in the row's order (as learn does)
            for name, value in zip(names, w.tolist(), strict=True):
                weights[name] = value
        self._count_batch(X.shape[0], int(count), float(b), int(stopped))
        if stopped >= 0:  # names the bad value (or the overflow), as learn would on that row
            self._dict_score(dict(zip(names, X[stopped].tolist(), strict=True)))
        mistakes = np.zeros(X.shape[0], dtype=np.bool_)
        mistakes[idx[:count]] = True
        return mistakes

    def _count_batch(self, n: int, count: int, b: float, stopped: int) -> None:
        """The counters after a compiled batch that learned its rows up to ``stopped`` (or all)."""
        self.b = b
        self.mistakes += count
        self.seen += stopped if stopped >= 0 else n

    def _finish_batch(self, X, count: int, b: float, stopped: int, idx: np.ndarray) -> np.ndarray:
        self._count_batch(X.shape[0], int(count), float(b), int(stopped))
        if stopped >= 0:
            raise v.not_finite_error(X, int(stopped), None)
        mistakes = np.zeros(X.shape[0], dtype=np.bool_)
        mistakes[idx[:count]] = True
        return mistakes

    def replay(self, X: np.ndarray, y_signs: np.ndarray) -> np.ndarray:
        """Progressive validation of a whole stream in one compiled sweep; returns mistake indices."""
        if self.weights is not None:
            raise v.fail(
                "X", "dict examples, as learned so far", "a matrix", "Use learn with dicts."
            )
        return np.flatnonzero(self.learn_many(X, y_signs))


def _is_data_frame(X: Any) -> bool:
    """A pandas DataFrame (or one like it), told without importing pandas."""
    return hasattr(X, "columns") and hasattr(X, "to_numpy") and getattr(X, "ndim", 0) == 2


def _column_names(frame: Any, known: tuple[Any, list[Any]] | None) -> list[Any]:
    """A DataFrame's column names, the feature names, checked to be distinct; ``known`` is the
    last (Index, names) listed, reused when the frame's columns are that Index or equal to it (of
    its dtype): the batches of a stream share their columns, and listing them, a Python object per
    name, cost more than a batch's compiled loop."""
    columns = frame.columns
    if known is not None and (
        known[0] is columns or (known[0].dtype == columns.dtype and known[0].equals(columns))
    ):
        return known[1]
    names = columns.tolist()
    if len(set(names)) != len(names):
        raise v.fail(
            "X",
            "distinct column names (they are the feature names)",
            f"columns {names}",
            "Rename or drop the repeated columns.",
        )
    return names


def _check_signs(y_signs: Any, n: int) -> np.ndarray:
    try:
        signs = np.ascontiguousarray(np.asarray(y_signs, dtype=np.float64).ravel())
    except (TypeError, ValueError):
        raise v.fail(
            "y", "-1 or +1 for every row", repr(y_signs)[:80], "Map the labels to -1/+1 first."
        ) from None
    if signs.shape[0] != n:
        raise v.label_count_error(n, signs.shape[0], "y")
    if not (np.abs(signs) == 1).all():  # -1 or +1 (NaN is neither)
        bad = signs[(signs != 1) & (signs != -1)][0]
        raise v.fail("y", "-1 or +1", repr(float(bad)), "Map the labels to -1/+1 first.")
    return signs


def _finite(value: Any, name: Any) -> float:
    try:
        number = float(value)
    except (TypeError, ValueError) as exc:
        raise v.fail(f"x[{name!r}]", "a number", repr(value), "Fix the feature value.") from exc
    if not math.isfinite(number):
        raise v.fail(
            f"x[{name!r}]", "a finite number", number, "Remove or impute the missing value."
        )
    return number
