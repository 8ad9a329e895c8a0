"""The lab answers the page's unit tests read (tests/js/fixtures/runs.json) are the engine's.

The JavaScript tests (``node --test tests/js/``) hold the page's pure functions against these
answers of :func:`perceptronlab.web.api.compute` and against ``Run.worksheet_rows()`` and
``Run.table("csv")`` of the same runs; this test fails when the engine's answer drifts from the
file. To write it again: ``python tests/test_page_fixtures.py``.
"""

from __future__ import annotations

import json
from pathlib import Path

from perceptronlab import perceptron
from perceptronlab.web import api

FIXTURE = Path(__file__).resolve().parent / "js" / "fixtures" / "runs.json"

RUNS = {
    "exam": {"points": [[1, 0], [1, 1], [0, 1]], "labels": [1, -1, -1], "options": {}},
    "nonsep": {
        "points": [[2, 1], [3, 2.5], [1, 2], [2.5, -0.5], [-1.5, -2], [-2.5, -1], [-1, -3], [2, 2]],
        "labels": [1, 1, 1, 1, -1, -1, -1, -1],
        "options": {"max_sweeps": 5},
    },
}


def fixture_document() -> dict:
    document = {}
    for name, payload in RUNS.items():
        options = payload["options"]
        run = perceptron(
            payload["points"],
            payload["labels"],
            exact=True,
            warn=False,
            trace=True,
            max_sweeps=options.get("max_sweeps", 100),
        )
        document[name] = {
            "payload": payload,
            "answer": api.compute(payload),
            "worksheet_rows": [list(row) for row in run.worksheet_rows()],
            "worksheet_csv": run.table("csv"),
        }
    return document


def test_the_page_fixtures_are_the_engines_answers():
    assert json.loads(FIXTURE.read_text(encoding="utf-8")) == json.loads(
        json.dumps(fixture_document())
    )


if __name__ == "__main__":
    FIXTURE.write_text(
        json.dumps(fixture_document(), ensure_ascii=False, indent=1) + "\n", encoding="utf-8"
    )
