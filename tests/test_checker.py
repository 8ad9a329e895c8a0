"""The worksheet checker: the engine's correct sheet passes, every planted slip is caught and named."""

from __future__ import annotations

import csv
import io
from fractions import Fraction

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from perceptronlab import InputError, perceptron
from perceptronlab._ground.numbers import format_number, format_vector
from perceptronlab.teach.checker import SLIPS, check_worksheet
from perceptronlab.teach.exams import generate

EXAM_X, EXAM_Y = (
    [[1, 0], [1, 1], [0, 1]],
    [1, -1, -1],
)  # the exam task of "Perceptron Mistake Bound"


def correct_rows(X, y, **kw):
    """The engine's own sheet, as CSV rows without the header."""
    run = perceptron(X, y, exact=True, trace=True, warn=False, **kw)
    return [row for row in csv.reader(io.StringIO(run.table("csv")))][1:], run


def to_csv(rows) -> io.StringIO:
    buf = io.StringIO()
    writer = csv.writer(buf, lineterminator="\n")
    writer.writerow(["sweep", "point", "score", "mistake", "w_after"])
    writer.writerows(rows)
    buf.seek(0)
    return buf


def vec(values, b=None):
    return format_vector(values) + ("" if b is None else f", b = {format_number(b)}")


def check(rows, X=EXAM_X, y=EXAM_Y, **kw):
    return check_worksheet(to_csv(rows), X, y, **kw)


# ---------------------------------------------------------------- the seed's sheet


def test_seed_sheet_passes_in_every_form(tmp_path):
    rows, run = correct_rows(EXAM_X, EXAM_Y)
    result = check(rows)
    assert result.ok and result.slip is None and bool(result)
    assert "5 mistakes, 4 sweeps, final w = (1, -2)" in result.message
    path = tmp_path / "sheet.csv"
    path.write_text(run.table("csv"))
    assert (
        check_worksheet(path, EXAM_X, EXAM_Y).ok and check_worksheet(str(path), EXAM_X, EXAM_Y).ok
    )
    # as a list of rows, without a header, decimals and fractions for the numbers
    assert check_worksheet(rows, EXAM_X, EXAM_Y).ok
    loose = [r[:] for r in rows]
    loose[1][2] = "-1.0"
    loose[0][4] = "(1/1, 0.0)"
    loose[3][1] = "$x_1$"
    loose[0][3] = "Yes"
    assert check(loose).ok
    # the clean sweep written out row by row (with or without the stop row after it)
    expanded = rows[:-1] + [
        ["4", f"x{i + 1}", s, "no", "(1, -2)"] for i, s in enumerate(["1", "1", "2"])
    ]
    assert check(expanded).ok
    assert check(expanded + [rows[-1]]).ok


def test_seed_sheet_with_eta_and_intercept():
    rows, _ = correct_rows(EXAM_X, EXAM_Y, eta=2)
    assert check(rows, eta=2).ok and check(rows, eta="2").ok
    assert not check(rows).ok  # checked against eta = 1 the numbers are wrong
    rows, _ = correct_rows(EXAM_X, EXAM_Y, fit_intercept=True)
    assert rows[0][4] == "(1, 0), b = 1"
    assert check(rows, fit_intercept=True).ok
    # x2 = (1, 1) with y = -1 after w = (1, 0), b = 1: adding x gives (2, 1), b = 2
    rows[1] = ["1", "x2", "-2", "yes", "(2, 1), b = 2"]
    result = check(rows, fit_intercept=True)
    assert (result.first_wrong_row, result.slip) == (2, "x-instead-of-yx")
    assert result.expected == ("1", "x2", "-2", "yes", "(0, -1), b = 0")
    # the score with the intercept: y(<w,x> + b) = -(1 + 1) = -2; -1 forgets b
    rows[1] = ["1", "x2", "-1", "yes", "(0, -1), b = 0"]
    assert check(rows, fit_intercept=True).slip == "arithmetic"


# ---------------------------------------------------------------- planted slips on the seed's sheet


def test_tie_treated_as_correct():
    rows, _ = correct_rows(EXAM_X, EXAM_Y)
    rows[3] = ["2", "x1", "0", "no", "(0, -1)"]  # the tie of sweep 2 marked as correct
    result = check(rows)
    assert (result.ok, result.first_wrong_row, result.slip) == (False, 4, "tie-as-correct")
    assert result.expected == ("2", "x1", "0", "yes", "(1, -1)")
    assert result.got == ("2", "x1", "0", "no", "(0, -1)")
    assert "tie" in result.message and "Ties count as mistakes" in result.message


def test_update_where_none_was_due():
    rows, _ = correct_rows(EXAM_X, EXAM_Y)
    rows[2] = ["1", "x3", "1", "yes", "(0, -2)"]  # y<w,x> = 1 > 0, yet updated
    result = check(rows)
    assert (result.first_wrong_row, result.slip) == (3, "update-not-due")
    assert (
        result.slip_name
        == SLIPS["update-not-due"][0]
        == "Updating when the condition is not satisfied"
    )
    # marked "no" but w changed anyway: the same slip
    rows2, _ = correct_rows(EXAM_X, EXAM_Y)
    rows2[2] = ["1", "x3", "1", "no", "(0, -2)"]
    assert check(rows2).slip == "update-not-due"


def test_x_added_instead_of_yx():
    rows, _ = correct_rows(EXAM_X, EXAM_Y)
    rows[1] = ["1", "x2", "-1", "yes", "(2, 1)"]  # x2 = (1, 1) has y = -1: w + x instead of w - x
    result = check(rows)
    assert (result.first_wrong_row, result.slip) == (2, "x-instead-of-yx")
    assert "(0, -1)" in result.message


def test_stopping_right_after_an_update():
    rows, _ = correct_rows(EXAM_X, EXAM_Y)
    # stop row right after sweep 2 (which updated): sweep 3 still has a tie
    early = rows[:6] + [["3", "all", "7, 1, 2", "no", "stop"]]
    result = check(early)
    assert (result.first_wrong_row, result.slip) == (7, "early-stop")
    assert "x1 has y<w,x> = 0 <= 0" in result.message
    # the same stop row with the tie's 0 among its scores: the tie was taken for correct (issue 33)
    result = check(rows[:6] + [["3", "all", "0, 1, 2", "no", "stop"]])
    assert (result.first_wrong_row, result.slip) == (7, "tie-as-correct")
    assert "x1 has y<w,x> = 0, a tie" in result.message
    # the sheet simply ends after the last update
    result = check(rows[:7])
    assert (result.first_wrong_row, result.slip) == (8, "early-stop")
    assert "right after an update" in result.message
    # the sheet ends without the final clean sweep
    assert check(rows[:9]).slip == "early-stop"
    # a stop row in the middle of a sweep that already updated
    assert check(rows[:4] + [["2", "all", "0, 2", "no", "stop"]]).slip == "early-stop"


def test_w_minus_yx_on_a_positive_label_is_named():
    rows, _ = correct_rows(EXAM_X, EXAM_Y)
    assert EXAM_Y[0] == 1 and rows[0][3] == "yes"
    w = tuple(-c for c in EXAM_X[0])  # w - y x from w = 0
    rows[0] = ["1", "x1", "0", "yes", "(" + ", ".join(str(c) for c in w) + ")"]
    result = check(rows)
    assert (result.first_wrong_row, result.slip) == (1, "update-subtracted")


def test_label_used_before_the_prediction():
    rows, _ = correct_rows(EXAM_X, EXAM_Y)
    # x2 = (1, 1), y = -1, w = (1, 0): the student first updates to (0, -1) and then scores 1
    rows[1] = ["1", "x2", "1", "no", "(1, 0)"]
    result = check(rows)
    assert (result.first_wrong_row, result.slip) == (2, "label-before-prediction")
    assert "before this step: -1" in result.message


def test_plain_arithmetic():
    rows, _ = correct_rows(EXAM_X, EXAM_Y)
    rows[5] = ["2", "x3", "3", "no", "(0, -2)"]  # 2, not 3
    result = check(rows)
    assert (result.first_wrong_row, result.slip) == (6, "arithmetic")
    rows, _ = correct_rows(EXAM_X, EXAM_Y)
    rows[6] = ["3", "x1", "0", "yes", "(1, -3)"]  # a wrong sum
    assert check(rows).slip == "arithmetic"
    rows, _ = correct_rows(EXAM_X, EXAM_Y)
    rows[-1] = ["4", "all", "1, 2, 2", "no", "stop"]
    result = check(rows)
    assert (result.first_wrong_row, result.slip) == (
        10,
        "arithmetic",
    ) and "x2 has y<w,x> = 1" in result.message


def test_layout_slips():
    rows, _ = correct_rows(EXAM_X, EXAM_Y)
    swapped = rows[:1] + [rows[2], rows[1]] + rows[3:]
    assert check(swapped).slip == "layout"
    assert check(rows + [["5", "x1", "1", "no", "(1, -2)"]]).slip == "layout"


def test_non_separable_data_never_stops():
    X, y = [[1], [-1], [2]], [1, 1, -1]
    rows, _ = correct_rows(X, y, max_sweeps=20)
    steps = [r for r in rows if r[1] != "all"]
    result = check_worksheet(to_csv(steps[:6] + [["3", "all", "1, 1, 1", "no", "stop"]]), X, y)
    assert result.slip == "early-stop" and "never" in result.message


# ---------------------------------------------------------------- planted slips on generated tasks


def plant(kind, rows, run):
    """Perturb the engine's sheet with one slip; returns (rows, first wrong row) or None if not plantable."""
    steps = run.steps
    final = run.sweeps
    body = [(k, s) for k, s in enumerate(steps) if s.sweep != final]
    w_before = [tuple(Fraction(0) for _ in steps[0].x)] + [tuple(s.w) for s in steps[:-1]]
    rows = [r[:] for r in rows]
    if kind == "tie-as-correct":
        k = next((k for k, s in body[1:] if s.score == 0), None)
        if k is None:
            return None
        rows[k][3], rows[k][4] = "no", vec(w_before[k])
        return rows, k + 1
    if kind == "update-not-due":
        k, s = next(((k, s) for k, s in body if s.score > 0), (None, None))
        if k is None:
            return None
        rows[k][3] = "yes"
        rows[k][4] = vec(tuple(w + s.y * x for w, x in zip(w_before[k], s.x, strict=True)))
        return rows, k + 1
    if kind == "x-instead-of-yx":
        k, s = next(((k, s) for k, s in body if s.mistake and s.y == -1 and any(s.x)), (None, None))
        if k is None:
            return None
        rows[k][4] = vec(tuple(w + x for w, x in zip(w_before[k], s.x, strict=True)))
        return rows, k + 1
    if kind == "early-stop":
        k = max(k for k, s in body if s.mistake)  # the last update
        return rows[: k + 1], k + 2
    if kind == "label-before-prediction":
        k, s = next(((k, s) for k, s in body if s.mistake), (None, None))
        w_early = tuple(w + s.y * x for w, x in zip(w_before[k], s.x, strict=True))
        rows[k][2] = format_number(s.y * sum(w * x for w, x in zip(w_early, s.x, strict=True)))
        return rows, k + 1
    if kind == "arithmetic":
        k = len(body) // 2
        rows[k][2] = format_number(steps[k].score + Fraction(1, 2))
        return rows, k + 1
    raise AssertionError(kind)


SLIP_KINDS = [
    "tie-as-correct",
    "update-not-due",
    "x-instead-of-yx",
    "early-stop",
    "label-before-prediction",
    "arithmetic",
]


@pytest.mark.parametrize("slip", SLIP_KINDS)
def test_planted_slips_on_the_seed_sheet(slip):
    rows, run = correct_rows(EXAM_X, EXAM_Y)
    sheet, wrong_row = plant(slip, rows, run)
    result = check(sheet)
    assert (result.ok, result.first_wrong_row, result.slip) == (False, wrong_row, slip)


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 10**5), st.sampled_from(SLIP_KINDS))
def test_planted_slips_on_generated_exam_sheets(seed, slip):
    task = generate("trace", seed)
    X, y = [list(x) for x in task.data["X"]], task.data["y"]
    rows, run = correct_rows(X, y)
    assert check(rows, X, y).ok
    planted = plant(slip, rows, run)
    assume(planted is not None)  # e.g. no point with y = -1 was updated in this task
    sheet, wrong_row = planted
    result = check(sheet, X, y)
    assert (result.ok, result.first_wrong_row, result.slip) == (False, wrong_row, slip)
    assert result.message and SLIPS[slip][1] in result.message


# ---------------------------------------------------------------- bad sheets


@pytest.mark.parametrize(
    "sheet, match",
    [
        ("sweep,point,score,mistake,w_after\n", "only a header row"),
        ("\n\n", "empty sheet"),
        ("1,x1,0,yes\n", "5 cells"),
        ('1,x1,zero,yes,"(1, 0)"\n', "a number like"),
        ('1,x1,0,maybe,"(1, 0)"\n', "yes or no"),
        ('1,x9,0,yes,"(1, 0)"\n', "x1 ... x3"),
        ('1,x1,0,yes,"(1, 0, 0)"\n', "2 entries"),
        ('one,x1,0,yes,"(1, 0)"\n2,x1,0,yes,"(1, 0)"\n', "whole number"),
    ],
)
def test_unreadable_sheets(sheet, match):
    with pytest.raises(InputError, match=match):
        check_worksheet(io.StringIO(sheet), EXAM_X, EXAM_Y)


def test_bad_arguments(tmp_path):
    with pytest.raises(InputError, match="no such file"):
        check_worksheet(tmp_path / "missing.csv", EXAM_X, EXAM_Y)
    with pytest.raises(InputError, match="eta"):
        check_worksheet([["1", "x1", "0", "yes", "(1, 0)"]], EXAM_X, EXAM_Y, eta=0)
    with pytest.raises(InputError, match="intercept"):
        check_worksheet([["1", "x1", "0", "yes", "(1, 0)"]], EXAM_X, EXAM_Y, fit_intercept=True)
    with pytest.raises(InputError, match="worksheet"):
        check_worksheet(42, EXAM_X, EXAM_Y)


# ---------------------------------------------------------------- the command line


def test_cli_check(tmp_path):
    from typer.testing import CliRunner

    from perceptronlab.cli import app

    runner = CliRunner()
    data = tmp_path / "data.csv"
    data.write_text("x1,x2,y\n1,0,1\n1,1,-1\n0,1,-1\n")
    rows, run = correct_rows(EXAM_X, EXAM_Y)
    good = tmp_path / "good.csv"
    good.write_text(run.table("csv"))
    result = runner.invoke(app, ["check", str(good), "--data", str(data)])
    assert result.exit_code == 0 and result.stdout.startswith("correct:")
    rows[3] = ["2", "x1", "0", "no", "(0, -1)"]
    bad = tmp_path / "bad.csv"
    bad.write_text(to_csv(rows).getvalue())
    result = runner.invoke(app, ["check", str(bad), "-d", str(data)])
    assert result.exit_code == 1 and "row 4" in result.stdout and "tie-as-correct" in result.stdout
    result = runner.invoke(app, ["check", str(bad), "-d", str(data), "--json"])
    assert result.exit_code == 1
    import json

    assert json.loads(result.stdout)["slip"] == "tie-as-correct"
    # with a data file and a learning rate
    sheet = tmp_path / "eta.csv"
    sheet.write_text(
        perceptron(EXAM_X, EXAM_Y, eta=Fraction(1, 2), exact=True, trace=True).table("csv")
    )
    assert (
        runner.invoke(app, ["check", str(sheet), "--data", str(data), "--eta", "1/2"]).exit_code
        == 0
    )
    assert runner.invoke(app, ["check", str(sheet), "--data", str(data)]).exit_code == 1
    # unreadable sheets: exit 1 with a message, no traceback
    junk = tmp_path / "junk.csv"
    junk.write_text("garbage\n")
    result = runner.invoke(app, ["check", str(junk), "--data", str(data)])
    assert (
        result.exit_code == 1
        and "only a header row" in result.output
        and "Traceback" not in result.output
    )
    result = runner.invoke(app, ["check", str(tmp_path / "missing.csv"), "--data", str(data)])
    assert result.exit_code == 1 and "no such file" in result.output
