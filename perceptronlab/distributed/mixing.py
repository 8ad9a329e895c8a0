r"""Iterative parameter mixing (McDonald, Hall & Mann 2010), computed in this process.

The data is cut into S shards (each a run of consecutive partitions). Every epoch each shard runs
one perceptron sweep from the current :math:`(w, b)` and reports its weights :math:`w_i` and its
mistake count :math:`k_i`; the new weights are their mix

.. math::

    w \leftarrow \sum_{i=1}^{S} \mu_i w_i, \qquad
    \mu_i = \tfrac{1}{S} \ \text{(uniform)} \quad\text{or}\quad
    \mu_i = \frac{k_i}{\sum_j k_j} \ \text{(weighted)}.

An epoch with :math:`\sum_j k_j = 0` is a clean sweep of every shard: each shard returned the
weights it was given, so the weights are kept unchanged (that is the fallback for the weighted
mixing's 0/0) and the run has converged. For separable data with margin :math:`\rho` and radius
:math:`R` the mixed perceptron makes at most :math:`R^2/\rho^2` mixed mistakes (McDonald et al.
2010, Theorem 3 for the weighted mixing); one-shot averaging of independently trained perceptrons
(:func:`one_shot_average`) has no such guarantee and is kept only as a baseline.

This module is the reference: :mod:`perceptronlab.distributed.cluster` runs :func:`sweep_partitions`'s
sweep on Dask workers (with engines built once, :class:`perceptronlab.distributed.shard.ShardRows`)
and the same :func:`run_epochs` loop on the client, and the tests hold the two equal bit for bit.
A sweep of one shard continues w across its partitions, so a shard is exactly the cyclic perceptron
over the concatenation of its partitions; with one shard the whole run is
:func:`perceptronlab.perceptron` with ``order="cyclic"``.

Examples
--------
>>> import numpy as np, dask.array as da
>>> from perceptronlab.distributed.mixing import fit_in_process
>>> X = da.from_array(np.array([[1., 0], [1, 1], [0, 1], [2, 0]]), chunks=(2, 2))
>>> y = da.from_array(np.array([1, -1, -1, 1]), chunks=2)
>>> model = fit_in_process(X, y)
>>> model.converged, model.history.tolist()
(True, [[2, 2], [1, 0], [0, 0]])
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal, NamedTuple, Protocol, TypedDict, cast, get_args

import numpy as np

from perceptronlab._ground import validation as v
from perceptronlab.core.driver import Engine, drive
from perceptronlab.core.engines import CompiledEngine, weights_key
from perceptronlab.exceptions import SCALE_FIX
from perceptronlab.exceptions import warn as _warn

if TYPE_CHECKING:
    from collections.abc import Mapping

    from numpy.typing import ArrayLike
    from typing_extensions import Unpack

    from perceptronlab._ground.types import Float64Array, Int64Array, MatrixLike, RealLike
    from perceptronlab.core.driver import SweepInfo
    from perceptronlab.distributed.model import MixedPerceptron
    from perceptronlab.distributed.sources import DataSource, Source

BLOCKSIZE = (
    64 * 2**20
)  # bytes per CSV/LIBSVM partition (as perceptronlab.distributed.sources.BLOCKSIZE)

#: how the shards' weights are mixed: the mean, or weighted by each shard's mistakes
Mixing = Literal["uniform", "weighted"]
MIXINGS: tuple[Mixing, ...] = get_args(Mixing)


class EpochInfo(NamedTuple):
    """What ``callback`` receives after every epoch (return True from the callback to stop)."""

    epoch: int
    w: Float64Array
    b: float
    mistakes: Int64Array  # per shard


#: called after every epoch; True stops the run
EpochCallback = Callable[[EpochInfo], "bool | None"]


class StreamOptions(TypedDict, total=False):
    """The keyword options of a run over partitions, as :func:`perceptronlab.distributed.stream_fit`
    takes them (each with the default its docstring gives); :class:`MixingOptions` adds the mixing."""

    label: Hashable | None
    eta: RealLike
    margin: RealLike
    fit_intercept: bool
    max_epochs: int
    averaged: bool
    seed: int | None
    callback: EpochCallback | None
    blocksize: int
    warn: bool


class MixingOptions(StreamOptions, total=False):
    """The keyword options of :func:`perceptronlab.distributed.fit` and :func:`fit_in_process`:
    :class:`StreamOptions`, how the shards' weights are mixed, and how many shards."""

    mixing: Mixing
    shards: int | None


#: one shard's sweep result: (w_i, b_i, k_i)
ShardResult = tuple["Float64Array", float, int]


class Progress(Protocol):
    """What ``fit_in_process`` reports each sweep's rows to (the stream path's Rich bar)."""

    def start(self, epoch: int, total_rows: int | None) -> None: ...

    def advance(self, rows: int) -> None: ...

    def stop(self) -> None: ...


@dataclass
class Training:
    """The outcome of :func:`run_epochs`."""

    w: Float64Array
    b: float
    history: Int64Array  # (epochs, shards) mistakes
    converged: bool
    cycled: bool
    stopped: bool
    w_avg: Float64Array
    b_avg: float

    @property
    def epochs(self) -> int:
        return int(self.history.shape[0])


# ---------------------------------------------------------------- the pieces


def sweep_partitions(
    parts: Sequence[Any],
    w: ArrayLike,
    b: float,
    *,
    eta: float,
    margin: float,
    fit_intercept: bool,
    seed: tuple[int, int, int] | None = None,
    on_partition: Callable[[int], None] | None = None,
) -> ShardResult:
    """One perceptron sweep over ``parts`` in order, w continuing from partition to partition.

    Parameters
    ----------
    parts : each ``(X, y_signs)`` or a zero-argument function returning one (read when reached).
    w, b : the weights the sweep starts from (not modified).
    seed : None for data order; else a ``numpy.random.SeedSequence`` entropy (e.g. ``(seed, epoch,
        shard)``) that permutes the partitions and the rows inside each one.

    Returns
    -------
    (w, b, mistakes)
    """
    weights: Float64Array = np.array(w, dtype=np.float64)
    b = float(b)
    mistakes = 0
    rng = None if seed is None else np.random.default_rng(seed)
    order = range(len(parts)) if rng is None else rng.permutation(len(parts))
    for p in order:
        part = parts[p]
        X, signs = part() if callable(part) else part
        engine = CompiledEngine(
            X, signs, eta=eta, margin=margin, fit_intercept=fit_intercept, w0=weights, b0=b
        )
        mistakes += engine.sweep(None if rng is None else rng.permutation(engine.n), 1)
        weights, b = engine.w, engine.b
        if on_partition is not None:
            on_partition(engine.n)
    return weights, b, mistakes


def mix(
    results: Sequence[ShardResult], w: Float64Array, b: float, mixing: Mixing
) -> tuple[Float64Array, float]:
    """Mix the shards' ``(w_i, b_i, k_i)`` in shard order; keep ``(w, b)`` when Σk = 0."""
    counts = np.array([k for _, _, k in results], dtype=np.int64)
    total = int(counts.sum())
    if total == 0:
        return w, b
    if mixing == "uniform":
        mu = [1.0 / len(results)] * len(results)
    else:
        mu = [int(k) / total for k in counts]
    mixed = mu[0] * np.asarray(results[0][0], dtype=np.float64)
    bias = mu[0] * float(results[0][1])
    for weight, (w_i, b_i, _) in zip(mu[1:], results[1:], strict=True):
        mixed += weight * np.asarray(w_i, dtype=np.float64)
        bias += weight * float(b_i)
    return mixed, bias


def plan_shards(n_parts: int, shards: int | None) -> list[list[int]]:
    """Cut partitions 0..n-1 into ``shards`` runs of consecutive partitions (sizes differ by ≤ 1)."""
    if shards is None:
        return [[i] for i in range(n_parts)]
    shards = v.check_positive_int(
        "shards", shards, "Pass e.g. shards=4, or None for one per partition."
    )
    if shards > n_parts:
        raise v.fail(
            "shards",
            f"at most the number of partitions ({n_parts})",
            shards,
            "Pass fewer shards, or cut the data into more partitions (e.g. X.rechunk).",
        )
    return [chunk.tolist() for chunk in np.array_split(np.arange(n_parts), shards)]


#: ``sweep_all(epoch, w, b)``: every shard's sweep from (w, b), in shard order
SweepAll = Callable[[int, "Float64Array", float], "list[ShardResult]"]


class _MixingEngine(Engine):
    """One epoch of mixing as one sweep of the core's driver: every shard sweeps from (w, b), then
    their weights are mixed. The driver owns the epochs' stopping, the cycle proof and overflow."""

    exact = False
    overflowing = "weights"
    overflow_fix = SCALE_FIX
    steps = None
    indices = np.empty(0, dtype=np.int64)
    norms = np.empty(0)

    def __init__(self, sweep_all: SweepAll, n_features: int, mixing: Mixing) -> None:
        self.sweep_all, self.mixing = sweep_all, mixing
        self.n = 0  # rows are the shards' business
        self.w, self.b = np.zeros(n_features), 0.0
        self.w_sum, self.b_sum = np.zeros(n_features), 0.0
        self.history: list[list[int]] = []
        # the Engine's counts: every shard's mistakes; the mixing keeps no per-update log
        self.n_updates = 0
        self.mistake_set = np.zeros(0, dtype=bool)

    @property
    def log_complete(self) -> bool:
        return self.n_updates == 0

    def sweep(self, order: np.ndarray | None, sweep: int) -> int:
        results = self.sweep_all(sweep, self.w, self.b)
        counts = [int(k) for _, _, k in results]
        self.history.append(counts)
        self.n_updates += sum(counts)
        self.w, self.b = mix(results, self.w, self.b, self.mixing)
        self.w_sum += self.w
        self.b_sum += self.b
        return sum(counts)

    def key(self) -> Hashable:
        return weights_key(self.w, self.b)

    def snapshot(self) -> tuple[Float64Array, float]:
        return self.w.copy(), self.b

    def checkpoint(self) -> None:
        return None

    def errors(
        self, state: tuple[Any, Any] | None = None
    ) -> int:  # pragma: no cover - mixing records no error counts
        raise NotImplementedError(
            "iterative parameter mixing counts mistakes per shard, not errors"
        )

    def finite(self) -> bool:
        return bool(np.isfinite(self.w).all() and np.isfinite(self.b))


def run_epochs(
    sweep_all: SweepAll,
    n_features: int,
    *,
    mixing: Mixing,
    max_epochs: int,
    detect_cycles: bool,
    callback: EpochCallback | None = None,
) -> Training:
    """The epoch loop: sweep every shard from (w, b), mix, stop at a clean epoch or a repeat.

    ``sweep_all(epoch, w, b)`` returns the shards' ``(w_i, b_i, k_i)`` in shard order. A repeated
    start-of-epoch (w, b) (checked when the sweeps are deterministic) proves the run is periodic
    and never converges, as for the cyclic perceptron. The loop is the core's driver
    (:func:`perceptronlab.core.driver.drive`) over one epoch as one sweep.
    """
    engine = _MixingEngine(sweep_all, n_features, mixing)

    def on_epoch(info: SweepInfo) -> bool:
        assert callback is not None  # on_epoch is passed only with a callback
        return (
            callback(EpochInfo(info.sweep, engine.w.copy(), engine.b, np.array(engine.history[-1])))
            is True
        )

    outcome = drive(
        engine,
        order="cyclic",
        max_sweeps=max_epochs,
        cycles=detect_cycles,
        on_sweep=None if callback is None else on_epoch,
        record_errors=False,
    )
    epochs = max(len(engine.history), 1)
    return Training(
        w=engine.w,
        b=float(engine.b),
        history=np.array(engine.history, dtype=np.int64).reshape(len(engine.history), -1),
        converged=outcome.converged,
        cycled=outcome.cycled,
        stopped=outcome.stopped,
        w_avg=engine.w_sum / epochs,
        b_avg=float(engine.b_sum / epochs),
    )


def check_params(
    *, mixing: Mixing, max_epochs: int, eta: RealLike, margin: RealLike, seed: int | None
) -> tuple[int, float, float, int | None]:
    v.check_choice("mixing", mixing, MIXINGS)
    max_epochs = v.check_positive_int("max_epochs", max_epochs, "Pass e.g. max_epochs=100.")
    eta = float(v.check_eta(eta))
    margin = float(v.check_margin(margin))
    seed = v.check_seed(seed)
    return max_epochs, eta, margin, seed


@dataclass(frozen=True)
class Settings:
    """The checked parameters of one mixing run, shared by :func:`fit_in_process` and
    :func:`perceptronlab.distributed.fit`: how the epochs run and what the model records."""

    mixing: Mixing
    max_epochs: int
    eta: float
    margin: float
    fit_intercept: bool
    averaged: bool
    seed: int | None

    @classmethod
    def check(
        cls,
        mixing: Mixing,
        max_epochs: int,
        eta: RealLike,
        margin: RealLike,
        fit_intercept: bool,
        averaged: bool,
        seed: int | None,
    ) -> Settings:
        max_epochs, eta, margin, seed = check_params(
            mixing=mixing, max_epochs=max_epochs, eta=eta, margin=margin, seed=seed
        )
        return cls(mixing, max_epochs, eta, margin, fit_intercept, averaged, seed)

    def run(self, sweep_all: SweepAll, n_features: int, callback: EpochCallback | None) -> Training:
        """The epochs (:func:`run_epochs`); a seeded run is never checked for cycles."""
        return run_epochs(
            sweep_all,
            n_features,
            mixing=self.mixing,
            max_epochs=self.max_epochs,
            detect_cycles=self.seed is None,
            callback=callback,
        )

    def model(
        self,
        training: Training,
        source: Source,
        groups: list[list[int]],
        *,
        warn: bool,
        stacklevel: int = 3,
    ) -> MixedPerceptron:
        """The model of a finished run, after its warning (``stacklevel`` counts from the caller,
        as in :func:`warn_outcome`)."""
        from perceptronlab.distributed.model import MixedPerceptron

        if warn:
            warn_outcome(training, self.max_epochs, stacklevel=stacklevel + 1)
        params = dict(
            mixing=self.mixing,
            max_epochs=self.max_epochs,
            eta=self.eta,
            margin=self.margin,
            fit_intercept=bool(self.fit_intercept),
            averaged=bool(self.averaged),
            seed=self.seed,
            shards=len(groups),
        )
        return MixedPerceptron(training, source, groups, params)


def shard_seed(seed: int | None, epoch: int, shard: int) -> tuple[int, int, int] | None:
    """The row-order entropy of one shard in one epoch (None: data order)."""
    return None if seed is None else (seed, epoch, shard)


def warn_outcome(training: Training, max_epochs: int, stacklevel: int = 3) -> None:
    if training.cycled:
        _warn(
            "CycledWarning",
            f"The weights at the start of epoch {training.epochs + 1} repeat an earlier "
            "epoch's: the mixed perceptron will never converge on this data.",
            stacklevel=stacklevel,
        )
    elif not training.converged and not training.stopped:
        _warn(
            "NotConvergedWarning",
            f"No clean epoch within max_epochs={max_epochs} "
            f"({int(training.history.sum())} mistakes). The data may not be separable; raise max_epochs.",
            stacklevel=stacklevel,
        )


# ---------------------------------------------------------------- in process


def fit_in_process(
    X: DataSource,
    y: ArrayLike | None = None,
    *,
    progress: Progress | None = None,
    **options: Unpack[MixingOptions],
) -> MixedPerceptron:
    """Iterative parameter mixing in this process, reading one partition at a time.

    The reference for :func:`perceptronlab.distributed.fit`: same arguments, same shards, same result bit
    for bit, no cluster. Memory holds one partition (plus the S shard weight vectors of an epoch).

    Parameters
    ----------
    X, y, **options : as for :func:`perceptronlab.distributed.fit` (:class:`MixingOptions`).
    progress : optional object with ``start(epoch, total_rows)``, ``advance(rows)`` and ``stop()``
        (the stream path's Rich bar).
    """
    settings, source = open_run("fit_in_process", X, y, options, MixingOptions)
    shards, callback, warn = (
        options.get("shards"),
        options.get("callback"),
        options.get("warn", True),
    )
    return mix_in_process(source, settings, shards, callback, progress, warn=warn, stacklevel=4)


def open_run(
    function: str,
    X: DataSource,
    y: ArrayLike | None,
    options: Mapping[str, Any],
    allowed: Any,
) -> tuple[Settings, Source]:
    """The checked settings and the opened source of ``function(X, y, **options)`` (one of
    :func:`perceptronlab.distributed.fit`, :func:`fit_in_process` and ``stream_fit``), each option
    at its documented default where it is not given; ``allowed`` is the function's TypedDict."""
    from perceptronlab.distributed.sources import open_source

    v.check_option_names(
        function, options, allowed, "Pass only the options its documentation lists."
    )
    settings = Settings.check(
        options.get("mixing", "uniform"),
        options.get("max_epochs", 100),
        options.get("eta", 1.0),
        options.get("margin", 0.0),
        options.get("fit_intercept", False),
        options.get("averaged", False),
        options.get("seed"),
    )
    return settings, open_source(
        X, y, label=options.get("label"), blocksize=options.get("blocksize", BLOCKSIZE)
    )


def mix_in_process(
    source: Source,
    settings: Settings,
    shards: int | None,
    callback: EpochCallback | None,
    progress: Progress | None,
    *,
    warn: bool,
    stacklevel: int,
) -> MixedPerceptron:
    """:func:`fit_in_process` on an opened source with checked settings (``stacklevel``: where the
    warning points, as in :meth:`Settings.model`, counted from this function)."""
    from perceptronlab.distributed.sources import finalize, summarize

    source.learn([summarize(source.read_local(i)) for i in range(len(source))])
    groups = plan_shards(len(source), shards)

    def loader(i: int) -> Callable[[], tuple[Any, Any]]:
        return lambda: finalize(source.read_local(i), source.spec)

    def sweep_all(epoch: int, w: Float64Array, b: float) -> list[ShardResult]:
        if progress is not None:
            progress.start(epoch, source.n_rows)
        try:
            return [
                sweep_partitions(
                    [loader(i) for i in group],
                    w,
                    b,
                    eta=settings.eta,
                    margin=settings.margin,
                    fit_intercept=settings.fit_intercept,
                    seed=shard_seed(settings.seed, epoch, s),
                    on_partition=None if progress is None else progress.advance,
                )
                for s, group in enumerate(groups)
            ]
        finally:
            if progress is not None:
                progress.stop()

    training = settings.run(sweep_all, source.n_features, callback)
    return settings.model(training, source, groups, warn=warn, stacklevel=stacklevel)


def one_shot_average(
    shards_data: Sequence[tuple[MatrixLike, ArrayLike]],
    *,
    eta: RealLike = 1.0,
    fit_intercept: bool = False,
    max_sweeps: int = 1000,
) -> tuple[Float64Array, float]:
    """Baseline only: train a cyclic perceptron on each shard separately, then average once.

    McDonald et al. (2010) show this parameter averaging need not separate separable data even
    when every shard's perceptron does; use :func:`perceptronlab.distributed.fit` (iterative mixing).

    Parameters
    ----------
    shards_data : ``(X_i, y_i)`` per shard (in memory), labels ±1.

    Returns
    -------
    (w, b), the uniform average of the shards' final weights.
    """
    from perceptronlab.core.perceptron import perceptron

    runs = [
        perceptron(X, y, eta=eta, fit_intercept=fit_intercept, max_sweeps=max_sweeps, warn=False)
        for X, y in shards_data
    ]
    w = cast("Float64Array", sum(run.w for run in runs) / len(runs))
    b = sum(float(run.b) for run in runs) / len(runs)
    return w, b
