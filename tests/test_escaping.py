"""Hostile labels through every writer of HTML, LaTeX and plot text: nothing a label holds becomes
live markup (an element, a LaTeX command, a comment's end, matplotlib's math text)."""

from __future__ import annotations

import csv
import re
from html.parser import HTMLParser

import pytest
from typer.testing import CliRunner

from perceptronlab._ground.markup import (
    flat_text,
    html_text,
    latex_text,
    markdown_text,
    mathtext_literal,
)
from perceptronlab.cli import app

IMG = "<img src=x onerror=alert(1)>"
QUOTES = "\"q\" & 's'"
TEX = "c\n\\input{/etc/passwd}"
HOSTILE = (IMG, QUOTES, TEX)

runner = CliRunner()


class _Elements(HTMLParser):
    """The tags and attributes a browser would build from a page."""

    def __init__(self) -> None:
        super().__init__()
        self.tags: list[str] = []
        self.attributes: list[str] = []

    def handle_starttag(self, tag, attrs):
        self.tags.append(tag)
        self.attributes += [name for name, _ in attrs]


def _elements(page: str) -> _Elements:
    parser = _Elements()
    parser.feed(page)
    return parser


def _three_classes(tmp_path, labels=HOSTILE):
    path = tmp_path / "hostile.csv"
    with path.open("w", newline="", encoding="utf-8") as handle:
        writer = csv.writer(handle)
        writer.writerow(["x1", "x2", "label"])
        for k, label in enumerate(labels * 2):
            writer.writerow([k % 3, k // 3, label])
    return path


def _trace(path, fmt: str) -> str:
    result = runner.invoke(
        app, ["trace", str(path), "-f", fmt, "--max-sweeps", "3", "--quiet"], catch_exceptions=False
    )
    assert result.exit_code == 0, result.output
    return result.stdout


def test_html_text_leaves_no_tag_and_no_attribute():
    for label in HOSTILE:
        page = f'<h3 title="{html_text(label)}">{html_text(label)}</h3>'
        parsed = _elements(page)
        assert parsed.tags == ["h3"] and parsed.attributes == ["title"]


def test_latex_text_escapes_every_special_and_removes_line_breaks():
    text = latex_text("a\r\nb\\c{d}$e&f#g%h_i^j~k\x0bl\u2028m")
    assert "\n" not in text and "\r" not in text and "\u2028" not in text
    # every backslash starts one of the escapes, never a command of the label's
    assert "\\" not in re.sub(
        r"\\(textbackslash|textasciicircum|textasciitilde)\{\}|\\[{}$&#%_]", "", text
    )
    assert latex_text(TEX) == "c \\textbackslash{}input\\{/etc/passwd\\}"


def test_markdown_flat_and_mathtext():
    assert markdown_text(IMG) == "\\<img src=x onerror=alert\\(1\\)\\>"
    assert flat_text("a\nb\rc") == "a b c"
    assert mathtext_literal("$\\frac$") == "\\$\\frac\\$"


def test_trace_html_escapes_every_class_label(tmp_path):
    page = _trace(_three_classes(tmp_path), "html")
    parsed = _elements(page)
    assert "img" not in parsed.tags and "onerror" not in parsed.attributes
    headings = re.findall(r"<h3>(.*?)</h3>", page, flags=re.S)
    assert len(headings) == 3
    assert {html_text(label) for label in HOSTILE} <= {
        h.removeprefix("class ").removesuffix(" (+1) against the rest (−1)") for h in headings
    }


def test_trace_latex_keeps_labels_out_of_comments_and_commands(tmp_path):
    tex = _trace(_three_classes(tmp_path), "latex")
    lines = tex.splitlines()
    assert not any(line.lstrip().startswith("%") for line in lines)  # no comment for a label to end
    assert not any(line.lstrip().startswith("\\input") for line in lines)
    assert "\\input" not in tex and "\\textbackslash{}input\\{/etc/passwd\\}" in tex
    assert "<img src=x onerror=alert(1)>" in tex  # harmless in LaTeX: shown as written
    assert tex.count("\\textbf{class ") == 3


@pytest.mark.parametrize("fmt", ["md", "csv"])
def test_trace_md_and_csv_headings_stay_one_line(tmp_path, fmt):
    text = _trace(_three_classes(tmp_path), fmt)
    headings = [line for line in text.splitlines() if "against the rest" in line]
    assert len(headings) == 3
    assert not any(line.startswith("\\input") for line in text.splitlines())
    if fmt == "md":
        assert re.search(r"(?<!\\)<img", text) is None and "\\<img" in text


@pytest.mark.slow
def test_a_math_text_label_is_drawn_literally(tmp_path):
    """matplotlib's math-text parser raised on ``$\\frac$``; the label is now drawn as written."""
    pytest.importorskip("matplotlib")
    import io

    import numpy as np

    import perceptronlab as pl
    from perceptronlab.plots import decision_regions

    X = np.array([[1.0, 0.0], [2.0, 1.0], [0.0, 1.0], [0.0, 3.0]])
    y = np.array(["$\\frac$", "$\\frac$", "b", "b"], dtype=object)
    run = pl.perceptron(X, np.where(y == "b", 1, -1))
    figure = decision_regions(run, X, y)
    figure.savefig(io.BytesIO(), format="png")  # drawing parses the legend's text
    texts = [t.get_text() for t in figure.axes[0].get_legend().get_texts()]
    assert "class \\$\\frac\\$" in texts


@pytest.mark.slow
def test_report_with_hostile_and_math_text_labels(tmp_path):
    pytest.importorskip("matplotlib")
    data = _three_classes(tmp_path, labels=(IMG, "$\\frac$"))
    out = tmp_path / "report"
    result = runner.invoke(app, ["report", str(data), "--out", str(out), "--quiet"])
    assert result.exit_code == 0, result.output
    page = (out / "report.html").read_text(encoding="utf-8")
    parsed = _elements(page)
    assert "onerror" not in parsed.attributes and "script" not in parsed.tags
    assert html_text(IMG) in page


def test_the_snapshot_page_escapes_its_note():
    pytest.importorskip("fastapi")
    from perceptronlab.web.snapshot import snapshot_html

    page = snapshot_html({"note": IMG}, made=IMG)
    tags, attributes = _elements(page).tags, _elements(page).attributes
    assert "img" not in tags and "onerror" not in attributes
    assert html_text(IMG) in page
