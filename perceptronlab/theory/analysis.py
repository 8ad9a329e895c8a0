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
"""

from __future__ import annotations

import math
import time
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
    NUMBERING,
    augment,
    check_dense_memory,
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
#: a mistake bound R²/ρ*² from here on is called huge (the page says why)
HUGE_BOUND = 1_000_000
#: features whose largest |values| differ by this factor or more are in different units
SPREAD_LIMIT = 100.0


@dataclass(frozen=True)
class Advice:
    """Why a result is not what one would hope, and what to do about it.

    ``topic`` is "scale" (features in very different units), "intercept" (the data is separable
    only with an intercept), "sweeps" (the run stopped at its limit) or "margin" (the classes
    nearly touch). ``why`` and ``fix`` are sentences in the library's words (``scale='standard'``,
    ``max_sweeps=...``); the command line says them with its flags.

    ``settings`` are the settings the fix names that the analysis has checked on this data, each a
    dict of :func:`analyze`'s keywords (``{"scale": "standard", "fit_intercept": True}``), with
    ``checked``, what the analysis found for each (separable, and the bound R²/ρ*² it gives). The
    analysis never names a setting that would make separable data non-separable or raise its bound.
    """

    topic: str
    why: str
    fix: str
    settings: list[dict[str, Any]] = field(default_factory=list)
    checked: list[dict[str, Any]] = field(default_factory=list)

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
        return (
            f"{self.largest} reaches {shown(self.largest_value, 4)} while {self.smallest} stays within "
            f"{shown(self.smallest_value, 4)}"
        )


def _equals(value: Any, digits: int = 6) -> str:
    """``= 10`` for a value shown exactly, ``≈ 3.53 × 10¹⁰`` for one shown rounded."""
    text = shown(value, digits)
    return text if text.startswith("≈") else f"= {text}"


#: The pocket checked after every update (Lin's lecture 2) scores all n rows at each of its up to 100·n
#: updates: about 100·n²·d operations. Up to n²·d of this it runs (a second at most); larger data
#: gets shuffled sweeps checked once a sweep (the notebook “The Perceptron Convergence Theorem”), linear in n.
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
        run = self.run
        out: dict[str, Any] = {
            "n": self.n,
            "d": self.d,
            "fit_intercept": self.fit_intercept,
            "scale": self.scale,
            "R": float(self.R),
            "R_squared": float(self.R_squared),
            "R_squared_exact": _exact_str(self.R_squared),
            "separable": self.separable,
            "separability": self.separability.to_dict(),
            "rho": None if self.rho is None else float(self.rho),
            "rho_squared": None if self.rho_squared is None else float(self.rho_squared),
            "rho_squared_exact": _exact_str(self.rho_squared),
            "support": None
            if self.max_margin is None
            else [int(i) + 1 for i in self.max_margin.support],
            "numbering": NUMBERING,
            "bound": None if self.bound is None else float(self.bound),
            "bound_exact": _exact_str(self.bound),
            "run": {
                "mistakes": int(run.mistakes),
                "sweeps": int(run.sweeps),
                "max_sweeps": int(self.max_sweeps),
                "converged": bool(run.converged),
                "cycled": bool(run.cycled),
                "w": [float(value) for value in run.w],
                "b": float(run.b),
                "w_exact": [str(value) for value in run.w] if run.exact else None,
                "first_sweep_mistakes": int(run.updates_per_sweep[0])
                if len(run.updates_per_sweep)
                else 0,
            },
            "ratio": self.ratio,
            "loo": None if self.loo is None else self.loo.to_dict(),
            "test_error_bound": None
            if self.test_error_bound is None
            else float(self.test_error_bound),
            "test_error_bound_exact": _exact_str(self.test_error_bound),
            "test_error_bound_vacuous": self.test_error_bound_vacuous,
            "feature_spread": None
            if self.spread is None
            else {
                "largest": self.spread.largest,
                "largest_value": self.spread.largest_value,
                "smallest": self.spread.smallest,
                "smallest_value": self.spread.smallest_value,
                "ratio": self.spread.ratio,
            },
            "advice": [
                {
                    "topic": a.topic,
                    "why": a.why,
                    "fix": a.fix,
                    "settings": a.settings,
                    "checked": a.checked,
                }
                for a in self.advice
            ],
        }
        if self.pocket is not None:
            pocket_errors = cast(int, self.pocket.pocket_errors)  # a pocket run counts them
            out["pocket"] = {
                "errors": int(pocket_errors),
                "error_rate": pocket_errors / self.n,
                "w": [float(value) for value in self.pocket.w],
                "b": float(self.pocket.b),
                "updates": int(self.pocket.mistakes),
            }
            out["freund_schapire"] = {
                "bound": self.freund_schapire,
                "rho": None
                if self.freund_schapire_rho is None or math.isinf(self.freund_schapire_rho)
                else self.freund_schapire_rho,
            }
        return out

    def run_state(self) -> str:
        """How the run ended, in words: converged, cycled, or stopped at its limit (unfinished)."""
        run = self.run
        if run.converged:
            return "converged (a clean sweep)"
        if run.cycled:
            return "cycled: a start-of-sweep w repeated, so it never converges"
        if self.separable:
            return (
                f"NOT converged: stopped at the limit of {shown(self.max_sweeps)} sweeps "
                "(Novikoff: it would converge; the run is unfinished)"
            )
        return f"no clean sweep in {shown(self.max_sweeps)} sweeps: the data is not separable, so it never converges"

    def __str__(self) -> str:
        scaled = f"; features scaled first ({describe_scaler(self.scale)})" if self.scale else ""
        lines = [
            f"n = {self.n} examples, d = {self.d} features"
            + (
                " (+ intercept: R, ρ* and the bound are of the augmented vectors (1, x))"
                if self.fit_intercept
                else ""
            )
            + scaled,
            f"R {_equals(self.R)}"
            + (f"  (R² {_equals(self.R_squared)})" if isinstance(self.R_squared, Fraction) else ""),
            str(self.separability),
        ]
        run = self.run
        run_line = (
            f"perceptron: {format_count(run.mistakes, 'mistake')} in {format_count(run.sweeps, 'sweep')}, "
            f"{self.run_state()}"
        )
        if self.separable:
            rho_text = (
                f"ρ*² {_equals(self.rho_squared)}  (ρ* {_equals(self.rho)})"
                if isinstance(self.rho_squared, Fraction)
                else f"ρ* {_equals(self.rho)}"
            )
            lines += [
                rho_text,
                f"Novikoff bound R²/ρ*² {_equals(self.bound)}",
                run_line + f"; {format_percent(self.ratio)} of the bound",
            ]
            if self.loo is not None:
                lines.append(str(self.loo))
            vacuous = (
                "  (vacuous: a bound ≥ 1 on an error probability says nothing)"
                if self.test_error_bound_vacuous
                else ""
            )
            lines.append(f"test-error bound R²/ρ*²/(n+1) {_equals(self.test_error_bound)}{vacuous}")
        else:
            lines.append(run_line)
            if self.pocket is not None:
                pocket_errors = cast(int, self.pocket.pocket_errors)  # a pocket run counts them
                lines.append(
                    f"pocket: {pocket_errors} training errors "
                    f"({pocket_errors / self.n:.2%}); w = {format_display_vector(self.pocket.w)}"
                    + (f", b = {shown(self.pocket.b)}" if self.fit_intercept else "")
                )
            if self.freund_schapire is not None:
                where = (
                    "as ρ grows without bound"
                    if math.isinf(cast(float, self.freund_schapire_rho))
                    else f"at ρ = {shown(self.freund_schapire_rho)}"
                )
                lines.append(
                    f"Freund–Schapire bound for the pocket's w (one pass): (R + D)²/ρ² = "
                    f"{shown(self.freund_schapire)} {where} "
                    f"(the perceptron's first sweep: {int(run.updates_per_sweep[0])} mistakes)"
                )
        lines += [f"why: {a.why}\nwhat to do: {a.fix}" for a in self.advice]
        return "\n".join(lines)


#: the scalings the advice may name, and the intercepts to try with each. ``maxabs`` divides each
#: feature by a positive number (a positive diagonal map): a separating w stays one (w_j·s_j), with
#: or without an intercept. ``standard`` also centres, x ↦ (x − μ)/σ, an affine map: ⟨w, x⟩ becomes
#: ⟨w', x'⟩ + ⟨w, μ⟩, so it keeps separability only with an intercept to absorb ⟨w, μ⟩.
ADVISED_SCALINGS: tuple[tuple[Scale, bool], ...] = (
    ("maxabs", False),
    ("maxabs", True),
    ("standard", False),
    ("standard", True),
)
#: a run that would take at most this many seconds to reach its bound is worth raising the sweep limit for
PATIENT_SECONDS = 60.0


def check_setting(
    X: NDArray[Any], y: ArrayLike, *, scale: Scale | None, fit_intercept: bool
) -> dict[str, Any]:
    """What a setting gives on float data ``X`` (in its own units): separable, and the bound R²/ρ*².

    The advice names only settings checked here: ``{"scale": ..., "fit_intercept": ...,
    "separable": bool, "bound": float or None}``.

    >>> check_setting(np.array([[1.0, 0.0], [1.0, 1.0], [0.0, 1.0]]), [1, -1, -1], scale=None,
    ...               fit_intercept=False)
    {'scale': 'none', 'fit_intercept': False, 'separable': True, 'bound': 10.0}
    """
    scaler = fit_scaler(scale, X)
    Z = X if scaler is None else np.ascontiguousarray(scaler.transform(X), dtype=np.float64)
    found = separable(Z, y, fit_intercept)
    bound = None
    if found.separable:
        signs, _ = v.check_labels(y, Z.shape[0])
        rho2 = float(max_margin(augment(Z) if fit_intercept else Z, signs).rho_squared)
        bound = float(radius_squared(Z, fit_intercept)) / rho2 if rho2 > 0 else math.inf
    return {
        "scale": scale or "none",
        "fit_intercept": bool(fit_intercept),
        "separable": bool(found.separable),
        "bound": bound,
    }


def _better(found: dict[str, Any], separable_data: bool, bound: Any) -> bool:
    """A setting the advice may name: it keeps separable data separable with a lower bound, or makes
    non-separable data separable."""
    if separable_data:
        return (
            bool(found["separable"])
            and found["bound"] is not None
            and found["bound"] < float(bound)
        )
    return bool(found["separable"])


def _setting_words(found: dict[str, Any]) -> str:
    words = f"scale='{found['scale']}'" + (
        " and fit_intercept=True" if found["fit_intercept"] else ""
    )
    what = {
        "standard": "each feature to mean 0 and variance 1",
        "maxabs": "each into [−1, 1], zeros kept",
    }[found["scale"]]
    if found["scale"] == "standard" and found["fit_intercept"]:
        what += "; centring moves the data off the origin, so it needs an intercept"
    checked = "" if found["bound"] is None else f"; checked: R²/ρ*² {_equals(found['bound'])}"
    return f"{words} ({what}{checked})"


#: the most multiply-adds of the Pocket runs that count the errors both ways (each run's sweeps are cut to fit)
ERRORS_WORK = 20_000_000
#: the sweeps of each of those Pocket runs (shuffled, the errors counted after every sweep)
ERRORS_SWEEPS = 50


def pocket_errors(
    X: NDArray[Any], y: ArrayLike, *, scale: Scale | None, fit_intercept: bool, sweeps: int
) -> int:
    """The fewest training errors a Pocket run finds in a setting (shuffled sweeps, seed 0, the
    errors counted after every sweep): what following the setting leaves, measured."""
    from perceptronlab.core.perceptron import pocket

    scaler = fit_scaler(scale, X)
    Z = X if scaler is None else np.ascontiguousarray(scaler.transform(X), dtype=np.float64)
    run = pocket(
        Z, y, fit_intercept=fit_intercept, order="shuffle", check="sweep", max_sweeps=sweeps, seed=0
    )
    return int(cast(int, run.pocket_errors))


def _errors_both_ways(X: NDArray[Any], y: ArrayLike, scale: Scale | None) -> list[Advice]:
    """Data that no hyperplane separates, with or without an offset: the errors a Pocket run leaves
    through the origin and with an intercept (also with scale='standard'), measured; the intercept
    is named when it removes most of them."""
    n, d = X.shape
    sweeps = max(1, min(ERRORS_SWEEPS, ERRORS_WORK // max(1, 3 * n * (d + 1))))
    origin = pocket_errors(X, y, scale=scale, fit_intercept=False, sweeps=sweeps)
    dense = not hasattr(X, "tocsr")  # centring a sparse matrix would fill it in
    tried: list[Scale | None] = [scale] + (["standard"] if scale != "standard" and dense else [])
    found: list[dict[str, Any]] = [
        {
            "scale": s or "none",
            "fit_intercept": True,
            "separable": False,
            "bound": None,
            "errors": pocket_errors(X, y, scale=s, fit_intercept=True, sweeps=sweeps),
        }
        for s in tried
    ]
    best = min(found, key=lambda f: f["errors"])
    if not 2 * best["errors"] <= origin or origin == 0:
        return []
    words = "fit_intercept=True" + (
        f" with scale='{best['scale']}'" if best["scale"] not in ("none", scale) else ""
    )
    measured = "; ".join(
        f"{f['errors']} with an intercept"
        + ("" if f["scale"] == "none" else f" and scale='{f['scale']}'")
        for f in found
    )
    return [
        Advice(
            "intercept",
            f"No hyperplane separates the data, through the origin or not; measured by Pocket "
            f"({format_count(sweeps, 'shuffled sweep')}, seed 0), the fewest training errors are "
            f"{origin} of {n} through the origin; {measured}.",
            f"Fit an intercept: {words} (the bias trick: each x gets a constant 1); "
            "perceptronlab.pocket then keeps the weights with the fewest errors.",
            settings=[{"fit_intercept": True, "scale": best["scale"]}],
            checked=found,
        )
    ]


def duration(seconds: float) -> str:
    """A time span in the largest unit that fits, to two digits: ``about 3 minutes``.

    >>> duration(0.4), duration(150), duration(3 * 86400 * 365.25 * 1000)
    ('under a second', 'about 2.5 minutes', 'about 3 × 10³ years')
    """
    if not math.isfinite(seconds):
        return "forever"
    if seconds < 1:
        return "under a second"
    for unit, size in (
        ("years", 365.25 * 86400),
        ("days", 86400),
        ("hours", 3600),
        ("minutes", 60),
    ):
        if seconds >= size:
            return f"about {shown(seconds / size, 2)} {unit}"
    return f"about {shown(seconds, 2)} seconds"


def advise(
    X: NDArray[Any] | None,
    y: ArrayLike,
    *,
    separable_data: bool,
    bound: Any,
    run: Any,
    max_sweeps: int,
    spread: FeatureSpread | None,
    R: float,
    rho: float | None,
    scale: str | None,
    fit_intercept: bool,
    seconds: float | None = None,
) -> list[Advice]:
    """What the numbers did not settle, and what to do: the rules of :attr:`Analysis.advice`.

    Every setting named is checked on the data first (:func:`check_setting`; ``X`` is the float data
    in its own units, before any scaling; None: name no setting). ``seconds`` is the run's time, for
    what a bound means at this machine's speed.
    """
    advice: list[Advice] = []
    huge = separable_data and bound is not None and float(bound) >= HUGE_BOUND
    unfinished = not run.converged
    spread_out = spread is not None and spread.ratio >= SPREAD_LIMIT and not scale
    best = float(bound) if separable_data and bound is not None else math.inf
    if spread_out and spread is not None and (huge or unfinished) and X is not None:
        found = [
            check_setting(X, y, scale=s, fit_intercept=fi)
            for s, fi in ADVISED_SCALINGS
            if fi or not fit_intercept
        ]  # an intercept the user chose stays
        offered = [f for f in found if _better(f, separable_data, bound)]
        if separable_data:
            # one intercept per scaler: the user's, unless the scaler needs one
            offered = [
                f
                for f in offered
                if f["fit_intercept"] == fit_intercept
                or not any(
                    g["scale"] == f["scale"] and g["fit_intercept"] == fit_intercept
                    for g in offered
                )
            ]
        if huge:
            why = (
                f"R²/ρ*² {_equals(bound)} is huge because the features are in very different units: "
                f"their largest values differ by a factor of {shown(spread.ratio, 2)} ({spread}). R follows "
                "the largest features, while the margin ρ* has to be earned in all of them."
            )
        else:
            why = (
                f"The features are in very different units: their largest values differ by a factor of "
                f"{shown(spread.ratio, 2)} ({spread}), so the largest features dominate every update."
            )
        if offered:
            fix = (
                "Scale the features: "
                + " or ".join(_setting_words(f) for f in offered)
                + "; a model trained behind a scaler keeps it and applies it when it predicts."
            )
            best = min([best] + [f["bound"] for f in offered if f["bound"] is not None])
            advice.append(
                Advice(
                    "scale",
                    why,
                    fix,
                    settings=[
                        {"scale": f["scale"], "fit_intercept": f["fit_intercept"]} for f in offered
                    ],
                    checked=found,
                )
            )
        elif separable_data:
            advice.append(
                Advice(
                    "scale",
                    why,
                    "Scaling does not help here: checked, neither scale='maxabs' nor "
                    "scale='standard' (with or without an intercept) lowers R²/ρ*² while keeping the "
                    "data separable.",
                    checked=found,
                )
            )
    if not separable_data and not fit_intercept and X is not None:
        with_b = check_setting(X, y, scale=scale, fit_intercept=True)  # type: ignore[arg-type]
        if with_b["separable"]:
            centred = (
                " (centring the features moved the data off the origin)"
                if scale == "standard"
                else ""
            )
            advice.append(
                Advice(
                    "intercept",
                    f"No hyperplane through the origin separates the data{centred}, but one with an offset does: "
                    f"checked, with an intercept the data is separable (R²/ρ*² {_equals(with_b['bound'], 3)}).",
                    "Fit an intercept: fit_intercept=True (the bias trick: each x gets a constant 1).",
                    settings=[{"fit_intercept": True}],
                    checked=[with_b],
                )
            )
        else:
            advice += _errors_both_ways(X, y, cast("Scale | None", scale))
    if separable_data and unfinished and not run.cycled:
        per_sweep = None if not seconds or not run.sweeps else seconds / run.sweeps
        needed = min(best, float(bound)) if bound is not None else math.inf
        sweeps_needed = math.ceil(needed) + 1 if math.isfinite(needed) else math.inf
        scaled = (
            f" Even scaled as advised, R²/ρ*² {_equals(needed)}: up to {shown(sweeps_needed, 3)} sweeps."
            if needed < float(bound)
            else f" Up to {shown(sweeps_needed, 3)} sweeps may be needed."
        )
        when = (
            ""
            if per_sweep is None
            else f"{scaled} At this machine's speed ({format_count(run.sweeps, 'sweep')} in {shown(seconds, 2)} s), "
            f"that is up to {duration(per_sweep * sweeps_needed)}."
        )
        patient = per_sweep is not None and per_sweep * sweeps_needed <= PATIENT_SECONDS
        why = (
            f"The run stopped at max_sweeps={max_sweeps} without a clean sweep, after {shown(run.mistakes)} "
            f"mistakes. The data is separable, so Novikoff's theorem guarantees convergence within R²/ρ*² "
            f"{_equals(bound)} mistakes (each unclean sweep makes at least one): the run is unfinished, not "
            f"failed.{when}"
        )
        first = (
            "Scale the features (above), then raise"
            if advice and advice[0].topic == "scale"
            else "Raise"
        )
        if patient:
            fix = (
                f"{first} max_sweeps={sweeps_needed} (enough for the bound), or use perceptronlab.pocket for the "
                "weights with the fewest training errors within a budget."
            )
        else:
            fix = (
                f"{first} max_sweeps only if you can wait that long. Otherwise use perceptronlab.pocket (the "
                "weights with the fewest training errors within a budget) or perceptronlab.averaged_perceptron "
                "(the average of the run's weights, which classifies well long before the run is clean), or "
                "accept the unfinished run: its weights are those of the last sweep."
            )
        advice.append(Advice("sweeps", why, fix))
    elif huge and not advice and rho is not None:
        advice.append(
            Advice(
                "margin",
                f"R²/ρ*² {_equals(bound)} is huge because the classes nearly touch: the best margin ρ* {_equals(rho)} "
                f"is 1/{shown(R / rho, 3)} of the radius R {_equals(R)}.",
                "The bound is honest here: many mistakes are possible. If a few training errors are acceptable, "
                "use perceptronlab.pocket for the weights with the fewest errors within a budget, or "
                "perceptronlab.averaged_perceptron.",
            )
        )
    return advice


def _sweep_limit(bound: Any, n: int, d: int) -> int:
    """The automatic sweep limit: the bound's worth of sweeps, within the cap and the work budget."""
    enough = math.ceil(float(bound)) + 2 if math.isfinite(float(bound)) else MAX_SWEEPS_CAP
    return int(max(1000, min(enough, MAX_SWEEPS_CAP, WORK_BUDGET // max(1, n * (d + 1)))))


@dataclass
class Measured:
    """The data as the analysis measures it (:func:`measure`): the one place where the verdict is
    reached, for ``analyze``, the report and ``train``."""

    X: Any  # the data as analysed: scaled, or exact rows' input
    Xf: NDArray[Any]  # ... as float64
    X_units: NDArray[Any]  # float64 in the file's own units (before any scaling)
    exact: bool
    scale: Scale | None
    spread: FeatureSpread | None
    R_squared: Fraction | float
    R: float
    separability: SeparabilityResult
    max_margin: MaxMarginResult | None
    rho_squared: Fraction | float | None
    bound: Fraction | float | None


def measure(
    X: MatrixLike,
    y: ArrayLike,
    fit_intercept: bool = False,
    *,
    scale: Scale | None = None,
    feature_names: list[str] | None = None,
    on_stage: OnStage | None = None,
    max_bytes: Any = None,
) -> Measured:
    """Scale (if asked), then the radius, separability (LP) and, for separable data, the best margin
    ρ* (QP) and Novikoff's bound: the verdict every command shows.

    The memory these dense steps take is estimated from the shape first and refused over
    ``max_bytes`` (default: half the memory this process can still use)."""
    check_dense_memory(X, "the analysis (radius, linear program, margin)", max_bytes)
    Xf = float_matrix(X)
    n, d = Xf.shape
    signs, _ = v.check_labels(y, n)
    if feature_names is not None and len(feature_names) != d:
        raise v.fail(
            "feature_names",
            f"{d} names (one per feature)",
            f"{len(feature_names)} names",
            "Pass the names of the feature columns, or None.",
        )
    X_units = Xf
    scaler = fit_scaler(scale, Xf)
    scale = None if scaler is None else scale
    if scaler is not None:
        X = Xf = np.ascontiguousarray(scaler.transform(Xf), dtype=np.float64)
    exact = is_exact_input(X) and n * d <= EXACT_LIMIT
    rows: Any = exact_rows(X, fit_intercept) if exact else (augment(Xf) if fit_intercept else Xf)
    R2 = radius_squared(X, fit_intercept)
    if on_stage is not None:
        on_stage("separability (linear program)", None)
    separability = separable(X, y, fit_intercept)
    margin = rho2 = bound = None
    if separability.separable:
        if on_stage is not None:
            on_stage("best margin ρ* (quadratic program)", None)
        margin = max_margin(rows, signs, max_bytes=max_bytes)
        margin.fit_intercept = False
        rho2 = margin.rho_squared
        bound = bounds.novikoff(R2, rho2, squared=True) if float(rho2) > 0 else math.inf
    return Measured(
        X=X,
        Xf=Xf,
        X_units=X_units,
        exact=exact,
        scale=scale,
        spread=feature_spread(Xf, feature_names),
        R_squared=R2,
        R=bounds.radius_of(R2),
        separability=separability,
        max_margin=margin,
        rho_squared=rho2,
        bound=bound,
    )


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
    rho = None if m.max_margin is None else float(m.max_margin.rho)
    advice = advise(
        m.X_units,
        y,
        separable_data=m.separability.separable,
        bound=m.bound,
        run=run,
        max_sweeps=int(run.params.get("max_sweeps") or run.sweeps),
        spread=m.spread,
        R=m.R,
        rho=rho,
        scale=m.scale,
        fit_intercept=fit_intercept,
        seconds=seconds,
    )
    return m, advice


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
    X, Xf, X_units, exact, spread, R2, R, separability, scale = (
        m.X,
        m.Xf,
        m.X_units,
        m.exact,
        m.spread,
        m.R_squared,
        m.R,
        m.separability,
        m.scale,
    )
    n, d = Xf.shape
    signs, _ = v.check_labels(y, n)
    from perceptronlab.core.perceptron import perceptron, pocket

    exact_run = exact and n * d <= EXACT_RUN_LIMIT
    if separability.separable:
        # separable: the margin, ρ*² and the bound are set
        margin, rho2, bound = (
            cast(MaxMarginResult, m.max_margin),
            cast("Fraction | float", m.rho_squared),
            cast("Fraction | float", m.bound),
        )
        sweeps = _sweep_limit(bound, n, d) if max_sweeps is None else max_sweeps
        exact_run = (
            exact_run and float(bound) <= EXACT_RUN_LIMIT
        )  # at most `bound` Fraction updates
        X_run = X if exact_run else Xf
        started = time.perf_counter()
        run = perceptron(
            X_run,
            y,
            fit_intercept=fit_intercept,
            exact=exact_run,
            trace=trace and exact_run,
            max_sweeps=sweeps,
            warn=False,
            on_sweep=stage("perceptron", sweeps),
        )
        seconds = time.perf_counter() - started
        loo_result = None
        if loo and run.converged:
            stage("leave-one-out")
            loo_result = loo_error(
                X_run, y, fit_intercept=fit_intercept, exact=exact_run, max_sweeps=sweeps
            )
        advice = advise(
            X_units,
            y,
            separable_data=True,
            bound=bound,
            run=run,
            max_sweeps=sweeps,
            spread=spread,
            R=R,
            rho=float(margin.rho),
            scale=scale,
            fit_intercept=fit_intercept,
            seconds=seconds,
        )
        return Analysis(
            n=n,
            d=d,
            fit_intercept=fit_intercept,
            R=R,
            R_squared=R2,
            separability=separability,
            max_margin=margin,
            rho=margin.rho,
            rho_squared=rho2,
            bound=bound,
            run=run,
            ratio=run.mistakes / float(bound),
            loo=loo_result,
            test_error_bound=bounds.test_error(R2, rho2, n, squared=True),
            max_sweeps=sweeps,
            scale=scale,
            spread=spread,
            advice=advice,
        )
    sweeps = 100 if max_sweeps is None else max_sweeps
    run = perceptron(
        Xf,
        y,
        fit_intercept=fit_intercept,
        max_sweeps=sweeps,
        warn=False,
        on_sweep=stage("perceptron", sweeps),
    )
    if (
        n * n * d <= UPDATE_CHECKED_POCKET_WORK
    ):  # the pocket checked after every update (Lin's lecture 2)
        pocket_run = pocket(
            Xf, y, fit_intercept=fit_intercept, seed=seed, on_sweep=stage("pocket", 100)
        )
    else:
        pocket_run = pocket(
            Xf,
            y,
            fit_intercept=fit_intercept,
            order="shuffle",
            check="sweep",
            max_sweeps=1000,
            seed=seed,
            on_sweep=stage("pocket", 1000),
        )
    fs = fs_rho = None
    w_pocket = np.asarray(pocket_run.w, dtype=np.float64)
    w_aug = np.r_[float(pocket_run.b), w_pocket] if fit_intercept else w_pocket
    if np.any(w_aug) and float(R2) > 0:
        stage("Freund–Schapire bound")
        fs, fs_rho = bounds.best_freund_schapire(
            w_aug, augment(Xf) if fit_intercept else Xf, signs, R=R
        )
    advice = advise(
        X_units,
        y,
        separable_data=False,
        bound=None,
        run=run,
        max_sweeps=sweeps,
        spread=spread,
        R=R,
        rho=None,
        scale=scale,
        fit_intercept=fit_intercept,
    )
    return Analysis(
        n=n,
        d=d,
        fit_intercept=fit_intercept,
        R=R,
        R_squared=R2,
        separability=separability,
        max_margin=None,
        rho=None,
        rho_squared=None,
        bound=None,
        run=run,
        ratio=None,
        loo=None,
        test_error_bound=None,
        pocket=pocket_run,
        freund_schapire=fs,
        freund_schapire_rho=fs_rho,
        max_sweeps=sweeps,
        scale=scale,
        spread=spread,
        advice=advice,
    )
