"""Exam tasks as questions of a learning-management system, graded where the key is a number.

Each part of a task becomes questions: every number of its key (:data:`NUMBERS`: R², ρ², the bound,
the mistakes, each entry of a final w, ...) a ``numeric`` question with its exact key and a
tolerance, the part's written rest an essay (a 1-point question card) with the worked solution
for the grader; part (a) of a trace task is its worksheet (a Moodle cloze question, a QTI fill in
multiple blanks question).
The text keeps the task's TeX math, as ``\\( … \\)`` for the LMS's MathJax filter; the writers of
:mod:`perceptronlab.teach.lms` put it in HTML, never in plain text.

Examples
--------
>>> from perceptronlab.teach.exams import generate
>>> questions = exam_questions(generate("trace", 0), "trace-0")
>>> [q.kind for q in questions].count("numeric") >= 2, questions[0].topic
(True, 'trace/part b')
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from fractions import Fraction
from typing import TYPE_CHECKING

from perceptronlab.teach.questions import Question, number_text, numeric, tolerance

if TYPE_CHECKING:
    from perceptronlab.core.run import Run
    from perceptronlab.teach.task import ExamTask

Numbers = list[tuple[str, Fraction]]


def _w(what: str, w) -> Numbers:
    return [(f"entry {j + 1} of {what} \\(w\\)", Fraction(c)) for j, c in enumerate(w)]


#: kind → part → the numbers of that part's key, each with the words that ask for it
NUMBERS: dict[str, dict[str, Callable[[dict], Numbers]]] = {
    "trace": {
        "b": lambda a: [
            ("\\(R^2\\)", a["R2"]),
            ("\\(\\rho^2\\), the squared margin of \\(w^*\\)", a["rho2"]),
            ("the mistake bound \\(R^2/\\rho^2\\)", a["bound"]),
        ],
        "c": lambda a: (
            [("the number of mistakes", Fraction(a["mistakes_eta"]))]
            + _w("the final", a["final_w_eta"])
        ),
    },
    "margin": {
        "a": lambda a: [
            ("\\(\\rho^2\\) of \\(w_A\\)", a["rho2"]["A"]),
            ("\\(\\rho^2\\) of \\(w_B\\)", a["rho2"]["B"]),
        ],
        "b": lambda a: [("\\(R^2\\)", a["R2"]), ("the best mistake bound", a["best_bound"])],
        "c": lambda a: [
            ("\\(R^2\\) with \\(x_5\\)", a["R2_new"]),
            ("the bound of \\(w_A\\) with \\(x_5\\)", a["bound_new"]),
        ],
    },
    "generalization": {
        "a": lambda a: [("the test-error bound", a["test_error"])],
        "b": lambda a: [("the smallest such \\(n\\)", Fraction(a["n_min"]))],
        "c": lambda a: [
            ("the \\(n\\) of (b) in the higher dimension", Fraction(a["n_min_embedded"])),
            ("the \\(n\\) of (b) with the changed margin or radius", Fraction(a["n_min_changed"])),
        ],
    },
    "distance": {
        "a": lambda a: [("the signed distance", a["distances"][0])],
        "b": lambda a: [("the margin \\(\\rho\\)", a["rho"])],
        "c": lambda a: [("the margin of \\(3w\\)", a["rho_scaled"])],
    },
    "margin-perceptron": {
        "b": lambda a: [
            ("\\(R^2\\)", a["R2"]),
            ("\\(\\rho^2\\) of \\(w^*\\)", a["rho2"]),
            ("the bound \\((R^2+2\\rho_0)/\\rho^2\\)", a["bound"]),
        ],
        "c": lambda a: (
            [("the plain perceptron's updates", Fraction(a["plain_mistakes"]))]
            + _w("the plain perceptron's final", a["plain_w"])
        ),
    },
    "eta": {
        "b": lambda a: (
            [("the mistakes with \\(\\eta=1\\)", Fraction(a["unit_mistakes"]))]
            + _w("the final", a["unit_w"])
        ),
        "c": lambda a: [
            ("the updates of the margin perceptron with \\(\\eta=2\\)", a["margin_mistakes"]),
            ("its updates with \\(\\eta=1\\)", a["unit_margin_mistakes"]),
        ],
    },
    "pocket": {
        "b": lambda a: [("the training errors of the pocket's \\(w\\)", a["pocket_errors"])],
        "c": lambda a: [("the training errors of the last \\(w\\)", a["last_errors"])],
    },
    "online": {
        "b": lambda a: [
            ("the number of mistakes", Fraction(a["total"])),
            ("the bound \\(R^2/\\rho^2\\) of \\(w^*\\)", a["bound"]),
        ],
        "c": lambda a: [("the score they would write", a["early_score"])],
    },
}


def lms_math(text: str) -> str:
    """$…$ math as \\(…\\), the delimiters Moodle's and Canvas's MathJax filters read."""
    parts = text.split("$")
    return "".join(part if k % 2 == 0 else f"\\({part}\\)" for k, part in enumerate(parts))


def _paragraphs(blocks: list) -> str:
    return " ".join(lms_math(block[1]) for block in blocks if block[0] == "p")


def exam_questions(task: ExamTask, prefix: str = "") -> list[Question]:
    """An exam task's parts as questions: a numeric question for every number of a part's key
    (:data:`NUMBERS`), the parts without one as essays (question cards) with the worked solution;
    part (a) of a trace task is left to its worksheet (:func:`exam_worksheet`). Each question's
    topic is ``<kind>/part <letter>`` (its category in Moodle)."""
    intro = _paragraphs(task.intro)
    name = prefix or f"{task.kind}-{task.seed}"
    numbers = NUMBERS.get(task.kind, {})
    out = []
    for part in task.parts:
        if task.kind == "trace" and part.letter == "a":
            continue  # the worksheet: a cloze question
        points = number_text(part.points)
        head = f"{intro}\n\n({part.letter}) [{points} point{'' if part.points == 1 else 's'}] "
        head += _paragraphs(part.question)
        solution = _paragraphs(part.solution)
        topic = f"{task.kind}/part {part.letter}"
        asked = numbers[part.letter](task.answers) if part.letter in numbers else []
        for k, (what, value) in enumerate(asked, start=1):
            value = Fraction(value)
            how = (
                "."
                if value.denominator == 1
                else " (as a decimal)."
                if tolerance(value) == 0
                else " (as a decimal; within 0.1 % is accepted)."
            )
            out.append(
                numeric(
                    f"{name}-{part.letter}{k}",
                    topic,
                    f"{head}\n\nEnter {what}{how}",
                    value,
                    solution,
                )
            )
        if not asked:
            out.append(Question(f"{name}-{part.letter}", topic, "card", head, solution, solution))
    return out


def exam_worksheet(task: ExamTask, prefix: str = "") -> tuple[str, str, Run] | None:
    """A trace task's worksheet for :func:`~perceptronlab.teach.lms.moodle_xml` (``(name,
    intro, run)``), else ``None``."""
    if task.kind != "trace" or task.run is None:
        return None
    return (
        f"{prefix or f'trace-{task.seed}'}-a",
        _paragraphs(task.intro) + " Fill in the worksheet of the run.",
        task.run,
    )


def export_tasks(tasks: Sequence[tuple[str, ExamTask]], fmt: str, *, title: str) -> str | bytes:
    """Exam tasks (``(name, task)``, e.g. one per student) as a Moodle XML bank (``fmt="moodle"``:
    the numbers as numerical questions, the worksheet as cloze, written parts as essays) or a QTI
    1.2 package (``"qti"``: the numbers as numerical questions, the worksheet as Canvas's fill in
    multiple blanks, written parts as essays with their key)."""
    from perceptronlab.teach.lms import moodle_xml, qti_package

    questions: list[Question] = []
    worksheets = []
    for name, task in tasks:
        questions += exam_questions(task, name)
        sheet = exam_worksheet(task, name)
        if sheet is not None:
            worksheets.append(sheet)
    if fmt == "moodle":
        kind = tasks[0][1].kind if tasks else "trace"
        return moodle_xml(
            questions,
            worksheets=worksheets,
            essay_cards=True,
            worksheet_topic=f"{kind}/part a",
        )
    return qti_package(questions, title=title, essay_cards=True, worksheets=worksheets)
