"""A whole class: variants reproducible from a seed and a student's identifier, one key listing every
variant, and a folder (or a zip) of worksheets with planted slips graded into a gradebook."""

from __future__ import annotations

import csv
import io
import zipfile
from fractions import Fraction
from pathlib import Path

import pytest
from typer.testing import CliRunner

from perceptronlab import InputError
from perceptronlab.cli import app
from perceptronlab.teach.exams import KINDS, generate
from perceptronlab.teach.gradebook import grade_class, slip_summary
from perceptronlab.teach.variants import class_variants, student_ids, variant_seed

runner = CliRunner()


# ---------------------------------------------------------------- variants


@pytest.mark.parametrize("kind", KINDS)
def test_variants_are_distinct_and_reproducible_per_student(kind):
    students = [f"s{k:02d}" for k in range(12)]
    variants = class_variants(kind, 5, students)
    assert [v.student for v in variants] == students
    assert len({v.task.markdown() for v in variants}) == len(
        students
    )  # every student a task of their own
    alone = class_variants(kind, 5, ["s07"])[
        0
    ]  # one student's variant, made again from seed and id alone
    assert alone.seed == variants[7].seed  # one of the student's own seeds (the first that fits)
    assert alone.seed in {variant_seed(5, "s07", attempt) for attempt in range(400)}
    assert alone.task.markdown(solution=True) == variants[7].task.markdown(solution=True)
    assert alone.task.markdown(solution=True) == generate(kind, alone.seed).markdown(solution=True)
    # equally hard: the same parts and points for everyone
    assert {tuple((p.letter, p.points, p.level) for p in v.task.parts) for v in variants} == {
        tuple((p.letter, p.points, p.level) for p in variants[0].task.parts)
    }
    assert class_variants(kind, 6, students)[0].task.markdown() != variants[0].task.markdown()
    if (
        kind == "trace"
    ):  # the run every student traces is as long: 2 to 5 sweeps, a tie, at most 16 rows
        for variant in variants:
            run = variant.task.run
            assert (
                run.converged
                and 2 <= run.sweeps <= 5
                and run.mistakes >= 3
                and len(run.steps) <= 16
            )
            assert variant.task.answers["ties"]


def test_bad_rosters_are_refused():
    with pytest.raises(InputError, match="student identifier"):
        class_variants("trace", 0, ["ada", "ada"])
    with pytest.raises(InputError, match="student identifier"):
        class_variants("trace", 0, ["a b"])
    with pytest.raises(InputError, match="variants"):
        student_ids(0)


def test_cli_variants_write_one_file_per_student_and_one_key(tmp_path):
    roster = tmp_path / "roster.csv"
    roster.write_text("student\nada\nalan\ngrace\n")
    out = tmp_path / "class"
    result = runner.invoke(
        app,
        ["exam", "--kind", "margin", "--students", str(roster), "--seed", "9", "--out", str(out)],
    )
    assert result.exit_code == 0, result.output
    key = (out / "_key" / "key.md").read_text()
    rows = list(csv.DictReader((out / "variants.csv").open()))
    assert [r["student"] for r in rows] == ["ada", "alan", "grace"]
    for row in rows:
        task = generate("margin", int(row["variant_seed"]))
        assert int(row["variant_seed"]) == variant_seed(9, row["student"])
        assert (
            out / f"{row['student']}.md"
        ).read_text() == task.markdown()  # no key in the student's file
        assert (out / f"{row['student']}-data.csv").read_text() == task.dataset_csv()
        assert (
            task.solution_markdown() in key
            and f"## {row['student']} (variant seed {row['variant_seed']})" in key
        )


def test_cli_variants_pdf(tmp_path):
    out = tmp_path / "pdf"
    result = runner.invoke(
        app, ["exam", "--kind", "online", "--variants", "2", "--format", "pdf", "--out", str(out)]
    )
    assert result.exit_code == 0, result.output
    for name in ("student-001.pdf", "student-002.pdf", "_key/key.pdf"):
        assert (out / name).read_bytes().startswith(b"%PDF-")


def test_cli_variants_need_a_folder():
    result = runner.invoke(app, ["exam", "--kind", "trace", "--variants", "3"])
    assert result.exit_code == 1 and "--out" in result.stderr


# ---------------------------------------------------------------- a class's sheets, with planted slips


def _rows(task):
    return [list(r) for r in csv.reader(io.StringIO(task.run.table("csv")))][1:]


def _fmt_w(w):
    return "(" + ", ".join(str(Fraction(c)) for c in w) + ")"


def _sheet(task, rows):
    header = [line for line in task.worksheet_csv().splitlines() if line.startswith("#")]
    buffer = io.StringIO()
    csv.writer(buffer, lineterminator="\n").writerows(
        [["sweep", "point", "score", "mistake", "w_after"], *rows]
    )
    return "\n".join(header) + "\n" + buffer.getvalue()


def plant(task, slip):
    """A filled sheet of the task with ``slip`` planted at its first chance; (text, 1-based wrong row)."""
    rows, steps, X, y = _rows(task), task.run.steps, task.data["X"], task.data["y"]
    before = [(Fraction(0), Fraction(0))] + [tuple(s.w) for s in steps[:-1]]
    if slip is None:
        return _sheet(task, rows), None
    for k, step in enumerate(steps):
        x, label, w = X[step.index], y[step.index], before[k]
        if slip == "tie-as-correct" and step.mistake and step.score == 0:
            rows[k][3], rows[k][4] = "no", _fmt_w(w)
        elif slip == "x-instead-of-yx" and step.mistake and label == -1:
            rows[k][4] = _fmt_w([a + b for a, b in zip(w, x, strict=True)])
        elif slip == "update-not-due" and not step.mistake:
            rows[k][3], rows[k][4] = (
                "yes",
                _fmt_w([a + label * b for a, b in zip(w, x, strict=True)]),
            )
        elif slip == "arithmetic" and k == 1:
            rows[k][2] = str(step.score + 101)
        elif slip == "early-stop" and step.mistake and k > 0:
            return _sheet(task, rows[: k + 1]), k + 2  # ends right after an update
        else:
            continue
        return _sheet(task, rows), k + 1
    return None, None


SLIP_PLAN = [
    "tie-as-correct",
    "x-instead-of-yx",
    "tie-as-correct",
    "update-not-due",
    None,
    "arithmetic",
    "early-stop",
    "tie-as-correct",
    None,
    "x-instead-of-yx",
]


@pytest.fixture
def class_folder(tmp_path):
    """Ten students' filled sheets (each from their own variant), eight with a planted slip."""
    folder = tmp_path / "sheets"
    folder.mkdir()
    variants = class_variants("trace", 21, [f"st{k}" for k in range(len(SLIP_PLAN))])
    planted = {}
    for variant, slip in zip(variants, SLIP_PLAN, strict=True):
        text, row = plant(variant.task, slip)
        assert text is not None, (
            variant.student,
            slip,
        )  # every trace task has a tie, a -1 update, ...
        (folder / f"{variant.student}-sheet.csv").write_text(text)
        planted[variant.student] = (slip, row, variant)
    (folder / "st0-data.csv").write_text(variants[0].task.dataset_csv())  # not a sheet: left out
    (folder / "broken-sheet.csv").write_text("sweep,point,score,mistake,w_after\n1,x1,(1, 0\n")
    return folder, planted


def _w(cell):
    return tuple(Fraction(c) for c in cell.strip("()").split(","))


def own_w_points(task, path):
    """Follow-through, replayed by hand: a half of the sweeps earns its point when each of its rows
    is the right step from the w the student wrote before it (and the sheet ends on a clean sweep);
    a sheet that is not fully right earns at most 1."""
    X, y, run = task.data["X"], task.data["y"], task.run
    rows = [r for r in csv.reader(path.read_text().splitlines()) if r and not r[0].startswith("#")]
    w, verdicts, ends = (Fraction(0),) * len(X[0]), [], False
    for j, (sweep, point, score, mistake, w_after) in enumerate(rows[1:]):
        scores = [
            yi * sum(a * b for a, b in zip(w, xi, strict=True)) for xi, yi in zip(X, y, strict=True)
        ]
        if point == "all":
            ends = min(scores) > 0 and [Fraction(c) for c in score.split(",")] == scores
            verdicts.append((int(sweep), ends))
            break
        i = j % len(X)
        due = tuple(a + y[i] * b for a, b in zip(w, X[i], strict=True)) if scores[i] <= 0 else w
        verdicts.append(
            (
                int(sweep),
                (int(sweep), point, Fraction(score), mistake == "yes", _w(w_after))
                == (j // len(X) + 1, f"x{i + 1}", scores[i], scores[i] <= 0, due),
            )
        )
        w = _w(w_after)
    half = max(1, run.sweeps // 2)
    first = [ok for s, ok in verdicts if s <= half]
    rest = [ok for s, ok in verdicts if s > half]
    earned = (len(first) >= len(X) * half and all(first)) + (bool(rest) and all(rest) and ends)
    return min(1, earned)


def test_gradebook_finds_every_planted_slip(class_folder, tmp_path):
    folder, planted = class_folder
    grades = {g.student: g for g in grade_class(folder)}
    assert set(grades) == set(planted) | {"broken"}
    for student, (slip, row, variant) in planted.items():
        grade = grades[student]
        assert grade.slip == slip and grade.first_wrong_row == row, (student, grade)
        if slip is None:
            assert grade.ok and grade.points == 2
        else:
            assert grade.points == own_w_points(variant.task, folder / f"{student}-sheet.csv")
    assert grades["broken"].slip == "unreadable" and grades["broken"].points == 0
    summary = slip_summary(list(grades.values()))
    assert summary[0][:1] == ("tie-as-correct",) and summary[0][2] == 3
    assert {slip: count for slip, _, count in summary} == {
        "tie-as-correct": 3,
        "x-instead-of-yx": 2,
        "update-not-due": 1,
        "arithmetic": 1,
        "early-stop": 1,
        "unreadable": 1,
    }


def test_cli_gradebook_from_a_zip(class_folder, tmp_path):
    folder, planted = class_folder
    archive = tmp_path / "sheets.zip"
    with zipfile.ZipFile(archive, "w") as zf:
        for path in sorted(folder.iterdir()):
            zf.write(path, f"upload/{path.name}")
    book = tmp_path / "gradebook.csv"
    result = runner.invoke(app, ["check", str(archive), "--gradebook", str(book)])
    assert result.exit_code == 0, result.output
    rows = {r["student"]: r for r in csv.DictReader(book.open())}
    for student, (slip, row, _) in planted.items():
        assert rows[student]["slip"] == (slip or "") and rows[student]["first_wrong_row"] == (
            "" if row is None else str(row)
        )
    assert "11 sheets: 2 fully correct" in result.stdout
    lines = result.stdout.splitlines()
    assert "3 sheets" in lines[2] and "[tie-as-correct]" in lines[2]  # the most common slip first


def test_check_refuses_a_gradebook_for_one_sheet(tmp_path):
    sheet = tmp_path / "one.csv"
    sheet.write_text(generate("trace", 0).worksheet_csv())
    result = runner.invoke(app, ["check", str(sheet), "--gradebook", str(tmp_path / "g.csv")])
    assert result.exit_code == 1 and "--gradebook" in result.stderr
    empty = tmp_path / "empty"
    empty.mkdir()
    result = runner.invoke(app, ["check", str(empty)])
    assert result.exit_code == 1 and "at least one .csv sheet" in result.stderr


def test_unreadable_members_do_not_stop_the_class(tmp_path):
    folder = tmp_path / "c"
    folder.mkdir()
    Path(folder / "latin1-sheet.csv").write_bytes("sweep,point\n1,x1,\xe9".encode("latin-1"))
    (grade,) = grade_class(folder)
    assert grade.slip == "unreadable" and "UTF-8" in grade.message
