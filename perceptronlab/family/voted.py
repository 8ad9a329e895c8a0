r"""The voted perceptron (Freund & Schapire 1999): every iterate votes, weighted by its survival.

The run is the plain perceptron's (same mistakes, same last w). The k-th update (made at step t_k)
creates the vector w_k, which stays current until the next update; its survival count
c_k = t_{k+1} − t_k is the number of steps for which w_k was the weights after the step (the last
one counts to the end of the run: c_K = T − t_K + 1). The initial w₀ = 0 never survives a step
(from w = 0 the first check is a tie, and ties are mistakes), so the counts sum to T = sweeps · n.
The prediction is the weighted vote

.. math::

    \hat y(x) = \operatorname{sign} \sum_k c_k \operatorname{sign}(\langle w_k, x\rangle + b_k),

with sign(0) = 0 inside the vote (a vector on its boundary abstains) and classes[0] when the
total is ≤ 0 (the same tie rule as every predictor here). Σ_k c_k w_k / T is the averaged
perceptron's w̄.

Memory: only the mistake indices and their steps are kept while training; the vectors are built
at the end by replaying the updates (the engine's ``replay``). ``max_vectors`` caps how many are
built: the ``max_vectors`` vectors with the largest survival counts are kept (ties: the later
vector), the others leave the vote; ``dropped_vectors`` and ``dropped_votes`` say how many vectors
and how much vote weight went.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np

from perceptronlab import _validation as v
from perceptronlab.core.driver import OnSweep, drive, finish
from perceptronlab.core.engines import CompiledEngine
from perceptronlab.core.run import Run
from perceptronlab.core.scores import labels
from perceptronlab.family._common import (
    check_params,
    check_predict_X,
    sweep_positions,
    warn_not_converged,
)

if TYPE_CHECKING:
    from numpy.typing import ArrayLike, NDArray

    from perceptronlab._typing import Float64Array, Int64Array, MatrixLike, RealLike


class VotedEngine(CompiledEngine):
    """The compiled engine, also recording the step number (1-based, over all sweeps) of each update."""

    def __init__(self, X: Any, y: Any, **kwargs: Any) -> None:
        super().__init__(X, y, **kwargs)
        self._step_chunks: list[NDArray[Any]] = []

    def sweep(self, order: NDArray[Any] | None, sweep: int) -> int:
        chunks_before = len(self._index_chunks)
        count = super().sweep(order, sweep)
        if len(self._index_chunks) > chunks_before:
            idx = self._index_chunks[-1]
            position = sweep_positions(order, idx, self.n)
            self._step_chunks.append((sweep - 1) * self.n + position + 1)
        return count

    @property
    def mistake_steps(self) -> Int64Array:
        return np.concatenate(self._step_chunks) if self._step_chunks else np.empty(0, dtype=np.int64)


@dataclass(eq=False)
class VotedRun(Run):
    """A :class:`~perceptronlab.Run` with the vote: ``w``/``b`` are the last iterate.

    Attributes
    ----------
    vectors : (K, d) the voting weight vectors w_k, in the order they were made.
    intercepts : (K,) their intercepts b_k (zeros without ``fit_intercept``).
    counts : (K,) their survival counts c_k.
    mistake_steps : the step (1-based, over all sweeps) of every update.
    n_steps : T = sweeps · n.
    dropped_vectors, dropped_votes : what ``max_vectors`` removed from the vote.
    """

    # voted_perceptron always sets these four (the defaults only keep the dataclass fields in order)
    vectors: Float64Array = None  # type: ignore[assignment]
    intercepts: Float64Array = None  # type: ignore[assignment]
    counts: Int64Array = None  # type: ignore[assignment]
    mistake_steps: Int64Array = None  # type: ignore[assignment]
    n_steps: int = 0
    dropped_vectors: int = 0
    dropped_votes: int = 0

    def decision_function(self, X: MatrixLike) -> Float64Array:
        """The normalised vote Σ_k c_k sign(⟨w_k, x⟩ + b_k) / Σ_k c_k, in [−1, 1]."""
        Xc = check_predict_X(X, self.w.shape[0], "this voted perceptron")
        return vote(Xc, self.vectors, self.intercepts, self.counts)

    def predict(self, X: MatrixLike) -> NDArray[Any]:
        """classes[1] where the vote is > 0, else classes[0]."""
        return labels(self.decision_function(X), self.classes)


def vote(X: Any, vectors: Float64Array, intercepts: Float64Array, counts: Int64Array,
         block: int = 2048) -> Float64Array:
    """Σ_k c_k sign(⟨w_k, x⟩ + b_k) / Σ_k c_k for every row of X (in blocks of rows)."""
    total = float(np.sum(counts))
    out = np.empty(X.shape[0])
    if vectors.shape[0] == 0 or total == 0:
        out[:] = 0.0
        return out
    weights = np.asarray(counts, dtype=np.float64)
    for start in range(0, X.shape[0], block):
        scores = X[start:start + block] @ vectors.T
        scores = np.asarray(scores) + intercepts
        out[start:start + block] = np.sign(scores) @ weights / total
    return out


def survival_counts(mistake_steps: Int64Array, n_steps: int) -> Int64Array:
    """c_k = t_{k+1} − t_k, and T − t_K + 1 for the last vector."""
    if mistake_steps.shape[0] == 0:
        return np.empty(0, dtype=np.int64)
    return np.diff(np.append(mistake_steps, n_steps + 1)).astype(np.int64)


@v.seeds_names
def voted_perceptron(X: MatrixLike, y: ArrayLike, *, eta: RealLike = 1.0, fit_intercept: bool = False,
                     order: v.FamilyOrder = "cyclic", margin: RealLike = 0.0, max_sweeps: int = 100, max_vectors: int | None = None,
                     seed: int | None = None, warn: bool = True, on_sweep: OnSweep | None = None) -> VotedRun:
    """Run the perceptron and keep every iterate with its survival count for the weighted vote.

    Parameters
    ----------
    X : array-like (n, d) or CSR matrix.
    y : any two labels; the larger (``classes[1]``) is +1.
    eta, fit_intercept, margin, seed : as in :func:`perceptronlab.perceptron`.
    order : "cyclic" or "shuffle".
    max_sweeps : the run ends here or at a clean sweep.
    max_vectors : keep at most this many voting vectors: those with the largest survival counts
        (ties: the later one); None keeps all.
    warn : warn (NotConvergedWarning) when no clean sweep came.
    on_sweep : the per-sweep hook, as in :func:`perceptronlab.perceptron`.

    Returns
    -------
    VotedRun

    References
    ----------
    Freund, Y. & Schapire, R. E. (1999). Large margin classification using the perceptron
    algorithm. Machine Learning 37(3), 277–296.

    Examples
    --------
    The seeds' exam task: five updates make five vectors; the last survives 7 of the 12 steps.

    >>> from perceptronlab import voted_perceptron
    >>> run = voted_perceptron([[1, 0], [1, 1], [0, 1]], [1, -1, -1])
    >>> run.counts.tolist(), run.vectors[-1].tolist()
    ([1, 2, 1, 2, 6], [1.0, -2.0])
    >>> run.predict([[3, 1], [0, 1]]).tolist()
    [1, -1]
    >>> float(run.decision_function([[3, 1]])[0] * run.n_steps)  # 1 - 2 + 1 - 2 + 6
    4.0
    """
    max_sweeps, seed = check_params(eta=eta, margin=margin, order=order, max_sweeps=max_sweeps,
                                    seed=seed)
    max_vectors = v.check_optional_positive_int("max_vectors", max_vectors,
                                                "Pass e.g. max_vectors=1000, or None to keep all.")
    Xc, signs, classes = v.check_Xy(X, y)
    engine = VotedEngine(Xc, signs, eta=eta, margin=margin, fit_intercept=bool(fit_intercept))
    # no cycle test: the vote keeps changing while the iterates cycle
    outcome = drive(engine, order=order, max_sweeps=max_sweeps, seed=seed, cycles=False, on_sweep=on_sweep)
    n_steps = len(outcome.log.updates_per_sweep) * engine.n
    steps = engine.mistake_steps
    counts = survival_counts(steps, n_steps)
    keep = np.ones(counts.shape[0], dtype=bool)
    if max_vectors is not None and counts.shape[0] > max_vectors:
        # stable sort on (count, age): the largest counts, the later vector among equals
        ranked = np.lexsort((np.arange(counts.shape[0]), counts))[::-1]
        keep[:] = False
        keep[ranked[:max_vectors]] = True
    # the iterates, rebuilt by replaying the updates with the engine's own update (the same bits)
    replayer = CompiledEngine(Xc, signs, eta=eta, margin=margin, fit_intercept=bool(fit_intercept))
    vectors, intercepts = replayer.replay(engine.indices, keep)
    params = dict(eta=eta, fit_intercept=bool(fit_intercept), order=order, margin=margin,
                  max_sweeps=max_sweeps, max_vectors=max_vectors, seed=seed)
    run = finish(engine, outcome, run_class=VotedRun, algorithm="voted perceptron", params=params,
                 X=Xc, signs=signs, classes=classes, vectors=vectors, intercepts=intercepts,
                 counts=counts[keep], mistake_steps=steps, n_steps=n_steps,
                 dropped_vectors=int((~keep).sum()), dropped_votes=int(counts[~keep].sum()))
    warn_not_converged(run, warn, max_sweeps, "vote")
    return run
