"""Finite hypothesis classes over a finite domain: a 0/1 matrix, one row per hypothesis.

A class H over the points x_0, …, x_{n−1} is the set of its rows: ``H.matrix[h, x]`` is the label
(0 or 1) that hypothesis h gives point x. Duplicate rows are one hypothesis. The constructors build
the classes of the online-learning chapter of Shalev-Shwartz and Ben-David's *Understanding Machine
Learning* (ch. 21): thresholds (the shattered tree of the text "Perceptron Algorithm for
Halfspaces"), intervals, halfspaces on given points (every labelling a halfspace realises,
enumerated exactly) and monotone disjunctions (Littlestone 1988, the class of Winnow).
"""

from __future__ import annotations

import itertools
import math
import numbers
from collections.abc import Sequence
from fractions import Fraction
from typing import Any

import numpy as np
from numpy.typing import NDArray

from perceptronlab._ground import validation as v

__all__ = ["FiniteClass", "MAX_CELLS"]

#: the most hypothesis × point cells a class may hold (50 million bytes)
MAX_CELLS = 50_000_000
#: the most points a halfspace class is enumerated on (the work grows as n³ in the plane: 64 points take
#: about a second, 128 about ten)
MAX_HALFSPACE_POINTS = 128
#: the most variables of a disjunction class on the whole cube {0,1}^n
MAX_CUBE_VARIABLES = 16


def _check_cells(n_hypotheses: int, n_points: int, what: str) -> None:
    if n_hypotheses * n_points > MAX_CELLS:
        raise v.fail(
            what,
            f"at most {MAX_CELLS:,} hypothesis x point cells",
            f"{n_hypotheses:,} hypotheses on {n_points:,} points",
            "Use fewer points (the class grows with them).",
        )


class FiniteClass:
    """A finite hypothesis class: rows are hypotheses, columns the points of the domain, labels 0/1.

    Parameters
    ----------
    matrix : array-like of 0/1 (or booleans), shape (hypotheses, points), at least one row and
        one column. Duplicate rows are one hypothesis: the first copy is kept, in order.
    points : optional, one object per column saying what the point is (a number, a vector); by
        default the column numbers 0, 1, ….

    Attributes
    ----------
    matrix : uint8 array (hypotheses, points), rows distinct, read-only.
    points : list, one entry per column.

    Examples
    --------
    >>> H = FiniteClass([[0, 0], [1, 0], [1, 0], [1, 1]])
    >>> H.matrix.tolist(), len(H)
    ([[0, 0], [1, 0], [1, 1]], 3)
    >>> FiniteClass.thresholds(3).matrix.tolist()
    [[0, 0, 0], [1, 0, 0], [1, 1, 0], [1, 1, 1]]
    """

    def __init__(self, matrix: Any, points: Sequence[Any] | None = None) -> None:
        try:
            array = np.asarray(matrix)
        except (TypeError, ValueError) as exc:
            raise v.fail(
                "matrix",
                "a rectangular 0/1 table (hypotheses x points)",
                type(matrix).__name__,
                "Pass a list of equally long rows of 0s and 1s.",
            ) from exc
        if array.ndim != 2 or array.shape[0] < 1 or array.shape[1] < 1:
            raise v.fail(
                "matrix",
                "a 2-D 0/1 table with at least one row and one column",
                f"shape {array.shape}",
                "Pass rows (hypotheses) of labels, one column per point.",
            )
        _check_cells(array.shape[0], array.shape[1], "matrix")
        if array.dtype == object or not np.isin(array, (0, 1)).all():
            raise v.fail(
                "matrix",
                "labels 0 and 1 only",
                "other values",
                "Write each hypothesis as 0/1 labels (map -1 to 0).",
            )
        array = array.astype(np.uint8)
        self.matrix: NDArray[np.uint8] = np.ascontiguousarray(array[_first_copies(array)])
        self.matrix.setflags(write=False)
        if points is None:
            self.points: list[Any] = list(range(array.shape[1]))
        else:
            self.points = list(points)
            if len(self.points) != array.shape[1]:
                raise v.fail(
                    "points",
                    f"one entry per column ({array.shape[1]})",
                    f"{len(self.points)} entries",
                    "Pass as many points as the matrix has columns, or none.",
                )

    def __len__(self) -> int:
        return int(self.matrix.shape[0])

    @property
    def n_points(self) -> int:
        """The number of points of the domain (columns)."""
        return int(self.matrix.shape[1])

    def __repr__(self) -> str:
        return f"FiniteClass({len(self):,} hypotheses on {self.n_points:,} points)"

    def restrict(self, points: Sequence[int]) -> FiniteClass:
        """The class on a subset of the domain (its distinct restrictions), points in the given order."""
        columns = [self._point_index(p) for p in points]
        return FiniteClass(self.matrix[:, columns], [self.points[c] for c in columns])

    def _point_index(self, point: Any) -> int:
        if (
            isinstance(point, bool)
            or not isinstance(point, numbers.Integral)
            or not 0 <= int(point) < self.n_points
        ):
            raise v.fail(
                "point",
                f"a column number 0 to {self.n_points - 1}",
                repr(point),
                "Points of a finite class are given by their column number.",
            )
        return int(point)

    # ---- the chapter's classes -------------------------------------------------------------------

    @classmethod
    def thresholds(cls, k: int) -> FiniteClass:
        """k points t_i = (i + 1)/(k + 1) on [0, 1] and the k + 1 thresholds between them.

        The hypothesis h_a labels t with 1 exactly when a > t (the text "Perceptron Algorithm for
        Halfspaces": sign(a − t) for the point (t, 1)); row j is the threshold above the first j
        points. Points are exact Fractions.
        """
        k = v.check_positive_int("k", k, "Pass the number of points, e.g. k=7.")
        _check_cells(k + 1, k, "k")
        matrix = (np.arange(k)[None, :] < np.arange(k + 1)[:, None]).astype(np.uint8)
        return cls(matrix, [Fraction(i + 1, k + 1) for i in range(k)])

    @classmethod
    def intervals(cls, k: int) -> FiniteClass:
        """k points 0, …, k − 1 on a line; every interval [a, b] of them labels 1, and the empty one.

        1 + k(k + 1)/2 hypotheses (8,257 for k = 128); VC dimension 2.
        """
        k = v.check_positive_int("k", k, "Pass the number of points, e.g. k=16.")
        count = 1 + k * (k + 1) // 2
        _check_cells(count, k, "k")
        matrix = np.zeros((count, k), dtype=np.uint8)
        row = 1
        for a in range(k):
            for b in range(a, k):
                matrix[row, a : b + 1] = 1
                row += 1
        return cls(matrix)

    @classmethod
    def disjunctions(cls, n: int, r: int | None = None, points: Any = None) -> FiniteClass:
        """Monotone disjunctions x_{i1} ∨ … ∨ x_{ij} of at most r of n variables (j = 0: always 0).

        On the whole cube {0, 1}ⁿ (n ≤ 16) or on given 0/1 points (rows of length n).
        """
        n = v.check_positive_int("n", n, "Pass the number of variables, e.g. n=4.")
        if r is None:
            r = n
        elif r != 0:
            r = v.check_positive_int("r", r, "Pass the most variables in a disjunction, e.g. r=2.")
        if r > n:
            raise v.fail("r", f"at most n = {n}", r, f"Pass r <= {n}.")
        if points is None:
            if n > MAX_CUBE_VARIABLES:
                raise v.fail(
                    "n",
                    f"at most {MAX_CUBE_VARIABLES} variables on the whole cube",
                    n,
                    "Pass the points to use (rows of 0/1), or fewer variables.",
                )
            cube = np.array(list(itertools.product((0, 1), repeat=n)), dtype=np.uint8)
        else:
            cube = np.asarray(points)
            if (
                cube.ndim != 2
                or cube.shape[1] != n
                or cube.shape[0] < 1
                or not np.isin(cube, (0, 1)).all()
            ):
                raise v.fail(
                    "points",
                    f"rows of n = {n} zeros and ones",
                    f"shape {cube.shape}",
                    "Pass a 0/1 table, one row per point.",
                )
            cube = cube.astype(np.uint8)
        count = sum(math.comb(n, j) for j in range(r + 1))
        _check_cells(count, cube.shape[0], "n and r")
        rows = [np.zeros(cube.shape[0], dtype=np.uint8)]
        for size in range(1, r + 1):
            for subset in itertools.combinations(range(n), size):
                rows.append(cube[:, list(subset)].max(axis=1))
        return cls(np.array(rows), [tuple(int(c) for c in row) for row in cube])

    @classmethod
    def halfspaces(cls, X: Any, fit_intercept: bool = True) -> FiniteClass:
        """Every labelling of the rows of X that a halfspace realises, enumerated exactly.

        The label of x is 1 when ⟨w, x⟩ + b > 0 (b = 0 without an intercept), for some w ∈ ℝ^d,
        b ∈ ℝ. X has d = 1 or d = 2 columns. Along any direction u the labellings are the cuts of
        the points sorted by ⟨u, x⟩; the order changes only at the directions perpendicular to a
        difference x_i − x_j (to an x_i without an intercept), so one direction in each open arc
        between them, and each of them, give every labelling. The arithmetic is exact: the
        coordinates (floats or Fractions) are rationals, the directions are integer vectors.
        """
        rows = v.check_exact_matrix(X)
        n, d = len(rows), len(rows[0])
        if d not in (1, 2):
            raise v.fail(
                "X",
                "points with 1 or 2 coordinates",
                f"{d} coordinates",
                "Halfspace classes are enumerated exactly in the line and the plane only.",
            )
        if n > MAX_HALFSPACE_POINTS:
            raise v.fail(
                "X",
                f"at most {MAX_HALFSPACE_POINTS:,} points",
                f"{n:,}",
                "Use fewer points: the class has about n² labellings, so its Littlestone dimension is at "
                "most about 2·log₂ n.",
            )
        scale = math.lcm(*(c.denominator for row in rows for c in row))
        ints = [(int(row[0] * scale), int(row[1] * scale) if d == 2 else 0) for row in rows]
        labellings = _halfspace_labellings(ints, d, bool(fit_intercept))
        return cls(labellings, [tuple(row) for row in rows])


def check_class(
    H: object, name: str = "H", fix: str = "Build one with FiniteClass(matrix)."
) -> FiniteClass:
    """``H`` when it is a :class:`FiniteClass`; else the one-line error naming what it is."""
    if not isinstance(H, FiniteClass):
        raise v.fail(name, "a FiniteClass", type(H).__name__, fix)
    return H


def _halfspace_labellings(
    points: list[tuple[int, int]], d: int, intercept: bool
) -> NDArray[np.uint8]:
    n = len(points)
    if d == 1:
        directions = [(1, 0), (-1, 0)]
    else:
        normals = set()
        vectors = (
            [(p[0] - q[0], p[1] - q[1]) for p, q in itertools.combinations(points, 2)]
            if intercept
            else list(points)
        )
        for a, b in vectors:
            if a or b:
                g = math.gcd(a, b)
                normals.add((-b // g, a // g))
                normals.add((b // g, -a // g))
        critical = sorted(normals, key=_angle_key)
        directions = list(critical)
        for first, second in zip(critical, critical[1:] + critical[:1], strict=True):
            if (
                _cross(first, second) > 0
            ):  # less than a half turn apart: their sum lies strictly between
                directions.append((first[0] + second[0], first[1] + second[1]))
            else:  # a half turn or more (few directions): add the quarter turns too
                directions.append((-first[1], first[0]))
        if not critical:
            directions = [(1, 0), (0, 1), (-1, 0), (0, -1)]
    found = (
        [np.zeros((1, n), dtype=np.uint8), np.ones((1, n), dtype=np.uint8)]
        if intercept
        else [np.zeros((1, n), dtype=np.uint8)]
    )
    for u in directions:
        scores = [u[0] * p[0] + u[1] * p[1] for p in points]
        if intercept:  # the cuts between the distinct scores, as dense ranks
            rank = {score: place for place, score in enumerate(sorted(set(scores)))}
            ranks = np.array([rank[score] for score in scores])
            found.append((ranks[None, :] > np.arange(len(rank) - 1)[:, None]).astype(np.uint8))
        else:
            found.append(np.array([[int(score > 0) for score in scores]], dtype=np.uint8))
    labellings = np.concatenate(found)
    return labellings[_first_copies(labellings)]


def _first_copies(matrix: NDArray[np.uint8]) -> list[int]:
    """The row numbers of the first copy of each distinct row, in order (rows packed to bytes)."""
    seen: dict[bytes, int] = {}
    for number, row in enumerate(np.packbits(matrix, axis=1)):
        seen.setdefault(row.tobytes(), number)
    return list(seen.values())


def _cross(a: tuple[int, int], b: tuple[int, int]) -> int:
    return a[0] * b[1] - a[1] * b[0]


def _angle_key(u: tuple[int, int]) -> tuple[int, Fraction]:
    """Sorts integer vectors by their angle in [0, 2π), exactly (half plane, then slope)."""
    x, y = u
    half = 0 if (y > 0 or (y == 0 and x > 0)) else 1
    # within a half plane, the angle grows as the cotangent x/y falls; on the axis y = 0 put it first
    return (half, Fraction(-x, y) if y else Fraction(-(10**100) if half == 0 else -(10**100)))
