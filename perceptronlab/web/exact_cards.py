"""The lab's theory cards computed in exact arithmetic, from :mod:`perceptronlab.pure` (the
standard library alone: the page computes them in the browser as the server does).

R², ρ*² and the bound are Fractions (the cards write "1/√5", "10"); the best line through the
origin (of (1, x) with the bias trick) is the nearest point of the hull of the yᵢxᵢ, and when the
origin lies in that hull its weights are Gordan's certificate (:func:`perceptronlab.pure.geometry.separation`).
A run in floating point gets the same geometry, computed exactly on its points' float values
(every float is a fraction), and written as decimals.
"""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Any

from perceptronlab._ground.numbers import format_number, sqrt_float
from perceptronlab._ground.numbers import format_sqrt as sqrt_text
from perceptronlab.pure.geometry import (
    lifted,
    margin_bound_squared,
    novikoff_squared,
    radius_squared,
    separation,
)
from perceptronlab.web.texts import approx, card_number, decimal, names, vector_text, w_text


def radius_card(
    r_square, fit_intercept: bool, exact: bool = True, r_value: float | None = None
) -> dict[str, Any]:
    """The R card: R = √(largest ‖x‖²), exactly (a float R² with ``exact=False`` is written as a
    decimal); ``r_value`` is R as a float when the caller has it already (else √R²)."""
    r_value = sqrt_float(r_square) if r_value is None else r_value
    aug = " of (1, x)" if fit_intercept else ""
    if not exact:
        return {
            "value": r_value,
            "text": decimal(r_value),
            "detail": f"R² = {decimal(float(r_square))}: the largest ‖x‖²{aug}",
        }
    card: dict[str, Any] = {
        "value": r_value,
        "text": sqrt_text(r_square),
        "detail": f"R² = {format_number(r_square)}: the largest ‖x‖²{aug}",
    }
    if math.isqrt(r_square.numerator) ** 2 != r_square.numerator or r_square.denominator != 1:
        card["detail"] += f" · R ≈ {decimal(r_value)}"
    return card


def proof_card(proof: Any, fit_intercept: bool) -> dict[str, Any]:
    """The separability card of a run that converged: its final w is the proof."""
    return {
        "separable": True,
        "text": "separable",
        "detail": f"the run's final w = {w_text(proof.w, proof.b, fit_intercept)} puts every "
        "point strictly on its side",
        "certificate": [],
        "certificate_weights": [],
    }


def exact_cards(
    rows, signs, fit_intercept: bool, eta: Fraction, margin: Fraction, proof=None, exact=True
):
    """The cards R, ρ*, the bound and separability, and the max-margin line (see
    :func:`perceptronlab.web.cards.theory_cards`); ``rows`` are Fractions (a float run's points as
    the fractions their floats are, with ``exact=False``: then the cards write decimals)."""
    number = format_number if exact else (lambda value: decimal(float(value)))
    r_square = radius_squared(lifted(rows) if fit_intercept else rows)
    found = separation(rows, signs, fit_intercept)
    card_sep: dict[str, Any]
    if proof is not None:
        card_sep = proof_card(proof, fit_intercept)
    elif found.separable:
        p = found.p
        shown = "w = (" + ", ".join(number(c) for c in (p[1:] if fit_intercept else p)) + ")"
        if fit_intercept:
            shown += f", b = {number(p[0])}"
        card_sep = {
            "separable": True,
            "text": "separable",
            "detail": f"Linearly separable: {shown} puts every example strictly on its side "
            f"(smallest y(⟨w,x⟩ + b) = {number(found.rho_squared)}). "
            "The perceptron converges on this data.",
            "certificate": [],
            "certificate_weights": [],
        }
    else:
        support = list(found.certificate)
        weights = [number(found.certificate[i]) for i in support]
        card_sep = {
            "separable": False,
            "text": "not separable",
            "detail": gordan_text(rows, support, weights, fit_intercept),
            "certificate": support,
            "certificate_weights": weights,
            "remedy": "Switch on pocket: it keeps the best weights seen.",
        }
    card_rho, card_bound = unseparated_cards(fit_intercept)
    mm = None
    if found.separable:
        card_rho, card_bound, mm = _margin_cards(found, r_square, fit_intercept, eta, margin, exact)
    cards = {"R": radius_card(r_square, fit_intercept, exact), "rho": card_rho, "bound": card_bound}
    return {**cards, "separable": card_sep}, mm


def _margin_cards(found, r_square: Fraction, fit_intercept: bool, eta, margin, exact: bool):
    """ρ*, Novikoff's bound (or the margin perceptron's) and the best line, from the nearest point."""
    rho_square = found.rho_squared
    rho = sqrt_float(rho_square)
    # w*ⱼ = pⱼ/‖p‖, each rounded once from its exact square (no float sums: Python's sum of floats
    # changed in 3.12, and the browser's Python is newer than the server's)
    unit = [
        math.copysign(sqrt_float(value * value / rho_square), value) if value else 0.0
        for value in found.p
    ]
    w_line, b_line = (unit[1:], unit[0]) if fit_intercept else (unit, 0.0)
    w_star = vector_text(w_line) + (f", b* = {decimal(b_line)}" if fit_intercept else "")
    card_rho = {
        "value": rho,
        "text": sqrt_text(rho_square) if exact else decimal(rho),
        "detail": (
            f"ρ*² = {format_number(rho_square)} · ρ* ≈ {decimal(rho)}"
            if exact
            else f"ρ*² ≈ {decimal(rho * rho)}"
        )
        + f" · unit w* = {w_star}",
    }
    r2: Any = r_square
    rho2: Any = rho_square
    if not exact:  # a float run's bound in floats, as its numbers are shown
        r2, rho2, eta, margin = float(r_square), float(rho_square), float(eta), float(margin)
    bound = novikoff_squared(r2, rho2)
    card_bound = {
        "value": float(bound),
        "text": card_number(bound),
        "detail": approx(bound) + "Novikoff (1962): at most R²/ρ*² mistakes, in any order",
    }
    if margin > 0:
        # updates while y⟨w,x⟩ ≤ ρ₀ with step η: the same as ρ₀/η with step 1
        margin_bound = margin_bound_squared(r2, rho2, margin / eta)
        card_bound.update(
            value=float(margin_bound),
            text=card_number(margin_bound),
            detail=approx(margin_bound) + f"margin perceptron, ρ₀ = {format_number(margin)}: "
            "at most (R² + 2ρ₀/η)/ρ*² updates",
        )
    mm = {"w": w_line, "b": b_line, "band": rho, "rho": rho, "support": found.support}
    return card_rho, card_bound, mm


def separator_name(fit_intercept: bool) -> str:
    """What separates in the lab's plane: a line through the origin, or a plane through the origin
    of (1, x) with the bias trick."""
    return "plane through the origin of (1, x)" if fit_intercept else "line through the origin"


def unseparated_cards(fit_intercept: bool) -> tuple[dict[str, Any], dict[str, Any]]:
    """The margin and bound cards before any separator is known (and when there is none)."""
    card_rho: dict[str, Any] = {
        "value": None,
        "text": "none",
        "detail": f"no {separator_name(fit_intercept)} separates the data",
    }
    card_bound: dict[str, Any] = {
        "value": None,
        "text": "∞",
        "detail": "no mistake bound: the data is not separable",
    }
    return card_rho, card_bound


def gordan_text(
    rows, support: list[int], weights: list[str], fit_intercept: bool, exact: bool = True
) -> str:
    """Gordan's certificate in the page's words: the points by their x-names, the weights, the verdict."""
    where = separator_name(fit_intercept)
    if len(support) == 1 and not fit_intercept and not any(rows[support[0]]):
        return (
            f"{names(support)} is the origin: every line through the origin passes through it, so none "
            "puts it strictly on its side. The perceptron never converges on this data."
        )
    if not weights:
        return f"No {where} puts every point strictly on its side. The perceptron never converges on this data."
    identity = "Σ αᵢyᵢxᵢ = 0" + (" and Σ αᵢyᵢ = 0" if fit_intercept else "")
    shown = ", ".join(weights[:12]) + (", …" if len(weights) > 12 else "")
    return (
        f"{names(support)} with weights α = {shown} give {identity}: no {where} puts all of them strictly "
        f"on their side (Gordan's theorem{', checked exactly' if exact else ''}). "
        "The perceptron never converges on this data."
    )
