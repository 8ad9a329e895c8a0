r"""Grading a class: a folder (or a zip) of filled worksheets, one gradebook row per sheet and the
most common slips.

Each sheet carries its data (a blank from ``perceptronlab exam --sheet-out`` or from
``exam --variants``), so each is checked against its own student's variant by
:func:`perceptronlab.teach.sheets.check_sheet`. A sheet is part (a) of the trace task, 2 points:
1 for the first half of the sweeps, 1 for the rest and the stop, as the task's grading note says.
A sheet that cannot be read gets 0 points and the slip ``unreadable`` with the reason, and the
others are still graded.

Examples
--------
>>> from perceptronlab.teach.exams import generate
>>> task = generate("trace", 0)
>>> header = [line for line in task.worksheet_csv().splitlines() if line.startswith("#")]
>>> grade = grade_sheet("ada-sheet.csv", "\n".join(header) + "\n" + task.run.table("csv"))
>>> grade.student, grade.points, grade.slip
('ada', Fraction(2, 1), None)
"""

from __future__ import annotations

import csv
import io
import zipfile
from collections import Counter
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path

from perceptronlab._ground import validation as v
from perceptronlab.exceptions import PerceptronLabError
from perceptronlab.teach.checker import SLIPS
from perceptronlab.teach.sheets import check_sheet

#: the points of a worksheet (part (a) of the trace task)
SHEET_POINTS = Fraction(2)
#: the most sheets of one class, and the largest sheet read (a filled sheet is a few kilobytes)
MAX_SHEETS = 5000
MAX_SHEET_BYTES = 1 << 20
#: the gradebook's columns
COLUMNS = (
    "student",
    "file",
    "points",
    "out_of",
    "correct",
    "first_wrong_row",
    "slip",
    "slip_name",
    "message",
)


@dataclass(frozen=True)
class Grade:
    """One sheet's grade: the student (the file name without ``-sheet.csv``), the points of 2, the
    first wrong row and the slip (``None`` when all correct), and the checker's message."""

    student: str
    file: str
    points: Fraction
    ok: bool
    first_wrong_row: int | None
    slip: str | None
    message: str

    @property
    def slip_name(self) -> str:
        if self.slip is None:
            return ""
        return SLIPS[self.slip][0] if self.slip in SLIPS else "The sheet could not be read"


def _student(name: str) -> str:
    stem = Path(name).name.rsplit(".", 1)[0]
    return stem[: -len("-sheet")] if stem.endswith("-sheet") and len(stem) > len("-sheet") else stem


def grade_sheet(name: str, text: str) -> Grade:
    """Grade one sheet's text (it must carry its data)."""
    try:
        result = check_sheet(io.StringIO(text))
    except PerceptronLabError as exc:
        return Grade(_student(name), name, Fraction(0), False, None, "unreadable", str(exc))
    if result.ok:
        return Grade(_student(name), name, SHEET_POINTS, True, None, None, result.message)
    run = result.run
    assert (
        run is not None and run.steps is not None and result.first_wrong_row is not None
    )  # checked: a traced run
    half = max(1, run.sweeps // 2)
    first_half_rows = sum(1 for step in run.steps if step.sweep <= half)
    points = Fraction(1) if result.first_wrong_row > first_half_rows else Fraction(0)
    return Grade(
        _student(name), name, points, False, result.first_wrong_row, result.slip, result.message
    )


def _read_limited(data: bytes, name: str) -> str:
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError:
        return f"\x00unreadable: {name} is not UTF-8 text"


def class_sheets(source: str | Path) -> list[tuple[str, str]]:
    """(file name, text) of every ``.csv`` sheet in a folder or a zip, sorted by name."""
    path = Path(source)
    if path.is_dir():
        files = sorted(p for p in path.iterdir() if p.is_file() and p.suffix.lower() == ".csv")
        _check_count(len(files), str(path))
        out = []
        for file in files:
            size = file.stat().st_size
            out.append(
                (
                    file.name,
                    f"\x00unreadable: {file.name} is {size} bytes, more than a sheet"
                    if size > MAX_SHEET_BYTES
                    else _read_limited(file.read_bytes(), file.name),
                )
            )
        return out
    if path.is_file() and zipfile.is_zipfile(path):
        with zipfile.ZipFile(path) as archive:
            members = sorted(
                (
                    m
                    for m in archive.infolist()
                    if not m.is_dir()
                    and m.filename.lower().endswith(".csv")
                    and not Path(m.filename).name.startswith(".")
                    and "__MACOSX" not in m.filename
                ),
                key=lambda m: m.filename,
            )
            _check_count(len(members), str(path))
            out = []
            for member in members:
                name = Path(member.filename).name
                if member.file_size > MAX_SHEET_BYTES:
                    out.append(
                        (
                            name,
                            f"\x00unreadable: {name} is {member.file_size} bytes, more than a sheet",
                        )
                    )
                else:
                    out.append((name, _read_limited(archive.read(member), name)))
            return out
    why = "a file that is not a zip" if path.is_file() else "no such folder or file"
    raise v.fail(
        "worksheets",
        "a folder or a zip of worksheets (.csv)",
        f"{str(path)!r} ({why})",
        "Put the filled sheets in one folder, or zip them.",
    )


def _check_count(count: int, where: str) -> None:
    if count == 0:
        raise v.fail(
            "worksheets",
            "at least one .csv sheet",
            f"none in {where!r}",
            "Put the filled sheets (CSV, from `perceptronlab exam --sheet-out`) there.",
        )
    if count > MAX_SHEETS:
        raise v.fail(
            "worksheets",
            f"at most {MAX_SHEETS} sheets",
            f"{count} in {where!r}",
            "Grade the class in groups.",
        )


def is_sheet(text: str) -> bool:
    """Whether a CSV file is a worksheet: it has this package's sheet header, or its first row is the
    worksheet's column header (``sweep,point,...``); a dataset or a roster is not."""
    if text.startswith("\x00unreadable: ") or text.startswith("# perceptronlab worksheet"):
        return True
    first = next(
        (line for line in text.splitlines() if line.strip() and not line.startswith("#")), ""
    )
    return first.strip().lower().startswith("sweep")


def grade_class(source: str | Path) -> list[Grade]:
    """Grade every sheet of a folder or a zip (other CSV files, such as datasets, are left out)."""
    grades = []
    for name, text in class_sheets(source):
        if not is_sheet(text):
            continue
        if text.startswith("\x00unreadable: "):
            grades.append(
                Grade(
                    _student(name),
                    name,
                    Fraction(0),
                    False,
                    None,
                    "unreadable",
                    text[len("\x00unreadable: ") :],
                )
            )
        else:
            grades.append(grade_sheet(name, text))
    return grades


def gradebook_csv(grades: list[Grade]) -> str:
    """The gradebook: one row per sheet (:data:`COLUMNS`)."""
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(COLUMNS)
    for g in grades:
        writer.writerow(
            [
                g.student,
                g.file,
                str(g.points),
                str(SHEET_POINTS),
                "yes" if g.ok else "no",
                "" if g.first_wrong_row is None else g.first_wrong_row,
                g.slip or "",
                g.slip_name,
                " ".join(g.message.split()),
            ]
        )
    return buffer.getvalue()


def slip_summary(grades: list[Grade]) -> list[tuple[str, str, int]]:
    """(slip, its name, how many sheets) of every first slip, the most common first."""
    counts = Counter(g.slip for g in grades if g.slip is not None)
    names = {g.slip: g.slip_name for g in grades if g.slip is not None}
    return [
        (slip, names[slip], count)
        for slip, count in sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))
    ]
