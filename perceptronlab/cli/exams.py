"""Teaching commands: ``exam`` (a generated exam task with its key) and ``check`` (a worksheet verdict).

The commands parse, call :func:`perceptronlab.teach.exams.generate` and
:func:`perceptronlab.teach.sheets.check_sheet`, and format. ``exam --data-out`` and ``--sheet-out``
hand out the task's data and a blank worksheet that carries it, so that ``check SHEET`` needs no
``--data``; a sheet without its data and without ``--data`` is refused (exit 1).
"""

from __future__ import annotations

import enum
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

if TYPE_CHECKING:
    from perceptronlab.teach.exams import Kind as LectureKind

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
    distance = "distance"
    margin_perceptron = "margin-perceptron"
    eta = "eta"
    pocket = "pocket"
    online = "online"
    # the online-learning chapter (perceptronlab.teach.online_exams): Markdown and LaTeX
    ldim = "ldim"
    halving = "halving"
    weighted_majority = "weighted-majority"
    winnow = "winnow"


class ExportFormat(str, enum.Enum):
    moodle = "moodle"
    qti = "qti"


class ExamFormat(str, enum.Enum):
    md = "md"
    latex = "latex"
    typst = "typst"
    pdf = "pdf"


ForceOpt = Annotated[
    bool,
    typer.Option(
        "--force",
        help="With --variants/--students: replace an --out folder that holds other files "
        "(a class folder written before is replaced without it).",
    ),
]
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


def _lecture_kind(kind: Kind) -> LectureKind:
    """The kind as the lecture notes' task generators name it (the online chapter's kinds are handled apart)."""
    from perceptronlab.teach.exams import KINDS

    return next(name for name in KINDS if name == kind.value)


def _write(path: Path, content: str | bytes, flag: str) -> None:
    from perceptronlab._ground.files import atomic_write

    atomic_write(path, content, what=flag)


def exam(
    kind: Annotated[
        Kind,
        typer.Option(
            "--kind",
            "-k",
            help="The task: trace (the perceptron by hand), "
            "margin (margin and mistake bound), generalization (test-error bound), "
            "distance (distance and margin of a given w), margin-perceptron, eta "
            "(the learning rate), pocket (non-separable points), online (predict "
            "before the label); from the online-learning chapter: ldim (the "
            "Littlestone dimension of a small class, with its tree), halving, "
            "weighted-majority or winnow (run by hand).",
        ),
    ],
    seed: Annotated[
        int, typer.Option("--seed", "-s", min=0, help="Seed: the same seed gives the same task.")
    ] = 0,
    fmt: Annotated[
        ExamFormat,
        typer.Option(
            "--format",
            "-f",
            help="Markdown (md), LaTeX, Typst source, or a printable PDF (pdf: needs --out; "
            "typeset by Typst, the pdf extra).",
        ),
    ] = ExamFormat.md,
    solution: Annotated[
        bool,
        typer.Option(
            "--solution/--no-solution", help="Append the worked solution (the answer key)."
        ),
    ] = False,
    standalone: Annotated[
        bool, typer.Option("--standalone", help="LaTeX: a whole document, not a fragment.")
    ] = False,
    out: Annotated[
        Path | None, typer.Option("--out", "-o", help="Write to this file instead of stdout.")
    ] = None,
    data_out: Annotated[
        Path | None,
        typer.Option(
            "--data-out", help="Also write the task's dataset as CSV (trace and margin tasks)."
        ),
    ] = None,
    sheet_out: Annotated[
        Path | None,
        typer.Option(
            "--sheet-out",
            help="Also write a blank worksheet for part (a) that carries the data, so that "
            "`perceptronlab check SHEET` needs no --data (trace tasks).",
        ),
    ] = None,
    variants: Annotated[
        int | None,
        typer.Option(
            "--variants",
            min=1,
            max=5000,
            help="A whole class: this many different variants of equal difficulty, one "
            "per student (student-001, ...), each from --seed and the student's "
            "identifier; --out names a folder that gets one file per student, "
            "_key/key.md or _key/key.pdf with every variant, variants.csv and the trace kind's "
            "sheets (built beside it and swapped in when complete).",
        ),
    ] = None,
    students: Annotated[
        Path | None,
        typer.Option(
            "--students",
            help="A roster instead of --variants: one student identifier per line (e.g. the "
            "matriculation number); a variant each.",
        ),
    ] = None,
    points: Annotated[
        str | None,
        typer.Option(
            "--points",
            help="With --variants/--students: every variant's number of data points, a count or a "
            "range (e.g. 3 or 3-4); by default all variants share one.",
        ),
    ] = None,
    mistakes: Annotated[
        str | None,
        typer.Option(
            "--mistakes",
            help="With --variants/--students: every variant's number of mistakes (updates), e.g. "
            "4-5 (kinds with a run: trace, margin-perceptron, eta, online); by default all share one.",
        ),
    ] = None,
    sweeps: Annotated[
        str | None,
        typer.Option(
            "--sweeps",
            help="With --variants/--students: every variant's number of sweeps, the clean one "
            "included, e.g. 3-4 (trace, margin-perceptron); by default all share one.",
        ),
    ] = None,
    export: Annotated[
        ExportFormat | None,
        typer.Option(
            "--export",
            help="Also write the task (every variant with --variants) for a learning-management system: "
            "moodle (Moodle XML: every number of the key a graded numerical question, the worksheet "
            "as cloze, written parts as essays) or qti (a QTI 1.2 zip for Canvas); alone it writes "
            "to --out, with --variants into the folder.",
        ),
    ] = None,
    force: ForceOpt = False,
    quiet: QuietOpt = False,
) -> None:
    """Generate an exam task in the style of the lecture notes "Perceptron Mistake Bound", with its key
    computed by the engine; or, with --variants or --students, one variant per student and one key."""
    from perceptronlab._ground.files import write_target
    from perceptronlab._ground.validation import fail
    from perceptronlab.teach.difficulty import parse_range
    from perceptronlab.teach.exams import generate
    from perceptronlab.teach.online_exams import ONLINE_KINDS

    given = {"points": points, "mistakes": mistakes, "sweeps": sweeps}
    ranges = {
        name: span
        for name, text in given.items()
        if (span := parse_range(f"--{name}", text)) is not None
    }
    if ranges and variants is None and students is None:
        raise fail(
            " / ".join(f"--{name}" for name in ranges),
            "--variants N or --students FILE (a class whose variants share it)",
            "a single task",
            "Add --variants, or drop the range (a seed gives one task as it is).",
        )
    if kind.value in ONLINE_KINDS:
        _online_exam(
            kind,
            seed,
            fmt,
            solution,
            out,
            quiet,
            unsupported={
                "--variants": variants,
                "--students": students,
                "--export": export,
                "--data-out": data_out,
                "--sheet-out": sheet_out,
                "--points/--mistakes/--sweeps": ranges or None,
            },
        )
        return
    if variants is not None or students is not None:
        if data_out is not None or sheet_out is not None or standalone:
            raise fail(
                "--variants",
                "no --data-out, --sheet-out or --standalone (each student's files go into "
                "the --out folder)",
                "one of them",
                "Drop it: the folder gets every student's data and sheet.",
            )
        _class_exam(
            kind, seed, fmt, solution, out, variants, students, quiet, export, ranges, force
        )
        return
    if export is not None:
        from perceptronlab.teach.lms_exams import export_tasks

        if out is None:
            raise fail(
                "--export",
                "--out FILE",
                "no --out",
                "Add e.g. --out exam.xml (moodle) or --out exam.zip (qti).",
            )
        task = generate(_lecture_kind(kind), seed)
        _write(
            out,
            export_tasks(
                [(f"{kind.value}-{seed}", task)],
                export.value,
                title=f"perceptronlab exam {kind.value}, seed {seed}",
            ),
            "--out",
        )
        info(f"wrote {out} ({kind.value} task, seed {seed}, {export.value})", quiet=quiet)
        return
    if fmt is ExamFormat.pdf and out is None:
        raise fail(
            "--format pdf",
            "--out FILE.pdf",
            "no --out",
            "A PDF is not printed to the terminal: add e.g. --out exam.pdf.",
        )
    for path, flag in ((out, "--out"), (data_out, "--data-out"), (sheet_out, "--sheet-out")):
        _ = path and write_target(path, flag)  # every target checked before any file is written
    task = generate(_lecture_kind(kind), seed)
    # the extra files first: a task that has no dataset or worksheet refuses before anything is written
    extras = []
    if data_out is not None:
        if "X" not in task.data:
            raise fail(
                "--data-out",
                "a task with a dataset (--kind trace or margin)",
                f"--kind {kind.value} (it gives only R*, ρ*, n and ε)",
                "Drop --data-out, or use --kind trace.",
            )
        extras.append((data_out, task.dataset_csv(), "--data-out", "dataset"))
    if sheet_out is not None:
        if kind is not Kind.trace:
            raise fail(
                "--sheet-out",
                "a trace task (its part (a) is the worksheet)",
                f"--kind {kind.value}",
                "Drop --sheet-out, or use --kind trace.",
            )
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
        info(
            f"wrote {out} ({kind.value} task, seed {seed}{', with solution' if solution else ''})",
            quiet=quiet,
        )
    for path, text, flag, what in extras:
        _write(path, text, flag)
        info(f"wrote {path} (the {what})", quiet=quiet)


def _online_exam(
    kind: Kind,
    seed: int,
    fmt: ExamFormat,
    solution: bool,
    out: Path | None,
    quiet: bool,
    unsupported: dict[str, object],
) -> None:
    """A task of the online-learning chapter (Markdown or LaTeX) with its key."""
    from perceptronlab._ground.validation import fail
    from perceptronlab.teach.online_exams import ONLINE_FORMATS, generate_online

    for flag, value in unsupported.items():
        if value is not None:
            raise fail(
                flag,
                "a task of the lecture notes' kinds (trace, margin, ...)",
                f"--kind {kind.value}",
                f"Drop {flag}: the online-learning chapter's tasks come as one Markdown or LaTeX file.",
            )
    if fmt.value not in ONLINE_FORMATS:
        raise fail(
            "--format",
            "md or latex for the online-learning chapter's tasks",
            fmt.value,
            "Use --format md or --format latex.",
        )
    content = generate_online(kind.value, seed).render(fmt.value, solution)
    if out is None:
        typer.echo(content, nl=False)
    else:
        _write(out, content, "--out")
        info(
            f"wrote {out} ({kind.value} task, seed {seed}{', with solution' if solution else ''})",
            quiet=quiet,
        )


def _class_exam(
    kind: Kind,
    seed: int,
    fmt: ExamFormat,
    solution: bool,
    out: Path | None,
    count: int | None,
    roster: Path | None,
    quiet: bool,
    export: ExportFormat | None,
    ranges: dict | None = None,
    force: bool = False,
) -> None:
    """``exam --variants N`` / ``--students FILE``: one file per student, the key apart in ``_key/``,
    ``variants.csv``, every variant of the same difficulty (``ranges``: ``--points``,
    ``--mistakes``, ``--sweeps``); the folder built beside --out and swapped in at the end."""
    from perceptronlab._ground.files import atomic_folder
    from perceptronlab._ground.validation import fail
    from perceptronlab.teach.variants import class_variants, read_students, student_ids

    if out is None:
        raise fail(
            "--variants",
            "--out DIR (a folder for the class's files)",
            "no --out",
            "Add e.g. --out class/.",
        )
    if count is not None and roster is not None:
        raise fail(
            "--students", "either --variants N or --students FILE", "both", "Drop one of them."
        )
    ids = read_students(roster) if roster is not None else student_ids(count or 1)
    if solution:
        typer.echo(
            "Warning: --solution writes each student's answer key into their own file; the "
            f"class's key is {out / KEY_FOLDER}/ anyway. Drop --solution for handouts.",
            err=True,
        )
    if fmt is ExamFormat.pdf:
        from perceptronlab.teach.typeset import compile_pdf  # noqa: F401 (the pdf extra's message first)
    interrupted = False
    try:
        with atomic_folder(out, ours=_is_class_folder, force=force) as folder:
            variants = class_variants(_lecture_kind(kind), seed, ids, ranges)
            for name, content in _class_files(kind, seed, fmt, solution, variants, export):
                (folder / name).parent.mkdir(exist_ok=True)
                _write(folder / name, content, "--out")
    except KeyboardInterrupt:
        interrupted = True
    if interrupted:  # outside the handler: the command line's own Ctrl-C line is not added
        typer.echo(
            f"Interrupted: {out} is left as it was (none of the new class's files were written).",
            err=True,
        )
        raise typer.Exit(130)
    distinct = len({v.task.markdown() for v in variants})
    ext = _EXT[fmt.value]
    info(
        f"wrote {len(variants)} variants ({distinct} distinct) of the {kind.value} task to {out}: "
        f"one .{ext} per student, {KEY_FOLDER}/key.{'pdf' if ext == 'pdf' else 'md'} with every "
        "key, variants.csv",
        quiet=quiet,
    )


#: the class folder's subfolder for the answer key (no student identifier starts with "_")
KEY_FOLDER = "_key"
_EXT = {"md": "md", "latex": "tex", "typst": "typ", "pdf": "pdf"}
_VARIANTS_HEADER = "student,variant_seed,kind,file"


def _is_class_folder(folder: Path) -> bool:
    """A folder this command wrote: its variants.csv starts with the class's header."""
    try:
        with open(folder / "variants.csv", encoding="utf-8") as handle:
            return handle.readline().strip() == _VARIANTS_HEADER
    except (OSError, UnicodeDecodeError):
        return False


def _class_files(kind: Kind, seed: int, fmt: ExamFormat, solution: bool, variants, export):
    """(name in the folder, content) of every file of the class, one at a time."""
    from perceptronlab.teach.variants import key_markdown, key_typst

    ext = _EXT[fmt.value]
    rows = [_VARIANTS_HEADER]
    for variant in variants:
        task, name = variant.task, variant.student
        if fmt is ExamFormat.pdf:
            content: str | bytes = task.pdf(solution)
        elif fmt is ExamFormat.latex:
            content = task.latex(solution, standalone=True)
        else:
            content = task.render(fmt.value, solution)
        yield f"{name}.{ext}", content
        if "X" in task.data:
            yield f"{name}-data.csv", task.dataset_csv()
        if kind is Kind.trace:
            yield f"{name}-sheet.csv", task.worksheet_csv()
        rows.append(f"{name},{variant.seed},{kind.value},{name}.{ext}")
    if fmt is ExamFormat.pdf:
        from perceptronlab.teach.typeset import compile_pdf

        yield f"{KEY_FOLDER}/key.pdf", compile_pdf(key_typst(variants, kind.value, seed))
    else:
        yield f"{KEY_FOLDER}/key.md", key_markdown(variants, kind.value, seed)
    yield "variants.csv", "\n".join(rows) + "\n"
    if export is not None:
        from perceptronlab.teach.lms_exams import export_tasks

        bank = "questions.xml" if export is ExportFormat.moodle else "questions.zip"
        title = f"perceptronlab exam {kind.value}, class seed {seed}"
        yield bank, export_tasks([(v.student, v.task) for v in variants], export.value, title=title)


def check(
    worksheet: Annotated[
        Path,
        typer.Argument(
            metavar="SHEET",
            help="The student's sheet as CSV: sweep,point,score,mistake,"
            "w_after (the layout of `perceptronlab trace DATA -f csv`); a sheet "
            "from `exam --sheet-out` carries its data in '#' lines. A folder or a "
            "zip of such sheets grades a class (see --gradebook).",
        ),
    ],
    data: Annotated[
        Path | None,
        typer.Option(
            "--data",
            "-d",
            help="The sheet's dataset. Needed unless the "
            "sheet carries its data; if it does, the two must agree.",
        ),
    ] = None,
    intercept: Annotated[
        bool | None,
        typer.Option(
            "--intercept/--no-intercept",
            help="The sheet has an intercept: w cells read '(w1, w2), b = v'. Default: the sheet's '# intercept:' "
            "line, else no.",
            show_default=False,
        ),
    ] = None,
    eta: Annotated[
        str | None,
        typer.Option(
            "--eta",
            metavar="NUMBER",
            help="The sheet's learning rate, exact: 1, 2, 0.5 or 1/2. Default: the sheet's '# eta:' "
            "line, else 1.",
        ),
    ] = None,
    label: LabelOpt = None,
    data_format: DataFormatOpt = None,
    max_bytes: MaxBytesOpt = None,
    gradebook: Annotated[
        Path | None,
        typer.Option(
            "--gradebook",
            help="For a folder or zip of sheets: write the gradebook CSV here (a row per student: "
            "points, first wrong row, slip, status, flag); the most common slips are printed.",
        ),
    ] = None,
    class_variants: VariantsFileOpt = None,
    class_roster: RosterOpt = None,
    json_output: JsonOpt = False,
) -> None:
    """Check a worksheet against the exact run: the first wrong row and the slip. Exit 0 only if all correct.

    Given a folder or a zip of sheets, grade the class: one gradebook row per sheet, and a summary of the
    most common slips.
    """
    from perceptronlab.teach.sheets import check_sheet

    is_class = worksheet.is_dir() or (worksheet.is_file() and worksheet.suffix.lower() == ".zip")
    _check_flags(
        worksheet,
        is_class,
        {"--data": data, "--eta": eta, "--intercept": intercept},
        {"--gradebook": gradebook, "--variants": class_variants, "--students": class_roster},
    )
    if is_class:
        _grade_class(worksheet, gradebook, json_output, class_variants, class_roster)
        return
    X = y = None
    if data is not None:
        X, y = read_xy(data, label=label, fmt=data_format, exact=True, max_bytes=max_bytes)
    result = check_sheet(
        worksheet,
        X,
        y,
        eta=None if eta is None else parse_number(eta, "--eta"),
        fit_intercept=intercept,
    )
    if json_output:
        print_json(
            {
                "ok": result.ok,
                "first_wrong_row": result.first_wrong_row,
                "slip": result.slip,
                "slip_name": result.slip_name,
                "message": result.message,
                "expected": result.expected,
                "got": result.got,
            }
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


def _grade_class(
    source: Path,
    gradebook: Path | None,
    json_output: bool,
    variants: Path | None = None,
    roster: Path | None = None,
) -> None:
    from perceptronlab.teach.gradebook import grade_book, gradebook_csv, slip_summary
    from perceptronlab.teach.variants import read_students

    book = grade_book(source, variants, read_students(roster) if roster is not None else None)
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
        _write(gradebook, gradebook_csv(book), "--gradebook")
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
    """Add ``exam`` and ``check`` to ``app``."""
    app.command("exam")(exam)
    app.command("check")(check)
