"""The Littlestone and VC dimensions of a finite class, exactly, each with its certificate.

The Littlestone dimension (Littlestone 1988; Shalev-Shwartz and Ben-David, *Understanding Machine
Learning*, Def. 21.5) is the depth of the deepest mistake tree that H shatters: a complete binary
tree of points in which every root-to-leaf path, the labels being the branches taken, is realised
by some hypothesis of H. It is the best mistake bound of any deterministic online learner on H
(the Standard Optimal Algorithm meets it, an adversary forces it). The VC dimension is the size of
the largest set of points that H labels in all 2^k ways. Always

.. math::

    \\operatorname{VCdim}(H) \\le \\operatorname{Ldim}(H) \\le \\lfloor \\log_2 |H| \\rfloor .

Both answers carry their certificate (the tree; the shattered points), which
:meth:`LittlestoneDimension.verify` and :meth:`VCDimension.verify` re-check against the class.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import numpy as np

from perceptronlab._ground import validation as v
from perceptronlab.online._search import MAX_VISITS, Search, bitsets, check_search_memory
from perceptronlab.online.classes import FiniteClass, check_class

__all__ = [
    "LittlestoneDimension",
    "MistakeTree",
    "VCDimension",
    "littlestone_dimension",
    "vc_dimension",
]

#: the most candidate sets the VC search may test
MAX_VC_CANDIDATES = 2_000_000


class CertificateError(AssertionError):
    """A dimension's certificate failed its re-check against the class."""


@dataclass(frozen=True)
class MistakeTree:
    """A complete mistake tree: the point asked at the root and the subtrees after label 0 and 1.

    A leaf is ``None``; a tree of depth 0 has ``point`` None and no subtrees.

    Attributes
    ----------
    point : the column number of the point asked (``None`` for the empty tree).
    zero, one : the subtrees followed after the label 0 and after the label 1.

    Examples
    --------
    >>> tree = MistakeTree(1, MistakeTree(0), MistakeTree(2))
    >>> tree.depth, list(tree.paths())[1]
    (2, [(1, 0), (0, 1)])
    """

    point: int | None
    zero: MistakeTree | None = None
    one: MistakeTree | None = None

    @property
    def depth(self) -> int:
        """The number of points on every root-to-leaf path."""
        return 0 if self.point is None else 1 + (self.zero.depth if self.zero is not None else 0)

    def paths(self) -> Iterator[list[tuple[int, int]]]:
        """Every root-to-leaf path as its list of (point, label) pairs, 2^depth of them, label 0 first."""
        if self.point is None:
            yield []
            return
        for label, child in ((0, self.zero), (1, self.one)):
            if child is None:
                yield [(self.point, label)]
            else:
                for rest in child.paths():
                    yield [(self.point, label), *rest]

    def levels(self) -> list[list[int]]:
        """The points level by level, left (label 0) to right: the tree as a table."""
        rows: list[list[int]] = []
        frontier: list[MistakeTree] = [self] if self.point is not None else []
        while frontier:
            rows.append([node.point for node in frontier if node.point is not None])
            frontier = [
                child for node in frontier for child in (node.zero, node.one) if child is not None
            ]
        return rows


@dataclass(frozen=True)
class LittlestoneDimension:
    """The Littlestone dimension of a class with a shattered tree of that depth.

    Attributes
    ----------
    value : Ldim(H).
    tree : a :class:`MistakeTree` of depth ``value`` shattered by H.
    hypotheses : the number of hypotheses, :math:`|H|`.
    visits : the version spaces the search looked at.

    Examples
    --------
    >>> H = FiniteClass.thresholds(3)
    >>> result = littlestone_dimension(H)
    >>> result.value, result.verify(H), next(result.paths())
    (2, True, [(1, 0), (0, 0)])
    """

    value: int
    tree: MistakeTree
    hypotheses: int
    visits: int

    def paths(self) -> Iterator[list[tuple[int, int]]]:
        """The tree's 2^value root-to-leaf paths (see :meth:`MistakeTree.paths`)."""
        return self.tree.paths()

    def verify(self, H: FiniteClass) -> bool:
        """Check the certificate: depth ``value``, 2^value paths, each realised by a hypothesis of H."""
        return verify_tree(H, self.tree, self.value)


def verify_tree(H: FiniteClass, tree: MistakeTree, depth: int) -> bool:
    """True when ``tree`` has depth ``depth`` and H realises each of its paths; else CertificateError."""
    paths = list(tree.paths())
    if len(paths) != 2**depth:
        raise CertificateError(f"expected {2**depth} paths, got {len(paths)}")
    for path in paths:
        if len(path) != depth:
            raise CertificateError(f"the path {path} has {len(path)} points, not {depth}")
        points = [point for point, _ in path]
        labels = np.array([label for _, label in path], dtype=np.uint8)
        if not (H.matrix[:, points] == labels).all(axis=1).any():
            raise CertificateError(f"no hypothesis of the class realises the path {path}")
    return True


@dataclass(frozen=True)
class VCDimension:
    """The VC dimension of a class with a set of points it shatters.

    Attributes
    ----------
    value : VCdim(H).
    shattered : ``value`` column numbers that H labels in all 2^value ways.

    Examples
    --------
    >>> H = FiniteClass.intervals(4)
    >>> vc_dimension(H).verify(H)
    True
    """

    value: int
    shattered: tuple[int, ...]

    def verify(self, H: FiniteClass) -> bool:
        """Check the certificate: H realises every labelling of ``shattered``."""
        if len(self.shattered) != self.value or not _shatters(H.matrix, self.shattered):
            raise CertificateError(f"the points {self.shattered} are not shattered by the class")
        return True


def _check_class(H: object) -> FiniteClass:
    return check_class(
        H,
        fix="Build one with FiniteClass(matrix) or a constructor such as FiniteClass.thresholds(7).",
    )


def _tree(search: Search, space: int, depth: int) -> MistakeTree:
    if depth == 0:
        return MistakeTree(None)
    found = search.witness(space, depth)
    if found is None:  # pragma: no cover - the search said Ldim(space) >= depth
        raise CertificateError(f"no split keeps the dimension {depth - 1} on both sides")
    point, zero, one = found
    if depth == 1:
        return MistakeTree(point)
    return MistakeTree(point, _tree(search, zero, depth - 1), _tree(search, one, depth - 1))


def littlestone_dimension(
    H: FiniteClass, *, budget: int = MAX_VISITS, max_bytes: Any = None
) -> LittlestoneDimension:
    """The exact Littlestone dimension of a finite class, with a shattered tree of that depth.

    .. math::

        \\operatorname{Ldim}(V) = \\max_{x:\\,V^0_x, V^1_x \\neq \\emptyset}
        1 + \\min(\\operatorname{Ldim}(V^0_x), \\operatorname{Ldim}(V^1_x)), \\qquad
        \\operatorname{Ldim}(\\{h\\}) = 0,

    computed over bit-set version spaces, bounded by ⌊log₂|V|⌋ and by the points that split V,
    balanced splits first, every answer remembered (see ``perceptronlab/online/_search.py``).

    Parameters
    ----------
    H : a :class:`FiniteClass`.
    budget : the most version spaces to visit; past it a one-line error, never an endless search.
    max_bytes : the memory the remembered version spaces may take (e.g. ``"4G"``; default: half
        the memory this process can still use). Each holds one bit per hypothesis; a search that
        could need more (the deepest tree the class allows, or ``budget``, times the bytes of one)
        is refused before any work.

    Returns
    -------
    LittlestoneDimension

    References
    ----------
    N. Littlestone, "Learning quickly when irrelevant attributes abound", Machine Learning 2 (1988).

    Examples
    --------
    >>> result = littlestone_dimension(FiniteClass.thresholds(7))
    >>> result.value, result.tree.levels()
    (3, [[3], [1, 5], [0, 2, 4, 6]])
    >>> len(list(result.paths()))
    8
    """
    H = _check_class(H)
    budget = v.check_positive_int("budget", budget, "Pass e.g. budget=1_000_000 version spaces.")
    search = Search.of(H.matrix, budget, max_bytes)
    value = search.ldim(search.everything)
    return LittlestoneDimension(
        value, _tree(search, search.everything, value), len(H), search.visits
    )


def _shatters(matrix: np.ndarray, points: tuple[int, ...]) -> bool:
    if not points:
        return bool(matrix.shape[0] >= 1)
    codes = matrix[:, list(points)].astype(np.int64) @ (1 << np.arange(len(points), dtype=np.int64))
    return bool(len(np.unique(codes)) == 1 << len(points))


def vc_dimension(
    H: FiniteClass, *, budget: int = MAX_VC_CANDIDATES, max_bytes: Any = None
) -> VCDimension:
    """The exact VC dimension of a finite class, with a shattered set of that size.

    Shattered sets are closed under subsets, so the search grows them level by level: a set
    S ∪ {x} (x after the points of S) is shattered when x splits each of the ``2^|S|`` cells of S
    (the hypotheses giving S one labelling, held as a bit set); it stops at the first empty level or
    at ``⌊log₂|H|⌋``. The cells of the deepest level the class allows (up to ``2^⌊log₂|H|⌋`` bit sets
    of ``|H|`` bits) must fit ``max_bytes`` (default: half the memory this process can still use), checked
    before any work; ``budget`` bounds the candidate sets tested.

    Examples
    --------
    >>> vc_dimension(FiniteClass.intervals(6))
    VCDimension(value=2, shattered=(0, 1))
    """
    H = _check_class(H)
    budget = v.check_positive_int("budget", budget, "Pass e.g. budget=1_000_000 candidate sets.")
    check_search_memory(len(H), H.n_points, budget, "VC dimension", max_bytes)
    ones = bitsets(H.matrix)
    everything = (1 << len(H)) - 1
    level: list[tuple[int, ...]] = [()]
    best: tuple[int, ...] = ()
    tested = 0
    limit = len(H).bit_length() - 1
    for _ in range(limit):
        following: list[tuple[int, ...]] = []
        for base in level:
            cells = _cells(ones, everything, base)
            for point in range(base[-1] + 1 if base else 0, H.n_points):
                tested += 1
                if tested > budget:
                    raise v.fail(
                        "vc_dimension",
                        f"an answer within {budget:,} candidate sets",
                        "none",
                        "Use fewer points or hypotheses.",
                    )
                column = ones[point]
                if all(cell & column and cell & ~column for cell in cells):
                    following.append((*base, point))
        if not following:
            break
        level, best = following, following[0]
    return VCDimension(len(best), best)


def _cells(ones: list[int], everything: int, points: tuple[int, ...]) -> list[int]:
    """The hypotheses of each labelling of ``points`` (bit sets), one cell per labelling."""
    cells = [everything]
    for point in points:
        column = ones[point]
        cells = [part for cell in cells for part in (cell & ~column, cell & column)]
    return cells
