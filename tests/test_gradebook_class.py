"""Grading against the class (issue 33 item 1): sheets matched to the roster's students by name or by
Moodle's folders, their data compared with each student's variant made again from its seed, copies
flagged, missing students listed with 0 points; and the gradebook's cells safe for spreadsheets
(issue 35)."""

from __future__ import annotations

import csv
import zipfile
from pathlib import Path

import pytest
from typer.testing import CliRunner

from perceptronlab import InputError
from perceptronlab.cli import app
from perceptronlab.teach.exams import generate
from perceptronlab.teach.gradebook import grade_book, gradebook_csv
from perceptronlab.teach.variants import read_students

runner = CliRunner()
ROSTER = ["1001", "1002", "1003", "1004"]


def filled(blank: str, seed: int) -> str:
    """A fully correct sheet: the blank sheet's header lines and the engine's table."""
    header = [line for line in blank.splitlines() if line.startswith("#")]
    return "\n".join(header) + "\n" + generate("trace", seed).run.table("csv")


@pytest.fixture(scope="module")
def klass(tmp_path_factory):
    """A class of four from a roster whose header is ``matr``: exam --students --out."""
    root = tmp_path_factory.mktemp("klass")
    roster = root / "roster.csv"
    roster.write_text("matr\n" + "\n".join(ROSTER) + "\n")
    out = root / "class"
    result = runner.invoke(
        app, ["exam", "-k", "trace", "--students", str(roster), "-s", "4", "--out", str(out)]
    )
    assert result.exit_code == 0, result.output
    seeds = {
        r["student"]: int(r["variant_seed"]) for r in csv.DictReader(open(out / "variants.csv"))
    }
    assert list(seeds) == ROSTER  # the header 'matr' is not a student
    return out, seeds


def hand_in(klass, folder: Path) -> None:
    """1001 right (its own file name), 1002 right (a Moodle folder), 1003 hands in a copy of 1001's
    sheet under its own name, 1004 hands in nothing."""
    out, seeds = klass
    sheet = {s: filled((out / f"{s}-sheet.csv").read_text(), seeds[s]) for s in seeds}
    folder.mkdir()
    (folder / "1001-sheet.csv").write_text(sheet["1001"])
    moodle = folder / "Grace Hopper_1002_assignsubmission_file_"
    moodle.mkdir()
    (moodle / "sheet.csv").write_text(sheet["1002"])
    (folder / "1003-sheet.csv").write_text(sheet["1001"])
    (folder / "notes.pdf").write_bytes(b"%PDF-")
    (folder / "unknown-sheet.csv").write_text(sheet["1002"])


def test_a_class_of_four_from_a_roster(klass, tmp_path):
    handed = tmp_path / "handed"
    hand_in(klass, handed)
    book = tmp_path / "grades.csv"
    variants = klass[0] / "variants.csv"
    result = runner.invoke(
        app, ["check", str(handed), "--variants", str(variants), "--gradebook", str(book)]
    )
    assert result.exit_code == 0, result.output
    rows = list(csv.DictReader(book.open()))
    by = {r["student"]: r for r in rows if r["student"]}
    assert [r["student"] for r in rows][:4] == ROSTER
    assert by["1001"]["points"] == by["1002"]["points"] == "2"
    assert by["1002"]["file"] == "Grace Hopper_1002_assignsubmission_file_/sheet.csv"
    assert by["1003"]["points"] == "0" and by["1003"]["slip"] == "wrong-variant"
    assert "1001's variant" in by["1003"]["flag"]
    assert by["1004"]["status"] == "missing" and by["1004"]["points"] == "0"
    others = {r["file"]: r for r in rows if not r["student"]}
    assert others["unknown-sheet.csv"]["status"] == "unmatched"
    assert others["notes.pdf"]["status"] == "skipped"
    assert "1003" in result.stdout and "1001's variant" in result.stdout


def test_variants_csv_found_in_the_zip(klass, tmp_path):
    handed = tmp_path / "handed"
    hand_in(klass, handed)
    archive = tmp_path / "class.zip"
    with zipfile.ZipFile(archive, "w") as zf:
        for path in sorted(handed.rglob("*")):
            if path.is_file():
                zf.write(path, path.relative_to(handed).as_posix())
        zf.write(klass[0] / "variants.csv", "variants.csv")
    book = grade_book(archive)
    points = {g.student: g.points for g in book.grades if g.student}
    assert points == {"1001": 2, "1002": 2, "1003": 0, "1004": 0}
    assert not book.notes


def test_a_sheet_without_data_lines_is_checked_against_its_own_variant(klass, tmp_path):
    out, seeds = klass
    handed = tmp_path / "h"
    handed.mkdir()
    table = generate("trace", seeds["1001"]).run.table("csv")
    (handed / "1001.csv").write_text(table)  # the data lines left out: 1001's own run
    (handed / "1002.csv").write_text(table)  # 1001's rows for 1002's variant: not right
    book = grade_book(handed, out / "variants.csv")
    grades = {g.student: g for g in book.grades}
    assert grades["1001"].points == 2 and grades["1002"].points == 0
    assert grades["1002"].flag == "the rows of 1001's variant"


def test_duplicates_and_case(klass, tmp_path):
    out, seeds = klass
    handed = tmp_path / "d"
    for sub in ("a", "b"):
        (handed / sub).mkdir(parents=True)
    sheet = filled((out / "1001-sheet.csv").read_text(), seeds["1001"])
    (handed / "a" / "1001-sheet.csv").write_text(sheet)
    (handed / "b" / "1001-SHEET.csv").write_text(sheet)
    book = grade_book(handed, out / "variants.csv")
    rows = [g for g in book.grades if g.student == "1001"]
    assert [g.status for g in rows] == ["duplicate", "duplicate"]
    assert "b/1001-SHEET.csv" in rows[0].flag and "a/1001-sheet.csv" in rows[1].flag


def test_without_variants_each_sheet_is_graded_on_its_own_data(klass, tmp_path):
    out, seeds = klass
    handed = tmp_path / "o"
    handed.mkdir()
    moodle = handed / "Ada Lovelace_55_assignsubmission_file_"
    moodle.mkdir()
    (moodle / "sheet.csv").write_text(filled((out / "1001-sheet.csv").read_text(), seeds["1001"]))
    book = grade_book(handed)
    (grade,) = book.sheets
    assert grade.student == "Ada Lovelace" and grade.points == 2
    assert "variants.csv" in book.notes[0]


@pytest.mark.parametrize("name", ["=1+1", "+SUM(A1)", "@SUM(1+1)", "-2", "\tx", "\rx"])
def test_no_gradebook_cell_starts_a_formula(tmp_path, name):
    folder = tmp_path / "c"
    folder.mkdir()
    task = generate("trace", 1)
    (folder / f"{name}-sheet.csv").write_text(task.worksheet_csv())
    text = gradebook_csv(grade_book(folder))
    for row in list(csv.reader(text.splitlines()))[1:]:
        for cell in row:
            assert not cell.startswith(("=", "+", "-", "@", "\t", "\r")), cell
    # a formula's name is kept, behind a quote; a tab or CR in a name is shown as U+FFFD
    assert f"'{name}-sheet.csv" in text if name[0] in "=+-@" else "\ufffdx-sheet.csv" in text


def test_roster_headers_by_content(tmp_path):
    roster = tmp_path / "r.csv"
    for text, ids in [
        ("matr\n1001\n1002\n", ["1001", "1002"]),
        ("Matr. Nr,Name\n1001,Ada\n1002,Alan\n", ["1001", "1002"]),
        ("ada\nalan\ngrace\n", ["ada", "alan", "grace"]),
        ("student\nada\n", ["ada"]),
        ("s01\ns02\ns03\n", ["s01", "s02", "s03"]),
    ]:
        roster.write_text(text)
        assert read_students(roster) == ids, text
    roster.write_text("Ada\nada\n")
    with pytest.raises(InputError, match="ignoring case"):
        read_students(roster)


def test_follow_through_one_wrong_score_cell_costs_one_point():
    """Issue 33: one wrong score cell with every later cell right got 0 of 2; its half costs 1."""
    from perceptronlab.teach.gradebook import grade_sheet

    task = generate("trace", 11)
    header = [line for line in task.worksheet_csv().splitlines() if line.startswith("#")]
    rows = task.run.table("csv").splitlines()
    first = rows[1].split(",")
    first[2] = str(int(first[2]) + 5)  # the first score, wrong; its mistake and w still right
    text = "\n".join(header + [rows[0], ",".join(first)] + rows[2:]) + "\n"
    grade = grade_sheet("ada-sheet.csv", text)
    assert (grade.first_wrong_row, grade.slip, grade.points) == (1, "arithmetic", 1)
    assert grade_sheet("ada-sheet.csv", "\n".join(header + rows) + "\n").points == 2


def test_a_blank_sheet_handed_in_is_named_blank(klass, tmp_path):
    out, _ = klass
    handed = tmp_path / "b"
    handed.mkdir()
    (handed / "1001-sheet.csv").write_text((out / "1001-sheet.csv").read_text())
    grades = {g.student: g for g in grade_book(handed, out / "variants.csv").grades}
    assert (grades["1001"].slip, grades["1001"].points) == ("blank", 0)
    assert grades["1001"].slip_name == "The sheet is not filled in"
