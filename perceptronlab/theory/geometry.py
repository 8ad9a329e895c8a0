r"""Geometry of a labelled sample: radius, distance, margin and the maximum margin.

The quantities of Novikoff's theorem (“Perceptron Mistake Bound”): the radius :math:`R = \max_i \lVert x_i\rVert`,
the signed distance :math:`y\langle w, x\rangle / \lVert w\rVert`, the margin of a given ``w``
(:math:`\min_i y_i\langle w, x_i\rangle / \lVert w\rVert`), and the best margin :math:`\rho^*`
over all ``w``, computed by a quadratic program (Clarabel) on a working set and then certified.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Iterator
from dataclasses import dataclass, field
from fractions import Fraction
from typing import TYPE_CHECKING, Any, Literal, get_args

import numpy as np
import scipy.sparse as sp

from perceptronlab._ground import validation as v
from perceptronlab._ground.numbers import format_display, sqrt_float
from perceptronlab.exceptions import NotSeparableError, PerceptronLabError
from perceptronlab.pure.geometry import separation
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
    solve_exact,
    to_fraction,
)

if TYPE_CHECKING:
    from numpy.typing import ArrayLike, NDArray

    from perceptronlab._ground.types import Float64Array, Int64Array, MatrixLike, VectorLike

#: how max_margin solves: a working set of examples grown until none is violated, or one full QP
Method = Literal["working-set", "full"]
METHODS: tuple[Method, ...] = get_args(Method)
#: the QP solver of the working set ("auto": DAQP when installed, else Clarabel)
Solver = Literal["auto", "daqp", "clarabel"]
SOLVERS: tuple[Solver, ...] = get_args(Solver)

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


def _check_w(w: Any, d: int | None = None, name: str = "w") -> NDArray[Any]:
    try:
        arr = np.array(
            [float(value) for value in np.ravel(np.asarray(w, dtype=object))], dtype=np.float64
        )
    except (TypeError, ValueError) as exc:
        raise v.fail(
            name, "a vector of numbers", repr(w), f"Pass {name} as a sequence of numbers."
        ) from exc
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
    try:
        arr = np.array(
            [float(value) for value in np.ravel(np.asarray(x, dtype=object))], dtype=np.float64
        )
    except (TypeError, ValueError) as exc:
        raise v.fail(
            "x", "a vector of numbers", repr(x), "Pass x as a sequence of numbers."
        ) from exc
    return v.check_vector(arr, d, "x")


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


def _not_separable(detail: str = "") -> NotSeparableError:
    return NotSeparableError(
        "max_margin: expected linearly separable data (some w with y_i(<w,x_i> + b) > 0 for every i), "
        f"got data that no hyperplane separates{detail}, so there is no maximum margin. Call "
        "perceptronlab.separable(X, y) for a certificate naming the examples that prevent it, or "
        "perceptronlab.pocket for the best weights."
    )


def _clarabel_settings(tol: float) -> Any:
    import clarabel

    settings = clarabel.DefaultSettings()
    settings.verbose = False
    settings.tol_gap_abs = tol
    settings.tol_gap_rel = tol
    settings.tol_feas = tol
    settings.tol_ktratio = 1e-10
    settings.max_iter = 200
    return settings


def _solve_qp(
    Xw: Float64Array, yw: Float64Array, fit_intercept: bool, tol: float
) -> tuple[Float64Array, float, Float64Array] | None:
    """min ½‖w‖² s.t. yᵢ(⟨w,xᵢ⟩ + b) ≥ 1 on the rows given. Returns (w, b, dual) or None if infeasible."""
    import clarabel

    m, d = Xw.shape
    Z = Xw * yw[:, None]
    blocks = [Z, yw[:, None]] if fit_intercept else [Z]
    A = sp.csc_matrix(-np.hstack(blocks))
    k = d + (1 if fit_intercept else 0)
    P = sp.diags(np.r_[np.ones(d), np.zeros(k - d)], format="csc")
    solver = clarabel.DefaultSolver(
        P, np.zeros(k), A, -np.ones(m), [clarabel.NonnegativeConeT(m)], _clarabel_settings(tol)
    )
    solution = solver.solve()
    status = solution.status
    if status in (
        clarabel.SolverStatus.PrimalInfeasible,
        clarabel.SolverStatus.AlmostPrimalInfeasible,
    ):
        return None
    if status not in (clarabel.SolverStatus.Solved, clarabel.SolverStatus.AlmostSolved):
        raise PerceptronLabError(
            f"max_margin: the QP solver (Clarabel) stopped with status {status}; expected Solved. "
            "Rescale the data (e.g. StandardScaler) or call perceptronlab.separable(X, y) first."
        )
    x = np.asarray(solution.x)
    return x[:d], (float(x[d]) if fit_intercept else 0.0), np.asarray(solution.z)


def _initial_working_set(
    X: Float64Array, signs: Float64Array, fit_intercept: bool, size: int
) -> Int64Array:
    """The examples closest to the hyperplane of the class-mean direction (from a sample of rows)."""
    n = X.shape[0]
    step = max(1, n // 50_000)
    rows = np.arange(0, n, step)
    Xs, ys = X[::step], signs[::step]
    if fit_intercept:
        direction = Xs[ys > 0].mean(axis=0) - Xs[ys < 0].mean(axis=0)
        projected = Xs @ direction
        # distance to the midpoint between the class means, signed with the label
        scores = ys * (projected - (projected[ys > 0].mean() + projected[ys < 0].mean()) / 2)
        half = max(1, size // 2)
        pos, neg = np.flatnonzero(ys > 0), np.flatnonzero(ys < 0)
        take = np.r_[pos[np.argsort(scores[pos])[:half]], neg[np.argsort(scores[neg])[:half]]]
        return np.unique(rows[take])
    direction = Xs.T @ ys
    scores = ys * (Xs @ direction)
    if size >= scores.shape[0]:
        return rows
    return np.sort(rows[np.argpartition(scores, size - 1)[:size]])


def _best_intercept(w: NDArray[Any], X: NDArray[Any], signs: NDArray[Any]) -> float:
    scores = X @ w
    return float(-(scores[signs > 0].min() + scores[signs < 0].max()) / 2.0)


def _kkt_system(Z: Float64Array, groups: NDArray[Any]) -> tuple[Float64Array, Float64Array]:
    """Least-norm point of the affine hulls (one per group) of the rows of Z: Gc = Σ μ_g 1_g, 1_gᵀc = 1."""
    m = Z.shape[0]
    labels = sorted(set(groups.tolist()))
    G = Z @ Z.T
    K = np.zeros((m + len(labels), m + len(labels)))
    K[:m, :m] = G
    rhs = np.zeros(m + len(labels))
    for j, g in enumerate(labels):
        member = (groups == g).astype(np.float64)
        K[:m, m + j] = -member
        K[m + j, :m] = member
        rhs[m + j] = 1.0
    return K, rhs


def _polish(
    X: Float64Array, signs: Float64Array, support: Int64Array, fit_intercept: bool
) -> Float64Array | None:
    """Solve the KKT equations on the support set; returns a unit w (or None if not consistent)."""
    Z = X[support] * signs[support, None]
    groups = signs[support] if fit_intercept else np.zeros(len(support))
    K, rhs = _kkt_system(Z, groups)
    try:
        sol = np.linalg.solve(K, rhs)
    except np.linalg.LinAlgError:
        sol, *_ = np.linalg.lstsq(K, rhs, rcond=None)
    c = sol[: len(support)]
    if np.any(c < -1e-9):
        return None
    p = Z.T @ c
    norm = np.linalg.norm(p)
    if not np.isfinite(norm) or norm == 0:
        return None
    unit: Float64Array = p / norm
    return unit


def _exact_certificate(
    rows: list[list[Fraction]], signs: Float64Array, candidates: list[int], fit_intercept: bool
) -> tuple[Fraction, list[Fraction]] | None:
    """ρ*² as a Fraction from the support set, with the optimality certificate checked exactly.

    p = Σ cᵢ zᵢ (zᵢ = yᵢxᵢ, c ≥ 0, c summing to 1 over each group) is the nearest point of the
    convex hull(s) to the origin when ⟨p, zₘ⟩ ≥ μ_g(m) for every example m; then ρ*² = ‖p‖²
    (‖p‖²/4 with an intercept: half the distance between the two hulls).
    """
    Z = [[int(s) * value for value in row] for s, row in zip(signs, rows, strict=True)]
    groups_all = [int(s) if fit_intercept else 0 for s in signs]
    S = list(candidates)
    labels = sorted({groups_all[i] for i in S})
    if fit_intercept and len(labels) < 2:
        return None
    m, k = len(S), len(labels)
    A: list[list[Any]] = [
        [exact_dot(Z[i], Z[j]) for j in S] + [-(1 if groups_all[i] == g else 0) for g in labels]
        for i in S
    ]
    A += [[Fraction(1 if groups_all[j] == g else 0) for j in S] + [Fraction(0)] * k for g in labels]
    rhs = [Fraction(0)] * m + [Fraction(1)] * k
    sol = solve_exact(A, rhs)
    if sol is None:
        return None
    c, mu = sol[:m], dict(zip(labels, sol[m:], strict=True))
    if any(value < 0 for value in c):
        return None
    d = len(Z[0])
    p = [sum((c[t] * Z[i][j] for t, i in enumerate(S)), Fraction(0)) for j in range(d)]
    p_sq = exact_dot(p, p)
    if p_sq <= 0:
        return None
    if any(exact_dot(p, Z[i]) < mu[groups_all[i]] for i in range(len(Z))):
        return None
    return (p_sq / 4 if fit_intercept else p_sq), p


def _exact_answers(
    rows: list[list[Fraction]],
    signs: Any,
    active: Any,
    near: Any,
    d: int,
    fit_intercept: bool,
) -> Iterator[tuple[Fraction, list[Fraction]] | None]:
    """(ρ*², p) candidates in exact arithmetic: without an intercept in at most 3 dimensions, the
    nearest point of the hull of the yᵢxᵢ (:func:`perceptronlab.pure.geometry.separation`, the
    lab's own); else the support sets near the float optimum, each checked exactly."""
    if not fit_intercept and d <= 3:
        found = separation(rows, [int(s) for s in signs])
        yield (found.rho_squared, found.p) if found.separable else None
        return
    for subset in _exact_candidate_sets(active, near, d + (1 if fit_intercept else 0)):
        yield _exact_certificate(rows, signs, [int(i) for i in subset], fit_intercept)


def _exact_candidate_sets(
    support: NDArray[Any], near: NDArray[Any] | list[Any], d: int
) -> Iterator[tuple[Any, ...]]:
    yield tuple(support)
    yield tuple(near)
    near = list(near)[:12]
    tried = 0
    for size in range(1, min(len(near), d) + 1):
        for subset in itertools.combinations(near, size):
            tried += 1
            if tried > 2000:
                return
            yield subset


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
    v.check_choice("method", method, METHODS)
    if isinstance(tol, bool) or not isinstance(tol, int | float) or not 0 < tol < 1e-3:
        raise v.fail("tol", "a float in (0, 1e-3)", repr(tol), "Pass e.g. tol=1e-12.")
    check_dense_memory(X, "max_margin (the data as floats)", max_bytes, copies=1)
    Xf = float_matrix(X)
    n, d = Xf.shape
    signs, classes = v.check_labels(y, n)
    exact = is_exact_input(X) and n * d <= EXACT_LIMIT
    _check_degenerate(Xf, signs, fit_intercept)
    picked = _solver_for_memory(_pick_solver(solver), n, d, fit_intercept, method, max_bytes)
    try:
        iterations, W = _working_set_loop(Xf, signs, fit_intercept, method, tol, picked)
    except NotSeparableError:
        _explain_not_separable(Xf, fit_intercept)
        raise
    w_raw, b_raw, dual, W, last_projection = W
    norm = np.linalg.norm(w_raw)
    candidates = [w_raw / norm]
    projections = [last_projection / norm if last_projection is not None else Xf @ candidates[0]]
    active = W[dual > 1e-7 * max(dual.max(), 1e-300)]
    if polish and len(active):
        polished = _polish(Xf, signs, active, fit_intercept)
        if polished is not None:
            candidates.append(polished)
            projections.append(Xf @ polished)
    # Every candidate's margin is checked on every example; keep the one with the larger margin.
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
    near = np.flatnonzero(scores <= best_rho * (1 + 1e-7) + 1e-12)
    support = np.flatnonzero(scores <= best_rho * (1 + 1e-9) + 1e-15)
    rho_squared: Any = best_rho * best_rho
    is_exact = False
    if exact:
        rows = exact_rows(X)
        near_sorted = near[np.argsort(scores[near])]
        for found in _exact_answers(rows, signs, active, near_sorted, d, fit_intercept):
            if found is not None:
                rho_squared, p = found
                is_exact = True
                largest = max(abs(value) for value in p) or Fraction(
                    1
                )  # a direction: scaled exactly
                p_float = np.array(
                    [float(value / largest) for value in p]
                )  # to at most 1, never past a float
                best_w = p_float / np.linalg.norm(p_float)
                best_b = _best_intercept(best_w, Xf, signs) if fit_intercept else 0.0
                best_rho = sqrt_float(rho_squared)
                scores = signs * (Xf @ best_w + best_b)
                support = np.flatnonzero(scores <= best_rho * (1 + 1e-9) + 1e-15)
                break
    if best_rho <= 0:
        raise _not_separable()
    return MaxMarginResult(
        w=best_w,
        b=float(best_b),
        rho=float(best_rho),
        rho_squared=rho_squared,
        support=support,
        exact=is_exact,
        fit_intercept=bool(fit_intercept),
        iterations=iterations,
        working_set_size=len(W),
        classes=classes,
    )


def _pick_solver(solver: Solver) -> Solver:
    v.check_choice("solver", solver, SOLVERS)
    if solver == "clarabel":
        return solver
    try:
        import daqp  # noqa: F401
    except ImportError as exc:
        if solver == "daqp":
            raise v.fail(
                "solver",
                "an installed solver",
                "'daqp' (not installed)",
                "pip install daqp, or pass solver='clarabel'.",
            ) from exc
        return "clarabel"
    return "daqp"


def _qp_bytes(solver: Solver, rows: int, variables: int) -> float:
    """The memory of one QP on ``rows`` examples and ``variables`` unknowns, from the shape: DAQP
    holds the dense Hessian (variables²) and the constraint matrix with its scaled copy; Clarabel a
    sparse KKT system with the constraint matrix and its LDL factor (up to rows² fill)."""
    if solver == "daqp":
        return 8.0 * variables * variables + 24.0 * rows * variables
    return 48.0 * rows * variables + 16.0 * rows * rows + 64.0 * variables


def _solver_for_memory(
    solver: Solver, n: int, d: int, fit_intercept: bool, method: Method, max_bytes: Any
) -> Solver:
    """DAQP when its dense Hessian fits the budget, else Clarabel; refuse (one line, before any
    work) when neither fits. The working set holds at most every example."""
    from perceptronlab._ground.memory import budget_of, check_budget

    variables = d + (1 if fit_intercept else 0)
    # the working set grows by ``add`` rows a round and rarely past a few rounds' worth
    add = max(32, int(ADD_PER_ROUND * (variables + 1)))
    rows = n if method == "full" else min(n, 10 * add)
    if solver == "daqp" and method != "full":
        if _qp_bytes("daqp", rows, variables) <= budget_of(max_bytes):
            return solver
    check_budget(
        _qp_bytes("clarabel", rows, variables),
        "max_margin (the quadratic program for the best margin ρ*)",
        max_bytes=max_bytes,
        detail=f"{rows:,} examples × {variables:,} unknowns",
        subject="a quadratic program",
        smaller="use a sample of the rows or fewer features",
    )
    return "clarabel"


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


#: Working-set tuning: examples added per round and the initial size (multiples of d + 1).
ADD_PER_ROUND = 2.0
INITIAL_SIZE = 2.0
MAX_ROUNDS = 500


def _solve_qp_daqp(
    Xw: Float64Array, yw: Float64Array, fit_intercept: bool, active: Int64Array | None = None
) -> tuple[Float64Array, float, Float64Array] | Literal["failed"] | None:
    """The working-set QP with DAQP (a dense dual active-set solver, Arnström et al. 2022).

    Returns (w, b, multipliers), None when DAQP reports infeasibility, or "failed" otherwise (the
    caller then asks Clarabel).
    """
    import daqp

    m, d = Xw.shape
    Z = Xw * yw[:, None]
    A = np.ascontiguousarray(np.hstack([Z, yw[:, None]]) if fit_intercept else Z)
    k = A.shape[1]
    H = np.diag(np.r_[np.ones(d), np.zeros(k - d)])
    sense = np.zeros(m, dtype=np.intc)
    if active is not None:
        sense[active] = 3  # DAQP: ACTIVE | LOWER, the previous round's support as a warm start
    x, _, flag, info = daqp.solve(
        H, np.zeros(k), A, np.full(m, 1e30), np.ones(m), sense, primal_tol=1e-12, iter_limit=100_000
    )
    if flag == -1:
        return None
    if flag not in (1, 2):
        return "failed"
    x = np.asarray(x)
    return x[:d], (float(x[d]) if fit_intercept else 0.0), np.abs(np.asarray(info["lam"])[-m:])


def _solve_subproblem(
    Xw: Float64Array,
    yw: Float64Array,
    fit_intercept: bool,
    tol: float,
    solver: Solver,
    active: Int64Array | None = None,
) -> tuple[Float64Array, float, Float64Array] | None:
    if solver == "daqp":
        solved = _solve_qp_daqp(Xw, yw, fit_intercept, active)
        if not isinstance(solved, str):
            return solved
    return _solve_qp(Xw, yw, fit_intercept, tol)


def _working_set_loop(
    X: Float64Array,
    signs: Float64Array,
    fit_intercept: bool,
    method: Method,
    tol: float,
    solver: Solver,
) -> tuple[int, tuple[Any, ...]]:
    """Solve on a working set W, add the most violated examples, repeat until none is violated.

    The optimum on W is a lower bound for the full problem; once no example outside W violates
    its constraint, it is the full optimum. Violations are looked for first in a pool of the
    examples closest to the last full pass's hyperplane; the full data is scanned only when the
    pool has none left (and always at the end).
    """
    n, d = X.shape
    k = d + (2 if fit_intercept else 1)
    add = max(32, int(ADD_PER_ROUND * k))
    if method == "full":
        solved = _solve_qp(X, signs, fit_intercept, tol)
        if solved is None:
            raise _not_separable()
        return 1, (*solved, np.arange(n), None)
    if n <= 4 * add:
        W = np.arange(n)
    else:
        W = _initial_working_set(X, signs, fit_intercept, max(64, int(INITIAL_SIZE * k)))
    pool: Any = None
    X_pool: Any = None
    y_pool: Any = None
    pool_size = min(n, max(20 * k, 20_000))
    rounds = 0
    active = None
    while True:
        rounds += 1
        if rounds > MAX_ROUNDS:  # numerical trouble: one interior-point solve of everything
            return _working_set_loop(X, signs, fit_intercept, "full", tol, "clarabel")
        solved = _solve_subproblem(X[W], signs[W], fit_intercept, tol, solver, active)
        if solved is None and solver == "daqp":
            solved = _solve_qp(X[W], signs[W], fit_intercept, tol)  # confirm infeasibility
        if solved is None:
            raise _not_separable()
        w, b, dual = solved
        if W.shape[0] == n:
            return rounds, (w, b, dual, W, None)
        chosen = None
        if pool is not None:
            pool_scores = y_pool * (X_pool @ w + b)
            pool_scores[np.isin(pool, W, assume_unique=True)] = np.inf
            hits = np.flatnonzero(pool_scores < 1 - 1e-9)
            if hits.shape[0]:
                chosen = pool[hits[np.argsort(pool_scores[hits])[:add]]]
        if chosen is None:
            projection = X @ w
            scores = signs * (projection + b)
            scores[W] = np.inf
            violated = np.flatnonzero(scores < 1 - 1e-9)
            if violated.shape[0] == 0:
                return rounds, (w, b, dual, W, projection)
            if pool_size < n:
                pool = np.sort(np.argpartition(scores, pool_size - 1)[:pool_size])
                X_pool, y_pool = X[pool], signs[pool]
            else:
                pool, X_pool, y_pool = np.arange(n), X, signs
            chosen = violated[np.argsort(scores[violated])[:add]]
        supported = W[dual > 0]
        W = np.union1d(W, chosen)
        active = np.searchsorted(W, supported)
