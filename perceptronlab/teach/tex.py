r"""Numbers and vectors as the exam tasks write them: TeX math, decimals, the points' labels.

The formulas are written once, in TeX (``$\rho^2=\tfrac{1}{5}$``), and serve Markdown, LaTeX and,
translated by :mod:`perceptronlab.teach.typeset`, Typst. A square root that is not rational is
written by the one formatter of the package, :func:`perceptronlab._ground.numbers.format_sqrt`,
with its √ turned into ``\sqrt{}``.

>>> tex_num(Fraction(-3, 2)), tex_sqrt(Fraction(8)), tex_sqrt(Fraction(9, 4)), exact_sqrt(Fraction(9, 4))
('-\\tfrac{3}{2}', '2\\sqrt{2}', '\\tfrac{3}{2}', Fraction(3, 2))
"""

from __future__ import annotations

import math
import re
from fractions import Fraction
from typing import Any

from perceptronlab._ground.numbers import format_sqrt, sqrt_float


def plain(value: Any) -> str:
    """An exact number as CSV text: ``-2``, ``1/2``."""
    return str(Fraction(value))


def points_label(value: Fraction) -> str:
    """A task's points: ``4``, ``1.5``."""
    value = Fraction(value)
    return str(value.numerator) if value.denominator == 1 else f"{float(value):g}"


def points_text(value: Fraction) -> str:
    """A task's points in words: ``4 points``, ``1 point``, ``1.5 points``."""
    return f"{points_label(value)} point{'' if Fraction(value) == 1 else 's'}"


def tex_num(value: Any) -> str:
    """An exact number in TeX: ``-2``, ``\\tfrac{1}{5}``, ``-\\tfrac{3}{2}``."""
    value = Fraction(value)
    if value.denominator == 1:
        return str(value.numerator)
    sign = "-" if value < 0 else ""
    return f"{sign}\\tfrac{{{abs(value.numerator)}}}{{{value.denominator}}}"


def tex_vec(values) -> str:
    return "(" + ",".join(tex_num(c) for c in values) + ")"


def tex_list(values) -> str:
    return ",".join(tex_num(c) for c in values)


def tex_sqrt(square: Fraction) -> str:
    """√square in TeX, exact: ``5`` for 25, ``\\tfrac{1}{2}`` for 1/4, else
    :func:`~perceptronlab._ground.numbers.format_sqrt`'s text in TeX: ``\\sqrt{10}``,
    ``2\\sqrt{2}``, ``1/\\sqrt{5}``."""
    square = Fraction(square)
    if is_square(square):
        return tex_num(exact_sqrt(square))
    return re.sub(r"√(\d+)", r"\\sqrt{\1}", format_sqrt(square))


def decimal(value: Any, digits: int = 4) -> str:
    """A Fraction as a decimal: exact when it terminates within ``digits + 4`` places, else rounded."""
    value = Fraction(value)
    for places in range(digits + 5):
        scaled = value * 10**places
        if scaled.denominator == 1:
            text = f"{abs(scaled.numerator):0{places + 1}d}"
            text = text if places == 0 else f"{text[:-places]}.{text[-places:]}"
            return ("-" if value < 0 else "") + text
    return f"{float(value):.{digits}g}"


def approx(value: Any, digits: int = 4) -> str:
    """``= 0.016`` when the decimal is exact, ``\\approx 1.414`` when rounded (TeX)."""
    text = decimal(value, digits)
    return ("=" if Fraction(text) == Fraction(value) else "\\approx ") + text


def tex_exact(value: Fraction) -> str:
    """An exact number in TeX, then its decimal unless it is an integer: ``\\tfrac{9}{2}=4.5``."""
    return tex_num(value) + ("" if value.denominator == 1 else approx(value))


def sweeps_text(first: int, last: int) -> str:
    return f"sweep {first}" if first == last else f"sweeps {first}–{last}"


def join(items: list[str]) -> str:
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


def paren(value: Fraction) -> str:
    return (
        tex_num(value) if Fraction(value).denominator == 1 else f"\\left({tex_num(value)}\\right)"
    )


def is_square(value: Fraction) -> bool:
    value = Fraction(value)
    return all(math.isqrt(k) ** 2 == k for k in (value.numerator, value.denominator))


def sqrt_text(square: Fraction) -> str:
    """√square: exact when it is rational, else a decimal (TeX, without the relation sign)."""
    return tex_sqrt(square) if is_square(square) else decimal(root_decimal(square))


def ratio_text(top: Fraction, norm2: Fraction) -> str:
    """ "=top/‖w‖ ≈ decimal" for a distance top/‖w‖ with ‖w‖² = norm2 (TeX, relation sign first)."""
    value2 = Fraction(top) ** 2 / norm2
    if is_square(norm2):
        return f"={tex_num(Fraction(top) / exact_sqrt(norm2))}"
    root = tex_sqrt(norm2)
    root = root if root.startswith("\\sqrt") else f"\\left({root}\\right)"  # 2√2 as a denominator
    return f"={tex_num(top)}/{root}{approx(root_decimal(value2))}"


def exact_sqrt(square: Fraction) -> Fraction:
    """√square, exactly, for the square of a rational (see :func:`is_square`)."""
    square = Fraction(square)
    return Fraction(math.isqrt(square.numerator), math.isqrt(square.denominator))


def root_decimal(square: Fraction) -> Fraction:
    """√square as a Fraction close to it (the decimal shown next to an exact ρ², marked ≈)."""
    return Fraction(sqrt_float(Fraction(square)))


def data_text(X, y) -> str:
    items = [
        f"$x_{{{i + 1}}}={tex_vec(x)}$ with $y_{{{i + 1}}}={'+1' if s > 0 else '-1'}$"
        for i, (x, s) in enumerate(zip(X, y, strict=True))
    ]
    return join(items)
