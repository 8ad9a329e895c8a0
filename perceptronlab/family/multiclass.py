r"""The multiclass perceptron (Crammer & Singer 2003; Collins 2002): one weight vector per class.

Scores s_k = ⟨w_k, x⟩ + b_k; the prediction is argmax_k s_k, ties going to the lowest class index
(the first of ``classes``, as ``numpy.argmax``). Training follows the engine's rule with ties
counted as mistakes: with r = argmax_{k ≠ y} s_k (the best rival, ties to the lowest index), an
example is a mistake when

.. math::

    s_y - s_r \le \rho_0 \quad (\rho_0 = \text{margin}, 0 \text{ by default}),

i.e. when the true class does not win outright; then w_y ← w_y + η x and w_r ← w_r − η x (and
b_y += η, b_r −= η with ``fit_intercept``). From W = 0 the first example is therefore always a
mistake, as in the binary engine. With two classes the run is the binary perceptron's: the same
mistakes, and w_{classes[1]} = −w_{classes[0]} is the engine's w.

``averaged=True`` returns the average of W over every step (the c·w trick of
:mod:`perceptronlab.family.averaged`, row by row).

Multiclass training on data that are separable by some W (each class scoring highest on its own
examples, with margin γ) converges after at most 2R²/γ² mistakes (Crammer & Singer 2003).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np
import scipy.sparse as sp

from perceptronlab._ground import validation as v
from perceptronlab.core.driver import Engine, OnSweep, UpdateLog, finish_as
from perceptronlab.core.run import Run
from perceptronlab.core.scores import labels, score_matrix
from perceptronlab.exceptions import SCALE_FIX
from perceptronlab.family import _kernels
from perceptronlab.family._common import (
    check_predict_X,
    warn_not_converged,
)
from perceptronlab.family.settings import RunSettings, check_run_options

if TYPE_CHECKING:
    from numpy.typing import ArrayLike, NDArray

    from perceptronlab._ground.types import Float64Array, Int64Array, MatrixLike, RealLike

_NO_ORDER = np.empty(0, dtype=np.int64)


def encode_labels(y: ArrayLike, n_rows: int) -> tuple[Int64Array, NDArray[Any]]:
    """(class index of each label, classes sorted); at least two classes."""
    _, classes = v.check_labels(y, n_rows, binary=False)
    if len(classes) < 2:
        raise v.fail(
            "y (the labels)",
            "at least two classes",
            f"1 class ({classes[0]})",
            "Training needs examples of at least two classes.",
        )
    y_arr = np.asarray(y)
    if y_arr.ndim == 2:
        y_arr = y_arr.ravel()
    if classes.dtype.kind == "O":
        lookup = {c: k for k, c in enumerate(classes.tolist())}
        codes = np.array([lookup[c] for c in y_arr.tolist()], dtype=np.int64)
    else:
        codes = np.searchsorted(classes, y_arr).astype(np.int64)
    return codes, classes


def multiclass_scores(X: Any, W: Float64Array, B: Float64Array) -> Float64Array:
    """s[i, k] = ⟨w_k, x_i⟩ + b_k, summed in feature order as the multiclass sweep sums them."""
    return score_matrix(X, W, B)


def multiclass_errors(X: Any, codes: Int64Array, W: Float64Array, B: Float64Array) -> int:
    """Examples whose true class does not win outright (s_y − max_{k≠y} s_k ≤ 0)."""
    S = multiclass_scores(X, W, B)
    rows = np.arange(S.shape[0])
    true = S[rows, codes].copy()
    S[rows, codes] = -np.inf
    return int(np.count_nonzero(true - S.max(axis=1) <= 0))


class MulticlassEngine(UpdateLog, Engine):
    """Collins' update in compiled sweeps as an :class:`~perceptronlab.core.driver.Engine`: its own
    sweep (the argmax mistake test and update, in :mod:`perceptronlab.family._kernels`), the
    driver's control flow; W, B and the accumulators of the average."""

    exact = False
    overflowing = "weights"
    overflow_fix = SCALE_FIX

    def __init__(
        self, X: Any, codes: Any, n_classes: int, *, eta: Any, margin: Any, fit_intercept: bool
    ) -> None:
        self.X, self.y = X, np.ascontiguousarray(codes, dtype=np.int64)
        self.sparse = sp.issparse(X)
        self.n, self.d = X.shape
        self.eta, self.margin, self.fit_intercept = float(eta), float(margin), bool(fit_intercept)
        self.W = np.zeros((n_classes, self.d))
        self.B = np.zeros(n_classes)
        self.U = np.zeros((n_classes, self.d))
        self.BU = np.zeros(n_classes)
        self.c = 0.0
        self.sq = 0.0
        self._scores = np.empty(n_classes)
        self.start_log(self.n)
        self.steps = None

    def sweep(self, order: NDArray[Any] | None, sweep: int) -> int:
        use_order = order is not None
        order = _NO_ORDER if order is None else np.ascontiguousarray(order, dtype=np.int64)
        common = (
            (self.W, self.B, self.U, self.BU),
            (self.eta, self.margin, self.fit_intercept),
            (self.c, self.sq),
            (self._scores, self._idx_buf, self._norm_buf),
        )
        if self.sparse:
            X = self.X
            count, self.c, self.sq = _kernels.multiclass_sweep_csr(
                X.indptr, X.indices, X.data, self.y, order, use_order, *common
            )
        else:
            count, self.c, self.sq = _kernels.multiclass_sweep_dense(
                self.X, self.y, order, use_order, *common
            )
        self.log_sweep(count)
        return int(count)

    def snapshot(self) -> tuple[Float64Array, Float64Array]:
        return self.W.copy(), self.B.copy()

    def checkpoint(self) -> tuple[Float64Array, Float64Array]:
        return self.snapshot()

    def errors(self, state: tuple[Any, Any] | None = None) -> int:
        """Examples whose class does not win outright under (W, B) of ``state`` (or now)."""
        W, B = self.snapshot() if state is None else state
        return multiclass_errors(self.X, self.y, W, B)

    def average(self) -> tuple[Float64Array, Float64Array]:
        if self.c == 0:
            return self.W.copy(), self.B.copy()
        return self.W - self.U / self.c, self.B - self.BU / self.c

    def state(self) -> tuple[Float64Array, Float64Array, Float64Array, Float64Array, float]:
        """What a run that goes on starts from: (W, B, U, BU, c) (:meth:`resume`)."""
        return self.W.copy(), self.B.copy(), self.U.copy(), self.BU.copy(), self.c

    def resume(self, state: tuple[Any, ...]) -> None:
        """Go on from a :meth:`state` of an earlier run (on other examples of the same classes)."""
        W, B, U, BU, c = state
        self.W[:], self.B[:], self.U[:], self.BU[:], self.c = W, B, U, BU, float(c)
        self.sq = float(np.sum(self.W * self.W)) + (
            float(np.sum(self.B * self.B)) if self.fit_intercept else 0.0
        )

    def finite(self) -> bool:
        return bool(np.isfinite(self.W).all() and np.isfinite(self.B).all())


@dataclass(eq=False)
class MulticlassRun(Run):
    """A :class:`~perceptronlab.Run` of the multiclass perceptron.

    ``w`` is the (K, d) weight matrix (one row per class, in the order of ``classes``) and ``b``
    the (K,) intercepts: the average over every step when ``averaged``, else the last iterate.
    ``errors_after_sweep`` counts examples whose class does not win outright.

    Attributes
    ----------
    last_w, last_b : the last iterate. averaged : which one ``w`` is. n_steps : T = sweeps · n.
    """

    last_w: Float64Array | None = None
    last_b: Float64Array | None = None
    averaged: bool = False
    n_steps: int = 0

    @property
    def coef(self) -> Float64Array:
        """(K, d + 1) with the intercepts first when ``fit_intercept``, else (K, d)."""
        if self.fit_intercept:
            return np.column_stack([self.b, self.w])
        return self.w

    @property
    def errors_after_sweep(self) -> Int64Array:
        if len(self.errors_after_sweep_known) < self.sweeps and self.data is not None:
            X, codes = self.data
            for sweep, (W, B) in self.checkpoints.items():
                self.errors_after_sweep_known.setdefault(sweep, multiclass_errors(X, codes, W, B))
            self.checkpoints.clear()
        known = self.errors_after_sweep_known
        return np.array([known[s] for s in sorted(known)], dtype=np.int64)

    def summary(self, *, state: str | None = None, short: bool = False) -> str:
        kind = "averaged " if self.averaged else ""
        return (
            f"{kind}multiclass perceptron: {len(self.classes)} classes, {self.mistakes} "
            f"mistakes in {self.sweeps} sweeps, {state or self.ending()}"
        )

    def decision_function(self, X: MatrixLike) -> Float64Array:
        """(n, K) scores ⟨w_k, x⟩ + b_k."""
        Xc = check_predict_X(X, self.w.shape[1], "this multiclass perceptron")
        return multiclass_scores(Xc, self.w, self.b)

    def predict(self, X: MatrixLike) -> NDArray[Any]:
        """The class of the highest score; ties go to the first of ``classes``."""
        return labels(self.decision_function(X), self.classes)


@v.seeds_names
def multiclass_perceptron(
    X: MatrixLike,
    y: ArrayLike,
    *,
    averaged: bool = False,
    eta: RealLike = 1.0,
    fit_intercept: bool = False,
    order: v.FamilyOrder = "cyclic",
    margin: RealLike = 0.0,
    max_sweeps: int = 100,
    seed: int | None = None,
    warn: bool = True,
    on_sweep: OnSweep | None = None,
) -> MulticlassRun:
    """Train one weight vector per class with Collins' update until a clean sweep.

    Parameters
    ----------
    X : array-like (n, d) or CSR matrix.
    y : labels of two or more classes (any sortable type).
    averaged : return W averaged over every step instead of the last W.
    eta, fit_intercept, seed : as in :func:`perceptronlab.perceptron`.
    order : "cyclic" or "shuffle".
    margin : ρ₀ ≥ 0; a mistake while s_y − max_{k≠y} s_k ≤ ρ₀.
    max_sweeps : the run ends here or at a clean sweep.
    warn : warn (NotConvergedWarning) when no clean sweep came.
    on_sweep : the per-sweep hook, as in :func:`perceptronlab.perceptron`.

    Returns
    -------
    MulticlassRun

    References
    ----------
    Collins, M. (2002). Discriminative training methods for hidden Markov models: theory and
    experiments with perceptron algorithms. EMNLP. Crammer, K. & Singer, Y. (2003).
    Ultraconservative online algorithms for multiclass problems. JMLR 3.

    Examples
    --------
    Three classes on the axes of the plane:

    >>> from perceptronlab import multiclass_perceptron
    >>> X = [[2, 0], [0, 2], [-2, -2], [3, 1], [1, 3], [-1, -3]]
    >>> run = multiclass_perceptron(X, ["a", "b", "c", "a", "b", "c"])
    >>> run.converged, int(run.errors_after_sweep[-1]), run.predict([[5, 0], [0, 5]]).tolist()
    (True, 0, ['a', 'b'])
    """
    settings = check_run_options(eta, fit_intercept, order, margin, max_sweeps, seed, on_sweep)
    Xc = v.check_matrix(X)
    codes, classes = encode_labels(y, Xc.shape[0])
    engine = MulticlassEngine(Xc, codes, len(classes), **settings.rule)
    params = settings.params(averaged=bool(averaged))
    run = drive_multiclass(engine, settings, params, classes, averaged=averaged)
    warn_not_converged(run, warn, settings.max_sweeps, "multiclass perceptron")
    return run


def drive_multiclass(
    engine: MulticlassEngine,
    settings: RunSettings,
    params: dict[str, Any],
    classes: NDArray[Any],
    *,
    averaged: bool,
) -> MulticlassRun:
    """Drive a :class:`MulticlassEngine` (from W = 0, or from the state a run left, for one that goes on)
    and return its :class:`MulticlassRun`."""
    outcome = settings.drive(engine)
    W, B = engine.average() if averaged else engine.snapshot()
    return finish_as(
        engine,
        outcome,
        run_class=MulticlassRun,
        algorithm="multiclass perceptron",
        params=params,
        X=engine.X,
        signs=engine.y,
        classes=classes,
        w=W,
        b=B,
        last_w=engine.W.copy(),
        last_b=engine.B.copy(),
        averaged=bool(averaged),
        n_steps=int(engine.c),
    )
