"""A shard's rows kept on a Dask worker as the compiled engine's arrays, swept every epoch.

:func:`perceptronlab.distributed.mixing.sweep_partitions` builds a
:class:`~perceptronlab.core.engines.CompiledEngine` per partition for every sweep (converting y,
choosing the CSR loop, allocating the update log). On a cluster the same shard is swept every
epoch, so :class:`ShardRows` builds those engines once, when the shard is loaded, and an epoch only
sets (w, b) and sweeps. The partitions stay separate (one engine each, no copy of the data): each
engine sees exactly the arrays, and makes exactly the choices, of the reference's engine, so the
results are the reference's bit for bit. Memory beyond the data: the engines' buffers, 25 bytes a
row (the update log's two buffers, its mistake flags and the margins), allocated once.

One task per worker per epoch runs :func:`sweep_shards` over the shards that worker holds, in shard
order; a failure is raised as :class:`ShardSweepError` naming the shard's place in that list.
"""

from __future__ import annotations

import threading
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from perceptronlab.core.engines import CompiledEngine

if TYPE_CHECKING:
    from numpy.typing import ArrayLike

    from perceptronlab.distributed.mixing import ShardResult
    from perceptronlab.distributed.sources import Finished


class ShardSweepError(Exception):
    """(position, cause): the sweep of the ``position``-th shard of a worker's task raised ``cause``."""


class ShardRows:
    """One shard's partitions as reusable compiled engines (one per partition, in data order).

    Parameters
    ----------
    parts : the shard's finalized partitions, each ``(X, y_signs)`` (dense float64 or CSR).
    eta, margin, fit_intercept : the run's parameters, fixed for every epoch.
    """

    def __init__(
        self, parts: Sequence[Finished], *, eta: float, margin: float, fit_intercept: bool
    ) -> None:
        self.engines = [self._engine(X, signs, eta, margin, fit_intercept) for X, signs in parts]
        self.n_rows = sum(engine.n for engine in self.engines)
        # the engines' weights are the sweep's state: one sweep at a time (a sweep cancelled after a
        # lost worker may still run beside its retry on a worker with several threads)
        self._lock = threading.Lock()

    def __getstate__(self) -> dict[str, Any]:  # a worker may spill the shard to disk
        return {name: value for name, value in self.__dict__.items() if name != "_lock"}

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__dict__.update(state)
        self._lock = threading.Lock()

    @staticmethod
    def _engine(
        X: Any, signs: Any, eta: float, margin: float, fit_intercept: bool
    ) -> CompiledEngine:
        # n_jobs=1: one sweep per partition on the worker's one thread, never the multi-core sweep
        # a reused engine would otherwise try from its second sweep on (same bits, other threads)
        engine = CompiledEngine(
            X, signs, eta=eta, margin=margin, fit_intercept=fit_intercept, n_jobs=1
        )
        # keep no per-update records: only the count is reported, and the log would grow every epoch
        engine.start_log(engine.n, budget_bytes=0)
        return engine

    def sweep(self, w: ArrayLike, b: float, seed: tuple[int, int, int] | None) -> ShardResult:
        """One sweep from (w, b) over the partitions, w continuing from one to the next.

        The order is :func:`~perceptronlab.distributed.mixing.sweep_partitions`'s: data order for
        ``seed=None``, else the partitions permuted, then the rows inside each, from one generator.
        """
        weights: Any = np.array(w, dtype=np.float64)
        bias = float(b)
        mistakes = 0
        rng = None if seed is None else np.random.default_rng(seed)
        order = range(len(self.engines)) if rng is None else rng.permutation(len(self.engines))
        with self._lock:
            for p in order:
                engine = self.engines[p]
                engine.w[:] = weights
                engine.b = bias
                mistakes += engine.sweep(None if rng is None else rng.permutation(engine.n), 1)
                weights, bias = engine.w, engine.b
            return weights.copy(), bias, mistakes


def load_shard(
    parts: Sequence[Finished], *, eta: float, margin: float, fit_intercept: bool
) -> ShardRows:
    """The shard's partitions as :class:`ShardRows` (run on the worker that keeps them)."""
    return ShardRows(parts, eta=eta, margin=margin, fit_intercept=fit_intercept)


def sweep_shards(
    shards: Sequence[ShardRows],
    w: ArrayLike,
    b: float,
    seeds: Sequence[tuple[int, int, int] | None],
) -> list[ShardResult]:
    """Every shard a worker holds swept from the same (w, b), in the order given; their results.

    Raises
    ------
    ShardSweepError
        ``(position, cause)`` for the first shard whose sweep raised.
    """
    results = []
    for position, (shard, seed) in enumerate(zip(shards, seeds, strict=True)):
        try:
            results.append(shard.sweep(w, b, seed))
        except Exception as exc:  # noqa: BLE001 - named by the client, with the shard
            raise ShardSweepError(position, exc) from exc
    return results
