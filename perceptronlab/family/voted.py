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

Memory: the vectors are built as the run goes, by replaying each sweep's updates after the sweep
(the engine's ``replay``: the same bits), and a vector is kept once its survival count shows that
it belongs to the vote. ``max_vectors`` caps the vote: the ``max_vectors`` vectors with the largest
survival counts are kept (ties: the later vector), the others leave it; ``dropped_vectors`` and
``dropped_votes`` say how many vectors and how much vote weight went. With ``max_vectors`` the run
holds at most ``max_vectors + 1`` vectors at any time, whatever its length; without it every vector
is kept, up to :data:`~perceptronlab.core.driver.LOG_BUDGET_BYTES` of them (past it the run stops
with an error that asks for ``max_vectors``). The update log (``mistake_indices``, ``norms``,
``mistake_steps``) is kept within that budget as for every run (``log_complete``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np

from perceptronlab._ground import validation as v
from perceptronlab.core import driver
from perceptronlab.core.driver import OnSweep, finish_as
from perceptronlab.core.engines import CompiledEngine
from perceptronlab.core.run import Run
from perceptronlab.core.scores import labels
from perceptronlab.family._common import (
    check_predict_X,
    sweep_positions,
    warn_not_converged,
)
from perceptronlab.family.settings import check_run_options

# the updates replayed into the vote at a time (fewer at the end of the run)
VOTE_BATCH = 65_536

if TYPE_CHECKING:
    from numpy.typing import ArrayLike, NDArray

    from perceptronlab._ground.types import Float64Array, Int64Array, MatrixLike, RealLike


class VotedEngine(CompiledEngine):
    """The compiled engine, also recording the step number (1-based, over all sweeps) of each update
    and building the vote (:class:`Vote`): the updates are replayed in batches of
    :data:`VOTE_BATCH` (and at the end, :meth:`build_vote`) by a second engine that follows this one."""

    def __init__(self, X: Any, y: Any, *, max_vectors: int | None = None, **kwargs: Any) -> None:
        super().__init__(X, y, **kwargs)
        self.replayer = CompiledEngine(X, y, **kwargs)
        self.vote = Vote(max_vectors, self.d)
        self._step_chunks: list[NDArray[Any]] = []
        self._waiting: list[
            tuple[NDArray[Any], NDArray[Any]]
        ] = []  # (indices, steps) not replayed yet
        self._n_waiting = 0

    def sweep(self, order: NDArray[Any] | None, sweep: int) -> int:
        kept_before = self.n_kept
        count = super().sweep(order, sweep)
        if count:
            idx = self._idx_buf[:count].copy()  # this sweep's updates, as the kernel wrote them
            steps = (sweep - 1) * self.n + sweep_positions(order, idx, self.n) + 1
            if self.n_kept > kept_before:  # the steps are logged alongside the indices
                self._step_chunks.append(steps[: self.n_kept - kept_before])
            self._waiting.append((idx, steps))
            self._n_waiting += count
            if self._n_waiting >= VOTE_BATCH:
                self.build_vote()
        return count

    def build_vote(self) -> None:
        """Replay the updates waiting (the same bits as the run's) and give their vectors to the vote."""
        if self._waiting:
            idx = np.concatenate([chunk for chunk, _ in self._waiting])
            steps = np.concatenate([chunk for _, chunk in self._waiting])
            self._waiting, self._n_waiting = [], 0
            keep = self.vote.choose(steps)
            vectors, intercepts = self.replayer.replay(idx, keep)
            self.vote.store(vectors, intercepts)

    @property
    def mistake_steps(self) -> Int64Array:
        return (
            np.concatenate(self._step_chunks) if self._step_chunks else np.empty(0, dtype=np.int64)
        )


class Vote:
    """The voting vectors of a run so far: every vector, or the ``limit`` with the largest survival
    counts (ties: the later vector), chosen as the counts become known.

    Vector k (0-based, the k-th update's) is made at step t_k; its count t_{k+1} − t_k is known when
    the next update comes, so the latest vector waits (``pending``) until then, or until
    :meth:`close`. For each batch of updates, :meth:`choose` says which of their vectors to build
    (they enter the vote, or wait), and :meth:`store` takes them in that order. Without a limit
    every vector is kept, within :data:`~perceptronlab.core.driver.LOG_BUDGET_BYTES`.
    """

    def __init__(self, limit: int | None, d: int):
        self.limit, self.d = limit, d
        capacity = 0 if limit is None else limit
        self.counts = np.empty(capacity, dtype=np.int64)  # by row
        # with a limit: the kept vectors in rows, their numbers and rows, the free rows
        self.vectors, self.intercepts = np.empty((capacity, d)), np.empty(capacity)
        self.k = np.empty(0, dtype=np.int64)
        self.slot = np.empty(0, dtype=np.int64)
        self.free = list(range(capacity))[::-1]
        self.chunks: list[
            tuple[np.ndarray, np.ndarray]
        ] = []  # without: every vector, batch by batch
        self.made = 0  # vectors made so far
        self.votes = 0  # the counts of the vectors made, except the pending one
        self.pending: tuple[int, int] | None = (
            None  # (k, t_k) of the latest vector, and (with a limit) it
        )
        self.pending_vector: tuple[np.ndarray, float] | None = None
        self._rows = np.empty(0, dtype=np.int64)  # where the next store puts its vectors

    def choose(self, steps: np.ndarray) -> np.ndarray:
        """Take the steps of a batch of updates; returns which of their vectors to build."""
        self._enter_pending(steps[0])
        m = steps.shape[0]
        rows = self._enter(self.made + np.arange(m - 1), np.diff(steps))
        self.made += m
        self.pending = (self.made - 1, int(steps[-1]))
        self._rows = rows[rows >= 0]
        return np.append(rows >= 0, True)

    def store(self, vectors: np.ndarray, intercepts: np.ndarray) -> None:
        """The vectors :meth:`choose` asked for, in order (the last is the pending one)."""
        if self.limit is None:
            self.chunks.append((vectors, intercepts))
            return
        self.vectors[self._rows], self.intercepts[self._rows] = vectors[:-1], intercepts[:-1]
        self.pending_vector = (vectors[-1].copy(), float(intercepts[-1]))

    def close(self, n_steps: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """The vote after ``n_steps`` steps: (vectors, intercepts, counts), in the order they were made."""
        self._enter_pending(n_steps + 1)
        self.pending = self.pending_vector = None
        if self.limit is not None:
            rows = self.slot[np.argsort(self.k)]
            return self.vectors[rows], self.intercepts[rows], self.counts[rows]
        counts = self.counts[: self.made]
        if len(self.chunks) == 1:
            return (*self.chunks[0], counts)
        if not self.chunks:
            return np.empty((0, self.d)), np.empty(0), counts
        return (
            np.concatenate([v for v, _ in self.chunks]),
            np.concatenate([b for _, b in self.chunks]),
            counts,
        )

    def _enter_pending(self, next_step: int) -> None:
        """The pending vector's count is known: the next update comes at ``next_step``."""
        if self.pending is not None:
            k, t = self.pending
            row = self._enter(np.array([k]), np.array([next_step - t]))[0]
            if row >= 0 and self.limit is not None and self.pending_vector is not None:
                self.vectors[row], self.intercepts[row] = self.pending_vector

    def _enter(self, k: np.ndarray, count: np.ndarray) -> np.ndarray:
        """Vectors ``k`` (consecutive, newer than every kept one) with their final counts: the row
        each one is to be stored in, or −1 where it does not enter the vote (or leaves it at once)."""
        self.votes += int(count.sum())
        if k.shape[0] == 0:
            return k
        if self.limit is None:  # every vector, vector k in row k
            self._grow(int(k[-1]) + 2)  # with the pending one
            self.counts[k] = count
            return k
        rows = np.full(k.shape[0], -1, dtype=np.int64)
        candidates = np.arange(k.shape[0])
        if self.k.shape[0] == self.limit:  # a newer vector with an equal count beats the smallest
            candidates = np.flatnonzero(count >= self.counts[self.slot].min())
            k, count = k[candidates], count[candidates]
        every_k, every_count = np.r_[self.k, k], np.r_[self.counts[self.slot], count]
        ranked = np.lexsort((every_k, every_count))[::-1][: self.limit]  # the largest (count, k)
        stays = np.zeros(every_k.shape[0], dtype=bool)
        stays[ranked] = True
        old = self.k.shape[0]
        self.free.extend(self.slot[~stays[:old]].tolist())
        new = np.flatnonzero(stays[old:])
        slots = np.array([self.free.pop() for _ in new], dtype=np.int64)
        rows[candidates[new]] = slots
        self.counts[slots] = count[new]
        self.k = np.r_[self.k[stays[:old]], k[new]]
        self.slot = np.r_[self.slot[stays[:old]], slots]
        return rows

    def _grow(self, size: int) -> None:
        """Counts for ``size`` vectors (no limit: every vector, within the log's memory budget)."""
        if size * (self.d + 2) * 8 > driver.LOG_BUDGET_BYTES:
            raise v.fail(
                "voted_perceptron: max_vectors",
                "a vote that fits the memory budget "
                f"(perceptronlab.core.driver.LOG_BUDGET_BYTES = {driver.LOG_BUDGET_BYTES:,} bytes)",
                f"None, and the run has made more than {size - 2:,} vectors of {self.d:,} weights",
                "Pass max_vectors (e.g. max_vectors=1000: the vectors with the largest survival "
                "counts), or fewer max_sweeps.",
            )
        if size > self.counts.shape[0]:
            counts = np.empty(max(size, 2 * self.counts.shape[0], 16), dtype=np.int64)
            counts[: self.counts.shape[0]] = self.counts
            self.counts = counts


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


def vote(
    X: Any, vectors: Float64Array, intercepts: Float64Array, counts: Int64Array, block: int = 2048
) -> Float64Array:
    """Σ_k c_k sign(⟨w_k, x⟩ + b_k) / Σ_k c_k for every row of X (in blocks of rows)."""
    total = float(np.sum(counts))
    out = np.empty(X.shape[0])
    if vectors.shape[0] == 0 or total == 0:
        out[:] = 0.0
        return out
    weights = np.asarray(counts, dtype=np.float64)
    for start in range(0, X.shape[0], block):
        scores = X[start : start + block] @ vectors.T
        scores = np.asarray(scores) + intercepts
        out[start : start + block] = np.sign(scores) @ weights / total
    return out


def survival_counts(mistake_steps: Int64Array, n_steps: int) -> Int64Array:
    """c_k = t_{k+1} − t_k, and T − t_K + 1 for the last vector."""
    if mistake_steps.shape[0] == 0:
        return np.empty(0, dtype=np.int64)
    return np.diff(np.append(mistake_steps, n_steps + 1)).astype(np.int64)


@v.seeds_names
def voted_perceptron(
    X: MatrixLike,
    y: ArrayLike,
    *,
    eta: RealLike = 1.0,
    fit_intercept: bool = False,
    order: v.FamilyOrder = "cyclic",
    margin: RealLike = 0.0,
    max_sweeps: int = 100,
    max_vectors: int | None = None,
    seed: int | None = None,
    warn: bool = True,
    on_sweep: OnSweep | None = None,
) -> VotedRun:
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
    The lectures' exam task: five updates make five vectors; the last survives 7 of the 12 steps.

    >>> from perceptronlab import voted_perceptron
    >>> run = voted_perceptron([[1, 0], [1, 1], [0, 1]], [1, -1, -1])
    >>> run.counts.tolist(), run.vectors[-1].tolist()
    ([1, 2, 1, 2, 6], [1.0, -2.0])
    >>> run.predict([[3, 1], [0, 1]]).tolist()
    [1, -1]
    >>> float(run.decision_function([[3, 1]])[0] * run.n_steps)  # 1 - 2 + 1 - 2 + 6
    4.0
    """
    settings = check_run_options(eta, fit_intercept, order, margin, max_sweeps, seed, on_sweep)
    max_vectors = v.check_optional_positive_int(
        "max_vectors", max_vectors, "Pass e.g. max_vectors=1000, or None to keep all."
    )
    Xc, signs, classes = v.check_Xy(X, y)
    engine = VotedEngine(Xc, signs, **settings.rule, max_vectors=max_vectors)
    outcome = settings.drive(engine)
    params = settings.params(max_vectors=max_vectors)
    params["seed"] = params.pop("seed")  # recorded after max_vectors
    run = _voted_run(engine, outcome, params, Xc, signs, classes)
    warn_not_converged(run, warn, settings.max_sweeps, "vote")
    return run


def _voted_run(
    engine: VotedEngine,
    outcome: Any,
    params: dict[str, Any],
    Xc: Any,
    signs: Float64Array,
    classes: NDArray[Any],
) -> VotedRun:
    """The finished run's vote: every kept vector with its survival count, and what was dropped."""
    n_steps = len(outcome.log.updates_per_sweep) * engine.n
    engine.build_vote()
    vote = engine.vote
    vectors, intercepts, counts = vote.close(n_steps)
    return finish_as(
        engine,
        outcome,
        run_class=VotedRun,
        algorithm="voted perceptron",
        params=params,
        X=Xc,
        signs=signs,
        classes=classes,
        vectors=vectors,
        intercepts=intercepts,
        counts=counts,
        mistake_steps=engine.mistake_steps,
        n_steps=n_steps,
        dropped_vectors=vote.made - counts.shape[0],
        dropped_votes=vote.votes - int(counts.sum()),
    )
