"""Options that teach, not tell: over 120 seeds × 40 questions, no choice question gives its key
away by the number of its options, by a number format of its own, by a probability above 1, or by
always the same label."""

from __future__ import annotations

import re
from collections import Counter
from fractions import Fraction

import pytest

from perceptronlab.teach.questions import SLIPS
from perceptronlab.teach.quiz import quiz


def number_formats(text: str) -> frozenset[str]:
    """The number formats an option writes: fraction (3/4), decimal (0.75), root (√5); integers
    are in every format."""
    found = set()
    for token in re.findall(r"√|\d+/\d+|\d+\.\d+", text):
        found.add("root" if token == "√" else "fraction" if "/" in token else "decimal")
    return frozenset(found)


@pytest.fixture(scope="module")
def questions():
    return [q for seed in range(120) for q in quiz(seed, 40)]


def test_every_choice_question_has_enough_options(questions):
    sizes = [len(q.options) for q in questions if q.kind == "choice"]
    assert len(sizes) > 2000
    assert min(sizes) >= 3
    assert sum(size >= 4 for size in sizes) >= 0.9 * len(sizes)


def test_the_key_is_rarely_alone_in_its_number_format(questions):
    choices = [q for q in questions if q.kind == "choice"]
    alone = [
        q.id
        for q in choices
        if all(
            number_formats(o.text) != number_formats(q.key.text) for o in q.options if not o.correct
        )
    ]
    assert len(alone) <= 0.05 * len(choices), Counter(i.rsplit("-", 1)[0] for i in alone)


def test_test_error_options_are_probabilities(questions):
    errors = [q for q in questions if q.id.startswith("test-error-")]
    assert errors
    assert all(0 <= Fraction(o.text) <= 1 for q in errors for o in q.options)


def test_distance_questions_have_both_labels(questions):
    labels = Counter(q.data["y"] for q in questions if q.id.startswith("distance-"))
    assert labels[1] >= 0.3 * sum(labels.values()) and labels[-1] >= 0.3 * sum(labels.values())


def test_mistake_questions_never_offer_two_ways_to_keep_w(questions):
    for q in questions:
        if q.id.startswith("mistake-"):
            keeps = [o for o in q.options if "keep w" in o.text]
            assert len(keeps) == 1, q.options


def test_every_wrong_option_names_its_slip_and_the_slip_is_right():
    assert all(o.slip in SLIPS for q in quiz(3, 60) for o in q.options if not o.correct)
    from perceptronlab.teach.quiz_bank import CHOICES

    depends = next(q for q in CHOICES if q.id == "choice-depends")
    eta_rho = next(o for o in depends.options if o.text == "the learning rate and ρ")
    assert eta_rho.slip != "eta-divides-mistakes"


def test_lins_spam_fun_time_is_asked():
    from perceptronlab.teach.quiz_bank import CHOICES

    spam = next(q for q in CHOICES if q.id == "choice-spam")
    assert spam.answer == "free, drug, fantastic, deal"
    assert len(spam.options) == 4 and "spam" in spam.prompt
    assert any(q.id == "choice-spam" for seed in range(40) for q in quiz(seed, 40))
