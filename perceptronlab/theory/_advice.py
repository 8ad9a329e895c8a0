"""The analysis' advice: what the numbers did not settle, and what to do about it.

The rules of :attr:`perceptronlab.theory.analysis.Analysis.advice`: features in very different units
(scale them), data separable only with an intercept (fit one), a run stopped at its sweep limit
(raise it, or use Pocket) and classes that nearly touch (the bound is honest). Every setting the
advice names is checked on the data first (:func:`check_setting`).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, cast

import numpy as np

from perceptronlab._ground import validation as v
from perceptronlab._ground.numbers import format_count
from perceptronlab._ground.numbers import format_display as shown
from perceptronlab.preprocessing import Scale, fit_scaler
from perceptronlab.theory._common import augment
from perceptronlab.theory._common import equals as _equals
from perceptronlab.theory.geometry import max_margin, radius_squared
from perceptronlab.theory.separability import separable

if TYPE_CHECKING:
    from numpy.typing import ArrayLike, NDArray

    from perceptronlab.theory._measure import FeatureSpread

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
    """What the numbers did not settle, and what to do: the rules of
    :attr:`~perceptronlab.theory.analysis.Analysis.advice`.

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
        scaling, best = _scale_advice(
            X, y, spread, separable_data, bound, huge, fit_intercept, best
        )
        advice += scaling
    if not separable_data and not fit_intercept and X is not None:
        advice += _intercept_advice(X, y, scale)
    if separable_data and unfinished and not run.cycled:
        scaled_first = bool(advice) and advice[0].topic == "scale"
        advice.append(_sweeps_advice(run, bound, best, max_sweeps, seconds, scaled_first))
    elif huge and not advice and rho is not None:
        advice.append(_margin_advice(bound, rho, R))
    return advice


def _scale_advice(
    X: NDArray[Any],
    y: ArrayLike,
    spread: FeatureSpread,
    separable_data: bool,
    bound: Any,
    huge: bool,
    fit_intercept: bool,
    best: float,
) -> tuple[list[Advice], float]:
    """Features in very different units: the scalings checked on the data, those that help named
    (with the lower bound ``best`` they reach), or, for separable data, that none does."""
    found = [
        check_setting(X, y, scale=s, fit_intercept=fi)
        for s, fi in ADVISED_SCALINGS
        if fi or not fit_intercept
    ]  # an intercept the user chose stays
    offered = _offered(found, separable_data, bound, fit_intercept)
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
        settings = [{"scale": f["scale"], "fit_intercept": f["fit_intercept"]} for f in offered]
        return [Advice("scale", why, fix, settings=settings, checked=found)], best
    if separable_data:
        fix = (
            "Scaling does not help here: checked, neither scale='maxabs' nor "
            "scale='standard' (with or without an intercept) lowers R²/ρ*² while keeping the "
            "data separable."
        )
        return [Advice("scale", why, fix, checked=found)], best
    return [], best


def _offered(
    found: list[dict[str, Any]], separable_data: bool, bound: Any, fit_intercept: bool
) -> list[dict[str, Any]]:
    """The checked settings the advice may name: better ones (:func:`_better`), and for separable
    data one intercept per scaler: the user's, unless the scaler needs one."""
    offered = [f for f in found if _better(f, separable_data, bound)]
    if separable_data:
        offered = [
            f
            for f in offered
            if f["fit_intercept"] == fit_intercept
            or not any(
                g["scale"] == f["scale"] and g["fit_intercept"] == fit_intercept for g in offered
            )
        ]
    return offered


def _intercept_advice(X: NDArray[Any], y: ArrayLike, scale: str | None) -> list[Advice]:
    """Data no hyperplane through the origin separates: an intercept named when, checked, it makes
    the data separable; else the training errors both ways, measured (:func:`_errors_both_ways`)."""
    with_b = check_setting(X, y, scale=scale, fit_intercept=True)  # type: ignore[arg-type]
    if not with_b["separable"]:
        return _errors_both_ways(X, y, cast("Scale | None", scale))
    centred = (
        " (centring the features moved the data off the origin)" if scale == "standard" else ""
    )
    return [
        Advice(
            "intercept",
            f"No hyperplane through the origin separates the data{centred}, but one with an offset does: "
            f"checked, with an intercept the data is separable (R²/ρ*² {_equals(with_b['bound'], 3)}).",
            "Fit an intercept: fit_intercept=True (the bias trick: each x gets a constant 1).",
            settings=[{"fit_intercept": True}],
            checked=[with_b],
        )
    ]


def _sweeps_advice(
    run: Any,
    bound: Any,
    best: float,
    max_sweeps: int,
    seconds: float | None,
    scaled_first: bool,
) -> Advice:
    """A run of separable data stopped at its sweep limit: unfinished, not failed; how many sweeps
    the bound (``best``: the lowest a checked scaling reaches) may need, and how long at this speed."""
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
    first = "Scale the features (above), then raise" if scaled_first else "Raise"
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
    return Advice("sweeps", why, fix)


def _margin_advice(bound: Any, rho: float, R: float) -> Advice:
    """A huge bound on data in one unit: the classes nearly touch, and the bound is honest."""
    return Advice(
        "margin",
        f"R²/ρ*² {_equals(bound)} is huge because the classes nearly touch: the best margin ρ* {_equals(rho)} "
        f"is 1/{shown(R / rho, 3)} of the radius R {_equals(R)}.",
        "The bound is honest here: many mistakes are possible. If a few training errors are acceptable, "
        "use perceptronlab.pocket for the weights with the fewest errors within a budget, or "
        "perceptronlab.averaged_perceptron.",
    )
