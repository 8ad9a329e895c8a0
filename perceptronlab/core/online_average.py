"""The online perceptron's rounds with the average of its weights after every round so far.

w̄_T = (1/T) Σ_{t=1}^{T} w_t, kept lazily as the batch averaged perceptron keeps it
(:mod:`perceptronlab.family.averaged`): with u = Σ_k (t_k − 1)·Δw_k over the updates Δw_k made at
rounds t_k, w̄_T = w_T − u/T, so a round costs what the plain round costs.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, cast

import numpy as np

from perceptronlab.core.online import OnlineState
from perceptronlab.core.scores import dict_score

__all__ = ["AveragedOnlineState"]


class AveragedOnlineState(OnlineState):
    """An :class:`~perceptronlab.core.online.OnlineState` that also keeps the running average.

    Examples
    --------
    >>> state = AveragedOnlineState()
    >>> for x, y in [({"a": 1.0}, 1), ({"b": 1.0}, -1), ({"a": 1.0}, 1), ({"b": 1.0}, -1)]:
    ...     _ = state.learn(x, y)
    >>> state.average_weights(), state.rounds
    ({'a': 1.0, 'b': -0.75}, 4)
    """

    def __init__(self, **kwargs: Any):
        super().__init__(**kwargs)
        self.rounds = 0
        self._u: dict[Any, float] = {}
        self._u_vector = np.zeros(0)
        self._bu = 0.0

    def learn(self, x: Any, y_sign: int) -> bool:
        steps_before = self.rounds
        mistake = super().learn(x, y_sign)
        self.rounds += 1
        if mistake:
            gc = (self.eta * y_sign) * steps_before  # the update's step times the rounds before it
            if isinstance(x, Mapping):
                u = self._u
                for name, value in x.items():
                    u[name] = u.get(name, 0.0) + value * gc
            else:
                vec = np.asarray(x, dtype=np.float64).ravel()
                if self._u_vector.shape[0] != vec.shape[0]:
                    self._u_vector = np.zeros(vec.shape[0])
                self._u_vector += vec * gc
            if self.fit_intercept:
                self._bu += gc
        return mistake

    def average_weights(self) -> dict[Any, float] | np.ndarray:
        """w̄: a dict by feature name for dict rounds, else a vector (the last w before any round)."""
        T = self.rounds
        if self.weights is not None:
            u = self._u
            return {
                name: (w if T == 0 else w - u.get(name, 0.0) / T)
                for name, w in self.weights.items()
            }
        return self.w.copy() if T == 0 else self.w - self._u_vector / T

    def average_intercept(self) -> float:
        """b̄ = b − bu/T."""
        return float(self.b) if self.rounds == 0 else float(self.b - self._bu / self.rounds)

    def average_score(self, x: Mapping) -> float:
        """⟨w̄, x⟩ + b̄ for a dict x (a feature never updated on counts 0)."""
        weights = (
            cast("dict[Any, float]", self.average_weights()) if self.weights is not None else {}
        )  # none yet: w̄ = 0
        return dict_score(weights, x, self.average_intercept())
