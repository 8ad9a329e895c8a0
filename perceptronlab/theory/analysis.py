r"""``analyze``: the whole story of seed 000 for one dataset, computed, and told truthfully.

Will the perceptron converge (separability, with a proof either way), within how many mistakes
(:math:`R^2/\rho^{*2}`), how many did it actually make, what does leave-one-out say about the
test error, and, for non-separable data, what the Pocket algorithm keeps and which
Freund–Schapire bound its weights give.

The answer says what it did not settle too: a run stopped at its sweep limit is unfinished, not a
success; a test-error bound of 1 or more is vacuous; and when R²/ρ*² is huge or the run could not
finish, :attr:`Analysis.advice` says why (e.g. features in very different units) and what to do
(scale them, raise the sweep limit, or use Pocket). Every face (``perceptronlab analyze``, the
report) shows this one analysis and its one run.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from fractions import Fraction
from typing import TYPE_CHECKING, Any, cast

import numpy as np

from perceptronlab._ground import validation as v
from perceptronlab._ground.numbers import format_count, format_display_vector, format_percent
from perceptronlab._ground.numbers import format_display as shown
from perceptronlab.core.driver import OnStage, OnSweep
from perceptronlab.preprocessing import Scale, describe_scaler, fit_scaler
from perceptronlab.theory import _bounds as bounds
from perceptronlab.theory._common import (
    EXACT_LIMIT,
    augment,
    exact_rows,
    float_matrix,
    is_exact_input,
)
from perceptronlab.theory.geometry import MaxMarginResult, max_margin, radius_squared
from perceptronlab.theory.loo import LooResult, loo_error
from perceptronlab.theory.separability import SeparabilityResult, separable

if TYPE_CHECKING:
    from numpy.typing import ArrayLike, NDArray

    from perceptronlab._ground.types import MatrixLike
    from perceptronlab.core.run import Run

__all__ = ["Advice", "Analysis", "FeatureSpread", "analyze", "EXACT_LIMIT", "EXACT_RUN_LIMIT", "MAX_SWEEPS_CAP",
           "WORK_BUDGET", "HUGE_BOUND", "SPREAD_LIMIT", "UPDATE_CHECKED_POCKET_WORK"]

#: Exact (Fraction) perceptron runs for exact input up to this many entries (and bounds this large).
EXACT_RUN_LIMIT = 10_000
#: The run's automatic sweep limit: enough for the bound (each unclean sweep makes a mistake),
#: at least 1000, at most this many sweeps...
MAX_SWEEPS_CAP = 100_000
#: ...and at most about this many multiply-adds (n·(d+1) a sweep): a few seconds compiled.
WORK_BUDGET = 2_000_000_000
#: a mistake bound R²/ρ*² from here on is called huge (the page says why)
HUGE_BOUND = 1_000_000
#: features whose largest |values| differ by this factor or more are in different units
SPREAD_LIMIT = 100.0


@dataclass(frozen=True)
class Advice:
    """Why a result is not what one would hope, and what to do about it.

    ``topic`` is "scale" (features in very different units), "sweeps" (the run stopped at its
    limit) or "margin" (the classes nearly touch). ``why`` and ``fix`` are sentences in the
    library's words (``scale='standard'``, ``max_sweeps=...``); the command line says them with
    its flags.
    """

    topic: str
    why: str
    fix: str

    def __str__(self) -> str:
        return f"{self.why} {self.fix}"


@dataclass(frozen=True)
class FeatureSpread:
    """How far apart the features' scales are: the largest |value| of each non-zero feature, the
    features with the largest and the smallest of them, and their ratio."""

    largest: str
    largest_value: float
    smallest: str
    smallest_value: float

    @property
    def ratio(self) -> float:
        return self.largest_value / self.smallest_value

    def __str__(self) -> str:
        return (f"{self.largest} reaches {shown(self.largest_value, 4)} while {self.smallest} stays within "
                f"{shown(self.smallest_value, 4)}")


def _equals(value: Any, digits: int = 6) -> str:
    """``= 10`` for a value shown exactly, ``≈ 3.53 × 10¹⁰`` for one shown rounded."""
    text = shown(value, digits)
    return text if text.startswith("≈") else f"= {text}"
#: The pocket checked after every update (seed 002) scores all n rows at each of its up to 100·n
#: updates: about 100·n²·d operations. Up to n²·d of this it runs (a second at most); larger data
#: gets shuffled sweeps checked once a sweep (seed 003), linear in n.
UPDATE_CHECKED_POCKET_WORK = 2_000_000


def _exact_str(value: Any) -> str | None:
    return str(value) if isinstance(value, Fraction) else None


def feature_spread(X: NDArray[Any], names: list[str] | None = None) -> FeatureSpread | None:
    """The spread of the features' scales of a float matrix (None for fewer than two non-zero features)."""
    largest = np.abs(X).max(axis=0) if X.shape[0] else np.zeros(X.shape[1])
    live = np.flatnonzero(largest > 0)
    if live.shape[0] < 2:
        return None
    top, low = int(live[np.argmax(largest[live])]), int(live[np.argmin(largest[live])])

    def name(j: int) -> str:
        return names[j] if names is not None else f"feature {j + 1}"

    return FeatureSpread(name(top), float(largest[top]), name(low), float(largest[low]))


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
    test_error_bound : :math:`R^2/\rho^{*2}/(n+1)` with this sample's R and ρ* (seed 000, Theorem 2).
    pocket : the Pocket run (non-separable data), else None: random-mistake updates checked after
        every update (seed 002) while n²·d ≤ :data:`UPDATE_CHECKED_POCKET_WORK`, else shuffled
        sweeps checked after each sweep (seed 003).
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
        run = self.run
        out: dict[str, Any] = {
            "n": self.n, "d": self.d, "fit_intercept": self.fit_intercept, "scale": self.scale,
            "R": float(self.R), "R_squared": float(self.R_squared), "R_squared_exact": _exact_str(self.R_squared),
            "separable": self.separable, "separability": self.separability.to_dict(),
            "rho": None if self.rho is None else float(self.rho),
            "rho_squared": None if self.rho_squared is None else float(self.rho_squared),
            "rho_squared_exact": _exact_str(self.rho_squared),
            "support": None if self.max_margin is None else [int(i) for i in self.max_margin.support],
            "bound": None if self.bound is None else float(self.bound), "bound_exact": _exact_str(self.bound),
            "run": {"mistakes": int(run.mistakes), "sweeps": int(run.sweeps), "max_sweeps": int(self.max_sweeps),
                    "converged": bool(run.converged), "cycled": bool(run.cycled),
                    "w": [float(value) for value in run.w], "b": float(run.b),
                    "w_exact": [str(value) for value in run.w] if run.exact else None,
                    "first_sweep_mistakes": int(run.updates_per_sweep[0]) if len(run.updates_per_sweep) else 0},
            "ratio": self.ratio,
            "loo": None if self.loo is None else self.loo.to_dict(),
            "test_error_bound": None if self.test_error_bound is None else float(self.test_error_bound),
            "test_error_bound_exact": _exact_str(self.test_error_bound),
            "test_error_bound_vacuous": self.test_error_bound_vacuous,
            "feature_spread": None if self.spread is None else {
                "largest": self.spread.largest, "largest_value": self.spread.largest_value,
                "smallest": self.spread.smallest, "smallest_value": self.spread.smallest_value,
                "ratio": self.spread.ratio},
            "advice": [{"topic": a.topic, "why": a.why, "fix": a.fix} for a in self.advice],
        }
        if self.pocket is not None:
            pocket_errors = cast(int, self.pocket.pocket_errors)  # a pocket run counts them
            out["pocket"] = {"errors": int(pocket_errors), "error_rate": pocket_errors / self.n,
                             "w": [float(value) for value in self.pocket.w], "b": float(self.pocket.b),
                             "updates": int(self.pocket.mistakes)}
            out["freund_schapire"] = {
                "bound": self.freund_schapire,
                "rho": None if self.freund_schapire_rho is None or math.isinf(self.freund_schapire_rho)
                else self.freund_schapire_rho}
        return out

    def run_state(self) -> str:
        """How the run ended, in words: converged, cycled, or stopped at its limit (unfinished)."""
        run = self.run
        if run.converged:
            return "converged (a clean sweep)"
        if run.cycled:
            return "cycled: a start-of-sweep w repeated, so it never converges"
        if self.separable:
            return (f"NOT converged: stopped at the limit of {shown(self.max_sweeps)} sweeps "
                    "(Novikoff: it would converge; the run is unfinished)")
        return f"no clean sweep in {shown(self.max_sweeps)} sweeps (not separable: it never converges)"

    def __str__(self) -> str:
        scaled = f"; features scaled first ({describe_scaler(self.scale)})" if self.scale else ""
        lines = [f"n = {self.n} examples, d = {self.d} features"
                 + (" (+ intercept: R, ρ* and the bound are of the augmented vectors (1, x))"
                    if self.fit_intercept else "") + scaled,
                 f"R {_equals(self.R)}" + (f"  (R² {_equals(self.R_squared)})"
                                           if isinstance(self.R_squared, Fraction) else ""),
                 str(self.separability)]
        run = self.run
        run_line = (f"perceptron: {format_count(run.mistakes, 'mistake')} in {format_count(run.sweeps, 'sweep')}, "
                    f"{self.run_state()}")
        if self.separable:
            rho_text = (f"ρ*² {_equals(self.rho_squared)}  (ρ* {_equals(self.rho)})"
                        if isinstance(self.rho_squared, Fraction) else f"ρ* {_equals(self.rho)}")
            lines += [rho_text, f"Novikoff bound R²/ρ*² {_equals(self.bound)}",
                      run_line + f"; {format_percent(self.ratio)} of the bound"]
            if self.loo is not None:
                lines.append(str(self.loo))
            vacuous = "  (vacuous: a bound ≥ 1 on an error probability says nothing)" \
                if self.test_error_bound_vacuous else ""
            lines.append(f"test-error bound R²/ρ*²/(n+1) {_equals(self.test_error_bound)}{vacuous}")
        else:
            lines.append(run_line)
            if self.pocket is not None:
                pocket_errors = cast(int, self.pocket.pocket_errors)  # a pocket run counts them
                lines.append(f"pocket: {pocket_errors} training errors "
                             f"({pocket_errors / self.n:.2%}); w = {format_display_vector(self.pocket.w)}"
                             + (f", b = {shown(self.pocket.b)}" if self.fit_intercept else ""))
            if self.freund_schapire is not None:
                where = ("as ρ grows without bound" if math.isinf(cast(float, self.freund_schapire_rho))
                         else f"at ρ = {shown(self.freund_schapire_rho)}")
                lines.append(f"Freund–Schapire bound for the pocket's w (one pass): (R + D)²/ρ² = "
                             f"{shown(self.freund_schapire)} {where} "
                             f"(the perceptron's first sweep: {int(run.updates_per_sweep[0])} mistakes)")
        lines += [f"why: {a.why}\nwhat to do: {a.fix}" for a in self.advice]
        return "\n".join(lines)


def _advice(*, separable_data: bool, bound: Any, run: Any, max_sweeps: int, spread: FeatureSpread | None,
            R: float, rho: float | None, scale: str | None) -> list[Advice]:
    """What the numbers did not settle, and what to do: the rules of :attr:`Analysis.advice`."""
    advice: list[Advice] = []
    huge = separable_data and bound is not None and float(bound) >= HUGE_BOUND
    unfinished = not run.converged
    spread_out = spread is not None and spread.ratio >= SPREAD_LIMIT and not scale
    if spread_out and spread is not None and (huge or unfinished):
        if huge:
            why = (f"R²/ρ*² {_equals(bound)} is huge because the features are in very different units: "
                   f"their largest values differ by a factor of {shown(spread.ratio, 2)} ({spread}). R follows "
                   "the largest features, while the margin ρ* has to be earned in all of them.")
        else:
            why = (f"The features are in very different units: their largest values differ by a factor of "
                   f"{shown(spread.ratio, 2)} ({spread}), so the largest features dominate every update.")
        advice.append(Advice("scale", why,
                             "Scale the features: scale='standard' (StandardScaler: each feature to mean 0 and "
                             "variance 1) or scale='maxabs' (MaxAbsScaler: each into [−1, 1], zeros kept); a model "
                             "trained behind a scaler keeps it and applies it when it predicts."))
    if separable_data and unfinished and not run.cycled:
        first = "Scale the features (above), raise" if advice else "Raise"
        advice.append(Advice(
            "sweeps",
            f"The run stopped at max_sweeps={max_sweeps} without a clean sweep, after {shown(run.mistakes)} "
            f"mistakes. The data is separable, so Novikoff's theorem guarantees convergence within R²/ρ*² "
            f"{_equals(bound)} mistakes: the run is unfinished, not failed.",
            f"{first} max_sweeps (the bound allows up to {shown(bound)} mistakes), or use perceptronlab.pocket "
            "for the weights with the fewest training errors within a budget."))
    elif huge and not advice and rho is not None:
        advice.append(Advice(
            "margin",
            f"R²/ρ*² {_equals(bound)} is huge because the classes nearly touch: the best margin ρ* {_equals(rho)} "
            f"is 1/{shown(R / rho, 3)} of the radius R {_equals(R)}.",
            "The bound is honest here: many mistakes are possible. If a few training errors are acceptable, "
            "use perceptronlab.pocket for the weights with the fewest errors within a budget."))
    return advice


def _sweep_limit(bound: Any, n: int, d: int) -> int:
    """The automatic sweep limit: the bound's worth of sweeps, within the cap and the work budget."""
    enough = math.ceil(float(bound)) + 2 if math.isfinite(float(bound)) else MAX_SWEEPS_CAP
    return int(max(1000, min(enough, MAX_SWEEPS_CAP, WORK_BUDGET // max(1, n * (d + 1)))))


def analyze(X: MatrixLike, y: ArrayLike, fit_intercept: bool = False, *, loo: bool = True, seed: int | None = 0,
            max_sweeps: int | None = None, scale: Scale | None = None, trace: bool = False,
            feature_names: list[str] | None = None, on_stage: OnStage | None = None) -> Analysis:
    r"""Everything the theory says about the perceptron on ``(X, y)``, next to what it does.

    Computes n, d, the radius R, separability (LP, with a Gordan certificate when not separable),
    the best margin ρ* (QP), Novikoff's bound :math:`R^2/\rho^{*2}`, the actual cyclic run (mistakes,
    sweeps) and its ratio to the bound, the exact leave-one-out error and the test-error bound
    :math:`R^2/\rho^{*2}/(n+1)` (seed 000, Theorems 1 and 2). For non-separable data: the Pocket
    algorithm's weights (Gallant 1990) and the best Freund–Schapire bound for them (1999). What the
    numbers leave open (a run stopped at its limit, a huge bound) is said in ``advice``.

    With ``fit_intercept`` the perceptron runs on the augmented vectors (1, x) (the bias trick of
    seed 002), so R, ρ* and the bound are those of the augmented data: that is where the theorem
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
        max_sweeps = v.check_positive_int("max_sweeps", max_sweeps, "Pass e.g. max_sweeps=1000, or None.")

    def stage(name: str, total: int | None = None) -> OnSweep | None:
        return None if on_stage is None else on_stage(name, total)

    Xf = float_matrix(X)
    n, d = Xf.shape
    signs, _ = v.check_labels(y, n)
    if feature_names is not None and len(feature_names) != d:
        raise v.fail("feature_names", f"{d} names (one per feature)", f"{len(feature_names)} names",
                     "Pass the names of the feature columns, or None.")
    scaler = fit_scaler(scale, Xf)
    scale = None if scaler is None else scale
    if scaler is not None:
        X = Xf = np.ascontiguousarray(scaler.transform(Xf), dtype=np.float64)
    exact = is_exact_input(X) and n * d <= EXACT_LIMIT
    rows: Any
    if exact:
        rows = exact_rows(X, fit_intercept)
    else:
        rows = augment(Xf) if fit_intercept else Xf
    spread = feature_spread(Xf, feature_names)
    R2 = radius_squared(X, fit_intercept)
    R = bounds.radius_of(R2)  # R² of exact data may be past the float range, R within it
    stage("separability (linear program)")
    separability = separable(X, y, fit_intercept)
    from perceptronlab.core.perceptron import perceptron, pocket

    exact_run = exact and n * d <= EXACT_RUN_LIMIT
    if separability.separable:
        stage("best margin ρ* (quadratic program)")
        margin = max_margin(rows, signs)
        margin.fit_intercept = False
        rho2 = margin.rho_squared
        bound = bounds.novikoff(R2, rho2, squared=True) if float(rho2) > 0 else math.inf
        sweeps = _sweep_limit(bound, n, d) if max_sweeps is None else max_sweeps
        exact_run = exact_run and float(bound) <= EXACT_RUN_LIMIT  # at most `bound` Fraction updates
        X_run = X if exact_run else Xf
        run = perceptron(X_run, y, fit_intercept=fit_intercept, exact=exact_run, trace=trace and exact_run,
                         max_sweeps=sweeps, warn=False, on_sweep=stage("perceptron", sweeps))
        loo_result = None
        if loo and run.converged:
            stage("leave-one-out")
            loo_result = loo_error(X_run, y, fit_intercept=fit_intercept, exact=exact_run, max_sweeps=sweeps)
        advice = _advice(separable_data=True, bound=bound, run=run, max_sweeps=sweeps, spread=spread, R=R,
                         rho=float(margin.rho), scale=scale)
        return Analysis(n=n, d=d, fit_intercept=fit_intercept, R=R, R_squared=R2,
                        separability=separability, max_margin=margin, rho=margin.rho, rho_squared=rho2,
                        bound=bound, run=run, ratio=run.mistakes / float(bound), loo=loo_result,
                        test_error_bound=bounds.test_error(R2, rho2, n, squared=True), max_sweeps=sweeps,
                        scale=scale, spread=spread, advice=advice)
    sweeps = 100 if max_sweeps is None else max_sweeps
    run = perceptron(Xf, y, fit_intercept=fit_intercept, max_sweeps=sweeps, warn=False,
                     on_sweep=stage("perceptron", sweeps))
    if n * n * d <= UPDATE_CHECKED_POCKET_WORK:  # the pocket checked after every update (seed 002)
        pocket_run = pocket(Xf, y, fit_intercept=fit_intercept, seed=seed, on_sweep=stage("pocket", 100))
    else:
        pocket_run = pocket(Xf, y, fit_intercept=fit_intercept, order="shuffle", check="sweep", max_sweeps=1000,
                            seed=seed, on_sweep=stage("pocket", 1000))
    fs = fs_rho = None
    w_pocket = np.asarray(pocket_run.w, dtype=np.float64)
    w_aug = np.r_[float(pocket_run.b), w_pocket] if fit_intercept else w_pocket
    if np.any(w_aug) and float(R2) > 0:
        stage("Freund–Schapire bound")
        fs, fs_rho = bounds.best_freund_schapire(w_aug, augment(Xf) if fit_intercept else Xf, signs,
                                                 R=R)
    advice = _advice(separable_data=False, bound=None, run=run, max_sweeps=sweeps, spread=spread, R=R, rho=None,
                     scale=scale)
    return Analysis(n=n, d=d, fit_intercept=fit_intercept, R=R, R_squared=R2,
                    separability=separability, max_margin=None, rho=None, rho_squared=None, bound=None,
                    run=run, ratio=None, loo=None, test_error_bound=None, pocket=pocket_run,
                    freund_schapire=fs, freund_schapire_rho=fs_rho, max_sweeps=sweeps, scale=scale, spread=spread,
                    advice=advice)
