r"""Grading a class: a folder (or a zip) of filled worksheets, one gradebook row per student and the
most common slips.

Against the class (:func:`grade_book` with the class's ``variants.csv``, found in the folder or the
zip or given apart): each sheet is matched to its student by its name
(:meth:`perceptronlab.teach.classkey.ClassKey.match`) and its data compared with that student's
variant, made again from the variant's seed. A sheet that carries another student's data gets 0 points
and a flag naming whose variant it is (a copied sheet); a sheet without data lines is checked
against the student's own data. Every student of the class without a sheet gets a row ``missing``
with 0 points; a sheet that names no student is listed ``unmatched``, two sheets of one student
``duplicate``, and every file that was not read (not a ``.csv``, a dangling link, a FIFO, ...)
``skipped`` with why. Without a ``variants.csv``, each sheet is graded against the data it
carries (the file's name gives the student).

A sheet is part (a) of the trace task, 2 points: 1 for the first half of the sweeps, 1 for the rest
and the stop, as the task's grading note says. The rows of a half earn its point when each is the
right step from the student's own w before it (follow-through: one wrong cell costs its half,
not the rows after it); only a fully correct sheet earns 2. A sheet that cannot be read gets 0
points and the slip ``unreadable`` with the reason, and the others are still graded.

Files are read one at a time under a budget of decompressed bytes for the whole class
(:mod:`perceptronlab.teach.handin`). Every cell of the gradebook CSV that a spreadsheet would take
for a formula (it starts with ``=``, ``+``, ``-``, ``@``, a tab or a carriage return) is written
with a leading ``'``.

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
import re
from collections import Counter, defaultdict
from collections.abc import Iterator
from dataclasses import dataclass, field, replace
from fractions import Fraction
from pathlib import Path

from perceptronlab._ground import validation as v
from perceptronlab.exceptions import PerceptronLabError
from perceptronlab.teach.checker import SLIPS, follow_through
from perceptronlab.teach.classkey import (
    ClassKey,
    read_class_key,
    same_data,
    table_rows,
    title_of,
)
from perceptronlab.teach.handin import MAX_SHEET_BYTES, Entry, HandIns, printable
from perceptronlab.teach.sheets import SheetHeader, check_sheet, sheet_parts

__all__ = [
    "COLUMNS",
    "Book",
    "Grade",
    "MAX_SHEET_BYTES",
    "grade_book",
    "grade_class",
    "grade_sheet",
    "gradebook_csv",
    "is_sheet",
    "slip_summary",
]

#: the points of a worksheet (part (a) of the trace task)
SHEET_POINTS = Fraction(2)
#: the most sheets of one class
MAX_SHEETS = 5000
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
    "status",
    "flag",
    "message",
)
#: the gradebook's own slips (beside the checker's :data:`SLIPS`)
BOOK_SLIPS = {
    "unreadable": "The sheet could not be read",
    "blank": "The sheet is not filled in",
    "wrong-variant": "The data is not the student's variant",
}
_FORMULA = ("=", "+", "-", "@", "\t", "\r")


@dataclass(frozen=True)
class Grade:
    """One row of the gradebook: the student, the file, the points of 2, the first wrong row and the
    slip (``None`` when all correct), the checker's message; ``status`` is ``graded``, ``missing``
    (no sheet), ``unmatched`` (a sheet that names no student), ``duplicate`` (one of two sheets of
    a student) or ``skipped`` (a file not graded), and ``flag`` says what the instructor should look
    at (e.g. whose variant a copied sheet carries)."""

    student: str
    file: str
    points: Fraction
    ok: bool
    first_wrong_row: int | None
    slip: str | None
    message: str
    status: str = "graded"
    flag: str = ""

    @property
    def slip_name(self) -> str:
        if self.slip is None:
            return ""
        return SLIPS[self.slip][0] if self.slip in SLIPS else BOOK_SLIPS.get(self.slip, self.slip)


@dataclass
class Book:
    """A graded class: the rows (students first, in the class's order, then the other files) and
    notes for the instructor (one line each)."""

    grades: list[Grade] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    @property
    def sheets(self) -> list[Grade]:
        """The rows of graded sheets (not the missing students or the skipped files)."""
        return [g for g in self.grades if g.status in ("graded", "duplicate", "unmatched")]


def _student(name: str) -> str:
    parts = name.split("/")
    stem = parts[-1].rsplit(".", 1)[0]
    moodle = re.match(r"(.+?)_[^_]*_assignsubmission_", parts[-2]) if len(parts) > 1 else None
    if moodle and stem.lower() in ("sheet", "worksheet", "sheet-filled"):
        return moodle.group(1)  # Moodle's folder: "<full name>_<id>_assignsubmission_file_"
    return stem[: -len("-sheet")] if stem.endswith("-sheet") and len(stem) > len("-sheet") else stem


def _unreadable(student: str, name: str, why: str) -> Grade:
    return Grade(student, name, Fraction(0), False, None, "unreadable", why)


def grade_sheet(name: str, text: str, own: SheetHeader | None = None) -> Grade:
    """Grade one sheet's text: against ``own`` (the data of the student's variant) or, without it,
    against the data the sheet carries."""
    student = _student(name)
    try:
        header, table = sheet_parts(text)
        data = own if own is not None else header
        if not data.has_data:
            return _unreadable(student, name, "the sheet carries no '# data:' lines")
        if _blank(table):
            message = "The sheet is not filled in: every score cell is empty."
            return Grade(student, name, Fraction(0), False, None, "blank", message)
        X, y = [list(x) for x in data.X], list(data.y)
        eta = data.eta if data.eta is not None else 1
        intercept = bool(data.fit_intercept)
        result = check_sheet(io.StringIO(table), X, y, eta=eta, fit_intercept=intercept)
        if result.ok:
            return Grade(student, name, SHEET_POINTS, True, None, None, result.message)
        run = result.run
        assert run is not None and result.first_wrong_row is not None  # checked: a traced run
        own_rows = follow_through(io.StringIO(table), X, y, eta=eta, fit_intercept=intercept)
    except PerceptronLabError as exc:
        return _unreadable(student, name, str(exc))
    half = max(1, run.sweeps // 2)
    first = [ok for sweep, ok in own_rows.right if sweep <= half]
    rest = [ok for sweep, ok in own_rows.right if sweep > half]
    earned = (len(first) >= len(X) * half and all(first)) + (
        bool(rest) and all(rest) and own_rows.ends_right
    )
    points = Fraction(min(1, int(earned)))  # a sheet with a wrong row never earns both
    return Grade(student, name, points, False, result.first_wrong_row, result.slip, result.message)


def _blank(table: str) -> bool:
    """A table whose every row leaves its score cell empty (a blank sheet handed in)."""
    rows = table_rows(table)
    return bool(rows) and all(len(r) < 3 or not r[2] for r in rows)


def is_sheet(text: str) -> bool:
    """Whether a CSV file is a worksheet: it has this package's sheet header, or its first row is the
    worksheet's column header (``sweep,point,...``); a dataset or a roster is not."""
    head = text[:65536]
    if head.startswith("# perceptronlab worksheet"):
        return True
    first = next(
        (line for line in head.splitlines() if line.strip() and not line.startswith("#")), ""
    )
    return first.strip().lower().startswith("sweep")


def _candidates(hand: HandIns) -> Iterator[tuple[Entry, str, str]]:
    """(entry, its text, why it could not be read) of every file, read one at a time (a file that
    is not a .csv file with why it is skipped)."""
    _check_count(sum(1 for e in hand.entries if e.csv), str(hand.path))
    for entry in hand.entries:
        text, why = hand.text(entry)
        yield entry, text, why


def grade_class(source: str | Path) -> list[Grade]:
    """Grade every sheet of a folder or a zip against the data each one carries (other CSV files,
    such as datasets, are left out)."""
    return grade_book(source, key=False).sheets


def grade_book(
    source: str | Path,
    variants: str | Path | None = None,
    roster: list[str] | None = None,
    *,
    key: bool = True,
) -> Book:
    """Grade a class's folder or zip; against its ``variants.csv`` (``variants``, else the one in
    the folder or zip) unless ``key`` is false or there is none; ``roster`` restricts the class to
    those students."""
    with HandIns(source) as hand:
        book = Book()
        class_key = _class_key(hand, variants) if key else None
        if class_key is None and roster:
            raise v.fail(
                "--students",
                "the class's variants.csv (in the folder or the zip, or --variants FILE)",
                "none",
                "Pass --variants with the variants.csv that `exam --students` wrote.",
            )
        if class_key is None:
            if key:
                book.notes.append(
                    "No variants.csv: each sheet was graded against the data it carries, so a "
                    "copy of another student's sheet is not detected (pass --variants FILE)."
                )
            _grade_own(hand, book)
        else:
            _grade_against(hand, class_key.restrict(roster) if roster else class_key, book)
        if hand.unread:
            book.notes.append(
                f"The class's budget of {hand.budget >> 20} MiB of decompressed text was spent: "
                f"{hand.unread} files were not read (each listed as unreadable)."
            )
    return book


def _class_key(hand: HandIns, variants: str | Path | None) -> ClassKey | None:
    if variants is not None:
        from perceptronlab.teach.checker import read_sheet_file

        return read_class_key(read_sheet_file(variants), printable(str(variants)))
    found = [e for e in hand.entries if e.basename.lower() == "variants.csv" and not e.skip]
    if not found:
        return None
    text, why = hand.text(min(found, key=lambda e: e.name.count("/")))
    if why:
        raise v.fail("variants.csv", "a readable file", why, "Pass it with --variants FILE.")
    return read_class_key(text, found[0].name)


def _grade_own(hand: HandIns, book: Book) -> None:
    """Each sheet against the data it carries."""
    for entry, text, why in _candidates(hand):
        name = entry.name
        if not entry.csv:
            book.grades.append(_skipped(name, why))
        elif why:
            book.grades.append(_unreadable(_student(name), name, why))
        elif is_sheet(text):
            book.grades.append(grade_sheet(name, text))
        else:
            book.grades.append(_skipped(name, "a CSV file that is not a worksheet"))
    _mark_duplicates(book.grades, lambda g: g.student.lower())


def _skipped(name: str, why: str) -> Grade:
    return Grade("", name, Fraction(0), False, None, None, why, status="skipped")


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


def _grade_against(hand: HandIns, key: ClassKey, book: Book) -> None:
    """Each sheet against its student's variant; the missing students and other files listed."""
    by_student: dict[str, list[Grade]] = defaultdict(list)
    others: list[Grade] = []
    for entry, text, why in _candidates(hand):
        name = entry.name
        if name == key.where or not entry.csv:
            if name != key.where:
                others.append(_skipped(name, why))
            continue
        student, unmatched = key.match(name)
        if not why and not is_sheet(text):
            others.append(_skipped(name, "a CSV file that is not a worksheet"))
        elif student is None:
            others.append(
                Grade("", name, Fraction(0), False, None, None, unmatched, status="unmatched")
            )
        elif why:
            by_student[student].append(_unreadable(student, name, why))
        else:
            by_student[student].append(_grade_variant(key, student, name, text))
    for student in key.students:
        grades = by_student.get(student) or [
            Grade(
                student, "", Fraction(0), False, None, None, "no sheet handed in", status="missing"
            )
        ]
        _mark_duplicates(grades, lambda g: g.student.lower())
        book.grades += grades
    book.grades += others


def _grade_variant(key: ClassKey, student: str, name: str, text: str) -> Grade:
    own = key.sheet(student)
    try:
        header, _ = sheet_parts(text)
    except PerceptronLabError as exc:
        return _unreadable(student, name, str(exc))
    if header.has_data and not same_data(header, own):
        owner = key.owner(header, title_of(text))
        flag = f"the data of {owner}'s variant" if owner else "data of no variant of this class"
        return Grade(
            student,
            name,
            Fraction(0),
            False,
            None,
            "wrong-variant",
            f"The sheet carries {flag}, not {student}'s; it is not graded.",
            flag=flag,
        )
    grade = replace(grade_sheet(name, text, own), student=student)
    owner = None if grade.ok or header.has_data else key.rows_owner(text, student)
    if owner is None:
        return grade
    flag = f"the rows of {owner}'s variant"
    message = f"The sheet writes out {flag}, not {student}'s; it is not graded."
    return replace(grade, points=Fraction(0), slip="wrong-variant", message=message, flag=flag)


def _mark_duplicates(grades: list[Grade], who) -> None:
    """Rows of one student (more than one sheet) marked ``duplicate``, each naming the others."""
    groups: dict[str, list[int]] = defaultdict(list)
    for k, grade in enumerate(grades):
        if grade.status in ("graded",) and grade.student:
            groups[who(grade)].append(k)
    for rows in groups.values():
        if len(rows) > 1:
            names = [grades[k].file for k in rows]
            for k in rows:
                others = ", ".join(n for n in names if n != grades[k].file)
                grades[k] = replace(
                    grades[k],
                    status="duplicate",
                    flag=(grades[k].flag + "; " if grades[k].flag else "")
                    + f"{len(rows)} sheets of {grades[k].student}; also {others}",
                )


def _cell(value: object) -> str:
    """A CSV cell no spreadsheet takes for a formula: a leading ``'`` before = + - @ tab CR."""
    text = str(value)
    return "'" + text if text.startswith(_FORMULA) else text


def gradebook_csv(grades: list[Grade] | Book) -> str:
    """The gradebook: one row per student or file (:data:`COLUMNS`), safe for spreadsheets."""
    rows = grades.grades if isinstance(grades, Book) else grades
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(COLUMNS)
    for g in rows:
        cells = [
            g.student,
            g.file,
            "" if g.status == "skipped" else str(g.points),
            str(SHEET_POINTS),
            "yes" if g.ok else "no",
            "" if g.first_wrong_row is None else g.first_wrong_row,
            g.slip or "",
            g.slip_name,
            g.status,
            g.flag,
            " ".join(g.message.split()),
        ]
        writer.writerow([_cell(c) for c in cells])
    return buffer.getvalue()


def slip_summary(grades: list[Grade]) -> list[tuple[str, str, int]]:
    """(slip, its name, how many sheets) of every first slip, the most common first."""
    counts = Counter(g.slip for g in grades if g.slip is not None)
    names = {g.slip: g.slip_name for g in grades if g.slip is not None}
    return [
        (slip, names[slip], count)
        for slip, count in sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))
    ]
