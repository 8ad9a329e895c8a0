"""The ``quiz`` command: the self-test in the terminal, with a score, or exported for an LMS.

The command parses, calls :func:`perceptronlab.teach.quiz.quiz` and
:mod:`perceptronlab.teach.lms`, and formats. Answers are read line by line from standard input,
so a test (or a script) can pipe them in; the end of input ends the quiz with the score so far.
"""

from __future__ import annotations

import secrets
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from perceptronlab.cli._common import ExportFormat, OutputOptions, export_out, info, print_json

if TYPE_CHECKING:
    from perceptronlab.teach.questions import Question

#: a reply that is not an answer is asked again this many times, then the question counts as skipped
TRIES = 3


def _read() -> str | None:
    """One line of the student's reply, or ``None`` at the end of input."""
    line = sys.stdin.readline()
    return None if line == "" else line.rstrip("\n")


def _ask(question: Question) -> bool | None:
    """Ask one question; whether it was answered right (``None``: input ended)."""
    from perceptronlab.teach.questions import letter, option_index, read_number

    if question.kind == "card":
        typer.echo("(press Enter for the answer)")
        if _read() is None:
            return None
        typer.echo(f"Answer: {question.answer}")
        typer.echo("Did you know it? [y/n] ", nl=False)
        reply = _read()
        return None if reply is None else reply.strip().lower() in {"y", "yes"}
    if question.kind == "choice":
        for k, option in enumerate(question.options):
            typer.echo(f"  {letter(k)}) {option.text}")
        hint = f"a-{letter(len(question.options) - 1)}"
    else:
        hint = "a number, e.g. 3, -1/2 or 0.25"
    for _ in range(TRIES):
        typer.echo(f"Your answer ({hint}): ", nl=False)
        reply = _read()
        if reply is None:
            return None
        if question.kind == "choice":
            index = option_index(reply, len(question.options))
            if index is None:
                typer.echo(f"Type one letter, {hint}.")
                continue
            chosen = question.options[index]
            if chosen.correct:
                typer.echo(f"Right. {chosen.why}")
                return True
            typer.echo(f"Not quite: {chosen.why}")
            typer.echo(
                f"The answer is {letter(question.options.index(question.key))}) {question.answer}. "
                f"{question.explanation}"
            )
            return False
        if read_number(reply) is None:
            typer.echo(f"Type {hint}.")
            continue
        right = question.accepts(reply)
        typer.echo(
            ("Right. " if right else f"Not quite: the answer is {question.answer}. ")
            + question.explanation
        )
        return right
    typer.echo(f"Skipped. The answer is {question.answer}. {question.explanation}")
    return False


def quiz(
    seed: Annotated[
        int | None,
        typer.Option(
            "--seed",
            "-s",
            min=0,
            help="Seed: the same seed gives the same "
            "questions (default: a fresh one, printed so you can come back).",
        ),
    ] = None,
    count: Annotated[
        int, typer.Option("--count", "-n", min=1, max=200, help="How many questions.")
    ] = 10,
    cards: Annotated[
        bool,
        typer.Option(
            "--cards/--no-cards", help="Include question cards (read, then judged by yourself)."
        ),
    ] = True,
    export: Annotated[
        ExportFormat | None,
        typer.Option(
            "--export",
            help="Write the questions for a learning-management system instead of asking them: moodle "
            "(Moodle XML) or qti (a QTI 1.2 zip, for Canvas and others); needs --out.",
        ),
    ] = None,
    out: Annotated[Path | None, typer.Option("--out", "-o", help="The file for --export.")] = None,
    essay_cards: Annotated[
        bool,
        typer.Option(
            "--cards-as-essays",
            help="--export: question cards as 1-point essays for you to grade (default: "
            "ungraded descriptions that show the answer afterwards).",
        ),
    ] = False,
    output: OutputOptions = OutputOptions(),
) -> None:
    """The lecture's self-test: question cards and questions whose wrong options are the real slips.

    Every number is fresh from the seed and its key computed exactly; after each answer you see why
    it is right, or which slip the option you chose makes; the score comes at the end (question
    cards are read and judged by yourself, not scored).
    """
    from perceptronlab.teach.quiz import quiz as make_quiz
    from perceptronlab.teach.quiz import quiz_document

    if seed is None:
        seed = secrets.randbelow(100_000)
    if output.json_output and export is None:
        print_json(
            quiz_document(seed, count)
            if cards
            else {
                "seed": seed,
                "questions": [q.as_dict() for q in make_quiz(seed, count, cards=False)],
            }
        )
        return
    questions = make_quiz(seed, count, cards=cards)
    if export is not None:
        _export_quiz(questions, seed, export, out, essay_cards, output.quiet)
        return
    _ask_all(questions, seed)


def _export_quiz(
    questions: list, seed: int, export: ExportFormat, out: Path | None, essays: bool, quiet: bool
) -> None:
    """``quiz --export``: the questions as Moodle XML or a QTI zip, written to --out."""
    out = export_out(out, "quiz")
    from perceptronlab._ground.files import atomic_write
    from perceptronlab.teach.lms import moodle_xml, qti_package

    content: str | bytes = (
        moodle_xml(questions, essay_cards=essays)
        if export is ExportFormat.moodle
        else qti_package(
            questions, title=f"perceptronlab self-test, seed {seed}", essay_cards=essays
        )
    )
    atomic_write(out, content, what="--out")
    info(f"wrote {out} ({len(questions)} questions, seed {seed}, {export.value})", quiet=quiet)


def _ask_all(questions: list, seed: int) -> None:
    """Ask every question in turn (until the input ends), then the score, the question cards known
    and the topics to review."""
    from perceptronlab._ground.numbers import format_percent

    typer.echo(
        f"Self-test, seed {seed} (`perceptronlab quiz --seed {seed}` gives the same questions)."
    )
    right = asked = cards_seen = cards_known = 0
    slips: list[str] = []
    for number, question in enumerate(questions, start=1):
        typer.echo("")
        typer.echo(f"{number}/{len(questions)} [{question.topic}] {question.prompt}")
        result = _ask(question)
        if result is None:
            typer.echo("")
            typer.echo("(end of input)")
            break
        if question.kind == "card":
            cards_seen, cards_known = cards_seen + 1, cards_known + int(result)
            continue  # judged by yourself: read, not scored
        asked += 1
        right += result
        if question.kind == "choice" and not result:
            slips.append(question.topic)
    typer.echo("")
    share = f" ({format_percent(right / asked)})" if asked else ""
    typer.echo(f"Score: {right} of {asked}{share}.")
    if cards_seen:
        typer.echo(f"Question cards (not scored): you knew {cards_known} of {cards_seen}.")
    if slips:
        typer.echo("To review: " + ", ".join(dict.fromkeys(slips)) + ".")


def register(app: typer.Typer) -> None:
    """Add ``quiz`` to ``app``."""
    app.command("quiz")(quiz)
