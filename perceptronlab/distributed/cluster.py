"""Iterative parameter mixing on a Dask cluster (McDonald, Hall & Mann 2010).

The client holds only w. The partitions are read on the workers (files by path, dask blocks by
their graph), checked there, and kept in worker memory as one object per shard, the compiled
engine's arrays (:class:`perceptronlab.distributed.shard.ShardRows`, built once). Every epoch the
client submits one task per worker, :func:`perceptronlab.distributed.shard.sweep_shards` with the
current (w, b), which sweeps the shards that worker holds in shard order; the client gathers the
S results and mixes them in shard order with :func:`perceptronlab.distributed.mixing.mix`, exactly
as the in-process reference does, so the two runs agree bit for bit on any number of workers.

A worker that dies during an epoch does not lose the run: the scheduler reschedules its sweep on
another worker and recomputes the lost shard from its lineage (the files, or the dask graph). If
the scheduler gives up on a shard (``KilledWorker``) the epoch is submitted again, up to
``epoch_retries`` times, and then :class:`ShardError` names the shard; no partial weights are ever
returned as a result.
"""

from __future__ import annotations

import contextlib
import functools
import uuid
from collections.abc import Callable, Iterator
from types import ModuleType
from typing import TYPE_CHECKING, Any

from perceptronlab._ground import validation as v
from perceptronlab.core.interrupt import ctrl_c_from_finalizers
from perceptronlab.distributed.mixing import (
    MixingOptions,
    Settings,
    open_run,
    plan_shards,
    shard_seed,
)
from perceptronlab.distributed.shard import sweep_shards
from perceptronlab.exceptions import PerceptronLabError

if TYPE_CHECKING:
    import os

    from distributed import Client, Future
    from numpy.typing import ArrayLike
    from typing_extensions import Unpack

    from perceptronlab._ground.types import Float64Array
    from perceptronlab.distributed.mixing import ShardResult
    from perceptronlab.distributed.model import MixedPerceptron
    from perceptronlab.distributed.shard import ShardRows
    from perceptronlab.distributed.sources import DataSource, Raw, Source, Spec


class ShardError(PerceptronLabError, RuntimeError):
    """A shard's sweep failed on the cluster; the message names the shard and its partitions."""


def _need_distributed() -> ModuleType:
    try:
        import distributed
    except ImportError as exc:  # pragma: no cover - the dask extra is installed in development
        raise ImportError(
            "perceptronlab.distributed.fit needs dask.distributed: "
            "pip install 'perceptronlab[dask]'"
        ) from exc
    return distributed


@contextlib.contextmanager
def connect(
    client: Client | str | None = None, *, n_workers: int | None = None, quiet: bool = True
) -> Iterator[Client]:
    """The client to run on: the one given, one at an address, the running one, or a new LocalCluster.

    A client made here (from an address, or a new ``LocalCluster`` of worker processes) is closed
    on exit; a client passed in or already running is left open.
    """
    distributed = _need_distributed()
    if isinstance(client, distributed.Client):
        yield client
        return
    if isinstance(client, str):
        try:
            made = distributed.Client(client, timeout="20s")
        except OSError as exc:
            raise v.fail(
                "scheduler",
                "the address of a running Dask scheduler",
                repr(client),
                f"Start one with `dask scheduler` (and `dask worker {client}`), or check the "
                "address.",
            ) from exc
        with made:
            yield made
        return
    if client is not None:
        raise v.fail(
            "client",
            "a distributed.Client, a scheduler address like 'tcp://host:8786', or None",
            type(client).__name__,
            "Pass client=None to use a local cluster.",
        )
    try:
        yield distributed.get_client()
        return
    except ValueError:
        pass
    import logging

    cluster = None
    try:
        with _workers_deaf_to_ctrl_c():
            # port 0 everywhere: the system picks free ports (None would still bind the HTTP routes to 8787)
            cluster = distributed.LocalCluster(
                n_workers=n_workers,
                threads_per_worker=1,
                processes=True,
                scheduler_port=0,
                dashboard_address=":0",
                silence_logs=logging.ERROR if quiet else logging.WARNING,
            )
        # a Ctrl-C in a Dask future's finalizer as the client closes: reaches the command anyway
        with distributed.Client(cluster) as made, ctrl_c_from_finalizers(again=False):
            try:
                yield made
            except KeyboardInterrupt:
                _quiet_shutdown(made)
                raise
    finally:
        if cluster is not None:
            cluster.close()


def _silence_logs() -> None:
    import logging

    for name in ("distributed", "tornado", "asyncio"):
        logging.getLogger(name).setLevel(logging.CRITICAL + 1)


def _quiet_shutdown(client: Client) -> None:
    """Ctrl-C: the workers and this process stop logging before the cluster closes (closing
    mid-run makes Dask log heartbeat failures and cancelled gathers, with tracebacks)."""
    _silence_logs()
    with contextlib.suppress(Exception):
        client.run(_silence_logs)


@contextlib.contextmanager
def _workers_deaf_to_ctrl_c() -> Iterator[None]:
    """Start a local cluster whose worker processes ignore Ctrl-C: this process closes them.

    A terminal sends Ctrl-C's SIGINT to every process of the foreground group, the cluster's
    workers included, and each would print its own KeyboardInterrupt traceback while this process
    shuts them down. An ignored signal stays ignored in the processes started meanwhile (a blocked
    one does not: multiprocessing clears the mask), so SIGINT is ignored while the cluster starts.
    A Ctrl-C in those few seconds is lost; the next one stops the run (exit code 130).
    """
    import signal
    import threading

    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)


def _load_shard(
    raws: list[Raw], spec: Spec, *, eta: float, margin: float, fit_intercept: bool
) -> ShardRows:
    """A shard's partitions checked and kept as the compiled engine's arrays (on its worker)."""
    from perceptronlab.distributed.shard import load_shard
    from perceptronlab.distributed.sources import finalize

    return load_shard(
        [finalize(raw, spec) for raw in raws], eta=eta, margin=margin, fit_intercept=fit_intercept
    )


def fit(
    X: DataSource,
    y: ArrayLike | None = None,
    *,
    client: Client | str | None = None,
    epoch_retries: int = 2,
    **options: Unpack[MixingOptions],
) -> MixedPerceptron:
    r"""Train a perceptron by iterative parameter mixing on a Dask cluster.

    Every epoch each shard runs one perceptron sweep from the current (w, b) and returns its
    weights and mistake count :math:`k_i`; the new weights are their mix, uniform
    (:math:`\tfrac1S\sum_i w_i`) or weighted (:math:`\sum_i \tfrac{k_i}{\sum_j k_j} w_i`). An epoch
    without a mistake on any shard ends the run (converged; the weights are kept as they are, which
    is also the weighted mixing's answer to 0/0). McDonald, Hall & Mann (2010), "Distributed
    training strategies for the structured perceptron", NAACL.

    Parameters
    ----------
    X : a row-chunked dask array (with a dask ``y``), a dask DataFrame with a label column, or a
        path, directory or glob of Parquet, CSV or LIBSVM files (the files must be readable by
        every worker at that path). The data is read partition by partition on the workers.
    y : the labels of a dask array (any two labels; ``classes_[1]`` becomes +1).
    client : a ``distributed.Client``, a scheduler address (``"tcp://scheduler:8786"``), or None:
        the running client if there is one, else a ``LocalCluster`` of worker processes that is
        closed afterwards.
    mixing : "uniform" or "weighted".
    max_epochs : the most epochs; the run stops earlier at an epoch without a mistake.
    eta, margin, fit_intercept : as in :func:`perceptronlab.perceptron`.
    averaged : if True, the model's weights are the mean of the mixed weights over all epochs
        (an averaged-perceptron flavour of mixing, for generalisation; they need not separate the
        training data even when the run converged). ``converged`` and ``history`` describe the
        non-averaged run either way; ``final_w_`` holds its last weights.
    seed : None sweeps every shard in data order (deterministic; a repeated start-of-epoch w then
        proves the run cycles). An integer permutes each shard's partitions and rows every epoch
        from ``(seed, epoch, shard)``, reproducibly on any cluster.
    callback : called on the client with an :class:`~perceptronlab.distributed.EpochInfo` after every
        epoch; return True to stop.
    label : the label column of DataFrame/Parquet/CSV data (default: the last column).
    shards : how many shards S (consecutive runs of partitions); default one per partition. The
        result depends on the shards, never on the number of workers.
    blocksize : bytes per CSV/LIBSVM partition.
    epoch_retries : how often an epoch is submitted again after the scheduler gave up on a shard.

    Returns
    -------
    MixedPerceptron
        ``coef_``, ``intercept_``, ``classes_``, ``predict`` (dask in, dask out), ``history``
        (mistakes per shard per epoch), ``converged``.

    Raises
    ------
    ShardError
        A shard's sweep kept failing (its workers died); no weights are returned.

    Examples
    --------
    >>> import numpy as np, dask.array as da
    >>> from distributed import Client
    >>> from perceptronlab.distributed import fit
    >>> X = da.from_array(np.array([[1., 0], [1, 1], [0, 1], [2, 0]]), chunks=(2, 2))
    >>> y = da.from_array(np.array([1, -1, -1, 1]), chunks=2)
    >>> with Client(processes=False, n_workers=1, dashboard_address=":0") as client:
    ...     model = fit(X, y, client=client)
    >>> model.converged, model.history.tolist(), model.predict(np.array([[3., 0]])).tolist()
    (True, [[2, 2], [1, 0], [0, 0]], [1])
    """
    settings, source = open_run("fit", X, y, options, MixingOptions)
    epoch_retries = int(epoch_retries)
    groups = plan_shards(len(source), options.get("shards"))
    token = uuid.uuid4().hex[:10]
    with connect(client) as cl:
        data = _load_shards(cl, source, groups, settings, token)
        sweep_all = _ClusterSweep(cl, data, source, groups, settings.seed, epoch_retries, token)
        try:
            training = settings.run(sweep_all, source.n_features, options.get("callback"))
        finally:
            for future in data:
                future.release()
    return settings.model(training, source, groups, warn=options.get("warn", True))


def _load_shards(
    cl: Client, source: Source, groups: list[list[int]], settings: Settings, token: str
) -> list[Future[Any]]:
    """Read and check the partitions on the workers, learn the spec from their summaries, and keep
    each shard in worker memory as the compiled engine's arrays; the shards' futures, loaded."""
    from perceptronlab.distributed.sources import summarize

    raws = cl.compute([source.raw_task(i) for i in range(len(source))])
    summaries = cl.gather(cl.map(summarize, raws, pure=False))
    source.learn(summaries)
    data = [
        cl.submit(
            _load_shard,
            [raws[i] for i in group],
            source.spec,
            eta=settings.eta,
            margin=settings.margin,
            fit_intercept=settings.fit_intercept,
            key=f"perceptronlab-shard-{token}-{s}",
        )
        for s, group in enumerate(groups)
    ]
    with cl.as_current():
        _need_distributed().wait(data)
    del raws  # the shards hold the data now; their lineage stays with the scheduler
    return data


class _ClusterSweep:
    """``sweep_all(epoch, w, b)`` on the cluster: every shard swept where its data lives, the epoch
    submitted again (up to ``epoch_retries`` times) when a worker died, :class:`ShardError` when a
    sweep failed or every attempt lost its worker."""

    def __init__(
        self,
        client: Client,
        data: list[Future[Any]],
        source: Source,
        groups: list[list[int]],
        seed: int | None,
        epoch_retries: int,
        token: str,
    ) -> None:
        self.client, self.data, self.placement = client, data, _Placement(client, data)
        self.source, self.groups, self.seed = source, groups, seed
        self.epoch_retries, self.token = epoch_retries, token

    def _submit(
        self,
        shards: list[int],
        where: str | None,
        *,
        epoch: int,
        w: Float64Array,
        b: float,
        attempt: int,
    ) -> Future[Any]:
        # w travels inside each worker's task (one copy per worker an epoch): measured on 2
        # workers, that beat client.scatter(w, broadcast=True) at d = 100 (19.0 against
        # 22.4 ms an epoch's round trip), 10,000 (20.2 / 22.3) and 1,000,000 (43.6 / 48.7)
        return self.client.submit(
            sweep_shards,
            [self.data[s] for s in shards],
            w,
            b,
            [shard_seed(self.seed, epoch, s) for s in shards],
            key=f"perceptronlab-sweep-{self.token}-e{epoch}-{_shards_label(shards)}-a{attempt}",
            workers=None if where is None else [where],
            allow_other_workers=False,
        )

    def __call__(self, epoch: int, w: Float64Array, b: float) -> list[ShardResult]:
        lost: tuple[str, str, BaseException] | None = None
        for attempt in range(self.epoch_retries + 1):
            submit = functools.partial(self._submit, epoch=epoch, w=w, b=b, attempt=attempt)
            try:
                return _run_epoch(self.client, self.placement, submit)
            except _Lost as exc:
                shards, cause = exc.args
                self.placement.forget()  # a worker died: where the shards live is asked again
                them = "them" if shards is not None and len(shards) > 1 else "it"
                lost = (_shards_named(self.source, self.groups, shards), them, cause)
            except _Failed as exc:
                shards, cause = exc.args
                raise ShardError(
                    f"{_shards_named(self.source, self.groups, shards)} failed in epoch {epoch}: "
                    f"{type(cause).__name__}: {cause}"
                ) from cause
        assert lost is not None  # every attempt lost its worker (a failure raised above)
        where, them, cause = lost
        raise ShardError(
            f"{where} could not be swept in epoch {epoch}: the worker sweeping {them} died in each "
            f"of {self.epoch_retries + 1} attempt(s) ({type(cause).__name__}: {cause}). No weights "
            "are returned. Check the workers' memory limits and logs, then run again."
        ) from cause


class _Lost(Exception):
    """(shards, cause): the worker sweeping these shards died; the epoch may be submitted again."""


class _Failed(Exception):
    """(shards, cause): a shard's sweep raised; submitting it again would fail the same way."""


#: seconds between checks that the workers holding the shards are still alive
POLL_SECONDS = 0.5


class _Placement:
    """Which worker holds each shard, grouped into one sweep task per worker.

    Asked of the scheduler (``who_has``) once after loading, and again only when it may have
    changed: after a worker died (:meth:`forget`), or after an epoch that swept a shard with no
    holder (its data recomputed from lineage, wherever the scheduler chose).
    """

    def __init__(self, client: Client, data: list[Future[Any]]) -> None:
        self.client, self.data = client, data
        self._tasks: list[tuple[list[int], str | None]] | None = None

    def tasks(self) -> list[tuple[list[int], str | None]]:
        """``(shards, worker)`` per task: a worker's shards in shard order; a shard without a
        holder alone, with ``worker`` None (unpinned)."""
        if self._tasks is None:
            holders = self.client.who_has(self.data)
            by_worker: dict[str, list[int]] = {}
            unheld: list[list[int]] = []
            for s, shard in enumerate(self.data):
                where = sorted(holders.get(shard.key, ()))
                if where:
                    by_worker.setdefault(where[0], []).append(s)
                else:
                    unheld.append([s])
            self._tasks = [(shards, where) for where, shards in by_worker.items()]
            self._tasks += [(shards, None) for shards in unheld]
        return self._tasks

    def swept(self) -> None:
        """An epoch finished: a shard swept unpinned has a holder now, to be asked next epoch."""
        if self._tasks is not None and any(where is None for _, where in self._tasks):
            self._tasks = None

    def forget(self) -> None:
        self._tasks = None


def _run_epoch(
    client: Client,
    placement: _Placement,
    submit: Callable[[list[int], str | None], Future[Any]],
) -> list[ShardResult]:
    """Sweep every shard on the worker that holds its data; the shards' results in shard order.

    One task per worker sweeps the shards it holds, pinned there (strict restrictions, so work
    stealing never moves a shard's data between epochs). A pinned task cannot move when its worker
    dies, so the workers are polled while the epoch runs and a dead one raises :class:`_Lost`; a
    shard whose data is being recomputed after a loss is submitted alone, unpinned.
    """
    import distributed

    tasks = placement.tasks()
    futures = [submit(shards, where) for shards, where in tasks]
    try:
        with client.as_current():
            while True:
                try:
                    distributed.wait(futures, timeout=POLL_SECONDS)
                    break
                except TimeoutError:
                    alive = set(client.scheduler_info(n_workers=-1)["workers"])
                    for future, (shards, where) in zip(futures, tasks, strict=True):
                        if where is not None and not future.done() and where not in alive:
                            raise _Lost(
                                shards,
                                RuntimeError(
                                    f"the worker {where} holding {_shards_phrase(shards)} died "
                                    "during the sweep"
                                ),
                            ) from None
        try:
            gathered: list[list[ShardResult]] = client.gather(futures)
        except Exception as exc:  # noqa: BLE001 - sorted into lost workers and real failures
            failed, cause = _first_failure(futures, tasks, exc)
            raise (_Lost if _worker_lost(cause) else _Failed)(failed, cause) from exc
    except BaseException:
        for future in futures:
            future.cancel()
        raise
    results: list[ShardResult] = [None] * len(placement.data)  # type: ignore[list-item]  # all set below
    for (shards, _), swept in zip(tasks, gathered, strict=True):
        for s, result in zip(shards, swept, strict=True):
            results[s] = result
    placement.swept()
    return results


def _first_failure(
    futures: list[Future[Any]], tasks: list[tuple[list[int], str | None]], exc: BaseException
) -> tuple[list[int] | None, BaseException]:
    """(shards, exception) of the first failed sweep task: the one shard whose sweep raised, or the
    task's shards when its worker was lost; (None, exc) if no future says which."""
    from concurrent.futures import CancelledError

    from perceptronlab.distributed.shard import ShardSweepError

    for future, (shards, _) in zip(futures, tasks, strict=True):
        if future.status == "error":
            cause = future.exception()
            if isinstance(cause, ShardSweepError):
                position, inner = cause.args
                return [shards[position]], inner
            return shards, cause
        if future.status == "cancelled":
            return shards, CancelledError(f"the task {future.key} was cancelled")
    return None, exc


def _shards_label(shards: list[int]) -> str:
    """The shards of a sweep task in its key: ``s0.2.5`` (the first 16, then how many more)."""
    label = "s" + ".".join(str(s) for s in shards[:16])
    return label if len(shards) <= 16 else f"{label}.and{len(shards) - 16}more"


def _shards_phrase(shards: list[int]) -> str:
    return f"shard {shards[0]}" if len(shards) == 1 else f"shards {', '.join(map(str, shards))}"


def _shards_named(source: Source, groups: list[list[int]], shards: list[int] | None) -> str:
    """'Shard 1 (its files)', or 'Shards 0 (...), 1 (...)' for the shards of one lost worker."""
    if shards is None:
        return "a shard"
    named = ", ".join(f"{s} ({_shard_name(source, groups[s])})" for s in shards)
    return f"Shard {named}" if len(shards) == 1 else f"Shards {named}"


def _worker_lost(exc: BaseException) -> bool:
    from concurrent.futures import CancelledError

    from distributed.comm.core import CommClosedError
    from distributed.scheduler import KilledWorker

    return isinstance(exc, KilledWorker | CancelledError | CommClosedError | OSError)


def _shard_name(source: Source, group: list[int]) -> str:
    first, last = source.describe(group[0]), source.describe(group[-1])
    return first if first == last else f"{first} to {last}"


def train_from_cli(
    data: str | os.PathLike[str],
    *,
    scheduler: str | None = None,
    shards: int | None = None,
    stream: bool = False,
    options: dict[str, Any] | None = None,
    quiet: bool = False,
) -> MixedPerceptron:
    """What ``perceptronlab train DATA --dask/--stream`` runs: train, and report the mixing on stderr.

    Parameters
    ----------
    data : a path, directory or glob of Parquet, CSV or LIBSVM files.
    scheduler : a Dask scheduler address; None starts a local cluster (``--dask`` only).
    shards : the number of shards S (``--dask``; default one per partition).
    stream : out of core on this machine instead of Dask (one partition in memory).
    options : the ``train`` command's options: ``eta``, ``fit_intercept``, ``max_sweeps`` (the most
        epochs; default 100), ``margin``, ``label``, ``order`` (None/"cyclic", or "shuffle" with
        ``seed``), ``out`` (a model JSON file to write); ``algorithm`` must be "perceptron",
        ``exact`` False and ``max_updates`` None. Missing keys take the defaults.
    quiet : no progress bar or status lines.

    Returns
    -------
    MixedPerceptron
        It also has the face of a :class:`perceptronlab.Run` (``mistakes``, ``sweeps``,
        ``updates_per_sweep``, ...) for the command's report.
    """
    from rich.console import Console

    from perceptronlab.distributed.stream import stream_fit

    options = {k: val for k, val in dict(options or {}).items() if val is not None}
    kwargs = _cli_kwargs(options, "--stream" if stream else "--dask")
    data = str(data)
    errors = Console(stderr=True, highlight=False)
    if stream:
        if scheduler is not None or shards is not None:
            raise v.fail(
                "--stream",
                "no --scheduler or --shards (streaming runs on this machine, one shard)",
                "--scheduler/--shards",
                "Drop them, or use --dask instead of --stream.",
            )
        model = stream_fit(data, progress=not quiet, **kwargs)
    else:
        if not quiet:
            errors.print(
                f"Training on {scheduler or 'a local Dask cluster'} by iterative parameter mixing ..."
            )
        model = fit(data, client=scheduler, shards=shards, **kwargs)
    if not quiet:
        errors.print(model.summary())
    if options.get("out"):
        from perceptronlab.io import save_model

        save_model(model, options["out"])
    return model


#: the ``train`` command's options that :func:`train_from_cli` reads (``check`` is pocket's,
#: refused with the algorithm)
_CLI_OPTIONS = {
    "eta",
    "fit_intercept",
    "max_sweeps",
    "margin",
    "label",
    "out",
    "algorithm",
    "order",
    "seed",
    "exact",
    "fmt",
    "check",
}


def _cli_kwargs(options: dict[str, Any], flag: str) -> dict[str, Any]:
    """The training keywords of the ``train`` command's options, each refusal one line naming
    ``flag`` (``--dask`` or ``--stream``)."""
    unknown = sorted(set(options) - _CLI_OPTIONS)
    if unknown:
        raise v.fail(
            "options",
            f"keys among {', '.join(sorted(_CLI_OPTIONS))}",
            ", ".join(unknown),
            "Drop the unknown options.",
        )
    if options.get("algorithm", "perceptron") != "perceptron":
        raise v.fail(
            f"--algorithm with {flag}",
            "perceptron",
            options["algorithm"],
            f"Drop --algorithm, or train pocket without {flag}.",
        )
    if options.get("exact"):
        raise v.fail(
            f"--exact with {flag}",
            "floating point",
            "--exact",
            f"Drop --exact (exact fractions need the data in memory), or drop {flag}.",
        )
    order = options.get("order", "cyclic")
    if order not in ("cyclic", "shuffle"):
        raise v.fail(
            f"--order with {flag}", "cyclic or shuffle", order, "Use --order cyclic or shuffle."
        )
    return dict(
        eta=options.get("eta", 1.0),
        margin=options.get("margin", 0.0),
        fit_intercept=bool(options.get("fit_intercept", False)),
        max_epochs=options.get("max_sweeps", 100),
        label=options.get("label"),
        seed=(options.get("seed") or 0) if order == "shuffle" else None,
    )
