"""The perceptron and Pocket: the one place where the rule's control flow lives.

w starts at 0. An example is a mistake when y(⟨w,x⟩ + b) ≤ ρ₀ (ρ₀ = 0 for the plain perceptron:
ties count). On a mistake w ← w + η·y·x (and b ← b + η·y with ``fit_intercept``), and checking goes
on. A run ends after a full sweep with no update (converged), at ``max_sweeps``, or, in cyclic order,
when a start-of-sweep weight vector repeats (cycled: proof that it never converges).
"""

from __future__ import annotations

from fractions import Fraction
from typing import TYPE_CHECKING, Any, NamedTuple, cast

import numpy as np

from perceptronlab._ground import validation as v
from perceptronlab.core.driver import OnSweep, Pocket, drive, drive_pocket, finish
from perceptronlab.core.engines import make_engine
from perceptronlab.core.run import Run
from perceptronlab.exceptions import warn as _warn

if TYPE_CHECKING:
    from numpy.typing import ArrayLike, NDArray

    from perceptronlab._ground.types import Float64Array, MatrixLike, RealLike

__all__ = ["perceptron", "pocket"]


class _Setup(NamedTuple):
    """A run's checked data, its engine and the parameters every run records first."""

    X: Any
    signs: Float64Array
    classes: NDArray[Any]
    engine: Any
    margin: Any  # ρ₀ (a Fraction in exact runs)
    params: dict[str, Any]


class _Rule(NamedTuple):
    """A run's rule settings as given: η, ρ₀, the arithmetic, the order, the intercept, the trace."""

    eta: RealLike
    margin: RealLike
    exact: bool
    order: str
    fit_intercept: bool
    trace: bool


def check_rule_settings(order: Any, eta: Any, margin: Any, orders: tuple[str, ...]) -> None:
    """The rule's settings checked, in this order (the first bad one is the one refused): the
    order (one of ``orders``), η and ρ₀. The perceptron's, Pocket's and the family's."""
    v.check_choice("order", order, orders)
    v.check_eta(eta)
    v.check_margin(margin)


def _prepare(
    X: MatrixLike, y: ArrayLike, rule: _Rule, *, compiled: bool = True, **engine_options: Any
) -> _Setup:
    """Check the rule's settings and the data, and make the engine (``engine_options``:
    :func:`~perceptronlab.core.engines.make_engine`'s ``backend``, ``n_jobs``)."""
    eta, margin, exact, order, fit_intercept, trace = rule
    check_rule_settings(order, eta, margin, v.ORDERS)
    # the compiled sweeps find NaN/inf themselves on their first pass, so no separate pass over X
    Xc, signs, classes = v.check_Xy(X, y, exact=exact, check_finite=not compiled)
    if exact:
        eta, margin = Fraction(eta), Fraction(margin)
    engine = make_engine(
        Xc,
        signs,
        exact=exact,
        eta=eta,
        margin=margin,
        fit_intercept=bool(fit_intercept),
        trace=trace,
        **engine_options,
    )
    params = dict(eta=eta, fit_intercept=bool(fit_intercept), order=order)
    return _Setup(Xc, signs, classes, engine, margin, params)


@v.seeds_names
def perceptron(  # noqa: PLR0913 (the public keyword arguments)
    X: MatrixLike,
    y: ArrayLike,
    *,
    eta: RealLike = 1.0,
    fit_intercept: bool = False,
    order: v.Order = "cyclic",
    margin: RealLike = 0.0,
    max_sweeps: int = 1000,
    seed: int | None = None,
    exact: bool = False,
    trace: bool = False,
    warn: bool = True,
    backend: v.Backend = "compiled",
    n_jobs: int | None = None,
    on_sweep: OnSweep | None = None,
) -> Run:
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
    on_sweep : called after every sweep with a :class:`~perceptronlab.core.driver.SweepInfo`
        (sweep, updates, mistakes so far); returning True stops the run there (``run.stopped``),
        an exception it raises ends the run. For progress bars and deadlines.

    Examples
    --------
    The exam task of the lecture notes (three points in the plane, no offset):

    >>> from perceptronlab import perceptron
    >>> run = perceptron([[1, 0], [1, 1], [0, 1]], [1, -1, -1], exact=True, trace=True)
    >>> run.mistakes, run.sweeps, [str(v) for v in run.w]
    (5, 4, ['1', '-2'])
    """
    max_sweeps = v.check_positive_int("max_sweeps", max_sweeps, "Pass e.g. max_sweeps=1000.")
    seed = v.check_seed(seed)
    v.check_choice("backend", backend, v.BACKENDS)
    compiled = not (exact or trace or backend == "reference")
    rule = _Rule(eta, margin, exact, order, fit_intercept, trace)
    setup = _prepare(X, y, rule, compiled=compiled, backend=backend, n_jobs=n_jobs)
    params = dict(setup.params, margin=setup.margin, max_sweeps=max_sweeps, seed=seed)
    outcome = drive(
        setup.engine,
        order=order,
        max_sweeps=max_sweeps,
        seed=seed,
        margin=setup.margin,
        on_sweep=on_sweep,
    )
    run = finish(
        setup.engine,
        outcome,
        algorithm="perceptron",
        params=params,
        X=setup.X,
        signs=setup.signs,
        classes=setup.classes,
    )
    if warn:
        _warn_unfinished(run, max_sweeps)
    return run


def _warn_unfinished(run: Run, max_sweeps: int) -> None:
    """The warning for a run that cycled, or ended without a clean sweep (not stopped by a hook)."""
    if run.cycled:
        _warn(
            "CycledWarning",
            f"The weights at the start of sweep {run.sweeps + 1} repeat an earlier sweep's: the "
            "cyclic perceptron will never converge on this data. Use perceptronlab.pocket for the best "
            "weights, or perceptronlab.separable(X, y) to confirm.",
            stacklevel=3,
        )
    elif not run.converged and not run.stopped:
        _warn(
            "NotConvergedWarning",
            f"No clean sweep within max_sweeps={max_sweeps} ({run.mistakes} mistakes). "
            "The data may not be separable (check perceptronlab.separable(X, y)); raise max_sweeps or use "
            "perceptronlab.pocket.",
            stacklevel=3,
        )


@v.seeds_names
def pocket(  # noqa: PLR0913 (the public keyword arguments)
    X: MatrixLike,
    y: ArrayLike,
    *,
    eta: RealLike = 1.0,
    fit_intercept: bool = False,
    order: v.Order = "random-mistake",
    check: v.PocketCheck = "update",
    max_updates: int | None = None,
    max_sweeps: int = 100,
    seed: int | None = None,
    exact: bool = False,
    trace: bool = False,
    n_jobs: int | None = None,
    on_sweep: OnSweep | None = None,
) -> Run:
    """The Pocket algorithm (Gallant 1990): perceptron updates, keeping the weights with fewest errors.

    Training errors are counted as y(⟨w,x⟩ + b) ≤ 0. The pocket starts at w = 0 (every example a
    tie, so n errors) and is replaced whenever a checked w has strictly fewer errors.

    Parameters
    ----------
    order : how the next update is chosen, as in :func:`perceptron` (default "random-mistake", as in
        the Learning From Data course).
    check : "update" checks the errors after every update (Lin's lecture 2); "sweep" after every sweep
        (the notebook “The Perceptron Convergence Theorem”; in random-mistake order a sweep is n
        updates); "ratchet" is Gallant's pocket
        algorithm with ratchet: examples are picked one at a time (in order "random-mistake"
        uniformly at random with replacement, as Gallant's; "shuffle" and "cyclic" pick each
        example once a sweep), a picked mistake updates, and when the current weights' run of
        correct picks beats the pocket's run their errors are counted and they replace the pocket
        only if fewer. O(d) per pick besides those counts; a sweep is then n picks.
    max_updates, max_sweeps : the run stops at whichever comes first, or at zero errors.
    on_sweep : the per-sweep hook, as in :func:`perceptron`.

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

    Gallant's ratchet, in exact arithmetic (the same picks as in float arithmetic for a seed):

    >>> run = pocket([[1, 1], [2, 2], [-1, -1], [1.5, 1.5]], [1, 1, -1, -1], check="ratchet", seed=0, exact=True)
    >>> run.pocket_errors, [str(v) for v in run.w]
    (1, ['1/2', '1/2'])
    """
    v.check_choice("check", check, v.POCKET_CHECKS)
    max_sweeps = v.check_positive_int("max_sweeps", max_sweeps, "Pass e.g. max_sweeps=100.")
    max_updates = v.check_optional_positive_int(
        "max_updates", max_updates, "Pass e.g. max_updates=10000 or None."
    )
    seed = v.check_seed(seed)
    # the ratchet's picks need not meet every row before its first count: X is checked here
    rule = _Rule(eta, 0, exact, order, fit_intercept, trace)
    setup = _prepare(X, y, rule, compiled=not (exact or trace or check == "ratchet"), n_jobs=n_jobs)
    params = dict(
        setup.params, check=check, max_updates=max_updates, max_sweeps=max_sweeps, seed=seed
    )
    outcome = drive_pocket(
        setup.engine,
        order=order,
        check=check,
        max_sweeps=max_sweeps,
        max_updates=max_updates,
        seed=seed,
        on_sweep=on_sweep,
    )
    return pocket_run(setup.engine, outcome, params, (setup.X, setup.signs, setup.classes))


def pocket_run(
    engine: Any, outcome: Any, params: dict[str, Any], data: tuple[Any, Any, NDArray[Any]]
) -> Run:
    """The Run of a driven pocket: the pocket's weights, error count and history (``data``: the
    checked X, the signs and the two classes)."""
    kept = cast(Pocket, outcome.pocket)  # drive_pocket's outcome has one
    X, signs, classes = data
    return finish(
        engine,
        outcome,
        algorithm="pocket",
        params=params,
        X=X,
        signs=signs,
        classes=classes,
        w=kept.w,
        b=kept.b,
        pocket_errors=kept.errors,
        pocket_history=np.asarray(kept.history, dtype=np.int64),
    )
