"""The README's real-data story is the code's real output (issue 14).

The README writes bc200.csv with a Python snippet, runs `perceptronlab report` on it, unscaled and with
--scale standard, and quotes each page as lines: `label: value (note)` for a card, and the text of the
page's boxes. This test runs the README's own snippet and commands and finds every quoted line on the
page the code writes.
"""

from __future__ import annotations

import html
import re
from pathlib import Path

import pytest

README = Path(__file__).resolve().parents[1] / "README.md"
STORY = re.compile(r"<!-- story: (?P<command>[^>]*?) -->\n```text\n(?P<lines>.*?)```", re.S)


def _snippet(readme: str) -> str:
    start = readme.index("## Your own data")
    block = re.search(r"```python\n(.*?)```", readme[start:], re.S)
    assert block is not None
    return block.group(1)


def _cards(page: str) -> dict[str, tuple[str, str | None]]:
    cards: dict[str, tuple[str, str | None]] = {}
    for label, value, note in re.findall(
        r'<div class="label">([^<]*)</div><div class="value">([^<]*)</div>'
        r'(?:<div class="note">([^<]*)</div>)?',
        page,
    ):
        cards.setdefault(
            html.unescape(label), (html.unescape(value), html.unescape(note) if note else None)
        )
    return cards


def _text(page: str) -> str:
    page = re.sub(r"<style>.*?</style>|<img[^>]*>", " ", page, flags=re.S)
    return html.unescape(re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", page)))


@pytest.fixture(scope="module")
def story(tmp_path_factory, run_once):
    readme = README.read_text(encoding="utf-8")
    stories = [(m.group("command"), m.group("lines").splitlines()) for m in STORY.finditer(readme)]
    assert [command for command, _ in stories] == [
        "report bc200.csv",
        "report bc200.csv --scale standard",
    ]
    where = tmp_path_factory.mktemp("story")
    cwd = Path.cwd()
    try:
        import os

        os.chdir(where)
        exec(compile(_snippet(readme), "README.md", "exec"), {})  # the README's own bc200.csv
    finally:
        os.chdir(cwd)
    pages = []
    for command, _ in stories:
        # the README's command on the README's file (once per test run: test_truth reads these too)
        name, data, *flags = command.split()
        assert data == "bc200.csv"
        folder, _ = run_once(name, where / data, *flags, "--quiet")
        pages.append((folder / "out" / "report.html").read_text(encoding="utf-8"))
    return list(zip(stories, pages, strict=True)), where / "bc200.csv"


def test_the_readme_writes_the_users_csv(story, bc200_csv):
    _, written = story
    import numpy as np

    import perceptronlab as pl

    header = written.read_text().splitlines()[0].split(",")
    assert len(header) == 31 and header[0] == "mean_radius" and header[-1] == "label"
    X, y = pl.read_data(written)
    X_tests, y_tests = pl.read_data(bc200_csv)  # the same data as the other tests' bc200.csv
    assert X.shape == (200, 30) and np.array_equal(X, X_tests) and np.array_equal(y, y_tests)


@pytest.mark.parametrize("which", [0, 1])
def test_every_quoted_line_is_on_the_page(story, which):
    (command, lines), page = story[0][which]
    cards, text = _cards(page), _text(page)
    assert lines
    for line in lines:
        if line.startswith("Why, and what to do: "):  # a box: its heading, then why
            assert line.replace(": ", " ", 1) in text, line
            continue
        if line.startswith("What to do: "):
            assert line in text, line
            continue
        label, _, rest = line.partition(": ")
        if label in cards:
            value, note = cards[label]
            shown = f"{value} ({note})" if note and rest.endswith(")") and rest != value else value
            assert rest == shown, (line, cards[label])
        else:
            assert line in text, line
