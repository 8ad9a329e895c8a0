"""What every figure of :mod:`perceptronlab.plots` shares: the colours, the figure, the checks."""

from __future__ import annotations

import numbers
from typing import TYPE_CHECKING, Any

import numpy as np

from perceptronlab._ground.validation import fail

if TYPE_CHECKING:
    from perceptronlab.core.run import Run
    from perceptronlab.plots.figure import PlotFigure

#: colours of the negative and the positive class (colour-blind safe pair)
NEGATIVE_COLOR = "#d95f02"
POSITIVE_COLOR = "#1b6ac9"
BOUND_COLOR = "#7b3294"


def new_figure(width: float, height: float) -> PlotFigure:
    try:
        from perceptronlab.plots.figure import PlotFigure
    except ImportError as exc:  # pragma: no cover - matplotlib is in the test environment
        raise ImportError(
            "perceptronlab.plots needs matplotlib: pip install 'perceptronlab[plots]'"
        ) from exc
    return PlotFigure(figsize=(width, height), layout="constrained")


def positive_number(name: str, value: Any) -> float:
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        try:
            value = float(value)
        except (TypeError, ValueError):
            raise fail(
                name, "a number > 0", repr(value), f"Pass e.g. {name}=perceptronlab.radius(X)."
            ) from None
    number = float(value)
    if not np.isfinite(number) or number <= 0:
        raise fail(
            name, "a finite number > 0", number, f"Pass e.g. {name}=perceptronlab.radius(X)."
        )
    return number


def check_run(run: Any, who: str) -> Run:
    from perceptronlab.core.run import Run

    if not isinstance(run, Run):
        raise fail(
            f"{who}: run",
            "a perceptronlab.Run (from perceptron() or pocket())",
            type(run).__name__,
            "Pass the result of perceptronlab.perceptron(X, y).",
        )
    return run
