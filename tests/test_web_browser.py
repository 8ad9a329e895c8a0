"""The lab page in a real browser: Debian's Chromium, headless, driven by Playwright.

The lab server runs for the session on a loopback port the system picks (port 0, bound before the
server starts). The page's numbers are held against the engine (``perceptron``,
``Run.worksheet_rows``, ``Run.table``) and the theory toolkit, on a desktop and on a phone
(390 × 844, touch). Screenshots go to ``artifacts/`` for review. Waits are for states of the page,
each bounded by what the server guarantees (an answer within its deadlines).
"""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import pytest

from perceptronlab import perceptron
from perceptronlab.theory.separability import separable
from perceptronlab.web import api
from perceptronlab.web.app import background, create_app
from perceptronlab.web.bundle import STATIC, bundle
from perceptronlab.web.pool import WorkerPool

pytestmark = pytest.mark.browser

ARTIFACTS = Path(__file__).resolve().parent.parent / "artifacts"
EXAM_HASH = "#p=1,0,1;1,1,-1;0,1,-1"
EXAM_X, EXAM_Y = [[1, 0], [1, 1], [0, 1]], [1, -1, -1]


#: the server's deadline: a request waits at most this long for a worker and computes at most this long
DEADLINE_S = 10.0
#: how long the page may take to show an answer: the server's two deadlines, and a worker's start
#: (a worker stopped by an abandoned request is replaced before the next one is computed)
ANSWER_MS = int(1000 * (2 * DEADLINE_S + WorkerPool(1, 0, 1.0).start_timeout))


@pytest.fixture(scope="module")
def base_url():
    with background(create_app(workers=2, deadline=DEADLINE_S)) as url:
        yield url


def watched(page) -> list[str]:
    """Collect the page's script errors and Content Security Policy violations."""
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.on(
        "console",
        lambda message: (
            errors.append(message.text)
            if message.type == "error" and "Content Security Policy" in message.text
            else None
        ),
    )
    page.set_default_timeout(ANSWER_MS)
    return errors


@pytest.fixture
def page(browser):
    context = browser.new_context(viewport={"width": 1360, "height": 900}, accept_downloads=True)
    page = context.new_page()
    errors = watched(page)
    yield page
    context.close()
    assert not errors, errors


@pytest.fixture
def phone(browser):
    """A phone: 390 × 844 CSS pixels, touch, mobile viewport rules."""
    context = browser.new_context(
        viewport={"width": 390, "height": 844},
        device_scale_factor=2,
        is_mobile=True,
        has_touch=True,
    )
    page = context.new_page()
    errors = watched(page)
    yield page
    context.close()
    assert not errors, errors


def shot(page, name: str) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"{name}.png"), full_page=True)


def ready(page) -> None:
    page.wait_for_selector('#lab[data-ready="1"]')


def open_lab(page, base_url: str, hash_: str = EXAM_HASH) -> None:
    page.goto(base_url + hash_)
    ready(page)


def card(page, name: str) -> str:
    return page.get_by_test_id(f"card-{name}").locator(".plab-card-value").inner_text()


def log_rows(page) -> list[tuple[str, ...]]:
    rows = page.get_by_test_id("log-table").locator("tbody tr").all()
    return [tuple(cell.inner_text() for cell in row.locator("td").all()) for row in rows]


def click_point(page, x: float, y: float, shift: bool = False, button: str = "left") -> None:
    plane = page.get_by_test_id("plane")
    box = plane.bounding_box()
    extent = float(plane.get_attribute("data-extent"))
    size = box["width"]
    position = {"x": size / 2 + x * size / (2 * extent), "y": size / 2 - y * size / (2 * extent)}
    plane.click(position=position, modifiers=["Shift"] if shift else [], button=button)
    ready(page)


def set_scrubber(page, value: int) -> None:
    page.get_by_test_id("scrubber").evaluate(
        "(el, v) => { el.value = String(v); el.dispatchEvent(new Event('input', {bubbles: true})); }",
        value,
    )


# ------------------------------------------------------------------ the exam task, by clicking


def test_exam_task_by_clicking(page, base_url):
    open_lab(page, base_url, "#p=")
    assert page.get_by_test_id("status").inner_text() == "Click in the plane to add points."
    click_point(page, 1, 0)
    click_point(page, 1, 1, shift=True)
    click_point(page, 0, 1, shift=True)
    assert page.evaluate("location.hash").startswith("#p=1,0,1;1,1,-1;0,1,-1")
    page.get_by_test_id("btn-run").click()
    run = perceptron(EXAM_X, EXAM_Y, exact=True, trace=True)
    assert card(page, "R") == "√2"
    assert card(page, "rho") == "1/√5"
    assert card(page, "bound") == "10"
    assert card(page, "mistakes") == str(run.mistakes) == "5"
    assert card(page, "separable") == "yes"
    assert log_rows(page) == run.worksheet_rows()
    assert "w = (1, -2)" in page.get_by_test_id("status").inner_text()
    shot(page, "lab-exam-run")


def test_step_sweep_and_rewind(page, base_url):
    open_lab(page, base_url)
    run = perceptron(EXAM_X, EXAM_Y, exact=True, trace=True)
    rows = run.worksheet_rows()
    page.get_by_test_id("btn-step").click()
    assert log_rows(page) == rows[:1] == [("1", "x1", "0", "yes", "(1, 0)")]
    assert card(page, "mistakes") == "1"
    page.get_by_test_id("btn-sweep").click()
    assert log_rows(page) == rows[:3]
    page.get_by_test_id("btn-sweep").click()
    assert log_rows(page) == rows[:6]
    assert page.get_by_test_id("step-label").inner_text() == "step 6 / 12"
    assert card(page, "mistakes") == "4"
    shot(page, "lab-exam-sweep2")
    set_scrubber(page, 2)
    assert log_rows(page) == rows[:2]
    assert "w = (0, -1)" in page.get_by_test_id("status").inner_text()
    page.get_by_test_id("btn-reset").click()
    assert log_rows(page) == [] and card(page, "mistakes") == "0"
    set_scrubber(page, 12)
    assert log_rows(page) == rows


def test_play_runs_to_the_end(page, base_url):
    open_lab(page, base_url)
    page.get_by_test_id("speed").evaluate(
        "el => { el.value = '60'; el.dispatchEvent(new Event('input', {bubbles: true})); }"
    )
    page.get_by_test_id("btn-play").click()
    page.wait_for_function(
        "() => document.querySelector('[data-testid=step-label]').textContent === 'step 12 / 12'"
    )
    assert card(page, "mistakes") == "5"
    assert "Play" in page.get_by_test_id("btn-play").inner_text()


def test_reload_from_the_url_hash(page, browser, base_url):
    open_lab(page, base_url)
    page.get_by_test_id("order").select_option("shuffle")
    ready(page)
    page.get_by_test_id("seed").fill("3")
    page.get_by_test_id("seed").press("Enter")
    ready(page)
    page.get_by_test_id("eta").fill("2")
    page.get_by_test_id("eta").press("Enter")
    ready(page)
    for _ in range(4):
        page.get_by_test_id("btn-step").click()
    page.wait_for_function("() => location.hash.includes('step=4')")
    link = page.evaluate("location.href")
    before = (
        log_rows(page),
        [card(page, n) for n in ("R", "rho", "bound", "mistakes", "separable")],
    )
    run = perceptron(EXAM_X, EXAM_Y, order="shuffle", seed=3, eta=2, exact=True, trace=True)
    assert before[0] == [
        (
            str(s.sweep),
            f"x{s.index + 1}",
            str(s.score),
            "yes" if s.mistake else "no",
            "(" + ", ".join(str(v) for v in s.w) + ")",
        )
        for s in run.steps[:4]
    ]
    other = browser.new_page(viewport={"width": 1360, "height": 900})
    other.set_default_timeout(ANSWER_MS)
    other.goto(link)
    ready(other)
    after = (
        log_rows(other),
        [card(other, n) for n in ("R", "rho", "bound", "mistakes", "separable")],
    )
    assert after == before
    assert other.get_by_test_id("order").input_value() == "shuffle"
    assert other.get_by_test_id("eta").input_value() == "2"
    assert other.get_by_test_id("scrubber").input_value() == "4"
    other.close()


def test_bad_request_shows_its_message(page, base_url):
    open_lab(page, base_url)
    error = page.get_by_test_id("error")
    assert error.is_hidden()
    page.get_by_test_id("eta").fill("-1")
    page.get_by_test_id("eta").press("Enter")
    ready(page)
    assert error.is_visible()
    # the server's message in the page's words (η, not options.eta); an input error offers no retry
    assert (
        error.inner_text()
        == "η: expected a number > 0, got -1. Use η = 1: from w = 0 any η > 0 gives the same mistakes."
    )
    assert page.get_by_test_id("retry").is_hidden()
    assert (
        page.get_by_test_id("status").inner_text()
        == "Nothing to show: fix the input named in the message above."
    )
    assert card(page, "R") == "–"
    shot(page, "lab-bad-request")
    page.get_by_test_id("eta").fill("1")
    page.get_by_test_id("eta").press("Enter")
    ready(page)
    assert error.is_hidden() and card(page, "bound") == "10"


def test_download_csv_is_the_worksheet(page, base_url):
    open_lab(page, base_url)
    with page.expect_download() as download:
        page.get_by_test_id("download-csv").click()
    text = Path(download.value.path()).read_text(encoding="utf-8")
    assert text == perceptron(EXAM_X, EXAM_Y, exact=True, trace=True).table("csv")


def test_non_separable_preset_highlights_the_certificate(page, base_url):
    open_lab(page, base_url)
    page.get_by_test_id("preset").select_option("nonsep")
    ready(page)
    assert card(page, "separable") == "no"
    assert card(page, "rho") == "none" and card(page, "bound") == "∞"
    points = page.evaluate("window.perceptronlab.state.points.map(p => [p.x, p.y])")
    labels = page.evaluate("window.perceptronlab.state.points.map(p => p.label)")
    # the points as the exact numbers the page's coordinates are (the lab computes in Fractions)
    proof = separable([[Fraction(c) for c in p] for p in points], labels)
    detail = page.get_by_test_id("card-separable").locator(".plab-card-detail").inner_text()
    # one numbering: the certificate's points by the names drawn next to them (x1 … xn)
    assert detail.startswith(", ".join(f"x{i + 1}" for i in proof.support) + " with weights α = ")
    assert "example" not in detail and "perceptronlab.pocket" not in detail
    page.get_by_test_id("btn-run").click()
    shot(page, "lab-non-separable")
    assert page.get_by_test_id("legend-pocket").is_hidden()
    page.get_by_test_id("remedy-pocket").click()  # the page's own remedy is its pocket switch
    ready(page)
    assert (
        page.get_by_test_id("pocket").is_checked()
        and page.get_by_test_id("remedy-pocket").is_hidden()
    )
    assert page.get_by_test_id(
        "legend-pocket"
    ).is_visible()  # the pocket's line has its legend entry
    assert (
        page.get_by_test_id("card-mistakes").locator(".plab-card-title").inner_text() == "Updates"
    )
    page.get_by_test_id("btn-run").click()
    assert "pocket" in page.get_by_test_id("status").inner_text()
    shot(page, "lab-pocket")


def test_edit_points_flip_and_delete(page, base_url):
    open_lab(page, base_url)
    click_point(page, 1, 0)  # a click on a point flips its label
    assert page.evaluate("window.perceptronlab.state.points[0].label") == -1
    assert card(page, "separable") == "yes"  # all three negative: w = (-1, -1) separates them
    click_point(page, 0, 1, button="right")  # right-click deletes
    assert page.evaluate("window.perceptronlab.state.points.length") == 2
    assert page.evaluate("location.hash").startswith("#p=1,0,-1;1,1,-1")
    click_point(page, -2.4, 1.6)  # snapped to the integer grid
    assert page.evaluate("window.perceptronlab.state.points[2]") == {"x": -2, "y": 2, "label": 1}


def test_pick_the_order(page, base_url):
    open_lab(page, base_url)
    page.get_by_test_id("order").select_option("pick")
    ready(page)
    click_point(page, 0, 1)  # x3 first
    click_point(page, 1, 0)  # then x1; x2 follows
    assert page.get_by_test_id("pick-info").inner_text().startswith("Your order: x3 → x1")
    page.get_by_test_id("btn-sweep").click()
    assert [row[1] for row in log_rows(page)] == ["x3", "x1", "x2"]
    run = perceptron(
        [EXAM_X[2], EXAM_X[0], EXAM_X[1]], [EXAM_Y[2], EXAM_Y[0], EXAM_Y[1]], exact=True
    )
    page.get_by_test_id("btn-run").click()
    assert card(page, "mistakes") == str(run.mistakes)
    shot(page, "lab-pick-order")


def test_classroom_link_hides_controls(page, base_url):
    open_lab(page, base_url, EXAM_HASH + "&hide=pocket,order,eta,edit")
    for hidden in ("pocket", "order", "eta"):
        assert page.get_by_test_id(hidden).is_hidden()
    for shown in ("rho0", "preset", "btn-step", "card-bound", "log-table"):
        assert page.get_by_test_id(shown).is_visible()
    page.get_by_test_id("plane").click(position={"x": 40, "y": 40})  # editing is locked
    assert page.evaluate("window.perceptronlab.state.points.length") == 3
    # the share box builds such a link
    open_lab(page, base_url)
    page.locator("details.plab-share summary").click()
    page.locator("details.plab-share input[value=pocket]").check()
    assert page.get_by_test_id("share-link").input_value().endswith("&hide=pocket")


def test_bias_and_max_margin_band(page, base_url):
    open_lab(page, base_url)
    page.get_by_test_id("bias").check()
    ready(page)
    assert card(page, "R") == "√3"
    run = perceptron(EXAM_X, EXAM_Y, fit_intercept=True, exact=True)
    page.get_by_test_id("btn-run").click()
    assert card(page, "mistakes") == str(run.mistakes)
    assert f"b = {run.b}" in page.get_by_test_id("status").inner_text()
    shot(page, "lab-bias")


def test_readme_screenshot(page, base_url):
    """The view of docs/lab.png: the exam task in sweep 2, x2's update drawn tip to tail."""
    page.set_viewport_size({"width": 1280, "height": 880})
    open_lab(page, base_url, EXAM_HASH + "&step=5")
    assert page.get_by_test_id("step-label").inner_text() == "step 5 / 12"
    assert "w = (0, -2)" in page.get_by_test_id("status").inner_text()
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "lab.png"))


WIDGET_HARNESS = """
async () => {
  // A stand-in for the Jupyter model: the "kernel" answers through the lab's own endpoint, and
  // sends result, error and answered_id in one message, as the widget's hold_sync does.
  const module = await import("/widget-bundle.js");
  const css = document.createElement("link");
  css.rel = "stylesheet"; css.href = "/static/lab.css"; document.head.append(css);
  const state = { points: [[1, 0], [1, 1], [0, 1]], labels: [1, -1, -1], options: {}, hidden: ["share"],
                  result: {}, error: "", request_id: 0, answered_id: 0 };
  const listeners = {};
  const apply = (message) => {
    Object.assign(state, message);
    for (const key of Object.keys(message)) (listeners["change:" + key] || []).slice().forEach((f) => f());
  };
  const compute = async () => {
    const response = await fetch("/api/run", { method: "POST", headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ points: state.points, labels: state.labels, options: state.options }) });
    const body = await response.json();
    return response.ok ? { result: body, error: "" } : { result: {}, error: body.detail };
  };
  const model = {
    get: (key) => state[key],
    set: (key, value) => { state[key] = value; },
    on: (event, fn) => { (listeners[event] = listeners[event] || []).push(fn); },
    off: (event, fn) => { listeners[event] = (listeners[event] || []).filter((g) => g !== fn); },
    save_changes: () => { compute().then((answer) => apply({ ...answer, answered_id: state.request_id })); },
  };
  apply(await compute());
  const el = document.createElement("div");
  el.id = "widget";
  document.body.replaceChildren(el);
  module.default.render({ model, el });
  window.kernelSets = async (points, labels) => {
    state.points = points; state.labels = labels;
    apply({ points, labels, ...(await compute()) });
  };
  window.widgetState = state;
}
"""


def test_widget_front_end_with_a_model(page, base_url):
    """The widget's one ES module (bundle.py joins the page's modules) in a browser, with a stand-in model."""
    page.route(
        "**/widget-bundle.js",
        lambda route: route.fulfill(body=bundle(STATIC / "lab.js"), content_type="text/javascript"),
    )
    page.goto(base_url + "api/health")
    page.evaluate(WIDGET_HARNESS)
    page.wait_for_selector('#widget[data-ready="1"]')
    root = page.locator("#widget")
    assert root.get_by_test_id("card-bound").locator(".plab-card-value").inner_text() == "10"
    assert root.get_by_test_id("share-link").is_hidden()
    root.get_by_test_id("btn-sweep").click()
    assert len(log_rows(page)) == 3
    # a click in the widget's plane goes to the model, and the kernel's answer comes back
    plane = root.get_by_test_id("plane")
    box = plane.bounding_box()
    extent = float(plane.get_attribute("data-extent"))
    plane.click(
        position={
            "x": box["width"] / 2 + 2 * box["width"] / (2 * extent),
            "y": box["width"] / 2 - 2 * box["width"] / (2 * extent),
        }
    )
    page.wait_for_function(
        "() => window.widgetState.answered_id === window.widgetState.request_id "
        "&& window.widgetState.points.length === 4"
    )
    page.wait_for_selector('#widget[data-ready="1"]')
    assert page.evaluate("window.widgetState.points[3]") == [2, 2]
    points = [[1, 0], [1, 1], [0, 1], [2, 2]]
    run = perceptron(points, [1, -1, -1, 1], exact=True, warn=False)
    root.get_by_test_id("btn-run").click()
    assert root.get_by_test_id("card-mistakes").locator(".plab-card-value").inner_text() == str(
        run.mistakes
    )
    # the kernel changes the points (lab.points = ... in Python): the page follows
    page.evaluate("window.kernelSets([[3, 1], [1, 2], [-1, -1], [0, -2]], [1, 1, -1, -1])")
    page.wait_for_function(
        "() => document.querySelector('#widget [data-testid=card-R] .plab-card-value')"
        ".textContent === '√10'"
    )
    shot(page, "lab-widget")


def test_keyboard_steps(page, base_url):
    open_lab(page, base_url)
    page.locator("#lab").focus()
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowRight")
    assert page.get_by_test_id("step-label").inner_text() == "step 2 / 12"
    page.keyboard.press("Shift+ArrowRight")
    assert page.get_by_test_id("step-label").inner_text() == "step 3 / 12"
    page.keyboard.press("End")
    assert card(page, "mistakes") == "5"
    page.keyboard.press("ArrowLeft")
    assert page.get_by_test_id("step-label").inner_text() == "step 11 / 12"
    page.keyboard.press("Home")
    assert page.get_by_test_id("step-label").inner_text() == "step 0 / 12"


def test_a_pasted_link_loads_in_the_same_tab(page, base_url):
    open_lab(page, base_url)
    assert card(page, "R") == "√2"
    page.evaluate("location.hash = '#p=3,1,1;1,2,1;-1,-1,-1;0,-2,-1&step=2'")
    page.wait_for_function(
        "() => document.querySelector('[data-testid=card-R] .plab-card-value').textContent === '√10'"
    )
    ready(page)
    assert (
        card(page, "rho") == "√2" and card(page, "bound") == "5"
    )  # the margin task of "Perceptron Mistake Bound"
    assert page.get_by_test_id("preset").input_value() == "margin"
    assert page.get_by_test_id("step-label").inner_text().startswith("step 2 /")


def test_float_points_show_short_numbers_and_download_full_ones(page, base_url):
    import re

    open_lab(page, base_url, "#p=0.1,0.2,1;0.3,-0.7,-1;-0.45,0.35,-1&snap=0")
    page.get_by_test_id("btn-run").click()
    X, y = [[0.1, 0.2], [0.3, -0.7], [-0.45, 0.35]], [1, -1, -1]
    run = perceptron(X, y, trace=True)
    assert not run.exact

    def short(text):  # the page's shortFloats
        return re.sub(
            r"-?\d+\.\d{5,}(e[-+]?\d+)?",
            lambda m: repr(float(f"{float(m.group()):.6g}")).removesuffix(".0"),
            text,
        )

    assert log_rows(page) == [tuple(short(cell) for cell in row) for row in run.worksheet_rows()]
    with page.expect_download() as download:
        page.get_by_test_id("download-csv").click()
    assert Path(download.value.path()).read_text(encoding="utf-8") == run.table("csv")


# ------------------------------------------------------------------ words, keyboard, network, phone


def test_plurals_and_one_mistake(page, base_url):
    open_lab(page, base_url, "#p=1,0,1")
    run = perceptron([[1, 0]], [1], exact=True)
    assert (run.mistakes, run.sweeps) == (1, 2)
    assert "· 1 mistake in 2 sweeps (converged) ·" in page.get_by_test_id("status").inner_text()
    open_lab(page, base_url)
    assert "· 5 mistakes in 4 sweeps (converged) ·" in page.get_by_test_id("status").inner_text()


def test_points_can_be_added_with_the_keyboard(page, base_url):
    open_lab(page, base_url, "#p=")
    page.get_by_test_id("add-x").focus()
    page.keyboard.type("1")
    page.keyboard.press("Tab")
    page.keyboard.type("0")
    page.keyboard.press("Enter")
    ready(page)
    assert page.get_by_test_id("add-message").inner_text() == "Added x1 = (1, 0), label +1."
    assert (
        page.evaluate("document.activeElement.dataset.testid") == "add-x"
    )  # ready for the next point
    page.get_by_test_id("label-choice").locator("[data-label='-1']").focus()
    page.keyboard.press("Space")  # the label of the next points: −1
    for x, y in (("1", "1"), ("0", "1")):
        page.get_by_test_id("add-x").fill(x)
        page.get_by_test_id("add-y").fill(y)
        page.get_by_test_id("add-y").press("Enter")
        ready(page)
    assert page.evaluate("window.perceptronlab.state.points") == [
        {"x": 1, "y": 0, "label": 1},
        {"x": 1, "y": 1, "label": -1},
        {"x": 0, "y": 1, "label": -1},
    ]
    assert card(page, "bound") == "10" and page.evaluate("location.hash").startswith(
        "#p=1,0,1;1,1,-1;0,1,-1"
    )
    page.get_by_test_id("add-x").fill("1/2")
    page.get_by_test_id("add-y").fill("two")
    page.get_by_test_id("add-y").press("Enter")
    assert (
        page.get_by_test_id("add-message").inner_text()
        == "y: type a number such as 1, -0.5 or 1/2."
    )
    page.get_by_test_id("add-y").fill("0")
    page.get_by_test_id("add-y").press("Enter")
    ready(page)
    assert page.evaluate("window.perceptronlab.state.points[3]") == {"x": 0.5, "y": 0, "label": -1}
    page.get_by_test_id("add-x").fill("1")
    page.get_by_test_id("add-y").fill("1")
    page.get_by_test_id("add-y").press("Enter")
    assert page.get_by_test_id("add-message").inner_text() == "x2 is already at (1, 1)."


def test_network_errors_are_told_apart_from_input_errors(page, base_url):
    open_lab(page, base_url)
    page.route("**/api/run", lambda route: route.abort("connectionrefused"))
    page.get_by_test_id("eta").fill("2")
    page.get_by_test_id("eta").press("Enter")
    ready(page)
    error = page.get_by_test_id("error")
    assert error.get_attribute("data-kind") == "network"
    assert error.inner_text().startswith("No answer from the lab server (")
    assert "Is perceptronlab serve still running?" in error.inner_text()
    assert page.get_by_test_id("status").inner_text() == (
        "Nothing to show: the lab server did not answer (see "
        "above). Press Retry once it runs again."
    )
    assert "fix the input" not in page.get_by_test_id("status").inner_text()
    shot(page, "lab-network-error")
    page.unroute("**/api/run")
    page.get_by_test_id("retry").click()
    ready(page)
    assert error.is_hidden() and page.get_by_test_id("status").inner_text().startswith("w = (0, 0)")
    run = perceptron(EXAM_X, EXAM_Y, eta=2, exact=True)
    page.get_by_test_id("btn-run").click()
    assert f"w = ({run.w[0]}, {run.w[1]})" in page.get_by_test_id("status").inner_text()


def test_a_busy_server_is_asked_again_after_retry_after(page, base_url):
    open_lab(page, base_url)
    refusals = []

    def busy_once(route):
        if not refusals:
            refusals.append(route.request.url)
            route.fulfill(
                status=503,
                headers={"Retry-After": "1", "Content-Type": "application/json"},
                body='{"detail": "The lab server is busy: all 2 workers are busy and 16 requests wait."}',
            )
        else:
            route.continue_()

    page.route("**/api/run", busy_once)
    page.get_by_test_id("preset").select_option("margin")
    page.wait_for_function(
        "() => document.querySelector('[data-testid=status]').textContent"
        ".startsWith('The lab server is busy; asking again in 1 s.')"
    )
    ready(page)  # the second try is answered
    assert len(refusals) == 1 and card(page, "R") == "√10"
    assert page.get_by_test_id("error").is_hidden()


#: Card texts that are cut (content wider or taller than its box) or a word split across two lines.
CARD_TEXTS_CUT_OR_SPLIT = """() => {
    const problems = [];
    for (const element of document.querySelectorAll('.plab-card-title, .plab-card-value, .plab-card-detail')) {
        if (!element.offsetParent) continue;
        const text = element.textContent.slice(0, 40);
        if (element.scrollWidth > element.clientWidth + 1 || element.scrollHeight > element.clientHeight + 1
            || getComputedStyle(element).textOverflow === 'ellipsis') problems.push('cut: ' + text);
        const walker = document.createTreeWalker(element, NodeFilter.SHOW_TEXT);
        for (let node = walker.nextNode(); node; node = walker.nextNode()) {
            for (const word of node.textContent.matchAll(/\\S+/g)) {
                const range = document.createRange();
                range.setStart(node, word.index);
                range.setEnd(node, word.index + word[0].length);
                const lines = new Set([...range.getClientRects()].filter((r) => r.width >
                0).map((r) => Math.round(r.top)));
                if (lines.size > 1) problems.push('split: ' + word[0] + ' in ' + text);
            }
        }
    }
    return problems;
}"""

CARD_VIEWS = [
    "#p=1,0,1;1,1,-1;0,1,-1&step=5",
    "#p=2,1,1;3,2.5,1;1,2,1;2.5,-0.5,1;-1.5,-2,-1;-2.5,-1,-1;-1,-3,-1;2,2,-1&step=9",
    "#p=0.13,0.27,1;0.31,-0.72,-1;-0.45,0.35,-1;1.17,-0.61,1&snap=0&bias=1&eta=0.3&step=999",
    "#p=2,1,1;3,2.5,1;1,2,1;2.5,-0.5,1;-1.5,-2,-1;-2.5,-1,-1;-1,-3,-1;2,2,-1&pocket=1&step=999",
]


def test_card_texts_are_whole_at_1280_px(page, base_url):
    """At 1280 px (five cards in a row) no card title, value or detail is cut or split mid-word."""
    page.set_viewport_size({"width": 1280, "height": 880})
    for view in CARD_VIEWS:
        open_lab(page, base_url, view)
        assert page.evaluate(CARD_TEXTS_CUT_OR_SPLIT) == [], view
        assert (
            page.get_by_test_id("card-rho").locator(".plab-card-title").inner_text()
            == "Best margin ρ*"
        )
    assert page.get_by_test_id("header-verb").inner_text() == "Click"
    shot(page, "lab-cards-1280")


def test_phone_layout_has_no_sideways_scroll_and_cuts_nothing(phone, base_url):
    for number, view in enumerate(CARD_VIEWS):
        open_lab(phone, base_url, view)
        phone.get_by_test_id("btn-run").click()
        width = phone.evaluate("window.innerWidth")
        assert width == 390
        assert phone.evaluate("document.documentElement.scrollWidth") <= width, view
        cut = phone.evaluate("""() => {
            const cut = (e) => e.scrollWidth > e.clientWidth + 1 || e.scrollHeight > e.clientHeight + 1;
            const named = (sel) => [...document.querySelectorAll(sel)].filter((e) => e.offsetParent && cut(e))
                .map((e) => sel + ': ' + e.textContent.slice(0, 40));
            const log = document.querySelector('.plab-logscroll');
            const table = log.querySelector('table');
            return [...named('.plab-card-title'), ...named('.plab-card-value'), ...named('.plab-card-detail'),
                    ...(table.scrollWidth > log.clientWidth + 1 ? ['worksheet: ' + table.scrollWidth] : []),
                    ...[...document.querySelectorAll('.plab *')].filter((e) => e.offsetParent
                        && e.getBoundingClientRect().right > window.innerWidth + 0.5)
                        .map((e) => 'wide: ' + e.className)];
        }""")
        assert cut == [], (view, cut)
        assert phone.evaluate(CARD_TEXTS_CUT_OR_SPLIT) == [], view
        shot(phone, f"lab-phone-{number}")
    # a touch screen is tapped: the header and the hint say so
    assert phone.get_by_test_id("header-verb").inner_text() == "Tap"
    assert "Click" not in phone.locator(".plab-header").inner_text()


def tap_point(page, x: float, y: float) -> None:
    plane = page.get_by_test_id("plane")
    box = plane.bounding_box()
    extent = float(plane.get_attribute("data-extent"))
    size = box["width"]
    page.touchscreen.tap(
        box["x"] + size / 2 + x * size / (2 * extent), box["y"] + size / 2 - y * size / (2 * extent)
    )


def long_press_point(page, x: float, y: float, count_after: int) -> None:
    """Hold a finger on (x, y) until the page has deleted the point, then lift it."""
    plane = page.get_by_test_id("plane")
    box = plane.bounding_box()
    extent = float(plane.get_attribute("data-extent"))
    size = box["width"]
    touch = {
        "x": box["x"] + size / 2 + x * size / (2 * extent),
        "y": box["y"] + size / 2 - y * size / (2 * extent),
    }
    cdp = page.context.new_cdp_session(page)
    cdp.send("Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": [touch]})
    page.wait_for_function(f"() => window.perceptronlab.state.points.length === {count_after}")
    cdp.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})
    cdp.detach()


def test_touch_label_choice_and_long_press_to_delete(phone, base_url):
    open_lab(phone, base_url)
    hint = phone.get_by_test_id("hint").inner_text()
    assert hint.startswith("Tap: add a point labelled +1") and "long-press a point: delete" in hint
    assert "shift" not in hint and "right-click" not in hint  # nothing a touch screen cannot do
    choice = phone.get_by_test_id("label-choice")
    choice.locator("[data-label='-1']").tap()
    assert choice.locator("[data-label='-1']").get_attribute("aria-checked") == "true"
    tap_point(phone, -2, -2)
    ready(phone)
    assert phone.evaluate("window.perceptronlab.state.points[3]") == {"x": -2, "y": -2, "label": -1}
    choice.locator("[data-label='1']").tap()
    tap_point(phone, 2, -1)
    ready(phone)
    assert phone.evaluate("window.perceptronlab.state.points[4]") == {"x": 2, "y": -1, "label": 1}
    tap_point(phone, 2, -1)  # a tap on a point flips its label
    ready(phone)
    assert phone.evaluate("window.perceptronlab.state.points[4].label") == -1
    long_press_point(phone, 1, 1, count_after=4)  # x2 goes
    ready(phone)
    assert phone.evaluate("window.perceptronlab.state.points.map(p => [p.x, p.y])") == [
        [1, 0],
        [0, 1],
        [-2, -2],
        [2, -1],
    ]
    points = [[1, 0], [0, 1], [-2, -2], [2, -1]]
    run = perceptron(points, [1, -1, -1, -1], exact=True, warn=False)
    phone.get_by_test_id("btn-run").tap()
    assert card(phone, "mistakes") == str(run.mistakes)
    shot(phone, "lab-phone-touch")


# ------------------------------------------------------------------ a user's own data


def iris_csv(tmp_path) -> tuple[Path, list[list[float]], list[str]]:
    """scikit-learn's iris (150 rows, four features and the species) written as a CSV with a header."""
    from sklearn.datasets import load_iris

    iris = load_iris()
    species = [str(iris.target_names[t]) for t in iris.target]
    rows = [[float(v) for v in row] for row in iris.data]
    lines = ["sepal_length,sepal_width,petal_length,petal_width,species"]
    lines += [
        ",".join(repr(v) for v in row) + f",{name}" for row, name in zip(rows, species, strict=True)
    ]
    path = tmp_path / "iris.csv"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path, rows, species


def test_a_csv_with_more_columns_choose_them_and_run(page, base_url, tmp_path):
    path, rows, species = iris_csv(tmp_path)
    open_lab(page, base_url)
    page.get_by_test_id("data-panel").locator("summary").click()
    page.get_by_test_id("data-file").set_input_files(str(path))
    page.wait_for_function("() => window.perceptronlab.state.points.length === 150")
    ready(page)
    # more than two features: the columns are offered, the first two numeric ones and the species taken
    columns = page.get_by_test_id("data-columns")
    assert columns.is_visible()
    assert page.get_by_test_id("data-label").input_value() == "4"
    assert (
        "150 rows: x = sepal_length, y = sepal_width; +1 = 'setosa' (50)"
        in page.get_by_test_id("data-message").inner_text()
    )
    # petal length and width, versicolor against the rest
    page.get_by_test_id("data-x").select_option(label="petal_length")
    page.get_by_test_id("data-y").select_option(label="petal_width")
    page.get_by_test_id("data-positive").select_option("versicolor")
    ready(page)
    points = [[row[2], row[3]] for row in rows]
    labels = [1 if name == "versicolor" else -1 for name in species]
    assert page.evaluate("window.perceptronlab.state.points.map(p => [p.x, p.y])") == points
    assert page.evaluate("window.perceptronlab.state.points.map(p => p.label)") == labels
    page.get_by_test_id("btn-run").click()
    answer = api.compute({"points": points, "labels": labels, "options": {}})
    assert card(page, "mistakes") == str(answer["run"]["mistakes"])
    assert card(page, "separable") == ("yes" if separable(points, labels) else "no") == "no"
    assert page.get_by_test_id("preset").input_value() == "custom"
    shot(page, "lab-own-data")


def test_a_dropped_csv_and_pasted_points(page, base_url):
    open_lab(page, base_url, "#p=")
    # a file dropped on the lab (a DataTransfer, as the browser makes for a drop from the desktop)
    page.evaluate("""() => {
        const data = new DataTransfer();
        data.items.add(new File(["x,y,label\\n3,1,yes\\n1,2,yes\\n-1,-1,no\\n0,-2,no\\n"],
        "margin.csv", {type: "text/csv"}));
        document.querySelector('#lab').dispatchEvent(new DragEvent('drop', {dataTransfer: data,
        bubbles: true, cancelable: true}));
    }""")
    page.wait_for_function("() => window.perceptronlab.state.points.length === 4")
    ready(page)
    assert page.get_by_test_id(
        "data-columns"
    ).is_hidden()  # two features and a label: nothing to choose
    assert (
        card(page, "rho") == "√2" and card(page, "bound") == "5"
    )  # the margin task of the lecture notes
    assert "+1 = 'yes' (2), −1 = 'no' (2)" in page.get_by_test_id("data-message").inner_text()
    # points pasted one per line
    page.get_by_test_id("data-paste").fill("1, 0, +1\n1 ,1, -1\n0, 1, -1\n")
    page.get_by_test_id("data-use-paste").click()
    page.wait_for_function("() => window.perceptronlab.state.points.length === 3")
    ready(page)
    page.get_by_test_id("btn-run").click()
    assert card(page, "mistakes") == "5" and card(page, "bound") == "10"
    assert page.evaluate("location.hash").startswith(EXAM_HASH)
    # bad input: one line with the fix, and the points stay
    page.get_by_test_id("data-paste").fill("1, 0\n2, 3\n")
    page.get_by_test_id("data-use-paste").click()
    message = page.get_by_test_id("data-message").inner_text()
    assert message == (
        "the pasted points: data: expected at least 3 columns (two features and a label), got 2; "
        "write each point as x, y, label."
    )
    assert page.evaluate("window.perceptronlab.state.points.length") == 3
    # a file too big for the lab is refused before it is read, and the closed panel opens to say so
    page.get_by_test_id("data-panel").evaluate("el => { el.open = false; }")
    page.evaluate("""() => {
        const data = new DataTransfer();
        data.items.add(new File([new Uint8Array(8000001)], "huge.csv", {type: "text/csv"}));
        document.querySelector('#lab').dispatchEvent(new DragEvent('drop', {dataTransfer: data,
        bubbles: true, cancelable: true}));
    }""")
    assert page.get_by_test_id("data-message").inner_text() == (
        "huge.csv: expected at most 8,000,000 bytes, got 8,000,001; "
        "keep at most 10,000 rows of two features and a label."
    )


# ------------------------------------------------------------------ a run as one HTML file


def play_back_from_disk(browser, path: Path, mistakes: int, steps: int, start: int = 0) -> None:
    """Open a snapshot with file:// in a fresh browser context: it plays back and fetches nothing."""
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    snapshot = context.new_page()
    errors = watched(snapshot)
    requests: list[str] = []
    snapshot.on("request", lambda request: requests.append(request.url))
    snapshot.goto(path.as_uri())
    ready(snapshot)
    assert (
        snapshot.get_by_test_id("step-label").inner_text() == f"step {start} / {steps}"
    )  # where it was saved
    snapshot.get_by_test_id("btn-run").click()
    assert card(snapshot, "mistakes") == str(mistakes)
    snapshot.get_by_test_id("btn-reset").click()
    snapshot.get_by_test_id("btn-step").click()
    assert snapshot.get_by_test_id("step-label").inner_text() == f"step 1 / {steps}"
    set_scrubber(snapshot, steps - 2)
    snapshot.get_by_test_id("btn-play").click()
    snapshot.wait_for_function(f"() => window.perceptronlab.step === {steps}")
    assert len(snapshot.get_by_test_id("log-table").locator("tbody tr").all()) > 0
    # it plays back one run: nothing to edit, nothing to export, no server to ask
    for testid in ("add-point", "data-panel", "save-snapshot", "preset", "share-link"):
        assert snapshot.get_by_test_id(testid).is_hidden(), testid
    assert all(url.startswith(("file:", "blob:", "data:")) for url in requests), requests
    shot(snapshot, "lab-snapshot")
    context.close()
    assert not errors, errors


def test_export_a_snapshot_and_play_it_back_without_a_server(page, browser, base_url, tmp_path):
    open_lab(
        page,
        base_url,
        "#p=2,1,1;3,2.5,1;1,2,1;2.5,-0.5,1;-1.5,-2,-1;-2.5,-1,-1;-1,-3,-1;2,2,-1&pocket=1&step=7",
    )
    steps = int(page.get_by_test_id("step-label").inner_text().split("/")[1])
    mistakes = int(page.evaluate("window.perceptronlab.result.run.mistakes"))
    with page.expect_download() as download:
        page.get_by_test_id("save-snapshot").click()
    assert download.value.suggested_filename == "perceptron-run.html"
    path = tmp_path / "perceptron-run.html"
    download.value.save_as(path)
    assert "Saved perceptron-run.html" in page.get_by_test_id("snapshot-message").inner_text()
    text = path.read_text(encoding="utf-8")
    assert (
        "http://" not in text.replace("http://www.w3.org/2000/svg", "") and "https://" not in text
    )
    play_back_from_disk(browser, path, mistakes, steps, start=7)


def test_the_widgets_snapshot_plays_back_without_a_server(browser, tmp_path):
    """Lab.save_snapshot (the kernel's file: the bundled modules) opened from disk."""
    from perceptronlab.web.widget import Lab

    lab = Lab(points=[[3, 1], [1, 2], [-1, -1], [0, -2], ["1/2", "-1/2"]], labels=[1, 1, -1, -1, 1])
    path = tmp_path / "widget-run.html"
    lab.save_snapshot(str(path))
    run = perceptron(
        [[3, 1], [1, 2], [-1, -1], [0, -2], [0.5, -0.5]], [1, 1, -1, -1, 1], exact=True, warn=False
    )
    assert lab.run["mistakes"] == run.mistakes
    play_back_from_disk(browser, path, run.mistakes, lab.run["steps"]["count"])


# ------------------------------------------------------------------ the self-test panel

QUIZ = Path(__file__).resolve().parent / "js" / "fixtures" / "quiz.json"


def test_the_self_test_panel_answers_and_scores(page, base_url):
    """Questions of the api/quiz shape (a fixture served by page.route): options, a number, a card, a score."""
    import json

    asked: list[str] = []

    def serve_quiz(route):
        asked.append(route.request.url)
        document = json.loads(QUIZ.read_text(encoding="utf-8"))
        route.fulfill(
            json=document
            if len(asked) == 1
            else {**document, "seed": 8, "questions": document["questions"][:1]}
        )

    page.route("**/api/quiz?*", serve_quiz)
    open_lab(page, base_url)
    panel = page.get_by_test_id("quiz-panel")
    panel.wait_for(state="visible")
    assert "seed=" in asked[0] and "count=5" in asked[0]
    panel.locator("summary").click()
    questions = panel.get_by_test_id("quiz-question")
    assert questions.count() == 4
    assert page.get_by_test_id("quiz-score").inner_text() == "0 of 3 right · 3 to answer"
    # a wrong option: its why; the first try is what counts
    update = questions.nth(0)
    update.get_by_test_id("quiz-option").nth(1).click()
    verdict = update.get_by_test_id("quiz-verdict").inner_text()
    assert verdict.startswith("Not quite.") and "without its label" in verdict
    update.get_by_test_id("quiz-option").nth(0).click()
    assert update.get_by_test_id("quiz-verdict").inner_text().startswith("Right.")
    # a number: not a number, then out of tolerance, then right as a fraction
    distance = questions.nth(1)
    distance.get_by_test_id("quiz-input").fill("seven fifths")
    distance.get_by_test_id("quiz-check").click()
    assert (
        distance.get_by_test_id("quiz-verdict").inner_text()
        == "Type a number such as 2, -0.5 or 1/3."
    )
    distance.get_by_test_id("quiz-input").fill("7/5")
    distance.get_by_test_id("quiz-check").click()
    assert distance.get_by_test_id("quiz-verdict").inner_text().startswith("Right.")
    # a card shows its answer
    card_question = questions.nth(2)
    assert card_question.get_by_test_id("quiz-answer").is_hidden()
    card_question.get_by_test_id("quiz-reveal").click()
    assert "number of examples" in card_question.get_by_test_id("quiz-answer").inner_text()
    questions.nth(3).get_by_test_id("quiz-option").nth(0).click()
    assert page.get_by_test_id("quiz-score").inner_text() == "2 of 3 right"
    shot(page, "lab-self-test")
    # new questions: the next seed, a fresh score
    page.get_by_test_id("quiz-new").click()
    page.wait_for_function(
        "() => document.querySelectorAll('[data-testid=quiz-question]').length === 1"
    )
    assert "seed=8&" in asked[1]  # the seed after the one the server answered (7)
    assert page.get_by_test_id("quiz-score").inner_text() == "0 of 1 right · 1 to answer"


def test_no_self_test_panel_without_the_endpoint(page, base_url):
    """A lab server without api/quiz (404): the panel stays away, and the page has no error."""
    answers: list[int] = []
    page.on(
        "response",
        lambda response: answers.append(response.status) if "/api/quiz" in response.url else None,
    )
    page.route(
        "**/api/quiz?*", lambda route: route.fulfill(status=404, json={"detail": "Not Found"})
    )
    open_lab(page, base_url)
    page.wait_for_function(
        "() => document.querySelector('[data-testid=quiz-panel]').dataset.state === 'absent'"
    )
    assert page.get_by_test_id("quiz-panel").is_hidden() and answers == [404]


def test_the_self_test_and_your_data_fit_a_phone(phone, base_url):
    """Open on a phone (390 px): the self-test and the data panel, with no sideways scrolling."""
    phone.route(
        "**/api/quiz?*",
        lambda route: route.fulfill(path=str(QUIZ), content_type="application/json"),
    )
    open_lab(phone, base_url)
    panel = phone.get_by_test_id("quiz-panel")
    panel.wait_for(state="visible")
    panel.locator("summary").tap()
    phone.get_by_test_id("data-panel").locator("summary").tap()
    phone.get_by_test_id("data-paste").fill("x,y,a,b,label\n1,0,5,5,1\n1,1,5,5,-1\n0,1,5,5,-1\n")
    phone.get_by_test_id("data-use-paste").tap()
    ready(phone)
    assert phone.get_by_test_id(
        "data-columns"
    ).is_visible()  # more columns than two features and a label
    assert phone.evaluate("document.documentElement.scrollWidth") <= 390
    wide = phone.evaluate("""() => [...document.querySelectorAll('.plab *')].filter((e) => e.offsetParent
        && e.getBoundingClientRect().right > window.innerWidth + 0.5).map((e) => e.className || e.tagName)""")
    assert wide == []
    shot(phone, "lab-phone-panels")


def test_self_test_panel_with_the_servers_own_questions(page, base_url):
    """The real api/quiz of the lab server (no fixture): the panel shows the seed's questions, and an
    answer gets its verdict."""
    import re

    from perceptronlab.teach.quiz import quiz_document

    seen: list[str] = []
    page.on(
        "response",
        lambda response: seen.append(response.url) if "/api/quiz" in response.url else None,
    )
    open_lab(page, base_url)
    panel = page.get_by_test_id("quiz-panel")
    page.wait_for_function(
        "() => document.querySelectorAll('[data-testid=quiz-question]').length > 0"
    )
    assert panel.is_visible() and seen
    panel.locator("summary").click()
    seed, count = (int(v) for v in re.search(r"seed=(\d+)&count=(\d+)", seen[0]).groups())
    questions = panel.get_by_test_id("quiz-question")
    expected = quiz_document(seed, count)["questions"]
    assert questions.count() == len(expected)
    first = questions.nth(0)
    assert expected[0]["prompt"].split("\n")[0][:30] in first.inner_text()
