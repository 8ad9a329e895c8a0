"""The analysis told: :class:`~perceptronlab.theory.analysis.Analysis` as text (its ``str``), as a
JSON-safe dict (its ``to_dict``) and how its run ended, in words (its ``run_state``).

Each function takes the ``Analysis`` (typed ``Any`` here: the analysis module imports this one, and
no two sibling modules import each other).
"""

from __future__ import annotations

import math
from fractions import Fraction
from typing import TYPE_CHECKING, Any, cast

from perceptronlab._ground.numbers import format_count, format_display_vector, format_percent
from perceptronlab._ground.numbers import format_display as shown
from perceptronlab.preprocessing import describe_scaler
from perceptronlab.theory._common import NUMBERING
from perceptronlab.theory._common import equals as _equals

if TYPE_CHECKING:
    from perceptronlab.core.run import Run
    from perceptronlab.theory._advice import Advice
    from perceptronlab.theory._measure import FeatureSpread


def _exact_str(value: Any) -> str | None:
    return str(value) if isinstance(value, Fraction) else None


def analysis_dict(a: Any) -> dict[str, Any]:
    """A JSON-safe dict: floats for every number, exact values also as strings ``*_exact``."""
    out: dict[str, Any] = {
        "n": a.n,
        "d": a.d,
        "fit_intercept": a.fit_intercept,
        "scale": a.scale,
        "R": float(a.R),
        "R_squared": float(a.R_squared),
        "R_squared_exact": _exact_str(a.R_squared),
        "separable": a.separable,
        "separability": a.separability.to_dict(),
        "rho": None if a.rho is None else float(a.rho),
        "rho_squared": None if a.rho_squared is None else float(a.rho_squared),
        "rho_squared_exact": _exact_str(a.rho_squared),
        "support": None if a.max_margin is None else [int(i) + 1 for i in a.max_margin.support],
        "numbering": NUMBERING,
        "bound": None if a.bound is None else float(a.bound),
        "bound_exact": _exact_str(a.bound),
        "run": _run_dict(a),
        "ratio": a.ratio,
        "loo": None if a.loo is None else a.loo.to_dict(),
        "test_error_bound": None if a.test_error_bound is None else float(a.test_error_bound),
        "test_error_bound_exact": _exact_str(a.test_error_bound),
        "test_error_bound_vacuous": a.test_error_bound_vacuous,
        "feature_spread": _spread_dict(a.spread),
        "advice": [_advice_dict(advice) for advice in a.advice],
    }
    if a.pocket is not None:
        out.update(_pocket_dict(a))
    return out


def _run_dict(a: Any) -> dict[str, Any]:
    run = a.run
    return {
        "mistakes": int(run.mistakes),
        "sweeps": int(run.sweeps),
        "max_sweeps": int(a.max_sweeps),
        "converged": bool(run.converged),
        "cycled": bool(run.cycled),
        "w": [float(value) for value in run.w],
        "b": float(run.b),
        "w_exact": [str(value) for value in run.w] if run.exact else None,
        "first_sweep_mistakes": int(run.updates_per_sweep[0]) if len(run.updates_per_sweep) else 0,
    }


def _spread_dict(spread: FeatureSpread | None) -> dict[str, Any] | None:
    if spread is None:
        return None
    return {
        "largest": spread.largest,
        "largest_value": spread.largest_value,
        "smallest": spread.smallest,
        "smallest_value": spread.smallest_value,
        "ratio": spread.ratio,
    }


def _advice_dict(advice: Advice) -> dict[str, Any]:
    return {
        "topic": advice.topic,
        "why": advice.why,
        "fix": advice.fix,
        "settings": advice.settings,
        "checked": advice.checked,
    }


def _pocket_dict(a: Any) -> dict[str, Any]:
    """The pocket's errors and weights, and the Freund–Schapire bound for them."""
    pocket = cast("Run", a.pocket)
    pocket_errors = cast(int, pocket.pocket_errors)  # a pocket run counts them
    return {
        "pocket": {
            "errors": int(pocket_errors),
            "error_rate": pocket_errors / a.n,
            "w": [float(value) for value in pocket.w],
            "b": float(pocket.b),
            "updates": int(pocket.mistakes),
        },
        "freund_schapire": {
            "bound": a.freund_schapire,
            "rho": None
            if a.freund_schapire_rho is None or math.isinf(a.freund_schapire_rho)
            else a.freund_schapire_rho,
        },
    }


def run_state(a: Any) -> str:
    """How the run ended, in words: converged, cycled, or stopped at its limit (unfinished)."""
    run = a.run
    if run.converged:
        return "converged (a clean sweep)"
    if run.cycled:
        return "cycled: a start-of-sweep w repeated, so it never converges"
    if a.separable:
        return (
            f"NOT converged: stopped at the limit of {shown(a.max_sweeps)} sweeps "
            "(Novikoff: it would converge; the run is unfinished)"
        )
    return f"no clean sweep in {shown(a.max_sweeps)} sweeps: the data is not separable, so it never converges"


def analysis_text(a: Any) -> str:
    """The analysis as lines of text: the data, the verdict, the run, and the advice."""
    scaled = f"; features scaled first ({describe_scaler(a.scale)})" if a.scale else ""
    lines = [
        f"n = {a.n} examples, d = {a.d} features"
        + (
            " (+ intercept: R, ρ* and the bound are of the augmented vectors (1, x))"
            if a.fit_intercept
            else ""
        )
        + scaled,
        f"R {_equals(a.R)}"
        + (f"  (R² {_equals(a.R_squared)})" if isinstance(a.R_squared, Fraction) else ""),
        str(a.separability),
    ]
    run = a.run
    run_line = (
        f"perceptron: {format_count(run.mistakes, 'mistake')} in {format_count(run.sweeps, 'sweep')}, "
        f"{a.run_state()}"
    )
    if a.separable:
        lines += _separable_lines(a, run_line)
    else:
        lines += [run_line] + _pocket_lines(a)
    lines += [f"why: {advice.why}\nwhat to do: {advice.fix}" for advice in a.advice]
    return "\n".join(lines)


def _separable_lines(a: Any, run_line: str) -> list[str]:
    """ρ*, the bound, the run against it, leave-one-out and the test-error bound."""
    rho_text = (
        f"ρ*² {_equals(a.rho_squared)}  (ρ* {_equals(a.rho)})"
        if isinstance(a.rho_squared, Fraction)
        else f"ρ* {_equals(a.rho)}"
    )
    lines = [
        rho_text,
        f"Novikoff bound R²/ρ*² {_equals(a.bound)}",
        run_line + f"; {format_percent(a.ratio)} of the bound",
    ]
    if a.loo is not None:
        lines.append(str(a.loo))
    vacuous = (
        "  (vacuous: a bound ≥ 1 on an error probability says nothing)"
        if a.test_error_bound_vacuous
        else ""
    )
    lines.append(f"test-error bound R²/ρ*²/(n+1) {_equals(a.test_error_bound)}{vacuous}")
    return lines


def _pocket_lines(a: Any) -> list[str]:
    """Non-separable data: the pocket's errors and weights, and the Freund–Schapire bound."""
    lines = []
    if a.pocket is not None:
        pocket_errors = cast(int, a.pocket.pocket_errors)  # a pocket run counts them
        lines.append(
            f"pocket: {pocket_errors} training errors "
            f"({pocket_errors / a.n:.2%}); w = {format_display_vector(a.pocket.w)}"
            + (f", b = {shown(a.pocket.b)}" if a.fit_intercept else "")
        )
    if a.freund_schapire is not None:
        where = (
            "as ρ grows without bound"
            if math.isinf(cast(float, a.freund_schapire_rho))
            else f"at ρ = {shown(a.freund_schapire_rho)}"
        )
        lines.append(
            f"Freund–Schapire bound for the pocket's w (one pass): (R + D)²/ρ² = "
            f"{shown(a.freund_schapire)} {where} "
            f"(the perceptron's first sweep: {int(a.run.updates_per_sweep[0])} mistakes)"
        )
    return lines
