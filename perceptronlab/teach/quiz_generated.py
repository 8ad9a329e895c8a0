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
from perceptronlab.teach.quantities import draw_points, quick_run
from perceptronlab.teach.questions import (
    Question,
    choice,
    distinct,
    number_text,
    numeric,
    same_format,
    signed,
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


def _wrong_options(candidates: list, key: object, most: int = 3) -> list | None:
    """The first ``most`` distinct wrong options (value, slip, words), or None when there are fewer
    than three (the generator draws again)."""
    wrong = distinct(candidates, key)
    return wrong[:most] if len(wrong) >= 3 else None


def _step(w, x, label: int, eta: Fraction) -> tuple[Fraction, ...]:
    """The core's update w + η·label·x, exactly (the slips replay it with a wrong label or rate)."""
    rows = [Fraction(c) for c in x]
    return tuple(exact_update([Fraction(c) for c in w], Fraction(0), rows, label, eta, False)[0])


def _value_choice(
    qid: str,
    topic: str,
    prompt: str,
    key: tuple,
    wrong: list,
    rng: random.Random,
    data: dict,
    text: Callable = str,
) -> Question:
    """A choice question on a value: the key (value, why) and the wrong (value, slip, words), each
    option written by ``text``."""
    value, why = key
    texts = [text(v) for v, _, _ in wrong]
    return _written_choice(qid, topic, prompt, (text(value), why), texts, wrong, rng, data)


def _written_choice(
    qid: str,
    topic: str,
    prompt: str,
    key: tuple[str, str],
    texts: list[str],
    wrong: list,
    rng: random.Random,
    data: dict,
) -> Question:
    """A choice question with its options written: the key (text, why), and each wrong option's
    text (``texts``, in the order of ``wrong``) followed by the words that say what it is."""
    options = [
        (shown, slip, f"{shown} {words}")
        for shown, (_, slip, words) in zip(texts, wrong, strict=True)
    ]
    return choice(qid, topic, prompt, key, options, key[1], rng, data)


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
        wrong = _wrong_options(candidates, key)
        if wrong is None:
            continue
        prompt = (
            f"The perceptron has w = {vec(w)} and meets x = {vec(x)} with label y = {signed(label)}; "
            f"the learning rate is η = {number_text(eta)}. What is w after this step?"
        )
        why = (
            f"y⟨w,x⟩ = {number_text(score)} ≤ 0 is a mistake, so w ← w + ηyx = {vec(w)} + "
            f"({number_text(eta * label)})·{vec(x)} = {vec(key)}."
        )
        data = {"w": w, "x": x, "y": label, "eta": eta, "key": key}
        return _value_choice(qid, "update", prompt, (key, why), wrong, rng, data, vec)
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
    question, with either label: the wrong options forget ‖w‖, divide by ‖w‖², forget the label
    (y = −1) or drop the sign (a point on the wrong side), or measure to the origin. The rational
    options share one number format (:func:`same_format`)."""
    label = rng.choice((-1, 1))  # both labels, half each
    for _ in range(MAX_DRAWS):
        w = rng.choice(_PYTHAGOREAN)
        x = (rng.choice(range(-4, 5)), rng.choice(range(-4, 5)))
        score = _scores(w, [x], [label])[0]
        if score == 0 or x == (0, 0) or abs(w[0]) + abs(w[1]) > 10:
            continue
        norm = _root(_norm2(w))
        key = score / norm
        candidates = [
            (_as_root(score), "forgot-norm", "is y⟨w,x⟩ itself: it forgets to divide by ‖w‖."),
            (_as_root(score / norm**2), "norm-squared", "divides by ‖w‖² instead of ‖w‖."),
            (
                _as_root(score * label / norm),
                "forgot-label",
                "forgets the label: ⟨w,x⟩/‖w‖ without y.",
            ),
            (_as_root(abs(key)), "unsigned", "drops the sign: x is on the wrong side of w."),
            (
                (1, _norm2(x)),
                "distance-to-origin",
                "is ‖x‖, the distance of x to the origin, not to the hyperplane.",
            ),
        ]
        wrong = _wrong_options(candidates, _as_root(key), most=4)
        if wrong is None:
            continue
        rational = [value for value, _, _ in wrong if _root(value[1]) ** 2 == value[1]]
        texts = dict(
            zip(
                [_as_root(key)] + rational,
                same_format([key] + [value[0] * _root(value[1]) for value in rational]),
                strict=True,
            )
        )
        shown = [texts.get(value) or _root_text(*value) for value, _, _ in wrong]
        prompt = (
            f"w = {vec(w)}; the point x = {vec(x)} has label y = {signed(label)}. What is the signed "
            "distance y⟨w,x⟩/‖w‖ of x to the hyperplane ⟨w,x⟩ = 0?"
        )
        why = f"y⟨w,x⟩/‖w‖ = {number_text(score)}/{number_text(norm)} = {texts[_as_root(key)]}" + (
            " (negative: x is on the wrong side)." if key < 0 else "."
        )
        data = {"w": w, "x": x, "y": label, "key": key}
        key_text = texts[_as_root(key)]
        return _written_choice(qid, "distance", prompt, (key_text, why), shown, wrong, rng, data)
    raise RuntimeError("no distance question found")  # pragma: no cover


def mistake_question(rng: random.Random, qid: str) -> Question:
    """Is this step a mistake, and what does the perceptron do? Half of the draws are ties
    y⟨w,x⟩ = 0 (which count); four options, each wrong one a slip: keeping w on a mistake or a
    tie, subtracting the update, updating a correct point (as the hinge loss does inside its
    margin), repeating the update until the point is right."""
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
        rule = f"y⟨w,x⟩ = {number_text(score)}"
        update = "a mistake: update w ← w + yx"
        keep = "correct: keep w"
        subtract = (
            "a mistake: update w ← w − yx",
            "update-subtracted",
            "the update adds yx, to turn w towards yx.",
        )
        if score > 0:
            key = (keep, f"{rule} > 0: x is on its side, so w stays.")
            wrong = [
                (update, "update-not-due", f"{rule} > 0: updating here is not due."),
                (
                    "correct, but close: update w ← w + yx to widen the margin",
                    "hinge",
                    "the perceptron updates only on y⟨w,x⟩ ≤ 0; updating correct points near the "
                    "boundary is the hinge loss's rule.",
                ),
                (
                    subtract[0],
                    "update-not-due",
                    f"{rule} > 0: no update is due, and an update adds yx.",
                ),
            ]
        else:
            key = (update, f"{rule} ≤ 0 is a mistake (a tie counts), so w ← w + yx.")
            wrong = [
                (
                    "a tie: keep w" if tie else keep,
                    "tie-as-correct" if tie else "no-update-on-mistake",
                    "a tie y⟨w,x⟩ = 0 counts as a mistake (≤, not <); otherwise the perceptron "
                    "could never leave w = 0."
                    if tie
                    else f"{rule} is not > 0, so keeping w is wrong.",
                ),
                (subtract[0], subtract[1], subtract[2]),
                (
                    "a mistake: update w ← w + yx again and again until y⟨w,x⟩ > 0",
                    "one-update-fixes",
                    "the perceptron makes one update per visit and moves on; the point comes back "
                    "in the next sweep.",
                ),
            ]
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
            {"w": w, "x": x, "y": label, "mistake": score <= 0},
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
    """Theorem 1's bound: at most ⌊R²/ρ²⌋ mistakes (a count); the wrong options drop the squares,
    turn the ratio, or round up."""
    for _ in range(MAX_DRAWS):
        R, rho = rng.choice(_RADII), rng.choice(_MARGINS)
        if rho >= R:
            continue
        ratio = R * R / (rho * rho)
        key = math.floor(ratio)
        candidates = [
            (math.floor(R / rho), "forgot-squares", "is ⌊R/ρ⌋: the bound squares both."),
            (
                math.floor(rho * rho / (R * R)),
                "inverted-ratio",
                "is ⌊ρ²/R²⌋: a larger margin must give a smaller bound.",
            ),
            (math.floor(R * R / rho), "forgot-squares", "is ⌊R²/ρ⌋: ρ is squared too."),
            (math.ceil(ratio), "rounded-up", "rounds R²/ρ² up; a count at most R²/ρ² rounds down."),
            (key + 1, "rounded-up", "is one more than the bound allows."),
        ]
        wrong = _wrong_options(candidates, key)
        if wrong is None:
            continue
        prompt = (
            f"All points satisfy ‖x‖ ≤ R = {number_text(R)}, and some w* separates them with margin "
            f"ρ = {number_text(rho)}. At most how many mistakes does the perceptron make (Theorem 1)?"
        )
        why = (
            f"R²/ρ² = {number_text(R * R)}/{number_text(rho * rho)} = {number_text(ratio)}, for any "
            f"order and dimension; a number of mistakes is whole, so at most {key}."
        )
        data = {"R": R, "rho": rho, "key": key}
        return _value_choice(qid, "theorem 1", prompt, (key, why), wrong, rng, data)
    raise RuntimeError("no bound question found")  # pragma: no cover


def error_bound_question(rng: random.Random, qid: str) -> Question:
    """Theorem 2's bound R*²/ρ*²/(n+1); wrong options divide by n, take the 1/√n rate, drop the
    squares or turn the ratio, each a probability in [0, 1] and all in one number format."""
    for _ in range(MAX_DRAWS):
        R, rho = rng.choice(_RADII), rng.choice(_MARGINS)
        n = rng.choice((99, 399, 899, 2499, 9999))  # n + 1 a square: the slow-rate option is exact
        ratio = R * R / (rho * rho)
        root = math.isqrt(n + 1)
        if rho >= R or ratio > root:
            continue  # every option a probability
        key = ratio / (n + 1)
        candidates = [
            (ratio / n, "divide-by-n", "divides by n; the bound has n + 1."),
            (
                ratio / root,
                "slow-rate",
                "divides by √(n+1): that is the non-separable rate; with a margin the rate is 1/n.",
            ),
            ((R / rho) / (n + 1), "forgot-squares", "is R/ρ/(n+1): the bound squares both."),
            (1 / ratio / (n + 1), "inverted-ratio", "is ρ²/R²/(n+1): a larger margin must help."),
        ]
        wrong = _wrong_options(candidates, key)
        if wrong is None:
            continue
        texts = same_format([key] + [value for value, _, _ in wrong])
        prompt = (
            f"The data lies in a ball of radius R* = {number_text(R)} and is separable with margin "
            f"ρ* = {number_text(rho)}. The perceptron is trained on n = {n} points until it makes no "
            "training error. What bound does Theorem 2 give on its expected test error?"
        )
        why = (
            f"R*²/ρ*²/(n+1) = {number_text(ratio)}/{n + 1} = {texts[0]}, a fast rate 1/n, "
            "independent of the dimension."
        )
        data = {"R": R, "rho": rho, "n": n, "key": key}
        return _written_choice(
            qid, "theorem 2", prompt, (texts[0], why), texts[1:], wrong, rng, data
        )
    raise RuntimeError("no test-error question found")  # pragma: no cover


def _small_separable(rng: random.Random, n: int, low: int = -2, high: int = 2):
    """n distinct nonzero integer points with both labels, linearly separable through the origin
    (the exact engine converges within 10 sweeps); ``None`` when this draw is not."""
    drawn = draw_points(rng, n, low, high)
    if drawn is None:
        return None
    X, y = drawn
    converged, _, mistakes, _ = quick_run(X, y, 10)  # skips the draws the engine would refuse
    if not converged or mistakes < 2:
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
    """η-invariance on a small run: the same mistakes, every w scaled by η. The options cross
    two mistake counts with two final w (the right ones and a slip's), so that neither part of an
    option is more common than the other and only both together are the key."""
    for _ in range(MAX_DRAWS):
        drawn = _small_separable(rng, 3)
        if drawn is None:
            continue
        X, y, run1 = drawn
        eta = Fraction(rng.choice((2, 3, 5, 10)))
        run = perceptron(X, y, eta=eta, exact=True, max_sweeps=10, warn=False)
        m, w = run.mistakes, tuple(run.w)
        fewer = max(1, round(Fraction(run1.mistakes) / eta))
        if rng.random() < 0.5 and fewer != m:
            other, slip = fewer, "eta-divides-mistakes"
        else:
            other, slip = m * int(eta), "eta-multiplies-mistakes"
        same_signs = (
            "η scales every w, and so every y⟨w,x⟩, by the same positive factor: no sign changes, "
            "so the mistakes stay the same."
        )
        wrong = [
            (
                (m, tuple(run1.w)),
                "eta-ignored",
                f"{m} mistakes is right, but every w is η times the w of η = 1, so the final w is "
                f"{vec(w)}.",
            ),
            ((other, w), slip, same_signs),
            ((other, tuple(run1.w)), slip, same_signs + f" And the final w is η·w = {vec(w)}."),
        ]
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
        data = {"X": X, "y": y, "key": run.mistakes}
        return numeric(qid, "update", prompt, Fraction(run.mistakes), why, data)
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
        return numeric(qid, "margin", prompt, key, why, {"w": w, "X": X, "y": y, "key": key})
    raise RuntimeError("no margin question found")  # pragma: no cover


def margin_perceptron_question(rng: random.Random, qid: str) -> Question:
    """The margin perceptron (update while y⟨w,x⟩ ≤ ρ₀): at most ⌊(R² + 2ρ₀)/ρ²⌋ updates, a whole
    number (numeric)."""
    R, rho = rng.choice(_RADII), rng.choice(_MARGINS[:-1])
    rho0 = rng.choice((Fraction(1, 2), Fraction(1), Fraction(2)))
    bound = (R * R + 2 * rho0) / (rho * rho)
    key = math.floor(bound)
    prompt = (
        f"The margin perceptron updates w ← w + yx whenever y⟨w,x⟩ ≤ ρ₀ = {number_text(rho0)}. The data "
        f"has radius R = {number_text(R)} and is separable with margin ρ = {number_text(rho)}. At most how "
        "many updates does it make?"
    )
    why = (
        f"(R² + 2ρ₀)/ρ² = ({number_text(R * R)} + {number_text(2 * rho0)})/{number_text(rho * rho)} = "
        f"{number_text(bound)}; a number of updates is whole, so at most {key}. With ρ₀ = 0 it is "
        "Theorem 1's R²/ρ²."
    )
    data = {"R": R, "rho": rho, "rho0": rho0, "key": key}
    return numeric(qid, "margin perceptron", prompt, Fraction(key), why, data)


def pocket_question(rng: random.Random, qid: str) -> Question:
    """Which w the pocket keeps after a real perceptron run's first four updates on points that are
    not separable (the pocket task's run, Lin's pocket algorithm): the first w with the fewest
    training errors; the other visited w are the wrong options (the last one, the first one, a
    later one with as many errors, one with more)."""
    from perceptronlab.teach.kinds.pocket import UPDATES, errors

    for _ in range(MAX_DRAWS):
        drawn = draw_points(rng, 5)
        if drawn is None:
            continue
        X, y = drawn
        if quick_run(X, y, 30)[0]:
            continue  # separable (it converges): no pocket needed
        run = perceptron(X, y, exact=True, trace=True, max_sweeps=UPDATES, warn=False)
        assert run.steps is not None and not run.converged  # traced; the quick run agrees
        ws = [tuple(s.w) for s in run.steps if s.mistake][:UPDATES]
        if len(ws) < UPDATES or len(set(ws)) < UPDATES:
            continue
        counts = [errors(w, X, y) for w in ws]
        best = counts.index(min(counts))  # replaced only by strictly fewer errors: the first best
        if best == UPDATES - 1:
            continue  # the pocket must differ from the last w
        names = [f"w{k + 1}" for k in range(UPDATES)]
        listing = "; ".join(f"{names[k]} = {vec(w)}" for k, w in enumerate(ws))
        prompt = (
            f"On the points {_points(X, y)} (no offset, not separable; y⟨w,x⟩ ≤ 0 is an error), the "
            f"perceptron from w = 0 in cyclic order makes these first {UPDATES} updates: {listing}. "
            "Which w is in the pocket after the last of them?"
        )
        counted = ", ".join(f"{names[k]}: {e}" for k, e in enumerate(counts))
        why = f"Training errors {counted}; the pocket keeps the first w with the fewest, {names[best]}."
        wrong = []
        for k in range(UPDATES):
            if k == best:
                continue
            if k == UPDATES - 1:
                slip, text = (
                    "last-iterate",
                    "is the last w; the pocket keeps the best, not the last.",
                )
            elif counts[k] == counts[best]:
                slip, text = (
                    "later-tie",
                    "has as many errors, but came later: no strict improvement.",
                )
            elif k == 0:
                slip, text = "first-iterate", "is the first w; a later w has fewer errors."
            elif counts[k] == max(counts):
                slip, text = "most-errors", "has the most training errors."
            else:
                slip, text = "more-errors", "has more training errors."
            wrong.append(
                (f"{names[k]} = {vec(ws[k])}", slip, f"{names[k]} {text} Its errors: {counts[k]}.")
            )
        return choice(
            qid,
            "pocket",
            prompt,
            (f"{names[best]} = {vec(ws[best])}", why),
            wrong,
            why,
            rng,
            {"X": X, "y": y, "ws": ws, "errors": counts, "key": ws[best]},
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
        data = {"w": w, "x": x, "y": label, "eta": eta, "key": key}
        return numeric(qid, "update", prompt, key, why, data)
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
