r"""``analyze``: the whole story of the lecture notes “Perceptron Mistake Bound” for one dataset,
computed, and told truthfully.

Will the perceptron converge (separability, with a proof either way), within how many mistakes
(:math:`R^2/\rho^{*2}`), how many did it actually make, what does leave-one-out say about the
test error, and, for non-separable data, what the Pocket algorithm keeps and which
Freund–Schapire bound its weights give.

The answer says what it did not settle too: a run stopped at its sweep limit is unfinished, not a
success; a test-error bound of 1 or more is vacuous; and when R²/ρ*² is huge or the run could not
finish, :attr:`Analysis.advice` says why (e.g. features in very different units) and what to do
(scale them, raise the sweep limit, or use Pocket). Every face (``perceptronlab analyze``, the
report) shows this one analysis and its one run.

By job: the data measured (:mod:`perceptronlab.theory._measure`), the advice
(:mod:`perceptronlab.theory._advice`) and the analysis told as text and dict
(:mod:`perceptronlab.theory._analysis_text`); this module runs them and keeps their public names.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from fractions import Fraction
from typing import TYPE_CHECKING, Any, cast

import numpy as np

from perceptronlab._ground import validation as v
from perceptronlab.core.driver import OnStage, OnSweep
from perceptronlab.preprocessing import Scale
from perceptronlab.theory import _bounds as bounds
from perceptronlab.theory._advice import (
    HUGE_BOUND,
    SPREAD_LIMIT,
    Advice,
    advise,
    check_setting,
    duration,
)
from perceptronlab.theory._advice import pocket_errors as pocket_errors
from perceptronlab.theory._analysis_text import analysis_dict, analysis_text, run_state
from perceptronlab.theory._common import EXACT_LIMIT, augment
from perceptronlab.theory._measure import FeatureSpread, Measured, measure
from perceptronlab.theory._measure import feature_spread as feature_spread
from perceptronlab.theory.geometry import MaxMarginResult
from perceptronlab.theory.geometry import max_margin as max_margin
from perceptronlab.theory.geometry import radius_squared as radius_squared
from perceptronlab.theory.loo import LooResult, loo_error
from perceptronlab.theory.separability import SeparabilityResult
from perceptronlab.theory.separability import separable as separable

if TYPE_CHECKING:
    from numpy.typing import ArrayLike

    from perceptronlab._ground.types import MatrixLike
    from perceptronlab.core.run import Run

__all__ = [
    "Advice",
    "Analysis",
    "FeatureSpread",
    "Measured",
    "advise",
    "analyze",
    "check_setting",
    "duration",
    "judge_run",
    "measure",
    "EXACT_LIMIT",
    "EXACT_RUN_LIMIT",
    "MAX_SWEEPS_CAP",
    "WORK_BUDGET",
    "HUGE_BOUND",
    "SPREAD_LIMIT",
    "UPDATE_CHECKED_POCKET_WORK",
]

#: Exact (Fraction) perceptron runs for exact input up to this many entries (and bounds this large).
EXACT_RUN_LIMIT = 10_000
#: The run's automatic sweep limit: enough for the bound (each unclean sweep makes a mistake),
#: at least 1000, at most this many sweeps...
MAX_SWEEPS_CAP = 100_000
#: ...and at most about this many multiply-adds (n·(d+1) a sweep): a few seconds compiled.
WORK_BUDGET = 2_000_000_000

#: The pocket checked after every update (Lin's lecture 2) scores all n rows at each of its up to 100·n
#: updates: about 100·n²·d operations. Up to n²·d of this it runs (a second at most); larger data
#: gets shuffled sweeps checked once a sweep (the notebook “The Perceptron Convergence Theorem”), linear in n.
UPDATE_CHECKED_POCKET_WORK = 2_000_000


@dataclass
class Analysis:
    r"""What :func:`analyze` found.

    Attributes
    ----------
    n, d : examples and features.
    fit_intercept : the perceptron ran with the bias trick; R, ρ* and the bound are then those of
        the augmented vectors (1, x), where Novikoff's theorem applies.
    R, R_squared : the radius (``R_squared`` exact for exact input).
    separability : :class:`SeparabilityResult` (with the certificate when not separable).
    max_margin : :class:`MaxMarginResult` or None (not separable).
    rho, rho_squared : the best margin ρ* (None when not separable).
    bound : Novikoff's :math:`R^2/\rho^{*2}` (exact for exact input), or None.
    run : the perceptron's run (cyclic order, from w = 0); the one run every face shows.
    max_sweeps : the run's sweep limit.
    ratio : mistakes / bound.
    loo : :class:`LooResult` (separable data whose run converged), else None.
    test_error_bound : :math:`R^2/\rho^{*2}/(n+1)` with this sample's R and ρ* (“Perceptron Mistake Bound”, Theorem 2).
    pocket : the Pocket run (non-separable data), else None: random-mistake updates checked after
        every update (Lin's lecture 2) while n²·d ≤ :data:`UPDATE_CHECKED_POCKET_WORK`, else shuffled
        sweeps checked after each sweep (the notebook “The Perceptron Convergence Theorem”).
    freund_schapire, freund_schapire_rho : the best :math:`(R+D)^2/\rho^2` for the pocket's weights.
    scale : the scaler the features went through first ("standard", "maxabs"), or None.
    spread : :class:`FeatureSpread` of the features as analysed, or None.
    advice : :class:`Advice` for what the numbers did not settle (empty when all is well).
    """

    n: int
    d: int
    fit_intercept: bool
    R: float
    R_squared: Fraction | float
    separability: SeparabilityResult
    max_margin: MaxMarginResult | None
    rho: float | None
    rho_squared: Fraction | float | None
    bound: Fraction | float | None
    run: Run
    ratio: float | None
    loo: LooResult | None
    test_error_bound: Fraction | float | None
    pocket: Run | None = None
    freund_schapire: float | None = None
    freund_schapire_rho: float | None = None
    max_sweeps: int = 0
    scale: Scale | None = None
    spread: FeatureSpread | None = None
    advice: list[Advice] = field(default_factory=list)

    @property
    def separable(self) -> bool:
        return bool(self.separability.separable)

    @property
    def converged(self) -> bool:
        """The run ended with a clean sweep (it did not stop at its limit or cycle)."""
        return bool(self.run.converged)

    @property
    def test_error_bound_vacuous(self) -> bool:
        """A test-error bound of 1 or more bounds a probability by 1: it says nothing."""
        return self.test_error_bound is not None and self.test_error_bound >= 1

    def to_dict(self) -> dict[str, Any]:
        """A JSON-safe dict: floats for every number, exact values also as strings ``*_exact``."""
        return analysis_dict(self)

    def run_state(self) -> str:
        """How the run ended, in words: converged, cycled, or stopped at its limit (unfinished)."""
        return run_state(self)

    def __str__(self) -> str:
        return analysis_text(self)


def _sweep_limit(bound: Any, n: int, d: int) -> int:
    """The automatic sweep limit: the bound's worth of sweeps, within the cap and the work budget."""
    enough = math.ceil(float(bound)) + 2 if math.isfinite(float(bound)) else MAX_SWEEPS_CAP
    return int(max(1000, min(enough, MAX_SWEEPS_CAP, WORK_BUDGET // max(1, n * (d + 1)))))


def judge_run(
    X: MatrixLike,
    y: ArrayLike,
    run: Any,
    *,
    fit_intercept: bool = False,
    scale: Scale | None = None,
    seconds: float | None = None,
    feature_names: list[str] | None = None,
    max_bytes: Any = None,
) -> tuple[Measured, list[Advice]]:
    """The analysis' verdict and advice for a run made elsewhere (``perceptronlab train``): the same
    :func:`measure` and :func:`advise` as :func:`analyze`, without a run of its own.

    ``X`` is the data in its own units (before ``scale``), ``run`` the run on it (scaled by ``scale``).
    """
    m = measure(X, y, fit_intercept, scale=scale, feature_names=feature_names, max_bytes=max_bytes)
    max_sweeps = int(run.params.get("max_sweeps") or run.sweeps)
    return m, _advice_for(m, y, run, max_sweeps, fit_intercept, seconds)


def _advice_for(
    m: Measured,
    y: ArrayLike,
    run: Any,
    max_sweeps: int,
    fit_intercept: bool,
    seconds: float | None = None,
) -> list[Advice]:
    """:func:`advise` on what :func:`measure` found and the run on it."""
    return advise(
        m.X_units,
        y,
        separable_data=m.separability.separable,
        bound=m.bound,
        run=run,
        max_sweeps=max_sweeps,
        spread=m.spread,
        R=m.R,
        rho=None if m.max_margin is None else float(m.max_margin.rho),
        scale=m.scale,
        fit_intercept=fit_intercept,
        seconds=seconds,
    )


def analyze(
    X: MatrixLike,
    y: ArrayLike,
    fit_intercept: bool = False,
    *,
    loo: bool = True,
    seed: int | None = 0,
    max_sweeps: int | None = None,
    scale: Scale | None = None,
    trace: bool = False,
    feature_names: list[str] | None = None,
    on_stage: OnStage | None = None,
    max_bytes: Any = None,
) -> Analysis:
    r"""Everything the theory says about the perceptron on ``(X, y)``, next to what it does.

    Computes n, d, the radius R, separability (LP, with a Gordan certificate when not separable),
    the best margin ρ* (QP), Novikoff's bound :math:`R^2/\rho^{*2}`, the actual cyclic run (mistakes,
    sweeps) and its ratio to the bound, the exact leave-one-out error and the test-error bound
    :math:`R^2/\rho^{*2}/(n+1)` (“Perceptron Mistake Bound”, Theorems 1 and 2). For non-separable data: the Pocket
    algorithm's weights (Gallant 1990) and the best Freund–Schapire bound for them (1999). What the
    numbers leave open (a run stopped at its limit, a huge bound) is said in ``advice``.

    With ``fit_intercept`` the perceptron runs on the augmented vectors (1, x) (the bias trick of
    Lin's Machine Learning Foundations, lecture 2), so R, ρ* and the bound are those of the
    augmented data: that is where the theorem
    holds for the run.

    Parameters
    ----------
    X, y : the data; exact input (ints, Fractions) gives exact R², ρ*² and bound.
    fit_intercept : bool
    loo : compute the leave-one-out error (one retraining per example of the mistake set).
    seed : seeds the Pocket run.
    max_sweeps : the run's sweep limit. Default: enough for the bound (at least 1000), at most
        :data:`MAX_SWEEPS_CAP` and :data:`WORK_BUDGET` multiply-adds; 100 for non-separable data.
    scale : "standard" or "maxabs" to scale the features first (scikit-learn's ``StandardScaler``
        or ``MaxAbsScaler``); everything is then measured on the scaled features.
    trace : record the run's worksheet steps (exact runs only: a run of exact input small enough
        to do by hand).
    feature_names : names of the features, for the advice (default "feature 1", ...).
    on_stage : progress: ``on_stage(name, total)`` is called as each stage starts and returns the
        per-sweep hook of its run (see :data:`perceptronlab.core.driver.OnStage`).
    max_bytes : the memory the dense steps (the data as floats, the linear and quadratic programs)
        may take, e.g. ``"4G"``; estimated from the shape and refused before any work. Default: half
        the memory this process can still use.

    Examples
    --------
    >>> report = analyze([[1, 0], [1, 1], [0, 1]], [1, -1, -1])
    >>> report.R_squared, report.rho_squared, report.bound, report.run.mistakes
    (Fraction(2, 1), Fraction(1, 5), Fraction(10, 1), 5)
    >>> report.test_error_bound, report.test_error_bound_vacuous, report.advice
    (Fraction(5, 2), True, [])
    """
    fit_intercept = bool(fit_intercept)
    seed = v.check_seed(seed)
    if max_sweeps is not None:
        max_sweeps = v.check_positive_int(
            "max_sweeps", max_sweeps, "Pass e.g. max_sweeps=1000, or None."
        )

    def stage(name: str, total: int | None = None) -> OnSweep | None:
        return None if on_stage is None else on_stage(name, total)

    m = measure(
        X,
        y,
        fit_intercept,
        scale=scale,
        feature_names=feature_names,
        on_stage=on_stage,
        max_bytes=max_bytes,
    )
    if m.separability.separable:
        return _analyze_separable(m, y, fit_intercept, stage, loo, max_sweeps, trace)
    return _analyze_not_separable(m, y, fit_intercept, stage, seed, max_sweeps)


#: ``stage(name, total)``: a stage of the analysis starts; returns the per-sweep hook of its run
Stage = Callable[..., "OnSweep | None"]


def _analyze_separable(
    m: Measured,
    y: ArrayLike,
    fit_intercept: bool,
    stage: Stage,
    loo: bool,
    max_sweeps: int | None,
    trace: bool,
) -> Analysis:
    """Separable data: the run against Novikoff's bound (exact for small exact input), leave-one-out
    when it converged, and the test-error bound."""
    n, d = m.Xf.shape
    # separable: the margin, ρ*² and the bound are set
    margin, rho2, bound = (
        cast(MaxMarginResult, m.max_margin),
        cast("Fraction | float", m.rho_squared),
        cast("Fraction | float", m.bound),
    )
    sweeps = _sweep_limit(bound, n, d) if max_sweeps is None else max_sweeps
    # at most `bound` Fraction updates
    exact_run = m.exact and n * d <= EXACT_RUN_LIMIT and float(bound) <= EXACT_RUN_LIMIT
    X_run = m.X if exact_run else m.Xf
    started = time.perf_counter()
    run = _perceptron_run(X_run, y, fit_intercept, stage, sweeps, exact_run, trace and exact_run)
    seconds = time.perf_counter() - started
    loo_result = None
    if loo and run.converged:
        stage("leave-one-out")
        loo_result = loo_error(
            X_run, y, fit_intercept=fit_intercept, exact=exact_run, max_sweeps=sweeps
        )
    return _analysis(
        m,
        y,
        fit_intercept,
        run,
        sweeps,
        seconds,
        max_margin=margin,
        rho=margin.rho,
        rho_squared=rho2,
        bound=bound,
        ratio=run.mistakes / float(bound),
        loo=loo_result,
        test_error_bound=bounds.test_error(m.R_squared, rho2, n, squared=True),
    )


def _analyze_not_separable(
    m: Measured,
    y: ArrayLike,
    fit_intercept: bool,
    stage: Stage,
    seed: int | None,
    max_sweeps: int | None,
) -> Analysis:
    """Non-separable data: the run that never converges, the Pocket run's weights and the best
    Freund–Schapire bound for them."""
    Xf = m.Xf
    sweeps = 100 if max_sweeps is None else max_sweeps
    run = _perceptron_run(Xf, y, fit_intercept, stage, sweeps)
    pocket_run = _pocket_run(Xf, y, fit_intercept, stage, seed)
    fs = fs_rho = None
    w_pocket = np.asarray(pocket_run.w, dtype=np.float64)
    w_aug = np.r_[float(pocket_run.b), w_pocket] if fit_intercept else w_pocket
    if np.any(w_aug) and float(m.R_squared) > 0:
        stage("Freund–Schapire bound")
        signs, _ = v.check_labels(y, Xf.shape[0])
        fs, fs_rho = bounds.best_freund_schapire(
            w_aug, augment(Xf) if fit_intercept else Xf, signs, R=m.R
        )
    # no margin, so no bound, ratio, leave-one-out or test-error bound
    nothing = ("max_margin", "rho", "rho_squared", "bound", "ratio", "loo", "test_error_bound")
    return _analysis(
        m,
        y,
        fit_intercept,
        run,
        sweeps,
        **dict.fromkeys(nothing),
        pocket=pocket_run,
        freund_schapire=fs,
        freund_schapire_rho=fs_rho,
    )


def _perceptron_run(
    X: Any,
    y: ArrayLike,
    fit_intercept: bool,
    stage: Stage,
    sweeps: int,
    exact: bool = False,
    trace: bool = False,
) -> Run:
    """The analysis' perceptron run: cyclic, from w = 0, at most ``sweeps`` sweeps, no warning."""
    from perceptronlab.core.perceptron import perceptron

    hook = stage("perceptron", sweeps)
    return perceptron(
        X,
        y,
        fit_intercept=fit_intercept,
        exact=exact,
        trace=trace,
        max_sweeps=sweeps,
        warn=False,
        on_sweep=hook,
    )


def _analysis(
    m: Measured,
    y: ArrayLike,
    fit_intercept: bool,
    run: Run,
    sweeps: int,
    seconds: float | None = None,
    **results: Any,
) -> Analysis:
    """The Analysis of what :func:`measure` found, the run on it and ``results`` (what the path for
    separable or non-separable data found), with the advice on them."""
    n, d = m.Xf.shape
    advice = _advice_for(m, y, run, sweeps, fit_intercept, seconds)
    measured = {
        name: getattr(m, name) for name in ("R", "R_squared", "separability", "scale", "spread")
    }
    return Analysis(
        n=n,
        d=d,
        fit_intercept=fit_intercept,
        run=run,
        max_sweeps=sweeps,
        advice=advice,
        **measured,
        **results,
    )


def _pocket_run(Xf: Any, y: ArrayLike, fit_intercept: bool, stage: Stage, seed: int | None) -> Run:
    """The Pocket run: checked after every update (Lin's lecture 2) while n²·d is at most
    :data:`UPDATE_CHECKED_POCKET_WORK`, else shuffled sweeps checked after each sweep."""
    from perceptronlab.core.perceptron import pocket

    n, d = Xf.shape
    if n * n * d <= UPDATE_CHECKED_POCKET_WORK:
        return pocket(Xf, y, fit_intercept=fit_intercept, seed=seed, on_sweep=stage("pocket", 100))
    return pocket(
        Xf,
        y,
        fit_intercept=fit_intercept,
        order="shuffle",
        check="sweep",
        max_sweeps=1000,
        seed=seed,
        on_sweep=stage("pocket", 1000),
    )
