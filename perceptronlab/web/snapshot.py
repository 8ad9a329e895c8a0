"""A lab run as one self-contained HTML file that plays back without a server.

The page's own snapshot (``static/snapshot.js``) and this module fill the same template
(``static/snapshot.html``): the page's ES modules, its CSS and the recorded answer of
:func:`perceptronlab.web.api.compute`. Here the modules are the one module of
:func:`perceptronlab.web.bundle.bundle`, as the Jupyter widget loads them.

>>> from perceptronlab.web import api
>>> payload = {"points": [[1, 0], [1, 1], [0, 1]], "labels": [1, -1, -1], "options": {}}
>>> html = snapshot_html(recording(payload, api.compute(payload)))
>>> html.startswith("<!doctype html>") and "mountSnapshot" in html and "{{data}}" not in html
True
"""

from __future__ import annotations

import json
import re
from datetime import date
from fractions import Fraction
from typing import Any

from perceptronlab._ground.markup import html_text
from perceptronlab.web.bundle import STATIC, bundle

__all__ = ["recording", "snapshot_html"]


def _number(value: Any) -> float:
    """A coordinate as the page holds it (a number; exact text such as "1/2" as its value)."""
    return float(Fraction(value)) if isinstance(value, str) else float(value)


def recording(payload: dict[str, Any], result: dict[str, Any], step: int = 0) -> dict[str, Any]:
    """What a snapshot holds (as ``recording`` of ``snapshot.js`` makes it): the input, the view, the answer.

    The options are the ones set (the page fills in its defaults, ``DEFAULT_OPTIONS`` of ``hash.js``).
    """
    points = [[_number(x), _number(y)] for x, y in payload["points"]]
    labels = [1 if float(label) > 0 else -1 for label in payload["labels"]]
    options = dict(payload.get("options") or {})
    sequence = list(options.pop("sequence", []) or [])
    return {
        "points": [
            {"x": x, "y": y, "label": label} for (x, y), label in zip(points, labels, strict=True)
        ],
        "options": options,
        "sequence": sequence,
        "snap": "0",
        "showMargin": True,
        "step": step,
        "payload": {
            "points": points,
            "labels": labels,
            "options": {**options, "sequence": sequence},
        },
        "result": result,
    }


def snapshot_html(recorded: dict[str, Any], made: str | None = None) -> str:
    """The snapshot file's text: ``static/snapshot.html`` filled with the bundled modules, the CSS and the run."""
    template = (STATIC / "snapshot.html").read_text(encoding="utf-8")
    css = (STATIC / "lab.css").read_text(encoding="utf-8")
    data = json.dumps(
        {
            "order": ["lab.js"],
            "sources": {"lab.js": bundle(STATIC / "lab.js")},
            "recorded": recorded,
        },
        ensure_ascii=False,
        allow_nan=False,
    ).replace("<", "\\u003c")
    values = {
        "css": re.sub(r"</style", r"<\\/style", css, flags=re.IGNORECASE),
        "data": data,
        "made": html_text(made or f"perceptronlab in Jupyter, {date.today().isoformat()}"),
    }
    return re.sub(r"\{\{(\w+)\}\}", lambda match: values.get(match[1], match[0]), template)
