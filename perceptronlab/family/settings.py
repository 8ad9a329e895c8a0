"""A family run's settings: the keyword arguments every family function shares (η, the intercept,
the order, ρ₀, the most sweeps, the seed, the per-sweep hook), checked once and passed down as one
record; the scikit-learn faces make theirs from their own parameters.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from perceptronlab._ground import validation as v
from perceptronlab.core.driver import drive
from perceptronlab.core.perceptron import check_rule_settings

if TYPE_CHECKING:
    from perceptronlab.core.driver import Engine, OnSweep, Outcome

__all__ = ["RunSettings", "check_run_options"]


@dataclass(frozen=True)
class RunSettings:
    """A family run's settings, as the functional API names them: the rule's (η, intercept, ρ₀),
    the order, the most sweeps, the seed and the per-sweep hook."""

    eta: Any
    fit_intercept: bool
    order: str
    margin: Any
    max_sweeps: int
    seed: int | None
    on_sweep: OnSweep | None = None

    @property
    def rule(self) -> dict[str, Any]:
        """The engine's keyword arguments: ``eta``, ``margin``, ``fit_intercept``."""
        return {name: getattr(self, name) for name in ("eta", "margin", "fit_intercept")}

    def params(self, **more: Any) -> dict[str, Any]:
        """The run's recorded parameters (all but the hook), then ``more``."""
        return {name: getattr(self, name) for name in _RECORDED} | more

    def drive(self, engine: Engine) -> Outcome:
        """Drive ``engine`` with these settings. No cycle test: the family's hypotheses (the
        average, the vote) keep changing while the iterates cycle."""
        how = {name: getattr(self, name) for name in ("order", "max_sweeps", "seed", "on_sweep")}
        return drive(engine, cycles=False, **how)


#: the settings a run records in its ``params``, in this order
_RECORDED = ("eta", "fit_intercept", "order", "margin", "max_sweeps", "seed")


def check_run_options(
    eta: Any,
    fit_intercept: Any,
    order: Any,
    margin: Any,
    max_sweeps: Any,
    seed: Any,
    on_sweep: OnSweep | None,
) -> RunSettings:
    """The family functions' shared keyword arguments, checked (with the family's orders) and kept,
    in their order in every family function's signature."""
    check_rule_settings(order, eta, margin, v.FAMILY_ORDERS)
    max_sweeps = v.check_positive_int("max_sweeps", max_sweeps, "Pass e.g. max_sweeps=100.")
    seed = v.check_seed(seed)
    return RunSettings(eta, bool(fit_intercept), order, margin, max_sweeps, seed, on_sweep)
