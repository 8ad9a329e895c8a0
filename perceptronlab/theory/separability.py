r"""Linear separability, decided by linear programming, with a proof either way.

Either a strictly separating ``w`` (checked: :math:`y_i(\langle w, x_i\rangle + b) > 0` for all
``i``), or a Gordan certificate that none exists: weights :math:`\alpha \ge 0`, :math:`\sum\alpha_i = 1`
with :math:`\sum_i \alpha_i y_i x_i = 0` (and :math:`\sum_i \alpha_i y_i = 0` with an intercept).
Such an α rules out every ``w``: :math:`0 = \langle w, \sum\alpha_i y_i x_i\rangle =
\sum\alpha_i\, y_i\langle w, x_i\rangle`, which would be > 0 if ``w`` separated strictly.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from typing import TYPE_CHECKING, Any, cast

import numpy as np
import scipy.sparse as sp

from perceptronlab._ground import validation as v
from perceptronlab.exceptions import PerceptronLabError
from perceptronlab.pure.geometry import separation
from perceptronlab.theory._common import (
    EXACT_LIMIT,
    NUMBERING,
    exact_dot,
    exact_rows,
    float_matrix,
    fmt,
    fmt_vector,
    format_display,
    is_exact_input,
    solve_exact,
)

if TYPE_CHECKING:
    from numpy.typing import ArrayLike, NDArray

    from perceptronlab._ground.types import Float64Array, Int64Array, MatrixLike

#: Above this many examples the LP is solved on a working set (violated examples are added).
WORKING_SET_FROM = 3000


@dataclass
class SeparabilityResult:
    r"""Whether the data is linearly separable, with the proof.

    Attributes
    ----------
    separable : bool
    w, b : a strictly separating hyperplane (``None`` when not separable); ``b`` is 0.0 without
        an intercept.
    certificate : numpy.ndarray or None
        Gordan weights α over all n examples (zero outside ``support``) when not separable. For
        exact input the weights are Fractions (an object array) and the identities hold exactly.
    support : numpy.ndarray
        The examples that take part in the certificate (α > 0); empty when separable.
    residual : float
        :math:`\lVert\sum\alpha_i y_i x_i\rVert_\infty` (0 for an exact certificate); for a
        separating ``w`` the smallest :math:`y_i(\langle w, x_i\rangle + b)`.
    exact : bool
        The certificate was checked in rational arithmetic.
    message : str
        The verdict in plain words.
    """

    separable: bool
    w: Float64Array | None
    b: float | None
    certificate: NDArray[Any] | None
    support: Int64Array
    message: str
    residual: float = 0.0
    exact: bool = False
    fit_intercept: bool = False
    classes: Any = field(default=None, repr=False)

    def __bool__(self) -> bool:
        return bool(self.separable)

    def __str__(self) -> str:
        return self.message

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "separable": bool(self.separable),
            "message": self.message,
            "fit_intercept": bool(self.fit_intercept),
        }
        if self.separable:  # w and b are set
            out["w"] = [float(value) for value in cast("Float64Array", self.w)]
            out["b"] = float(cast(float, self.b))
        else:  # the certificate is set
            certificate = cast("NDArray[Any]", self.certificate)
            out["support"] = [int(i) + 1 for i in self.support]
            out["numbering"] = NUMBERING
            out["certificate"] = {
                str(int(i) + 1): (str(certificate[i]) if self.exact else float(certificate[i]))
                for i in self.support
            }
            out["exact"] = bool(self.exact)
        return out


def separable(X: MatrixLike, y: ArrayLike, fit_intercept: bool = False) -> SeparabilityResult:
    r"""Decide linear separability by linear programming (HiGHS), with a checked proof either way.

    Separable: the LP :math:`\min \lVert w\rVert_1` s.t. :math:`y_i(\langle w, x_i\rangle + b) \ge 1`
    is feasible, and its ``w`` is checked to give :math:`y_i(\langle w, x_i\rangle + b) > 0` for
    every example. Not separable: the LP is infeasible and, by Gordan's theorem (Gordan 1873; the
    alternative of Farkas' lemma), there are :math:`\alpha \ge 0`, :math:`\sum\alpha_i = 1` with
    :math:`\sum_i\alpha_i y_i x_i = 0` (and :math:`\sum_i \alpha_i y_i = 0` with an intercept); the
    vertex returned by the simplex method involves at most d + 1 (d + 2) examples, and is re-solved
    on them (in Fractions for exact input) and checked.

    Separable means the cyclic perceptron converges (Novikoff 1962); otherwise it never does.

    Parameters
    ----------
    X : array-like of shape (n, d)
    y : any two labels, or ±1 labels.
    fit_intercept : bool
        Allow an offset b (the perceptron with the bias trick).

    Examples
    --------
    >>> result = separable([[1, 0], [1, 1], [0, 1]], [1, -1, -1])
    >>> bool(result), bool(min(result.w @ [[1, -1, 0], [0, -1, -1]]) > 0)
    (True, True)

    XOR has no separating line; all four points take part in the certificate:

    >>> xor = separable([[0, 0], [1, 1], [0, 1], [1, 0]], [1, 1, -1, -1], fit_intercept=True)
    >>> bool(xor), xor.support.tolist(), [str(a) for a in xor.certificate]
    (False, [0, 1, 2, 3], ['1/4', '1/4', '1/4', '1/4'])
    """
    Xf = float_matrix(X)
    n, d = Xf.shape
    signs, classes = v.check_labels(y, n)
    exact = is_exact_input(X) and n * d <= EXACT_LIMIT
    fit_intercept = bool(fit_intercept)
    if n <= WORKING_SET_FROM:
        W = np.arange(n)
    else:
        W = _initial_working_set(Xf, signs, fit_intercept)
    while True:
        found = _separating_lp(Xf[W], signs[W], fit_intercept)
        if found is None:
            break
        w, b = found
        scores = signs * (Xf @ w + b)
        bad = np.flatnonzero(scores <= 0)
        if bad.shape[0] == 0:
            low = float(scores.min())
            return SeparabilityResult(
                separable=True,
                w=w,
                b=b,
                certificate=None,
                support=np.empty(0, dtype=np.int64),
                residual=low,
                fit_intercept=fit_intercept,
                classes=classes,
                message=(
                    f"Linearly separable: w = {fmt_vector(w)}"
                    + (f", b = {fmt(b)}" if fit_intercept else "")
                    + f" puts every example strictly on its side (smallest y(⟨w,x⟩ + b) = {fmt(low)}). "
                    "The perceptron converges on this data."
                ),
            )
        fresh = np.setdiff1d(bad, W)
        if fresh.shape[0] == 0:
            # The LP's w fails on rows it was given: the data sits on the edge of float precision.
            break
        order = fresh[np.argsort(scores[fresh])][: max(256, 4 * (d + 1))]
        W = np.union1d(W, order)
    return _certificate(X, Xf, signs, W, fit_intercept, exact, classes)


def _initial_working_set(X: Float64Array, signs: Float64Array, fit_intercept: bool) -> NDArray[Any]:
    size = min(X.shape[0], max(1000, 10 * (X.shape[1] + 1)))
    direction = (
        X[signs > 0].mean(axis=0) - X[signs < 0].mean(axis=0)
        if fit_intercept and np.any(signs < 0) and np.any(signs > 0)
        else X.T @ signs
    )
    scores = signs * (X @ direction)
    if fit_intercept:
        return np.arange(X.shape[0])[np.argsort(scores)][:size]
    return np.sort(np.argpartition(scores, size - 1)[:size])


def _separating_lp(
    X: Float64Array, signs: Float64Array, fit_intercept: bool
) -> tuple[Float64Array, float] | None:
    """min Σ(w⁺ + w⁻) s.t. yᵢ(⟨w⁺ − w⁻, xᵢ⟩ + b) ≥ 1; returns (w, b) or None when infeasible."""
    from scipy.optimize import linprog

    n, d = X.shape
    Z = X * signs[:, None]
    blocks = [-Z, Z] + ([-signs[:, None]] if fit_intercept else [])
    A = np.hstack(blocks)
    c = np.r_[np.ones(2 * d), np.zeros(1 if fit_intercept else 0)]
    bounds = [(0, None)] * (2 * d) + ([(None, None)] if fit_intercept else [])
    res = linprog(c, A_ub=sp.csr_matrix(A), b_ub=-np.ones(n), bounds=bounds, method="highs")
    if res.status == 2:
        return None
    if res.status != 0:
        raise PerceptronLabError(
            f"separable: the LP solver (HiGHS) stopped: {res.message} Expected an "
            "optimal or infeasible LP. Rescale the data (e.g. StandardScaler)."
        )
    x = res.x
    return x[:d] - x[d : 2 * d], (float(x[2 * d]) if fit_intercept else 0.0)


def _certificate_lp(
    X: Float64Array, signs: Float64Array, fit_intercept: bool
) -> Float64Array | None:
    """α ≥ 0, Σα = 1, Σ αᵢyᵢxᵢ = 0 (, Σ αᵢyᵢ = 0): a simplex vertex, or None if infeasible."""
    from scipy.optimize import linprog

    n, d = X.shape
    Z = X * signs[:, None]
    rows = [Z.T] + ([signs[None, :]] if fit_intercept else []) + [np.ones((1, n))]
    A_eq = np.vstack(rows)
    b_eq = np.r_[np.zeros(A_eq.shape[0] - 1), 1.0]
    res = linprog(
        np.zeros(n), A_eq=sp.csr_matrix(A_eq), b_eq=b_eq, bounds=[(0, None)] * n, method="highs-ds"
    )
    return None if res.status != 0 else res.x


def _refine_float(
    Z: Float64Array, signs: Float64Array, support: NDArray[Any], fit_intercept: bool
) -> Float64Array:
    rows = (
        [Z[support].T]
        + ([signs[support][None, :]] if fit_intercept else [])
        + [np.ones((1, len(support)))]
    )
    A = np.vstack(rows)
    rhs = np.r_[np.zeros(A.shape[0] - 1), 1.0]
    alpha: Float64Array
    alpha, *_ = np.linalg.lstsq(A, rhs, rcond=None)
    return alpha


def _refine_exact(
    X: MatrixLike, signs: Float64Array, support: NDArray[Any], fit_intercept: bool
) -> list[Fraction] | None:
    rows = exact_rows(X)
    d = len(rows[0])
    S = [int(i) for i in support]
    A = [[int(signs[i]) * rows[i][j] for i in S] for j in range(d)]
    if fit_intercept:
        A.append([Fraction(int(signs[i])) for i in S])
    A.append([Fraction(1)] * len(S))
    rhs = [Fraction(0)] * (len(A) - 1) + [Fraction(1)]
    alpha = solve_exact(A, rhs)
    if alpha is None or any(a < 0 for a in alpha):
        return None
    # Check the identities independently of the solver.
    total = [
        sum((alpha[t] * int(signs[i]) * rows[i][j] for t, i in enumerate(S)), Fraction(0))
        for j in range(d)
    ]
    if exact_dot(total, total) != 0 or sum(alpha) != 1:
        return None
    if fit_intercept and sum(alpha[t] * int(signs[i]) for t, i in enumerate(S)) != 0:
        return None
    return alpha


def _certificate(
    X: MatrixLike,
    Xf: Float64Array,
    signs: Float64Array,
    W: NDArray[Any],
    fit_intercept: bool,
    exact: bool,
    classes: NDArray[Any],
) -> SeparabilityResult:
    n = Xf.shape[0]
    if exact and Xf.shape[1] + fit_intercept <= 3:
        # in the plane (and space): the lab's certificate, the weights of the nearest point of the
        # hull of the yᵢxᵢ when it is the origin (perceptronlab.pure.geometry), computed exactly
        found = separation(exact_rows(X), [int(s) for s in signs], fit_intercept)
        if not found.separable:
            return _exact_result(Xf, found.certificate, fit_intercept, classes)
    alpha_w = _certificate_lp(Xf[W], signs[W], fit_intercept)
    if alpha_w is None:
        raise PerceptronLabError(
            "separable: the data is on the edge of floating-point precision: the separating LP found no "
            "strictly separating w and no Gordan certificate either. Rescale the data (e.g. StandardScaler) "
            "or pass exact input (ints or Fractions)."
        )
    scale = max(1.0, float(np.abs(Xf).max()))
    support = W[alpha_w > 1e-12]
    Z = Xf * signs[:, None]
    certificate = np.zeros(n)
    is_exact = False
    exact_alpha = _refine_exact(X, signs, support, fit_intercept) if exact else None
    if exact_alpha is not None:
        certificate = np.array([Fraction(0)] * n, dtype=object)
        for i, a in zip(support, exact_alpha, strict=True):
            certificate[i] = a
        support = np.array(
            [int(i) for i, a in zip(support, exact_alpha, strict=True) if a > 0], dtype=np.int64
        )
        residual, is_exact = 0.0, True
    else:
        alpha = _refine_float(Z, signs, support, fit_intercept)
        if np.any(alpha < -1e-12) or abs(alpha.sum() - 1) > 1e-9:
            alpha = alpha_w[alpha_w > 1e-12]
        alpha = np.clip(alpha, 0, None)
        alpha = alpha / alpha.sum()
        certificate[support] = alpha
        residual = float(np.abs(Z[support].T @ alpha).max())
        if fit_intercept:
            residual = max(residual, abs(float(signs[support] @ alpha)))
        if residual > 1e-7 * scale:
            raise PerceptronLabError(
                f"separable: the Gordan certificate did not check out (residual {residual:.3g}); the data is "
                "on the edge of floating-point precision. Rescale it or pass exact input."
            )
    return _message_result(Xf, certificate, support, residual, is_exact, fit_intercept, classes)


def _exact_result(
    Xf: Float64Array, weights: dict[int, Fraction], fit_intercept: bool, classes: NDArray[Any]
) -> SeparabilityResult:
    """The result for an exact certificate {i: αᵢ} (its identities hold in Fractions)."""
    certificate = np.array([Fraction(0)] * Xf.shape[0], dtype=object)
    for i, a in weights.items():
        certificate[i] = a
    support = np.array(sorted(weights), dtype=np.int64)
    return _message_result(Xf, certificate, support, 0.0, True, fit_intercept, classes)


def _message_result(
    Xf: Float64Array,
    certificate: NDArray[Any],
    support: NDArray[Any],
    residual: float,
    is_exact: bool,
    fit_intercept: bool,
    classes: NDArray[Any],
) -> SeparabilityResult:
    """The not-separable result with its message."""
    listed = ", ".join(str(int(i) + 1) for i in support[:12]) + (
        ", ..." if len(support) > 12 else ""
    )
    weights = ", ".join(format_display(certificate[i], 4) for i in support[:12]) + (
        ", ..." if len(support) > 12 else ""
    )
    zero = [int(i) for i in support if not Xf[i].any()]
    why = (
        f"example {zero[0] + 1} is the zero vector, which every hyperplane through the origin contains"
        if zero and len(support) == 1 and not fit_intercept
        else f"the examples {listed} with weights alpha = ({weights}) give "
        + (
            "sum alpha_i y_i x_i = 0 and sum alpha_i y_i = 0"
            if fit_intercept
            else "sum alpha_i y_i x_i = 0"
        )
    )
    message = (
        f"Not linearly separable{' (with intercept)' if fit_intercept else ' by a hyperplane through the origin'}: "
        f"{why}, so no w can have {'y_i(<w,x_i> + b)' if fit_intercept else 'y_i<w,x_i>'} > 0 for all of them "
        f"(Gordan's theorem{', checked exactly' if is_exact else f', residual {residual:.1e}'}). "
        "The perceptron will never converge on this data; use perceptronlab.pocket for the best weights."
    )
    return SeparabilityResult(
        separable=False,
        w=None,
        b=None,
        certificate=certificate,
        support=support,
        message=message,
        residual=residual,
        exact=is_exact,
        fit_intercept=fit_intercept,
        classes=classes,
    )
