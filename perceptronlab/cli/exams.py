"""``exam``: a generated exam task with its key, or a whole class's variants (a folder).

The command parses, calls :func:`perceptronlab.teach.exams.generate` (or
:func:`perceptronlab.teach.variants.class_variants`), and formats. ``exam --data-out`` and
``--sheet-out`` hand out the task's data and a blank worksheet that carries it, so that ``check
SHEET`` (:mod:`perceptronlab.cli.check`) needs no ``--data``.
"""

from __future__ import annotations

import enum
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

if TYPE_CHECKING:
    from perceptronlab.teach.exams import Kind as LectureKind

from perceptronlab.cli._common import (
    ExportFormat,
    QuietOpt,
    export_out,
    info,
)
from perceptronlab.cli._groups import option_group


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


def _lecture_kind(kind: Kind) -> LectureKind:
    """The kind as the lecture notes' task generators name it (the online chapter's kinds are handled apart)."""
    from perceptronlab.teach.exams import KINDS

    return next(name for name in KINDS if name == kind.value)


def _write(path: Path, content: str | bytes, flag: str) -> None:
    from perceptronlab._ground.files import atomic_write

    atomic_write(path, content, what=flag)


KindOpt = Annotated[
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
]
ExamSeedOpt = Annotated[
    int, typer.Option("--seed", "-s", min=0, help="Seed: the same seed gives the same task.")
]
ExamFormatOpt = Annotated[
    ExamFormat,
    typer.Option(
        "--format",
        "-f",
        help="Markdown (md), LaTeX, Typst source, or a printable PDF (pdf: needs --out; "
        "typeset by Typst, the pdf extra).",
    ),
]
SolutionOpt = Annotated[
    bool,
    typer.Option("--solution/--no-solution", help="Append the worked solution (the answer key)."),
]
StandaloneOpt = Annotated[
    bool, typer.Option("--standalone", help="LaTeX: a whole document, not a fragment.")
]
ExamOutOpt = Annotated[
    Path | None, typer.Option("--out", "-o", help="Write to this file instead of stdout.")
]
DataOutOpt = Annotated[
    Path | None,
    typer.Option(
        "--data-out", help="Also write the task's dataset as CSV (trace and margin tasks)."
    ),
]
SheetOutOpt = Annotated[
    Path | None,
    typer.Option(
        "--sheet-out",
        help="Also write a blank worksheet for part (a) that carries the data, so that "
        "`perceptronlab check SHEET` needs no --data (trace tasks).",
    ),
]
VariantsOpt = Annotated[
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
]
StudentsOpt = Annotated[
    Path | None,
    typer.Option(
        "--students",
        help="A roster instead of --variants: one student identifier per line (e.g. the "
        "matriculation number); a variant each.",
    ),
]
PointsOpt = Annotated[
    str | None,
    typer.Option(
        "--points",
        help="With --variants/--students: every variant's number of data points, a count or a "
        "range (e.g. 3 or 3-4); by default all variants share one.",
    ),
]
MistakesOpt = Annotated[
    str | None,
    typer.Option(
        "--mistakes",
        help="With --variants/--students: every variant's number of mistakes (updates), e.g. "
        "4-5 (kinds with a run: trace, margin-perceptron, eta, online); by default all share one.",
    ),
]
SweepsOpt = Annotated[
    str | None,
    typer.Option(
        "--sweeps",
        help="With --variants/--students: every variant's number of sweeps, the clean one "
        "included, e.g. 3-4 (trace, margin-perceptron); by default all share one.",
    ),
]
ExportOpt = Annotated[
    ExportFormat | None,
    typer.Option(
        "--export",
        help="Also write the task (every variant with --variants) for a learning-management system: "
        "moodle (Moodle XML: every number of the key a graded numerical question, the worksheet "
        "as cloze, written parts as essays) or qti (a QTI 1.2 zip for Canvas); alone it writes "
        "to --out, with --variants into the folder.",
    ),
]


@option_group("The task")
class TaskOptions:
    """Which task, from which seed, in which format, with or without its worked solution."""

    kind: KindOpt
    seed: ExamSeedOpt = 0
    fmt: ExamFormatOpt = ExamFormat.md
    solution: SolutionOpt = False

    @property
    def what(self) -> str:
        """The task in a note: ``trace task, seed 3``."""
        return f"{self.kind.value} task, seed {self.seed}"


@option_group("A whole class")
class ClassOptions:
    """A variant per student (--variants or --students), of equal difficulty (--points,
    --mistakes, --sweeps), into an --out folder (--force)."""

    variants: VariantsOpt = None
    students: StudentsOpt = None
    points: PointsOpt = None
    mistakes: MistakesOpt = None
    sweeps: SweepsOpt = None
    force: ForceOpt = False

    @property
    def given(self) -> bool:
        """Whether a class is asked for (--variants or --students)."""
        return self.variants is not None or self.students is not None

    def ranges(self) -> dict:
        """--points, --mistakes and --sweeps as ranges (only those given); refused without a
        class."""
        from perceptronlab._ground.validation import fail
        from perceptronlab.teach.difficulty import parse_range

        given = {"points": self.points, "mistakes": self.mistakes, "sweeps": self.sweeps}
        ranges = {
            name: span
            for name, text in given.items()
            if (span := parse_range(f"--{name}", text)) is not None
        }
        if ranges and not self.given:
            raise fail(
                " / ".join(f"--{name}" for name in ranges),
                "--variants N or --students FILE (a class whose variants share it)",
                "a single task",
                "Add --variants, or drop the range (a seed gives one task as it is).",
            )
        return ranges


def exam(
    task: TaskOptions,
    standalone: StandaloneOpt = False,
    out: ExamOutOpt = None,
    data_out: DataOutOpt = None,
    sheet_out: SheetOutOpt = None,
    whole_class: ClassOptions = ClassOptions(),
    export: ExportOpt = None,
    quiet: QuietOpt = False,
) -> None:
    """Generate an exam task in the style of the lecture notes "Perceptron Mistake Bound", with its key
    computed by the engine; or, with --variants or --students, one variant per student and one key."""
    from perceptronlab._ground.validation import fail
    from perceptronlab.teach.online_exams import ONLINE_KINDS

    ranges = whole_class.ranges()
    if task.kind.value in ONLINE_KINDS:
        _online_exam(
            task,
            out,
            quiet,
            unsupported={
                "--variants": whole_class.variants,
                "--students": whole_class.students,
                "--export": export,
                "--data-out": data_out,
                "--sheet-out": sheet_out,
                "--points/--mistakes/--sweeps": ranges or None,
            },
        )
        return
    if whole_class.given:
        if data_out is not None or sheet_out is not None or standalone:
            raise fail(
                "--variants",
                "no --data-out, --sheet-out or --standalone (each student's files go into "
                "the --out folder)",
                "one of them",
                "Drop it: the folder gets every student's data and sheet.",
            )
        _class_exam(task, out, whole_class, ranges, quiet, export)
        return
    if export is not None:
        _export_exam(task, export, out, quiet)
        return
    _single_exam(task, standalone, (out, data_out, sheet_out), quiet)


def _export_exam(task: TaskOptions, export: ExportFormat, out: Path | None, quiet: bool) -> None:
    """``exam --export``: one task for a learning-management system, written to --out."""
    from perceptronlab.teach.exams import generate
    from perceptronlab.teach.lms_exams import export_tasks

    kind, seed = task.kind, task.seed
    out = export_out(out, "exam")
    generated = generate(_lecture_kind(kind), seed)
    _write(
        out,
        export_tasks(
            [(f"{kind.value}-{seed}", generated)],
            export.value,
            title=f"perceptronlab exam {kind.value}, seed {seed}",
        ),
        "--out",
    )
    info(f"wrote {out} ({task.what}, {export.value})", quiet=quiet)


def _single_exam(
    task: TaskOptions,
    standalone: bool,
    targets: tuple[Path | None, Path | None, Path | None],
    quiet: bool,
) -> None:
    """One task (--standalone: a whole LaTeX document) to stdout or --out, and its dataset and
    blank worksheet (``targets``: --out, --data-out, --sheet-out), every target checked first."""
    from perceptronlab._ground.files import write_target
    from perceptronlab._ground.validation import fail
    from perceptronlab.teach.exams import generate

    out, data_out, sheet_out = targets
    if task.fmt is ExamFormat.pdf and out is None:
        raise fail(
            "--format pdf",
            "--out FILE.pdf",
            "no --out",
            "A PDF is not printed to the terminal: add e.g. --out exam.pdf.",
        )
    for path, flag in ((out, "--out"), (data_out, "--data-out"), (sheet_out, "--sheet-out")):
        _ = path and write_target(path, flag)  # every target checked before any file is written
    generated = generate(_lecture_kind(task.kind), task.seed)
    # the extra files first: a task that has no dataset or worksheet refuses before anything is written
    extras = _extra_files(generated, task.kind, data_out, sheet_out)
    content = _rendered(generated, task, standalone)
    _print_task(content, out, task, quiet)
    for path, text, flag, what in extras:
        _write(path, text, flag)
        info(f"wrote {path} (the {what})", quiet=quiet)


def _rendered(generated: Any, task: TaskOptions, standalone: bool) -> str | bytes:
    """A generated task in --format (a PDF's bytes), with its solution if --solution."""
    if task.fmt is ExamFormat.pdf:
        return generated.pdf(task.solution)
    if task.fmt is ExamFormat.latex:
        return generated.latex(task.solution, standalone=standalone)
    return generated.render(task.fmt.value, task.solution)


def _print_task(content: str | bytes, out: Path | None, task: TaskOptions, quiet: bool) -> None:
    """The task on stdout, or written to --out with a line saying so."""
    if out is None:
        typer.echo(content, nl=False)
    else:
        _write(out, content, "--out")
        solved = ", with solution" if task.solution else ""
        info(f"wrote {out} ({task.what}{solved})", quiet=quiet)


def _extra_files(
    task: Any, kind: Kind, data_out: Path | None, sheet_out: Path | None
) -> list[tuple[Path, str, str, str]]:
    """(path, content, flag, what) of --data-out and --sheet-out; refused for a task without a
    dataset or a worksheet."""
    from perceptronlab._ground.validation import fail

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
    return extras


def _online_exam(
    task: TaskOptions, out: Path | None, quiet: bool, unsupported: dict[str, object]
) -> None:
    """A task of the online-learning chapter (Markdown or LaTeX) with its key."""
    from perceptronlab._ground.validation import fail
    from perceptronlab.teach.online_exams import ONLINE_FORMATS, generate_online

    kind, fmt = task.kind, task.fmt

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
    content = generate_online(kind.value, task.seed).render(fmt.value, task.solution)
    _print_task(content, out, task, quiet)


def _class_exam(
    task: TaskOptions,
    out: Path | None,
    whole_class: ClassOptions,
    ranges: dict,
    quiet: bool,
    export: ExportFormat | None,
) -> None:
    """``exam --variants N`` / ``--students FILE``: one file per student, the key apart in ``_key/``,
    ``variants.csv``, every variant of the same difficulty (``ranges``: ``--points``,
    ``--mistakes``, ``--sweeps``); the folder built beside --out and swapped in at the end."""
    from perceptronlab._ground.files import atomic_folder
    from perceptronlab._ground.validation import fail
    from perceptronlab.teach.variants import class_variants, read_students, student_ids

    kind, count, roster = task.kind, whole_class.variants, whole_class.students

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
    if task.solution:
        typer.echo(
            "Warning: --solution writes each student's answer key into their own file; the "
            f"class's key is {out / KEY_FOLDER}/ anyway. Drop --solution for handouts.",
            err=True,
        )
    if task.fmt is ExamFormat.pdf:
        from perceptronlab.teach.typeset import compile_pdf  # noqa: F401 (the pdf extra's message first)
    interrupted = False
    try:
        with atomic_folder(out, ours=_is_class_folder, force=whole_class.force) as folder:
            variants = class_variants(_lecture_kind(kind), task.seed, ids, ranges)
            for name, content in _class_files(task, variants, export):
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
    ext = _EXT[task.fmt.value]
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


def _class_files(task: TaskOptions, variants, export):
    """(name in the folder, content) of every file of the class, one at a time."""
    from perceptronlab.teach.variants import key_markdown, key_typst

    kind, seed, fmt = task.kind, task.seed, task.fmt
    ext = _EXT[fmt.value]
    rows = [_VARIANTS_HEADER]
    for variant in variants:
        generated, name = variant.task, variant.student
        yield f"{name}.{ext}", _rendered(generated, task, standalone=True)
        if "X" in generated.data:
            yield f"{name}-data.csv", generated.dataset_csv()
        if kind is Kind.trace:
            yield f"{name}-sheet.csv", generated.worksheet_csv()
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


def register(app: typer.Typer) -> None:
    """Add ``exam`` to ``app``."""
    app.command("exam")(exam)
