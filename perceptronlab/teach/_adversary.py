"""The Littlestone adversary: halfspaces in d ≥ 2 have no finite mistake bound (“Perceptron Algorithm for Halfspaces”).

The game is :class:`ThresholdAdversary`, the special case of :class:`perceptronlab.online.LdimAdversary`
whose version space is an interval of thresholds on [0, 1].

The shattered tree of “Perceptron Algorithm for Halfspaces” uses the points x = (t, 1, 0, …, 0) and the hypotheses
h_a = (−1, a, 0, …, 0) with a ∈ [0, 1], so

.. math::

    \\operatorname{sign}\\langle h_a, x\\rangle = \\operatorname{sign}(a - t):

the label of (t, 1, 0, …) is +1 exactly when a > t and −1 exactly when a < t. The adversary keeps
the open interval (lo, hi) of the a's consistent with every label so far (at first (0, 1)), asks
the learner to predict on the point with t = (lo + hi)/2, and reveals the *opposite* label:
+1 keeps (t, hi), −1 keeps (lo, t). The first points are t = 1/2, then 1/4 or 3/4, … (the dyadic
tree of the seed). t lies strictly inside the interval and every later interval excludes t, so no
hypothesis of the final interval has a tie on any point, and the midpoint ``a`` of the final
interval labels every round correctly: the sequence is realizable, yet the learner errs on every
round. Littlestone (1988) calls this a shattered tree of any depth: the Littlestone dimension of
halfspaces is infinite for d ≥ 2 ("the density of the real numbers", “Perceptron Algorithm for Halfspaces”).

Exact arithmetic and what the learner sees
------------------------------------------
The proof is kept in ``fractions.Fraction``: after k rounds t has denominator 2^k, and 1,000
rounds stay exact. A float learner cannot receive such points: ``float(t)`` equals t only while t
has at most 53 significant bits (about the first 53 rounds); later it is rounded. This is not a
flaw of the construction but its point: float inputs form a finite set, so no adversary can keep a
float learner wrong on a *realizable float* sequence forever. :class:`LittlestoneResult` therefore
keeps both the exact point (the proof) and the point as fed to the learner, and reports
``faithful_rounds`` (rounds whose fed point equals the exact one) and ``realizable_fed_rounds``
(the longest prefix of the fed points some h_a still labels correctly). With ``feed="exact"`` the
learner receives Fractions; a learner that computes exactly (e.g. the project's exact engine) then
sees the true sequence for every round.

References
----------
N. Littlestone, "Learning quickly when irrelevant attributes abound", Machine Learning 2 (1988).
S. Shalev-Shwartz and S. Ben-David, Understanding Machine Learning (2014), Sec. 21.1.1 and 21.4.
"""

from __future__ import annotations

import numbers
from dataclasses import dataclass, field
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from perceptronlab._ground import validation as v
from perceptronlab.online import LdimAdversary
from perceptronlab.online.games import check_learner

if TYPE_CHECKING:
    from perceptronlab._ground.types import Float64Array

FEEDS = ("float", "exact")


class ProofError(AssertionError):
    """A Littlestone result failed its exact re-check (:meth:`LittlestoneResult.verify`)."""


@dataclass(frozen=True)
class Round:
    """One round of the adversary game.

    Attributes
    ----------
    number : 1-based round number.
    t : the exact threshold of the point x = (t, 1, 0, …).
    x : the exact point (Fractions).
    fed : the point as the learner received it (floats with ``feed="float"``).
    prediction : the learner's prediction as it returned it (e.g. ``True`` for River, ``1``).
    predicted_sign : that prediction as ±1 (``classes[1]`` is +1; anything else, ``None`` included,
        is −1, as a tie predicts −1 in the lectures' online protocol).
    label : the revealed label ±1, always ``-predicted_sign``.
    interval : the open interval (lo, hi) of the a's consistent with every label up to this round.
    """

    number: int
    t: Fraction
    x: tuple[Fraction, ...]
    fed: Any
    prediction: Any
    predicted_sign: int
    label: int
    interval: tuple[Fraction, Fraction]


@dataclass
class LittlestoneResult:
    """The proof object: every round, the mistakes and a hypothesis consistent with all labels.

    Attributes
    ----------
    rounds : every :class:`Round`, in order.
    a : the exact a (midpoint of the final interval); h = (−1, a, 0, …) labels every round.
    d : the dimension of the points.
    feed : "float" or "exact": what the learner was given.
    """

    rounds: list[Round]
    a: Fraction
    d: int
    feed: str
    classes: tuple[Any, Any] = field(default=(-1, 1))

    @property
    def mistakes(self) -> int:
        """Rounds where the revealed label differs from the learner's prediction (= all rounds)."""
        return sum(1 for r in self.rounds if r.label != r.predicted_sign)

    @property
    def hypothesis(self) -> tuple[Fraction, ...]:
        """h = (−1, a, 0, …, 0), consistent with every label (no ties)."""
        return (Fraction(-1), self.a) + (Fraction(0),) * (self.d - 2)

    @property
    def faithful_rounds(self) -> int:
        """Number of leading rounds in which the learner received exactly the point of the proof."""
        count = 0
        for r in self.rounds:
            if tuple(Fraction(value) for value in _values(r.fed)) != r.x:
                break
            count += 1
        return count

    @property
    def realizable_fed_rounds(self) -> int:
        """Longest prefix of the *fed* points whose labels some h_a = (−1, a, 0, …) realizes.

        A fed point (u, v, …) with v > 0 is labelled +1 by h_a iff a > u/v, so the prefix is
        realizable iff every +1 threshold lies strictly below every −1 threshold.
        """
        below, above = None, None  # max threshold labelled +1, min threshold labelled −1
        for count, r in enumerate(self.rounds):
            u, v_ = (Fraction(value) for value in _values(r.fed)[:2])
            threshold = u / v_
            if r.label == 1:
                below = threshold if below is None else max(below, threshold)
            else:
                above = threshold if above is None else min(above, threshold)
            if below is not None and above is not None and not below < above:
                return count
        return len(self.rounds)

    def verify(self) -> bool:
        """Re-check the whole proof in exact arithmetic; returns True or raises :class:`ProofError`.

        Checks, for every round: the point is (t, 1, 0, …) with t the midpoint of the interval left
        by the earlier labels (so the points are the shattered tree's path), the label is the
        opposite of the prediction, the interval is updated by the label, and
        sign(⟨h, x⟩) = label with ⟨h, x⟩ ≠ 0 for h = (−1, a, 0, …); finally a ∈ (0, 1) and
        mistakes = rounds.
        """
        lo, hi = Fraction(0), Fraction(1)
        h = self.hypothesis
        for r in self.rounds:
            t = (lo + hi) / 2
            if r.t != t or r.x != (t, Fraction(1)) + (Fraction(0),) * (self.d - 2):
                raise ProofError(
                    f"round {r.number}: expected the point ({t}, 1, 0, ...), got {r.x}"
                )
            if r.label != -r.predicted_sign or r.label not in (-1, 1):
                raise ProofError(
                    f"round {r.number}: the label {r.label} is not the opposite of the "
                    f"prediction {r.predicted_sign}"
                )
            lo, hi = (t, hi) if r.label == 1 else (lo, t)
            if r.interval != (lo, hi):
                raise ProofError(
                    f"round {r.number}: expected the interval ({lo}, {hi}), got {r.interval}"
                )
            score = sum((hj * xj for hj, xj in zip(h, r.x, strict=True)), Fraction(0))
            if score == 0 or (1 if score > 0 else -1) != r.label:
                raise ProofError(
                    f"round {r.number}: h = (-1, {self.a}, 0, ...) gives <h, x> = {score}, "
                    f"which does not have the sign of the label {r.label}"
                )
        if not 0 < self.a < 1:
            raise ProofError(f"a = {self.a} is outside (0, 1)")
        if self.mistakes != len(self.rounds):
            raise ProofError(f"{self.mistakes} mistakes in {len(self.rounds)} rounds")
        return True

    def summary(self) -> str:
        a_text = (
            str(self.a)
            if self.a.denominator < 10**12
            else f"{float(self.a):.6g}... (exactly a Fraction over 2^{self.a.denominator.bit_length() - 1})"
        )
        return (
            f"Littlestone adversary: {self.mistakes} mistakes in {len(self.rounds)} rounds (d = {self.d}); "
            f"h = (-1, a, 0, ...) with a = {a_text} labels every round; the learner saw the exact "
            f"point in {self.faithful_rounds} rounds (feed={self.feed!r}), the fed points stay "
            f"realizable for {self.realizable_fed_rounds} rounds"
        )


class ThresholdAdversary(LdimAdversary):
    """:class:`~perceptronlab.online.LdimAdversary` on the thresholds h_a, a ∈ (0, 1), of the whole interval.

    The version space is the open interval (lo, hi) of the a's consistent with the labels; it has an
    infinite Littlestone dimension, and so has each side of any point inside it, so the point asked
    is the midpoint t (the root of the deepest tree on the dyadic grid, where the finite
    ``LdimAdversary`` on ``FiniteClass.thresholds(2**k - 1)`` asks the same points), and the label
    (1 when a > t) is the one the learner did not predict. It never runs out.

    Examples
    --------
    >>> adversary = ThresholdAdversary()
    >>> adversary.point(), adversary.label(1), adversary.point(), adversary.interval
    (Fraction(1, 2), 0, Fraction(1, 4), (Fraction(0, 1), Fraction(1, 2)))
    """

    def __init__(self) -> None:
        self.interval: tuple[Fraction, Fraction] = (Fraction(0), Fraction(1))

    @property
    def dimension(self) -> int:
        """The version space's dimension is infinite: asking for it is a one-line error."""
        raise v.fail(
            "dimension",
            "a finite class",
            "the thresholds of the whole interval (infinite dimension)",
            "Play a fixed number of rounds.",
        )

    @property
    def finished(self) -> bool:
        return False

    @property
    def midpoint(self) -> Fraction:
        """The midpoint of the interval: an a that labels every round so far correctly."""
        lo, hi = self.interval
        return (lo + hi) / 2

    def point(self) -> Fraction:
        return self.midpoint

    def label(self, prediction: int) -> int:
        t = self.midpoint
        answer = 0 if prediction == 1 else 1
        lo, hi = self.interval
        self.interval = (t, hi) if answer == 1 else (lo, t)
        return answer


class SklearnAdapter:
    """River's ``predict_one`` / ``learn_one`` protocol for scikit-learn estimators with ``partial_fit``.

    Parameters
    ----------
    estimator : e.g. ``sklearn.linear_model.Perceptron()``; it is trained in place.
    classes : the two labels, negative first; passed to the first ``partial_fit``.

    Notes
    -----
    Before the first ``partial_fit`` the estimator has no weights; the adapter then predicts
    ``classes[0]``, which is what scikit-learn's zero-initialised linear models predict (a score
    of 0 is not > 0).

    Examples
    --------
    >>> from sklearn.linear_model import Perceptron
    >>> learner = SklearnAdapter(Perceptron())
    >>> learner.predict_one([0.5, 1.0])
    -1
    >>> learner.learn_one([0.5, 1.0], 1)
    >>> learner.predict_one([0.5, 1.0])
    1
    """

    def __init__(self, estimator: Any, classes: tuple[Any, Any] = (-1, 1)) -> None:
        if not hasattr(estimator, "partial_fit"):
            raise v.fail(
                "estimator",
                "a scikit-learn estimator with partial_fit",
                type(estimator).__name__,
                "Use e.g. sklearn.linear_model.Perceptron or SGDClassifier.",
            )
        if len(tuple(classes)) != 2:
            raise v.fail(
                "classes", "two labels (negative, positive)", repr(classes), "Pass classes=(-1, 1)."
            )
        self.estimator = estimator
        self.classes = tuple(classes)
        self.fitted = False

    def _row(self, x: Any) -> Float64Array:
        import numpy as np

        values = list(x.values()) if isinstance(x, dict) else list(x)
        return np.asarray([[float(value) for value in values]], dtype=np.float64)

    def predict_one(self, x: Any) -> Any:
        if not self.fitted:
            return self.classes[0]
        return self.estimator.predict(self._row(x))[0].item()

    def learn_one(self, x: Any, y: Any) -> None:
        self.estimator.partial_fit(self._row(x), [y], classes=list(self.classes))
        self.fitted = True


def _values(x: Any) -> list[Any]:
    return list(x.values()) if isinstance(x, dict) else list(x)


def _is_river(learner: Any) -> bool:
    return type(learner).__module__.split(".")[0] == "river"


def littlestone(
    learner: Any,
    rounds: int,
    d: int = 2,
    *,
    feed: str = "float",
    classes: tuple[Any, Any] | None = None,
    as_dict: bool | None = None,
) -> LittlestoneResult:
    """Play the shattered tree of “Perceptron Algorithm for Halfspaces” against an online learner:
    it errs on every round.

    Round k: the point x = (t, 1, 0, …, 0) ∈ ℝ^d with t the midpoint of the open interval of the
    a's still consistent (first t = 1/2); the learner predicts (``predict_one``), the label
    −prediction is revealed (``learn_one``), and the interval keeps the a's with
    sign(a − t) = label. The returned proof holds an exact a with sign⟨(−1, a, 0, …), x⟩ = label
    on every round.

    Parameters
    ----------
    learner : anything with ``predict_one(x)`` and ``learn_one(x, y)`` (River's protocol, this
        project's ``OnlinePerceptron``, or :class:`SklearnAdapter` around a scikit-learn estimator).
    rounds : number of rounds (≥ 1); 1,000 is fast.
    d : dimension of the points, ≥ 2 (halfspaces in d = 1 have a finite Littlestone dimension).
    feed : "float" gives the learner floats (rounded after about 53 rounds, see the module notes);
        "exact" gives it Fractions.
    classes : the learner's (negative, positive) labels; default (False, True) for River learners
        (their binary labels are booleans), else (−1, 1).
    as_dict : give x as a dict {"x1": …, "x2": …} (River style); default: only for River learners.

    Returns
    -------
    LittlestoneResult
        ``mistakes == rounds``; ``verify()`` re-checks everything exactly.

    Examples
    --------
    >>> from sklearn.linear_model import Perceptron
    >>> proof = littlestone(SklearnAdapter(Perceptron()), rounds=20)
    >>> proof.mistakes, proof.verify()
    (20, True)
    >>> [str(r.t) for r in proof.rounds[:2]]
    ['1/2', '3/4']
    """
    rounds, d, classes, as_dict = _checked_game(learner, rounds, d, feed, classes, as_dict)
    adversary = ThresholdAdversary()
    played: list[Round] = []
    for number in range(1, rounds + 1):
        t = adversary.point()
        x = (t, Fraction(1)) + (Fraction(0),) * (d - 2)
        values = [float(c) for c in x] if feed == "float" else list(x)
        fed = {f"x{j + 1}": value for j, value in enumerate(values)} if as_dict else values
        prediction = learner.predict_one(fed)
        predicted_sign = _predicted_sign(prediction, classes, number)
        label = 1 if adversary.label(1 if predicted_sign == 1 else 0) == 1 else -1
        learner.learn_one(fed, classes[1] if label == 1 else classes[0])
        played.append(
            Round(number, t, x, fed, prediction, predicted_sign, label, adversary.interval)
        )
    return LittlestoneResult(rounds=played, a=adversary.midpoint, d=d, feed=feed, classes=classes)


def _checked_game(
    learner: Any,
    rounds: int,
    d: int,
    feed: str,
    classes: tuple[Any, Any] | None,
    as_dict: bool | None,
) -> tuple[int, int, tuple[Any, ...], bool]:
    """:func:`littlestone`'s arguments checked (one line for each bad one), with the defaults of
    ``classes`` and ``as_dict`` filled in for the learner."""
    check_learner(
        learner, "Wrap scikit-learn estimators in perceptronlab.adversary.SklearnAdapter."
    )
    rounds = v.check_positive_int("rounds", rounds, "Pass e.g. rounds=100.")
    if isinstance(d, bool) or not isinstance(d, numbers.Integral) or d < 2:
        raise v.fail(
            "d",
            "an integer >= 2",
            repr(d),
            "Pass d=2: in d = 1 halfspaces through 0 are just two hypotheses, so the game is finite.",
        )
    d = int(d)
    v.check_choice("feed", feed, FEEDS)
    river_like = _is_river(learner)
    if classes is None:
        classes = (False, True) if river_like else (-1, 1)
    classes = tuple(classes)
    if len(classes) != 2 or classes[0] == classes[1]:
        raise v.fail(
            "classes",
            "two different labels (negative, positive)",
            repr(classes),
            "Pass e.g. classes=(-1, 1).",
        )
    as_dict = river_like if as_dict is None else bool(as_dict)
    return rounds, d, classes, as_dict


def _predicted_sign(prediction: Any, classes: tuple[Any, ...], number: int) -> int:
    """+1 for ``classes[1]``, −1 for ``classes[0]`` or no prediction (``None``, as a tie)."""
    if prediction is None:
        return -1
    for sign, label in ((1, classes[1]), (-1, classes[0])):
        try:
            if bool(prediction == label):
                return sign
        except (TypeError, ValueError):
            pass
    raise v.fail(
        f"the learner's prediction in round {number}",
        f"one of the classes {classes!r} or None",
        repr(prediction),
        "Pass classes=(negative, positive) with the learner's own labels.",
    )
