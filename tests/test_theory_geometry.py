"""Geometry: radius, distance, margin and max_margin against the seeds, brute force, the full QP and SVC."""

from __future__ import annotations

import itertools
import math
from fractions import Fraction

import numpy as np
import pytest
import scipy.sparse as sp

from perceptronlab import InputError, NotSeparableError, distance, margin, max_margin, radius
from perceptronlab.theory import margin_squared, radius_squared

EXAM_X, EXAM_Y = [[1, 0], [1, 1], [0, 1]], [1, -1, -1]
MARGIN_X, MARGIN_Y = [[3, 1], [1, 2], [-1, -1], [0, -2]], [1, 1, -1, -1]


# ---------------------------------------------------------------- brute-force oracles (2-D, exact)


def _dot(a, b):
    return sum(Fraction(x) * Fraction(y) for x, y in zip(a, b, strict=True))


def brute_rho_squared(X, y):
    """max over candidate normals (each z_k, and both normals of each z_i - z_j) of the squared margin."""
    Z = [[int(s) * Fraction(v) for v in row] for row, s in zip(X, y, strict=True)]
    candidates = [list(z) for z in Z]
    for zi, zj in itertools.combinations(Z, 2):
        e = [zi[0] - zj[0], zi[1] - zj[1]]
        candidates += [[-e[1], e[0]], [e[1], -e[0]]]
    best = None
    for w in candidates:
        if not any(w):
            continue
        low = min(_dot(w, z) for z in Z)
        if low > 0:
            value = low * low / _dot(w, w)
            best = value if best is None or value > best else best
    return best


def brute_rho_squared_intercept(X, y):
    """With an intercept: normals x_p - x_n and the normals of same-class edges, best b for each."""
    P = [[Fraction(v) for v in row] for row, s in zip(X, y, strict=True) if s > 0]
    N = [[Fraction(v) for v in row] for row, s in zip(X, y, strict=True) if s < 0]
    candidates = [[p[0] - q[0], p[1] - q[1]] for p in P for q in N]
    for group in (P, N):
        for a, c in itertools.combinations(group, 2):
            e = [a[0] - c[0], a[1] - c[1]]
            candidates += [[-e[1], e[0]], [e[1], -e[0]]]
    best = None
    for w in candidates:
        if not any(w):
            continue
        gap = min(_dot(w, p) for p in P) - max(_dot(w, q) for q in N)
        if gap > 0:
            value = gap * gap / 4 / _dot(w, w)
            best = value if best is None or value > best else best
    return best


def random_separable(n, d, seed, gap=0.1, intercept=False):
    rng = np.random.default_rng(seed)
    X = rng.standard_normal((n, d))
    w = rng.standard_normal(d)
    w /= np.linalg.norm(w)
    y = np.sign(X @ w + (0.4 if intercept else 0.0))
    y[y == 0] = 1
    return X + gap * y[:, None] * w, y


# ---------------------------------------------------------------- radius


def test_radius_of_the_seed_tasks_is_exact():
    assert radius_squared(EXAM_X) == Fraction(2)
    assert radius_squared(MARGIN_X) == Fraction(10)
    assert radius_squared(MARGIN_X + [[4, -3]]) == Fraction(25)
    assert radius(MARGIN_X + [[4, -3]]) == 5.0
    assert radius_squared(EXAM_X, fit_intercept=True) == Fraction(3)
    assert radius_squared([["0.5", "1/3"]]) == Fraction(1, 4) + Fraction(1, 9)


def test_radius_float_sparse_and_intercept_agree_with_numpy():
    X = np.random.default_rng(0).standard_normal((50, 4))
    expected = np.linalg.norm(X, axis=1).max()
    assert radius(X) == pytest.approx(expected, rel=1e-15)
    assert radius(sp.csr_matrix(X)) == pytest.approx(expected, rel=1e-15)
    assert radius(X, fit_intercept=True) == pytest.approx(math.sqrt(expected**2 + 1), rel=1e-15)
    assert isinstance(radius_squared(X), float)


def test_radius_bad_input():
    with pytest.raises(InputError, match="expected"):
        radius([[1, "a"]])
    with pytest.raises(InputError):
        radius([])


# ---------------------------------------------------------------- distance and margin


def test_distance_seed_examples():
    assert distance([3, 4], [1, 2], +1) == pytest.approx(2.2)
    assert distance([3, 4], [1, -1], -1) == pytest.approx(0.2)
    assert distance([2, 0], [-3, 1], -1) == pytest.approx(3.0)  # the multiple-choice answer
    assert distance([2, 0], [-3, 1]) == pytest.approx(-3.0)  # unsigned by label: the side of w
    assert distance([0, 1], [5, 3], b=-1) == pytest.approx(2.0)


def test_distance_is_scale_invariant_and_rejects_zero_w():
    assert distance([6, 8], [1, 2], 1) == pytest.approx(distance([3, 4], [1, 2], 1))
    with pytest.raises(InputError, match="zero vector"):
        distance([0, 0], [1, 2], 1)
    with pytest.raises(InputError, match=r"\+1 or -1"):
        distance([1, 0], [1, 2], 2)


def test_margins_of_the_margin_task():
    assert margin([1, 1], MARGIN_X, MARGIN_Y) == pytest.approx(math.sqrt(2))
    assert margin([1, 2], MARGIN_X, MARGIN_Y) == pytest.approx(3 / math.sqrt(5))
    assert margin_squared([1, 1], MARGIN_X, MARGIN_Y) == Fraction(2)
    assert margin_squared([1, 2], MARGIN_X, MARGIN_Y) == Fraction(9, 5)
    # part (c): x5 = (4, -3) drops the margin of w_A to 1/sqrt(2)
    assert margin([1, 1], MARGIN_X + [[4, -3]], MARGIN_Y + [1]) == pytest.approx(1 / math.sqrt(2))
    assert margin_squared([1, -2], EXAM_X, EXAM_Y) == Fraction(1, 5)


def test_margin_is_negative_for_a_non_separating_w():
    assert margin([-1, 0], EXAM_X, EXAM_Y) < 0
    with pytest.raises(InputError, match="separates"):
        margin_squared([-1, 0], EXAM_X, EXAM_Y)
    with pytest.raises(InputError, match="entries"):
        margin([1, 2, 3], EXAM_X, EXAM_Y)


# ---------------------------------------------------------------- max_margin: seeds and exactness


def test_exam_task_max_margin_is_exactly_one_over_root_five():
    result = max_margin(EXAM_X, EXAM_Y)
    assert result.exact and result.rho_squared == Fraction(1, 5)
    assert "ρ² = 1/5" in str(result)
    np.testing.assert_allclose(result.w, np.array([1, -2]) / math.sqrt(5), atol=1e-12)
    assert result.rho == pytest.approx(1 / math.sqrt(5), rel=1e-12)
    assert result.support.tolist() == [0, 1]
    assert result.b == 0.0
    assert result.B == pytest.approx(math.sqrt(5))


def test_margin_task_best_margin_is_w_A():
    result = max_margin(MARGIN_X, MARGIN_Y)
    assert result.rho_squared == Fraction(2) == brute_rho_squared(MARGIN_X, MARGIN_Y)
    np.testing.assert_allclose(result.w, np.array([1, 1]) / math.sqrt(2), atol=1e-12)


@pytest.mark.parametrize("seed", range(25))
def test_exact_2d_max_margin_equals_brute_force(seed):
    rng = np.random.default_rng(seed)
    while True:  # draw until the labelling hyperplane is proper and misses at least two points
        n = int(rng.integers(2, 9))
        X = rng.integers(-6, 7, size=(n, 2))
        scores = X @ rng.integers(-3, 4, size=2)
        keep = scores != 0
        if keep.sum() >= 2:
            break
    X, y = X[keep], np.sign(scores[keep])
    result = max_margin(X.tolist(), y.tolist())
    assert result.exact
    assert result.rho_squared == brute_rho_squared(X.tolist(), y.tolist())


@pytest.mark.parametrize("seed", range(15))
def test_exact_2d_max_margin_with_intercept_equals_brute_force(seed):
    rng = np.random.default_rng(100 + seed)
    n = int(rng.integers(3, 9))
    X = rng.integers(-6, 7, size=(n, 2))
    scores = 2 * X @ rng.integers(-3, 4, size=2) + 1  # odd: never 0, and both classes likely
    y = np.sign(scores)
    if len(set(y.tolist())) < 2:
        y[0] = -y[0]
        if brute_rho_squared_intercept(X.tolist(), y.tolist()) is None:
            with pytest.raises(NotSeparableError):
                max_margin(X.tolist(), y.tolist(), fit_intercept=True)
            return
    result = max_margin(X.tolist(), y.tolist(), fit_intercept=True)
    assert result.exact
    assert result.rho_squared == brute_rho_squared_intercept(X.tolist(), y.tolist())
    assert margin(result.w, X, y, b=result.b) == pytest.approx(result.rho, rel=1e-9)


def test_margin_task_with_intercept():
    result = max_margin(MARGIN_X, MARGIN_Y, fit_intercept=True)
    assert result.rho_squared == Fraction(13, 4) == brute_rho_squared_intercept(MARGIN_X, MARGIN_Y)


def test_basis_vectors_single_class_worst_case():
    result = max_margin(np.eye(6, dtype=int), np.ones(6, dtype=int))
    assert result.rho_squared == Fraction(1, 6)
    assert sorted(result.support.tolist()) == list(range(6))


def test_exact_decimal_strings_and_fractions():
    X = [["0.1", "0"], ["0.1", "0.1"], ["0", "0.1"]]
    assert max_margin(X, EXAM_Y).rho_squared == Fraction(1, 500)
    Xf = [[Fraction(1, 3), 0], [Fraction(1, 3), Fraction(1, 3)], [0, Fraction(1, 3)]]
    assert max_margin(Xf, EXAM_Y).rho_squared == Fraction(1, 45)


def test_float_input_is_not_exact_but_agrees():
    result = max_margin(np.asarray(EXAM_X, dtype=float), EXAM_Y)
    assert not result.exact and isinstance(result.rho_squared, float)
    assert result.rho_squared == pytest.approx(0.2, rel=1e-14)
    assert "ρ = 0.447213595" in str(result)


# ---------------------------------------------------------------- max_margin: against the full QP and SVC


@pytest.mark.parametrize(
    "n, d, intercept", [(60, 3, False), (400, 6, True), (3000, 12, False), (3000, 12, True)]
)
def test_working_set_matches_the_full_interior_point_qp(n, d, intercept):
    X, y = random_separable(n, d, seed=n + d, intercept=intercept)
    fast = max_margin(X, y, fit_intercept=intercept)
    full = max_margin(X, y, fit_intercept=intercept, method="full", polish=False)
    assert abs(fast.rho - full.rho) / full.rho <= 1e-9
    assert np.linalg.norm(fast.w) == pytest.approx(1.0, abs=1e-12)
    # rho is the checked margin of the returned hyperplane
    assert margin(fast.w, X, y, b=fast.b) == pytest.approx(fast.rho, rel=1e-12)
    # the support vectors sit at distance rho
    scores = y * (X @ fast.w + fast.b)
    np.testing.assert_allclose(scores[fast.support], fast.rho, rtol=1e-8)
    if n > 1000:
        assert fast.iterations > 1 and fast.working_set_size < n


def test_clarabel_subproblems_agree_with_daqp():
    X, y = random_separable(1500, 8, seed=3)
    a = max_margin(X, y, solver="daqp")
    b = max_margin(X, y, solver="clarabel")
    assert abs(a.rho - b.rho) / b.rho <= 1e-9


def test_max_margin_with_intercept_matches_sklearn_svc():
    from sklearn.svm import SVC

    X, y = random_separable(120, 3, seed=7, intercept=True)
    svc = SVC(kernel="linear", C=1e10, tol=1e-8).fit(X, y)
    rho_svc = 1 / np.linalg.norm(svc.coef_)
    result = max_margin(X, y, fit_intercept=True)
    assert result.rho == pytest.approx(rho_svc, rel=1e-4)
    svc_margin = margin(svc.coef_.ravel(), X, y, b=float(svc.intercept_[0]))
    assert svc_margin <= result.rho * (1 + 1e-12)  # SVC's hyperplane cannot beat the optimum
    np.testing.assert_allclose(result.w, svc.coef_.ravel() / np.linalg.norm(svc.coef_), atol=1e-3)


# ---------------------------------------------------------------- max_margin: bad and degenerate input


def test_not_separable_points_to_separable():
    with pytest.raises(NotSeparableError, match="perceptronlab.separable"):
        max_margin([[0, 0], [1, 1], [0, 1], [1, 0]], [1, 1, -1, -1], fit_intercept=True)
    with pytest.raises(NotSeparableError, match="separable"):
        max_margin([[1.0, 0.0], [2.0, 0.0]], [1, -1])


def test_degenerate_cases_are_named():
    with pytest.raises(NotSeparableError, match="all points are at the origin"):
        max_margin([[0, 0], [0, 0]], [1, -1])
    with pytest.raises(NotSeparableError, match="example 2 is the zero vector"):
        max_margin([[1, 0], [0, 0]], [1, 1])
    with pytest.raises(InputError, match="both classes"):
        max_margin([[1, 0], [2, 0]], [1, 1], fit_intercept=True)
    with pytest.raises(InputError, match="method"):
        max_margin(EXAM_X, EXAM_Y, method="fast")
    with pytest.raises(InputError, match="solver"):
        max_margin(EXAM_X, EXAM_Y, solver="cvx")
    with pytest.raises(InputError, match="labels"):
        max_margin(EXAM_X, [1, -1])


def test_to_dict_is_json_safe():
    import json

    record = json.loads(json.dumps(max_margin(EXAM_X, EXAM_Y).to_dict()))
    assert (
        record["rho_squared"] == "1/5" and record["support"] == [1, 2] and record["exact"] is True
    )
