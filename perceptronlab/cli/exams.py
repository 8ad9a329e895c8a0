"""Teaching commands: ``exam`` (a generated exam task with its key) and ``check`` (a worksheet verdict).

The commands parse, call :func:`perceptronlab.teach.exams.generate` and
:func:`perceptronlab.teach.checker.check_worksheet`, and format.
"""

from __future__ import annotations

import enum
from pathlib import Path
from typing import Annotated

import typer

from perceptronlab.cli._common import DataFormatOpt, JsonOpt, LabelOpt, info, print_json, read_xy


class Kind(str, enum.Enum):
    trace = "trace"
    margin = "margin"
    generalization = "generalization"


class ExamFormat(str, enum.Enum):
    md = "md"
    latex = "latex"


def exam(
    kind: Annotated[Kind, typer.Option("--kind", "-k", help="The task: trace (the perceptron by hand), "
                                       "margin (margin and mistake bound) or generalization (test-error bound).")],
    seed: Annotated[int, typer.Option("--seed", "-s", min=0, help="Seed: the same seed gives the same task.")] = 0,
    fmt: Annotated[ExamFormat, typer.Option("--format", "-f", help="Markdown (md) or LaTeX.")] = ExamFormat.md,
    solution: Annotated[bool, typer.Option("--solution/--no-solution",
                                           help="Append the worked solution (the answer key).")] = False,
    standalone: Annotated[bool, typer.Option("--standalone", help="LaTeX: a whole document, not a fragment.")]
    = False,
    out: Annotated[Path | None, typer.Option("--out", "-o", help="Write to this file instead of stdout.")] = None,
) -> None:
    """Generate an exam task in the style of seed 000, with its key computed by the engine."""
    from perceptronlab.teach.exams import generate

    task = generate(kind.value, seed)
    text = task.markdown(solution) if fmt is ExamFormat.md else task.latex(solution, standalone=standalone)
    if out is None:
        typer.echo(text, nl=False)
        return
    try:
        out.write_text(text, encoding="utf-8")
    except OSError as exc:
        from perceptronlab._validation import fail

        raise fail("--out", "a writable file", f"{str(out)!r} ({exc.strerror})",
                   "Check that the folder exists and is writable.") from None
    info(f"wrote {out} ({kind.value} task, seed {seed}{', with solution' if solution else ''})")


def check(
    worksheet: Annotated[Path, typer.Argument(help="The student's sheet as CSV: sweep,point,score,mistake,"
                                              "w_after (the layout of `perceptronlab trace DATA -f csv`).")],
    data: Annotated[Path | None, typer.Option("--data", "-d", help="The sheet's dataset (default: seed 000's "
                                              "exam task x1=(1,0)+, x2=(1,1)-, x3=(0,1)-).")] = None,
    intercept: Annotated[bool, typer.Option("--intercept/--no-intercept",
                                            help="The sheet has an intercept: w cells read '(w1, w2), b = v'.")]
    = False,
    eta: Annotated[str, typer.Option("--eta", help="The sheet's learning rate, exact: 1, 2, 0.5 or 1/2.")] = "1",
    label: LabelOpt = None,
    data_format: DataFormatOpt = None,
    json_output: JsonOpt = False,
) -> None:
    """Check a worksheet against the exact run: the first wrong row and the slip. Exit 0 only if all correct."""
    from perceptronlab.teach.checker import check_worksheet

    if data is None:
        from perceptronlab.datasets import exam_task

        X, y = exam_task()
    else:
        X, y = read_xy(data, label=label, fmt=data_format, exact=True)
    result = check_worksheet(worksheet, X, y, eta=eta, fit_intercept=intercept)
    if json_output:
        print_json({"ok": result.ok, "first_wrong_row": result.first_wrong_row, "slip": result.slip,
                    "slip_name": result.slip_name, "message": result.message, "expected": result.expected,
                    "got": result.got})
    else:
        typer.echo(result.verdict())
    if not result.ok:
        raise typer.Exit(1)


def register(app: typer.Typer) -> None:
    """Add ``exam`` and ``check`` to ``app``."""
    app.command("exam")(exam)
    app.command("check")(check)
