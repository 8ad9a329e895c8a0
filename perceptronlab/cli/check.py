"""``check``: a student's worksheet against the exact run (the first wrong row and the slip), or a
class's folder or zip of sheets graded into a gradebook.

The command parses, calls :func:`perceptronlab.teach.sheets.check_sheet` (one sheet) or
:func:`perceptronlab.teach.gradebook.grade_book` (a class), and formats. A sheet from ``exam
--sheet-out`` carries its data, so that ``check SHEET`` needs no ``--data``; a sheet without its data
and without ``--data`` is refused (exit 1).
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from perceptronlab.cli._common import JsonOpt, TableOptions, parse_number, print_json, record
from perceptronlab.cli._groups import option_group

VariantsFileOpt = Annotated[
    Path | None,
    typer.Option(
        "--variants",
        metavar="FILE",
        help="For a folder or zip of sheets: the class's variants.csv (from `exam --variants/"
        "--students --out DIR`), when it is not in the folder; each sheet is then checked "
        "against its student's own variant, and missing students are listed.",
    ),
]
RosterOpt = Annotated[
    Path | None,
    typer.Option(
        "--students",
        metavar="FILE",
        help="For a folder or zip of sheets: grade only these students of the class (a "
        "roster, one identifier per line).",
    ),
]


SheetArg = Annotated[
    Path,
    typer.Argument(
        metavar="SHEET",
        help="The student's sheet as CSV: sweep,point,score,mistake,"
        "w_after (the layout of `perceptronlab trace DATA -f csv`); a sheet "
        "from `exam --sheet-out` carries its data in '#' lines. A folder or a "
        "zip of such sheets grades a class (see --gradebook).",
    ),
]
SheetDataOpt = Annotated[
    Path | None,
    typer.Option(
        "--data",
        "-d",
        help="The sheet's dataset. Needed unless the "
        "sheet carries its data; if it does, the two must agree.",
    ),
]
SheetInterceptOpt = Annotated[
    bool | None,
    typer.Option(
        "--intercept/--no-intercept",
        help="The sheet has an intercept: w cells read '(w1, w2), b = v'. Default: the sheet's '# intercept:' "
        "line, else no.",
        show_default=False,
    ),
]
SheetEtaOpt = Annotated[
    str | None,
    typer.Option(
        "--eta",
        metavar="NUMBER",
        help="The sheet's learning rate, exact: 1, 2, 0.5 or 1/2. Default: the sheet's '# eta:' "
        "line, else 1.",
    ),
]
GradebookOpt = Annotated[
    Path | None,
    typer.Option(
        "--gradebook",
        help="For a folder or zip of sheets: write the gradebook CSV here (a row per student: "
        "points, first wrong row, slip, status, flag); the most common slips are printed.",
    ),
]


@option_group("One sheet")
class SheetOptions:
    """What one sheet is checked against: its dataset, intercept and learning rate (each by
    default the sheet's own)."""

    data: SheetDataOpt = None
    intercept: SheetInterceptOpt = None
    eta: SheetEtaOpt = None

    @property
    def flags(self) -> dict[str, object]:
        return {"--data": self.data, "--eta": self.eta, "--intercept": self.intercept}


@option_group("A class's sheets")
class GradingOptions:
    """A folder or zip of sheets graded: the gradebook to write, the class's variants and roster."""

    gradebook: GradebookOpt = None
    class_variants: VariantsFileOpt = None
    class_roster: RosterOpt = None

    @property
    def flags(self) -> dict[str, object]:
        return {
            "--gradebook": self.gradebook,
            "--variants": self.class_variants,
            "--students": self.class_roster,
        }


def check(
    worksheet: SheetArg,
    sheet: SheetOptions = SheetOptions(),
    table: TableOptions = TableOptions(),
    grading: GradingOptions = GradingOptions(),
    json_output: JsonOpt = False,
) -> None:
    """Check a worksheet against the exact run: the first wrong row and the slip. Exit 0 only if all correct.

    Given a folder or a zip of sheets, grade the class: one gradebook row per sheet, and a summary of the
    most common slips.
    """
    from perceptronlab.teach.sheets import check_sheet

    is_class = worksheet.is_dir() or (worksheet.is_file() and worksheet.suffix.lower() == ".zip")
    _check_flags(worksheet, is_class, sheet.flags, grading.flags)
    if is_class:
        _grade_class(worksheet, grading, json_output)
        return
    X = y = None
    if sheet.data is not None:
        X, y = table.read(sheet.data, exact=True)
    result = check_sheet(
        worksheet,
        X,
        y,
        eta=None if sheet.eta is None else parse_number(sheet.eta, "--eta"),
        fit_intercept=sheet.intercept,
    )
    if json_output:
        print_json(
            record(
                result, "ok", "first_wrong_row", "slip", "slip_name", "message", "expected", "got"
            )
        )
    else:
        typer.echo(result.verdict())
    if not result.ok:
        raise typer.Exit(1)


def _check_flags(
    worksheet: Path, is_class: bool, sheet_flags: dict[str, object], class_flags: dict[str, object]
) -> None:
    """Refuse the flags of one sheet for a class (each sheet carries its own), and the reverse."""
    from perceptronlab._ground.validation import fail

    if is_class and any(value is not None for value in sheet_flags.values()):
        raise fail(
            "--data",
            "no --data, --eta or --intercept for a class (each sheet carries its own)",
            "one of them",
            "Drop it; grade sheets written by `perceptronlab exam --sheet-out`.",
        )
    for flag, value in class_flags.items():
        if value is not None and not is_class:
            raise fail(
                flag,
                "a folder or a zip of sheets as SHEET",
                f"{str(worksheet)!r}, one sheet",
                f"Pass the folder of the class's sheets, or drop {flag}.",
            )


def _grade_class(source: Path, grading: GradingOptions, json_output: bool) -> None:
    from perceptronlab.teach.gradebook import grade_book, gradebook_csv, slip_summary
    from perceptronlab.teach.variants import read_students

    roster, gradebook = grading.class_roster, grading.gradebook
    book = grade_book(
        source,
        grading.class_variants,
        read_students(roster) if roster is not None else None,
    )
    if not book.sheets and not any(g.status == "missing" for g in book.grades):
        from perceptronlab._ground.validation import fail

        raise fail(
            "worksheets",
            "at least one worksheet (a .csv file with the columns sweep,point,...)",
            f"{len(book.grades)} files, none a worksheet",
            "Put the filled sheets (from `perceptronlab exam --sheet-out`) there.",
        )
    summary = slip_summary(book.sheets)
    if gradebook is not None:
        from perceptronlab._ground.files import atomic_write

        atomic_write(gradebook, gradebook_csv(book), what="--gradebook")
    if json_output:
        print_json(
            {
                "sheets": len(book.sheets),
                "correct": sum(g.ok for g in book.sheets),
                "grades": [
                    {
                        "student": g.student,
                        "file": g.file,
                        "points": str(g.points),
                        "ok": g.ok,
                        "first_wrong_row": g.first_wrong_row,
                        "slip": g.slip,
                        "status": g.status,
                        "flag": g.flag,
                        "message": g.message,
                    }
                    for g in book.grades
                ],
                "slips": [
                    {"slip": slip, "name": name, "sheets": count} for slip, name, count in summary
                ],
                "notes": book.notes,
            }
        )
        return
    for line in _class_lines(book, gradebook, summary):
        typer.echo(line)


def _class_lines(book, gradebook: Path | None, summary: list[tuple[str, str, int]]) -> list[str]:
    """The class's grading for a terminal: the counts, the flags, the most common slips, the notes."""
    from perceptronlab._ground.numbers import format_count
    from perceptronlab.teach.gradebook import SHEET_POINTS

    sheets = book.sheets
    status = {s: [g for g in book.grades if g.status == s] for s in ("missing", "skipped")}
    scored = [g for g in book.grades if g.status in ("graded", "duplicate", "missing")]
    mean = sum(g.points for g in scored) / max(1, len(scored))
    lines = [
        f"{format_count(len(sheets), 'sheet')}: {sum(g.ok for g in sheets)} fully correct; mean "
        f"{float(mean):.2g} of {SHEET_POINTS} points"
        + (f" ({len(status['missing'])} missing, 0 points)" if status["missing"] else "")
        + "."
        + (f" Gradebook: {gradebook}." if gradebook is not None else "")
    ]
    if summary:
        lines.append("Most common first slips:")
        lines += [f"  {format_count(c, 'sheet'):>10}  {name} [{slip}]" for slip, name, c in summary]
    if status["missing"]:
        names = [g.student for g in status["missing"]]
        more = f" and {len(names) - 10} more" if len(names) > 10 else ""
        lines.append(f"Missing (no sheet, 0 points): {', '.join(names[:10])}{more}.")
    flagged = [g for g in book.grades if g.flag or g.status == "unmatched"]
    if flagged:
        lines.append("To look at:")
        lines += [
            f"  {g.status:<9}  {g.student or g.file}: {g.flag or g.message}" for g in flagged[:50]
        ]
        if len(flagged) > 50:
            lines.append(f"  ... and {len(flagged) - 50} more (see the gradebook)")
    if status["skipped"]:
        lines.append(
            f"{format_count(len(status['skipped']), 'file')} skipped (listed in the gradebook "
            f"with why), e.g. {status['skipped'][0].file}: {status['skipped'][0].message}"
        )
    return lines + book.notes


def register(app: typer.Typer) -> None:
    """Add ``check`` to ``app``."""
    app.command("check")(check)
