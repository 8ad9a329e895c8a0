r"""The averaged perceptron: the plain perceptron's iterates, averaged over every step.

The iterates are the engine's (same mistakes, same last w); what is returned is their average

.. math::

    \bar w = \frac{1}{T} \sum_{t=1}^{T} w_t, \qquad \bar b = \frac{1}{T} \sum_{t=1}^{T} b_t,

where :math:`w_t` is the weight vector *after* step t (one step = one example checked, whether or
not it was a mistake), over every step of every sweep, the final clean sweep included, so
T = sweeps · n. The average is kept lazily (Daumé 2006, "A Course in Machine Learning" §4.6; the
c·w trick): with u = Σ_k (t_k − 1)·Δw_k over the updates Δw_k made at steps t_k,
:math:`\bar w = w_T - u / T`. The sweep is the engine's own compiled sweep; u grows by one
compiled pass over the rows it updated, so a sweep costs what the plain perceptron's costs.

Freund & Schapire (1999) introduced the average as a cheap stand-in for the voted perceptron;
Collins (2002) made it the standard for structured prediction.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np

from perceptronlab._ground import validation as v
from perceptronlab.core.driver import OnSweep, finish_as
from perceptronlab.core.engines import CompiledEngine
from perceptronlab.core.run import Run
from perceptronlab.core.scores import labels, scores
from perceptronlab.family import _kernels
from perceptronlab.family._common import (
    check_predict_X,
    sweep_positions,
    warn_not_converged,
)
from perceptronlab.family.settings import RunSettings, check_run_options

if TYPE_CHECKING:
    from numpy.typing import ArrayLike, NDArray

    from perceptronlab._ground.types import Float64Array, MatrixLike, RealLike


class AveragedEngine(CompiledEngine):
    """The compiled engine plus the accumulator u and the step counter c of the lazy average.

    Each sweep is the engine's own (same code, same bits); afterwards u += Σ_k (t_k − 1)·Δw_k over
    the sweep's updates, in one compiled pass over the updated rows.
    """

    def __init__(self, X: Any, y: Any, **kwargs: Any) -> None:
        super().__init__(X, y, **kwargs)
        self.u = np.zeros(self.d)
        self.bu = 0.0
        self.c = 0.0

    def sweep(self, order: NDArray[Any] | None, sweep: int) -> int:
        count = super().sweep(order, sweep)
        if count:
            idx = self._idx_buf[:count]  # this sweep's updates, as the kernel wrote them
            steps_before = self.c + sweep_positions(order, idx, self.n).astype(np.float64)
            if self.sparse:
                X = self.X
                bu = _kernels.accumulate_csr(
                    X.indptr, X.indices, X.data, idx, steps_before, self.y, self.eta, self.u
                )
            else:
                bu = _kernels.accumulate_dense(self.X, idx, steps_before, self.y, self.eta, self.u)
            if self.fit_intercept:
                self.bu += bu
        self.c += self.n
        return count

    def state(self) -> tuple[Float64Array, float, Float64Array, float, float]:
        """What a run that goes on starts from: (w, b, u, bu, c) (:meth:`resume`)."""
        return self.w.copy(), self.b, self.u.copy(), self.bu, self.c

    def resume(self, state: tuple[Any, ...]) -> None:
        """Go on from a :meth:`state` of an earlier run (on other examples): the iterate and the
        running sums of the average, so the average is over every step of every run."""
        w, b, u, bu, c = state
        self.w[:], self.b, self.u[:], self.bu, self.c = w, float(b), u, float(bu), float(c)

    def average(self) -> tuple[Float64Array, float]:
        """(w̄, b̄) = (w − u/c, b − bu/c) over the c steps taken so far."""
        if self.c == 0:
            return self.w.copy(), self.b
        return self.w - self.u / self.c, self.b - self.bu / self.c


@dataclass(eq=False)
class AveragedRun(Run):
    """A :class:`~perceptronlab.Run` whose ``w``/``b`` are the averaged weights.

    Everything else (mistakes, sweeps, ``norms``, ``errors_after_sweep``) describes the iterates,
    exactly as the plain perceptron's run on the same data.

    Attributes
    ----------
    last_w, last_b : the last iterate (the plain perceptron's ``w``/``b`` on the same run).
    n_steps : T, the number of steps averaged over (sweeps · n).
    """

    last_w: Float64Array | None = None
    last_b: float = 0.0
    n_steps: int = 0

    def decision_function(self, X: MatrixLike) -> Float64Array:
        """⟨w̄, x⟩ + b̄ for every row of X."""
        Xc = check_predict_X(X, self.w.shape[0], "this averaged perceptron")
        return scores(Xc, self.w, self.b)

    def predict(self, X: MatrixLike) -> NDArray[Any]:
        """classes[1] where ⟨w̄, x⟩ + b̄ > 0, else classes[0]."""
        return labels(self.decision_function(X), self.classes)


@v.seeds_names
def averaged_perceptron(
    X: MatrixLike,
    y: ArrayLike,
    *,
    eta: RealLike = 1.0,
    fit_intercept: bool = False,
    order: v.FamilyOrder = "cyclic",
    margin: RealLike = 0.0,
    max_sweeps: int = 100,
    seed: int | None = None,
    warn: bool = True,
    on_sweep: OnSweep | None = None,
) -> AveragedRun:
    """Run the perceptron and return the average of its iterates over every step.

    The mistakes, sweeps, ``mistake_indices``, ``updates_per_sweep`` and ``norms`` are those of
    :func:`perceptronlab.perceptron` with the same arguments (the iterates are the same); ``w`` and
    ``b`` are the average w̄ = (1/T) Σ_{t=1}^{T} w_t over all T = sweeps·n steps (w_t: the weights
    after step t), ``last_w``/``last_b`` the last iterate.

    Parameters
    ----------
    X : array-like (n, d) or CSR matrix.
    y : any two labels; the larger (``classes[1]``) is +1.
    eta, fit_intercept, margin, seed : as in :func:`perceptronlab.perceptron`.
    order : "cyclic" or "shuffle" (a new seeded permutation each sweep).
    max_sweeps : the run ends here or at a clean sweep. No cycle test: the average keeps moving
        while the iterates cycle.
    warn : warn (NotConvergedWarning) when no clean sweep came.
    on_sweep : the per-sweep hook, as in :func:`perceptronlab.perceptron`.

    Returns
    -------
    AveragedRun

    References
    ----------
    Freund, Y. & Schapire, R. E. (1999). Large margin classification using the perceptron
    algorithm. Machine Learning 37(3). Collins, M. (2002). Discriminative training methods for
    hidden Markov models. EMNLP.

    Examples
    --------
    The lectures' exam task: 4 sweeps of 3 steps, the last iterate (1, -2), the average over 12 steps:

    >>> from perceptronlab import averaged_perceptron
    >>> run = averaged_perceptron([[1, 0], [1, 1], [0, 1]], [1, -1, -1])
    >>> run.mistakes, run.sweeps, run.n_steps, run.last_w.tolist()
    (5, 4, 12, [1.0, -2.0])
    >>> (run.w * run.n_steps).round(9).tolist()
    [8.0, -19.0]
    """
    settings = check_run_options(eta, fit_intercept, order, margin, max_sweeps, seed, on_sweep)
    Xc, signs, classes = v.check_Xy(X, y)
    engine = AveragedEngine(Xc, signs, **settings.rule)
    run = drive_averaged(engine, settings, settings.params(), classes)
    warn_not_converged(run, warn, settings.max_sweeps, "average")
    return run


def drive_averaged(
    engine: AveragedEngine, settings: RunSettings, params: dict[str, Any], classes: NDArray[Any]
) -> AveragedRun:
    """Drive an :class:`AveragedEngine` (from w = 0, or from the state a run left, for one that goes on)
    and return its :class:`AveragedRun`."""
    outcome = settings.drive(engine)
    w_avg, b_avg = engine.average()
    return finish_as(
        engine,
        outcome,
        run_class=AveragedRun,
        algorithm="averaged perceptron",
        params=params,
        X=engine.X,
        signs=engine.y,
        classes=classes,
        w=w_avg,
        b=b_avg,
        last_w=engine.w.copy(),
        last_b=engine.b,
        n_steps=int(engine.c),
    )
