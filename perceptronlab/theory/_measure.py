"""The data as the analysis measures it: scaled if asked, then the radius, separability, the best
margin ρ* and Novikoff's bound (:func:`measure`), and how far apart the features' scales are
(:func:`feature_spread`). The one place where the verdict is reached, for ``analyze``, the report
and ``train``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING, Any

import numpy as np

from perceptronlab._ground import validation as v
from perceptronlab._ground.numbers import format_display as shown
from perceptronlab.preprocessing import Scale, fit_scaler
from perceptronlab.theory import _bounds as bounds
from perceptronlab.theory._common import (
    EXACT_LIMIT,
    augment,
    check_dense_memory,
    exact_rows,
    float_matrix,
    is_exact_input,
)
from perceptronlab.theory.geometry import MaxMarginResult, max_margin, radius_squared
from perceptronlab.theory.separability import SeparabilityResult, separable

if TYPE_CHECKING:
    from numpy.typing import ArrayLike, NDArray

    from perceptronlab._ground.types import MatrixLike
    from perceptronlab.core.driver import OnStage


@dataclass(frozen=True)
class FeatureSpread:
    """How far apart the features' scales are: the largest |value| of each non-zero feature, the
    features with the largest and the smallest of them, and their ratio."""

    largest: str
    largest_value: float
    smallest: str
    smallest_value: float

    @property
    def ratio(self) -> float:
        return self.largest_value / self.smallest_value

    def __str__(self) -> str:
        return (
            f"{self.largest} reaches {shown(self.largest_value, 4)} while {self.smallest} stays within "
            f"{shown(self.smallest_value, 4)}"
        )


def feature_spread(X: NDArray[Any], names: list[str] | None = None) -> FeatureSpread | None:
    """The spread of the features' scales of a float matrix (None for fewer than two non-zero features)."""
    largest = np.abs(X).max(axis=0) if X.shape[0] else np.zeros(X.shape[1])
    live = np.flatnonzero(largest > 0)
    if live.shape[0] < 2:
        return None
    top, low = int(live[np.argmax(largest[live])]), int(live[np.argmin(largest[live])])

    def name(j: int) -> str:
        return names[j] if names is not None else f"feature {j + 1}"

    return FeatureSpread(name(top), float(largest[top]), name(low), float(largest[low]))


@dataclass
class Measured:
    """The data as the analysis measures it (:func:`measure`): the one place where the verdict is
    reached, for ``analyze``, the report and ``train``."""

    X: Any  # the data as analysed: scaled, or exact rows' input
    Xf: NDArray[Any]  # ... as float64
    X_units: NDArray[Any]  # float64 in the file's own units (before any scaling)
    exact: bool
    scale: Scale | None
    spread: FeatureSpread | None
    R_squared: Fraction | float
    R: float
    separability: SeparabilityResult
    max_margin: MaxMarginResult | None
    rho_squared: Fraction | float | None
    bound: Fraction | float | None


def measure(
    X: MatrixLike,
    y: ArrayLike,
    fit_intercept: bool = False,
    *,
    scale: Scale | None = None,
    feature_names: list[str] | None = None,
    on_stage: OnStage | None = None,
    max_bytes: Any = None,
) -> Measured:
    """Scale (if asked), then the radius, separability (LP) and, for separable data, the best margin
    ρ* (QP) and Novikoff's bound: the verdict every command shows.

    The memory these dense steps take is estimated from the shape first and refused over
    ``max_bytes`` (default: half the memory this process can still use)."""
    check_dense_memory(X, "the analysis (radius, linear program, margin)", max_bytes)
    Xf = float_matrix(X)
    n, d = Xf.shape
    signs, _ = v.check_labels(y, n)
    if feature_names is not None and len(feature_names) != d:
        raise v.fail(
            "feature_names",
            f"{d} names (one per feature)",
            f"{len(feature_names)} names",
            "Pass the names of the feature columns, or None.",
        )
    X_units = Xf
    scaler = fit_scaler(scale, Xf)
    scale = None if scaler is None else scale
    if scaler is not None:
        X = Xf = np.ascontiguousarray(scaler.transform(Xf), dtype=np.float64)
    exact = is_exact_input(X) and n * d <= EXACT_LIMIT
    rows: Any = exact_rows(X, fit_intercept) if exact else (augment(Xf) if fit_intercept else Xf)
    R2 = radius_squared(X, fit_intercept)
    if on_stage is not None:
        on_stage("separability (linear program)", None)
    separability = separable(X, y, fit_intercept)
    margin = rho2 = bound = None
    if separability.separable:
        if on_stage is not None:
            on_stage("best margin ρ* (quadratic program)", None)
        margin = max_margin(rows, signs, max_bytes=max_bytes)
        margin.fit_intercept = False
        rho2 = margin.rho_squared
        bound = bounds.novikoff(R2, rho2, squared=True) if float(rho2) > 0 else math.inf
    return Measured(
        X=X,
        Xf=Xf,
        X_units=X_units,
        exact=exact,
        scale=scale,
        spread=feature_spread(Xf, feature_names),
        R_squared=R2,
        R=bounds.radius_of(R2),
        separability=separability,
        max_margin=margin,
        rho_squared=rho2,
        bound=bound,
    )
