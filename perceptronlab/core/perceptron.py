"""The perceptron and Pocket: the one place where the rule's control flow lives.

w starts at 0. An example is a mistake when y(⟨w,x⟩ + b) ≤ ρ₀ (ρ₀ = 0 for the plain perceptron:
ties count). On a mistake w ← w + η·y·x (and b ← b + η·y with ``fit_intercept``), and checking goes
on. A run ends after a full sweep with no update (converged), at ``max_sweeps``, or, in cyclic order,
when a start-of-sweep weight vector repeats (cycled: proof that it never converges).
"""

from __future__ import annotations

import warnings
from fractions import Fraction
from typing import Any

import numpy as np

from perceptronlab import _validation as v
from perceptronlab.core.engines import count_errors, make_engine
from perceptronlab.core.run import Run
from perceptronlab.exceptions import CycledWarning, NotConvergedWarning, WeightOverflowError

# Keep end-of-sweep weights for the lazy ``errors_after_sweep`` up to this many bytes; past it the
# errors are counted as the sweeps end (one extra pass each) so memory stays bounded.
CHECKPOINT_BUDGET_BYTES = 256 * 2**20


class _SweepLog:
    """Per-sweep records: updates, and the end-of-sweep weights (or their error counts)."""

    def __init__(self, X, y, exact: bool):
        self.X, self.y, self.exact = X, y, exact
        self.updates_per_sweep: list[int] = []
        self.checkpoints: dict[int, tuple[Any, Any]] = {}
        self.errors_known: dict[int, int] = {}
        self.bytes = 0

    def end_sweep(self, sweep: int, updates: int, engine) -> None:
        self.updates_per_sweep.append(updates)
        if not engine.finite():
            raise WeightOverflowError(
                f"The weights overflowed during sweep {sweep}: expected finite weights, got inf or NaN. "
                "Scale the data (e.g. sklearn.preprocessing.StandardScaler or MaxAbsScaler) or lower eta.")
        w, b = engine.snapshot()
        if self.exact or self.bytes + w.nbytes <= CHECKPOINT_BUDGET_BYTES:
            self.checkpoints[sweep] = (w, b)
            self.bytes += w.nbytes
        else:
            self.errors_known[sweep] = count_errors(self.X, self.y, w, b)


def _prepare(X, y, *, eta, margin, exact, order, orders=v.ORDERS, compiled=True):
    v.check_choice("order", order, orders)
    v.check_eta(eta)
    v.check_margin(margin)
    # the compiled sweeps find NaN/inf themselves on their first pass, so no separate pass over X
    Xc, signs, classes = v.check_Xy(X, y, exact=exact, check_finite=not compiled)
    if exact:
        eta, margin = Fraction(eta), Fraction(margin)
    return Xc, signs, classes, eta, margin


def _finish(engine, log: _SweepLog, *, algorithm, params, exact, converged, cycled, X, signs, classes, **extra) -> Run:
    w, b = engine.snapshot() if "w" not in extra else (extra.pop("w"), extra.pop("b"))
    indices = np.asarray(engine.indices, dtype=np.int64)
    run = Run(
        w=w, b=b, mistakes=int(indices.shape[0]), sweeps=len(log.updates_per_sweep), converged=converged,
        cycled=cycled, mistake_indices=indices,
        updates_per_sweep=np.asarray(log.updates_per_sweep, dtype=np.int64),
        norms=np.asarray(engine.norms, dtype=np.float64), errors_after_sweep_known=log.errors_known,
        checkpoints=log.checkpoints, steps=engine.steps, algorithm=algorithm, params=params, exact=exact,
        data=(X, signs), **extra)
    run.classes = classes
    return run


def perceptron(X, y, *, eta=1.0, fit_intercept: bool = False, order: str = "cyclic", margin=0.0,
               max_sweeps: int = 1000, seed: int | None = None, exact: bool = False, trace: bool = False,
               warn: bool = True, backend: str = "compiled", n_jobs: int | None = None) -> Run:
    """Run the perceptron (Rosenblatt 1958; Novikoff 1962) from w = 0 until a clean sweep.

    Parameters
    ----------
    X : array-like (n, d), CSR matrix, or rows of ints/Fractions/decimal strings with ``exact``.
    y : any two labels; the larger (``classes[1]``) is +1.
    eta : learning rate η > 0; from w = 0 it only scales w (the mistakes are the same).
    fit_intercept : the bias trick: x is augmented with a constant 1, ``b`` is w₀ = −threshold.
    order : "cyclic" (data order, the exam worksheet), "shuffle" (a new seeded permutation every
        sweep) or "random-mistake" (each step updates on a uniformly random misclassified example;
        a "sweep" is then n updates).
    margin : ρ₀ ≥ 0; the margin perceptron updates while y⟨w,x⟩ ≤ ρ₀.
    max_sweeps : the run always ends here.
    seed : seeds the orders "shuffle" and "random-mistake".
    exact : compute with ``fractions.Fraction``; traces then match hand computation.
    trace : record every step (sweep, index, x, y, y⟨w,x⟩ before, mistake?, w after).
    n_jobs : threads for the compiled kernels (None: all cores). The result does not depend on it:
        parallel sweeps score rows with the same summation order and walk them in sequence.

    Examples
    --------
    The exam task of the seeds (three points in the plane, no offset):

    >>> from perceptronlab import perceptron
    >>> run = perceptron([[1, 0], [1, 1], [0, 1]], [1, -1, -1], exact=True, trace=True)
    >>> run.mistakes, run.sweeps, [str(v) for v in run.w]
    (5, 4, ['1', '-2'])
    """
    max_sweeps = v.check_positive_int("max_sweeps", max_sweeps, "Pass e.g. max_sweeps=1000.")
    seed = v.check_seed(seed)
    v.check_choice("backend", backend, ("compiled", "reference"))
    compiled = not (exact or trace or backend == "reference")
    Xc, signs, classes, eta, margin = _prepare(X, y, eta=eta, margin=margin, exact=exact, order=order,
                                               compiled=compiled)
    engine = make_engine(Xc, signs, exact=exact, eta=eta, margin=margin, fit_intercept=bool(fit_intercept),
                         trace=trace, backend=backend, n_jobs=n_jobs)
    rng = np.random.default_rng(seed)
    log = _SweepLog(Xc, signs, exact)
    params = dict(eta=eta, fit_intercept=bool(fit_intercept), order=order, margin=margin, max_sweeps=max_sweeps,
                  seed=seed)
    if order == "random-mistake":
        converged, cycled = _random_mistake_loop(engine, log, rng, margin, max_sweeps), False
    else:
        converged, cycled = _sweep_loop(engine, log, rng, order, max_sweeps)
    run = _finish(engine, log, algorithm="perceptron", params=params, exact=exact, converged=converged,
                  cycled=cycled, X=Xc, signs=signs, classes=classes)
    if warn and cycled:
        warnings.warn(f"The weights at the start of sweep {run.sweeps + 1} repeat an earlier sweep's: the cyclic "
                      "perceptron will never converge on this data. Use perceptronlab.pocket for the best "
                      "weights, or perceptronlab.separable(X, y) to confirm.", CycledWarning, stacklevel=2)
    elif warn and not converged:
        warnings.warn(f"No clean sweep within max_sweeps={max_sweeps} ({run.mistakes} mistakes). The data may "
                      "not be separable (check perceptronlab.separable(X, y)); raise max_sweeps or use "
                      "perceptronlab.pocket.", NotConvergedWarning, stacklevel=2)
    return run


def _sweep_loop(engine, log: _SweepLog, rng, order: str, max_sweeps: int) -> tuple[bool, bool]:
    seen: set = set()
    for sweep in range(1, max_sweeps + 1):
        if order == "cyclic":
            key = engine.key()
            if key in seen:
                return False, True
            seen.add(key)
        permutation = None if order == "cyclic" else rng.permutation(engine.n)
        updates = engine.sweep(permutation, sweep)
        log.end_sweep(sweep, updates, engine)
        if updates == 0:
            return True, False
    return False, False


def _random_mistake_loop(engine, log: _SweepLog, rng, margin, max_sweeps: int) -> bool:
    """Each step updates on a uniformly random example with y⟨w,x⟩ ≤ ρ₀; n updates make a "sweep"."""
    n = engine.n
    steps = 0
    while True:
        margins = engine.margins()
        wrong = np.flatnonzero(margins <= margin)
        if wrong.shape[0] == 0 or steps == max_sweeps * n:
            if steps % n:
                log.end_sweep(steps // n + 1, steps % n, engine)
            return wrong.shape[0] == 0
        i = int(wrong[rng.integers(wrong.shape[0])])
        engine.update(i, steps // n + 1, margins[i])
        steps += 1
        if steps % n == 0:
            log.end_sweep(steps // n, n, engine)


def pocket(X, y, *, eta=1.0, fit_intercept: bool = False, order: str = "random-mistake", check: str = "update",
           max_updates: int | None = None, max_sweeps: int = 100, seed: int | None = None, exact: bool = False,
           trace: bool = False, n_jobs: int | None = None) -> Run:
    """The Pocket algorithm (Gallant 1990): perceptron updates, keeping the weights with fewest errors.

    Training errors are counted as y(⟨w,x⟩ + b) ≤ 0. The pocket starts at w = 0 (every example a
    tie, so n errors) and is replaced whenever a checked w has strictly fewer errors.

    Parameters
    ----------
    order : how the next update is chosen, as in :func:`perceptron` (default "random-mistake", as in
        the Learning From Data course).
    check : "update" checks the errors after every update (seed 002); "sweep" after every sweep
        (seed 003; in random-mistake order a sweep is n updates).
    max_updates, max_sweeps : the run stops at whichever comes first, or at zero errors.

    Returns
    -------
    Run
        ``w``, ``b`` are the pocket weights and ``pocket_errors`` their error count;
        ``pocket_history`` is the pocket's error count at the end of each sweep.

    Examples
    --------
    >>> from perceptronlab import pocket
    >>> run = pocket([[1, 1], [2, 2], [-1, -1], [1.5, 1.5]], [1, 1, -1, -1], seed=0, max_sweeps=20)
    >>> run.pocket_errors
    1
    """
    v.check_choice("check", check, v.POCKET_CHECKS)
    max_sweeps = v.check_positive_int("max_sweeps", max_sweeps, "Pass e.g. max_sweeps=100.")
    max_updates = v.check_optional_positive_int("max_updates", max_updates, "Pass e.g. max_updates=10000 or None.")
    seed = v.check_seed(seed)
    Xc, signs, classes, eta, margin = _prepare(X, y, eta=eta, margin=0, exact=exact, order=order,
                                               compiled=not (exact or trace))
    engine = make_engine(Xc, signs, exact=exact, eta=eta, margin=margin, fit_intercept=bool(fit_intercept),
                         trace=trace, n_jobs=n_jobs)
    rng = np.random.default_rng(seed)
    log = _SweepLog(Xc, signs, exact)
    params = dict(eta=eta, fit_intercept=bool(fit_intercept), order=order, check=check, max_updates=max_updates,
                  max_sweeps=max_sweeps, seed=seed)
    limit = max_updates if max_updates is not None else np.iinfo(np.int64).max
    pocket_state = _Pocket(engine, len(Xc) if exact else Xc.shape[0])
    if check == "sweep" and order != "random-mistake":
        _pocket_by_sweeps(engine, log, rng, order, max_sweeps, limit, pocket_state)
    else:
        _pocket_by_steps(engine, log, rng, order, check, margin, max_sweeps, limit, pocket_state)
    w, b = pocket_state.w, pocket_state.b
    return _finish(engine, log, algorithm="pocket", params=params, exact=exact, converged=pocket_state.errors == 0,
                   cycled=False, X=Xc, signs=signs, classes=classes, w=w, b=b, pocket_errors=pocket_state.errors,
                   pocket_history=np.asarray(pocket_state.history, dtype=np.int64))


class _Pocket:
    def __init__(self, engine, n):
        self.w, self.b = engine.snapshot()
        self.errors = n
        self.history: list[int] = []

    def offer(self, engine, errors: int) -> None:
        if errors < self.errors:
            self.w, self.b = engine.snapshot()
            self.errors = errors


def _pocket_by_sweeps(engine, log, rng, order, max_sweeps, limit, pocket_state) -> None:
    updates = 0
    for sweep in range(1, max_sweeps + 1):
        permutation = None if order == "cyclic" else rng.permutation(engine.n)
        made = engine.sweep(permutation, sweep)
        updates += made
        log.end_sweep(sweep, made, engine)
        pocket_state.offer(engine, int(np.count_nonzero(engine.margins() <= 0)))
        pocket_state.history.append(pocket_state.errors)
        if pocket_state.errors == 0 or made == 0 or updates >= limit:
            return


def _pocket_by_steps(engine, log, rng, order, check, margin, max_sweeps, limit, pocket_state) -> None:
    """Update one example at a time with the scores of all examples kept current (one pass each)."""
    n = engine.n
    updates, sweep, made, position = 0, 1, 0, 0
    permutation = None if order != "shuffle" else rng.permutation(n)
    margins = engine.margins()
    while pocket_state.errors > 0 and updates < limit and sweep <= max_sweeps:
        if order == "random-mistake":
            wrong = np.flatnonzero(margins <= margin)
            if wrong.shape[0] == 0:
                break
            i = int(wrong[rng.integers(wrong.shape[0])])
        else:
            walk = np.arange(position, n) if permutation is None else permutation[position:]
            hits = np.flatnonzero(margins[walk] <= margin)
            if hits.shape[0] == 0:
                log.end_sweep(sweep, made, engine)
                if check == "sweep":
                    pocket_state.offer(engine, int(np.count_nonzero(margins <= 0)))
                pocket_state.history.append(pocket_state.errors)
                if made == 0:
                    break
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
            pocket_state.offer(engine, int(np.count_nonzero(margins <= 0)))
        if order == "random-mistake" and made == n:
            log.end_sweep(sweep, made, engine)
            if check == "sweep":
                pocket_state.offer(engine, int(np.count_nonzero(margins <= 0)))
            pocket_state.history.append(pocket_state.errors)
            sweep, made = sweep + 1, 0
    if made:
        log.end_sweep(sweep, made, engine)
        if check == "sweep":
            pocket_state.offer(engine, int(np.count_nonzero(margins <= 0)))
        pocket_state.history.append(pocket_state.errors)
