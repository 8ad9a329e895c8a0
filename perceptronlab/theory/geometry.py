r"""Geometry of a labelled sample: radius, distance, margin and the maximum margin.

The quantities of Novikoff's theorem (“Perceptron Mistake Bound”): the radius :math:`R = \max_i \lVert x_i\rVert`,
the signed distance :math:`y\langle w, x\rangle / \lVert w\rVert`, the margin of a given ``w``
(:math:`\min_i y_i\langle w, x_i\rangle / \lVert w\rVert`), and the best margin :math:`\rho^*`
over all ``w``, computed by a quadratic program on a working set (:mod:`perceptronlab.theory._qp`)
and then certified (exactly for exact input: :mod:`perceptronlab.theory._certify`).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from fractions import Fraction
from typing import TYPE_CHECKING, Any, NamedTuple

import numpy as np
import scipy.sparse as sp

from perceptronlab._ground import validation as v
from perceptronlab._ground.numbers import format_display, sqrt_float
from perceptronlab.exceptions import NotSeparableError
from perceptronlab.theory._certify import _exact_answers
from perceptronlab.theory._common import (
    EXACT_LIMIT,
    NUMBERING,
    check_dense_memory,
    exact_dot,
    exact_rows,
    float_matrix,
    fmt,
    fmt_vector,
    is_exact_input,
    to_fraction,
)
from perceptronlab.theory._qp import METHODS as METHODS
from perceptronlab.theory._qp import SOLVERS as SOLVERS
from perceptronlab.theory._qp import (
    Method,
    Solver,
    _not_separable,
    _pick_solver,
    _polish,
    _solver_for_memory,
    _working_set_loop,
)

if TYPE_CHECKING:
    from numpy.typing import ArrayLike, NDArray

    from perceptronlab._ground.types import Float64Array, Int64Array, MatrixLike, VectorLike


# ---------------------------------------------------------------- radius


def radius_squared(X: MatrixLike, fit_intercept: bool = False) -> Fraction | float:
    r"""The squared radius :math:`R^2 = \max_i \lVert x_i\rVert^2` of the sample.

    Exact (a ``Fraction``) when ``X`` is exact (ints, Fractions, decimal strings), a float otherwise.

    Parameters
    ----------
    X : array-like of shape (n, d)
    fit_intercept : bool
        Measure the augmented vectors (1, x) on which the perceptron with the bias trick runs.

    Examples
    --------
    The exam task of the lecture notes “Perceptron Mistake Bound”: :math:`R = \lVert (1, 1)\rVert = \sqrt 2`.

    >>> radius_squared([[1, 0], [1, 1], [0, 1]])
    Fraction(2, 1)
    >>> radius_squared([["0.5", "0"], ["0", "1/3"]])
    Fraction(1, 4)
    """
    if is_exact_input(X):
        if isinstance(X, np.ndarray) and X.dtype.kind in "iu" and X.ndim == 2 and X.size:
            v.check_matrix(X)
            big = np.abs(X).max(initial=0)
            if int(big) ** 2 * (X.shape[1] + 1) < 2**62:
                sq = (X.astype(np.int64) ** 2).sum(axis=1) + (1 if fit_intercept else 0)
                return Fraction(int(sq.max()))
        rows = exact_rows(X, fit_intercept)
        return max(exact_dot(row, row) for row in rows)
    Xf: Any = float_matrix(X) if not sp.issparse(X) else v.check_matrix(X)
    if sp.issparse(Xf):
        sq = np.asarray(Xf.multiply(Xf).sum(axis=1)).ravel()
    else:
        sq = np.einsum("ij,ij->i", Xf, Xf)
    return float(sq.max() + (1.0 if fit_intercept else 0.0))


def radius(X: MatrixLike, fit_intercept: bool = False) -> float:
    r"""The radius :math:`R = \max_i \lVert x_i\rVert` of the sample (Novikoff 1962).

    Parameters
    ----------
    X : array-like of shape (n, d), or a sparse matrix
    fit_intercept : bool
        Measure the augmented vectors (1, x) instead (the perceptron with the bias trick).

    Returns
    -------
    float
        See :func:`radius_squared` for the exact square.

    Examples
    --------
    >>> radius([[3, 1], [1, 2], [-1, -1], [0, -2]]) ** 2   # the lecture notes “Perceptron Mistake Bound”: R = sqrt(10)
    10.000000000000002
    >>> radius([[3, 4]])
    5.0
    """
    return sqrt_float(radius_squared(X, fit_intercept))


# ---------------------------------------------------------------- distance and margin


def _float_entries(w: Any, name: str) -> NDArray[np.float64]:
    """Every entry of ``w`` as a float, flattened (the shape is the caller's to check)."""
    try:
        return np.array(
            [float(value) for value in np.ravel(np.asarray(w, dtype=object))], dtype=np.float64
        )
    except (TypeError, ValueError) as exc:
        raise v.fail(
            name, "a vector of numbers", repr(w), f"Pass {name} as a sequence of numbers."
        ) from exc


def _check_w(w: Any, d: int | None = None, name: str = "w") -> NDArray[Any]:
    arr = _float_entries(w, name)
    if np.ndim(w) != 1 and not (np.ndim(w) == 2 and 1 in np.shape(w)):
        raise v.fail(
            name, "a 1-D vector", f"shape {np.shape(w)}", f"Pass {name} as a flat sequence."
        )
    arr = v.check_vector(arr, d, name)
    if not np.isfinite(arr).all():
        raise v.fail(name, "finite entries", "NaN or inf", f"Fix {name}.")
    if not np.any(arr):
        raise v.fail(
            name,
            "a nonzero normal vector",
            "the zero vector",
            "A zero w defines no hyperplane; pass the normal vector of one, e.g. w = (1, -2).",
        )
    return arr


def _check_b(b: Any) -> float:
    if isinstance(b, bool) or not isinstance(b, int | float | Fraction | np.number):
        raise v.fail(
            "b (the intercept)",
            "a number",
            repr(b),
            "Pass b=0.0 for a hyperplane through the origin.",
        )
    if not math.isfinite(float(b)):
        raise v.fail("b (the intercept)", "a finite number", b, "Pass a finite intercept.")
    return float(b)


def distance(w: ArrayLike, x: ArrayLike, y: Any = None, b: float = 0.0) -> float:
    r"""Signed distance of ``x`` to the hyperplane :math:`\{x : \langle w, x\rangle + b = 0\}`.

    .. math:: r = y\,\frac{\langle w, x\rangle + b}{\lVert w\rVert}

    (the lecture notes “Perceptron Mistake Bound”: :math:`x = h + r\,w/\lVert w\rVert` with
    :math:`\langle h, w\rangle = 0`). Without ``y``
    the distance is signed by the side ``w`` points to; with ``y`` it is positive exactly when the
    point is on its label's side.

    Examples
    --------
    The mini example of the lecture notes “Perceptron Mistake Bound” and multiple-choice question:

    >>> distance([3, 4], [1, 2], +1), distance([3, 4], [1, -1], -1)
    (2.2, 0.2)
    >>> distance([2, 0], [-3, 1], -1)
    3.0
    """
    w_arr = _check_w(w)
    x_arr = _check_w_like_x(x, w_arr.shape[0])
    sign = 1.0 if y is None else _check_sign(y)
    return float(sign * (np.dot(w_arr, x_arr) + _check_b(b)) / np.linalg.norm(w_arr))


def _check_w_like_x(x: Any, d: int) -> NDArray[Any]:
    return v.check_vector(_float_entries(x, "x"), d, "x")


def _check_sign(y: Any) -> float:
    if (
        isinstance(y, bool)
        or not isinstance(y, int | float | np.number)
        or float(y) not in (-1.0, 1.0)
    ):
        raise v.fail(
            "y (the label)",
            "+1 or -1",
            repr(y),
            "Pass y=+1 or y=-1 (or None for the unsigned side).",
        )
    return float(y)


def margin(w: VectorLike, X: MatrixLike, y: ArrayLike, b: float = 0.0) -> float:
    r"""The margin of ``w`` on the sample: the smallest signed distance of a point to its hyperplane.

    .. math:: \rho(w) = \min_i \frac{y_i(\langle w, x_i\rangle + b)}{\lVert w\rVert}

    Negative when ``w`` misclassifies a point, zero when a point lies on the hyperplane. Invariant
    to rescaling ``w`` (and ``b``). Reference: the lecture notes “Perceptron Mistake Bound”, "The
    margin of a separating hyperplane".

    Examples
    --------
    The margin task of the lecture notes “Perceptron Mistake Bound”: :math:`\rho_A = \sqrt 2`,
    :math:`\rho_B = 3/\sqrt 5`.

    >>> X, y = [[3, 1], [1, 2], [-1, -1], [0, -2]], [1, 1, -1, -1]
    >>> round(margin([1, 1], X, y) ** 2, 12), round(margin([1, 2], X, y) ** 2, 12)
    (2.0, 1.8)
    """
    Xf = float_matrix(X)
    signs, _ = v.check_labels(y, Xf.shape[0])
    w_arr = _check_w(w, Xf.shape[1])
    scores = signs * (Xf @ w_arr + _check_b(b))
    return float(scores.min() / np.linalg.norm(w_arr))


def margin_squared(w: VectorLike, X: MatrixLike, y: ArrayLike) -> Fraction | float:
    r"""The squared margin :math:`\rho(w)^2` of a separating ``w`` without intercept, exact for exact input.

    Raises :class:`~perceptronlab.exceptions.InputError` when ``w`` does not separate (the squared
    margin would lose the sign).

    Examples
    --------
    >>> margin_squared([1, -2], [[1, 0], [1, 1], [0, 1]], [1, -1, -1])   # exam task: 1/5
    Fraction(1, 5)
    """
    if not (is_exact_input(X) and is_exact_input([list(np.ravel(np.asarray(w, dtype=object)))])):
        rho = margin(w, X, y)
        if rho <= 0:
            raise v.fail(
                "w",
                "a vector that separates the data",
                f"margin {rho:.6g} <= 0",
                "Use margin(w, X, y) for the signed margin.",
            )
        return rho * rho
    rows = exact_rows(X)
    signs, _ = v.check_labels(y, len(rows))
    _check_w(w, len(rows[0]))
    w_exact = [to_fraction(value) for value in np.ravel(np.asarray(w, dtype=object))]
    low = min(int(s) * exact_dot(w_exact, row) for s, row in zip(signs, rows, strict=True))
    if low <= 0:
        raise v.fail(
            "w",
            "a vector that separates the data",
            f"min y<w,x> = {low} <= 0",
            "Use margin(w, X, y) for the signed margin.",
        )
    return low * low / exact_dot(w_exact, w_exact)


# ---------------------------------------------------------------- max_margin


@dataclass
class MaxMarginResult:
    r"""The hard-margin separator of a sample and its margin :math:`\rho^*`.

    Attributes
    ----------
    w : numpy.ndarray
        Unit normal vector of the maximum-margin hyperplane.
    b : float
        Its intercept (0.0 without ``fit_intercept``).
    rho : float
        The maximum margin :math:`\rho^*` (the margin of ``w``, ``b``, checked on every point).
    rho_squared : Fraction or float
        :math:`\rho^{*2}`, a ``Fraction`` when ``exact``.
    support : numpy.ndarray
        Indices of the support vectors (the examples at distance :math:`\rho^*`).
    exact : bool
        ``rho_squared`` is exact, with an optimality certificate checked in rational arithmetic.
    fit_intercept : bool
    iterations : int
        Working-set rounds (1 for a single full QP).
    working_set_size : int
        Number of examples in the last QP.
    """

    w: Float64Array
    b: float
    rho: float
    rho_squared: Fraction | float
    support: Int64Array
    exact: bool
    fit_intercept: bool = False
    iterations: int = 1
    working_set_size: int = 0
    classes: Any = field(default=None, repr=False)

    @property
    def B(self) -> float:
        """The norm B = 1/ρ* of the smallest w with yᵢ⟨w,xᵢ⟩ ≥ 1 (the (RB)² form of the text
        “Perceptron Algorithm for Halfspaces”)."""
        return 1.0 / self.rho

    def __str__(self) -> str:
        shown = format_display(self.rho_squared)  # a long exact ρ² is rounded and marked ≈
        head = (
            f"ρ² {'' if shown.startswith('≈') else '= '}{shown}"
            if self.exact
            else f"ρ = {fmt(self.rho, 10)}"
        )
        if self.exact:
            head += f" (ρ ≈ {fmt(self.rho, 10)})"
        where = "with intercept" if self.fit_intercept else "through the origin"
        text = f"maximum margin {where}: {head}; w = {fmt_vector(self.w)}"
        if self.fit_intercept:
            text += f", b = {fmt(self.b)}"
        support = ", ".join(str(int(i) + 1) for i in self.support[:10]) + (
            ", …" if len(self.support) > 10 else ""
        )
        return text + f"; support vectors: {support}"

    def to_dict(self) -> dict[str, Any]:
        return {
            "w": [float(value) for value in self.w],
            "b": float(self.b),
            "rho": float(self.rho),
            "rho_squared": str(self.rho_squared) if self.exact else float(self.rho_squared),
            "support": [int(i) + 1 for i in self.support],
            "numbering": NUMBERING,
            "exact": bool(self.exact),
            "fit_intercept": bool(self.fit_intercept),
        }


def _best_intercept(w: NDArray[Any], X: NDArray[Any], signs: NDArray[Any]) -> float:
    scores = X @ w
    return float(-(scores[signs > 0].min() + scores[signs < 0].max()) / 2.0)


def max_margin(
    X: MatrixLike,
    y: ArrayLike,
    fit_intercept: bool = False,
    *,
    method: Method = "working-set",
    solver: Solver = "auto",
    tol: float = 1e-12,
    polish: bool = True,
    max_bytes: Any = None,
) -> MaxMarginResult:
    r"""The maximum-margin (hard-margin SVM) hyperplane, its margin :math:`\rho^*` and support vectors.

    Solves the quadratic program (Vapnik 1995; “Perceptron Algorithm for Halfspaces”'s B)

    .. math:: \min_{w, b} \tfrac12\lVert w\rVert^2 \quad\text{s.t.}\quad
              y_i(\langle w, x_i\rangle + b) \ge 1 \;\; (i = 1, \dots, n),
              \qquad \rho^* = 1/\lVert w\rVert,

    on a *working set*: solve on a small subset (DAQP's active-set method, or Clarabel's
    interior-point method), add the most violated examples, repeat until no example is violated
    (the subset's optimum is then the full optimum). The result is polished by solving the KKT
    equations on the support set,
    and ``rho`` is the margin of the returned ``w`` checked on every example.

    Without an intercept :math:`\rho^*` is the distance from the origin to the convex hull of the
    :math:`z_i = y_i x_i`; in 2-D it is either :math:`\lVert z_k\rVert` or
    :math:`|\det(z_i, z_j)| / \lVert z_i - z_j\rVert`. For exact input (ints, Fractions, decimal
    strings) the nearest point is recomputed in rational arithmetic and its optimality is checked
    exactly, so ``rho_squared`` is a ``Fraction`` ("ρ² = 1/5").

    Parameters
    ----------
    X : array-like of shape (n, d)
    y : any two labels (the larger is +1), or ±1 labels (one class allowed without intercept).
    fit_intercept : bool
        Allow an offset b: then :math:`\rho^*` is half the distance between the two classes' hulls.
    method : "working-set" (default) or "full" (one Clarabel QP on every example: the
        interior-point reference).
    solver : the working-set subproblems' solver: "daqp" (dense active set, fast for d up to a
        few hundred), "clarabel" (interior point), or "auto" (DAQP when installed).
    tol : Clarabel's gap and feasibility tolerances.
    polish : bool
        Refine on the support set (KKT equations) and keep whichever ``w`` has the larger margin.
    max_bytes : the memory the QP may take (e.g. ``"4G"``; default: half the memory this process
        can still use). Estimated from the shape before solving: DAQP's dense Hessian is
        (d + 1)² floats, so wide data goes to Clarabel (sparse); data too large for either is
        refused with one line.

    Returns
    -------
    MaxMarginResult

    Raises
    ------
    NotSeparableError
        No hyperplane separates the data (see :func:`perceptronlab.separable`).

    Examples
    --------
    The exam task of the lecture notes “Perceptron Mistake Bound”: :math:`w^* \propto (1, -2)`,
    :math:`\rho^* = 1/\sqrt 5`.

    >>> result = max_margin([[1, 0], [1, 1], [0, 1]], [1, -1, -1])
    >>> print(result.rho_squared, (result.w * 5 ** 0.5).round(9).tolist())
    1/5 [1.0, -2.0]
    >>> result.support.tolist()
    [0, 1]
    """
    _check_options(X, method, tol, max_bytes)
    Xf = float_matrix(X)
    n, d = Xf.shape
    signs, classes = v.check_labels(y, n)
    exact = is_exact_input(X) and n * d <= EXACT_LIMIT
    iterations, solved = _solve_float(Xf, signs, fit_intercept, method, tol, solver, max_bytes)
    w_raw, _, dual, W, last_projection = solved
    active = W[dual > 1e-7 * max(dual.max(), 1e-300)]
    best = _best_candidate(Xf, signs, w_raw, last_projection, active, fit_intercept, polish)
    if exact:
        best = _exact_optimum(X, Xf, signs, active, best, fit_intercept) or best
    if best.rho <= 0:
        raise _not_separable()
    return MaxMarginResult(
        w=best.w,
        b=float(best.b),
        rho=float(best.rho),
        rho_squared=best.rho_squared,
        support=best.support,
        exact=best.exact,
        fit_intercept=bool(fit_intercept),
        iterations=iterations,
        working_set_size=len(W),
        classes=classes,
    )


def _check_options(X: MatrixLike, method: Method, tol: float, max_bytes: Any) -> None:
    """max_margin's settings, and the memory of the data as floats, before any work."""
    v.check_choice("method", method, METHODS)
    if isinstance(tol, bool) or not isinstance(tol, int | float) or not 0 < tol < 1e-3:
        raise v.fail("tol", "a float in (0, 1e-3)", repr(tol), "Pass e.g. tol=1e-12.")
    check_dense_memory(X, "max_margin (the data as floats)", max_bytes, copies=1)


def _solve_float(
    Xf: Float64Array,
    signs: Float64Array,
    fit_intercept: bool,
    method: Method,
    tol: float,
    solver: Solver,
    max_bytes: Any,
) -> tuple[int, tuple[Any, ...]]:
    """The QP in floats (:mod:`perceptronlab.theory._qp`) with the solver that fits the memory:
    (rounds, (w, b, multipliers, working set, the last projection X·w or None)); data that no
    hyperplane separates is refused naming its degenerate cases."""
    n, d = Xf.shape
    _check_degenerate(Xf, signs, fit_intercept)
    picked = _solver_for_memory(_pick_solver(solver), n, d, fit_intercept, method, max_bytes)
    try:
        return _working_set_loop(Xf, signs, fit_intercept, method, tol, picked)
    except NotSeparableError:
        _explain_not_separable(Xf, fit_intercept)
        raise


class _Optimum(NamedTuple):
    """The best separator found: unit w, b, its margin ρ (checked on every example), ρ², the
    support vectors, the examples' scores yᵢ(⟨w,xᵢ⟩ + b), and whether ρ² is exact."""

    w: Any
    b: float
    rho: float
    rho_squared: Any
    support: Int64Array
    scores: Float64Array
    exact: bool = False


def _best_candidate(
    Xf: Float64Array,
    signs: Float64Array,
    w_raw: Float64Array,
    last_projection: Float64Array | None,
    active: Int64Array,
    fit_intercept: bool,
    polish: bool,
) -> _Optimum:
    """The QP's w and, with ``polish``, its refinement on the support set (the KKT equations):
    every candidate's margin is checked on every example, and the larger margin is kept."""
    norm = np.linalg.norm(w_raw)
    candidates = [w_raw / norm]
    projections = [last_projection / norm if last_projection is not None else Xf @ candidates[0]]
    if polish and len(active):
        polished = _polish(Xf, signs, active, fit_intercept)
        if polished is not None:
            candidates.append(polished)
            projections.append(Xf @ polished)
    best_w: Any = None
    best_b, best_rho, scores = 0.0, -np.inf, np.empty(0)
    for w_unit, column in zip(candidates, projections, strict=True):
        b = (
            float(-(column[signs > 0].min() + column[signs < 0].max()) / 2.0)
            if fit_intercept
            else 0.0
        )
        cand_scores = signs * (column + b)
        rho = float(cand_scores.min())
        if rho > best_rho:
            best_w, best_b, best_rho, scores = w_unit, b, rho, cand_scores
    support = np.flatnonzero(scores <= best_rho * (1 + 1e-9) + 1e-15)
    return _Optimum(best_w, best_b, best_rho, best_rho * best_rho, support, scores)


def _exact_optimum(
    X: MatrixLike,
    Xf: Float64Array,
    signs: Float64Array,
    active: Int64Array,
    best: _Optimum,
    fit_intercept: bool,
) -> _Optimum | None:
    """The optimum of exact input in rational arithmetic (:mod:`perceptronlab.theory._certify`),
    from the support sets near the float optimum ``best`` (closest first); None when no
    candidate's certificate holds."""
    scores = best.scores
    near = np.flatnonzero(scores <= best.rho * (1 + 1e-7) + 1e-12)
    near_sorted = near[np.argsort(scores[near])]
    rows = exact_rows(X)
    for found in _exact_answers(rows, signs, active, near_sorted, Xf.shape[1], fit_intercept):
        if found is not None:
            rho_squared, p = found
            largest = max(abs(value) for value in p) or Fraction(1)  # a direction: scaled exactly
            p_float = np.array(
                [float(value / largest) for value in p]
            )  # to at most 1, never past a float
            w = p_float / np.linalg.norm(p_float)
            b = _best_intercept(w, Xf, signs) if fit_intercept else 0.0
            rho = sqrt_float(rho_squared)
            scores = signs * (Xf @ w + b)
            support = np.flatnonzero(scores <= rho * (1 + 1e-9) + 1e-15)
            return _Optimum(w, b, rho, rho_squared, support, scores, exact=True)
    return None


def _check_degenerate(X: Float64Array, signs: Float64Array, fit_intercept: bool) -> None:
    if fit_intercept and (np.all(signs > 0) or np.all(signs < 0)):
        raise v.fail(
            "y (the labels)",
            "both classes when fit_intercept=True",
            "a single class (its margin is unbounded: move the hyperplane away)",
            "Pass data with both labels, or fit_intercept=False.",
        )


def _explain_not_separable(X: Float64Array, fit_intercept: bool) -> None:
    """Name the degenerate cases (all points at the origin, a zero example) in the error."""
    nonzero_rows = X.any(axis=1)
    if not nonzero_rows.any():
        raise _not_separable(" (all points are at the origin)")
    if not fit_intercept and not nonzero_rows.all():
        zero = int(np.flatnonzero(~nonzero_rows)[0])
        raise _not_separable(
            f" (example {zero + 1} is the zero vector: every hyperplane through the origin "
            "contains it)"
        )
