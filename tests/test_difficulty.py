"""Variants of equal difficulty: every variant of a class has the same number of data points,
mistakes and sweeps (or the instructor's ranges), recomputed here by a perceptron of the test's own."""

from __future__ import annotations

from fractions import Fraction

import pytest
from typer.testing import CliRunner

from perceptronlab import InputError
from perceptronlab.cli import app
from perceptronlab.teach.difficulty import parse_range
from perceptronlab.teach.exams import generate
from perceptronlab.teach.variants import class_variants, key_markdown, student_ids

runner = CliRunner()


def own_perceptron(X, y, max_sweeps=50):
    """The rule of the lecture notes in Fractions: w = 0, cyclic order, update on y<w,x> <= 0,
    until a sweep makes no update. Returns (mistakes, sweeps with the clean one)."""
    w = [Fraction(0)] * len(X[0])
    mistakes = 0
    for sweep in range(1, max_sweeps + 1):
        clean = True
        for x, label in zip(X, y, strict=True):
            if label * sum(Fraction(a) * Fraction(b) for a, b in zip(w, x, strict=True)) <= 0:
                w = [a + label * Fraction(b) for a, b in zip(w, x, strict=True)]
                mistakes += 1
                clean = False
        if clean:
            return mistakes, sweep
    raise AssertionError("did not converge")


def shape(task):
    mistakes, sweeps = own_perceptron(task.data["X"], task.data["y"])
    return len(task.data["X"]), mistakes, sweeps


def test_200_trace_variants_share_points_mistakes_and_sweeps():
    variants = class_variants("trace", 11, student_ids(200))
    shapes = {shape(v.task) for v in variants}
    assert len(shapes) == 1, shapes  # the same numbers for all (the bar allows a spread of 1)
    assert len({v.task.markdown() for v in variants}) == 200  # yet 200 different tasks
    points, mistakes, sweeps = shapes.pop()
    key = key_markdown(variants[:2], "trace", 11)
    assert f"{points} data points, {mistakes} mistakes, {sweeps} sweeps" in key
    for v in variants[:5]:  # the gradebook's way back: the seed alone gives the variant
        assert generate("trace", v.seed).markdown(solution=True) == v.task.markdown(solution=True)


def test_instructor_ranges_are_met_and_the_rest_is_shared():
    variants = class_variants("trace", 3, student_ids(40), {"mistakes": (4, 5), "points": (3, 3)})
    shapes = [shape(v.task) for v in variants]
    assert {p for p, _, _ in shapes} == {3}
    assert {m for _, m, _ in shapes} <= {4, 5}
    assert len({s for _, _, s in shapes}) == 1  # not in a range: pinned to one value


@pytest.mark.parametrize("kind", ["margin-perceptron", "eta"])
def test_other_run_kinds_share_their_mistakes(kind):
    variants = class_variants(kind, 2, student_ids(8))
    assert len({shape(v.task)[:2] for v in variants}) == 1


def test_impossible_ranges_end_with_one_line():
    with pytest.raises(InputError, match="Widen the ranges"):
        class_variants("trace", 0, ["a", "b"], {"mistakes": (40, 50)})
    with pytest.raises(InputError, match="a kind with a run"):
        class_variants("margin", 0, ["a"], {"mistakes": (3, 4)})
    with pytest.raises(InputError, match="LOW-HIGH"):
        parse_range("--sweeps", "5-3")


def test_cli_ranges(tmp_path):
    out = tmp_path / "class"
    args = ["exam", "--kind", "trace", "--variants", "4", "--out", str(out)]
    result = runner.invoke(app, [*args, "--mistakes", "3-4", "--sweeps", "3"])
    assert result.exit_code == 0, result.output
    assert "3 sweeps" in (out / "_key" / "key.md").read_text()
    result = runner.invoke(app, [*args, "--mistakes", "99"])
    assert result.exit_code == 1 and "Widen the ranges" in result.output
    assert "Traceback" not in result.output
    result = runner.invoke(app, ["exam", "--kind", "trace", "--sweeps", "3"])
    assert result.exit_code == 1 and "--variants" in result.output
