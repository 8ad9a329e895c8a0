"""Exact numbers: the one place that reads them (ints, Fractions, "1/2", "0.1", "1e-3") and writes
them for people (1/5, 13/(2√73), 1/√5).

Reading is bounded. A text such as ``1e100000000`` names an integer of a hundred million digits;
building it would take minutes, so it is refused (in microseconds) with a message that says the
limit: at most :data:`MAX_DIGITS` digits in a numerator, a denominator or a decimal's digits, and a
decimal exponent of at most :data:`MAX_EXPONENT` in size. A number too large for a float where a
float is needed is an :class:`~perceptronlab.exceptions.InputError`, never an ``OverflowError``.

>>> parse_exact("1/2", "eta"), parse_exact("0.1", "x"), parse_exact(0.1, "x", floats="decimal")
(Fraction(1, 2), Fraction(1, 10), Fraction(1, 10))
>>> format_number(Fraction(-3, 2)), format_sqrt(Fraction(169, 292)), format_sqrt(Fraction(1, 5))
('-3/2', '13/(2√73)', '1/√5')
"""

from __future__ import annotations

import itertools
import math
import numbers
import sys
from decimal import Decimal, InvalidOperation, localcontext
from fractions import Fraction
from typing import Any

from perceptronlab.exceptions import InputError, fail

__all__ = [
    "MAX_DIGITS",
    "MAX_EXPONENT",
    "parse_exact",
    "shown_value",
    "to_float",
    "sqrt_float",
    "format_number",
    "format_vector",
    "format_short",
    "format_sqrt",
    "format_display",
    "format_display_vector",
    "format_percent",
    "format_count",
    "EXACT_SHOWN_CHARS",
]

#: most digits in a numerator, a denominator, or the digits of a decimal text
MAX_DIGITS = 1000
#: largest size of a decimal exponent ("1e1000" is accepted, "1e1001" is not)
MAX_EXPONENT = 1000
# an int of MAX_DIGITS decimal digits has at most this many bits
_MAX_BITS = math.ceil(MAX_DIGITS * math.log2(10))
# a text longer than this cannot be a number within the limits (digits, '/', sign, exponent, '_')
_MAX_TEXT = 2 * MAX_DIGITS + 64

EXPECTED = "a number such as 2, -0.5, 1e-3 or 1/3"
FLOAT_MODES = ("exact", "decimal")


def _is_bool(value: Any) -> bool:
    """A Python or NumPy bool. The standard library alone (the lab runs in a browser without
    NumPy): NumPy's scalar types are looked up only when NumPy is loaded, and none exist before."""
    if isinstance(value, bool):
        return True
    np = sys.modules.get("numpy")
    return np is not None and isinstance(value, np.bool_)


def _is_float(value: Any) -> bool:
    """A Python float or a NumPy floating scalar (float32 and the like)."""
    if isinstance(value, float):
        return True
    np = sys.modules.get("numpy")
    return np is not None and isinstance(value, np.floating)


def _too_long(what: str, got: str) -> InputError:
    return fail(
        what,
        f"an exact number of at most {MAX_DIGITS} digits and an exponent of at most {MAX_EXPONENT}",
        got,
        "Round the value or rescale the data.",
    )


def shown_value(value: Any, *, cut: int = 50) -> str:
    """``repr(value)`` for a message: past 60 characters its first ``cut`` and its length."""
    try:
        text = repr(value)
    except ValueError:  # an int past Python's 4,300-digit limit of conversion to text
        return "a number of more than 4,300 digits"
    return text if len(text) <= 60 else text[:cut] + f"... ({len(text)} characters)"


def _bounded(number: Fraction, what: str, got: str) -> Fraction:
    if number.numerator.bit_length() > _MAX_BITS or number.denominator.bit_length() > _MAX_BITS:
        raise _too_long(what, got)
    return number


def _from_decimal(value: Decimal, what: str, got: str) -> Fraction:
    if not value.is_finite():
        raise fail(what, "a finite number", got, "Remove or fix the NaN or infinite values.")
    _, digits, exponent = value.as_tuple()
    assert isinstance(
        exponent, int
    )  # a finite Decimal's exponent ('n', 'N', 'F' are NaN and infinity's)
    if (
        len(digits) > MAX_DIGITS
        or abs(exponent) > MAX_EXPONENT
        or abs(value.adjusted()) > MAX_EXPONENT
    ):
        raise _too_long(what, got)
    return Fraction(value)


def _from_text(text: str, what: str, got: str, expected: str, fix: str) -> Fraction:
    cleaned = text.strip()
    if len(cleaned) > _MAX_TEXT:
        raise _too_long(what, got)
    if "/" in cleaned:
        top, _, bottom = cleaned.partition("/")
        if len(top.strip().lstrip("+-")) > MAX_DIGITS or len(bottom.strip()) > MAX_DIGITS:
            raise _too_long(what, got)
        try:
            return Fraction(cleaned)
        except (ValueError, ZeroDivisionError):
            raise fail(what, expected, got, fix) from None
    try:
        value = Decimal(cleaned)
    except InvalidOperation:
        raise fail(what, expected, got, fix) from None
    return _from_decimal(value, what, got)


def parse_exact(
    value: Any,
    what: str,
    *,
    floats: str = "exact",
    expected: str = EXPECTED,
    fix: str = "Fix the value.",
    at: str = "",
) -> Fraction:
    """An exact number as a Fraction, within the digit and exponent limits.

    Parameters
    ----------
    value : int, Fraction, Decimal, float, or a text such as ``"2"``, ``"-0.5"``, ``"1e-3"``,
        ``"1/3"`` (surrounding spaces allowed).
    what : the thing being read, for the message (e.g. ``"X[0, 1]"`` or ``"--eta"``).
    floats : ``"exact"`` takes a float at its exact binary value (0.1 is 3602879701896397/2**55);
        ``"decimal"`` takes it as the decimal its shortest repr spells (0.1 is 1/10).
    expected, fix : the message's "expected" and "fix" parts for a value that is not a number.
    at : where the value was, said after it (e.g. ``" on line 3"``).

    Raises
    ------
    InputError
        Not a number, not finite, or past :data:`MAX_DIGITS` / :data:`MAX_EXPONENT`.

    Examples
    --------
    >>> parse_exact(" -3/6 ", "w"), parse_exact("1e3", "w"), parse_exact(2**0.5, "w", floats="decimal")
    (Fraction(-1, 2), Fraction(1000, 1), Fraction(14142135623730951, 10000000000000000))
    >>> parse_exact("1e100000000", "x")
    Traceback (most recent call last):
    ...
    perceptronlab.exceptions.InputError: x: expected an exact number of at most 1000 digits and an \
exponent of at most 1000, got '1e100000000'. Round the value or rescale the data.
    """
    if floats not in FLOAT_MODES:
        raise ValueError(f"floats: expected one of {FLOAT_MODES}, got {floats!r}")
    got = shown_value(value) + at
    if _is_bool(value) or value is None:
        raise fail(what, expected, got, fix)
    if isinstance(value, str):
        return _from_text(value, what, got, expected, fix)
    if isinstance(value, Fraction):
        return _bounded(value, what, got)
    if isinstance(value, numbers.Integral):
        value = int(value)
        digits = int(value.bit_length() * math.log10(2)) + 1
        return _bounded(Fraction(value), what, f"an integer of about {digits} digits{at}")
    if _is_float(value):
        value = float(value)
        if not math.isfinite(value):
            raise fail(what, "a finite number", got, "Remove or fix the NaN or infinite values.")
        return Fraction(value) if floats == "exact" else Fraction(Decimal(repr(value)))
    if isinstance(value, Decimal):
        return _from_decimal(value, what, got)
    if isinstance(value, numbers.Rational):
        return _bounded(Fraction(int(value.numerator), int(value.denominator)), what, got)
    raise fail(what, expected, f"{type(value).__name__} {got}", fix)


def to_float(value: Any, what: str, fix: str = "Rescale the data or the parameter.") -> float:
    """``float(value)``, with an InputError (not an OverflowError) when it is beyond a float.

    >>> to_float(Fraction(1, 4), "eta")
    0.25
    """
    try:
        number = float(value)
    except OverflowError:
        raise fail(
            what, "a number within the float range (about ±1.8e308)", "a larger number", fix
        ) from None
    except (TypeError, ValueError):
        raise fail(what, "a number", shown_value(value), fix) from None
    return number


def sqrt_float(value: Any) -> float:
    """√value as a float for any exact or float value ≥ 0; ``inf`` past the float range.

    ``math.sqrt`` of a Fraction converts it to a float first, which overflows for values past
    about 1.8e308 (weights past 1e154); this takes an integer square root instead.

    >>> sqrt_float(Fraction(1, 4)), sqrt_float(Fraction(10**400))
    (0.5, 1e+200)
    """
    if isinstance(value, Fraction | numbers.Integral) and not isinstance(value, bool):
        value = Fraction(value)
        try:
            return math.sqrt(value)
        except OverflowError:
            # a root of 64 significant bits from integers, then scaled: exact to the last float bit
            shift = max(0, 128 - (value.numerator.bit_length() - value.denominator.bit_length()))
            shift += shift % 2
            root = math.isqrt((value.numerator << shift) // value.denominator)
            try:
                return math.ldexp(float(root), -(shift // 2))
            except OverflowError:
                return math.inf
    return math.sqrt(value)


# ---------------------------------------------------------------- writing

#: Python writes an int of at most this many digits as text (``sys.get_int_max_str_digits``)
_STR_CHUNK = 4000


def int_text(value: int) -> str:
    """``str(value)`` for an int of any size: past Python's 4,300-digit limit of integer-to-text
    conversion it is written in chunks, so that limit's ``ValueError`` never shows.

    >>> len(int_text(10**5000)), int_text(-12)
    (5001, '-12')
    """
    try:
        return str(value)
    except ValueError:
        high, low = divmod(abs(value), 10**_STR_CHUNK)
        return ("-" if value < 0 else "") + int_text(high) + str(low).zfill(_STR_CHUNK)


def _rounded_text(value: Any, digits: int) -> str:
    """An exact value past the float range rounded to ``digits`` significant digits, as
    :func:`_float_text` writes a float (``1.5 × 10⁴⁰⁰``)."""
    value = Fraction(value)
    with localcontext() as context:
        context.prec = digits
        context.Emax, context.Emin = 10**9, -(10**9)
        quotient = Decimal(value.numerator) / Decimal(value.denominator)
    text = f"{quotient:.{digits - 1}e}"
    mantissa, exponent = text.split("e")
    mantissa = mantissa.rstrip("0").rstrip(".") if "." in mantissa else mantissa
    return f"{mantissa} × 10{str(int(exponent)).translate(_SUPERSCRIPT)}"


def format_number(value: Any) -> str:
    """A number as the worksheet writes it: 1, -2, 1/5; floats in shortest round-trip form.

    >>> format_number(Fraction(1, 5)), format_number(4.0), format_number(0.1), format_number(3)
    ('1/5', '4', '0.1', '3')
    """
    if isinstance(value, Fraction):
        top = int_text(value.numerator)
        return top if value.denominator == 1 else f"{top}/{int_text(value.denominator)}"
    if isinstance(value, numbers.Integral) and not _is_bool(value):
        return int_text(int(value))
    value = float(value)
    if value.is_integer() and abs(value) < 1e15:
        return str(int(value))
    return repr(value)


def format_vector(values: Any) -> str:
    """``(1, -2)``: the entries in :func:`format_number` form."""
    return "(" + ", ".join(format_number(v) for v in values) + ")"


def format_short(value: Any, digits: int = 6) -> str:
    """A number for people: Fractions as p/q, floats with ``digits`` significant digits.

    >>> format_short(Fraction(1, 3)), format_short(2 ** 0.5), format_short(2.0)
    ('1/3', '1.41421', '2')
    """
    if isinstance(value, Fraction | numbers.Integral):
        return format_number(Fraction(value))
    value = float(value)
    if value.is_integer() and abs(value) < 1e15:
        return str(int(value))
    return f"{value:.{digits}g}"


#: an exact value is shown exactly when its text is at most this long (else rounded, marked ≈)
EXACT_SHOWN_CHARS = 24

_SUPERSCRIPT = str.maketrans("0123456789-", "⁰¹²³⁴⁵⁶⁷⁸⁹⁻")


def _float_text(value: float, digits: int) -> str:
    if math.isnan(value):
        return "NaN"
    if math.isinf(value):
        return "∞" if value > 0 else "−∞"
    if value.is_integer() and abs(value) < 10**digits:
        return f"{int(value):,}" if abs(value) >= 10_000 else str(int(value))
    text = f"{value:.{digits}g}"
    if "e" not in text:
        return text
    mantissa, exponent = text.split("e")
    return f"{mantissa} × 10{str(int(exponent)).translate(_SUPERSCRIPT)}"


def format_display(value: Any, digits: int = 6) -> str:
    """A number for people (a card, a page, a summary line), to sensible precision.

    Exact values (Fractions, ints) exactly when their text is short (at most
    :data:`EXACT_SHOWN_CHARS` characters), else rounded to ``digits`` significant digits and marked
    ``≈``; integers of five digits and more with thousands separators; floats to ``digits``
    significant digits, with powers of ten written ``× 10ⁿ`` (no float noise such as
    ``8624.643000000617``, no ``e+10``).

    >>> format_display(Fraction(1, 5)), format_display(10), format_display(1379883)
    ('1/5', '10', '1,379,883')
    >>> format_display(8624.643000000617), format_display(3.5301848e10), format_display(3.909e-05)
    ('8624.64', '3.53018 × 10¹⁰', '3.909 × 10⁻⁵')
    >>> format_display(Fraction(1550706562100043017, 100000000000))
    '≈ 1.55071 × 10⁷'
    """
    if _is_bool(value):
        return "yes" if value else "no"
    if isinstance(value, Fraction) and value.denominator == 1:
        value = value.numerator
    if isinstance(value, numbers.Integral):
        value = int(value)
        if abs(value) < 10**EXACT_SHOWN_CHARS:
            return f"{value:,}" if abs(value) >= 10_000 else str(value)
        return "≈ " + _exact_rounded(value, digits)
    if isinstance(value, Fraction):
        if value.numerator.bit_length() + value.denominator.bit_length() <= 4 * EXACT_SHOWN_CHARS:
            text = f"{value.numerator}/{value.denominator}"
            if len(text) <= EXACT_SHOWN_CHARS:
                return text
        return "≈ " + _exact_rounded(value, digits)
    return _float_text(float(value), digits)


def _exact_rounded(value: Any, digits: int) -> str:
    """An exact value rounded for display: as a float where it is one, else from Decimals."""
    try:
        number = float(value)
    except OverflowError:
        return _rounded_text(value, digits)
    if number == 0 and value != 0:  # below the float range
        return _rounded_text(value, digits)
    return _float_text(number, digits)


def format_display_vector(values: Any, digits: int = 6, limit: int = 8) -> str:
    """``(1, -2)``, ``(8624.64, -9095.49, …)``: the first ``limit`` entries in
    :func:`format_display` form, and how many there are when some are left out.

    >>> format_display_vector([Fraction(1), Fraction(-2)]), format_display_vector(range(10), limit=3)
    ('(1, -2)', '(0, 1, 2, … 10 entries)')
    """
    try:
        count = len(
            values
        )  # an array of 10⁸ weights is not copied into a list: only its first entries
    except TypeError:
        values = list(values)
        count = len(values)
    first = list(itertools.islice(iter(values), limit))
    shown = ", ".join(format_display(v, digits) for v in first)
    return f"({shown}, … {format_display(count)} entries)" if count > limit else f"({shown})"


def format_count(count: Any, noun: str) -> str:
    """``1 mistake``, ``1,000 sweeps``, ``1,379,883 mistakes``: a count and its noun, every count of
    four digits and more with thousands separators (one way of writing counts in every table).

    >>> format_count(1, "mistake"), format_count(0, "sweep"), format_count(1000, "sweep")
    ('1 mistake', '0 sweeps', '1,000 sweeps')
    """
    if (
        isinstance(count, numbers.Integral)
        and not isinstance(count, bool)
        and abs(int(count)) < 10**15
    ):
        shown = f"{int(count):,}"
    else:
        shown = format_display(count)
    return f"{shown} {noun}{'' if count == 1 else 's'}"


def format_percent(share: Any, digits: int = 2) -> str:
    """A share as a percentage with ``digits`` significant digits (at least the whole percent).

    >>> format_percent(0.5), format_percent(0.0112934), format_percent(3.909e-05), format_percent(1.25)
    ('50 %', '1.1 %', '0.0039 %', '125 %')
    """
    percent = 100 * float(share)
    if not math.isfinite(percent):
        return f"{_float_text(percent, digits)} %"
    if abs(percent) >= 10**digits:
        return f"{round(percent):,} %"
    rounded = float(f"{percent:.{digits}g}")
    if abs(rounded) >= 1:
        return f"{int(rounded):,} %" if rounded.is_integer() else f"{rounded:g} %"
    return f"{_float_text(rounded, digits)} %"


def _root_of_int(value: int) -> tuple[str, bool]:
    """√value with the largest square factor taken out: 8 → 2√2, 9 → 3; and whether it is a
    product (a factor times a root), which needs parentheses as a denominator."""
    root = math.isqrt(value)
    if root * root == value:
        return str(root), False
    outside, inside = 1, value
    factor = 2
    while factor * factor <= inside and factor < 10_000:
        while inside % (factor * factor) == 0:
            inside //= factor * factor
            outside *= factor
        factor += 1
    return (f"√{inside}", False) if outside == 1 else (f"{outside}√{inside}", True)


def format_sqrt(square: Fraction) -> str:
    """The square root of an exact square as the worksheet writes it.

    A denominator that is a product is put in parentheses: 13/(2√73), not 13/2√73.

    >>> [format_sqrt(Fraction(v)) for v in (2, 8, 9, Fraction(1, 5), Fraction(9, 4), Fraction(2, 3))]
    ['√2', '2√2', '3', '1/√5', '3/2', '√2/√3']
    >>> format_sqrt(Fraction(169, 292)), format_sqrt(Fraction(18, 49))
    ('13/(2√73)', '3√2/7')
    """
    square = Fraction(square)
    top, _ = _root_of_int(square.numerator)
    bottom, product = _root_of_int(square.denominator)
    if bottom == "1":
        return top
    return f"{top}/({bottom})" if product else f"{top}/{bottom}"
