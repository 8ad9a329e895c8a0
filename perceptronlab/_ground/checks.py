"""Checks of plain values that need only the standard library (the lab's request runs in a browser
without NumPy too); :mod:`perceptronlab._ground.validation` re-exports them."""

from __future__ import annotations

import numbers
from typing import Any, Literal, get_args

from perceptronlab.exceptions import fail

PocketCheck = Literal["update", "sweep", "ratchet"]
POCKET_CHECKS: tuple[PocketCheck, ...] = get_args(PocketCheck)


def check_int_between(name: str, value: Any, low: int, high: int, fix: str) -> int:
    """An integer from ``low`` to ``high`` (a bool is not an integer here).

    >>> check_int_between("options.seed", 3, 0, 10, "Send e.g. seed: 0.")
    3
    """
    if (
        isinstance(value, bool)
        or not isinstance(value, numbers.Integral)
        or not low <= int(value) <= high
    ):
        raise fail(name, f"an integer from {low} to {high:,}", repr(value), fix)
    return int(value)


def check_flag(name: str, value: Any, fix: str) -> bool:
    """True or False, nothing else (no 0/1, no "yes")."""
    if not isinstance(value, bool):
        raise fail(name, "true or false", repr(value), fix)
    return value
