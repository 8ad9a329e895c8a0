"""FiniteClass, the Littlestone and VC dimensions: against brute force written here, on hundreds of
random small classes, every tree checked as a certificate, and VC ≤ Ldim ≤ ⌊log₂|H|⌋."""

from __future__ import annotations

import itertools
from fractions import Fraction
from functools import cache

import numpy as np
import pytest
from scipy.optimize import linprog

from perceptronlab.exceptions import InputError
from perceptronlab.online import FiniteClass, littlestone_dimension, vc_dimension
from perceptronlab.online._search import plain_ldim


def brute_ldim(rows: list[tuple[int, ...]]) -> int:
    """Definition 21.5 of Shalev-Shwartz and Ben-David, over sets of rows, no bounds."""
    n = len(rows[0])

    @cache
    def ldim(space: frozenset[tuple[int, ...]]) -> int:
        if len(space) == 1:
            return 0
        best = 0
        for x in range(n):
            zero = frozenset(h for h in space if h[x] == 0)
            one = space - zero
            if zero and one:
                best = max(best, 1 + min(ldim(zero), ldim(one)))
        return best

    return ldim(frozenset(rows))


def brute_vc(rows: list[tuple[int, ...]]) -> int:
    n = len(rows[0])
    best = 0
    for size in range(1, n + 1):
        for subset in itertools.combinations(range(n), size):
            if len({tuple(h[x] for x in subset) for h in rows}) == 2**size:
                best = size
    return best


def realised(rows: set[tuple[int, ...]], path: list[tuple[int, int]]) -> bool:
    return any(all(h[x] == label for x, label in path) for h in rows)


def random_classes(count: int, seed: int):
    rng = np.random.default_rng(seed)
    for _ in range(count):
        n_points = int(rng.integers(1, 7))
        n_rows = int(rng.integers(1, 14))
        density = rng.uniform(0.1, 0.9)
        yield (rng.random((n_rows, n_points)) < density).astype(int)


def test_hundreds_of_random_classes_against_brute_force():
    checked = 0
    for matrix in random_classes(400, seed=0):
        H = FiniteClass(matrix)
        rows = sorted({tuple(int(c) for c in row) for row in matrix})
        assert sorted(tuple(int(c) for c in row) for row in H.matrix) == rows
        ldim = littlestone_dimension(H)
        vc = vc_dimension(H)
        assert ldim.value == brute_ldim(rows) == plain_ldim(H.matrix)
        assert vc.value == brute_vc(rows)
        assert vc.value <= ldim.value <= int(np.floor(np.log2(len(rows))))
        # the tree as a certificate, checked here without the library's verify
        paths = list(ldim.paths())
        assert len(paths) == 2**ldim.value
        assert len({tuple(path) for path in paths}) == len(paths)
        for path in paths:
            assert len(path) == ldim.value
            assert len({x for x, _ in path}) == ldim.value  # a path never asks a point twice
            assert realised(set(rows), path)
        assert ldim.verify(H) and vc.verify(H)
        assert len({tuple(h[x] for x in vc.shattered) for h in rows}) == 2**vc.value
        checked += 1
    assert checked == 400


def test_a_wrong_certificate_is_refused():
    H = FiniteClass.thresholds(3)
    result = littlestone_dimension(H)
    other = littlestone_dimension(FiniteClass([[0, 0, 0], [0, 1, 0], [1, 0, 0], [1, 1, 0]]))
    assert other.value == 2
    with pytest.raises(AssertionError, match="no hypothesis"):
        other.verify(H)
    assert result.verify(H)


@pytest.mark.parametrize("depth", [1, 2, 3, 4, 5, 6])
def test_thresholds_on_a_dyadic_grid_have_the_seed_tree(depth):
    k = 2**depth - 1
    H = FiniteClass.thresholds(k)
    result = littlestone_dimension(H)
    assert result.value == depth == int(np.log2(len(H)))
    assert vc_dimension(H).value == 1
    # the root asks the middle point 1/2, then 1/4 and 3/4: the tree of the text
    assert H.points[result.tree.point] == Fraction(1, 2)
    if depth >= 2:
        assert {H.points[p] for p in result.tree.levels()[1]} == {Fraction(1, 4), Fraction(3, 4)}


@pytest.mark.parametrize("k", [1, 2, 5, 10, 20, 40])
def test_thresholds_ldim_is_log_of_the_hypotheses(k):
    assert littlestone_dimension(FiniteClass.thresholds(k)).value == int(np.floor(np.log2(k + 1)))


@pytest.mark.parametrize("k", [2, 3, 5, 9, 14])
def test_intervals(k):
    H = FiniteClass.intervals(k)
    assert len(H) == 1 + k * (k + 1) // 2
    assert vc_dimension(H).value == 2
    rows = [tuple(int(c) for c in row) for row in H.matrix]
    assert all(len(row) == k for row in rows)
    assert littlestone_dimension(H).value == brute_ldim(rows)


def test_all_disjunctions_on_the_cube_shatter_the_unit_vectors():
    for n in (1, 2, 3, 4):
        H = FiniteClass.disjunctions(n)
        assert len(H) == 2**n
        assert vc_dimension(H).value == littlestone_dimension(H).value == n
    H = FiniteClass.disjunctions(5, 2)
    assert len(H) == 1 + 5 + 10
    cube = [tuple(p) for p in H.points]
    for row in H.matrix:  # every row is an OR of at most 2 variables
        assert any(
            all(row[i] == int(any(x[j] for j in subset)) for i, x in enumerate(cube))
            for size in range(3)
            for subset in itertools.combinations(range(5), size)
        )
    assert littlestone_dimension(H).value == brute_ldim([tuple(r) for r in H.matrix])


def lp_realisable(X: np.ndarray, labels: tuple[int, ...], intercept: bool) -> bool:
    """Is there (w, b) with <w, x> + b > 0 exactly on the 1s? HiGHS decides (positives >= 1, negatives
    <= -1 with an intercept, <= 0 without, which is the same question up to scale and shift)."""
    n, d = X.shape
    A = np.hstack([X, np.ones((n, 1))]) if intercept else X
    signs = np.where(np.array(labels) == 1, -1.0, 1.0)
    rhs = np.where(np.array(labels) == 1, -1.0, -1.0 if intercept else 0.0)
    result = linprog(
        np.zeros(A.shape[1]),
        A_ub=signs[:, None] * A,
        b_ub=rhs,
        bounds=[(None, None)] * A.shape[1],
        method="highs",
    )
    return result.status == 0


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("intercept", [True, False])
def test_halfspaces_are_every_labelling_an_lp_realises(seed, intercept):
    rng = np.random.default_rng(seed)
    n, d = (7, 2) if seed < 4 else (6, 1)
    if seed % 2:  # integer grid points: collinear triples, repeated points, the origin
        X = rng.integers(-2, 3, size=(n, d)).astype(float)
    else:
        X = rng.standard_normal((n, d))
    H = FiniteClass.halfspaces(X, fit_intercept=intercept)
    expected = {
        labels
        for labels in itertools.product((0, 1), repeat=n)
        if lp_realisable(X, labels, intercept)
    }
    assert {tuple(int(c) for c in row) for row in H.matrix} == expected


def test_halfspaces_in_general_position_have_vc_three_and_growing_ldim():
    X = np.random.default_rng(1).standard_normal((12, 2))
    H = FiniteClass.halfspaces(X)
    assert len(H) == 2 * 66 + 2  # n(n-1) + 2 labellings for points in general position
    assert vc_dimension(H).value == 3
    result = littlestone_dimension(H)
    assert 3 <= result.value <= int(np.log2(len(H)))
    assert result.verify(H)


def test_duplicates_are_one_hypothesis_and_points_are_kept():
    H = FiniteClass([[1, 0], [1, 0], [0, 1]], points=["a", "b"])
    assert len(H) == 2 and H.points == ["a", "b"] and H.matrix.tolist() == [[1, 0], [0, 1]]
    assert littlestone_dimension(FiniteClass([[1, 1]])).value == 0
    assert list(littlestone_dimension(FiniteClass([[1, 1]])).paths()) == [[]]
    assert H.restrict([1]).matrix.tolist() == [[0], [1]]


@pytest.mark.parametrize(
    "matrix, words",
    [
        ([[0, 2]], "labels 0 and 1"),
        ([], "at least one row"),
        ([1, 0], "2-D"),
        ([[0, 1], [1]], "rectangular"),
    ],
)
def test_bad_matrices_get_one_line(matrix, words):
    with pytest.raises(InputError, match=words) as info:
        FiniteClass(matrix)
    assert "\n" not in str(info.value)


def test_bad_constructor_inputs_get_one_line():
    for call, words in [
        (lambda: FiniteClass.thresholds(0), "k: expected an integer >= 1"),
        (lambda: FiniteClass.intervals(100_000), "at most 50,000,000"),
        (lambda: FiniteClass.disjunctions(20), "at most 16 variables"),
        (lambda: FiniteClass.disjunctions(3, 4), "at most n = 3"),
        (lambda: FiniteClass.halfspaces(np.zeros((3, 3))), "1 or 2 coordinates"),
        (lambda: FiniteClass.halfspaces(np.zeros((129, 2))), "at most 128 points"),
        (lambda: FiniteClass([[0, 1]], points=[1]), "one entry per column"),
        (lambda: littlestone_dimension([[0, 1]]), "a FiniteClass"),
        (lambda: littlestone_dimension(FiniteClass.intervals(64), budget=10), "within 10 version"),
    ]:
        with pytest.raises(InputError, match=words):
            call()


def test_the_compiled_counts_match_numpys_popcount():
    from perceptronlab.online._kernels import column_counts

    rng = np.random.default_rng(7)
    for n_points, n_words in [(1, 1), (5, 3), (64, 17)]:
        words = rng.integers(0, 2**63, size=(n_points, n_words), dtype=np.uint64) * np.uint64(2)
        words |= rng.integers(0, 2, size=(n_points, n_words), dtype=np.uint64)
        space = rng.integers(0, 2**63, size=n_words, dtype=np.uint64) * np.uint64(2) + np.uint64(1)
        expected = np.bitwise_count(words & space).sum(axis=1, dtype=np.int64)
        assert column_counts(words, space).tolist() == expected.tolist()
    everything = np.full((2, 2), np.iinfo(np.uint64).max, dtype=np.uint64)
    assert column_counts(everything, everything[0]).tolist() == [128, 128]
