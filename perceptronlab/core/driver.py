"""The driver: the perceptron rule's control flow, written once, over any :class:`Engine`.

An engine knows one arithmetic of the rule (exact Fractions, the NumPy twin, compiled loops) or one
update of the family (the dual form, the multiclass argmax): how to sweep, score, update and take a
snapshot. The driver owns everything else:

- the orders: "cyclic" (data order), "shuffle" (a new seeded permutation every sweep) and
  "random-mistake" (every step updates on a uniformly random example with y⟨w,x⟩ ≤ ρ₀);
- stopping: a clean sweep (converged), ``max_sweeps``, or, in cyclic order, a start-of-sweep
  weight vector that repeats (cycled: proof that the run never converges);
- overflow: weights that left the float range end the run with one message;
- the per-sweep log (updates, and the end-of-sweep weights for the error counts) and, in the
  engines (:class:`UpdateLog`), the per-update log, each within a memory budget;
- Pocket's bookkeeping (the weights with the fewest training errors so far), checked after every
  update, after every sweep, or by Gallant's ratchet (when a run of correct picks beats the pocket's);
- the per-sweep hook ``on_sweep``: called at the end of every sweep with a :class:`SweepInfo`; it
  may return True to stop after that sweep, and an exception it raises ends the run (nothing is
  returned, the engine is left as it was). Deadlines hang on it; progress displays wrap theirs in
  :class:`Chunked`, which the driver calls between chunks of sweeps (and after the last one), so a
  run of microsecond sweeps pays an integer comparison per sweep, not a call.

A new member of the family implements :class:`Engine` for its own update and calls
:func:`drive` and :func:`finish`; see ``docs/architecture.md`` for one in a page.
"""

from __future__ import annotations

import itertools
import math
import time
from collections.abc import Callable, Hashable, Iterator
from dataclasses import dataclass, field
from typing import Any, NamedTuple, Protocol, TypeVar, cast, runtime_checkable

import numpy as np

from perceptronlab.core.run import Run, Step
from perceptronlab.exceptions import overflow_error

__all__ = [
    "CHECKPOINT_BUDGET_BYTES",
    "LOG_BUDGET_BYTES",
    "Engine",
    "SteppingEngine",
    "SweepInfo",
    "OnSweep",
    "OnStage",
    "Chunked",
    "UpdateLog",
    "SweepLog",
    "Outcome",
    "Pocket",
    "drive",
    "drive_pocket",
    "finish",
    "finish_as",
]

# Keep end-of-sweep weights for the lazy ``errors_after_sweep`` up to this many bytes; past it the
# errors are counted as the sweeps end (one extra pass each) so memory stays bounded.
CHECKPOINT_BUDGET_BYTES = 256 * 2**20
# Keep each engine's per-update log (the example and ‖(w, b)‖ after each update, 16 bytes) up to this
# many bytes; past it a run keeps the log of its first updates and every count (``Run.log_complete``
# is then False). Read when an engine is made: set it before training to keep more.
LOG_BUDGET_BYTES = 256 * 2**20
_LOG_ENTRY_BYTES = 16
# single updates (stepping engines) are gathered into chunks of this many
_LOG_CHUNK = 4096


@runtime_checkable
class Engine(Protocol):
    """What the driver needs of an engine: one arithmetic of the rule, or one member's update.

    Attributes
    ----------
    n : the number of examples.
    exact : whether the arithmetic is exact (every end-of-sweep snapshot is then kept).
    steps : the step trace (a list of :class:`~perceptronlab.Step`), or None when not traced.
    overflowing, overflow_fix : what overflows and how to fix it, for the overflow message.
    indices, norms : the update log: the example's index, and ‖(w, b)‖ after it, of every update
        (of the first ones when ``log_complete`` is False: the log keeps :data:`LOG_BUDGET_BYTES`).
    n_updates, mistake_set, log_complete : every update counts: how many, a boolean per example
        (updated on at least once), and whether ``indices``/``norms`` hold them all.

    :class:`UpdateLog` implements the last five members; an engine inherits it and logs each sweep's
    updates (or each update) there.
    """

    n: int
    exact: bool
    steps: list[Step] | None
    overflowing: str
    overflow_fix: str

    def sweep(self, order: np.ndarray | None, sweep: int) -> int:
        """Check every example once (in ``order``, or data order for None) and update on each
        mistake; returns the number of updates."""

    def finite(self) -> bool:
        """Whether the weights are finite."""

    def snapshot(self) -> tuple[Any, Any]:
        """A copy of the weights (w, b) as they are now."""

    def checkpoint(self) -> tuple[Any, Any] | None:
        """The end-of-sweep state to keep for the error count, or None to count now."""

    def errors(self, state: tuple[Any, Any] | None = None) -> int:
        """Training errors (a tie counts) of a :meth:`checkpoint` state, or of the weights now."""

    @property
    def indices(self) -> np.ndarray: ...

    @property
    def norms(self) -> np.ndarray: ...

    n_updates: int
    mistake_set: np.ndarray

    @property
    def log_complete(self) -> bool: ...


class UpdateLog:
    """An engine's update log: the example and ‖(w, b)‖ after every update, within a memory budget.

    Every update is counted (:attr:`n_updates`) and marks its example (:attr:`mistake_set`, a boolean
    per example); the per-update arrays :attr:`indices` and :attr:`norms` keep the first
    :data:`LOG_BUDGET_BYTES` worth (16 bytes an update), and :attr:`log_complete` says whether they
    hold every update. A compiled sweep writes its updates into the buffers ``_idx_buf`` and
    ``_norm_buf`` (n each) and calls :meth:`log_sweep`; an engine that updates one example at a time
    calls :meth:`log_update`.

    >>> log = UpdateLog()
    >>> log.start_log(3, budget_bytes=32)          # room for two updates
    >>> for i, norm in [(0, 1.0), (1, 1.0), (0, 1.5)]:
    ...     log.log_update(i, norm)
    >>> log.indices.tolist(), log.n_updates, log.log_complete, log.mistake_set.tolist()
    ([0, 1], 3, False, [True, True, False])
    """

    def start_log(self, n: int, *, budget_bytes: float | None = None) -> None:
        """An empty log for ``n`` examples, keeping ``budget_bytes`` of per-update arrays (default
        :data:`LOG_BUDGET_BYTES`; ``math.inf`` keeps every update)."""
        budget = LOG_BUDGET_BYTES if budget_bytes is None else budget_bytes
        self._idx_buf = np.empty(n, dtype=np.int64)
        self._norm_buf = np.empty(n)
        self.n_updates = 0
        self.mistake_set = np.zeros(n, dtype=bool)
        self.n_kept = 0
        self._room = budget // _LOG_ENTRY_BYTES if math.isfinite(budget) else math.inf
        self._most = self._room  # of updates kept
        # the kept updates: the first ``_stored`` entries of two arrays grown by doubling (up to
        # the budget), then the single updates not yet stored
        self._kept_idx = np.empty(0, dtype=np.int64)
        self._kept_norm = np.empty(0)
        self._stored = 0
        self._one_index: list[int] = []
        self._one_norm: list[float] = []

    def log_sweep(self, count: int) -> None:
        """Log the ``count`` updates a sweep wrote into ``_idx_buf`` and ``_norm_buf``."""
        if count:
            if self._one_index:
                self._flush()
            self.n_updates += count
            self.mistake_set[self._idx_buf[:count]] = True
            kept = count if count <= self._room else int(self._room)
            if kept:
                self._store(self._idx_buf[:kept], self._norm_buf[:kept])
                self._room -= kept
                self.n_kept += kept

    def log_update(self, i: int, norm: float) -> None:
        """Log one update: example ``i``, and ‖(w, b)‖ after it."""
        self.n_updates += 1
        self.mistake_set[i] = True
        if self._room >= 1:
            self._room -= 1
            self.n_kept += 1
            self._one_index.append(int(i))
            self._one_norm.append(float(norm))
            if len(self._one_index) >= _LOG_CHUNK:
                self._flush()

    def _flush(self) -> None:
        if self._one_index:
            self._store(np.array(self._one_index, dtype=np.int64), np.array(self._one_norm))
            self._one_index, self._one_norm = [], []

    def _store(self, indices: np.ndarray, norms: np.ndarray) -> None:
        """Append kept updates to the arrays, doubling them when full (never past the budget)."""
        start = self._stored
        stop = start + indices.shape[0]
        if stop > self._kept_idx.shape[0]:
            size = max(stop, 2 * self._kept_idx.shape[0], _LOG_CHUNK)
            size = int(min(size, self._most))
            for name in ("_kept_idx", "_kept_norm"):
                old = getattr(self, name)
                grown = np.empty(size, dtype=old.dtype)
                grown[:start] = old[:start]
                setattr(self, name, grown)
        self._kept_idx[start:stop] = indices
        self._kept_norm[start:stop] = norms
        self._stored = stop

    @property
    def log_complete(self) -> bool:
        return self.n_kept == self.n_updates

    @property
    def indices(self) -> np.ndarray:
        self._flush()
        return self._kept_idx[: self._stored].copy()

    @property
    def norms(self) -> np.ndarray:
        self._flush()
        return self._kept_norm[: self._stored].copy()


@runtime_checkable
class SteppingEngine(Engine, Protocol):
    """An engine that can also be stepped one update at a time (random-mistake order, Pocket) and
    whose state can be keyed (the cycle proof) and set (resuming a run)."""

    def margins(self) -> np.ndarray:
        """y_i(⟨w, x_i⟩ + b) for every example, with the weights now."""

    def update(self, i: int, sweep: int, score: Any) -> None:
        """The rule's update on example i (w ← w + η·y_i·x_i, b ← b + η·y_i with an intercept);
        ``score`` is its y⟨w,x⟩ before, for the trace."""

    def restore(self, w: Any, b: Any) -> None:
        """Set the weights."""

    def key(self) -> Hashable:
        """A value equal for equal weights (for the cycle proof)."""

    def walk(
        self, picks: np.ndarray, start: int, run: int, target: int, updates_left: int, sweep: int
    ) -> tuple[int, int, int, bool]:
        """Gallant's ratchet's walk: check the examples ``picks[start:]`` (at most n) in turn; a
        mistake updates and sets ``run`` to 0, a correct pick adds one to it. Stop after the pick that
        makes the run equal ``target``, after the update that makes ``updates_left`` updates, or at the
        end. Returns (the position after the last pick checked, run, updates, whether the run reached
        ``target``)."""

    def errors_up_to(self, limit: int) -> int:
        """Training errors of the weights now, counted until ``limit`` are found: the count if it is
        below ``limit``, else ``limit`` (the ratchet only needs to know whether they are fewer)."""


class SweepInfo(NamedTuple):
    """What the per-sweep hook receives: the sweep just ended, its updates, and ``total_updates``,
    the updates of the whole run so far (``mistakes`` is its former name, still read by some hooks)."""

    sweep: int
    updates: int
    total_updates: int


OnSweep = Callable[[SweepInfo], Any]

#: The progress of a long function made of stages (``analyze``, the report): ``on_stage(name,
#: total)`` announces a stage (``total``: its sweep limit, or None when it has no sweeps) and
#: returns the per-sweep hook to pass to that stage's run (or None). A stage ends where the next
#: one starts, or where the function returns.
OnStage = Callable[[str, "int | None"], "OnSweep | None"]


class Chunked:
    """An ``on_sweep`` hook for progress, called between chunks of sweeps rather than after each one.

    Pass ``Chunked(hook)`` as ``on_sweep``: the driver counts the sweeps and calls
    ``hook(SweepInfo)`` when a chunk ends, doubling the chunk while the calls come less than
    ``interval`` seconds apart (halving it when they come more than four intervals apart), and once
    more after the last sweep of the run (that call's answer is not asked). A run of microsecond
    sweeps then pays one comparison per sweep and one call about every ``interval`` seconds. The
    hook may return True to stop the run where its chunk ends.

    >>> from perceptronlab import perceptron
    >>> seen = []
    >>> run = perceptron([[1, 0], [0, 1], [1, 1]], [1, 1, -1], order="shuffle", seed=0, max_sweeps=50,
    ...                  warn=False, on_sweep=Chunked(lambda info: seen.append(info.sweep), interval=60))
    >>> seen, run.sweeps        # sweeps 1, 2, 4, 8, 16, 32 end chunks; 50 is the last
    ([1, 2, 4, 8, 16, 32, 50], 50)
    """

    __slots__ = ("hook", "interval")

    def __init__(self, hook: OnSweep, interval: float = 0.1):
        self.hook, self.interval = hook, float(interval)


class SweepLog:
    """Per-sweep records: updates, end-of-sweep checkpoints (or their error counts), the hook."""

    def __init__(self, on_sweep: OnSweep | Chunked | None = None, record_errors: bool = True):
        self.record_errors = record_errors
        self.updates_per_sweep: list[int] = []
        self.checkpoints: dict[int, tuple[Any, Any]] = {}
        self.errors_known: dict[int, int] = {}
        self.bytes = 0
        self.mistakes = 0
        self.on_sweep: OnSweep | None
        self._interval: float | None
        if isinstance(on_sweep, Chunked):
            self.on_sweep, self._interval = on_sweep.hook, on_sweep.interval
        else:
            self.on_sweep, self._interval = on_sweep, None
        self._chunk, self._due = 1, 0
        self._called: float | None = None
        self._pending, self._pending_updates = 0, 0  # the last sweep not yet told to a chunked hook

    def end_sweep(self, sweep: int, updates: int, engine: Engine) -> bool:
        """Record the sweep; returns True when the hook asks to stop."""
        self.updates_per_sweep.append(updates)
        self.mistakes += updates
        if not engine.finite():
            raise overflow_error(
                f"during sweep {sweep}", what=engine.overflowing, fix=engine.overflow_fix
            )
        if self.record_errors:
            state = engine.checkpoint()
            if state is None:
                self.errors_known[sweep] = engine.errors(state)
            else:
                w = state[0]
                size = w.nbytes if type(w) is np.ndarray else np.asarray(w).nbytes
                if engine.exact or self.bytes + size <= CHECKPOINT_BUDGET_BYTES:
                    self.checkpoints[sweep] = state
                    self.bytes += size
                else:
                    self.errors_known[sweep] = engine.errors(state)
        if self.on_sweep is None:
            return False
        if self._interval is not None:
            if sweep < self._due:
                self._pending, self._pending_updates = sweep, updates
                return False
            self._schedule(sweep)
        return self.on_sweep(SweepInfo(sweep, updates, self.mistakes)) is True

    def _schedule(self, sweep: int) -> None:
        """The next chunk of a :class:`Chunked` hook: double or halve it to keep calls ``interval`` apart."""
        now = time.monotonic()
        interval = cast(float, self._interval)  # scheduled for a Chunked hook only
        if self._called is not None:
            apart = now - self._called
            if apart < interval:
                self._chunk *= 2
            elif apart > 4 * interval and self._chunk > 1:
                self._chunk //= 2
        self._called, self._due, self._pending = now, sweep + self._chunk, 0

    def flush(self) -> None:
        """Tell a :class:`Chunked` hook about the run's last sweep, if its chunk had not ended."""
        if self._interval is not None and self._pending and self.on_sweep is not None:
            sweep, self._pending = self._pending, 0
            self.on_sweep(SweepInfo(sweep, self._pending_updates, self.mistakes))


@dataclass
class Pocket:
    """The weights with the fewest training errors seen (Gallant 1990), and the count after each sweep.

    ``run`` is, for the ratchet, the run of consecutive correct picks the pocket's weights had when
    they were put in the pocket (0 for a pocket that starts, or goes on, from elsewhere).
    """

    w: Any
    b: Any
    errors: int
    history: list[int] = field(default_factory=list)
    run: int = 0

    def offer(self, engine: Engine, errors: int, run: int = 0) -> bool:
        """Keep the engine's weights if they make fewer errors; returns whether they were kept."""
        if errors < self.errors:
            self.w, self.b = engine.snapshot()
            self.errors = errors
            self.run = run
            return True
        return False


@dataclass
class Outcome:
    """How a driven run ended, and its log."""

    log: SweepLog
    converged: bool = False
    cycled: bool = False
    stopped: bool = False  # the per-sweep hook asked to stop
    pocket: Pocket | None = None


def _permutation(order: str, rng, n: int):
    return None if order == "cyclic" else rng.permutation(n)


def _picks(order: str, rng, n: int) -> np.ndarray:
    """One sweep of the ratchet's picks: n examples, uniformly at random with replacement
    (order "random-mistake", Gallant's), a new permutation ("shuffle") or data order ("cyclic")."""
    if order == "random-mistake":
        return rng.integers(0, n, size=n, dtype=np.int64)
    return (
        np.arange(n, dtype=np.int64) if order == "cyclic" else rng.permutation(n).astype(np.int64)
    )


def drive(
    engine: Engine,
    *,
    order: str = "cyclic",
    max_sweeps: int,
    seed: int | None = None,
    margin: Any = 0,
    cycles: bool | None = None,
    on_sweep: OnSweep | None = None,
    first_sweep: int = 0,
    rest_of_sweep: np.ndarray | None = None,
    record_errors: bool = True,
    stop_when_clean: bool = True,
    permutations: Iterator[np.ndarray] | None = None,
) -> Outcome:
    """Run the rule on ``engine`` until a clean sweep, a cycle, ``max_sweeps`` or the hook says stop.

    Parameters
    ----------
    order : "cyclic", "shuffle" or "random-mistake" (a :class:`SteppingEngine`; a "sweep" is then
        n updates).
    max_sweeps : the run always ends here.
    seed : seeds the orders "shuffle" and "random-mistake".
    margin : ρ₀, for the random-mistake order's choice of a mistake.
    cycles : test for a repeated start-of-sweep state (default: in cyclic order); needs ``key``.
        Learners whose result keeps changing while the iterates cycle (averages, votes) pass False.
    on_sweep : the per-sweep hook (see the module's docstring).
    first_sweep, rest_of_sweep : resume a run inside sweep ``first_sweep``: check the positions
        ``rest_of_sweep`` first (that sweep is not a full one, so it cannot converge).
    record_errors : keep the end-of-sweep states for the training-error counts (False when no
        :class:`~perceptronlab.Run` is made, or no count is possible).
    stop_when_clean : end the run at a clean sweep (the rule's stop). False leaves stopping to
        ``max_sweeps`` and the hook (scikit-learn's ``tol`` rule); ``converged`` then says whether
        the last sweep was clean.
    permutations : an explicit source of the sweeps' orders (one array of row indices per sweep,
        e.g. scikit-learn's own shuffles, :func:`perceptronlab.core.sgd.sgd_permutations`); it
        replaces ``order`` and ``seed`` (only "cyclic" may be passed with it), and cycles are not
        tested unless ``cycles`` is True.
    """
    if permutations is not None and order != "cyclic":
        raise ValueError(f"drive: permutations replace the order; got order={order!r} as well")
    log = SweepLog(on_sweep, record_errors)
    rng = np.random.default_rng(seed)
    if order == "random-mistake":
        stepping = cast(SteppingEngine, engine)  # the random-mistake order steps
        converged, stopped = _random_mistakes(stepping, log, rng, margin, max_sweeps)
        outcome = Outcome(log, converged=converged, stopped=stopped)
    else:
        if cycles is None:
            cycles = order == "cyclic" and permutations is None
        visits: Iterator[np.ndarray | None]
        if permutations is not None:
            visits = permutations
        elif order == "cyclic":  # data order: None, the same every sweep
            visits = itertools.repeat(None)
        else:
            visits = (_permutation(order, rng, engine.n) for _ in itertools.repeat(None))
        start = (first_sweep, rest_of_sweep)
        outcome = _sweeps(engine, log, visits, max_sweeps, cycles, start, stop_when_clean)
    log.flush()
    return outcome


def _sweeps(
    engine: Engine,
    log: SweepLog,
    visits: Iterator[np.ndarray | None],
    max_sweeps: int,
    cycles: bool,
    start: tuple[int, np.ndarray | None],
    stop_when_clean: bool,
) -> Outcome:
    """Sweep in the orders ``visits`` gives until a clean sweep, a cycle, ``max_sweeps`` or the
    hook's stop, from sweep ``start[0]`` (after its positions ``start[1]``, when given)."""
    seen: set = set()
    sweep, rest_of_sweep = start
    if rest_of_sweep is not None:
        engine.sweep(rest_of_sweep, sweep)
    while sweep < max_sweeps:
        sweep += 1
        if cycles:
            key = cast(SteppingEngine, engine).key()  # cycles are tested on keyed engines
            if key in seen:
                return Outcome(log, cycled=True)
            seen.add(key)
        updates = engine.sweep(next(visits), sweep)
        stop = log.end_sweep(sweep, updates, engine)
        if updates == 0 and stop_when_clean:
            return Outcome(log, converged=True)
        if stop:
            return Outcome(log, stopped=True, converged=updates == 0)
    return Outcome(log, converged=bool(log.updates_per_sweep) and log.updates_per_sweep[-1] == 0)


def _random_mistakes(
    engine: SteppingEngine, log: SweepLog, rng, margin, max_sweeps: int
) -> tuple[bool, bool]:
    """Each step updates on a uniformly random example with y⟨w,x⟩ ≤ ρ₀; n updates make a "sweep"."""
    n = engine.n
    steps = 0
    while True:
        margins = engine.margins()
        wrong = np.flatnonzero(margins <= margin)
        if wrong.shape[0] == 0 or steps == max_sweeps * n:
            if steps % n:
                log.end_sweep(steps // n + 1, steps % n, engine)
            return wrong.shape[0] == 0, False
        i = int(wrong[rng.integers(wrong.shape[0])])
        engine.update(i, steps // n + 1, margins[i])
        steps += 1
        if steps % n == 0 and log.end_sweep(steps // n, n, engine):
            return False, True


def drive_pocket(
    engine: SteppingEngine,
    *,
    order: str,
    check: str,
    max_sweeps: int,
    max_updates: int | None,
    seed: int | None = None,
    on_sweep: OnSweep | None = None,
    pocket: Pocket | None = None,
) -> Outcome:
    """Pocket (Gallant 1990): the rule's updates, keeping the weights with the fewest errors.

    ``check`` is "update" (count the errors after every update), "sweep" (after every sweep) or
    "ratchet" (Gallant's pocket algorithm with ratchet, :func:`_pocket_by_ratchet`); the run stops
    at zero errors, ``max_updates``, ``max_sweeps`` or the hook's stop. The pocket starts at w = 0
    (every example a tie, so n errors), or at ``pocket`` (a run that goes on: its weights with their
    error count on this data).
    """
    log = SweepLog(on_sweep)
    rng = np.random.default_rng(seed)
    limit = max_updates if max_updates is not None else np.iinfo(np.int64).max
    if pocket is None:
        w, b = engine.snapshot()
        pocket = Pocket(w, b, engine.n)
    if check == "ratchet":
        stopped = _pocket_by_ratchet(engine, log, rng, order, max_sweeps, limit, pocket)
    elif check == "sweep" and order != "random-mistake":
        stopped = _pocket_by_sweeps(engine, log, rng, order, max_sweeps, limit, pocket)
    else:
        stopped = _pocket_by_steps(engine, log, rng, order, check, max_sweeps, limit, pocket)
    log.flush()
    return Outcome(log, converged=pocket.errors == 0, stopped=stopped, pocket=pocket)


def _pocket_by_sweeps(engine, log, rng, order, max_sweeps, limit, pocket) -> bool:
    updates = 0
    for sweep in range(1, max_sweeps + 1):
        made = engine.sweep(_permutation(order, rng, engine.n), sweep)
        updates += made
        stop = log.end_sweep(sweep, made, engine)
        pocket.offer(engine, int(np.count_nonzero(engine.margins() <= 0)))
        pocket.history.append(pocket.errors)
        if pocket.errors == 0 or made == 0 or updates >= limit:
            return False
        if stop:
            return True
    return False


def _pocket_by_ratchet(
    engine: SteppingEngine,
    log: SweepLog,
    rng,
    order: str,
    max_sweeps: int,
    limit: int,
    pocket: Pocket,
) -> bool:
    """Gallant's pocket algorithm with ratchet (Gallant 1990, §V).

    Examples are picked one at a time (:func:`_picks`: at random with replacement in order
    "random-mistake", as Gallant's; else each once a sweep, shuffled or in data order); a picked
    mistake updates the weights, a correct pick lengthens their run of consecutive correct
    classifications. When the run beats the pocket's run, the weights' training errors are counted
    (once per weight vector: they do not change until the next update; the count stops as soon as
    it reaches the pocket's) and they replace the pocket only if they make fewer errors (the
    ratchet): the pocket's error count never rises. A step costs O(d) apart from those counts
    (O(n·d) at most each).

    A sweep is n picks; ``max_sweeps`` bounds the picks (n each), ``limit`` the updates. The run
    carries over from one sweep to the next. The run stops when the pocket makes no error,
    at either limit, or when the hook asks.
    """
    n = engine.n
    if pocket.errors == 0:
        return False
    updates, run = 0, 0
    errors_now: int | None = None  # the current weights' count, once made (until the next update)
    for sweep in range(1, max_sweeps + 1):
        picks = _picks(order, rng, n)
        position, made = 0, 0
        done = False
        while position < n and not done:
            position, run, step, reached = engine.walk(
                picks, position, run, pocket.run + 1, limit - updates, sweep
            )
            made += step
            updates += step
            if step:
                errors_now = None
            if reached:
                if errors_now is None:  # exact when fewer than the pocket's, else "not fewer"
                    errors_now = engine.errors_up_to(pocket.errors)
                pocket.offer(engine, errors_now, run)
            done = pocket.errors == 0 or updates >= limit
        stop = log.end_sweep(sweep, made, engine)
        pocket.history.append(pocket.errors)
        if done:
            return False
        if stop:
            return True
    return False


def _pocket_by_steps(engine, log, rng, order, check, max_sweeps, limit, pocket) -> bool:
    """Update one example at a time with the scores of all examples kept current (one pass each)."""
    n = engine.n
    margin = 0  # Pocket's updates are the plain perceptron's
    updates, sweep, made, position = 0, 1, 0, 0
    permutation = None if order != "shuffle" else rng.permutation(n)
    margins = engine.margins()

    def end_sweep() -> bool:
        stop = log.end_sweep(sweep, made, engine)
        if check == "sweep":
            pocket.offer(engine, int(np.count_nonzero(margins <= 0)))
        pocket.history.append(pocket.errors)
        return stop

    while pocket.errors > 0 and updates < limit and sweep <= max_sweeps:
        if order == "random-mistake":
            wrong = np.flatnonzero(margins <= margin)
            if wrong.shape[0] == 0:
                break
            i = int(wrong[rng.integers(wrong.shape[0])])
        else:
            walk = np.arange(position, n) if permutation is None else permutation[position:]
            hits = np.flatnonzero(margins[walk] <= margin)
            if hits.shape[0] == 0:
                stop = end_sweep()
                if made == 0:
                    break
                if stop:
                    return True
                sweep, made, position = sweep + 1, 0, 0
                permutation = None if order != "shuffle" else rng.permutation(n)
                continue
            position += int(hits[0]) + 1
            i = int(walk[hits[0]])
        engine.update(i, sweep, margins[i])
        updates += 1
        made += 1
        margins = engine.margins()
        if check == "update":
            pocket.offer(engine, int(np.count_nonzero(margins <= 0)))
        if order == "random-mistake" and made == n:
            stop = end_sweep()
            sweep, made = sweep + 1, 0
            if stop:
                return True
    if made:
        end_sweep()
    return False


_R = TypeVar("_R", bound=Run)


def finish(engine: Engine, outcome: Outcome, *, run_class: type[Run] = Run, **fields: Any) -> Run:
    """The :class:`~perceptronlab.Run` (or ``run_class``) of a driven engine: ``fields`` as
    :func:`finish_as` takes them (``finish_as`` types a subclass's run as that subclass)."""
    return finish_as(engine, outcome, run_class=run_class, **fields)


def finish_as(
    engine: Engine,
    outcome: Outcome,
    *,
    algorithm: str,
    params: dict[str, Any],
    X: Any,
    signs: Any,
    classes: Any,
    run_class: type[_R],
    w: Any = None,
    b: Any = None,
    **extra: Any,
) -> _R:
    """The ``run_class`` (:class:`~perceptronlab.Run` or a subclass) of a driven engine.

    ``w``/``b`` default to the engine's weights now (Pocket passes the pocket's); ``extra`` fills
    the fields a subclass adds.
    """
    if w is None:
        w, b = engine.snapshot()
    log = outcome.log
    run = run_class(
        w=w,
        b=b,
        mistakes=int(engine.n_updates),
        sweeps=len(log.updates_per_sweep),
        converged=outcome.converged,
        cycled=outcome.cycled,
        stopped=outcome.stopped,
        mistake_indices=np.asarray(engine.indices, dtype=np.int64),
        updates_per_sweep=np.asarray(log.updates_per_sweep, dtype=np.int64),
        norms=np.asarray(engine.norms, dtype=np.float64),
        log_complete=engine.log_complete,
        mistake_set=engine.mistake_set,
        errors_after_sweep_known=log.errors_known,
        checkpoints=log.checkpoints,
        steps=engine.steps,
        algorithm=algorithm,
        params=params,
        exact=engine.exact,
        data=(X, signs),
        **extra,
    )
    run.classes = classes
    return run
