"""Exam tasks: every key re-derived independently (float engine, scikit-learn, NumPy, brute force,
the hand-worked numbers of "Perceptron Mistake Bound")."""

from __future__ import annotations

import re
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sklearn.linear_model import Perceptron as SkPerceptron

from perceptronlab import InputError, perceptron
from perceptronlab.teach import exams
from perceptronlab.teach.exams import generate
from perceptronlab.teach.kinds.generalization import generalization_from
from perceptronlab.teach.kinds.margin import margin_from
from perceptronlab.teach.kinds.trace import trace_from
from perceptronlab.teach.tex import tex_vec


def as_float(X):
    return np.array([[float(c) for c in x] for x in X])


def sklearn_final_w(X, y, sweeps):
    """scikit-learn's Perceptron is the same rule (update on y<w,x> <= 0, step 1, no shuffling)."""
    clf = SkPerceptron(
        shuffle=False, eta0=1.0, alpha=0.0, fit_intercept=False, tol=None, max_iter=sweeps
    )
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        clf.fit(as_float(X), y)
    return clf.coef_[0]


# ---------------------------------------------------------------- trace


@pytest.mark.parametrize("seed", [0, 1, 2, 7, 42])
def test_trace_key_rederived(seed):
    task = generate("trace", seed)
    X, y, key = task.data["X"], task.data["y"], task.answers
    Xf = as_float(X)
    # the compiled float engine and scikit-learn agree with the exact key
    run = perceptron(Xf, y)
    assert (run.mistakes, run.sweeps, run.converged) == (key["mistakes"], key["sweeps"], True)
    assert run.w.tolist() == [float(c) for c in key["final_w"]]
    np.testing.assert_array_equal(
        sklearn_final_w(X, y, key["sweeps"]), [float(c) for c in key["final_w"]]
    )
    # the worksheet, replayed by the float reference engine, step by step
    traced = perceptron(Xf, y, trace=True, backend="reference")
    assert [s.score for s in traced.steps] == [float(s.score) for s in task.run.steps]
    ties = [(s.sweep, s.index) for s in traced.steps[1:] if s.score == 0]
    assert ties == key["ties"] and ties
    assert traced.table("md") == task.run.table("md")
    # (b): R², the scores of w*, rho² and the bound, with NumPy
    w_star = np.array(key["w_star"], dtype=float)
    scores = np.asarray(y) * (Xf @ w_star)
    assert scores.tolist() == [float(s) for s in key["star_scores"]] and scores.min() > 0
    assert float(key["R2"]) == (Xf**2).sum(axis=1).max()
    assert float(key["rho2"]) == pytest.approx(scores.min() ** 2 / (w_star @ w_star), rel=1e-15)
    assert key["bound"] == key["R2"] / key["rho2"] >= key["mistakes"]  # Novikoff
    # w* is the best separator on the small grid (brute force)
    best = max(
        ((a, b) for a in range(-3, 4) for b in range(-3, 4) if (a, b) != (0, 0)),
        key=lambda w: (np.asarray(y) * (Xf @ w)).min() / np.hypot(*w),
    )
    assert (np.asarray(y) * (Xf @ best)).min() / np.hypot(*best) == pytest.approx(
        float(key["rho2"]) ** 0.5
    )
    # (c): eta only scales w
    run_eta = perceptron(Xf, y, eta=float(key["eta"]))
    assert run_eta.mistakes == key["mistakes_eta"] == key["mistakes"]
    assert run_eta.w.tolist() == pytest.approx([float(c) for c in key["final_w_eta"]])
    # the texts show the engine's numbers
    md, tex = task.markdown(solution=True), task.latex(solution=True)
    assert task.run.table("md").strip() in md and task.run.table("latex").strip() in tex
    assert f"{key['mistakes']} mistakes, final $w={tex_vec(key['final_w'])}$" in md
    assert f"again {key['mistakes']} mistakes, final $w={tex_vec(key['final_w_eta'])}$" in md


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 10**6))
def test_trace_tasks_separable_2_to_5_sweeps_with_a_tie(seed):
    task = generate("trace", seed)
    Xf, y = as_float(task.data["X"]), np.asarray(task.data["y"])
    key = task.answers
    assert 2 <= key["sweeps"] <= 5 and key["converged"]
    # separable: the final w is a certificate
    assert (y * (Xf @ np.array(key["final_w"], dtype=float))).min() > 0
    assert any(s.score == 0 for s in task.run.steps[1:])
    assert np.abs(Xf).max() <= 2 and len(Xf) in (3, 4)
    assert task.points == 4


def test_seed_000_trace_task_reproduced():
    # the exam task of "Perceptron Mistake Bound" with its w* = (1, -2) and eta = 2: the hand-worked solution
    X, y = [(1, 0), (1, 1), (0, 1)], [1, -1, -1]
    run = perceptron(X, y, exact=True, trace=True)
    ties = [s for s in run.steps[1:] if s.score == 0]
    task = trace_from(X, y, run, ties, None, 0, w_star=(1, -2), eta=2)
    key = task.answers
    assert key["mistakes"] == 5 and key["final_w"] == (1, -2) and key["sweeps"] == 4
    assert key["R2"] == 2 and key["rho2"] == Fraction(1, 5) and key["bound"] == 10
    assert key["final_w_eta"] == (2, -4) and key["mistakes_eta"] == 5
    assert key["ties"] == [(2, 0), (2, 1), (3, 0)]
    md = task.solution_markdown()
    assert "| 4 | all | 1, 1, 2 | no | stop |" in md
    assert "\\rho=1/\\sqrt{5}" in md and "=10\\ge 5$ ✓" in md
    assert "(2 points: 1 point for sweeps 1–2, 1 point for sweeps 3–4 and the stop)" in md


# ---------------------------------------------------------------- margin


@pytest.mark.parametrize("seed", [0, 1, 5, 11])
def test_margin_key_rederived(seed):
    task = generate("margin", seed)
    data, key = task.data, task.answers
    Xf, y = as_float(data["X"]), np.asarray(data["y"])
    rho = {}
    for name in "AB":
        w = np.array(data[f"w_{name}"], dtype=float)
        scores = y * (Xf @ w)
        assert scores.min() > 0  # both candidates separate
        assert scores.tolist() == [float(s) for s in key["scores"][name]]
        rho[name] = scores.min() / np.linalg.norm(w)
        assert float(key["rho2"][name]) == pytest.approx(rho[name] ** 2, rel=1e-14)
    better = max("AB", key=rho.get)
    assert key["better"] == better and rho["A"] != pytest.approx(rho["B"])
    R2 = (Xf**2).sum(axis=1).max()
    assert float(key["R2"]) == R2
    assert float(key["best_bound"]) == pytest.approx(R2 / rho[better] ** 2)
    assert key["best_bound"] == min(key["bounds"].values())
    # (c): x5 keeps the better w separating, but shrinks its margin and grows R
    x5, y5 = np.array(data["x5"], dtype=float), data["y5"]
    w = np.array(data[f"w_{better}"], dtype=float)
    X5, Y5 = np.vstack([Xf, x5]), np.append(y, y5)
    margin5 = (Y5 * (X5 @ w)).min() / np.linalg.norm(w)
    assert margin5 > 0 and margin5 < rho[better]
    assert float(key["rho2_new"]) == pytest.approx(margin5**2)
    assert float(key["R2_new"]) == (X5**2).sum(axis=1).max() > R2
    assert float(key["bound_new"]) == pytest.approx((X5**2).sum(axis=1).max() / margin5**2)
    # the perceptron on the data respects the best bound
    assert perceptron(Xf, y).mistakes <= key["best_bound"]


def test_seed_000_margin_task_reproduced():
    X, y = [(3, 1), (1, 2), (-1, -1), (0, -2)], [1, 1, -1, -1]
    task = margin_from(X, y, (1, 1), (1, 2), (4, -3), 1, 0)
    key = task.answers
    assert key["scores"]["A"] == [4, 3, 2, 2] and key["scores"]["B"] == [5, 5, 3, 4]
    assert key["rho2"] == {"A": 2, "B": Fraction(9, 5)}
    assert key["best_bound"] == 5 and key["bounds"]["B"] == Fraction(50, 9)
    assert key["R2_new"] == 25 and key["bound_new"] == 50
    md = task.solution_markdown()
    assert (
        "$\\rho_A=2/\\sqrt{2}\\approx 1.414$" in md
        and "The bound becomes $25/\\left(\\tfrac{1}{2}\\right)=50$" in md
    )


# ---------------------------------------------------------------- generalization


def smallest_n(ratio, epsilon):
    """Brute force: double, then bisect, on the definition ratio/(n+1) <= epsilon."""
    hi = 1
    while ratio / (hi + 1) > epsilon:
        hi *= 2
    lo = -1  # ratio/(lo+1) > epsilon is assumed for lo = -1 (n+1 = 0)
    while hi - lo > 1:
        mid = (lo + hi) // 2
        if mid >= 0 and ratio / (mid + 1) <= epsilon:
            hi = mid
        else:
            lo = mid
    return hi


@pytest.mark.parametrize("seed", range(8))
def test_generalization_key_rederived(seed):
    task = generate("generalization", seed)
    d, key = task.data, task.answers
    ratio = d["R"] ** 2 / d["rho"] ** 2
    assert key["test_error"] == ratio / (d["n"] + 1) <= Fraction(1, 10)
    assert key["n_min"] == smallest_n(ratio, d["epsilon"]) > d["n"]
    what, factor = d["change"]
    changed = ratio * factor**2
    assert key["ratio_changed"] == changed
    assert key["n_min_changed"] == smallest_n(changed, d["epsilon"])
    md = task.markdown(solution=True)
    assert f"$n\\ge {key['n_min']}$" in md or f"n\\ge {key['n_min']}$" in md
    assert f"n\\ge {key['n_min_changed']}$" in md


def test_seed_000_generalization_task_reproduced():
    task = generalization_from(
        Fraction(2), Fraction(1, 2), 999, Fraction(5, 1000), ("margin", 2), 10, 1000, 0
    )
    key = task.answers
    assert (
        key["test_error"] == Fraction(16, 1000)
        and key["n_min"] == 3199
        and key["n_min_changed"] == 12799
    )
    md = task.markdown(solution=True)
    assert "=\\frac{1}{1000}\\cdot\\frac{4}{0.25}=0.016$, i.e. $1.6\\%$" in md
    assert "$\\frac{16}{n+1}\\le 0.005\\iff n+1\\ge 3200\\iff n\\ge 3199$" in md
    assert (
        "Halving the margin multiplies $R^2/\\rho^2$ by 4, so one needs $n+1\\ge 12800\\iff n\\ge 12799$"
        in md
    )
    assert "test error of at most $0.5\\%$" in md


# ---------------------------------------------------------------- texts


@pytest.mark.parametrize("kind", exams.KINDS)
@pytest.mark.parametrize("seed", [0, 3])
def test_texts_well_formed(kind, seed):
    task = generate(kind, seed)
    assert task.markdown(solution=True) == generate(kind, seed).markdown(
        solution=True
    )  # deterministic
    md, tex = task.markdown(), task.latex(solution=True, standalone=True)
    assert md.startswith("### Exam-style task:") and "(4 points)" in md
    for letter in "abc":
        assert f"**({letter})**" in md and f"\\textbf{{({letter})}}" in tex
    assert "Solution" not in md and "Solution" in task.markdown(solution=True)
    assert task.solution_markdown() in task.markdown(solution=True)
    assert tex.startswith("\\documentclass") and tex.rstrip().endswith("\\end{document}")
    body = tex.replace("\\$", "")
    assert body.count("$") % 2 == 0 and body.count("{") == body.count("}")
    assert not re.search(r"(?<!\\)%", tex)  # every percent sign escaped
    assert task.render("latex", solution=True) == task.latex(solution=True)
    assert sum(p.points for p in task.parts) == 4


def test_different_seeds_give_different_tasks():
    for kind in exams.KINDS:
        texts = {generate(kind, seed).markdown() for seed in range(6)}
        assert len(texts) >= 4


@pytest.mark.parametrize(
    "kind, seed, match",
    [
        ("essay", 0, "kind"),
        ("trace", -1, "seed"),
        ("trace", None, "seed"),
        ("trace", "3", "seed"),
    ],
)
def test_bad_input(kind, seed, match):
    with pytest.raises(InputError, match=match):
        generate(kind, seed)
    with pytest.raises(InputError, match="fmt"):
        generate("trace", 0).render("pdf")


# ---------------------------------------------------------------- the command line


def test_cli_exam(tmp_path):
    from typer.testing import CliRunner

    from perceptronlab.cli import app

    runner = CliRunner()
    result = runner.invoke(app, ["exam", "--kind", "trace", "--seed", "5"])
    assert result.exit_code == 0 and result.stdout == generate("trace", 5).markdown()
    result = runner.invoke(
        app, ["exam", "--kind", "margin", "--seed", "2", "--solution", "--format", "latex"]
    )
    assert result.exit_code == 0 and result.stdout == generate("margin", 2).latex(solution=True)
    out = tmp_path / "task.tex"
    result = runner.invoke(
        app,
        [
            "exam",
            "-k",
            "generalization",
            "-s",
            "1",
            "-f",
            "latex",
            "--standalone",
            "--solution",
            "--out",
            str(out),
        ],
    )
    assert result.exit_code == 0 and out.read_text().startswith("\\documentclass")
    assert runner.invoke(app, ["exam", "--kind", "essay"]).exit_code == 2
    assert runner.invoke(app, ["exam", "--kind", "trace", "--seed", "-1"]).exit_code == 2
    result = runner.invoke(
        app, ["exam", "--kind", "trace", "--out", str(tmp_path / "no" / "such" / "dir.md")]
    )
    assert result.exit_code == 1 and "missing folder" in result.output


# ---------------------------------------------------------------- data, worksheets, Typst and PDF


@pytest.mark.parametrize("kind, seed", [("trace", 0), ("trace", 7), ("margin", 2)])
def test_dataset_csv_is_the_tasks_data(tmp_path, kind, seed):
    from perceptronlab import read_data

    task = generate(kind, seed)
    path = tmp_path / "data.csv"
    path.write_text(task.dataset_csv())
    X, y = read_data(path, exact=True)
    assert [tuple(x) for x in X] == [tuple(x) for x in task.data["X"]]
    assert y.tolist() == list(task.data["y"])


def test_generalization_has_no_dataset_and_margin_no_worksheet():
    with pytest.raises(InputError, match="dataset"):
        generate("generalization", 0).dataset_csv()
    with pytest.raises(InputError, match="worksheet"):
        generate("margin", 0).worksheet_csv()


@pytest.mark.parametrize("seed", [0, 3, 7])
def test_blank_worksheet_carries_the_task_and_checks_when_filled(seed):
    import io

    from perceptronlab.teach.sheets import check_sheet, read_header

    task = generate("trace", seed)
    blank = task.worksheet_csv()
    header = read_header(io.StringIO(blank))
    assert list(header.X) == [tuple(x) for x in task.data["X"]] and list(header.y) == list(
        task.data["y"]
    )
    assert header.eta == 1 and header.fit_intercept is False
    # the blank sheet is refused at its first empty cell, with the file's own line number
    comments = [ln for ln in blank.splitlines() if ln.startswith("#")]
    result = None
    with pytest.raises(InputError, match=rf"row 1 \(line {len(comments) + 2}\), score"):
        result = check_sheet(io.StringIO(blank))
    assert result is None
    # filled in correctly it passes; with the tie marked as no mistake it names the slip
    filled = "\n".join(comments) + "\n" + task.run.table("csv")
    assert check_sheet(io.StringIO(filled)).ok
    sweep, index = task.answers["ties"][0]
    k = next(i for i, s in enumerate(task.run.steps) if (s.sweep, s.index) == (sweep, index))
    rows = filled.splitlines()
    row = len(comments) + 1 + k
    cells = rows[row].split(",", 4)
    assert cells[2] == "0" and cells[3] == "yes"
    w_before = task.run.steps[k - 1].w
    rows[row] = ",".join(cells[:3] + ["no", '"(' + ", ".join(str(c) for c in w_before) + ')"'])
    verdict = check_sheet(io.StringIO("\n".join(rows) + "\n"))
    assert (verdict.ok, verdict.slip, verdict.first_wrong_row) == (False, "tie-as-correct", k + 1)


def test_sheet_header_must_agree_with_what_is_passed():
    import io

    from perceptronlab.teach.sheets import blank_sheet, check_sheet

    X, y = [[1, 0], [1, 1], [0, 1]], [1, -1, -1]
    run = perceptron(X, y, eta=Fraction(1, 2), fit_intercept=True, exact=True, trace=True)
    sheet = blank_sheet(X, y, eta="1/2", fit_intercept=True).split("sweep,")[0] + run.table("csv")
    assert check_sheet(io.StringIO(sheet)).ok  # eta and intercept from the header
    assert check_sheet(io.StringIO(sheet), X, y, eta=Fraction(1, 2), fit_intercept=True).ok
    assert check_sheet(io.StringIO(sheet), np.array(X, dtype=float), np.array(y)).ok  # same numbers
    with pytest.raises(InputError, match="eta"):
        check_sheet(io.StringIO(sheet), eta=1)
    with pytest.raises(InputError, match="fit_intercept"):
        check_sheet(io.StringIO(sheet), fit_intercept=False)
    with pytest.raises(InputError, match="other data"):
        check_sheet(io.StringIO(sheet), [[1, 0], [1, 1], [0, 2]], y)
    with pytest.raises(InputError, match="'# data:'"):
        check_sheet(io.StringIO(run.table("csv")))
    with pytest.raises(InputError, match="line 2"):
        check_sheet(io.StringIO("# data: x1,y\n# data: one,1\n" + run.table("csv")))


def test_typst_source_carries_every_number_of_the_task():
    for kind, seed in [("trace", 0), ("margin", 2), ("generalization", 1)]:
        task = generate(kind, seed)
        source = task.typst(solution=True)
        assert source.count("#pagebreak()") == 1
        for x in task.data.get("X", []):
            assert "(" + ",".join(str(c) for c in x) + ")" in source.replace(" ", "")
        if kind == "generalization":
            assert f"n = {task.data['n']}" in source and str(task.answers["n_min"]) in source
    assert generate("trace", 0).render("typst") == generate("trace", 0).typst()


@pytest.mark.parametrize("kind", exams.KINDS)
@pytest.mark.parametrize("seed", range(8))
def test_every_task_typesets(kind, seed):
    pdf = generate(kind, seed).pdf(solution=True)
    assert pdf.startswith(b"%PDF-")


def _pdf_text(pdf: bytes) -> str:
    import io

    import pypdf

    text = "\n".join(page.extract_text() for page in pypdf.PdfReader(io.BytesIO(pdf)).pages)
    return text.replace("−", "-")


def test_pdf_text_carries_the_tasks_numbers():
    task = generate("trace", 7)
    text = _pdf_text(task.pdf(solution=True))
    compact = text.replace(" ", "")
    for x in task.data["X"]:
        assert "(" + ",".join(str(c) for c in x) + ")" in compact
    # the key's worksheet, row by row, as the table prints it
    for row in task.run.worksheet_rows():
        assert " ".join(row) in text, row
    assert f"{task.answers['mistakes']} mistakes" in text
    general = generate("generalization", 1)
    text = _pdf_text(general.pdf(solution=False))
    assert (
        f"{general.data['n']}" in text and str(general.answers["n_min"]) not in text
    )  # no key asked
    assert str(general.answers["n_min"]) in _pdf_text(general.pdf(solution=True))


def test_cli_exam_pdf_data_and_sheet(tmp_path):
    from typer.testing import CliRunner

    from perceptronlab.cli import app

    runner = CliRunner()
    pdf, data, sheet = tmp_path / "exam.pdf", tmp_path / "data.csv", tmp_path / "sheet.csv"
    result = runner.invoke(
        app,
        [
            "exam",
            "-k",
            "trace",
            "-s",
            "4",
            "--solution",
            "-f",
            "pdf",
            "-o",
            str(pdf),
            "--data-out",
            str(data),
            "--sheet-out",
            str(sheet),
        ],
    )
    assert result.exit_code == 0, result.output
    task = generate("trace", 4)
    assert pdf.read_bytes().startswith(b"%PDF-") and data.read_text() == task.dataset_csv()
    assert sheet.read_text() == task.worksheet_csv()
    assert all(" ".join(row) in _pdf_text(pdf.read_bytes()) for row in task.run.worksheet_rows())
    typst_source = runner.invoke(app, ["exam", "-k", "margin", "-f", "typst"])
    assert typst_source.exit_code == 0 and typst_source.stdout == generate("margin", 0).typst()
    # refusals: one line, exit 1, nothing written
    for args, piece in [
        (["-k", "generalization", "--data-out", str(tmp_path / "g.csv")], "--data-out"),
        (["-k", "margin", "--sheet-out", str(tmp_path / "m.csv")], "--sheet-out"),
        (["-k", "trace", "-f", "pdf"], "--out"),
    ]:
        refused = runner.invoke(app, ["exam", *args])
        assert (
            refused.exit_code == 1 and piece in refused.stderr and "Traceback" not in refused.output
        )
    assert not (tmp_path / "g.csv").exists() and not (tmp_path / "m.csv").exists()
    # the student's round trip: the blank sheet filled in, checked with no --data
    comments = [ln for ln in sheet.read_text().splitlines() if ln.startswith("#")]
    sheet.write_text("\n".join(comments) + "\n" + task.run.table("csv"))
    checked = runner.invoke(app, ["check", str(sheet)])
    assert checked.exit_code == 0 and checked.stdout.startswith("correct:")


# ---------------------------------------------------------------- the lecture's other kinds: keys by brute force

LECTURE_SEEDS = range(40)


def _dot(w, x):
    return sum(Fraction(a) * Fraction(b) for a, b in zip(w, x, strict=True))


def _brute(X, y, eta=Fraction(1), margin=Fraction(0), max_sweeps=50, stop_after_sweeps=None):
    """The (margin) perceptron written out: cyclic, update on y<w,x> <= margin; (updates, w, steps)."""
    w = [Fraction(0)] * len(X[0])
    updates, steps = 0, []
    for sweep in range(1, max_sweeps + 1):
        clean = True
        for i, (x, label) in enumerate(zip(X, y, strict=True)):
            score = label * _dot(w, x)
            if score <= margin:
                w = [a + eta * label * Fraction(b) for a, b in zip(w, x, strict=True)]
                updates, clean = updates + 1, False
            steps.append((sweep, i, score, score <= margin, tuple(w)))
        if clean or sweep == stop_after_sweeps:
            return updates, tuple(w), steps, clean
    return updates, tuple(w), steps, False


def _rho2(w, X, y):
    return min(label * _dot(w, x) for x, label in zip(X, y, strict=True)) ** 2 / _dot(w, w)


@pytest.mark.parametrize("seed", LECTURE_SEEDS)
def test_distance_key_by_hand(seed):
    task = generate("distance", seed)
    w, X, y, key = task.data["w"], task.data["X"], task.data["y"], task.answers
    norm2 = _dot(w, w)
    assert key["norm"] ** 2 == norm2
    distances = [label * _dot(w, x) / key["norm"] for x, label in zip(X, y, strict=True)]
    assert key["distances"] == distances and min(distances) > 0
    assert key["rho"] ** 2 == _rho2(w, X, y) and key["closest"] == distances.index(min(distances))
    assert key["scaled_scores"] == [
        task.data["factor"] * label * _dot(w, x) for x, label in zip(X, y, strict=True)
    ]
    assert (
        f"\\tfrac{{{abs(key['rho'].numerator)}}}" in task.markdown(solution=True)
        or key["rho"].denominator == 1
    )


@pytest.mark.parametrize("seed", LECTURE_SEEDS)
def test_margin_perceptron_key_by_hand(seed):
    task = generate("margin-perceptron", seed)
    X, y, rho0, key = task.data["X"], task.data["y"], task.data["rho0"], task.answers
    updates, w, steps, clean = _brute(X, y, margin=rho0)
    assert clean and key["mistakes"] == updates and key["final_w"] == w
    assert [tuple(r[:2]) for r in key["worksheet"]][:2] == [
        (str(steps[0][0]), f"x{steps[0][1] + 1}"),
        (str(steps[1][0]), f"x{steps[1][1] + 1}"),
    ]
    R2 = max(_dot(x, x) for x in X)
    assert key["R2"] == R2 and key["rho2"] == _rho2(key["w_star"], X, y)
    assert key["bound"] == (R2 + 2 * rho0) / key["rho2"] >= updates  # the exercise sheet's theorem
    plain_updates, plain_w, _, _ = _brute(X, y)
    assert (key["plain_mistakes"], key["plain_w"]) == (
        plain_updates,
        plain_w,
    ) and plain_updates < updates
    assert key["rho2_margin"] == _rho2(w, X, y) and key["rho2_plain"] == _rho2(plain_w, X, y)


@pytest.mark.parametrize("seed", LECTURE_SEEDS)
def test_eta_key_by_hand(seed):
    task = generate("eta", seed)
    X, y, eta, key = task.data["X"], task.data["y"], task.data["eta"], task.answers
    updates, w, _, _ = _brute(X, y, eta=eta)
    unit_updates, unit_w, _, _ = _brute(X, y)
    assert (key["mistakes"], key["final_w"]) == (updates, w) and key[
        "unit_mistakes"
    ] == unit_updates == updates
    assert w == tuple(eta * c for c in unit_w)  # eta-invariance, checked on the task's own numbers
    m_updates, m_w, _, _ = _brute(X, y, eta=eta, margin=Fraction(1))
    u_updates, u_w, _, _ = _brute(X, y, margin=Fraction(1))
    assert (
        key["margin_mistakes"],
        key["margin_w"],
        key["unit_margin_mistakes"],
        key["unit_margin_w"],
    ) == (m_updates, m_w, u_updates, u_w) and m_updates != u_updates


@pytest.mark.parametrize("seed", LECTURE_SEEDS)
def test_pocket_key_by_hand(seed):
    task = generate("pocket", seed)
    X, y, key = task.data["X"], task.data["y"], task.answers
    assert not _brute(X, y, max_sweeps=30)[
        3
    ]  # the perceptron does not converge: not separable here
    _, _, steps, _ = _brute(X, y, max_sweeps=3)
    ws = [s[4] for s in steps if s[3]][:4]
    errors = [sum(1 for x, label in zip(X, y, strict=True) if label * _dot(w, x) <= 0) for w in ws]
    pocket, pocket_errors = (
        None,
        len(X),
    )  # w = 0 errs on every point; replaced only by strictly fewer
    for w, e in zip(ws, errors, strict=True):
        if e < pocket_errors:
            pocket, pocket_errors = w, e
    assert key["ws"] == ws and key["errors"] == errors
    assert key["pocket"] == pocket != key["last"] and key["pocket_errors"] == pocket_errors


@pytest.mark.parametrize("seed", LECTURE_SEEDS)
def test_online_key_by_hand(seed):
    task = generate("online", seed)
    X, y, key = task.data["X"], task.data["y"], task.answers
    w = (Fraction(0), Fraction(0))
    mistakes = []
    for k, (x, label) in enumerate(zip(X, y, strict=True)):
        inner = _dot(w, x)  # the prediction is made before the label is read
        assert key["inners"][k] == inner
        mistake = label * inner <= 0
        mistakes.append(mistake)
        if mistake:
            first = mistakes.index(True)
            if k == first:
                assert key["early_score"] == label * _dot(
                    [a + label * b for a, b in zip(w, x, strict=True)], x
                )
            w = tuple(a + label * b for a, b in zip(w, x, strict=True))
    assert key["mistakes"] == mistakes and key["final_w"] == w
    assert key["rho2"] == _rho2(key["w_star"], X, y) > 0 and key["bound"] >= sum(mistakes)


@pytest.mark.parametrize("kind", ["distance", "margin-perceptron", "eta", "pocket", "online"])
def test_cli_makes_the_lecture_kinds(kind):
    from typer.testing import CliRunner

    from perceptronlab.cli import app

    result = CliRunner().invoke(app, ["exam", "--kind", kind, "--seed", "5", "--solution"])
    assert result.exit_code == 0, result.output
    assert result.stdout == generate(kind, 5).markdown(solution=True)


def test_trace_part_a_prints_a_blank_worksheet_grid():
    from perceptronlab.teach.task import GRID_ROWS, WORKSHEET_HEADER

    tasks = [generate("trace", seed) for seed in (0, 5)]
    for task in tasks:
        md = task.markdown()
        assert "| " + " | ".join(WORKSHEET_HEADER) + " |" in md
        assert md.count("|   |   |   |   |   |") == GRID_ROWS  # blank, the same for every variant
        assert GRID_ROWS >= len(task.answers["worksheet"])  # room for the whole run
        latex = task.latex()
        assert latex.count(r" & & & & \\[1.2ex] \hline") == GRID_ROWS
        assert task.typst().count('" "') == GRID_ROWS * len(WORKSHEET_HEADER)
    # the solution's filled table comes only with the key
    assert "| 1 | x1 |" not in tasks[0].markdown() and "| 1 | x1 |" in tasks[0].markdown(True)
