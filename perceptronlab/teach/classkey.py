"""The class a gradebook grades against: ``variants.csv`` (written by ``exam --variants`` or
``exam --students``) names every student and the seed of their variant, so each student's worksheet
data can be made again (:func:`perceptronlab.teach.exams.generate` at that seed) and compared with
the data a handed-in sheet carries.

A handed-in file is matched to its student by name, ids compared case-insensitively: the file's
name without ``-sheet`` (``1001-sheet.csv``, ``1001.csv``), or an identifier standing alone in its
path, as in Moodle's "download all submissions" folders
(``Ada Lovelace_1001_assignsubmission_file_/sheet.csv``).

>>> key = read_class_key("student,variant_seed,kind,file\\n1001,5,trace,1001.md\\nada,7,trace,ada.md\\n")
>>> key.match("Grace Hopper_1001_assignsubmission_file_/sheet.csv")
('1001', '')
>>> key.match("Ada Lovelace_1001_assignsubmission_file_/sheet.csv")
('1001', '')
>>> key.match("ADA-sheet.csv"), key.match("notes/other.csv")[0]
(('ada', ''), None)
"""

from __future__ import annotations

import io
import re
from dataclasses import dataclass
from functools import cache

from perceptronlab._ground import validation as v
from perceptronlab.teach.handin import printable
from perceptronlab.teach.sheets import SheetHeader, sheet_parts

#: the columns of variants.csv
COLUMNS = ("student", "variant_seed", "kind", "file")
#: the most variants made again to find whose data a sheet without its seed carries
MAX_SEARCH = 500
_RUN = re.compile(r"[a-z0-9]+")
_MOODLE = re.compile(r"_([a-z0-9][a-z0-9.-]*)_assignsubmission_")
_SEED = re.compile(r"seed (\d{1,20})\b")


@cache
def variant_sheet(seed: int) -> SheetHeader:
    """The data of the worksheet of the trace variant of ``seed`` (its blank sheet's header)."""
    from perceptronlab.teach.exams import generate

    return sheet_parts(generate("trace", seed).worksheet_csv())[0]


@cache
def variant_rows(seed: int) -> tuple[tuple[str, ...], ...]:
    """The filled rows of the trace variant of ``seed`` (its engine run), as :func:`table_rows`."""
    from perceptronlab.teach.exams import generate

    run = generate("trace", seed).run
    assert run is not None  # a trace task has its run
    return table_rows(run.table("csv"))


def table_rows(table: str) -> tuple[tuple[str, ...], ...]:
    """A sheet's rows compared as text: no header, no comment or blank lines, no spaces."""
    from perceptronlab.teach.checker import csv_rows

    rows = [r for r in csv_rows(table, "worksheet") if any(c.strip() for c in r)]
    rows = [r for r in rows if not r[0].lstrip().startswith("#")]
    if rows and rows[0][0].strip().lower() == "sweep":
        rows = rows[1:]
    return tuple(tuple(c.replace(" ", "") for c in r) for r in rows)


def same_data(a: SheetHeader, b: SheetHeader) -> bool:
    """The same examples and labels (the run a sheet traces)."""
    return (a.X, a.y) == (b.X, b.y)


@dataclass(frozen=True)
class ClassKey:
    """The class of a ``variants.csv``: student -> variant seed, in the file's order."""

    seeds: dict[str, int]
    where: str

    @property
    def students(self) -> list[str]:
        return list(self.seeds)

    def sheet(self, student: str) -> SheetHeader:
        return variant_sheet(self.seeds[student])

    def owner(self, header: SheetHeader, title: str) -> str | None:
        """The student whose variant's data ``header`` is: the one whose seed the sheet's first line
        names, else (in a class of at most :data:`MAX_SEARCH`) the one whose data it is."""
        found = _SEED.search(title)
        by_seed = {seed: student for student, seed in self.seeds.items()}
        if found and int(found.group(1)) in by_seed:
            student = by_seed[int(found.group(1))]
            if same_data(self.sheet(student), header):
                return student
        if len(self.seeds) <= MAX_SEARCH:
            return next((s for s in self.seeds if same_data(self.sheet(s), header)), None)
        return None

    def rows_owner(self, table: str, student: str) -> str | None:
        """The other student whose variant's run ``table`` writes out row by row (a copied sheet
        without its data lines), in a class of at most :data:`MAX_SEARCH`."""
        if len(self.seeds) > MAX_SEARCH:
            return None
        rows = table_rows(table)
        return next(
            (s for s, seed in self.seeds.items() if s != student and variant_rows(seed) == rows),
            None,
        )

    def match(self, name: str) -> tuple[str | None, str]:
        """(the student a file name names, ``""``), or (None, why)."""
        lower = {student.lower(): student for student in self.seeds}
        base = name.rsplit("/", 1)[-1].lower()
        stem = base[:-4] if base.endswith(".csv") else base
        for suffix in ("-sheet", "_sheet", " sheet"):
            stem = stem[: -len(suffix)] if stem.endswith(suffix) and stem != suffix else stem
        if stem in lower:
            return lower[stem], ""
        hits = sorted({lower[span] for span in _spans(name.lower()) if span in lower})
        moodle = _MOODLE.search(name.lower())
        if len(hits) > 1 and moodle and moodle.group(1) in lower:
            return lower[moodle.group(1)], ""  # Moodle's slot: "<full name>_<id>_assignsubmission"
        if len(hits) == 1:
            return hits[0], ""
        if hits:
            return None, "its name names several students: " + ", ".join(hits[:5])
        return None, "its name names no student of the class"

    def restrict(self, roster: list[str]) -> ClassKey:
        """The students of ``roster`` only (each must be in the class)."""
        lower = {student.lower(): student for student in self.seeds}
        unknown = [s for s in roster if s.lower() not in lower]
        if unknown:
            raise v.fail(
                "--students",
                f"students of the class ({self.where})",
                f"{len(unknown)} not in it, e.g. {printable(unknown[0])!r}",
                "Pass the roster the class's variants were made from.",
            )
        return ClassKey(
            {lower[s.lower()]: self.seeds[lower[s.lower()]] for s in roster}, self.where
        )


def _spans(path: str) -> set[str]:
    """Every run of letters and digits in ``path``, alone or joined with its neighbours by the
    characters ``.``, ``_`` or ``-`` between them: the identifiers a file name may hold."""
    runs = [(m.start(), m.end()) for m in _RUN.finditer(path)][:64]
    spans = set()
    for i, (start, _) in enumerate(runs):
        for j in range(i, min(len(runs), i + 8)):
            if j > i and path[runs[j - 1][1] : runs[j][0]] not in (".", "_", "-"):
                break
            spans.add(path[start : runs[j][1]])
    return spans


def read_class_key(text: str, where: str = "variants.csv") -> ClassKey:
    """The class of a ``variants.csv`` text (columns :data:`COLUMNS`), or one clear line."""
    from perceptronlab.teach.checker import csv_rows
    from perceptronlab.teach.variants import check_students

    rows = [r for r in csv_rows(text, where) if any(c.strip() for c in r)]
    header = [c.strip().lower() for c in rows[0]] if rows else []
    if header[:2] != list(COLUMNS[:2]) or "kind" not in header:
        raise v.fail(
            where,
            "the class's variants.csv (" + ",".join(COLUMNS) + ")",
            "a file without that header",
            "Pass the variants.csv that `perceptronlab exam --variants/--students --out DIR` wrote.",
        )
    seeds, kinds = {}, set()
    for number, row in enumerate(rows[1:], start=2):
        cells = dict(zip(header, (c.strip() for c in row), strict=False))
        try:
            seeds[cells["student"]] = int(cells["variant_seed"])
        except (KeyError, ValueError):
            raise v.fail(
                f"{where}, line {number}",
                "a student and the variant's seed (a whole number)",
                printable(",".join(row))[:80],
                "Write the file again with `perceptronlab exam ... --out DIR`.",
            ) from None
        kinds.add(cells.get("kind", ""))
    check_students(list(seeds))
    if kinds != {"trace"}:
        raise v.fail(
            where,
            "a class of the trace kind (only its part (a) is a worksheet)",
            "kind " + ", ".join(sorted(k or "''" for k in kinds)),
            "Grade the worksheets of a class made with `exam --kind trace`.",
        )
    return ClassKey(seeds, where)


def title_of(text: str) -> str:
    """A sheet's first line (where a blank sheet names its variant's seed)."""
    return io.StringIO(text[:4096]).readline()
