"""The lab's display texts: counts, point names (x1 … xn, never 0-based), card numbers, w.

The standard library alone: the lab in the browser writes its answer with these too."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from perceptronlab._ground.numbers import format_number, format_vector


def names(indices: list[int]) -> str:
    """Points as the page names them (x1 … xn), never 0-based indices: [0, 4] -> 'x1, x5'."""
    shown = ", ".join(f"x{i + 1}" for i in indices[:12])
    return shown + (f" and {len(indices) - 12} more" if len(indices) > 12 else "")


def decimal(value: float) -> str:
    return f"{value:.4g}"


def card_number(value: Any) -> str:
    """A card's big number: the exact fraction on the grid (27/2), else 4 significant digits."""
    return format_number(value) if isinstance(value, Fraction) else decimal(float(value))


def approx(value: Any) -> str:
    """'≈ 13.5 · ' for a non-integer fraction (the decimal goes in the card's small print)."""
    if isinstance(value, Fraction) and value.denominator != 1:
        return f"≈ {decimal(float(value))} · "
    return ""


def w_text(w: Any, b: Any, fit_intercept: bool) -> str:
    text = format_vector(w)
    return text + f", b = {format_number(b)}" if fit_intercept else text


def vector_text(values: Any) -> str:
    return "(" + ", ".join(decimal(float(v)) for v in values) + ")"


def float_texts(values: Any) -> list[str]:
    """``format_number`` for many floats at once (integers without ".0", else the shortest repr);
    ``values`` is a float array or a list of floats."""
    values = values.tolist() if hasattr(values, "tolist") else values
    return [str(int(v)) if v.is_integer() and abs(v) < 1e15 else repr(v) for v in values]
