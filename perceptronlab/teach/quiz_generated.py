"""The generated questions of the self-test: fresh numbers from a seeded ``random.Random``, the key
computed exactly (the engine's exact run and scores), and every wrong option a named slip replayed
on the question's own numbers."""

from __future__ import annotations

import math
import random
from collections.abc import Callable
from fractions import Fraction

from perceptronlab._ground.numbers import format_count, format_sqrt
from perceptronlab.core.exact import exact_update
from perceptronlab.core.perceptron import perceptron
from perceptronlab.core.scores import margins as engine_margins
from perceptronlab.teach.questions import (
    Question,
    choice,
    distinct,
    number_text,
    signed,
    tolerance,
    vec,
)

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


# ---------------------------------------------------------------- generated questions
# Each generator draws until its question has three distinct wrong options (or meets its own rule);
# after MAX_DRAWS draws it raises (the tests run every generator on hundreds of seeds).

MAX_DRAWS = 10_000
_INTS = range(-3, 4)
#: normal vectors with an integer length, so that distances are rational
_PYTHAGOREAN = [
    (a, b)
    for a in range(-8, 9)
    for b in range(-8, 9)
    if (a, b) != (0, 0) and math.isqrt(a * a + b * b) ** 2 == a * a + b * b
]


def _step(w, x, label: int, eta: Fraction) -> tuple[Fraction, ...]:
    """The core's update w + η·label·x, exactly (the slips replay it with a wrong label or rate)."""
    rows = [Fraction(c) for c in x]
    return tuple(exact_update([Fraction(c) for c in w], Fraction(0), rows, label, eta, False)[0])


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
        exact_w = [Fraction(c) for c in w]
        key = _step(w, x, label, eta)
        kept_name = "tie-as-correct" if score == 0 else "no-update-on-mistake"
        candidates = [
            (
                _step(w, x, 1, eta),
                "x-instead-of-yx",
                "adds ηx: with y = −1 the update must subtract x.",
            ),
            (
                _step(w, x, label, Fraction(1)),
                "forgot-eta",
                f"forgets the learning rate η = {number_text(eta)}.",
            ),
            (
                tuple(exact_w),
                kept_name,
                "keeps w, but y⟨w,x⟩ = 0 is a tie, and a tie counts as a mistake."
                if score == 0
                else f"keeps w, but y⟨w,x⟩ = {number_text(score)} < 0 is a mistake.",
            ),
            (
                _step(w, x, -label, eta),
                "update-subtracted",
                "subtracts ηyx; the update adds it, to turn w towards yx.",
            ),
        ]
        wrong = distinct(candidates, key)
        if len(wrong) < 3:
            continue
        wrong = wrong[:3]
        prompt = (
            f"The perceptron has w = {vec(w)} and meets x = {vec(x)} with label y = {signed(label)}; "
            f"the learning rate is η = {number_text(eta)}. What is w after this step?"
        )
        why = (
            f"y⟨w,x⟩ = {number_text(score)} ≤ 0 is a mistake, so w ← w + ηyx = {vec(w)} + "
            f"({number_text(eta * label)})·{vec(x)} = {vec(key)}."
        )
        return choice(
            qid,
            "update",
            prompt,
            (vec(key), why),
            [(vec(value), slip, f"{vec(value)} {text}") for value, slip, text in wrong],
            why,
            rng,
            {"w": w, "x": x, "y": label, "eta": eta, "key": key},
        )
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
            (
                _as_root(score),
                "forgot-norm",
                f"{number_text(score)} is y⟨w,x⟩ itself: it forgets to divide by "
                f"‖w‖ = {number_text(norm)}.",
            ),
            (
                _as_root(score * label / norm),
                "forgot-label",
                f"{number_text(score * label / norm)} forgets the label: ⟨w,x⟩/‖w‖ without y.",
            ),
            (
                (1, _norm2(x)),
                "distance-to-origin",
                f"{_root_text(1, _norm2(x))} is ‖x‖, the distance of x to the "
                "origin, not to the hyperplane.",
            ),
        ]
        wrong = distinct(candidates, _as_root(key))
        if len(wrong) < 3:
            continue
        prompt = (
            f"w = {vec(w)}; the point x = {vec(x)} has label y = {signed(label)}. What is the signed "
            "distance y⟨w,x⟩/‖w‖ of x to the hyperplane ⟨w,x⟩ = 0?"
        )
        why = f"y⟨w,x⟩/‖w‖ = {number_text(score)}/{number_text(norm)} = {number_text(key)}" + (
            " (negative: x is on the wrong side)." if key < 0 else "."
        )
        return choice(
            qid,
            "distance",
            prompt,
            (number_text(key), why),
            [(_root_text(*value), slip, text) for value, slip, text in wrong],
            why,
            rng,
            {"w": w, "x": x, "y": label, "key": key},
        )
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
        update = (
            "a mistake: update w ← w + yx",
            f"{rule} ≤ 0 is a mistake (a tie counts), so w is updated.",
        )
        keep = ("correct: keep w", f"{rule} > 0: x is on its side, so w stays.")
        tie_keep = (
            "a tie: keep w",
            "a tie y⟨w,x⟩ = 0 counts as a mistake (≤, not <); otherwise the "
            "perceptron could never leave w = 0.",
        )
        if mistake:
            wrong = [
                (
                    keep[0],
                    "tie-as-correct" if score == 0 else "no-update-on-mistake",
                    f"{rule} is not > 0, so keeping w is wrong.",
                )
            ]
            if score == 0:
                wrong.append((tie_keep[0], "tie-as-correct", tie_keep[1]))
            key = update
        else:
            wrong = [(update[0], "update-not-due", f"{rule} > 0: updating here is not due.")]
            key = keep
        prompt = (
            f"w = {vec(w)}, x = {vec(x)}, y = {signed(label)}. Is this step a mistake for the "
            "perceptron, and what does it do?"
        )
        return choice(
            qid,
            "mistake rule",
            prompt,
            key,
            wrong,
            key[1],
            rng,
            {"w": w, "x": x, "y": label, "mistake": mistake},
        )
    raise RuntimeError("no mistake question found")  # pragma: no cover


_RADII = (Fraction(1), Fraction(2), Fraction(3), Fraction(4), Fraction(5))
_MARGINS = (
    Fraction(1, 2),
    Fraction(1, 4),
    Fraction(1, 5),
    Fraction(2, 5),
    Fraction(1, 10),
    Fraction(1),
)


def bound_question(rng: random.Random, qid: str) -> Question:
    """Theorem 1's bound R²/ρ² from R and ρ; the wrong options drop the squares or turn the ratio."""
    for _ in range(MAX_DRAWS):
        R, rho = rng.choice(_RADII), rng.choice(_MARGINS)
        if rho >= R:
            continue
        key = R * R / (rho * rho)
        candidates = [
            (R / rho, "forgot-squares", f"{number_text(R / rho)} is R/ρ: the bound squares both."),
            (
                rho * rho / (R * R),
                "inverted-ratio",
                f"{number_text(rho * rho / (R * R))} is ρ²/R²: a "
                "larger margin must give a smaller bound.",
            ),
            (
                R * R / rho,
                "forgot-squares",
                f"{number_text(R * R / rho)} is R²/ρ: ρ is squared too.",
            ),
        ]
        wrong = distinct(candidates, key)
        if len(wrong) < 3:
            continue
        prompt = (
            f"All points satisfy ‖x‖ ≤ R = {number_text(R)}, and some w* separates them with margin "
            f"ρ = {number_text(rho)}. At most how many mistakes does the perceptron make (Theorem 1)?"
        )
        why = (
            f"R²/ρ² = {number_text(R * R)}/{number_text(rho * rho)} = {number_text(key)}, "
            "for any order and dimension."
        )
        return choice(
            qid,
            "theorem 1",
            prompt,
            (number_text(key), why),
            [(number_text(value), slip, text) for value, slip, text in wrong],
            why,
            rng,
            {"R": R, "rho": rho, "key": key},
        )
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
        candidates = [
            (
                ratio / n,
                "divide-by-n",
                f"{number_text(ratio / n)} divides by n; the bound has n + 1.",
            ),
            (
                ratio,
                "mistake-bound-as-error",
                f"{number_text(ratio)} is the mistake bound R²/ρ², not "
                "a test error (it is not even a probability here).",
            ),
            (
                ratio / math.isqrt(n + 1),
                "slow-rate",
                f"{number_text(ratio / math.isqrt(n + 1))} divides by √(n+1): that is the non-separable "
                "rate; with a margin the rate is 1/n.",
            ),
        ]
        wrong = distinct(candidates, key)
        if len(wrong) < 3:
            continue
        prompt = (
            f"The data lies in a ball of radius R* = {number_text(R)} and is separable with margin "
            f"ρ* = {number_text(rho)}. The perceptron is trained on n = {n} points until it makes no "
            "training error. What bound does Theorem 2 give on its expected test error?"
        )
        why = (
            f"R*²/ρ*²/(n+1) = {number_text(ratio)}/{n + 1} = {number_text(key)}, a fast rate 1/n, "
            "independent of the dimension."
        )
        return choice(
            qid,
            "theorem 2",
            prompt,
            (number_text(key), why),
            [(number_text(value), slip, text) for value, slip, text in wrong],
            why,
            rng,
            {"R": R, "rho": rho, "n": n, "key": key},
        )
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
    return ", ".join(
        f"x{i + 1} = {vec(x)} (y = {signed(s)})" for i, (x, s) in enumerate(zip(X, y, strict=True))
    )


def _mistakes_and_w(pair: tuple[int, tuple]) -> str:
    return f"{format_count(pair[0], 'mistake')}, final w = {vec(pair[1])}"


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
        candidates = [
            (
                (m, tuple(run1.w)),
                "eta-ignored",
                f"{run1.mistakes} mistakes is right, but every w is η "
                f"times the w of η = 1, so the final w is {vec(w)}.",
            ),
            (
                (fewer, w),
                "eta-divides-mistakes",
                "η scales every w, and so every y⟨w,x⟩, by the "
                "same positive factor: no sign changes, no mistake "
                "saved.",
            ),
            (
                (m * int(eta), w),
                "eta-multiplies-mistakes",
                "the signs of y⟨w,x⟩ do not change under "
                "a positive scaling, so no mistake is added.",
            ),
        ]
        wrong = distinct(candidates, (m, w))
        if len(wrong) < 3:
            continue
        prompt = (
            f"Started at w = 0 with η = 1 and cyclic order on {_points(X, y)}, the perceptron makes "
            f"{run1.mistakes} mistakes and ends at w = {vec(run1.w)}. What happens with η = "
            f"{number_text(eta)}?"
        )
        why = (
            f"Every w_t is η·w_t of the run with η = 1, so all signs y⟨w,x⟩ agree: {m} mistakes, final "
            f"w = {number_text(eta)}·{vec(run1.w)} = {vec(w)}."
        )
        return choice(
            qid,
            "learning rate",
            prompt,
            (_mistakes_and_w((m, w)), why),
            [(_mistakes_and_w(value), slip, why_wrong) for value, slip, why_wrong in wrong],
            why,
            rng,
            {"X": X, "y": y, "eta": eta, "mistakes": m, "w": w},
        )
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
        prompt = (
            f"The perceptron starts at w = (0, 0), no offset, η = 1, and visits {_points(X, y)} in this "
            "order, sweep after sweep, until a sweep makes no update (a tie y⟨w,x⟩ = 0 counts as a "
            "mistake). How many mistakes (updates) does it make?"
        )
        why = (
            f"{run.mistakes} updates in {run.sweeps} sweeps (the last one clean); the final w is "
            f"{vec(run.w)}."
        )
        value = Fraction(run.mistakes)
        return Question(
            qid,
            "update",
            "numeric",
            prompt,
            str(run.mistakes),
            why,
            value=value,
            tolerance=Fraction(0),
            data={"X": X, "y": y, "key": run.mistakes},
        )
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
        prompt = (
            f"w = {vec(w)} separates {_points(X, y)}. What is its margin ρ = min_i y_i⟨w,x_i⟩/‖w‖?"
        )
        why = (
            f"y_i⟨w,x_i⟩ = {', '.join(number_text(s) for s in scores)}, ‖w‖ = {number_text(norm)}: "
            f"ρ = {number_text(min(scores))}/{number_text(norm)} = {number_text(key)}."
        )
        return Question(
            qid,
            "margin",
            "numeric",
            prompt,
            number_text(key),
            why,
            value=key,
            tolerance=tolerance(key),
            data={"w": w, "X": X, "y": y, "key": key},
        )
    raise RuntimeError("no margin question found")  # pragma: no cover


def margin_perceptron_question(rng: random.Random, qid: str) -> Question:
    """The margin perceptron (update while y⟨w,x⟩ ≤ ρ₀): its bound (R² + 2ρ₀)/ρ² (numeric)."""
    R, rho = rng.choice(_RADII), rng.choice(_MARGINS[:-1])
    rho0 = rng.choice((Fraction(1, 2), Fraction(1), Fraction(2)))
    key = (R * R + 2 * rho0) / (rho * rho)
    prompt = (
        f"The margin perceptron updates w ← w + yx whenever y⟨w,x⟩ ≤ ρ₀ = {number_text(rho0)}. The data "
        f"has radius R = {number_text(R)} and is separable with margin ρ = {number_text(rho)}. At most how "
        "many updates does it make?"
    )
    why = (
        f"(R² + 2ρ₀)/ρ² = ({number_text(R * R)} + {number_text(2 * rho0)})/{number_text(rho * rho)} = "
        f"{number_text(key)}; with ρ₀ = 0 it is Theorem 1's R²/ρ²."
    )
    return Question(
        qid,
        "margin perceptron",
        "numeric",
        prompt,
        number_text(key),
        why,
        value=key,
        tolerance=tolerance(key),
        data={"R": R, "rho": rho, "rho0": rho0, "key": key},
    )


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
        listing = "; ".join(f"{names[k]} = {vec(w)}" for k, w in enumerate(ws))
        counts = ", ".join(f"{names[k]}: {e}" for k, e in enumerate(errors))
        prompt = (
            f"On the points {_points(X, y)} (no offset; y⟨w,x⟩ ≤ 0 is an error), the perceptron visits, "
            f"in this order, {listing}. Which w is in the pocket at the end?"
        )
        why = f"Training errors {counts}; the pocket keeps the w with the fewest, {names[best]}."
        slips = {
            2: (
                "last-iterate",
                "is the last w the perceptron visited; the pocket keeps the best, not the last.",
            ),
            0: ("first-iterate", "is the first w; a later w has fewer errors."),
        }
        wrong = []
        for k in range(3):
            if k == best:
                continue
            slip, text = slips.get(k, ("most-errors", "has more training errors."))
            if k == errors.index(max(errors)) and slip != "last-iterate":
                slip = "most-errors"
            wrong.append(
                (f"{names[k]} = {vec(ws[k])}", slip, f"{names[k]} {text} Its errors: {errors[k]}.")
            )
        return choice(
            qid,
            "pocket",
            prompt,
            (f"{names[best]} = {vec(ws[best])}", why),
            wrong,
            why,
            rng,
            {"X": X, "y": y, "ws": ws, "errors": errors, "key": ws[best]},
        )
    raise RuntimeError("no pocket question found")  # pragma: no cover


def after_update_question(rng: random.Random, qid: str) -> Question:
    """The point's own score after the update: y⟨w + ηyx, x⟩ = y⟨w,x⟩ + η‖x‖² (numeric); the
    score a student writes who reads the label before predicting."""
    for _ in range(MAX_DRAWS):
        w = (rng.choice(_INTS), rng.choice(_INTS))
        x = (rng.choice(_INTS), rng.choice(_INTS))
        label = rng.choice((-1, 1))
        eta = rng.choice((Fraction(1), Fraction(2), Fraction(1, 2)))
        score = _scores(w, [x], [label])[0]
        if x == (0, 0) or score > 0:
            continue
        key = _scores(_step(w, x, label, eta), [x], [label])[0]
        prompt = (
            f"w = {vec(w)}, x = {vec(x)}, y = {signed(label)}, η = {number_text(eta)}: a mistake, so "
            "w ← w + ηyx. What is y⟨w,x⟩ for this same point after the update?"
        )
        why = (
            f"y⟨w + ηyx, x⟩ = y⟨w,x⟩ + η‖x‖² = {number_text(score)} + {number_text(eta)}·{number_text(_norm2(x))} "
            f"= {number_text(key)}: the score grows, though it may stay ≤ 0. Written in a worksheet before the "
            "prediction, it is the slip of using the label first."
        )
        return Question(
            qid,
            "update",
            "numeric",
            prompt,
            number_text(key),
            why,
            value=key,
            tolerance=tolerance(key),
            data={"w": w, "x": x, "y": label, "eta": eta, "key": key},
        )
    raise RuntimeError("no after-update question found")  # pragma: no cover


#: the generated questions: name -> generator (fresh numbers from a seeded ``random.Random``)
GENERATORS: dict[str, Callable[[random.Random, str], Question]] = {
    "update": update_question,
    "distance": distance_question,
    "mistake": mistake_question,
    "bound": bound_question,
    "test-error": error_bound_question,
    "eta": eta_question,
    "mistakes": mistakes_question,
    "margin": margin_question,
    "margin-perceptron": margin_perceptron_question,
    "pocket": pocket_question,
    "after-update": after_update_question,
}
