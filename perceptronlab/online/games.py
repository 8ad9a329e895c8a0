"""Adversaries and the online game: the environment picks a point, the learner predicts, the label comes.

:class:`LdimAdversary` is the lower bound of the Littlestone dimension played out: it asks the root
of a deepest shattered tree of the version space and answers against the prediction, so that the
version space keeps dimension one less; every deterministic learner errs Ldim(H) times, and the
labels stay realisable (Shalev-Shwartz and Ben-David 2014, Sec. 21.1.1). :class:`ContraryAdversary`
always answers against the prediction, realisable or not: a deterministic learner errs every
round, while one of two constant experts errs at most half the time (Cover's impossibility, ibid.
Sec. 21.2). :class:`SequenceAdversary` plays a fixed sequence.
"""

from __future__ import annotations

import numbers
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

import numpy as np

from perceptronlab._ground import validation as v
from perceptronlab.online._search import Search
from perceptronlab.online.classes import FiniteClass, check_class

__all__ = [
    "Adversary",
    "ContraryAdversary",
    "GameResult",
    "LdimAdversary",
    "SequenceAdversary",
    "play",
]

#: the most rounds one game may last
MAX_ROUNDS = 10_000_000


class Adversary:
    """The environment of the online game over a finite class.

    ``point()`` names the next point (a column number), ``label(prediction)`` reveals its label once
    the learner has predicted; ``finished`` says the adversary has nothing left to force.

    Examples
    --------
    >>> class AlwaysOne(Adversary):
    ...     def __init__(self, H):
    ...         self.H = H
    ...     def point(self):
    ...         return 0
    ...     def label(self, prediction):
    ...         return 1
    >>> from perceptronlab.online import Halving
    >>> H = FiniteClass.thresholds(2)
    >>> play(Halving(H), AlwaysOne(H), rounds=3).mistakes
    0
    """

    H: FiniteClass

    def point(self) -> Any:
        raise NotImplementedError

    def label(self, prediction: int) -> int:
        raise NotImplementedError

    @property
    def finished(self) -> bool:
        return False


class LdimAdversary(Adversary):
    """Forces Ldim(H) mistakes on any deterministic learner, with labels some hypothesis of H realises.

    While the version space V has dimension d ≥ 1 it asks a point x whose both sides keep dimension
    d − 1 (the root of a deepest tree V shatters) and answers the label the learner did not predict;
    once d = 0 (one hypothesis left) it asks the points in turn with that hypothesis' labels.

    Examples
    --------
    >>> from perceptronlab.online import SOA
    >>> H = FiniteClass.thresholds(7)
    >>> game = play(SOA(H), LdimAdversary(H))
    >>> game.mistakes, game.consistent, [x for x, _ in game.sequence]
    (3, True, [3, 1, 0])
    """

    def __init__(self, H: FiniteClass, *, max_bytes: Any = None) -> None:
        self.H = check_class(H)
        self._search = Search.of(
            H.matrix, max_bytes=max_bytes, what="LdimAdversary (the Littlestone dimension)"
        )
        self.version_space = self._search.everything
        self._next = 0
        self._asked: int | None = None

    @property
    def dimension(self) -> int:
        """The Littlestone dimension of the version space: the mistakes still to be forced."""
        return self._search.ldim(self.version_space)

    @property
    def finished(self) -> bool:
        return self.dimension <= 0

    def point(
        self,
    ) -> Any:  # a column number (a subclass on an infinite domain asks the point itself)
        depth = self.dimension
        found = self._search.witness(self.version_space, depth) if depth >= 1 else None
        if found is None:
            self._asked, self._next = self._next, (self._next + 1) % self.H.n_points
        else:
            self._asked = found[0]
        return self._asked

    def label(self, prediction: int) -> int:
        if self._asked is None:
            raise v.fail(
                "label", "a point asked first", "no point", "Call point() before label(prediction)."
            )
        one = self.version_space & self._search.ones[self._asked]
        zero = self.version_space ^ one
        if one and zero:
            answer = 0 if prediction == 1 else 1
        else:
            answer = 1 if one else 0
        self.version_space = one if answer else zero
        self._asked = None
        return answer


class ContraryAdversary(Adversary):
    """Answers every round against the prediction, whether or not a hypothesis agrees.

    The points are asked in turn (or drawn with ``seed``). A deterministic learner errs every
    round; with H holding the two constant hypotheses one of them errs at most T/2 times.

    Examples
    --------
    >>> from perceptronlab.online import Halving
    >>> H = FiniteClass([[0, 0], [1, 1]])
    >>> game = play(Halving(H), ContraryAdversary(H), rounds=6)
    >>> game.mistakes, game.best_mistakes, game.consistent
    (6, 1, False)
    """

    def __init__(self, H: FiniteClass, *, seed: int | None = None) -> None:
        self.H = check_class(H)
        self._rng = None if seed is None else np.random.default_rng(v.check_seed(seed))
        self._next = 0

    def point(self) -> int:
        if self._rng is not None:
            return int(self._rng.integers(self.H.n_points))
        asked, self._next = self._next, (self._next + 1) % self.H.n_points
        return asked

    def label(self, prediction: int) -> int:
        return 0 if prediction == 1 else 1


class SequenceAdversary(Adversary):
    """Plays a fixed sequence of (point, label) pairs, whatever the learner predicts.

    Examples
    --------
    >>> from perceptronlab.online import Halving
    >>> H = FiniteClass.thresholds(3)
    >>> play(Halving(H), SequenceAdversary(H, [(1, 0), (0, 1)])).mistakes
    1
    """

    def __init__(self, H: FiniteClass, sequence: Iterable[tuple[int, int]]) -> None:
        self.H = check_class(H)
        self.sequence = [(H._point_index(x), _label01(y)) for x, y in sequence]
        self._position = 0

    @property
    def finished(self) -> bool:
        return self._position >= len(self.sequence)

    def point(self) -> int:
        if self.finished:
            raise v.fail(
                "the sequence", "another round", "its end", "Play at most len(sequence) rounds."
            )
        return self.sequence[self._position][0]

    def label(self, prediction: int) -> int:
        answer = self.sequence[self._position][1]
        self._position += 1
        return answer


def _label01(y: Any) -> int:
    if isinstance(y, bool | np.bool_) or (isinstance(y, numbers.Integral) and int(y) in (0, 1)):
        return int(y)
    raise v.fail("label", "0 or 1", repr(y), "Write the labels as 0 and 1.")


@dataclass(frozen=True)
class GameResult:
    """What a game left: the rounds played and who was right.

    Attributes
    ----------
    sequence : the (point, label) pairs, in order (points as column numbers).
    predictions : the learner's prediction in each round.
    mistakes : the rounds whose prediction differs from the label.
    consistent : True when some hypothesis of H agrees with every label (a realisable sequence).
    best_mistakes : the fewest mistakes of a hypothesis of H on the sequence (0 when consistent).

    Examples
    --------
    >>> from perceptronlab.online import Consistent
    >>> H = FiniteClass.thresholds(3)
    >>> game = play(Consistent(H), LdimAdversary(H))
    >>> game.sequence, game.predictions, game.mistakes, game.consistent
    ([(1, 1), (2, 1)], [0, 0], 2, True)
    """

    sequence: list[tuple[int, int]]
    predictions: list[int]
    mistakes: int
    consistent: bool
    best_mistakes: int


def _prediction01(prediction: Any) -> int:
    if prediction is None:
        return 0
    if isinstance(prediction, bool | np.bool_ | numbers.Integral) and int(prediction) in (0, 1):
        return int(prediction)
    raise v.fail(
        "the learner's prediction",
        "0 or 1",
        repr(prediction),
        "Play learners that predict 0/1 labels (the online learners of perceptronlab.online).",
    )


def check_learner(learner: Any, fix: str) -> None:
    """One line, ending in ``fix``, unless ``learner`` has ``predict_one`` and ``learn_one``."""
    for method in ("predict_one", "learn_one"):
        if not callable(getattr(learner, method, None)):
            raise v.fail(
                "learner",
                "an online learner with predict_one(x) and learn_one(x, y)",
                f"{type(learner).__name__} without {method}",
                fix,
            )


def play(learner: Any, adversary: Adversary, rounds: int | None = None) -> GameResult:
    """Play the online game: each round the adversary asks a point, the learner predicts, the label comes.

    Parameters
    ----------
    learner : anything with ``predict_one`` and ``learn_one`` predicting 0/1. Learners of a class
        receive the point's column number; learners that take vectors (``takes = "point"``, as
        :class:`Winnow`) receive ``H.points[x]``.
    adversary : an :class:`Adversary` (it holds the class H).
    rounds : the number of rounds; by default until the adversary has nothing left to force (an
        :class:`LdimAdversary`) or its sequence ends.

    Returns
    -------
    GameResult

    Examples
    --------
    >>> from perceptronlab.online import SOA
    >>> H = FiniteClass.intervals(8)
    >>> play(SOA(H), LdimAdversary(H)).mistakes
    4
    """
    check_learner(learner, "Pass e.g. Halving(H).")
    if not isinstance(adversary, Adversary):
        raise v.fail(
            "adversary", "an Adversary", type(adversary).__name__, "Pass e.g. LdimAdversary(H)."
        )
    if rounds is None and type(adversary).finished is Adversary.finished:
        raise v.fail(
            "rounds",
            "a number of rounds for an adversary that never stops",
            None,
            "Pass e.g. rounds=20.",
        )
    limit = (
        MAX_ROUNDS
        if rounds is None
        else v.check_positive_int("rounds", rounds, "Pass e.g. rounds=20.")
    )
    if limit > MAX_ROUNDS:
        raise v.fail("rounds", f"at most {MAX_ROUNDS:,}", f"{limit:,}", "Play fewer rounds.")
    H = adversary.H
    by_point = getattr(learner, "takes", "column") == "point"
    sequence: list[tuple[int, int]] = []
    predictions: list[int] = []
    mistakes = 0
    while len(sequence) < limit and not (rounds is None and adversary.finished):
        x = adversary.point()
        fed = H.points[x] if by_point else x
        prediction = _prediction01(learner.predict_one(fed))
        y = adversary.label(prediction)
        learner.learn_one(fed, y)
        sequence.append((x, y))
        predictions.append(prediction)
        mistakes += prediction != y
    if sequence:
        points = [x for x, _ in sequence]
        labels = np.array([y for _, y in sequence], dtype=np.uint8)
        wrong = (H.matrix[:, points] != labels).sum(axis=1)
        best = int(wrong.min())
    else:
        best = 0
    return GameResult(sequence, predictions, mistakes, best == 0, best)
