"""Worksheet tables for the online-learning chapter's learners, like the perceptron's trace tables.

One row per round: the point, the numbers the learner decides by (the votes of the version space
for Halving, the Littlestone dimensions of both sides for SOA, the exact total weights for Weighted
Majority, the exact score Σwᵢxᵢ for Winnow), its prediction, the label, whether it was a mistake, and
its state after the round (the version space, the weights). Every number is exact: a student fills
the blank sheet by hand and compares.

Examples
--------
>>> from perceptronlab.online import FiniteClass
>>> sheet = online_sheet("halving", FiniteClass.thresholds(3), [(1, 1), (2, 0)])
>>> print(sheet.markdown())
| round | point | votes 0 | votes 1 | prediction | label | mistake | version space after |
| --- | --- | --- | --- | --- | --- | --- | --- |
| 1 | x1 | 2 | 2 | 1 | 1 | no | h2, h3 |
| 2 | x2 | 1 | 1 | 1 | 0 | yes | h2 |
"""

from __future__ import annotations

import csv
import io
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from perceptronlab._ground import validation as v
from perceptronlab.online import SOA, Halving, WeightedMajority, Winnow
from perceptronlab.online.classes import check_class
from perceptronlab.teach.task import rows_table

__all__ = ["SHEET_KINDS", "OnlineSheet", "online_sheet"]

SHEET_KINDS = ("halving", "soa", "weighted-majority", "winnow")
#: the most rounds a worksheet holds (it is filled by hand)
MAX_SHEET_ROUNDS = 200

_HEADERS = {
    "halving": (
        "round",
        "point",
        "votes 0",
        "votes 1",
        "prediction",
        "label",
        "mistake",
        "version space after",
    ),
    "soa": (
        "round",
        "point",
        "Ldim if 0",
        "Ldim if 1",
        "prediction",
        "label",
        "mistake",
        "version space after",
    ),
    "weighted-majority": (
        "round",
        "point",
        "weight 0",
        "weight 1",
        "prediction",
        "label",
        "mistake",
        "weights after",
    ),
    "winnow": ("round", "x", "score", "theta", "prediction", "label", "mistake", "weights after"),
}
#: the columns a student fills (all but round, point and label)
_GIVEN = {"round", "point", "x", "label", "theta"}


@dataclass(frozen=True)
class OnlineSheet:
    """A worked worksheet: a header and one row of cells (text) per round.

    Attributes
    ----------
    kind : one of :data:`SHEET_KINDS`.
    header : the column names.
    rows : the cells, as the key shows them.
    """

    kind: str
    header: tuple[str, ...]
    rows: list[tuple[str, ...]]

    def blank(self) -> OnlineSheet:
        """The sheet a student gets: only the round, the point (and θ) and the label filled in."""
        keep = [name in _GIVEN for name in self.header]
        return OnlineSheet(
            self.kind,
            self.header,
            [
                tuple(cell if kept else "" for cell, kept in zip(row, keep, strict=True))
                for row in self.rows
            ],
        )

    def markdown(self) -> str:
        return rows_table(self.header, self.rows, "md")

    def csv(self) -> str:
        buffer = io.StringIO()
        writer = csv.writer(buffer, lineterminator="\n")
        writer.writerow(self.header)
        writer.writerows(self.rows)
        return buffer.getvalue()


def _names(rows: Iterable[int]) -> str:
    return ", ".join(f"h{row}" for row in rows) or "(empty)"


def _vector(values: Iterable[Any]) -> str:
    return "(" + ", ".join(str(value) for value in values) + ")"


def online_sheet(
    kind: str, target: Any, sequence: Iterable[tuple[Any, int]], **options: Any
) -> OnlineSheet:
    """The worked worksheet of one learner on one sequence of (point, label) pairs.

    Parameters
    ----------
    kind : "halving", "soa", "weighted-majority" or "winnow".
    target : the class (a :class:`~perceptronlab.online.FiniteClass`; points are column numbers,
        written x0, x1, …, hypotheses h0, h1, … by row), or for Winnow the number of variables n
        (points are 0/1 vectors).
    sequence : the rounds, (point, label) with labels 0/1; at most 200.
    options : passed to the learner (``beta`` for Weighted Majority, ``alpha``, ``theta``,
        ``variant`` for Winnow).
    """
    v.check_choice("kind", kind, SHEET_KINDS)
    pairs = list(sequence)
    if not 1 <= len(pairs) <= MAX_SHEET_ROUNDS:
        raise v.fail(
            "sequence",
            f"1 to {MAX_SHEET_ROUNDS} rounds",
            f"{len(pairs)} rounds",
            "A worksheet is filled by hand: give a short sequence.",
        )
    if kind == "winnow":
        return _winnow(Winnow(target, **options), pairs)
    target = check_class(target, "target", "Pass e.g. FiniteClass.thresholds(3).")
    if kind == "halving":
        halving = Halving(target)
        rows = _learner_rows(halving, pairs, halving.side_sizes, lambda: _names(halving.alive))
    elif kind == "soa":
        soa = SOA(target)
        rows = _learner_rows(soa, pairs, soa.side_dimensions, lambda: _names(soa.alive))
    else:
        wm = WeightedMajority(target, **options)
        rows = _learner_rows(wm, pairs, wm.votes, lambda: _vector(wm.weights))
    return OnlineSheet(kind, _HEADERS[kind], rows)


def _learner_rows(
    learner: Any,
    pairs: list[tuple[Any, int]],
    columns: Callable[[Any], tuple[Any, Any]],
    state: Callable[[], str],
    point: Callable[[Any], str] = "x{}".format,
) -> list[tuple[str, ...]]:
    """One row per round of a learner: the round, the ``point``, the learner's two ``columns`` for
    it (side sizes, side dimensions, votes, or Winnow's score and threshold), its prediction, the
    label, the mistake and its ``state`` after learning the label."""
    rows: list[tuple[str, ...]] = []
    for number, (x, y) in enumerate(pairs, start=1):
        left, right = columns(x)
        prediction = learner.predict_one(x)
        learner.learn_one(x, y)
        rows.append(
            (
                str(number),
                point(x),
                str(left),
                str(right),
                str(prediction),
                str(y),
                "yes" if prediction != y else "no",
                state(),
            )
        )
    return rows


def _winnow(learner: Winnow, pairs: list[tuple[Any, int]]) -> OnlineSheet:
    rows = _learner_rows(
        learner,
        pairs,
        lambda x: (learner.score(x), learner.theta),  # the threshold is fixed
        lambda: _vector(learner.weights),
        lambda x: _vector(int(c) for c in x),
    )
    return OnlineSheet("winnow", _HEADERS["winnow"], rows)
