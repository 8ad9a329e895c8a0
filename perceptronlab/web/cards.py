"""The lab's theory cards: R, ρ*, the mistake bound, separability (with Gordan's certificate)."""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from typing import Any

import numpy as np

from perceptronlab._ground.numbers import format_number
from perceptronlab._ground.numbers import format_sqrt as sqrt_text
from perceptronlab.exceptions import NotSeparableError
from perceptronlab.web.exact_cards import (
    exact_cards,
    gordan_text,
    proof_card,
    radius_card,
    unseparated_cards,
)
from perceptronlab.web.request import Points
from perceptronlab.web.texts import approx, card_number, decimal, vector_text


def theory_cards(
    points: Points,
    signs,
    exact: bool,
    fit_intercept: bool,
    eta: Fraction,
    margin: Fraction,
    proof=None,
):
    """The cards R, ρ*, the bound and separability, and the max-margin line (theory toolkit calls).

    With the bias trick the perceptron runs on (1, x): Novikoff's bound then uses R and ρ* of those
    augmented points (the best margin of a plane through the origin of R³), so that is what the
    cards show; the drawn line is that plane's trace ⟨w, x⟩ + b = 0.

    ``proof`` is a converged run: its final weights separate every point strictly, which settles
    separability without the linear program (Gordan's certificate is only needed when a run fails).
    """
    if exact:
        return exact_cards(points.rows(True), signs, fit_intercept, eta, margin, proof)
    from perceptronlab.theory.geometry import radius, radius_squared

    X = points.rows(exact)
    y = np.asarray(signs, dtype=np.int64)
    r_square = radius_squared(X, fit_intercept=fit_intercept)
    card_r = _radius_card(float(radius(X, fit_intercept=fit_intercept)), r_square, fit_intercept)
    card_sep = _separability_card(points, X, y, fit_intercept, proof)
    card_rho, card_bound, mm = _margin_cards(
        (points, exact, X),
        y,
        fit_intercept,
        eta,
        margin,
        r_square if card_sep["separable"] else None,
    )
    return {"R": card_r, "rho": card_rho, "bound": card_bound, "separable": card_sep}, mm


def _radius_card(r_value: float, r_square, fit_intercept: bool) -> dict[str, Any]:
    """The card R: exact as a square root when R² is a Fraction, else a decimal."""
    return radius_card(r_square, fit_intercept, isinstance(r_square, Fraction), r_value)


def _separability_card(points: Points, X, y, fit_intercept: bool, proof) -> dict[str, Any]:
    """The card separability: settled by a converged run, else by the linear program (Gordan)."""
    from perceptronlab.theory.separability import separable

    if proof is not None:
        return proof_card(proof, fit_intercept)
    sep = separable(X, y, fit_intercept=fit_intercept)
    is_separable = bool(sep.separable)
    support = _indices(sep.support)
    weights = []
    if not sep.separable and sep.certificate is not None:
        weights = [
            format_number(sep.certificate[i]) if sep.exact else decimal(float(sep.certificate[i]))
            for i in support
        ]
    card_sep: dict[str, Any] = {
        "separable": is_separable,
        "text": "separable" if is_separable else "not separable",
        "detail": str(sep.message)
        if is_separable
        else gordan_text(points.float_rows, support, weights, fit_intercept, sep.exact),
        "certificate": [] if is_separable else support,
        "certificate_weights": weights,
    }
    if not is_separable:
        card_sep["remedy"] = "Switch on pocket: it keeps the best weights seen."
    return card_sep


def _margin_cards(data, y, fit_intercept: bool, eta: Fraction, margin: Fraction, r_square):
    """The cards ρ* and the bound, and the max-margin line (``r_square`` None: not separable).

    ``data`` is ``(points, exact, X)``: the points are lifted to (1, x) only when needed.
    """
    from perceptronlab.theory.geometry import max_margin

    card_rho, card_bound = unseparated_cards(fit_intercept)
    if r_square is None:
        return card_rho, card_bound, None
    points, exact, X = data
    lifted = points.rows(exact, lift=True) if fit_intercept else X
    try:
        best = max_margin(lifted, y)
    except NotSeparableError:
        return card_rho, card_bound, None
    if not best.rho > 0:
        return card_rho, card_bound, None
    rho = float(best.rho)
    rho_square = best.rho_squared
    w_star = vector_text(best.w[1:] if fit_intercept else best.w)
    if fit_intercept:
        w_star += f", b* = {decimal(float(best.w[0]))}"
    exact_square = (
        rho_square if isinstance(rho_square, Fraction) and isinstance(r_square, Fraction) else None
    )
    exact_pair = exact_square is not None
    card_rho = {
        "value": rho,
        "text": sqrt_text(exact_square) if exact_square is not None else decimal(rho),
        "detail": (
            f"ρ*² = {format_number(rho_square)} · ρ* ≈ {decimal(rho)}"
            if exact_pair
            else f"ρ*² ≈ {decimal(rho * rho)}"
        )
        + f" · unit w* = {w_star}",
    }
    if not exact_pair:
        rho_square, r_square = float(rho_square), float(r_square)
    card_bound = _bound_card(r_square, rho_square, exact_pair, eta, margin)
    mm = {
        "w": [float(c) for c in (best.w[1:] if fit_intercept else best.w)],
        "b": float(best.w[0]) if fit_intercept else 0.0,
        "band": rho,
        "rho": rho,
        "support": _indices(best.support),
    }
    return card_rho, card_bound, mm


def _bound_card(r_square, rho_square, exact_pair: bool, eta: Fraction, margin: Fraction):
    """The card bound: Novikoff's R²/ρ*², or the margin perceptron's when ρ₀ > 0."""
    from perceptronlab import bounds

    if margin > 0:
        # updates while y⟨w,x⟩ ≤ ρ₀ with step η: the same as ρ₀/η with step 1
        rho0 = margin / eta if exact_pair else float(margin) / float(eta)
        margin_bound = bounds.margin_perceptron(r_square, rho_square, rho0, squared=True)
        return {
            "value": float(margin_bound),
            "text": card_number(margin_bound),
            "detail": approx(margin_bound) + f"margin perceptron, ρ₀ = {format_number(margin)}: "
            "at most (R² + 2ρ₀/η)/ρ*² updates",
        }
    bound = bounds.novikoff(r_square, rho_square, squared=True)
    return {
        "value": float(bound),
        "text": card_number(bound),
        "detail": approx(bound) + "Novikoff (1962): at most R²/ρ*² mistakes, in any order",
    }


def _indices(value: Any) -> list[int]:
    if value is None:
        return []
    if isinstance(value, Mapping):
        value = list(value)
    try:
        return sorted({int(i) for i in np.asarray(value).ravel().tolist()})
    except (TypeError, ValueError):
        return []
