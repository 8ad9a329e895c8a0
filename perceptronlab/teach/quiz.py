"""The self-test: question cards and questions whose wrong options are the real slips.

The lecture notes "Perceptron Mistake Bound" close with a self-test (question cards, then
multiple-choice questions whose explanations say why each wrong option is wrong), and Lin's
*Machine Learning Foundations* lecture 2 has its "Fun Time" quizzes. This module writes the same
facts in the project's own words, in three kinds of question:

- ``"card"``: a question and its answer (the update and the mistake rule, SGD on the linear loss,
  the distance, the margin, the two theorems with their assumptions, the three steps of the
  proof, what the bound does not depend on, η-invariance, leave-one-out, the non-separable case,
  the pocket);
- ``"choice"``: one correct option among wrong ones, each option with its explanation. The
  fixed ones are conceptual; the generated ones draw fresh numbers from a seed, compute the key
  exactly (the engine's ``perceptron(..., exact=True)`` and ``margins``), and make every wrong
  option by replaying a named slip (:data:`SLIPS`, which extends the worksheet checker's list);
- ``"numeric"``: a number to type, with its exact key and a tolerance.

:func:`quiz` gives the questions for a seed (the same seed, the same quiz);
:func:`quiz_document` gives them as JSON-ready data for the lab page's self-test panel.

Examples
--------
>>> questions = quiz(seed=0, count=6)
>>> len(questions), len({q.id for q in questions})
(6, 6)
>>> quiz_document(0, 6) == quiz_document(0, 6)
True
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, Literal

from perceptronlab._ground import validation as v
from perceptronlab._ground.numbers import format_count, format_number, format_sqrt
from perceptronlab.core.perceptron import perceptron
from perceptronlab.core.scores import margins as engine_margins
from perceptronlab.teach.checker import SLIPS as SHEET_SLIPS

QuestionKind = Literal["choice", "numeric", "card"]

#: the most questions one quiz may have
MAX_QUESTIONS = 200

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
    "forgot-rho0": "The plain perceptron's bound R²/ρ², without the margin ρ₀ of the update rule",
    "squared-sum": "(R + ρ₀)²/ρ² instead of (R² + 2ρ₀)/ρ²",
    "last-iterate": "The perceptron's last w instead of the pocket's best w",
    "first-iterate": "The first w instead of the one with the fewest training errors",
    "most-errors": "The w with the most training errors",
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
            assert self.value is not None and self.tolerance is not None  # numeric questions have both
            return number is not None and abs(number - self.value) <= self.tolerance
        return False

    def as_dict(self) -> dict[str, Any]:
        """The question as JSON-ready data (the lab page's shape)."""
        return {"id": self.id, "topic": self.topic, "kind": self.kind, "prompt": self.prompt,
                "options": [{"text": o.text, "correct": o.correct, "why": o.why} for o in self.options],
                "answer": self.answer, "value": None if self.value is None else float(self.value),
                "tolerance": None if self.tolerance is None else float(self.tolerance),
                "explanation": self.explanation}


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


# ---------------------------------------------------------------- exact helpers


def _scores(w, X, y) -> list[Fraction]:
    """y_i⟨w,x_i⟩ of every example, by the engine's exact ``margins``."""
    rows = [[Fraction(c) for c in x] for x in X]
    return list(engine_margins(rows, [int(s) for s in y], [Fraction(c) for c in w], Fraction(0)))


def _norm2(x) -> Fraction:
    return sum((Fraction(c) ** 2 for c in x), Fraction(0))


def _root(square: Fraction) -> Fraction:
    """√square of a rational square, exactly."""
    return Fraction(math.isqrt(square.numerator), math.isqrt(square.denominator))


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


def _vec(values) -> str:
    return "(" + ", ".join(number_text(Fraction(c)) for c in values) + ")"


def _signed(label: int) -> str:
    return "+1" if label > 0 else "−1"


def _tolerance(value: Fraction) -> Fraction:
    """0 for a key with an exact decimal; else a thousandth (of the value, when it is large)."""
    den = value.denominator
    for p in (2, 5):
        while den % p == 0:
            den //= p
    return Fraction(0) if den == 1 else Fraction(1, 1000) * max(Fraction(1), abs(value))


def _choice(qid: str, topic: str, prompt: str, key: tuple[str, str], wrong: list[tuple[str, str, str]],
            explanation: str, rng: random.Random, data: dict) -> Question:
    """A choice question from the key (text, why) and the wrong options (text, slip, why), shuffled."""
    options = [Option(key[0], True, key[1])] + [Option(text, False, why, slip) for text, slip, why in wrong]
    rng.shuffle(options)
    return Question(qid, topic, "choice", prompt, key[0], explanation, tuple(options), data=data)


def _distinct(candidates: list[tuple[Any, str, str]], key: Any) -> list[tuple[Any, str, str]]:
    """The candidates (value, slip, why) whose value differs from the key and from every earlier one."""
    seen = [key]
    kept = []
    for value, slip, why in candidates:
        if value not in seen:
            seen.append(value)
            kept.append((value, slip, why))
    return kept


# ---------------------------------------------------------------- generated questions
# Each generator draws until its question has three distinct wrong options (or its own rule) and
# returns None after too many draws; the registry below skips nothing silently (see _generated).

MAX_DRAWS = 10_000
_INTS = range(-3, 4)
#: normal vectors with an integer length, so that distances are rational
_PYTHAGOREAN = [(a, b) for a in range(-8, 9) for b in range(-8, 9)
                if (a, b) != (0, 0) and math.isqrt(a * a + b * b) ** 2 == a * a + b * b]


def update_question(rng: random.Random, qid: str) -> Question:
    """One perceptron step on a mistake: w after the update, the slips as wrong options."""
    for _ in range(MAX_DRAWS):
        w = (rng.choice(_INTS), rng.choice(_INTS))
        x = (rng.choice(_INTS), rng.choice(_INTS))
        label = rng.choice((-1, 1))
        eta = rng.choice((Fraction(1), Fraction(2), Fraction(3), Fraction(1, 2)))
        if x == (0, 0):
            continue
        score = _scores(w, [x], [label])[0]
        if score > 0:
            continue
        key = tuple(Fraction(wi) + eta * label * xi for wi, xi in zip(w, x, strict=True))
        kept_name = "tie-as-correct" if score == 0 else "no-update-on-mistake"
        candidates = [
            (tuple(Fraction(wi) + eta * xi for wi, xi in zip(w, x, strict=True)), "x-instead-of-yx",
             "adds ηx: with y = −1 the update must subtract x."),
            (tuple(Fraction(wi) + label * xi for wi, xi in zip(w, x, strict=True)), "forgot-eta",
             f"forgets the learning rate η = {number_text(eta)}."),
            (tuple(Fraction(c) for c in w), kept_name,
             "keeps w, but y⟨w,x⟩ = 0 is a tie, and a tie counts as a mistake." if score == 0 else
             f"keeps w, but y⟨w,x⟩ = {number_text(score)} < 0 is a mistake."),
            (tuple(Fraction(wi) - eta * label * xi for wi, xi in zip(w, x, strict=True)), "update-subtracted",
             "subtracts ηyx; the update adds it, to turn w towards yx."),
        ]
        wrong = _distinct(candidates, key)
        if len(wrong) < 3:
            continue
        wrong = wrong[:3]
        prompt = (f"The perceptron has w = {_vec(w)} and meets x = {_vec(x)} with label y = {_signed(label)}; "
                  f"the learning rate is η = {number_text(eta)}. What is w after this step?")
        why = (f"y⟨w,x⟩ = {number_text(score)} ≤ 0 is a mistake, so w ← w + ηyx = {_vec(w)} + "
               f"({number_text(eta * label)})·{_vec(x)} = {_vec(key)}.")
        return _choice(qid, "update", prompt, (_vec(key), why),
                       [(_vec(value), slip, f"{_vec(value)} {text}") for value, slip, text in wrong],
                       why, rng, {"w": w, "x": x, "y": label, "eta": eta, "key": key})
    raise RuntimeError("no update question found")  # pragma: no cover


def _root_text(sign: int, square: Fraction) -> str:
    """±√square as text: exact for rational roots (``-3``, ``5/2``), else ``√10``."""
    text = format_sqrt(square) if square else "0"
    return ("-" + text) if sign < 0 and square else text


def _as_root(value: Fraction) -> tuple[int, Fraction]:
    """A signed value as (sign, square): comparable exactly with the irrational ‖x‖ = (1, ‖x‖²)."""
    return (1 if value > 0 else -1, value * value)


def distance_question(rng: random.Random, qid: str) -> Question:
    """The signed distance y⟨w,x⟩/‖w‖ of a point to the hyperplane ⟨w,x⟩ = 0, as in the lecture's
    question: the wrong options forget ‖w‖, forget the label, or measure to the origin."""
    for _ in range(MAX_DRAWS):
        w = rng.choice(_PYTHAGOREAN)
        x = (rng.choice(range(-4, 5)), rng.choice(range(-4, 5)))
        label = rng.choice((-1, 1))
        score = _scores(w, [x], [label])[0]
        if score == 0 or x == (0, 0) or abs(w[0]) + abs(w[1]) > 10:
            continue
        norm = _root(_norm2(w))
        key = score / norm
        candidates = [
            (_as_root(score), "forgot-norm", f"{number_text(score)} is y⟨w,x⟩ itself: it forgets to divide by "
                                            f"‖w‖ = {number_text(norm)}."),
            (_as_root(score * label / norm), "forgot-label",
             f"{number_text(score * label / norm)} forgets the label: ⟨w,x⟩/‖w‖ without y."),
            ((1, _norm2(x)), "distance-to-origin", f"{_root_text(1, _norm2(x))} is ‖x‖, the distance of x to the "
                                                   "origin, not to the hyperplane."),
        ]
        wrong = _distinct(candidates, _as_root(key))
        if len(wrong) < 3:
            continue
        prompt = (f"w = {_vec(w)}; the point x = {_vec(x)} has label y = {_signed(label)}. What is the signed "
                  "distance y⟨w,x⟩/‖w‖ of x to the hyperplane ⟨w,x⟩ = 0?")
        why = (f"y⟨w,x⟩/‖w‖ = {number_text(score)}/{number_text(norm)} = {number_text(key)}"
               + (" (negative: x is on the wrong side)." if key < 0 else "."))
        return _choice(qid, "distance", prompt, (number_text(key), why),
                       [(_root_text(*value), slip, text) for value, slip, text in wrong], why, rng,
                       {"w": w, "x": x, "y": label, "key": key})
    raise RuntimeError("no distance question found")  # pragma: no cover


def mistake_question(rng: random.Random, qid: str) -> Question:
    """Is this step a mistake? Half of the draws are ties y⟨w,x⟩ = 0 (which count)."""
    tie = rng.random() < 0.5
    for _ in range(MAX_DRAWS):
        w = (rng.choice(_INTS), rng.choice(_INTS))
        x = (rng.choice(_INTS), rng.choice(_INTS))
        label = rng.choice((-1, 1))
        if w == (0, 0) or x == (0, 0):
            continue
        score = _scores(w, [x], [label])[0]
        if (score == 0) != tie:
            continue
        mistake = score <= 0
        rule = f"y⟨w,x⟩ = {number_text(score)}"
        update = ("a mistake: update w ← w + yx", f"{rule} ≤ 0 is a mistake (a tie counts), so w is updated.")
        keep = ("correct: keep w", f"{rule} > 0: x is on its side, so w stays.")
        tie_keep = ("a tie: keep w", "a tie y⟨w,x⟩ = 0 counts as a mistake (≤, not <); otherwise the "
                                     "perceptron could never leave w = 0.")
        if mistake:
            wrong = [(keep[0], "tie-as-correct" if score == 0 else "no-update-on-mistake",
                      f"{rule} is not > 0, so keeping w is wrong.")]
            if score == 0:
                wrong.append((tie_keep[0], "tie-as-correct", tie_keep[1]))
            key = update
        else:
            wrong = [(update[0], "update-not-due", f"{rule} > 0: updating here is not due.")]
            key = keep
        prompt = (f"w = {_vec(w)}, x = {_vec(x)}, y = {_signed(label)}. Is this step a mistake for the "
                  "perceptron, and what does it do?")
        return _choice(qid, "mistake rule", prompt, key, wrong, key[1], rng,
                       {"w": w, "x": x, "y": label, "mistake": mistake})
    raise RuntimeError("no mistake question found")  # pragma: no cover


_RADII = (Fraction(1), Fraction(2), Fraction(3), Fraction(4), Fraction(5))
_MARGINS = (Fraction(1, 2), Fraction(1, 4), Fraction(1, 5), Fraction(2, 5), Fraction(1, 10), Fraction(1))


def bound_question(rng: random.Random, qid: str) -> Question:
    """Theorem 1's bound R²/ρ² from R and ρ; the wrong options drop the squares or turn the ratio."""
    for _ in range(MAX_DRAWS):
        R, rho = rng.choice(_RADII), rng.choice(_MARGINS)
        if rho >= R:
            continue
        key = R * R / (rho * rho)
        candidates = [(R / rho, "forgot-squares", f"{number_text(R / rho)} is R/ρ: the bound squares both."),
                      (rho * rho / (R * R), "inverted-ratio", f"{number_text(rho * rho / (R * R))} is ρ²/R²: a "
                                                              "larger margin must give a smaller bound."),
                      (R * R / rho, "forgot-squares", f"{number_text(R * R / rho)} is R²/ρ: ρ is squared too.")]
        wrong = _distinct(candidates, key)
        if len(wrong) < 3:
            continue
        prompt = (f"All points satisfy ‖x‖ ≤ R = {number_text(R)}, and some w* separates them with margin "
                  f"ρ = {number_text(rho)}. At most how many mistakes does the perceptron make (Theorem 1)?")
        why = f"R²/ρ² = {number_text(R * R)}/{number_text(rho * rho)} = {number_text(key)}, for any order and dimension."
        return _choice(qid, "theorem 1", prompt, (number_text(key), why),
                       [(number_text(value), slip, text) for value, slip, text in wrong], why, rng,
                       {"R": R, "rho": rho, "key": key})
    raise RuntimeError("no bound question found")  # pragma: no cover


def error_bound_question(rng: random.Random, qid: str) -> Question:
    """Theorem 2's bound R*²/ρ*²/(n+1); wrong options divide by n, forget n, or take the 1/√n rate."""
    for _ in range(MAX_DRAWS):
        R, rho = rng.choice(_RADII), rng.choice(_MARGINS)
        n = rng.choice((99, 399, 899, 2499, 9999))  # n + 1 a square: the slow-rate option is exact
        ratio = R * R / (rho * rho)
        if rho >= R or ratio > (n + 1) // 4:
            continue
        key = ratio / (n + 1)
        candidates = [(ratio / n, "divide-by-n", f"{number_text(ratio / n)} divides by n; the bound has n + 1."),
                      (ratio, "mistake-bound-as-error", f"{number_text(ratio)} is the mistake bound R²/ρ², not "
                                                        "a test error (it is not even a probability here)."),
                      (ratio / math.isqrt(n + 1), "slow-rate",
                       f"{number_text(ratio / math.isqrt(n + 1))} divides by √(n+1): that is the non-separable "
                       "rate; with a margin the rate is 1/n.")]
        wrong = _distinct(candidates, key)
        if len(wrong) < 3:
            continue
        prompt = (f"The data lies in a ball of radius R* = {number_text(R)} and is separable with margin "
                  f"ρ* = {number_text(rho)}. The perceptron is trained on n = {n} points until it makes no "
                  "training error. What bound does Theorem 2 give on its expected test error?")
        why = (f"R*²/ρ*²/(n+1) = {number_text(ratio)}/{n + 1} = {number_text(key)}, a fast rate 1/n, "
               "independent of the dimension.")
        return _choice(qid, "theorem 2", prompt, (number_text(key), why),
                       [(number_text(value), slip, text) for value, slip, text in wrong], why, rng,
                       {"R": R, "rho": rho, "n": n, "key": key})
    raise RuntimeError("no test-error question found")  # pragma: no cover


def _small_separable(rng: random.Random, n: int, low: int = -2, high: int = 2):
    """n distinct nonzero integer points with both labels, linearly separable through the origin
    (the exact engine converges within 10 sweeps); ``None`` when this draw is not."""
    X = [(rng.randint(low, high), rng.randint(low, high)) for _ in range(n)]
    y = [rng.choice((-1, 1)) for _ in range(n)]
    if len(set(X)) < n or (0, 0) in X or len(set(y)) < 2:
        return None
    run = perceptron(X, y, exact=True, max_sweeps=10, warn=False)
    return (X, y, run) if run.converged and run.mistakes >= 2 else None


def _points(X, y) -> str:
    return ", ".join(f"x{i + 1} = {_vec(x)} (y = {_signed(s)})" for i, (x, s) in enumerate(zip(X, y, strict=True)))


def _mistakes_and_w(pair: tuple[int, tuple]) -> str:
    return f"{format_count(pair[0], 'mistake')}, final w = {_vec(pair[1])}"


def eta_question(rng: random.Random, qid: str) -> Question:
    """η-invariance on a small run: the same mistakes, every w scaled by η."""
    for _ in range(MAX_DRAWS):
        drawn = _small_separable(rng, 3)
        if drawn is None:
            continue
        X, y, run1 = drawn
        eta = Fraction(rng.choice((2, 3, 5, 10)))
        run = perceptron(X, y, eta=eta, exact=True, max_sweeps=10, warn=False)
        m, w = run.mistakes, tuple(run.w)
        fewer = max(1, round(Fraction(run1.mistakes) / eta))
        candidates = [((m, tuple(run1.w)), "eta-ignored", f"{run1.mistakes} mistakes is right, but every w is η "
                                                          f"times the w of η = 1, so the final w is {_vec(w)}."),
                      ((fewer, w), "eta-divides-mistakes", "η scales every w, and so every y⟨w,x⟩, by the "
                                                           "same positive factor: no sign changes, no mistake "
                                                           "saved."),
                      ((m * int(eta), w), "eta-multiplies-mistakes", "the signs of y⟨w,x⟩ do not change under "
                                                                     "a positive scaling, so no mistake is added.")]
        wrong = _distinct(candidates, (m, w))
        if len(wrong) < 3:
            continue
        prompt = (f"Started at w = 0 with η = 1 and cyclic order on {_points(X, y)}, the perceptron makes "
                  f"{run1.mistakes} mistakes and ends at w = {_vec(run1.w)}. What happens with η = "
                  f"{number_text(eta)}?")
        why = (f"Every w_t is η·w_t of the run with η = 1, so all signs y⟨w,x⟩ agree: {m} mistakes, final "
               f"w = {number_text(eta)}·{_vec(run1.w)} = {_vec(w)}.")
        return _choice(qid, "learning rate", prompt, (_mistakes_and_w((m, w)), why),
                       [(_mistakes_and_w(value), slip, why_wrong) for value, slip, why_wrong in wrong], why, rng,
                       {"X": X, "y": y, "eta": eta, "mistakes": m, "w": w})
    raise RuntimeError("no learning-rate question found")  # pragma: no cover


def mistakes_question(rng: random.Random, qid: str) -> Question:
    """How many mistakes the cyclic run makes on three points (numeric)."""
    for _ in range(MAX_DRAWS):
        drawn = _small_separable(rng, 3)
        if drawn is None:
            continue
        X, y, run = drawn
        if run.mistakes > 6:
            continue
        prompt = (f"The perceptron starts at w = (0, 0), no offset, η = 1, and visits {_points(X, y)} in this "
                  "order, sweep after sweep, until a sweep makes no update (a tie y⟨w,x⟩ = 0 counts as a "
                  "mistake). How many mistakes (updates) does it make?")
        why = (f"{run.mistakes} updates in {run.sweeps} sweeps (the last one clean); the final w is "
               f"{_vec(run.w)}.")
        value = Fraction(run.mistakes)
        return Question(qid, "update", "numeric", prompt, str(run.mistakes), why, value=value,
                        tolerance=Fraction(0), data={"X": X, "y": y, "key": run.mistakes})
    raise RuntimeError("no mistakes question found")  # pragma: no cover


def margin_question(rng: random.Random, qid: str) -> Question:
    """The margin min_i y_i⟨w,x_i⟩/‖w‖ of a separating w on three points (numeric)."""
    for _ in range(MAX_DRAWS):
        w = rng.choice(_PYTHAGOREAN)
        if abs(w[0]) + abs(w[1]) > 10:
            continue
        X = [(rng.randint(-3, 3), rng.randint(-3, 3)) for _ in range(3)]
        if len(set(X)) < 3:
            continue
        raw = [_scores(w, [x], [1])[0] for x in X]
        if 0 in raw:
            continue
        y = [1 if s > 0 else -1 for s in raw]
        if len(set(y)) < 2:
            continue
        scores = _scores(w, X, y)
        norm = _root(_norm2(w))
        key = min(scores) / norm
        prompt = (f"w = {_vec(w)} separates {_points(X, y)}. What is its margin ρ = min_i y_i⟨w,x_i⟩/‖w‖?")
        why = (f"y_i⟨w,x_i⟩ = {', '.join(number_text(s) for s in scores)}, ‖w‖ = {number_text(norm)}: "
               f"ρ = {number_text(min(scores))}/{number_text(norm)} = {number_text(key)}.")
        return Question(qid, "margin", "numeric", prompt, number_text(key), why, value=key,
                        tolerance=_tolerance(key), data={"w": w, "X": X, "y": y, "key": key})
    raise RuntimeError("no margin question found")  # pragma: no cover


def margin_perceptron_question(rng: random.Random, qid: str) -> Question:
    """The margin perceptron (update while y⟨w,x⟩ ≤ ρ₀): its bound (R² + 2ρ₀)/ρ² (numeric)."""
    R, rho = rng.choice(_RADII), rng.choice(_MARGINS[:-1])
    rho0 = rng.choice((Fraction(1, 2), Fraction(1), Fraction(2)))
    key = (R * R + 2 * rho0) / (rho * rho)
    prompt = (f"The margin perceptron updates w ← w + yx whenever y⟨w,x⟩ ≤ ρ₀ = {number_text(rho0)}. The data "
              f"has radius R = {number_text(R)} and is separable with margin ρ = {number_text(rho)}. At most how "
              "many updates does it make?")
    why = (f"(R² + 2ρ₀)/ρ² = ({number_text(R * R)} + {number_text(2 * rho0)})/{number_text(rho * rho)} = "
           f"{number_text(key)}; with ρ₀ = 0 it is Theorem 1's R²/ρ².")
    return Question(qid, "margin perceptron", "numeric", prompt, number_text(key), why, value=key,
                    tolerance=_tolerance(key), data={"R": R, "rho": rho, "rho0": rho0, "key": key})


def pocket_question(rng: random.Random, qid: str) -> Question:
    """Which w the pocket keeps: the fewest training errors among the visited w (Lin's pocket)."""
    for _ in range(MAX_DRAWS):
        X = [(rng.randint(-2, 2), rng.randint(-2, 2)) for _ in range(5)]
        y = [rng.choice((-1, 1)) for _ in range(5)]
        if len(set(X)) < 5 or (0, 0) in X or len(set(y)) < 2:
            continue
        ws = [(rng.choice(_INTS), rng.choice(_INTS)) for _ in range(3)]
        if len(set(ws)) < 3 or (0, 0) in ws:
            continue
        errors = [sum(1 for s in _scores(w, X, y) if s <= 0) for w in ws]
        if len(set(errors)) < 3 or min(errors) == 0 or errors.index(min(errors)) == 2:
            continue  # three error counts, non-separable by all, the best not the last
        best = errors.index(min(errors))
        names = ["w₁", "w₂", "w₃"]
        listing = "; ".join(f"{names[k]} = {_vec(w)}" for k, w in enumerate(ws))
        counts = ", ".join(f"{names[k]}: {e}" for k, e in enumerate(errors))
        prompt = (f"On the points {_points(X, y)} (no offset; y⟨w,x⟩ ≤ 0 is an error), the perceptron visits, "
                  f"in this order, {listing}. Which w is in the pocket at the end?")
        why = (f"Training errors {counts}; the pocket keeps the w with the fewest, {names[best]}.")
        slips = {2: ("last-iterate", "is the last w the perceptron visited; the pocket keeps the best, not the "
                                     "last."),
                 0: ("first-iterate", "is the first w; a later w has fewer errors.")}
        wrong = []
        for k in range(3):
            if k == best:
                continue
            slip, text = slips.get(k, ("most-errors", "has more training errors."))
            if k == errors.index(max(errors)) and slip != "last-iterate":
                slip = "most-errors"
            wrong.append((f"{names[k]} = {_vec(ws[k])}", slip, f"{names[k]} {text} Its errors: {errors[k]}."))
        return _choice(qid, "pocket", prompt, (f"{names[best]} = {_vec(ws[best])}", why), wrong, why, rng,
                       {"X": X, "y": y, "ws": ws, "errors": errors, "key": ws[best]})
    raise RuntimeError("no pocket question found")  # pragma: no cover


#: the generated questions: name -> generator (fresh numbers from a seeded ``random.Random``)
GENERATORS: dict[str, Callable[[random.Random, str], Question]] = {
    "update": update_question, "distance": distance_question, "mistake": mistake_question,
    "bound": bound_question, "test-error": error_bound_question, "eta": eta_question,
    "mistakes": mistakes_question, "margin": margin_question, "margin-perceptron": margin_perceptron_question,
    "pocket": pocket_question,
}


# ---------------------------------------------------------------- fixed questions

def _card(qid: str, topic: str, prompt: str, answer: str) -> Question:
    return Question(qid, topic, "card", prompt, answer, answer)


#: the question cards: the facts of the lecture's self-test, in the project's words
CARDS: tuple[Question, ...] = (
    _card("card-algorithm", "update", "State the perceptron algorithm: when is a point a mistake, and what is "
          "the update?", "Start at w = 0. Visit the points in turn; if y⟨w,x⟩ ≤ 0, set w ← w + yx, otherwise "
          "keep w. Repeat whole sweeps until one sweep makes no update."),
    _card("card-sgd", "sgd", "In what sense is the perceptron stochastic gradient descent, and on which loss?",
          "On the linear loss max{0, −y⟨w,x⟩}: its gradient is −yx on a misclassified point and 0 on a correct "
          "one, so an SGD step with step size 1 is w + yx exactly on mistakes."),
    _card("card-distance", "distance", "Derive the distance of a point x to the hyperplane ⟨w,x⟩ = 0.",
          "Write x = h + r·w/‖w‖ with h on the hyperplane. Taking ⟨·,w⟩ and ⟨h,w⟩ = 0 gives ⟨x,w⟩ = r‖w‖, so "
          "r = ⟨w,x⟩/‖w‖; with the label, y⟨w,x⟩/‖w‖ is positive on the correct side."),
    _card("card-margin", "margin", "What is the margin of a separating hyperplane?",
          "The smallest signed distance of a training point to it: ρ = min_i y_i⟨w,x_i⟩/‖w‖. Rescaling w does "
          "not change it."),
    _card("card-theorem-1", "theorem 1", "State the mistake bound (Theorem 1) with all its assumptions.",
          "If every ‖x_i‖ ≤ R and some w* separates the points with margin ρ > 0, the perceptron makes at most "
          "R²/ρ² mistakes, in any order, and then classifies every training point correctly (Novikoff 1962)."),
    _card("card-proof", "proof", "What are the three steps of the proof of the mistake bound?",
          "(1) Each mistake adds at most R² to ‖w‖² (the cross term 2y⟨w,x⟩ is ≤ 0), so ‖w‖² ≤ M·R². "
          "(2) Each mistake adds at least ρ to ⟨w*,w⟩/‖w*‖, so M·ρ ≤ ‖w‖ by Cauchy–Schwarz. "
          "(3) Together M²ρ² ≤ M·R², so M ≤ R²/ρ²."),
    _card("card-independent", "theorem 1", "What does the mistake bound not depend on, and why does that matter?",
          "Not on the dimension d, not on the number of points n, not on the order or the learning rate: only "
          "the geometry (R and ρ) counts, so high-dimensional data is no obstacle when the margin is large."),
    _card("card-theorem-2", "theorem 2", "State the test-error bound (Theorem 2) and its rate.",
          "For separable data, the perceptron trained on n points to zero training error has expected test "
          "error at most E[R²/ρ²]/(n + 1) over n + 1 points; with R ≤ R* and ρ ≥ ρ*, at most "
          "R*²/ρ*²/(n + 1): the fast rate 1/n, free of the dimension."),
    _card("card-loo", "leave-one-out", "What is the leave-one-out principle, and what role does it play in "
          "Theorem 2?", "The mean leave-one-out error over n + 1 points is an unbiased estimate of the expected "
          "test error after training on n. A point that never caused an update can be left out without changing "
          "the result, so the leave-one-out errors are at most the mistakes on n + 1 points, at most R²/ρ²."),
    _card("card-non-separable", "non-separable", "What changes when the data is not linearly separable?",
          "The perceptron never converges and Theorem 1 says nothing. With slacks δ_i = max{0, ρ − y_i⟨w,x_i⟩} "
          "and D = (Σδ_i²)^½ the updates are at most (R + D)²/ρ² (Freund–Schapire); the test error then only "
          "scales as 1/√n. The pocket keeps the w with the fewest training errors."),
    _card("card-eta", "learning rate", "Does the learning rate η change the perceptron started at w = 0?",
          "No: by induction every w_t is η times the w_t of η = 1, so every sign y⟨w,x⟩ and every update is the "
          "same, and so is the number of mistakes."),
)


def _fixed(qid: str, topic: str, prompt: str, key: tuple[str, str], wrong: list[tuple[str, str, str]],
           explanation: str) -> Question:
    options = (Option(key[0], True, key[1]),) + tuple(Option(t, False, why, slip) for t, slip, why in wrong)
    return Question(qid, topic, "choice", prompt, key[0], explanation, options)


#: the conceptual multiple-choice questions (options shuffled per quiz)
CHOICES: tuple[Question, ...] = (
    _fixed("choice-loss", "sgd", "The perceptron is SGD with step size 1 on which loss?",
           ("the linear loss max{0, −y⟨w,x⟩}", "its gradient −yx on a mistake gives the update w + yx."),
           [("the hinge loss max{0, 1 − y⟨w,x⟩}", "hinge", "the hinge loss also updates correct points with "
             "y⟨w,x⟩ < 1: that is the margin perceptron."),
            ("the squared loss (y − ⟨w,x⟩)²", "squared", "its gradient is nonzero on correct points too (the "
             "Widrow–Hoff rule)."),
            ("the 0-1 loss", "zero-one", "its gradient is 0 almost everywhere: no step would ever be taken.")],
           "On a mistake the linear loss has gradient −yx; a step of size 1 is w + yx."),
    _fixed("choice-depends", "theorem 1", "The mistake bound R²/ρ² depends on",
           ("only the radius R of the data and the margin ρ", "the bound holds for any dimension, size and order."),
           [("the dimension d and the number of points n", "not-d", "neither d nor n appears in R²/ρ²."),
            ("the learning rate and ρ", "eta-divides-mistakes", "started at 0, the learning rate changes nothing."),
            ("R, ρ and the order of the points", "order", "the actual count may depend on the order; the bound "
             "does not.")],
           "R²/ρ² holds for every order, dimension and learning rate."),
    _fixed("choice-rate", "theorem 2", "With margin ρ* and radius R*, the perceptron's test error decays like",
           ("1/n", "R*²/ρ*²/(n + 1): a fast rate, free of the dimension."),
           [("1/√n", "slow-rate", "that is the rate without separability."),
            ("d/n", "not-d", "the dimension does not appear."),
            ("e^(−n)", "exponential", "no such rate: the bound is R*²/ρ*²/(n + 1).")],
           "Theorem 2: at most R*²/ρ*²/(n + 1)."),
    _fixed("choice-eta", "learning rate", "Started at w = 0 with w ← w + ηyx and η = 5 instead of 1, the perceptron",
           ("makes exactly the same mistakes, with every w five times larger",
            "every w_t is scaled by η, which changes no sign of y⟨w,x⟩."),
           [("makes about five times fewer mistakes", "eta-divides-mistakes", "no sign changes, so no mistake "
             "is saved."),
            ("makes about five times more mistakes", "eta-multiplies-mistakes", "no sign changes, so no mistake "
             "is added."),
            ("may no longer converge", "eta-diverges", "it converges exactly when the η = 1 run does.")],
           "η-invariance: w_t(η) = η·w_t(1)."),
    _fixed("choice-tie", "ties", "Why must y⟨w,x⟩ = 0 count as a mistake?",
           ("otherwise the perceptron would never leave w = 0", "at w = 0 every point has y⟨w,x⟩ = 0; with a "
            "strict test nothing would ever be updated."),
           [("because the linear loss is positive at 0", "loss-at-zero", "the linear loss is 0 at 0."),
            ("because points on the hyperplane have margin ρ", "margin-on-plane", "points on the hyperplane "
             "have distance 0."),
            ("because the mistake bound needs R > 0", "radius", "R has nothing to do with the tie rule.")],
           "Ties count (≤, not <), or the run could not start."),
    _fixed("choice-loo", "leave-one-out", "Which statement about leave-one-out is true?",
           ("the mean leave-one-out error on n + 1 points is an unbiased estimate of the expected test error "
            "after training on n", "this holds for any learner and any i.i.d. data."),
           [("the training error on n points is an unbiased estimate of the test error", "training-error",
             "the training error is optimistic (biased)."),
            ("leave-one-out works only for linear classifiers", "linear-only", "the principle holds for any "
             "learner."),
            ("leave-one-out needs separable data", "separable-only", "it needs only i.i.d. data; separability "
             "is what the perceptron's bound adds.")],
           "Leave-one-out on n + 1 points estimates the test error after n, without bias."),
    _fixed("choice-pocket", "pocket", "On data that is not linearly separable, the pocket algorithm returns",
           ("the w with the fewest training errors among those the perceptron visited",
            "it runs the perceptron and keeps the best w seen so far in its pocket."),
           [("the perceptron's last w", "last-iterate", "the last w can be arbitrarily bad: the run never "
             "settles."),
            ("a w with zero training errors", "separable-only", "none exists on non-separable data."),
            ("the average of all visited w", "averaged", "that is the averaged perceptron, another member of the "
             "family.")],
           "Pocket (Lin): keep the best w seen so far, by training errors."),
    _fixed("choice-online", "online", "In the online protocol, when does the learner see the label y_t?",
           ("after it has predicted sign⟨w,x_t⟩ with its current w", "predict first, then the label is "
            "revealed as feedback and used to update."),
           [("before it predicts, to choose the update", "label-before-prediction", "using y_t before "
             "predicting is the online slip: the prediction must not know the label."),
            ("only at the end of a sweep", "batch", "online means one point at a time: predict, see y_t, "
             "update."),
            ("never: it learns without labels", "unsupervised", "the update w + yx needs the label.")],
           "Online: predict with w, then see y_t, then update on a mistake."),
)


# ---------------------------------------------------------------- the quiz


def quiz(seed: int = 0, count: int = 12, *, cards: bool = True) -> list[Question]:
    """The self-test for ``seed``: ``count`` questions, mixed generated, conceptual and (when
    ``cards``) question cards; the same seed and count give the same questions.

    Parameters
    ----------
    seed : an integer ≥ 0.
    count : how many questions, 1 to :data:`MAX_QUESTIONS`.
    cards : include question cards (they are read, not scored).

    Returns
    -------
    list[Question]
        Every generated question's key computed exactly; every wrong option a named slip.
    """
    if seed is None:
        raise v.fail("seed", "an integer >= 0", "None", "Pass e.g. seed=0; the same seed gives the same quiz.")
    checked = v.check_seed(seed)
    assert checked is not None  # None is refused above
    count = v.check_positive_int("count", count, "Ask for e.g. 12 questions.")
    if count > MAX_QUESTIONS:
        raise v.fail("count", f"at most {MAX_QUESTIONS} questions", str(count), f"Ask for {MAX_QUESTIONS} or fewer.")
    rng = random.Random(f"perceptronlab-quiz-{checked}")
    generated = list(GENERATORS)
    rng.shuffle(generated)
    fixed = list(CHOICES) + (list(CARDS) if cards else [])
    rng.shuffle(fixed)
    questions: list[Question] = []
    # two generated questions for each fixed one, the fixed ones used once before any repeats
    for k in range(count):
        if k % 3 == 2 and fixed:
            questions.append(fixed.pop())
        else:
            name = generated[(k - k // 3) % len(generated)]  # every kind in turn, in a seeded order
            questions.append(GENERATORS[name](rng, f"{name}-{k + 1}"))
    # fixed questions get their options shuffled per seed, and ids unique within the quiz
    return [_shuffled(q, rng) if q.kind == "choice" and not q.data else q for q in questions]


def _shuffled(question: Question, rng: random.Random) -> Question:
    options = list(question.options)
    rng.shuffle(options)
    return Question(question.id, question.topic, question.kind, question.prompt, question.answer,
                    question.explanation, tuple(options), question.value, question.tolerance, question.data)


def quiz_document(seed: int, count: int) -> dict:
    """The self-test as JSON-ready data for the lab page: ``{"seed": ..., "questions": [...]}``.

    Each question: ``id``, ``topic``, ``kind`` ("choice", "numeric" or "card"), ``prompt`` (plain
    text), ``options`` (``text``, ``correct``, ``why``; choice questions only), ``answer`` (the key
    as text), ``value`` and ``tolerance`` (numeric questions only, else ``None``) and
    ``explanation``. Deterministic for a seed.

    >>> doc = quiz_document(1, 3)
    >>> doc["seed"], len(doc["questions"]), sorted(doc["questions"][0])[:3]
    (1, 3, ['answer', 'explanation', 'id'])
    """
    questions = quiz(seed, count)
    return {"seed": int(seed), "questions": [q.as_dict() for q in questions]}
