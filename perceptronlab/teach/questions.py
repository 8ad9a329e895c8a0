"""The self-test's questions: the model (a question, its options, the named slips) and how a
question writes its numbers.

A choice question has exactly one correct option; every wrong option names the slip it replays
(:data:`SLIPS`: the worksheet checker's slips, and the ones these questions need) and says why it is
wrong. A numeric question has its exact key and a tolerance; a question card has only its answer.
:mod:`perceptronlab.teach.quiz` assembles a quiz from :mod:`perceptronlab.teach.quiz_generated` and
:mod:`perceptronlab.teach.quiz_bank`.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, Literal

from perceptronlab._ground.numbers import format_number
from perceptronlab.teach.checker import SLIPS as SHEET_SLIPS

#: the kinds of question
QuestionKind = Literal["choice", "numeric", "card"]

#: slip name -> what the slip is (the worksheet checker's slips, and the ones these questions need)
SLIPS: dict[str, str] = {
    **{name: wording for name, (wording, _) in SHEET_SLIPS.items()},
    "no-update-on-mistake": "Keeping w although y⟨w,x⟩ < 0 is a mistake",
    "update-subtracted": "Subtracting the update: w − ηyx instead of w + ηyx",
    "forgot-eta": "Forgetting the learning rate in the update",
    "forgot-norm": "Forgetting to divide by ‖w‖",
    "forgot-label": "Forgetting the label y (the unsigned ⟨w,x⟩/‖w‖)",
    "distance-to-origin": "The distance of x to the origin, ‖x‖, instead of to the hyperplane",
    "forgot-squares": "R/ρ instead of R²/ρ²",
    "inverted-ratio": "ρ²/R² instead of R²/ρ²",
    "divide-by-n": "Dividing by n instead of n + 1",
    "mistake-bound-as-error": "The mistake bound R²/ρ² taken for the test-error bound",
    "slow-rate": "The non-separable rate 1/√n instead of 1/n",
    "eta-divides-mistakes": "Believing a larger η makes fewer mistakes",
    "eta-multiplies-mistakes": "Believing a larger η makes more mistakes",
    "eta-ignored": "Forgetting that every w is scaled by η",
    "eta-in-bound": "Believing the mistake bound depends on the learning rate",
    "forgot-rho0": "The plain perceptron's bound R²/ρ², without the margin ρ₀ of the update rule",
    "squared-sum": "(R + ρ₀)²/ρ² instead of (R² + 2ρ₀)/ρ²",
    "last-iterate": "The perceptron's last w instead of the pocket's best w",
    "first-iterate": "The first w instead of the one with the fewest training errors",
    "most-errors": "The w with the most training errors",
    "more-errors": "A visited w with more training errors than the pocket's",
    "later-tie": "A later w with as many errors: the pocket swaps only for strictly fewer",
    "norm-squared": "Dividing by ‖w‖² instead of ‖w‖",
    "unsigned": "The unsigned distance |⟨w,x⟩|/‖w‖ (it hides the wrong side)",
    "rounded-up": "Rounding the bound up: a count is at most the bound, so it rounds down",
    # the conceptual questions' slips
    "hinge": "The hinge loss (it also updates correct points inside the margin)",
    "squared": "The squared loss (the Widrow–Hoff rule)",
    "zero-one": "The 0-1 loss (its gradient is 0 almost everywhere)",
    "not-d": "Believing the bound depends on the dimension or the number of points",
    "order": "Believing the bound depends on the order of the points",
    "exponential": "An exponential rate (no bound gives one)",
    "eta-diverges": "Believing a learning rate can stop the perceptron from converging",
    "loss-at-zero": "Believing the linear loss is positive at a tie",
    "margin-on-plane": "Confusing a point on the hyperplane with one at the margin",
    "radius": "Tying the tie rule to the radius R",
    "training-error": "Taking the training error for an unbiased estimate",
    "linear-only": "Believing leave-one-out needs a linear classifier",
    "separable-only": "Believing separability is needed where it is not (or available where it is not)",
    "averaged": "The averaged perceptron's w instead of the pocket's",
    "batch": "Confusing the online protocol with whole sweeps",
    "unsupervised": "Forgetting that the update needs the label",
    "one-update-fixes": "Believing one update always fixes the point",
    "update-solves": "Taking the update for a solution of ⟨w,x⟩ = y",
    "pocket-faster": "Believing the pocket is faster than the perceptron",
    "pocket-better": "Believing the pocket beats the perceptron on separable data",
    "pocket-worse": "Believing the pocket loses to the perceptron on separable data",
    "neutral-words": "Large weights for features that do not tell the classes apart",
    "sign-reversed": "Large positive weights for features that point to the other class (−1)",
}


@dataclass(frozen=True)
class Option:
    """One option of a choice question: its text, whether it is the key, why, and the slip it replays."""

    text: str
    correct: bool
    why: str
    slip: str | None = None


@dataclass(frozen=True)
class Question:
    """One question of the self-test.

    Attributes
    ----------
    id : unique within a quiz, stable for a seed (``"distance-3"``).
    topic : what it asks about (``"distance"``, ``"update"``, ``"theorem 1"``, ...).
    kind : ``"choice"``, ``"numeric"`` or ``"card"``.
    prompt : the question, plain Unicode text.
    options : the options of a choice question (exactly one correct), else empty.
    answer : the key as text.
    value, tolerance : a numeric question's key (exact) and the accepted absolute error.
    explanation : why the key is right.
    data : the question's own numbers, exact, so that a program can recompute the key.
    """

    id: str
    topic: str
    kind: QuestionKind
    prompt: str
    answer: str
    explanation: str
    options: tuple[Option, ...] = ()
    value: Fraction | None = None
    tolerance: Fraction | None = None
    data: dict = field(default_factory=dict, compare=False)

    @property
    def key(self) -> Option:
        """The correct option of a choice question."""
        return next(o for o in self.options if o.correct)

    def accepts(self, reply: str) -> bool:
        """Whether a typed reply is right: an option's letter (a, b, ...) for a choice question,
        a number (``2``, ``-1/2``, ``0.25``) within the tolerance for a numeric one. Cards accept
        nothing (they are read, not answered)."""
        reply = reply.strip()
        if self.kind == "choice":
            index = option_index(reply, len(self.options))
            return index is not None and self.options[index].correct
        if self.kind == "numeric":
            number = read_number(reply)
            assert (
                self.value is not None and self.tolerance is not None
            )  # numeric questions have both
            return number is not None and abs(number - self.value) <= self.tolerance
        return False

    def as_dict(self) -> dict[str, Any]:
        """The question as JSON-ready data (the lab page's shape)."""
        return {
            "id": self.id,
            "topic": self.topic,
            "kind": self.kind,
            "prompt": self.prompt,
            "options": [
                {
                    "text": o.text,
                    "correct": o.correct,
                    "why": o.why,
                    "slip": o.slip,
                    "slip_text": SLIPS.get(o.slip) if o.slip else None,
                }
                for o in self.options
            ],
            "answer": self.answer,
            "value": None if self.value is None else float(self.value),
            "tolerance": None if self.tolerance is None else float(self.tolerance),
            "explanation": self.explanation,
        }


def option_index(reply: str, count: int) -> int | None:
    """``"b"`` → 1; ``None`` for anything that is not one of the first ``count`` letters."""
    reply = reply.strip().lower().rstrip(")").lstrip("(")
    if len(reply) == 1 and "a" <= reply < chr(ord("a") + count):
        return ord(reply) - ord("a")
    return None


def read_number(text: str) -> Fraction | None:
    """A typed number, exactly (``-1/2``, ``0.25``, ``3``); ``None`` when it is not one."""
    cleaned = text.strip().replace("−", "-").replace(" ", "")
    if not cleaned or len(cleaned) > 40:
        return None
    try:
        return Fraction(cleaned)
    except (ValueError, ZeroDivisionError):
        return None


def letter(index: int) -> str:
    return chr(ord("a") + index)


def number_text(value: Fraction) -> str:
    """An exact number for a prompt or an option: ``-3``, ``5/2``, ``0.04``, ``1/30``."""
    value = Fraction(value)
    if value.denominator == 1:
        return str(value.numerator)
    den = value.denominator
    for p in (2, 5):
        while den % p == 0:
            den //= p
    if den == 1 and len(str(float(value))) <= 8:
        return repr(float(value))
    return format_number(value)


def same_format(values: list[Fraction]) -> list[str]:
    """Numbers for the options of one question, all in one format, so that no format gives the
    key away: decimals when every one terminates within 4 places, else fractions (integers stay
    integers in both).

    >>> same_format([Fraction(1, 4), Fraction(3)]), same_format([Fraction(1, 4), Fraction(1, 3)])
    (['0.25', '3'], ['1/4', '1/3'])
    """
    values = [Fraction(v) for v in values]
    if all((v * 10**4).denominator == 1 for v in values):
        return [str(v.numerator) if v.denominator == 1 else key_decimal(v) for v in values]
    return [str(v.numerator) if v.denominator == 1 else format_number(v) for v in values]


def key_decimal(value: Fraction) -> str:
    """A terminating value as a decimal: ``-0.25``."""
    places = next(k for k in range(1, 30) if (value * 10**k).denominator == 1)
    return f"{float(value):.{places}f}"


def vec(values) -> str:
    return "(" + ", ".join(number_text(Fraction(c)) for c in values) + ")"


def signed(label: int) -> str:
    return "+1" if label > 0 else "−1"


def tolerance(value: Fraction) -> Fraction:
    """0 for a key with an exact decimal; else a thousandth (of the value, when it is large)."""
    den = value.denominator
    for p in (2, 5):
        while den % p == 0:
            den //= p
    return Fraction(0) if den == 1 else Fraction(1, 1000) * max(Fraction(1), abs(value))


def choice(
    qid: str,
    topic: str,
    prompt: str,
    key: tuple[str, str],
    wrong: list[tuple[str, str, str]],
    explanation: str,
    rng: random.Random | None = None,
    data: dict | None = None,
) -> Question:
    """A choice question from the key (text, why) and the wrong options (text, slip, why), shuffled
    by ``rng`` (without it, in this order: the key first; a quiz shuffles them when it asks)."""
    options = [Option(key[0], True, key[1])] + [
        Option(text, False, why, slip) for text, slip, why in wrong
    ]
    if rng is not None:
        rng.shuffle(options)
    return Question(
        qid, topic, "choice", prompt, key[0], explanation, tuple(options), data=data or {}
    )


def numeric(
    qid: str, topic: str, prompt: str, value: Fraction, explanation: str, data: dict | None = None
) -> Question:
    """A numeric question on an exact value: the key written by :func:`number_text`, a reply
    accepted within :func:`tolerance` of it."""
    return Question(
        qid,
        topic,
        "numeric",
        prompt,
        number_text(value),
        explanation,
        value=value,
        tolerance=tolerance(value),
        data=data or {},
    )


def distinct(candidates: list[tuple[Any, str, str]], key: Any) -> list[tuple[Any, str, str]]:
    """The candidates (value, slip, why) whose value differs from the key and from every earlier one."""
    seen = [key]
    kept = []
    for value, slip, why in candidates:
        if value not in seen:
            seen.append(value)
            kept.append((value, slip, why))
    return kept
