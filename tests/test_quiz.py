"""The self-test: every key recomputed by brute force on hundreds of seeds, every wrong option a
distinct, explained slip; the terminal quiz scored from piped answers; quiz_document's shape."""

from __future__ import annotations

import json
import math
import random
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from perceptronlab import InputError
from perceptronlab.cli import app
from perceptronlab.teach import questions, quiz_bank, quiz_generated
from perceptronlab.teach import quiz as qz

SEEDS = range(300)
runner = CliRunner()


# ---------------------------------------------------------------- brute force, written here


def dot(w, x):
    return sum(Fraction(a) * Fraction(b) for a, b in zip(w, x, strict=True))


def brute_run(X, y, eta=Fraction(1), max_sweeps=50):
    """The perceptron by hand: cyclic sweeps, update on y<w,x> <= 0, until a clean sweep."""
    w = [Fraction(0)] * len(X[0])
    mistakes = 0
    for _ in range(max_sweeps):
        clean = True
        for x, label in zip(X, y, strict=True):
            if label * dot(w, x) <= 0:
                w = [wi + eta * label * Fraction(xi) for wi, xi in zip(w, x, strict=True)]
                mistakes += 1
                clean = False
        if clean:
            return mistakes, tuple(w)
    raise AssertionError("did not converge")


def vec(values):
    return questions.vec(values)


def generated(name, seed):
    return quiz_generated.GENERATORS[name](random.Random(f"test-{name}-{seed}"), f"{name}-{seed}")


def check_options(question):
    """Exactly one key; every option distinct and explained; every wrong option a named slip."""
    texts = [o.text for o in question.options]
    assert len(set(texts)) == len(texts) >= 2, texts
    assert sum(o.correct for o in question.options) == 1
    assert question.key.text == question.answer
    for option in question.options:
        assert option.why.strip(), option
        if not option.correct:
            assert option.slip in questions.SLIPS, option


def root_value(text):
    """An option's number as (sign, square): '-4', '5/2', '2√5', '√2/√3' (what format_sqrt writes)."""
    sign = -1 if text.startswith("-") else 1
    body = text.lstrip("-")

    def part(piece):
        piece = piece.strip("()")
        if "√" in piece:
            outside, inside = piece.split("√")
            return Fraction(int(outside or 1)) ** 2 * int(inside)
        return Fraction(piece) ** 2

    top, _, bottom = body.partition("/")
    return sign, part(top) / (part(bottom) if bottom else 1)


# ---------------------------------------------------------------- every key, every slip


@pytest.mark.parametrize("seed", SEEDS)
def test_update_key_and_slips(seed):
    q = generated("update", seed)
    w, x, label, eta = q.data["w"], q.data["x"], q.data["y"], q.data["eta"]
    assert f"w = {vec(w)}" in q.prompt and f"x = {vec(x)}" in q.prompt
    assert label * dot(w, x) <= 0  # a mistake (or a tie): the update is due
    key = tuple(Fraction(a) + eta * label * b for a, b in zip(w, x, strict=True))
    assert q.answer == vec(key)
    check_options(q)
    replay = {
        "x-instead-of-yx": tuple(Fraction(a) + eta * b for a, b in zip(w, x, strict=True)),
        "forgot-eta": tuple(Fraction(a) + label * b for a, b in zip(w, x, strict=True)),
        "tie-as-correct": tuple(Fraction(a) for a in w),
        "no-update-on-mistake": tuple(Fraction(a) for a in w),
        "update-subtracted": tuple(
            Fraction(a) - eta * label * b for a, b in zip(w, x, strict=True)
        ),
    }
    for option in q.options:
        if not option.correct:
            assert option.text == vec(replay[option.slip]) != q.answer


@pytest.mark.parametrize("seed", SEEDS)
def test_distance_key_and_slips(seed):
    q = generated("distance", seed)
    w, x, label = q.data["w"], q.data["x"], q.data["y"]
    norm2 = int(dot(w, w))
    score = label * dot(w, x)
    assert math.isqrt(norm2) ** 2 == norm2
    key = score / math.isqrt(norm2)
    assert Fraction(q.answer) == key
    check_options(q)
    values = [root_value(o.text) for o in q.options]
    assert len(set(values)) == len(values)  # distinct in value, not only in text
    replay = {
        "forgot-norm": (1 if score > 0 else -1, score**2),
        "norm-squared": (1 if score > 0 else -1, (score / norm2) ** 2),
        "forgot-label": (1 if score * label > 0 else -1, (score / math.isqrt(norm2)) ** 2),
        "unsigned": (1, key**2),
        "distance-to-origin": (1, dot(x, x)),
    }
    for option in q.options:
        if not option.correct:
            assert root_value(option.text) == replay[option.slip]


@pytest.mark.parametrize("seed", SEEDS)
def test_mistake_rule_key(seed):
    q = generated("mistake", seed)
    score = q.data["y"] * dot(q.data["w"], q.data["x"])
    assert q.data["mistake"] == (score <= 0)
    assert q.answer.startswith("a mistake" if score <= 0 else "correct")
    check_options(q)


@pytest.mark.parametrize("seed", SEEDS)
def test_bound_key_and_slips(seed):
    q = generated("bound", seed)
    R, rho = q.data["R"], q.data["rho"]
    assert (
        f"R = {questions.number_text(R)}" in q.prompt
        and f"ρ = {questions.number_text(rho)}" in q.prompt
    )
    assert int(q.answer) == math.floor(R**2 / rho**2)  # "at most how many": a whole number
    check_options(q)
    wrong = {int(o.text) for o in q.options if not o.correct}
    floors = {math.floor(v) for v in (R / rho, rho**2 / R**2, R**2 / rho)}
    assert wrong <= floors | {math.ceil(R**2 / rho**2), int(q.answer) + 1}


@pytest.mark.parametrize("seed", SEEDS)
def test_test_error_key_and_slips(seed):
    q = generated("test-error", seed)
    R, rho, n = q.data["R"], q.data["rho"], q.data["n"]
    assert f"n = {n}" in q.prompt
    assert Fraction(q.answer) == R**2 / rho**2 / (n + 1)
    check_options(q)
    ratio = R**2 / rho**2
    wrong = {Fraction(o.text) for o in q.options if not o.correct}
    slips = {ratio / n, ratio / math.isqrt(n + 1), (R / rho) / (n + 1), rho**2 / R**2 / (n + 1)}
    assert len(wrong) == 3 and wrong <= slips
    assert all(0 <= Fraction(o.text) <= 1 for o in q.options)  # every option a probability


@pytest.mark.parametrize("seed", SEEDS)
def test_eta_key_by_brute_force(seed):
    q = generated("eta", seed)
    X, y, eta = q.data["X"], q.data["y"], q.data["eta"]
    mistakes, w = brute_run(X, y, eta)
    mistakes1, w1 = brute_run(X, y)
    assert mistakes == mistakes1 and w == tuple(eta * c for c in w1)
    assert q.answer.startswith(f"{mistakes} mistake") and q.answer.endswith(vec(w))
    assert f"makes {mistakes1} mistakes and ends at w = {vec(w1)}" in q.prompt
    check_options(q)
    # the options vary together: each count and each w in exactly two, so no part's majority is the key
    counts = [o.text.split(" mistake")[0] for o in q.options]
    finals = [o.text.split("final w = ")[1] for o in q.options]
    assert len(q.options) == 4
    assert all(counts.count(c) == 2 for c in counts) and all(finals.count(f) == 2 for f in finals)


@pytest.mark.parametrize("seed", SEEDS)
def test_numeric_keys_by_brute_force(seed):
    q = generated("mistakes", seed)
    assert q.kind == "numeric" and q.value == brute_run(q.data["X"], q.data["y"])[0]
    assert q.accepts(str(q.value)) and not q.accepts(str(q.value + 1))

    q = generated("margin", seed)
    w, X, y = q.data["w"], q.data["X"], q.data["y"]
    norm = Fraction(math.isqrt(int(dot(w, w))))
    assert all(label * dot(w, x) > 0 for x, label in zip(X, y, strict=True))  # w separates
    assert q.value == min(label * dot(w, x) for x, label in zip(X, y, strict=True)) / norm
    assert q.accepts(str(q.value)) and not q.accepts(str(q.value + Fraction(1, 100)))

    q = generated("after-update", seed)
    w, x, label, eta = q.data["w"], q.data["x"], q.data["y"], q.data["eta"]
    assert label * dot(w, x) <= 0  # a mistake: the update happens
    updated = [Fraction(a) + eta * label * b for a, b in zip(w, x, strict=True)]
    assert q.value == label * dot(updated, x) == label * dot(w, x) + eta * dot(x, x)

    q = generated("margin-perceptron", seed)
    R, rho, rho0 = q.data["R"], q.data["rho"], q.data["rho0"]
    assert q.value == math.floor((R * R + 2 * rho0) / (rho * rho))  # at most: a whole number


@pytest.mark.parametrize("seed", SEEDS)
def test_pocket_key_by_counting(seed):
    q = generated("pocket", seed)
    X, y, ws = q.data["X"], q.data["y"], q.data["ws"]
    # a real run: the first four updates of the perceptron by hand
    w, visited = [Fraction(0)] * 2, []
    while len(visited) < 4:
        for x, label in zip(X, y, strict=True):
            if label * dot(w, x) <= 0 and len(visited) < 4:
                w = [wi + label * xi for wi, xi in zip(w, x, strict=True)]
                visited.append(tuple(w))
    assert [tuple(v) for v in ws] == visited
    errors = [sum(1 for x, label in zip(X, y, strict=True) if label * dot(w, x) <= 0) for w in ws]
    best = min(range(4), key=lambda k: (errors[k], k))
    assert q.answer.endswith(vec(ws[best])) and errors[best] > 0 and best != 3
    check_options(q)
    last = next(o for o in q.options if o.text.endswith(vec(ws[3])))
    assert last.slip == "last-iterate"


def test_fixed_questions_are_complete():
    for question in quiz_bank.CHOICES:
        check_options(question)
    assert len(quiz_bank.CARDS) == 11 and all(
        card.answer and not card.options for card in quiz_bank.CARDS
    )
    topics = {q.topic for q in quiz_bank.CARDS + quiz_bank.CHOICES} | {
        generated(name, 0).topic for name in quiz_generated.GENERATORS
    }
    assert {
        "update",
        "sgd",
        "distance",
        "margin",
        "theorem 1",
        "theorem 2",
        "proof",
        "learning rate",
        "ties",
        "leave-one-out",
        "non-separable",
        "pocket",
        "online",
        "margin perceptron",
    } <= topics


# ---------------------------------------------------------------- the quiz and its document


def test_quiz_document_shape_and_determinism():
    doc = qz.quiz_document(5, 40)
    assert json.loads(json.dumps(doc)) == doc == qz.quiz_document(5, 40)
    assert doc["seed"] == 5 and len(doc["questions"]) == 40
    assert doc != qz.quiz_document(6, 40)
    ids = [q["id"] for q in doc["questions"]]
    assert len(set(ids)) == len(ids)
    kinds = {q["kind"] for q in doc["questions"]}
    assert kinds == {"choice", "numeric", "card"}
    for q in doc["questions"]:
        assert set(q) == {
            "id",
            "topic",
            "kind",
            "prompt",
            "options",
            "answer",
            "value",
            "tolerance",
            "explanation",
        }
        assert "$" not in q["prompt"] and "\\" not in q["prompt"]  # plain text, no LaTeX
        if q["kind"] == "choice":
            assert sum(o["correct"] for o in q["options"]) == 1
            assert next(o["text"] for o in q["options"] if o["correct"]) == q["answer"]
            assert all(
                set(o) == {"text", "correct", "why", "slip", "slip_text"} and o["why"]
                for o in q["options"]
            )
            assert all((o["slip"] is None) == o["correct"] for o in q["options"])
        else:
            assert q["options"] == []
        if q["kind"] == "numeric":
            assert isinstance(q["value"], float) and q["tolerance"] >= 0
            assert abs(float(Fraction(q["answer"])) - q["value"]) <= q["tolerance"] + 1e-12
        else:
            assert q["value"] is None and q["tolerance"] is None


def test_quiz_refuses_bad_counts():
    with pytest.raises(InputError, match="count"):
        qz.quiz(0, 0)
    with pytest.raises(InputError, match="count"):
        qz.quiz(0, qz.MAX_QUESTIONS + 1)
    with pytest.raises(InputError, match="seed"):
        qz.quiz(-1, 3)


def right_reply(question):
    if question.kind == "choice":
        return questions.letter(question.options.index(question.key))
    if question.kind == "numeric":
        return str(question.value)
    return "\ny"  # Enter for the answer, then "yes, I knew it"


def wrong_reply(question):
    if question.kind == "choice":
        return questions.letter(next(k for k, o in enumerate(question.options) if not o.correct))
    if question.kind == "numeric":
        return str(question.value + 7)
    return "\nn"


def test_terminal_quiz_scores_piped_answers():
    questions = qz.quiz(11, 9)
    right = runner.invoke(
        app,
        ["quiz", "--seed", "11", "--count", "9"],
        input="\n".join(right_reply(q) for q in questions) + "\n",
    )
    assert right.exit_code == 0, right.output
    cards = sum(q.kind == "card" for q in questions)
    assert cards and f"Score: {9 - cards} of {9 - cards} (100 %)." in right.stdout  # cards unscored
    assert f"Question cards (not scored): you knew {cards} of {cards}." in right.stdout
    wrong = runner.invoke(
        app,
        ["quiz", "--seed", "11", "--count", "9"],
        input="\n".join(wrong_reply(q) for q in questions) + "\n",
    )
    assert f"Score: 0 of {9 - cards} (0 %)." in wrong.stdout and "To review:" in wrong.stdout
    first_choice = next(q for q in questions if q.kind == "choice")
    slip = next(o for o in first_choice.options if not o.correct)
    assert f"Not quite: {slip.why}" in wrong.stdout  # the slip is explained


def test_terminal_quiz_ends_cleanly_at_end_of_input_and_asks_again_on_nonsense():
    questions = qz.quiz(2, 4, cards=False)
    result = runner.invoke(
        app,
        ["quiz", "--seed", "2", "--count", "4", "--no-cards"],
        input="zzz\n" + right_reply(questions[0]) + "\n",
    )
    assert result.exit_code == 0 and "(end of input)" in result.stdout
    assert "Score: 1 of 1" in result.stdout and "Type " in result.stdout


def test_quiz_json_is_the_document():
    result = runner.invoke(app, ["quiz", "--seed", "4", "--count", "7", "--json"])
    assert result.exit_code == 0
    assert json.loads(result.stdout) == qz.quiz_document(4, 7)


def test_export_needs_out():
    result = runner.invoke(app, ["quiz", "--export", "moodle"])
    assert result.exit_code == 1 and "--out" in result.stderr and "Traceback" not in result.output


@settings(max_examples=40, deadline=None)
@given(
    st.lists(
        st.text(max_size=60).map(lambda t: t.replace("\n", " ").replace("\r", " ")), max_size=12
    )
)
def test_any_typed_replies_end_in_a_score(replies):
    """Whatever a student types (letters, numbers, nonsense, nothing), the quiz ends with a score."""
    result = runner.invoke(
        app, ["quiz", "--seed", "3", "--count", "4"], input="\n".join(replies) + "\n"
    )
    assert result.exit_code == 0, result.output
    assert "Score: " in result.stdout and "Traceback" not in result.output


def test_read_number_is_bounded():
    assert questions.read_number("1/2") == Fraction(1, 2) and questions.read_number("−3") == -3
    assert questions.read_number("9" * 41) is None and questions.read_number("1/0") is None
    assert questions.read_number("abc") is None
