"""perceptronlab.studies.report: one self-contained page with the analysis' and the engine's numbers."""

import base64
import html
import re

import numpy as np
import pytest
from typer.testing import CliRunner

from perceptronlab import analyze, datasets, perceptron
from perceptronlab.bounds import novikoff
from perceptronlab.exceptions import InputError
from perceptronlab.studies.report import _analysis_cards, _number, build_report, write_report
from perceptronlab.theory.geometry import max_margin, radius

PNG_MAGIC = b"\x89PNG\r\n\x1a\n"


def _images(page: str) -> list[bytes]:
    return [
        base64.b64decode(data)
        for data in re.findall(r'src="data:image/png;base64,([A-Za-z0-9+/=]+)"', page)
    ]


def _self_contained(page: str) -> None:
    assert "http://" not in page and "https://" not in page
    assert "<script" not in page and "<link" not in page and "@import" not in page
    # every src is an embedded image
    assert all(
        src.startswith("data:image/png;base64,") for src in re.findall(r'src="([^"]*)"', page)
    )


@pytest.fixture(scope="module")
def exam_page(tmp_path_factory):
    path = write_report(*datasets.exam_task(), tmp_path_factory.mktemp("exam"), title="Exam task")
    return path, path.read_text(encoding="utf-8")


def test_exam_report_is_one_self_contained_file(exam_page):
    path, page = exam_page
    assert path.name == "report.html" and path.is_file()
    assert (
        page.startswith("<!DOCTYPE html>")
        and "<style>" in page
        and "<title>Exam task</title>" in page
    )
    _self_contained(page)
    images = _images(page)
    assert len(images) == 4  # the plane, the squeeze, the sweeps, the bound surface
    assert all(image.startswith(PNG_MAGIC) for image in images)


def test_exam_report_holds_the_analysis_and_the_seeds_numbers(exam_page):
    _, page = exam_page
    X, y = datasets.exam_task()
    analysis = analyze(X, y)
    assert html.escape(str(analysis.separability), quote=True) in page
    for label, value, *_ in _analysis_cards(analysis):
        assert f'<div class="label">{html.escape(label, quote=True)}</div>' in page
        assert html.escape(_number(value), quote=True) in page, label
    # "Perceptron Mistake Bound", task (b): R = sqrt 2, rho* = 1/sqrt 5, bound 10 >= 5 mistakes
    assert "1.41421" in page and "0.447214" in page
    assert "The run converged and respected Novikoff&#x27;s bound: M = 5 ≤ R²/ρ*² = 10" in page
    assert "share of the bound used" in page and "50 %" in page
    # Theorem 2 with n = 3: 10/4 = 5/2, a bound on a probability above 1: said to be vacuous
    assert (
        '<div class="label">test-error bound R²/ρ*²/(n+1)</div><div class="value">5/2</div>' in page
    )
    assert "vacuous: a bound ≥ 1 on an error probability says nothing" in page
    assert "Why, and what to do" not in page  # nothing to advise on the seed's task


def test_exam_report_has_the_exact_worksheet(exam_page):
    _, page = exam_page
    run = perceptron(*datasets.exam_task(), exact=True, trace=True)
    assert run.table("html") in page
    assert "<td>4</td><td>all</td><td>1, 1, 2</td><td>no</td><td>stop</td>" in page


def test_non_separable_report_says_so_and_shows_pocket(tmp_path):
    X, y = datasets.nonseparable()
    page = write_report(X, y, tmp_path, fit_intercept=True).read_text(encoding="utf-8")
    _self_contained(page)
    assert "Not linearly separable" in page
    kept = analyze(X, y, fit_intercept=True, loo=False).pocket
    assert (
        f'<div class="label">pocket&#x27;s training errors</div><div class="value">{kept.pocket_errors}'
        in page
    )
    assert "the step-by-step trace is shown for at most 20 points" in page
    assert len(_images(page)) == 3  # the plane, the perceptron's sweeps, pocket's sweeps


def test_intercept_report_measures_the_bound_in_the_augmented_space(tmp_path):
    X, y = datasets.gaussian_pair(15, 3.0, seed=5, bias=False)
    page = build_report(X, y, fit_intercept=True)
    R = radius(X, fit_intercept=True)
    rho = max_margin(np.hstack([np.ones((30, 1)), X]), y).rho
    run = perceptron(X, y, fit_intercept=True)
    assert _number(R) in page and _number(rho) in page and _number(novikoff(R, rho)) in page
    assert (
        f"converged and respected Novikoff&#x27;s bound: M = {run.mistakes} ≤ R²/ρ*² = {_number(novikoff(R, rho))}"
        in page
    )
    assert "<h2>Worksheet</h2>" in page and "step-by-step" in page  # 30 points > 20


def test_bad_filename_and_unwritable_out_dir(tmp_path):
    X, y = datasets.exam_task()
    with pytest.raises(InputError, match="file name"):
        write_report(X, y, tmp_path, filename="a/b.html")
    blocker = tmp_path / "file"
    blocker.write_text("x")
    with pytest.raises(InputError, match="writable directory"):
        write_report(X, y, blocker / "sub")
    with pytest.raises(InputError, match="write_report option 'intercept'.*fit_intercept"):
        write_report(X, y, tmp_path, intercept=True)  # the command line's flag, not the option
    assert not list(tmp_path.glob("*.html"))  # refused before any work


def test_bad_labels_are_rejected_at_the_boundary():
    with pytest.raises(InputError, match="y"):
        build_report([[1.0, 2.0], [3.0, 4.0]], [1, 2, 3])


# ---------------------------------------------------------------- the CLI


def _cli(*args):
    from perceptronlab.cli import app

    return CliRunner().invoke(app, list(args))


def test_cli_report_reads_small_data_exactly(tmp_path):
    data = tmp_path / "points.csv"
    data.write_text("x1,x2,label\n0.5,0,yes\n0.5,0.5,no\n0,0.5,no\n")
    result = _cli("report", str(data), "--out", str(tmp_path / "out"), "--quiet")
    assert result.exit_code == 0, result.output
    path = tmp_path / "out" / "report.html"
    assert result.stdout.strip() == str(path)
    page = path.read_text(encoding="utf-8")
    _self_contained(page)
    # the exam task halved: exact halves in the worksheet, the same 5 mistakes, w = (1/2, -1)
    assert "<td>1</td><td>x<sub>2</sub></td><td>-1/4</td><td>yes</td><td>(0, -1/2)</td>" in page
    assert "(1/2, -1)" in page and "M = 5" in page
    assert "perceptronlab report: points.csv" in page


def test_cli_report_with_intercept_and_label_column(tmp_path):
    data = tmp_path / "d.csv"
    X, y = datasets.gaussian_pair(12, 4.0, seed=2, bias=False)
    rows = ["y,a,b"] + [
        f"{int(label)},{float(a)!r},{float(b)!r}" for (a, b), label in zip(X, y, strict=True)
    ]
    data.write_text("\n".join(rows) + "\n")
    result = _cli(
        "report", str(data), "--out", str(tmp_path / "r"), "--intercept", "--label", "y", "--quiet"
    )
    assert result.exit_code == 0, result.output
    page = (tmp_path / "r" / "report.html").read_text(encoding="utf-8")
    assert (
        "The run converged and respected Novikoff" in page
        and '<div class="value">yes</div>' in page
    )


def test_cli_report_missing_file_is_exit_1(tmp_path):
    result = _cli("report", str(tmp_path / "nope.csv"), "--out", str(tmp_path))
    assert result.exit_code == 1
    assert "Error:" in result.output and "Traceback" not in result.output


@pytest.mark.parametrize(
    ("data", "fit_intercept", "solved"),
    [
        (datasets.margin_task(), False, 1),
        (datasets.margin_task(), True, 1),
        (datasets.exam_task(), False, 1),
        (datasets.nonseparable(), False, 0),
        (datasets.nonseparable(), True, 0),
    ],
)
def test_the_report_computes_each_quantity_once(monkeypatch, data, fit_intercept, solved):
    """The report draws from the analysis: one separability LP, one max-margin QP (none when not
    separable), whatever the plots show."""
    import perceptronlab.theory._advice as advice
    import perceptronlab.theory._measure as measured
    import perceptronlab.theory.analysis as analysis
    import perceptronlab.theory.geometry as geometry

    calls = {"max_margin": 0, "separable": 0}

    def counted(name, function):
        def call(*args, **kwargs):
            calls[name] += 1
            return function(*args, **kwargs)

        return call

    # every module that looks the two up: the analysis' measurement and its advice, the plots'
    solve, split = geometry.max_margin, analysis.separable
    for module in (analysis, geometry, measured, advice):
        monkeypatch.setattr(module, "max_margin", counted("max_margin", solve))
    for module in (analysis, measured, advice):
        monkeypatch.setattr(module, "separable", counted("separable", split))
    X, y = data
    page = build_report(X, y, fit_intercept=fit_intercept)
    # one LP for the verdict; non-separable data without an intercept gets one more, the advice's check
    # whether an intercept would make it separable (issue 22)
    assert calls == {"max_margin": solved, "separable": 1 + (not solved and not fit_intercept)}
    assert ("max-margin band" in page) == bool(solved)


def test_the_reports_band_is_the_analysis_margin_in_the_augmented_space():
    """With an intercept the band is the analysis' ρ* of the vectors (1, x) (the cards' ρ*), not the
    SVM's margin with a free b."""
    import matplotlib

    matplotlib.use("Agg")
    from perceptronlab import plots

    X, y = datasets.margin_task()
    found = analyze(X, y, fit_intercept=True)
    best = found.max_margin
    ax = plots.decision_regions(found.run, np.asarray(X, dtype=float), y, max_margin=best).axes[0]
    line = np.asarray(ax.lines[1].get_xydata())
    w, b = np.asarray(best.w, dtype=float), float(best.w[0])  # (b, w1, w2) of the augmented rows
    assert np.allclose(line @ w[1:] + b, 0.0)
    assert f"{best.rho:.4g}" in ax.lines[1].get_label()
    assert best.rho < max_margin(X, y, fit_intercept=True).rho  # a different quantity
