"""The Littlestone-dimension search over version spaces held as bit sets.

A version space V ⊆ H is one Python integer, bit h set when hypothesis h is in V (the memo's key);
the points' columns are integers too, so V ∩ {h : h(x) = 1} is ``V & ones[x]`` and |V| is
``int.bit_count``, 64 hypotheses a machine word. The hot step, the size of V ∩ {h : h(x) = 1} for
every point x, is one compiled loop over the same bits as 64-bit words (``_kernels.column_counts``).

The recursion is the definition (Littlestone 1988; Shalev-Shwartz and Ben-David, Def. 21.5):
Ldim(V) = max over the points x that split V of 1 + min(Ldim(V⁰ₓ), Ldim(V¹ₓ)), Ldim of one
hypothesis 0. It is asked as a decision, "is Ldim(V) ≥ d?", which is bounded on both sides:

- Ldim(V) ≤ ⌊log₂|V|⌋ (a shattered tree of depth d needs 2^d hypotheses), so a split is tried only
  when both sides hold 2^(d−1) hypotheses, and Ldim(V) ≤ the number of points that split V (a path
  of the tree never asks a point twice);
- every answer is kept as bounds lo ≤ Ldim(V) ≤ hi per version space, so a question asked again (the
  same V is reached along many paths) costs a dictionary look-up;
- splits are tried most balanced first (the best chance of a yes) and the smaller side first (the
  cheaper no).

Ldim(H) itself climbs d = 1, 2, … until the first no: every yes is usually found along the first
balanced splits, and only the last question has to look at every split.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from numpy.typing import NDArray

from perceptronlab._ground import validation as v
from perceptronlab._ground.memory import format_bytes
from perceptronlab.online._kernels import column_counts

__all__ = [
    "Search",
    "SearchBudgetError",
    "bitsets",
    "check_search_memory",
    "plain_ldim",
    "space_bytes",
]

#: the most version spaces one search may visit before it gives up with a clear message
MAX_VISITS = 20_000_000
#: what one remembered version space costs beyond its bits: the dictionary's entry, the [lo, hi]
#: list and its two ints (CPython, 64-bit)
MEMO_OVERHEAD = 232


class SearchBudgetError(v.InputError):
    """The Littlestone-dimension search visited more version spaces than its budget allows."""


def space_bytes(size: int) -> int:
    """The memory of one remembered version space of a class of ``size`` hypotheses: a Python int
    of ``size`` bits (30 bits a digit) and :data:`MEMO_OVERHEAD`."""
    return 28 + 4 * -(-size // 30) + MEMO_OVERHEAD


def check_search_memory(
    size: int, points: int, visits: int, what: str, max_bytes: Any = None
) -> int:
    """Refuse, before any work, a search over ``size`` hypotheses and ``points`` points whose
    version spaces would not fit the memory budget; return the visits that fit.

    A search that answers depth D holds at least a tree's 2^(D+1) − 1 version spaces, and D is at
    most ⌊log₂ size⌋ and at most ``points``: the deepest possible tree, or the visit budget when
    smaller, times the bytes of one version space must fit the budget (``max_bytes``, else half
    the memory this process can still use).
    """
    from perceptronlab._ground.memory import budget_of, check_budget

    per_space = space_bytes(size)
    depth = min(max(size, 1).bit_length() - 1, points)
    needed = min(visits, 2 ** (depth + 1))
    check_budget(
        needed * per_space,
        what,
        max_bytes=max_bytes,
        detail=f"up to {needed:,} version spaces of {format_bytes(per_space)} each: "
        f"{size:,} hypotheses, trees up to depth {depth}",
        subject="a search",
        smaller="use fewer hypotheses or points",
    )
    return max(1, min(visits, budget_of(max_bytes) // per_space))


def bitsets(matrix: NDArray[np.uint8]) -> list[int]:
    """Column x as an integer whose bit h is ``matrix[h, x]``."""
    packed = np.packbits(matrix, axis=0, bitorder="little")
    return [int.from_bytes(packed[:, x].tobytes(), "little") for x in range(matrix.shape[1])]


@dataclass
class Search:
    """The bounded, memoised Littlestone-dimension search on one class (a 0/1 matrix).

    ``ones[x]`` is column x as a Python integer (for the version spaces, the memo's keys);
    ``words[x]`` is the same bits as 64-bit words, so that the sizes of V ∩ ones[x] for every x
    come from one compiled loop (``_kernels.column_counts``).
    """

    ones: list[int]
    size: int
    budget: int = MAX_VISITS
    #: True when the memory budget, not the visit budget, sets ``budget``
    memory_bound: bool = False
    bounds: dict[int, list[int]] = field(default_factory=dict)
    visits: int = 0
    words: NDArray[np.uint64] = field(default_factory=lambda: np.zeros((0, 0), dtype=np.uint64))
    _last: tuple[int, NDArray[np.int64]] | None = None

    @classmethod
    def of(
        cls,
        matrix: NDArray[np.uint8],
        budget: int = MAX_VISITS,
        max_bytes: Any = None,
        what: str | None = "Littlestone dimension",
    ) -> Search:
        """The search on a 0/1 matrix (hypotheses × points), refused before any work when its
        version spaces would not fit the memory budget (:func:`check_search_memory`); ``what``
        None for a caller that only keeps a version space and never searches (Halving)."""
        size, points = (int(n) for n in matrix.shape)
        fits = (
            budget if what is None else check_search_memory(size, points, budget, what, max_bytes)
        )
        ones = bitsets(matrix)
        search = cls(ones, size, min(budget, fits), memory_bound=fits < budget)
        search.words = np.array(
            [
                np.frombuffer(column.to_bytes(search._bytes, "little"), dtype=np.uint64)
                for column in ones
            ],
            dtype=np.uint64,
        ).reshape(len(ones), -1)
        return search

    @property
    def _bytes(self) -> int:
        return 8 * max(1, -(-self.size // 64))

    @property
    def everything(self) -> int:
        return (1 << self.size) - 1

    def _counts(self, space: int) -> NDArray[np.int64]:
        """|space ∩ ones[x]| for every point x at once (the last answer is kept: the bounds and the
        splits of one version space ask in turn)."""
        last = self._last
        if last is not None and last[0] is space:
            return last[1]
        words = np.frombuffer(space.to_bytes(self._bytes, "little"), dtype=np.uint64)
        counts: NDArray[np.int64] = column_counts(self.words, words)
        self._last = (space, counts)
        return counts

    def _splits(self, space: int, count: int, need: int) -> Iterator[tuple[int, int, int]]:
        """(smaller side, larger side, point) for each point whose both sides hold ≥ need hypotheses,
        most balanced first; the sides are made only when asked for."""
        ones = self._counts(space)
        smaller = np.minimum(ones, count - ones)
        candidates = np.flatnonzero(smaller >= need)
        for point in candidates[np.argsort(-smaller[candidates], kind="stable")].tolist():
            one = space & self.ones[point]
            zero = space ^ one
            yield (zero, one, point) if 2 * int(ones[point]) >= count else (one, zero, point)

    def _start(self, space: int, count: int) -> list[int]:
        known = self.bounds.get(space)
        if known is None:
            self.visits += 1
            if self.visits > self.budget:
                limit = " (as many as the memory budget holds)" if self.memory_bound else ""
                raise SearchBudgetError(
                    f"Littlestone dimension: expected an answer within {self.budget:,} version "
                    f"spaces{limit}, got none (the class is too large or too irregular). Use fewer "
                    "points or hypotheses."
                )
            ones = self._counts(space) if count > 1 else np.zeros(0, dtype=np.int64)
            splitting = int(np.count_nonzero((ones > 0) & (ones < count)))
            known = [0 if count else -1, min(count.bit_length() - 1, splitting)]
            self.bounds[space] = known
        return known

    def at_least(self, space: int, depth: int) -> bool:
        """Is Ldim(space) ≥ depth?"""
        count = space.bit_count()
        if depth <= 0:
            return count >= 1 or depth < 0
        known = self._start(space, count)
        if depth <= known[0]:
            return True
        if depth > known[1]:
            return False
        for smaller, larger, _ in self._splits(space, count, 1 << (depth - 1)):
            if self.at_least(smaller, depth - 1) and self.at_least(larger, depth - 1):
                known[0] = depth
                return True
        known[1] = depth - 1
        return False

    def ldim(self, space: int) -> int:
        """The Littlestone dimension of a version space (−1 when it is empty)."""
        count = space.bit_count()
        if count == 0:
            return -1
        depth = self._start(space, count)[0]
        while self.at_least(space, depth + 1):
            depth += 1
        return depth

    def witness(self, space: int, depth: int) -> tuple[int, int, int] | None:
        """A point splitting ``space`` into two sides of Ldim ≥ depth − 1, as (point, zero side, one side)."""
        count = space.bit_count()
        for smaller, larger, point in self._splits(space, count, 1 << (depth - 1)):
            if self.at_least(smaller, depth - 1) and self.at_least(larger, depth - 1):
                one = space & self.ones[point]
                return point, space ^ one, one
        return None


def plain_ldim(matrix: NDArray[np.uint8]) -> int:
    """The textbook recursion, memoised on the version space (a frozenset), with no bound and no order.

    The baseline of ``benchmarks/bench_ldim.py``; exponential in the worst case, so only for small
    classes.
    """
    columns = [frozenset(np.flatnonzero(matrix[:, x]).tolist()) for x in range(matrix.shape[1])]
    memo: dict[frozenset[int], int] = {}

    def ldim(space: frozenset[int]) -> int:
        if len(space) <= 1:
            return len(space) - 1
        if space in memo:
            return memo[space]
        best = 0
        for column in columns:
            one = space & column
            if one and len(one) < len(space):
                best = max(best, 1 + min(ldim(one), ldim(space - one)))
        memo[space] = best
        return best

    return ldim(frozenset(range(matrix.shape[0])))
