"""The static site (perceptronlab site DIR) in Debian's Chromium, served by python -m http.server alone.

One site build and one browser for the module: the page loads the package's own Python into
Pyodide from its own folder, asks nothing of any other server (no /api/), and its
window.perceptronlab.compute answers exactly what POST /api/run answers.
"""

from __future__ import annotations

import json
import subprocess
import sys

import pytest
from test_lab_stdlib import EXAM, random_payloads

from perceptronlab.web import api
from perceptronlab.web.site import BROWSER_FILES, PACKAGE, build_site, default_pyodide

pytestmark = [
    pytest.mark.browser,
    pytest.mark.slow,
    pytest.mark.skipif(
        not (default_pyodide() / "pyodide.asm.wasm").is_file(),
        reason="the Pyodide runtime is not installed: npm install (package.json lists pyodide)",
    ),
]

#: the embedding API's ready promise resolves within this (the bar: 30 s)
READY_MS = 30_000


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    """The site built once, served by python -m http.server on a free port; yields its URL."""
    folder = tmp_path_factory.mktemp("site")
    build_site(folder)
    server = subprocess.Popen(
        [sys.executable, "-u", "-m", "http.server", "0", "--bind", "127.0.0.1", "-d", str(folder)],
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
    )
    try:
        line = server.stdout.readline()  # "Serving HTTP on 127.0.0.1 port 41234 (http://...) ..."
        port = int(line.split(" port ")[1].split()[0])
        yield f"http://127.0.0.1:{port}/", folder
    finally:
        server.kill()
        server.wait()


@pytest.fixture(scope="module")
def lab_page(browser, site):
    url, _ = site
    page = browser.new_page()
    page.set_default_timeout(READY_MS)
    requested: list[str] = []
    page.on("request", lambda request: requested.append(request.url))
    page.goto(url)
    page.wait_for_function("window.perceptronlab && window.perceptronlab.ready")
    page.evaluate("() => window.perceptronlab.ready")
    yield page, url, requested
    page.close()


def test_the_sites_python_is_the_packages_own_byte_for_byte(site):
    _, folder = site
    listed = json.loads((folder / "python" / "files.json").read_text())
    assert listed == [f"perceptronlab/{name}" for name in BROWSER_FILES]
    for name in BROWSER_FILES:
        assert (folder / "python" / "perceptronlab" / name).read_bytes() == (
            PACKAGE / name
        ).read_bytes()
    assert (folder / "pyodide" / "pyodide.asm.wasm").stat().st_size > 1_000_000


def test_compute_equals_the_servers_answer(lab_page):
    page, url, requested = lab_page
    payloads = [EXAM, *random_payloads(8, seed=11)]
    answers = page.evaluate(
        "async (payloads) => { const out = []; for (const p of payloads) "
        "out.push(await window.perceptronlab.compute(p)); return out; }",
        payloads,
    )
    for payload, answer in zip(payloads, answers, strict=True):
        server = json.loads(json.dumps(api.compute_body(json.dumps(payload).encode())))
        for key in ("options", "run", "cards", "max_margin"):
            assert answer[key] == server[key], (key, payload)
        assert answer == server
    assert answers[0]["run"]["w_text"] == "(1, -2)" and answers[0]["cards"]["bound"]["text"] == "10"
    assert requested and all(address.startswith(url) for address in requested), requested
    assert not [address for address in requested if "/api/" in address]


def test_a_refused_input_rejects_with_the_servers_message(lab_page):
    page, _, _ = lab_page
    payload = {"points": [[1, 0]], "labels": [2]}
    message = page.evaluate(
        "(p) => window.perceptronlab.compute(p).then(() => 'answered', (e) => e.message)", payload
    )
    with pytest.raises(Exception) as refused:
        api.compute(payload)
    assert message == str(refused.value)
    assert "runs in this page" in page.get_by_test_id("runtime").inner_text()


def test_the_exam_task_in_the_page_gives_the_lectures_worksheet(lab_page):
    from perceptronlab import perceptron

    page, _, requested = lab_page
    page.evaluate("() => { location.hash = '#p=1,0,1;1,1,-1;0,1,-1'; }")
    page.wait_for_selector('#lab[data-ready="1"]')
    page.get_by_test_id("btn-run").click()
    run = perceptron(EXAM["points"], EXAM["labels"], exact=True, trace=True)
    cards = {
        name: page.get_by_test_id(f"card-{name}").locator(".plab-card-value").inner_text()
        for name in ("R", "rho", "bound", "mistakes")
    }
    assert cards == {"R": "√2", "rho": "1/√5", "bound": "10", "mistakes": "5"}
    rows = page.get_by_test_id("log-table").locator("tbody tr").all()
    shown = [tuple(cell.inner_text() for cell in row.locator("td").all()) for row in rows]
    assert shown == run.worksheet_rows()
    assert not [address for address in requested if "/api/" in address]
