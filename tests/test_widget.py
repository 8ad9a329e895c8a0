"""The Jupyter widget's Python side: traits in, the lab's answer out (no browser needed)."""

from __future__ import annotations

import json
import subprocess
from fractions import Fraction

import numpy as np
import pytest

from perceptronlab import perceptron
from perceptronlab.exceptions import PerceptronLabError
from perceptronlab.web import api
from perceptronlab.web.bundle import STATIC, BundleError, bundle, module_order
from perceptronlab.web.widget import Lab

EXAM_X, EXAM_Y = [[1, 0], [1, 1], [0, 1]], [1, -1, -1]


def test_default_is_the_exam_task():
    lab = Lab()
    assert lab.points == EXAM_X and lab.labels == EXAM_Y
    assert lab.run["mistakes"] == 5 and lab.run["w_text"] == "(1, -2)"
    assert lab.cards["bound"]["text"] == "10" and lab.error == ""


def test_setting_points_updates_the_result():
    lab = Lab(points=EXAM_X, labels=EXAM_Y)
    points = [[3, 1], [1, 2], [-1, -1], [0, -2]]  # the margin task of "Perceptron Mistake Bound"
    labels = [1, 1, -1, -1]
    with lab.hold_trait_notifications():
        lab.points = points
        lab.labels = labels
    run = perceptron(points, labels, exact=True)
    assert lab.run["mistakes"] == run.mistakes
    assert lab.run["w_text"] == "(" + ", ".join(str(v) for v in run.w) + ")"
    assert lab.cards["R"]["text"] == "√10"
    assert lab.result == api.compute({"points": points, "labels": labels, "options": {}})


def test_options_and_numpy_input():
    lab = Lab(points=np.array(EXAM_X), labels=np.array(EXAM_Y), options={"eta": 2})
    assert lab.points == EXAM_X and lab.run["w_text"] == "(2, -4)"
    lab.options = {"fit_intercept": True}
    assert lab.run["w_text"].endswith("b = 1")
    lab2 = Lab(points=[[Fraction(1, 2), 0], [0, "1/2"]], labels=[1, -1])
    assert lab2.points == [["1/2", 0], [0, "1/2"]] and lab2.result["exact"] is True


def test_bad_input_sets_the_error_and_clears_the_result():
    lab = Lab()
    lab.labels = [1, -1]  # one label short
    assert lab.result == {} and lab.error.startswith("labels: expected 3 labels")
    lab.labels = EXAM_Y
    assert lab.error == "" and lab.run["mistakes"] == 5
    lab.options = {"order": "sideways"}
    assert "options.order" in lab.error


def test_the_front_end_sets_state_like_the_comm_does():
    """What a click in the notebook sends: a set_state message with the new points and labels."""
    lab = Lab()
    lab.set_state({"points": [[1, 0], [1, 1], [0, 1], [2, 2]], "labels": [1, -1, -1, 1]})
    assert (
        lab.run["mistakes"]
        == api.compute({"points": lab.points, "labels": lab.labels})["run"]["mistakes"]
    )
    assert len(lab.run["steps"]["index"]) == lab.run["steps"]["count"]
    state = lab.get_state()
    assert state["result"]["run"]["mistakes"] == lab.run["mistakes"]
    json.dumps(state["result"], allow_nan=False)  # the synced result is plain JSON


def test_empty_plane():
    lab = Lab(points=[], labels=[])
    assert lab.result == {} and lab.error == ""


def test_the_widget_uses_the_page_modules_in_one():
    state = Lab().get_state()
    assert state["_esm"] == bundle(STATIC / "lab.js")
    assert state["_css"] == (STATIC / "lab.css").read_text(encoding="utf-8")
    source = state["_esm"]
    assert 'from "./' not in source and 'model.get("result")' in source
    # every module the entry needs, once, each after those it imports
    order = [path.name for path in module_order(STATIC / "lab.js")]
    assert order[-1] == "lab.js" and len(order) == len(set(order))
    assert {
        "state.js",
        "hash.js",
        "plane.js",
        "worksheet.js",
        "plots.js",
        "backends.js",
        "widget.js",
    } <= set(order)
    assert (
        order.index("words.js")
        < order.index("hash.js")
        < order.index("state.js")
        < order.index("view.js")
    )


def test_the_bundle_is_one_module_with_the_entrys_exports(tmp_path):
    """Node reads the bundle as an ES module and finds the entry's exports (the page's DOM is not needed)."""
    path = tmp_path / "lab-bundle.mjs"
    path.write_text(bundle(STATIC / "lab.js"), encoding="utf-8")
    script = (
        "const m = await import(process.argv[1]); console.log(JSON.stringify([Object.keys(m).sort(), "
        "typeof m.default.render, m.encodeHash({points: [{x: 1, y: 0, label: 1}], options: {order: 'cyclic', "
        "eta: '1', margin: '0', max_sweeps: 100, seed: 0, arithmetic: 'auto'}, sequence: [], snap: '1', "
        "showMargin: true, hidden: new Set()}, 0)]))"
    )
    out = subprocess.run(
        ["node", "--input-type=module", "-e", script, str(path)],
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    ).stdout
    names, render, text = json.loads(out)
    assert {
        "createLab",
        "mountPage",
        "encodeHash",
        "decodeHash",
        "pageWords",
        "httpBackend",
        "default",
    } <= set(names)
    assert render == "function" and text == "p=1,0,1"


@pytest.mark.parametrize(
    ("source", "message"),
    [
        ('import x from "./a.js";\n', "line 1: expected an import or export the bundler reads"),
        ("export default 1;\n", "expected export default only in the entry module"),
        ('import { a } from "./missing.js";\n', "missing.js: imported by"),
    ],
)
def test_the_bundler_refuses_what_it_cannot_read(tmp_path, source, message):
    (tmp_path / "b.js").write_text(source, encoding="utf-8")
    (tmp_path / "entry.js").write_text(
        'import { b } from "./b.js";\nexport default b;\n', encoding="utf-8"
    )
    with pytest.raises(BundleError, match=message):
        bundle(tmp_path / "entry.js")


def test_the_bundler_refuses_a_cycle(tmp_path):
    (tmp_path / "a.js").write_text(
        'import { b } from "./b.js";\nexport const a = 1;\n', encoding="utf-8"
    )
    (tmp_path / "b.js").write_text(
        'import { a } from "./a.js";\nexport const b = 2;\n', encoding="utf-8"
    )
    with pytest.raises(BundleError, match="a.js → b.js → a.js"):
        bundle(tmp_path / "a.js")


@pytest.mark.parametrize("hidden", [["pocket", "order"], []])
def test_hidden_controls_are_synced(hidden):
    lab = Lab(hidden=hidden)
    assert lab.get_state()["hidden"] == hidden


def test_python_changes_reach_the_page_with_their_result():
    """Setting points in Python sends the points and the new result in one message."""
    lab = Lab()
    messages = []
    lab.send_state = lambda key=None: messages.append(sorted(key) if isinstance(key, set) else key)
    with lab.hold_trait_notifications():
        lab.points = [[1, 0], [1, 1], [0, 1], [2, 2]]
        lab.labels = [1, -1, -1, 1]
    assert any({"points", "result"} <= set(message) for message in messages)
    assert (
        lab.run["mistakes"] == perceptron(lab.points, lab.labels, exact=True, warn=False).mistakes
    )


def test_page_requests_are_answered_even_when_nothing_changed():
    lab = Lab()
    messages = []
    lab.send_state = lambda key=None: messages.append(sorted(key) if isinstance(key, set) else key)
    lab.set_state({"points": EXAM_X, "labels": EXAM_Y, "request_id": 7})  # same input, new request
    assert lab.answered_id == 7 and lab.run["mistakes"] == 5
    assert ["answered_id"] in messages  # no recomputation, only the echo


def test_the_page_asks_the_kernel_for_a_snapshot():
    """The widget's "Save snapshot" button: the page sends what it shows, the kernel answers the file's text."""
    from perceptronlab.web.snapshot import recording

    lab = Lab()
    sent = []
    lab.send = lambda content, buffers=None: sent.append(content)
    payload = {"points": lab.points, "labels": lab.labels, "options": {}}
    lab._page_message(lab, {"type": "snapshot", "recorded": recording(payload, lab.result, 3)}, [])
    assert sent[-1]["type"] == "snapshot" and sent[-1]["html"].startswith("<!doctype html>")
    data = json.loads(sent[-1]["html"].split('id="plab-snapshot">')[1].split("</script>")[0])
    assert data["recorded"]["step"] == 3 and data["recorded"]["result"] == lab.result
    assert data["sources"]["lab.js"] == bundle(STATIC / "lab.js") and data["order"] == ["lab.js"]
    lab._page_message(lab, {"type": "snapshot", "recorded": {}}, [])
    assert sent[-1] == {"type": "snapshot", "error": "there is no run to record"}
    lab._page_message(lab, {"type": "something else"}, [])
    assert len(sent) == 2


def test_no_snapshot_without_a_run(tmp_path):
    lab = Lab(points=[], labels=[])
    with pytest.raises(PerceptronLabError, match="no points"):
        lab.save_snapshot(str(tmp_path / "run.html"))
    assert not (tmp_path / "run.html").exists()
