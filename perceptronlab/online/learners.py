"""The online learners of the chapter on a finite class: Consistent, Halving, SOA, Weighted Majority,
Hedge, and Littlestone's Winnow on 0/1 vectors.

Each follows the online protocol of :class:`perceptronlab.OnlinePerceptron`: ``predict_one(x)``
before the label is shown, ``learn_one(x, y)`` after, ``mistakes`` counting the rounds whose
prediction was wrong. On a class, x is a point's column number and labels are 0 and 1; Winnow takes
the point itself, a 0/1 vector. Ties predict 1 (the majority of "at least half").

Weighted Majority's weights (β^mistakes with a rational β) and Winnow's weights (products of a
rational α) are exact Fractions: a student checks them by hand.
"""

from __future__ import annotations

import math
import numbers
from collections.abc import Sequence
from fractions import Fraction
from typing import Any, ClassVar

import numpy as np
from numpy.typing import NDArray

from perceptronlab._ground import validation as v
from perceptronlab._ground.numbers import parse_exact
from perceptronlab.online._search import Search
from perceptronlab.online.classes import FiniteClass, check_class

__all__ = ["Consistent", "Halving", "SOA", "WeightedMajority", "Hedge", "Winnow", "WINNOW_VARIANTS"]

WINNOW_VARIANTS = ("demotion", "elimination")


def _label(y: Any) -> int:
    if isinstance(y, bool | np.bool_):
        return int(y)
    if isinstance(y, numbers.Integral) and int(y) in (0, 1):
        return int(y)
    raise v.fail("y", "a label 0 or 1", repr(y), "Write the labels as 0 and 1 (map -1 to 0).")


class _ClassLearner:
    """A learner over a finite class whose points are column numbers; keeps the version space."""

    #: what ``play`` feeds: the column number of the point
    takes: ClassVar[str] = "column"
    #: the name of the Littlestone-dimension search the learner runs (its memory is checked up
    #: front), or None when it only keeps the version space
    searches: ClassVar[str | None] = None

    def __init__(self, H: FiniteClass, *, max_bytes: Any = None) -> None:
        self.H = check_class(H)
        self._search = Search.of(H.matrix, max_bytes=max_bytes, what=self.searches)
        self.version_space = self._search.everything
        self.mistakes = 0

    def _column(self, x: Any) -> int:
        return self.H._point_index(x)

    @property
    def alive(self) -> list[int]:
        """The hypotheses (row numbers) consistent with every label so far."""
        space, rows = self.version_space, []
        while space:
            low = space & -space
            rows.append(low.bit_length() - 1)
            space ^= low
        return rows

    def _sides(self, x: Any) -> tuple[int, int]:
        one = self.version_space & self._search.ones[self._column(x)]
        return self.version_space ^ one, one

    def side_sizes(self, x: Any) -> tuple[int, int]:
        """How many hypotheses of the version space label x with 0, and with 1 (Halving's votes)."""
        zero, one = self._sides(x)
        return zero.bit_count(), one.bit_count()

    def predict_one(self, x: Any) -> int:
        raise NotImplementedError

    def learn_one(self, x: Any, y: Any) -> None:
        label = _label(y)
        if self.predict_one(x) != label:
            self.mistakes += 1
        zero, one = self._sides(x)
        self.version_space = one if label else zero


class Consistent(_ClassLearner):
    """Predict with any hypothesis consistent with the labels so far (the first row of the version space).

    At most :math:`|H| - 1` mistakes on a realisable sequence (:func:`perceptronlab.bounds.consistent`).

    Examples
    --------
    >>> learner = Consistent(FiniteClass.thresholds(3))
    >>> learner.predict_one(1), learner.learn_one(1, 1), learner.mistakes, learner.alive
    (0, None, 1, [2, 3])
    """

    def predict_one(self, x: Any) -> int:
        space = self.version_space
        if not space:
            return 1
        first = (space & -space).bit_length() - 1
        return int(self.H.matrix[first, self._column(x)])


class Halving(_ClassLearner):
    """Predict with the majority of the version space; at most ⌊log₂|H|⌋ mistakes (realisable).

    Examples
    --------
    >>> learner = Halving(FiniteClass.thresholds(7))
    >>> for x, y in [(3, 1), (5, 0), (4, 1)]:
    ...     learner.learn_one(x, y)
    >>> learner.mistakes, learner.alive
    (1, [5])
    """

    def predict_one(self, x: Any) -> int:
        zero, one = self.side_sizes(x)
        return int(one >= zero)


class SOA(_ClassLearner):
    """The Standard Optimal Algorithm: predict the label whose version space keeps the larger
    Littlestone dimension; at most Ldim(H) mistakes, and no deterministic learner does better.

    (Littlestone 1988; Shalev-Shwartz and Ben-David 2014, Algorithm SOA and Theorem 21.7.)

    ``max_bytes`` bounds the memory of its remembered version spaces (as in
    :func:`~perceptronlab.online.littlestone_dimension`), checked before any work.

    Examples
    --------
    >>> H = FiniteClass.intervals(6)
    >>> learner = SOA(H)
    >>> [learner.predict_one(x) for x in range(6)]
    [0, 1, 1, 1, 1, 0]
    """

    searches: ClassVar[str | None] = "SOA (the Littlestone dimensions of its version spaces)"

    def side_dimensions(self, x: Any) -> tuple[int, int]:
        """The Littlestone dimensions of the version space after the label 0 and after 1 (−1: empty)."""
        zero, one = self._sides(x)
        return self._search.ldim(zero), self._search.ldim(one)

    def predict_one(self, x: Any) -> int:
        zero, one = self.side_dimensions(x)
        return int(one >= zero)


#: the rounds exact Weighted Majority learns by default: a few seconds here with β = 9/10 and 200
#: experts (1,000 rounds 7 s, 2,000 rounds 30 s, 4,000 rounds 134 s on a busy 2-core machine)
EXACT_ROUNDS = 1_000


def _exact_factor(name: str, value: Any, fix: str) -> Fraction:
    if isinstance(value, bool) or not isinstance(value, numbers.Real | str):
        raise v.fail(name, "a number", repr(value), fix)
    if isinstance(value, float):
        if not math.isfinite(value):
            raise v.fail(name, "a finite number", value, fix)
        return Fraction(
            str(value)
        )  # 0.1 is the decimal 1/10 a student writes, not the binary float
    return parse_exact(value, name, fix=fix)


class WeightedMajority(_ClassLearner):
    """Weighted Majority (Littlestone and Warmuth 1994): the hypotheses are experts of weight β^(their
    mistakes); predict the label of the larger total weight; every wrong expert's weight is multiplied
    by β each round (β = 0 is Halving). Needs no realisable sequence.

    At most (log₂N + m*·log₂(1/β)) / log₂(2/(1+β)) mistakes, m* the best expert's
    (:func:`perceptronlab.bounds.weighted_majority`).

    Parameters
    ----------
    H : the experts, a :class:`FiniteClass`.
    beta : in [0, 1); a float is read as the decimal it shows (0.1 is 1/10), so the weights are exact.
    max_rounds : the most rounds learned with exact weights (default :data:`EXACT_ROUNDS`, a few
        seconds: each round sums β^m over the experts' mistake counts m in Fractions whose size
        grows with the rounds, worse than T² in all). Round ``max_rounds + 1`` is refused with one
        line naming :class:`Hedge`, which keeps float weights; pass a larger value to go on exactly.

    Examples
    --------
    >>> learner = WeightedMajority(FiniteClass.thresholds(3), beta="1/2")
    >>> learner.learn_one(1, 0)
    >>> [str(w) for w in learner.weights], learner.mistakes
    (['1', '1', '1/2', '1/2'], 1)
    """

    def __init__(
        self, H: FiniteClass, beta: Any = Fraction(1, 2), *, max_rounds: int = EXACT_ROUNDS
    ) -> None:
        super().__init__(H)
        self.max_rounds = v.check_positive_int(
            "max_rounds", max_rounds, f"Pass e.g. max_rounds={EXACT_ROUNDS}."
        )
        self.rounds = 0
        self.beta = _exact_factor("beta", beta, "Pass e.g. beta=1/2.")
        if not 0 <= self.beta < 1:
            raise v.fail(
                "beta",
                "a number in [0, 1)",
                beta,
                "Pass e.g. beta=1/2 (a wrong expert's weight is halved).",
            )
        self.expert_mistakes: NDArray[np.int64] = np.zeros(len(H), dtype=np.int64)

    @property
    def weights(self) -> list[Fraction]:
        """Each expert's weight β^(its mistakes), exactly."""
        return [self.beta ** int(m) for m in self.expert_mistakes]

    def _weight(self, experts: NDArray[np.bool_]) -> Fraction:
        counts = np.bincount(self.expert_mistakes[experts])
        return sum((int(c) * self.beta**m for m, c in enumerate(counts) if c), Fraction(0))

    def votes(self, x: Any) -> tuple[Fraction, Fraction]:
        """The total weight of the experts saying 0 and saying 1 on x."""
        says_one = self.H.matrix[:, self._column(x)].astype(bool)
        return self._weight(~says_one), self._weight(says_one)

    @property
    def best_mistakes(self) -> int:
        """The mistakes of the best expert so far (m*)."""
        return int(self.expert_mistakes.min())

    def predict_one(self, x: Any) -> int:
        zero, one = self.votes(x)
        return int(one >= zero)

    def learn_one(self, x: Any, y: Any) -> None:
        label = _label(y)
        self._count_round()
        self._learn(x, label)

    def _learn(self, x: Any, label: int) -> None:
        """Predict x, count a mistake, and charge every expert that said otherwise."""
        if self.predict_one(x) != label:
            self.mistakes += 1
        self.expert_mistakes += self.H.matrix[:, self._column(x)] != label
        zero, one = self._sides(x)
        self.version_space = one if label else zero

    def _count_round(self) -> None:
        """Refuse, before it starts, a round past ``max_rounds`` (β = 0, Halving's weights 0 or 1,
        stays cheap and is never refused)."""
        if self.rounds >= self.max_rounds and self.beta != 0:
            raise v.fail(
                "WeightedMajority",
                f"at most {self.max_rounds:,} rounds with exact weights (max_rounds; the fractions "
                "β^m grow with every round)",
                f"round {self.rounds + 1:,}",
                "Use Hedge(H, rounds=T), which keeps float weights, or pass a larger max_rounds to "
                "go on exactly (minutes for thousands of rounds).",
            )
        self.rounds += 1


class Hedge(WeightedMajority):
    """Randomised Weighted Majority (Hedge): predict 1 with probability the weight share of the
    experts saying 1, weights exp(−η·mistakes).

    ``mistakes`` counts the drawn predictions' mistakes, ``expected_mistakes`` the sum of the
    probabilities of a wrong prediction; with η = √(2 ln N / T) the latter exceeds the best expert's
    mistakes by at most √(2T ln N) (Shalev-Shwartz and Ben-David 2014, Theorem 21.11;
    :func:`perceptronlab.bounds.hedge_regret`).

    Parameters
    ----------
    H : the experts.
    rounds : the horizon T that sets η (when ``eta`` is not given).
    eta : the learning rate, > 0.
    seed : the seed of the draws.

    Examples
    --------
    >>> learner = Hedge(FiniteClass([[0], [1]]), rounds=4, seed=0)
    >>> learner.probability(0)
    0.5
    >>> learner.learn_one(0, 1); round(learner.probability(0), 4)
    0.6431
    """

    def __init__(
        self,
        H: FiniteClass,
        rounds: int | None = None,
        *,
        eta: float | None = None,
        seed: int | None = None,
    ) -> None:
        super().__init__(H, beta=0)
        if eta is None:
            horizon = v.check_positive_int(
                "rounds", rounds, "Pass the number of rounds T (it sets eta), or eta."
            )
            eta = math.sqrt(2 * math.log(max(len(H), 2)) / horizon)
        if (
            isinstance(eta, bool)
            or not isinstance(eta, numbers.Real)
            or not math.isfinite(eta)
            or eta <= 0
        ):
            raise v.fail(
                "eta",
                "a number > 0",
                repr(eta),
                "Pass e.g. eta=0.5, or rounds=T for the theorem's eta.",
            )
        self.eta: float = float(eta)
        self.expected_mistakes: float = 0.0
        self._rng: np.random.Generator = np.random.default_rng(v.check_seed(seed))

    @property
    def float_weights(self) -> NDArray[np.float64]:
        """The weights exp(−η·(mistakes − the fewest)), scaled so the best expert has 1."""
        shifted: NDArray[np.float64] = (self.expert_mistakes - self.expert_mistakes.min()).astype(
            np.float64
        )
        weights: NDArray[np.float64] = np.exp(-shifted * self.eta)
        return weights

    def probability(self, x: Any) -> float:
        """The probability of predicting 1 on x."""
        weights = self.float_weights
        says_one = self.H.matrix[:, self._column(x)].astype(bool)
        return float(weights[says_one].sum() / weights.sum())

    def predict_one(self, x: Any) -> int:
        return int(self._rng.random() < self.probability(x))

    def learn_one(self, x: Any, y: Any) -> None:
        label = _label(y)
        p = self.probability(x)
        self.expected_mistakes += 1 - p if label else p
        self._learn(x, label)


class Winnow:
    """Littlestone's Winnow on 0/1 vectors of n variables: multiplicative updates, few mistakes when few
    variables matter.

    Predict 1 when Σ wᵢxᵢ > θ (weights start at 1). On a missed 1, every active weight is multiplied by
    α (promotion); on a false 1, every active weight is set to 0 (``"elimination"``, Winnow1) or divided
    by α (``"demotion"``, Winnow2). On a monotone disjunction of k variables the mistakes stay within
    :func:`perceptronlab.bounds.winnow` (Littlestone 1988).

    Parameters
    ----------
    n : the number of variables.
    alpha : the factor, > 1 (2 by default); floats are read as the decimal they show.
    theta : the threshold, ≥ 1/α (n/2 by default).
    variant : "demotion" (Winnow2) or "elimination" (Winnow1).

    Examples
    --------
    >>> learner = Winnow(4)
    >>> learner.predict_one((1, 1, 0, 0)), learner.learn_one((1, 1, 0, 0), 1)
    (0, None)
    >>> [str(w) for w in learner.weights], learner.mistakes
    (['2', '2', '1', '1'], 1)
    """

    takes: ClassVar[str] = "point"

    def __init__(
        self, n: int, alpha: Any = 2, theta: Any = None, *, variant: str = "demotion"
    ) -> None:
        self.n = v.check_positive_int("n", n, "Pass the number of variables.")
        self.alpha = _exact_factor("alpha", alpha, "Pass alpha > 1, e.g. alpha=2.")
        if self.alpha <= 1:
            raise v.fail("alpha", "a number > 1", alpha, "Pass alpha > 1, e.g. alpha=2.")
        self.theta = (
            Fraction(self.n, 2)
            if theta is None
            else _exact_factor("theta", theta, "Pass theta >= 1/alpha, e.g. theta=n/2.")
        )
        if self.theta < 1 / self.alpha:
            raise v.fail(
                "theta",
                f"at least 1/alpha = {1 / self.alpha}",
                theta,
                "Pass theta = n/2 (Littlestone's).",
            )
        self.variant = v.check_choice("variant", variant, WINNOW_VARIANTS)
        self.weights: list[Fraction] = [Fraction(1)] * self.n
        self.mistakes = 0

    def _vector(self, x: Any) -> list[int]:
        values = (
            list(x.values())
            if isinstance(x, dict)
            else list(x)
            if isinstance(x, Sequence | np.ndarray)
            else None
        )
        if values is None or len(values) != self.n or any(value not in (0, 1) for value in values):
            raise v.fail(
                "x",
                f"a 0/1 vector of n = {self.n} variables",
                repr(x),
                "Pass the point as 0s and 1s.",
            )
        return [int(value) for value in values]

    def score(self, x: Any) -> Fraction:
        """Σ wᵢxᵢ, exactly."""
        return sum(
            (w for w, value in zip(self.weights, self._vector(x), strict=True) if value),
            Fraction(0),
        )

    def predict_one(self, x: Any) -> int:
        return int(self.score(x) > self.theta)

    def learn_one(self, x: Any, y: Any) -> None:
        label = _label(y)
        vector = self._vector(x)
        predicted = self.predict_one(vector)
        if predicted == label:
            return
        self.mistakes += 1
        if label == 1:
            factor = self.alpha
        else:
            factor = Fraction(0) if self.variant == "elimination" else 1 / self.alpha
        self.weights = [
            w * factor if value else w for w, value in zip(self.weights, vector, strict=True)
        ]
