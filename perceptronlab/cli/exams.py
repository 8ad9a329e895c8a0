"""Teaching commands: ``exam`` (a generated exam task with its key) and ``check`` (a worksheet verdict).

The commands parse, call :func:`perceptronlab.teach.exams.generate` and
:func:`perceptronlab.teach.sheets.check_sheet`, and format. ``exam --data-out`` and ``--sheet-out``
hand out the task's data and a blank worksheet that carries it, so that ``check SHEET`` needs no
``--data``; a sheet without its data and without ``--data`` is refused (exit 1).
"""

from __future__ import annotations

import enum
from pathlib import Path
from typing import Annotated

import typer

from perceptronlab.cli._common import (
    DataFormatOpt,
    JsonOpt,
    LabelOpt,
    MaxBytesOpt,
    QuietOpt,
    info,
    parse_number,
    print_json,
    read_xy,
)


class Kind(str, enum.Enum):
    trace = "trace"
    margin = "margin"
    generalization = "generalization"


class ExamFormat(str, enum.Enum):
    md = "md"
    latex = "latex"
    typst = "typst"
    pdf = "pdf"


def _write(path: Path, content: str | bytes, flag: str) -> None:
    from perceptronlab._ground.files import atomic_write

    atomic_write(path, content, what=flag)


def exam(
    kind: Annotated[Kind, typer.Option("--kind", "-k", help="The task: trace (the perceptron by hand), "
                                       "margin (margin and mistake bound) or generalization (test-error bound).")],
    seed: Annotated[int, typer.Option("--seed", "-s", min=0, help="Seed: the same seed gives the same task.")] = 0,
    fmt: Annotated[ExamFormat, typer.Option(
        "--format", "-f", help="Markdown (md), LaTeX, Typst source, or a printable PDF (pdf: needs --out; "
                               "typeset by Typst, the pdf extra).")] = ExamFormat.md,
    solution: Annotated[bool, typer.Option("--solution/--no-solution",
                                           help="Append the worked solution (the answer key).")] = False,
    standalone: Annotated[bool, typer.Option("--standalone", help="LaTeX: a whole document, not a fragment.")]
    = False,
    out: Annotated[Path | None, typer.Option("--out", "-o", help="Write to this file instead of stdout.")] = None,
    data_out: Annotated[Path | None, typer.Option(
        "--data-out", help="Also write the task's dataset as CSV (trace and margin tasks).")] = None,
    sheet_out: Annotated[Path | None, typer.Option(
        "--sheet-out", help="Also write a blank worksheet for part (a) that carries the data, so that "
                            "`perceptronlab check SHEET` needs no --data (trace tasks).")] = None,
    quiet: QuietOpt = False,
) -> None:
    """Generate an exam task in the style of seed 000, with its key computed by the engine."""
    from perceptronlab._ground.files import write_target
    from perceptronlab._ground.validation import fail
    from perceptronlab.teach.exams import generate

    if fmt is ExamFormat.pdf and out is None:
        raise fail("--format pdf", "--out FILE.pdf", "no --out", "A PDF is not printed to the terminal: "
                   "add e.g. --out exam.pdf.")
    for path, flag in ((out, "--out"), (data_out, "--data-out"), (sheet_out, "--sheet-out")):
        _ = path and write_target(path, flag)  # every target checked before any file is written
    task = generate(kind.value, seed)
    # the extra files first: a task that has no dataset or worksheet refuses before anything is written
    extras = []
    if data_out is not None:
        if "X" not in task.data:
            raise fail("--data-out", "a task with a dataset (--kind trace or margin)",
                       f"--kind {kind.value} (it gives only R*, ρ*, n and ε)", "Drop --data-out, or use --kind trace.")
        extras.append((data_out, task.dataset_csv(), "--data-out", "dataset"))
    if sheet_out is not None:
        if kind is not Kind.trace:
            raise fail("--sheet-out", "a trace task (its part (a) is the worksheet)", f"--kind {kind.value}",
                       "Drop --sheet-out, or use --kind trace.")
        extras.append((sheet_out, task.worksheet_csv(), "--sheet-out", "blank worksheet"))
    if fmt is ExamFormat.pdf:
        content: str | bytes = task.pdf(solution)
    elif fmt is ExamFormat.latex:
        content = task.latex(solution, standalone=standalone)
    else:
        content = task.render(fmt.value, solution)
    if out is None:
        typer.echo(content, nl=False)
    else:
        _write(out, content, "--out")
        info(f"wrote {out} ({kind.value} task, seed {seed}{', with solution' if solution else ''})", quiet=quiet)
    for path, text, flag, what in extras:
        _write(path, text, flag)
        info(f"wrote {path} (the {what})", quiet=quiet)


def check(
    worksheet: Annotated[Path, typer.Argument(metavar="SHEET", help="The student's sheet as CSV: sweep,point,score,mistake,"
                                              "w_after (the layout of `perceptronlab trace DATA -f csv`); a sheet "
                                              "from `exam --sheet-out` carries its data in '#' lines.")],
    data: Annotated[Path | None, typer.Option("--data", "-d", help="The sheet's dataset. Needed unless the "
                                              "sheet carries its data; if it does, the two must agree.")] = None,
    intercept: Annotated[bool | None, typer.Option(
        "--intercept/--no-intercept",
        help="The sheet has an intercept: w cells read '(w1, w2), b = v'. Default: the sheet's '# intercept:' "
             "line, else no.", show_default=False)] = None,
    eta: Annotated[str | None, typer.Option(
        "--eta", metavar="NUMBER", help="The sheet's learning rate, exact: 1, 2, 0.5 or 1/2. Default: the sheet's '# eta:' "
                      "line, else 1.")] = None,
    label: LabelOpt = None,
    data_format: DataFormatOpt = None,
    max_bytes: MaxBytesOpt = None,
    json_output: JsonOpt = False,
) -> None:
    """Check a worksheet against the exact run: the first wrong row and the slip. Exit 0 only if all correct."""
    from perceptronlab.teach.sheets import check_sheet

    X = y = None
    if data is not None:
        X, y = read_xy(data, label=label, fmt=data_format, exact=True, max_bytes=max_bytes)
    result = check_sheet(worksheet, X, y, eta=None if eta is None else parse_number(eta, "--eta"),
                         fit_intercept=intercept)
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
