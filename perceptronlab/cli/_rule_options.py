"""The options of the perceptron's rule that ``train`` and ``trace`` share: --order, and the
group :class:`RuleOptions` (--eta, --intercept, --margin)."""

from __future__ import annotations

import enum
from fractions import Fraction
from typing import Annotated

import typer

from perceptronlab.cli._common import InterceptOpt, parse_number
from perceptronlab.cli._groups import option_group


class Order(str, enum.Enum):
    cyclic = "cyclic"
    shuffle = "shuffle"
    random_mistake = "random-mistake"


EtaOpt = Annotated[
    str,
    typer.Option(
        "--eta",
        metavar="NUMBER",
        help="Learning rate η > 0: 2, 0.5 or 1/2 (from w = 0 it only scales w).",
    ),
]
MarginOpt = Annotated[
    str,
    typer.Option(
        "--margin",
        metavar="NUMBER",
        help="Margin ρ₀ ≥ 0 of the margin perceptron: update while y⟨w,x⟩ ≤ ρ₀.",
    ),
]


@option_group("Learning rule")
class RuleOptions:
    """The perceptron's update: its learning rate, the intercept and the margin."""

    eta: EtaOpt = "1"
    intercept: InterceptOpt = False
    margin: MarginOpt = "0"

    def numbers(self) -> tuple[Fraction, Fraction]:
        """--eta and --margin as exact numbers (one line for a value that is not a number)."""
        return parse_number(self.eta, "--eta"), parse_number(self.margin, "--margin")
