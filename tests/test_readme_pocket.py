"""The README's Pocket figures are the code's output: its iris pipeline is run here as written."""

from __future__ import annotations

import re
from pathlib import Path

README = Path(__file__).resolve().parents[1] / "README.md"


def test_the_readme_pocket_pipeline_says_what_it_gets():
    text = README.read_text(encoding="utf-8")
    line = re.search(
        r"^(pocket = make_pipeline\(StandardScaler\(\), PocketPerceptron\(.*\)\)\.fit\(X, y\))$",
        text,
        re.M,
    )
    shown = re.search(r"^pocket\[-1\]\.pocket_errors_, pocket\.score\(X, y\) +# (.+)$", text, re.M)
    assert line and shown, (
        "the README's PocketPerceptron pipeline on iris is gone: update this test"
    )
    from sklearn.datasets import load_iris
    from sklearn.pipeline import make_pipeline
    from sklearn.preprocessing import StandardScaler

    from perceptronlab import PocketPerceptron

    X, y = load_iris(return_X_y=True)
    names = {
        "make_pipeline": make_pipeline,
        "StandardScaler": StandardScaler,
        "PocketPerceptron": PocketPerceptron,
        "X": X,
        "y": y,
    }
    exec(line.group(1), names)
    pocket = names["pocket"]
    assert f"{pocket[-1].pocket_errors_}, {pocket.score(X, y)}" == shown.group(1)
