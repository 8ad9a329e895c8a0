"""The engine of scikit-learn's SGD semantics with its penalties and its float32 weights.

:class:`SGDEngine` runs the sweeps of :mod:`perceptronlab.core.sgd` (``sweep_dense_sgd``,
``sweep_csr_sgd``): scikit-learn's ``_plain_sgd`` with a penalty (l2, l1, elasticnet) and/or in
float32. Without a penalty, in float64, :class:`~perceptronlab.core.engines.CompiledEngine` with a ``scale`` is the
same rule (and the faster); the estimators pick this one only when they need it.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from perceptronlab._ground.validation import not_finite_error
from perceptronlab.core import sgd
from perceptronlab.core.engines import CompiledEngine, weights_key
from perceptronlab.core.scores import count_errors, margins

__all__ = ["SGDEngine", "PENALTIES"]

#: the penalties by name, as scikit-learn's estimators take them, and their codes in the sweeps
PENALTIES = {None: sgd.NO_PENALTY, "l1": sgd.L1, "l2": sgd.L2, "elasticnet": sgd.ELASTICNET}
_NO_ORDER = np.empty(0, dtype=np.int64)


class SGDEngine(CompiledEngine):
    """:class:`~perceptronlab.core.engines.CompiledEngine` (per-row factors) with scikit-learn's
    penalties and dtypes.

    Parameters
    ----------
    penalty : None, "l2", "l1" or "elasticnet"
    alpha : float >= 0, the penalty's strength.
    l1_ratio : float in [0, 1], elasticnet's share of l1 (l2 is 0, l1 is 1).
    single : bool, keep the weights in float32 (scikit-learn's float32 path, for float32 X).

    The weights are kept as scikit-learn keeps them: a vector ``w`` times a scale; :meth:`snapshot`
    gives their product (what scikit-learn returns). ``w`` itself is what scikit-learn's validation
    score of ``early_stopping`` is computed with during a fit (its callback is handed the vector,
    not the product), so :class:`~perceptronlab.estimators._fitting.StoppingRule` reading ``w``
    scores as scikit-learn does. :attr:`sweep_loss` is scikit-learn's objective of the sweep (the
    hinge loss plus the penalty's term at every row).
    """

    def __init__(
        self,
        X: Any,
        y: Any,
        *,
        penalty: str | None = None,
        alpha: float = 0.0,
        l1_ratio: float = 0.15,
        single: bool = False,
        **kwargs: Any,
    ) -> None:
        super().__init__(X, y, track_loss=True, **kwargs)
        self.penalty = PENALTIES[penalty]
        self.alpha = float(alpha)
        self.l1_ratio = {sgd.L2: 0.0, sgd.L1: 1.0}.get(self.penalty, float(l1_ratio))
        dtype = np.float32 if single else np.float64
        self.w = np.ascontiguousarray(self.w, dtype=dtype)
        self.q = np.zeros(self.d, dtype=dtype)
        self.state = np.zeros(4)
        self.state[sgd.STATE_SCALE] = 1.0
        self.state[sgd.STATE_SQ_NORM] = float(np.dot(self.w.astype(np.float64), self.w))
        self.state[sgd.STATE_L1_NORM] = float(np.abs(self.w.astype(np.float64)).sum())

    def sweep(self, order, sweep: int) -> int:
        use_order = order is not None
        order = _NO_ORDER if order is None else np.ascontiguousarray(order, dtype=np.int64)
        model = (self.w, self.q, self.state)
        rule = (self.eta, self.margin, self.fit_intercept)
        pen = (self.penalty, self.alpha, self.l1_ratio, self.w.dtype == np.float32)
        log = (self._idx_buf, self._norm_buf, self._margin_buf)
        sweep_sgd = sgd.sweep_csr_sgd if self.sparse else sgd.sweep_dense_sgd
        count, self.b, stopped, loss = sweep_sgd(
            *self._rows(), self.y, self._factors, order, use_order, model, self.b, rule, pen, log
        )
        if stopped >= 0:
            raise not_finite_error(self.X, int(stopped), sweep)
        self.sweep_loss = float(loss)
        self.update_margins = self._margin_buf[:count].copy()
        self._last_updates = int(count)
        self.log_sweep(count)
        return int(count)

    def snapshot(self):
        """(w·scale, b): the weights as scikit-learn returns them (its ``reset_wscale``)."""
        multiplier = self.w.dtype.type(self.state[sgd.STATE_SCALE])
        return self.w * multiplier, self.b

    def key(self) -> tuple[int, int]:
        return weights_key(*self.snapshot())

    def margins(self) -> np.ndarray:
        w, b = self.snapshot()
        values = margins(self.X, self.y, w.astype(np.float64), b)
        if self.scale is not None:  # always, here: the engine keeps the loss
            values[self.eta * self.y * self.scale == 0.0] = np.inf
        return values

    def errors(self, state=None) -> int:
        w, b = self.snapshot() if state is None else state
        return count_errors(self.X, self.y, np.asarray(w, dtype=np.float64), b)

    def restore(self, w, b) -> None:
        self.w[:] = w
        self.state[sgd.STATE_SCALE] = 1.0
        self.b = float(b)

    def update(self, i: int, sweep: int, score: float) -> None:
        raise NotImplementedError(
            "SGDEngine sweeps whole epochs (scikit-learn's SGD has no random-mistake order)"
        )
