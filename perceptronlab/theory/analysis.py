r"""``analyze``: the whole story of seed 000 for one dataset, computed.

Will the perceptron converge (separability, with a proof either way), within how many mistakes
(:math:`R^2/\rho^{*2}`), how many did it actually make, what does leave-one-out say about the
test error, and, for non-separable data, what the Pocket algorithm keeps and which
Freund–Schapire bound its weights give.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import numpy as np

from perceptronlab import _validation as v
from perceptronlab.theory import _bounds as bounds
from perceptronlab.theory._common import (
    EXACT_LIMIT,
    augment,
    exact_rows,
    float_matrix,
    fmt,
    fmt_vector,
    is_exact_input,
)
from perceptronlab.theory.geometry import MaxMarginResult, max_margin, radius_squared
from perceptronlab.theory.loo import LooResult, loo_error
from perceptronlab.theory.separability import SeparabilityResult, separable

#: Exact (Fraction) perceptron runs for exact input up to this many entries (and bounds this large).
EXACT_RUN_LIMIT = 10_000
#: The run's sweep limit: enough for the bound (each unclean sweep makes a mistake), within reason.
MAX_SWEEPS_CAP = 100_000


def _exact_str(value: Any) -> str | None:
    return str(value) if isinstance(value, Fraction) else None


@dataclass
class Analysis:
    r"""What :func:`analyze` found.

    Attributes
    ----------
    n, d : examples and features.
    fit_intercept : the perceptron ran with the bias trick; R, ρ* and the bound are then those of
        the augmented vectors (1, x), where Novikoff's theorem applies.
    R, R_squared : the radius (``R_squared`` exact for exact input).
    separability : :class:`SeparabilityResult` (with the certificate when not separable).
    max_margin : :class:`MaxMarginResult` or None (not separable).
    rho, rho_squared : the best margin ρ* (None when not separable).
    bound : Novikoff's :math:`R^2/\rho^{*2}` (exact for exact input), or None.
    run : the perceptron's run (cyclic order, from w = 0).
    ratio : mistakes / bound.
    loo : :class:`LooResult` (separable data), else None.
    test_error_bound : :math:`R^2/\rho^{*2}/(n+1)` with this sample's R and ρ* (seed 000, Theorem 2).
    pocket : the Pocket run (non-separable data), else None: random-mistake updates checked after
        every update (seed 002), or for large data shuffled sweeps checked after each sweep (seed 003).
    freund_schapire, freund_schapire_rho : the best :math:`(R+D)^2/\rho^2` for the pocket's weights.
    """

    n: int
    d: int
    fit_intercept: bool
    R: float
    R_squared: Any
    separability: SeparabilityResult
    max_margin: MaxMarginResult | None
    rho: float | None
    rho_squared: Any
    bound: Any
    run: Any
    ratio: float | None
    loo: LooResult | None
    test_error_bound: Any
    pocket: Any = None
    freund_schapire: float | None = None
    freund_schapire_rho: float | None = None

    @property
    def separable(self) -> bool:
        return bool(self.separability.separable)

    def to_dict(self) -> dict:
        """A JSON-safe dict: floats for every number, exact values also as strings ``*_exact``."""
        run = self.run
        out: dict[str, Any] = {
            "n": self.n, "d": self.d, "fit_intercept": self.fit_intercept,
            "R": float(self.R), "R_squared": float(self.R_squared), "R_squared_exact": _exact_str(self.R_squared),
            "separable": self.separable, "separability": self.separability.to_dict(),
            "rho": None if self.rho is None else float(self.rho),
            "rho_squared": None if self.rho_squared is None else float(self.rho_squared),
            "rho_squared_exact": _exact_str(self.rho_squared),
            "support": None if self.max_margin is None else [int(i) for i in self.max_margin.support],
            "bound": None if self.bound is None else float(self.bound), "bound_exact": _exact_str(self.bound),
            "run": {"mistakes": int(run.mistakes), "sweeps": int(run.sweeps), "converged": bool(run.converged),
                    "cycled": bool(run.cycled), "w": [float(value) for value in run.w], "b": float(run.b),
                    "first_sweep_mistakes": int(run.updates_per_sweep[0]) if len(run.updates_per_sweep) else 0},
            "ratio": self.ratio,
            "loo": None if self.loo is None else self.loo.to_dict(),
            "test_error_bound": None if self.test_error_bound is None else float(self.test_error_bound),
            "test_error_bound_exact": _exact_str(self.test_error_bound),
        }
        if self.pocket is not None:
            out["pocket"] = {"errors": int(self.pocket.pocket_errors), "error_rate": self.pocket.pocket_errors / self.n,
                             "w": [float(value) for value in self.pocket.w], "b": float(self.pocket.b),
                             "updates": int(self.pocket.mistakes)}
            out["freund_schapire"] = {
                "bound": self.freund_schapire,
                "rho": None if self.freund_schapire_rho is None or math.isinf(self.freund_schapire_rho)
                else self.freund_schapire_rho}
        return out

    def __str__(self) -> str:
        lines = [f"n = {self.n} examples, d = {self.d} features"
                 + (" (+ intercept: R, rho and the bound are of the augmented vectors (1, x))"
                    if self.fit_intercept else ""),
                 f"R = {fmt(self.R)}" + (f"  (R^2 = {self.R_squared})" if isinstance(self.R_squared, Fraction) else ""),
                 str(self.separability)]
        run = self.run
        if self.separable:
            rho_text = (f"rho*^2 = {self.rho_squared}  (rho* = {fmt(self.rho)})"
                        if isinstance(self.rho_squared, Fraction) else f"rho* = {fmt(self.rho)}")
            lines += [rho_text,
                      f"Novikoff bound R^2/rho*^2 = {fmt(self.bound)}",
                      f"perceptron: {run.mistakes} mistakes in {run.sweeps} sweeps"
                      + (", converged" if run.converged else
                         f", NOT converged within max_sweeps = {run.params['max_sweeps']} (Novikoff: it will)")
                      + f"; {fmt(self.ratio, 4)} of the bound"]
            if self.loo is not None:
                lines.append(str(self.loo))
            lines.append(f"test-error bound R^2/rho*^2/(n+1) = {fmt(self.test_error_bound)}")
        else:
            lines.append(f"perceptron: {run.mistakes} mistakes in {run.sweeps} sweeps, "
                         + ("cycled (never converges)" if run.cycled else "no clean sweep"))
            if self.pocket is not None:
                lines.append(f"pocket: {self.pocket.pocket_errors} training errors "
                             f"({self.pocket.pocket_errors / self.n:.2%}); w = {fmt_vector(self.pocket.w)}"
                             + (f", b = {fmt(self.pocket.b)}" if self.fit_intercept else ""))
            if self.freund_schapire is not None:
                where = ("as rho grows without bound" if math.isinf(self.freund_schapire_rho)
                         else f"at rho = {fmt(self.freund_schapire_rho)}")
                lines.append(f"Freund-Schapire bound for the pocket's w (one pass): (R + D)^2/rho^2 = "
                             f"{fmt(self.freund_schapire)} {where} "
                             f"(the perceptron's first sweep: {int(run.updates_per_sweep[0])} mistakes)")
        return "\n".join(lines)


def analyze(X: Any, y: Any, fit_intercept: bool = False, *, loo: bool = True, seed: int = 0) -> Analysis:
    r"""Everything the theory says about the perceptron on ``(X, y)``, next to what it does.

    Computes n, d, the radius R, separability (LP, with a Gordan certificate when not separable),
    the best margin ρ* (QP), Novikoff's bound :math:`R^2/\rho^{*2}`, the actual cyclic run (mistakes,
    sweeps) and its ratio to the bound, the exact leave-one-out error and the test-error bound
    :math:`R^2/\rho^{*2}/(n+1)` (seed 000, Theorems 1 and 2). For non-separable data: the Pocket
    algorithm's weights (Gallant 1990) and the best Freund–Schapire bound for them (1999).

    With ``fit_intercept`` the perceptron runs on the augmented vectors (1, x) (the bias trick of
    seed 002), so R, ρ* and the bound are those of the augmented data: that is where the theorem
    holds for the run.

    Parameters
    ----------
    X, y : the data; exact input (ints, Fractions) gives exact R², ρ*² and bound.
    fit_intercept : bool
    loo : compute the leave-one-out error (one retraining per example of the mistake set).
    seed : seeds the Pocket run.

    Examples
    --------
    >>> report = analyze([[1, 0], [1, 1], [0, 1]], [1, -1, -1])
    >>> report.R_squared, report.rho_squared, report.bound, report.run.mistakes
    (Fraction(2, 1), Fraction(1, 5), Fraction(10, 1), 5)
    """
    fit_intercept = bool(fit_intercept)
    seed = v.check_seed(seed)
    Xf = float_matrix(X)
    n, d = Xf.shape
    signs, _ = v.check_labels(y, n)
    exact = is_exact_input(X) and n * d <= EXACT_LIMIT
    if exact:
        rows = exact_rows(X, fit_intercept)
    else:
        rows = augment(Xf) if fit_intercept else Xf
    R2 = radius_squared(X, fit_intercept)
    separability = separable(X, y, fit_intercept)
    from perceptronlab.core.perceptron import perceptron, pocket

    exact_run = exact and n * d <= EXACT_RUN_LIMIT
    if separability.separable:
        margin = max_margin(rows, signs)
        margin.fit_intercept = False
        rho2 = margin.rho_squared
        bound = bounds.novikoff(R2, rho2, squared=True) if float(rho2) > 0 else math.inf
        sweeps = int(min(MAX_SWEEPS_CAP, max(1000, math.ceil(float(bound)) + 2)))
        exact_run = exact_run and float(bound) <= EXACT_RUN_LIMIT  # at most `bound` Fraction updates
        X_run = X if exact_run else Xf
        run = perceptron(X_run, y, fit_intercept=fit_intercept, exact=exact_run, max_sweeps=sweeps, warn=False)
        loo_result = None
        if loo and run.converged:
            loo_result = loo_error(X_run, y, fit_intercept=fit_intercept, exact=exact_run, max_sweeps=sweeps)
        return Analysis(n=n, d=d, fit_intercept=fit_intercept, R=math.sqrt(R2), R_squared=R2,
                        separability=separability, max_margin=margin, rho=margin.rho, rho_squared=rho2,
                        bound=bound, run=run, ratio=run.mistakes / float(bound), loo=loo_result,
                        test_error_bound=bounds.test_error(R2, rho2, n, squared=True))
    run = perceptron(Xf, y, fit_intercept=fit_intercept, max_sweeps=100, warn=False)
    if n * d <= 20_000:  # the pocket checked after every update (seed 002), as long as that is cheap
        pocket_run = pocket(Xf, y, fit_intercept=fit_intercept, seed=seed)
    else:
        pocket_run = pocket(Xf, y, fit_intercept=fit_intercept, order="shuffle", check="sweep", max_sweeps=1000,
                            seed=seed)
    fs = fs_rho = None
    w_pocket = np.asarray(pocket_run.w, dtype=np.float64)
    w_aug = np.r_[float(pocket_run.b), w_pocket] if fit_intercept else w_pocket
    if np.any(w_aug) and float(R2) > 0:
        fs, fs_rho = bounds.best_freund_schapire(w_aug, augment(Xf) if fit_intercept else Xf, signs,
                                                 R=math.sqrt(float(R2)))
    return Analysis(n=n, d=d, fit_intercept=fit_intercept, R=math.sqrt(R2), R_squared=R2,
                    separability=separability, max_margin=None, rho=None, rho_squared=None, bound=None,
                    run=run, ratio=None, loo=None, test_error_bound=None, pocket=pocket_run,
                    freund_schapire=fs, freund_schapire_rho=fs_rho)
