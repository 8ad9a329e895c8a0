"""Worksheets and exam tasks of the online-learning chapter: the numbers a student checks by hand."""

from __future__ import annotations

from fractions import Fraction

import pytest

from perceptronlab.exceptions import InputError
from perceptronlab.online import FiniteClass, Halving, littlestone_dimension, vc_dimension
from perceptronlab.teach.online_exams import ONLINE_KINDS, generate_online
from perceptronlab.teach.online_sheets import online_sheet


def test_weighted_majority_sheet_by_hand():
    H = FiniteClass([[0, 1], [1, 1], [1, 0]])
    sheet = online_sheet("weighted-majority", H, [(0, 1), (1, 0)], beta="1/3")
    # round 1: x0 is 0 for h0, 1 for h1 and h2: weights 1 and 2, predict 1, h0 is wrong -> 1/3
    assert sheet.rows[0] == ("1", "x0", "1", "2", "1", "1", "no", "(1/3, 1, 1)")
    # round 2: x1 is 1 for h0 (1/3) and h1 (1), 0 for h2 (1): predict 1 (4/3 > 1), label 0: a mistake
    assert sheet.rows[1] == ("2", "x1", "1", "4/3", "1", "0", "yes", "(1/9, 1/3, 1)")


def test_winnow_sheet_by_hand():
    sheet = online_sheet("winnow", 4, [((1, 1, 0, 0), 1), ((1, 1, 1, 0), 0)])
    # theta = 2; round 1: score 2 is not > 2, a missed 1: double w1, w2
    assert sheet.rows[0] == ("1", "(1, 1, 0, 0)", "2", "2", "0", "1", "yes", "(2, 2, 1, 1)")
    # round 2: score 5 > 2, a false 1: halve w1, w2, w3
    assert sheet.rows[1] == ("2", "(1, 1, 1, 0)", "5", "2", "1", "0", "yes", "(1, 1, 1/2, 1)")
    blank = sheet.blank()
    assert blank.rows[1] == ("2", "(1, 1, 1, 0)", "", "2", "", "0", "", "")
    assert (
        blank.csv().splitlines()[0] == "round,x,score,theta,prediction,label,mistake,weights after"
    )


def test_soa_sheet_shows_the_dimensions_of_both_sides():
    H = FiniteClass.intervals(5)
    sheet = online_sheet("soa", H, [(2, 1), (0, 0)])
    zero = littlestone_dimension(FiniteClass(H.matrix[H.matrix[:, 2] == 0])).value
    one = littlestone_dimension(FiniteClass(H.matrix[H.matrix[:, 2] == 1])).value
    assert sheet.rows[0][2:5] == (str(zero), str(one), str(int(one >= zero)))


@pytest.mark.parametrize("seed", range(8))
@pytest.mark.parametrize("kind", ONLINE_KINDS)
def test_exam_keys_agree_with_the_library_and_the_seed_fixes_the_task(kind, seed):
    task = generate_online(kind, seed)
    assert task.markdown(solution=True) == generate_online(kind, seed).markdown(solution=True)
    assert (
        "#### Solution" in task.markdown(solution=True) and "#### Solution" not in task.markdown()
    )
    assert "\\begin{tabular}" in task.latex(solution=True)
    if kind == "ldim":
        H = FiniteClass(task.data["matrix"])
        assert task.answers["ldim"] == littlestone_dimension(H).value >= 2
        assert task.answers["vc"] == vc_dimension(H).value
        assert task.answers["halving_bound"] == len(H).bit_length() - 1
    else:
        assert task.answers["mistakes"] >= 1 and task.answers["mistakes"] <= task.answers["bound"]
    if kind == "halving":
        H = FiniteClass(task.data["matrix"])
        learner = Halving(H)
        for x, y in task.data["sequence"]:
            learner.learn_one(x, y)
        assert learner.mistakes == task.answers["mistakes"]
    if kind == "winnow":
        relevant = task.data["relevant"]
        assert all(y == int(any(x[i] for i in relevant)) for x, y in task.data["sequence"])
        weights = [Fraction(w) for w in task.answers["weights"].strip("()").split(", ")]
        assert all(weights[i] >= 1 for i in relevant)  # a relevant weight is never halved


@pytest.mark.parametrize("kind", ONLINE_KINDS)
def test_online_tasks_render_through_the_exam_tasks_renderers_typst_and_pdf_included(kind):
    import io

    import pypdf

    task = generate_online(kind, 2)
    source = task.typst(solution=True)
    assert source == task.render("typst", solution=True)
    assert f"= Exam-style task: {task.title} ({task.points} points)" in source
    # ldim: the class and the tree's paths; winnow: the blank and the worked sheet; the others:
    # the class as well
    assert source.count("#table(") == {"ldim": 2, "winnow": 2}.get(kind, 3)
    assert "#pagebreak()" in source and "#pagebreak()" not in task.typst()
    # the worked worksheet's cells and the key's mistakes reach the printed page
    reader = pypdf.PdfReader(io.BytesIO(task.pdf(solution=True)))
    text = " ".join(page.extract_text() for page in reader.pages)
    assert len(reader.pages) >= 2 and "Solution" in text
    if task.sheet is not None:
        assert f"{task.answers['mistakes']} mistakes" in text
        assert all(cell in text for cell in task.sheet.rows[-1] if cell)
    else:
        assert f"Ldim(H) = {task.answers['ldim']}" in text


def test_bad_inputs_get_one_line():
    for call, words in [
        (lambda: online_sheet("perceptron", FiniteClass.thresholds(2), [(0, 1)]), "kind"),
        (lambda: online_sheet("halving", [[0, 1]], [(0, 1)]), "a FiniteClass"),
        (lambda: online_sheet("halving", FiniteClass.thresholds(2), []), "1 to 200 rounds"),
        (lambda: generate_online("trace", 0), "kind"),
        (lambda: generate_online("ldim", None), "seed"),
        (lambda: generate_online("ldim", 0).render("pdf"), "fmt"),
    ]:
        with pytest.raises(InputError, match=words):
            call()


# ---------------------------------------------------------------- on the command line


@pytest.mark.parametrize("kind", ONLINE_KINDS)
def test_exam_writes_the_online_chapters_tasks_with_their_key(kind, tmp_path):
    from typer.testing import CliRunner

    from perceptronlab.cli import app

    runner = CliRunner()
    shown = runner.invoke(app, ["exam", "--kind", kind, "--seed", "5", "--solution"])
    assert shown.exit_code == 0, shown.output
    assert shown.output == generate_online(kind, 5).render("md", solution=True)
    out = tmp_path / "task.tex"
    written = runner.invoke(
        app, ["exam", "--kind", kind, "--seed", "5", "--format", "latex", "--out", str(out)]
    )
    assert written.exit_code == 0 and out.read_text(encoding="utf-8") == generate_online(
        kind, 5
    ).render("latex")
    refused = runner.invoke(app, ["exam", "--kind", kind, "--variants", "3"])
    assert (
        refused.exit_code == 1
        and "Drop --variants" in refused.output
        and refused.output.count("\n") <= 1
    )
