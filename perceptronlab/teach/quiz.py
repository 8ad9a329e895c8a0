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

import random

from perceptronlab._ground import validation as v
from perceptronlab.teach.questions import Question
from perceptronlab.teach.quiz_bank import CARDS, CHOICES
from perceptronlab.teach.quiz_generated import GENERATORS
from perceptronlab.teach.task import required_seed

__all__ = ["MAX_QUESTIONS", "quiz", "quiz_document"]

#: the most questions one quiz may have
MAX_QUESTIONS = 200


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
    checked = required_seed(seed, "Pass e.g. seed=0; the same seed gives the same quiz.")
    count = v.check_positive_int("count", count, "Ask for e.g. 12 questions.")
    if count > MAX_QUESTIONS:
        raise v.fail(
            "count",
            f"at most {MAX_QUESTIONS} questions",
            str(count),
            f"Ask for {MAX_QUESTIONS} or fewer.",
        )
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
    return Question(
        question.id,
        question.topic,
        question.kind,
        question.prompt,
        question.answer,
        question.explanation,
        tuple(options),
        question.value,
        question.tolerance,
        question.data,
    )


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
