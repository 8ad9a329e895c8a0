r"""The quadratic program of the best margin, solved: the working set and its solvers.

:func:`perceptronlab.theory.geometry.max_margin` solves the hard-margin QP

.. math:: \min_{w, b} \tfrac12\lVert w\rVert^2 \quad\text{s.t.}\quad y_i(\langle w, x_i\rangle + b) \ge 1

here: on a working set of examples grown until none is violated (DAQP's active-set method, or
Clarabel's interior-point method, also the full reference solve and the fallback), with the memory
each solver would take estimated from the shape first, and the answer refined on its support set
(the KKT equations).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Literal, get_args

import numpy as np
import scipy.sparse as sp

from perceptronlab._ground import validation as v
from perceptronlab.exceptions import NotSeparableError, PerceptronLabError

if TYPE_CHECKING:
    from numpy.typing import NDArray

    from perceptronlab._ground.types import Float64Array, Int64Array

#: how max_margin solves: a working set of examples grown until none is violated, or one full QP
Method = Literal["working-set", "full"]
METHODS: tuple[Method, ...] = get_args(Method)
#: the QP solver of the working set ("auto": DAQP when installed, else Clarabel)
Solver = Literal["auto", "daqp", "clarabel"]
SOLVERS: tuple[Solver, ...] = get_args(Solver)


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
