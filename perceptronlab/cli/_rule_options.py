"""The options of the perceptron's rule that ``train`` and ``trace`` share: --order, --eta, --margin."""

from __future__ import annotations

import enum
from typing import Annotated

import typer


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
