"""The anywidget ``Lab`` inside a real JupyterLab, driven in Debian's Chromium through Playwright.

A JupyterLab server (the dev extra) starts on loopback on a port the OS picks, with its config,
data, runtime, settings and workspace directories in a temporary directory and every network
feature off (no news, no update check, no extension manager). Playwright opens a temporary
notebook whose cell creates ``perceptronlab.web.widget.Lab``, runs the cell, clicks points into the
plane, steps and runs, and the test holds what the page shows and what the kernel holds
(``lab.points``, ``lab.run``, ``lab.cards``, read back through a second client of the same kernel)
against the engine (``perceptronlab.perceptron``) and the theory toolkit on the same points.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from perceptronlab import perceptron
from perceptronlab.theory.geometry import max_margin, radius_squared

pytestmark = pytest.mark.browser

ARTIFACTS = Path(__file__).resolve().parent.parent / "artifacts"
NOTEBOOK_CELL = "from perceptronlab.web.widget import Lab\n\nlab = Lab(points=[], labels=[])\nlab"
# what JupyterLab would fetch from the internet, switched off
LAB_CONFIG = {
    "LabApp": {
        "news_url": None,
        "check_for_updates_class": "jupyterlab.NeverCheckForUpdate",
        "extension_manager": "readonly",
    }
}
LAB_SETTINGS = {
    "@jupyterlab/apputils-extension/notification.jupyterlab-settings": {
        "fetchNews": "false",
        "checkForUpdates": False,
    }
}
START_TIMEOUT_S = 90


class JupyterLab:
    """A JupyterLab server in a subprocess, everything it writes under ``home``."""

    def __init__(self, home: Path):
        self.home = home
        dirs = {
            name: home / name
            for name in (
                "config",
                "data",
                "runtime",
                "settings",
                "workspaces",
                "ipython",
                "notebooks",
            )
        }
        for path in dirs.values():
            path.mkdir()
        (dirs["config"] / "jupyter_server_config.json").write_text(
            json.dumps(LAB_CONFIG), encoding="utf-8"
        )
        for name, values in LAB_SETTINGS.items():
            target = dirs["settings"] / name
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(json.dumps(values), encoding="utf-8")
        self.notebooks = dirs["notebooks"]
        self.runtime = dirs["runtime"]
        self.env = {
            **os.environ,
            "JUPYTER_CONFIG_DIR": str(dirs["config"]),
            "JUPYTER_DATA_DIR": str(dirs["data"]),
            "JUPYTER_RUNTIME_DIR": str(dirs["runtime"]),
            "JUPYTERLAB_SETTINGS_DIR": str(dirs["settings"]),
            "JUPYTERLAB_WORKSPACES_DIR": str(dirs["workspaces"]),
            "IPYTHONDIR": str(dirs["ipython"]),
            "JUPYTER_PLATFORM_DIRS": "1",
            "MPLBACKEND": "Agg",
        }
        self.log = home / "jupyterlab.log"
        self.process: subprocess.Popen | None = None
        self.info: dict = {}

    def start(self) -> None:
        token = os.urandom(16).hex()
        command = [
            sys.executable,
            "-m",
            "jupyterlab",
            "--no-browser",
            "--allow-root",
            "--ServerApp.ip=127.0.0.1",
            "--ServerApp.port=0",
            "--ServerApp.port_retries=0",
            f"--ServerApp.root_dir={self.notebooks}",
            f"--IdentityProvider.token={token}",
        ]
        with self.log.open("w") as log:
            self.process = subprocess.Popen(
                command, env=self.env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True
            )
        deadline = time.monotonic() + START_TIMEOUT_S
        # the server writes jpserver-<pid>.json (its port and URL) once it listens
        info_file = self.runtime / f"jpserver-{self.process.pid}.json"
        while not info_file.exists():
            if self.process.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError("JupyterLab did not start:\n" + self.log.read_text()[-4000:])
            time.sleep(0.1)
        time.sleep(0.2)  # the file is written in one go, but give the writer a moment
        self.info = json.loads(info_file.read_text(encoding="utf-8"))
        assert self.info["hostname"] == "127.0.0.1" and self.info["token"] == token

    def url(self, path: str) -> str:
        return f"{self.info['url']}{path}?token={self.info['token']}"

    def stop(self) -> None:
        if self.process is None or self.process.poll() is not None:
            return
        os.killpg(self.process.pid, signal.SIGTERM)  # the server, and the kernels it started
        try:
            self.process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait(timeout=10)

    def kernel_client(self):
        """A second client of the notebook's kernel (its connection file in the runtime dir)."""
        from jupyter_client import BlockingKernelClient

        files = sorted(self.runtime.glob("kernel-*.json"))
        assert len(files) == 1, f"expected one running kernel, found {files}"
        client = BlockingKernelClient(connection_file=str(files[0]))
        client.load_connection_file()
        client.start_channels()
        client.wait_for_ready(timeout=30)
        return client


def kernel_eval(client, expression: str):
    """Evaluate ``expression`` in the notebook's kernel and return it (through JSON)."""
    outputs: list[str] = []
    code = f"import json as _json\nprint(_json.dumps({expression}))"
    reply = client.execute_interactive(
        code,
        timeout=30,
        store_history=False,
        output_hook=lambda msg: (
            outputs.append(msg["content"].get("text", "")) if msg["msg_type"] == "stream" else None
        ),
    )
    assert reply["content"]["status"] == "ok", reply["content"]
    return json.loads("".join(outputs))


def kernel_exec(client, code: str) -> None:
    reply = client.execute_interactive(
        code, timeout=30, store_history=False, output_hook=lambda msg: None
    )
    assert reply["content"]["status"] == "ok", reply["content"]


@pytest.fixture(scope="module")
def lab_server(tmp_path_factory):
    import nbformat

    home = tmp_path_factory.mktemp("jupyterlab")
    server = JupyterLab(home)
    notebook = nbformat.v4.new_notebook()
    notebook.cells.append(nbformat.v4.new_code_cell(NOTEBOOK_CELL))
    notebook.metadata["kernelspec"] = {
        "name": "python3",
        "display_name": "Python 3",
        "language": "python",
    }
    nbformat.write(notebook, server.notebooks / "lab.ipynb")
    started = time.monotonic()
    server.start()
    server.startup_s = time.monotonic() - started
    yield server
    server.stop()


@pytest.fixture(scope="module")
def notebook(lab_server, browser):
    """The notebook open in JupyterLab with its cell run: (page, widget root, kernel client)."""
    context = browser.new_context(viewport={"width": 1400, "height": 1000})
    page = context.new_page()
    page.set_default_timeout(60_000)
    errors: list[str] = []
    outside: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))

    def only_loopback(route):
        url = route.request.url
        if url.startswith(("http://127.0.0.1:", "ws://127.0.0.1:", "blob:", "data:")):
            route.continue_()
        else:
            outside.append(url)
            route.abort()

    context.route("**/*", only_loopback)
    page.goto(lab_server.url("lab/tree/lab.ipynb"))
    page.wait_for_selector(".jp-Notebook .jp-Cell .jp-InputArea-editor")
    # run the cell once the kernel is connected and idle (earlier, JupyterLab drops the request)
    page.get_by_text("Python 3 (ipykernel) | Idle").wait_for()
    page.locator(".jp-Notebook .jp-Cell .jp-InputArea-editor").first.click()
    page.keyboard.press("Shift+Enter")
    root = page.locator(".jp-OutputArea-output .plab")
    root.wait_for()
    page.wait_for_selector('.jp-OutputArea-output .plab[data-ready="1"]')
    client = lab_server.kernel_client()
    yield page, root, client
    client.stop_channels()
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "jupyterlab-widget.png"), full_page=True)
    context.close()
    assert not errors, errors
    assert not outside, f"JupyterLab or the widget reached outside loopback: {outside}"


def card(root, name: str) -> str:
    return root.get_by_test_id(f"card-{name}").locator(".plab-card-value").inner_text()


def log_rows(root) -> list[tuple[str, ...]]:
    rows = root.get_by_test_id("log-table").locator("tbody tr").all()
    return [tuple(cell.inner_text() for cell in row.locator("td").all()) for row in rows]


def answers(root) -> int:
    return int(root.get_attribute("data-answers") or 0)


def wait_answered(page, root, before: int) -> None:
    """Wait until the kernel has answered one more request than ``before``."""
    page.wait_for_function(
        "([el, n]) => el.dataset.ready === '1' && Number(el.dataset.answers || 0) > n",
        arg=[root.element_handle(), before],
    )


def click_point(page, root, x: float, y: float, shift: bool = False) -> None:
    plane = root.get_by_test_id("plane")
    plane.scroll_into_view_if_needed()
    box = plane.bounding_box()
    extent = float(plane.get_attribute("data-extent"))
    size = box["width"]
    before = answers(root)
    plane.click(
        position={"x": size / 2 + x * size / (2 * extent), "y": size / 2 - y * size / (2 * extent)},
        modifiers=["Shift"] if shift else [],
    )
    wait_answered(page, root, before)


def cards_from_page(root) -> dict[str, str]:
    return {name: card(root, name) for name in ("R", "rho", "bound", "mistakes", "separable")}


POINTS = [[1, 0], [1, 1], [0, 1], [-2, 1]]
LABELS = [1, -1, -1, -1]


def test_clicks_reach_the_kernel_and_the_cards_agree_with_the_engine(notebook):
    page, root, client = notebook
    assert root.get_by_test_id("status").inner_text() == "Click in the plane to add points."
    assert kernel_eval(client, "[lab.points, lab.labels, lab.result]") == [[], [], {}]
    for (x, y), label in zip(POINTS, LABELS, strict=True):
        click_point(page, root, x, y, shift=label < 0)
    points, labels = kernel_eval(client, "[lab.points, lab.labels]")
    assert [[float(v) for v in p] for p in points] == POINTS and labels == LABELS

    run = perceptron(POINTS, LABELS, exact=True, trace=True)
    rows = run.worksheet_rows()
    root.get_by_test_id("btn-step").click()
    assert log_rows(root) == rows[:1]
    assert card(root, "mistakes") == "1"
    root.get_by_test_id("btn-sweep").click()
    assert log_rows(root) == rows[: len(POINTS)]
    root.get_by_test_id("btn-run").click()
    assert log_rows(root) == rows
    assert card(root, "mistakes") == str(run.mistakes)
    w_text = "(" + ", ".join(str(v) for v in run.w) + ")"
    assert f"w = {w_text}" in root.get_by_test_id("status").inner_text()

    # the kernel's state is the engine's run, and the page shows the kernel's cards
    state = kernel_eval(
        client,
        "dict(run={k: lab.run[k] for k in ('mistakes', 'sweeps', 'w_text', 'converged')},"
        " cards={k: v['text'] for k, v in lab.cards.items()},"
        " separable=lab.cards['separable']['separable'], error=lab.error)",
    )
    assert state["error"] == ""
    assert state["run"] == {
        "mistakes": run.mistakes,
        "sweeps": run.sweeps,
        "w_text": w_text,
        "converged": True,
    }
    shown = cards_from_page(root)
    assert {name: state["cards"][name] for name in ("R", "rho", "bound", "mistakes")} == {
        name: shown[name] for name in ("R", "rho", "bound", "mistakes")
    }
    assert state["separable"] is True
    best = max_margin(POINTS, LABELS)
    assert radius_squared(POINTS) == 5 and shown["R"] == "√5"
    assert best.rho_squared == pytest.approx(0.2) and shown["rho"] == "1/√5"
    assert shown["bound"] == "25" and shown["separable"] == "yes"


def test_python_sets_points_and_the_page_follows(notebook):
    page, root, client = notebook
    margin_task = [
        [3, 1],
        [1, 2],
        [-1, -1],
        [0, -2],
    ]  # the margin task of "Perceptron Mistake Bound"
    kernel_exec(
        client,
        f"with lab.hold_trait_notifications():\n    lab.points = {margin_task}\n"
        "    lab.labels = [1, 1, -1, -1]",
    )
    page.wait_for_function(
        "el => el.querySelector('[data-testid=card-R] .plab-card-value').textContent === '√10'",
        arg=root.element_handle(),
    )
    assert card(root, "rho") == "√2" and card(root, "bound") == "5"
    root.get_by_test_id("btn-run").click()
    run = perceptron(margin_task, [1, 1, -1, -1], exact=True, trace=True)
    assert log_rows(root) == run.worksheet_rows()
    assert kernel_eval(client, "lab.run['mistakes']") == run.mistakes == int(card(root, "mistakes"))


def test_a_page_option_changes_the_kernel_run(notebook):
    page, root, client = notebook
    before = answers(root)
    root.get_by_test_id("bias").check()
    wait_answered(page, root, before)
    points, labels, options = kernel_eval(client, "[lab.points, lab.labels, lab.options]")
    assert options["fit_intercept"] is True
    run = perceptron(
        [[float(v) for v in p] for p in points], labels, fit_intercept=True, exact=True
    )
    w_text = kernel_eval(client, "lab.run['w_text']")
    assert (
        w_text.endswith(f"b = {run.b}")
        and kernel_eval(client, "lab.run['mistakes']") == run.mistakes
    )
    root.get_by_test_id("btn-run").click()
    assert card(root, "mistakes") == str(run.mistakes)
    root.get_by_test_id("bias").uncheck()
    page.wait_for_function("el => el.dataset.ready === '1'", arg=root.element_handle())


def test_bad_options_from_python_show_the_message(notebook):
    page, root, client = notebook
    kernel_exec(client, "lab.options = {**lab.options, 'eta': 0}")
    page.wait_for_function(
        "el => !el.querySelector('[data-testid=error]').hidden", arg=root.element_handle()
    )
    message = root.get_by_test_id("error").inner_text()
    assert message == kernel_eval(client, "lab.error") and message.startswith("options.eta")
    kernel_exec(client, "lab.options = {**lab.options, 'eta': 1}")
    page.wait_for_function(
        "el => el.querySelector('[data-testid=error]').hidden", arg=root.element_handle()
    )
    assert kernel_eval(client, "lab.error") == ""


def test_the_layout_fits_the_notebook(notebook):
    """Nothing in the widget is cut off at the width of a notebook's output area."""
    page, root, client = notebook
    width = root.evaluate("el => el.getBoundingClientRect().width")
    assert 600 < width < 1100  # narrower than the page the lab was designed for
    clipped = root.evaluate("""el => [...el.querySelectorAll('.plab-card-title, .plab-card-value')]
        .filter((node) => node.scrollWidth > node.clientWidth + 1).map((node) => node.textContent)""")
    assert clipped == []
    overflow = root.evaluate("el => el.scrollWidth - el.clientWidth")
    assert overflow <= 1


def test_exact_points_from_python_stay_exact(notebook):
    """Fractions set in Python are drawn where they are and never come back rounded."""
    page, root, client = notebook
    kernel_exec(
        client,
        "from fractions import Fraction\nlab.points = [[Fraction(1, 2), 0], [0, '1/2'], ['-1/2', '-1/2']]"
        "\nlab.labels = [1, -1, -1]",
    )  # two messages: the page must not answer the first
    page.wait_for_function(
        "el => el.querySelector('[data-testid=card-R] .plab-card-value').textContent === '1/√2'",
        arg=root.element_handle(),
    )
    X, y = [["1/2", "0"], ["0", "1/2"], ["-1/2", "-1/2"]], [1, -1, -1]
    run = perceptron(X, y, exact=True, trace=True)
    root.get_by_test_id("btn-run").click()
    assert log_rows(root) == run.worksheet_rows()
    assert card(root, "mistakes") == str(run.mistakes)
    points, labels, mistakes = kernel_eval(client, "[lab.points, lab.labels, lab.run['mistakes']]")
    assert (
        points == [["1/2", 0], [0, "1/2"], ["-1/2", "-1/2"]]
        and labels == y
        and mistakes == run.mistakes
    )
    # a click adds a point; the exact ones stay exact
    click_point(page, root, 2, -1)
    points, labels = kernel_eval(client, "[lab.points, lab.labels]")
    assert points == [["1/2", 0], [0, "1/2"], ["-1/2", "-1/2"], [2, -1]] and labels == [*y, 1]


def test_own_data_and_a_snapshot_in_the_notebook(notebook, tmp_path):
    """Points pasted into the widget reach the kernel; Save snapshot asks the kernel for the file."""
    page, root, client = notebook
    root.get_by_test_id("data-panel").locator("summary").click()
    before = answers(root)
    root.get_by_test_id("data-paste").fill("x,y,class\n3,1,a\n1,2,a\n-1,-1,b\n0,-2,b\n")
    root.get_by_test_id("data-use-paste").click()
    wait_answered(page, root, before)
    points, labels = kernel_eval(client, "[lab.points, lab.labels]")
    assert [[float(v) for v in p] for p in points] == [[3, 1], [1, 2], [-1, -1], [0, -2]]
    assert labels == [-1, -1, 1, 1]  # of two text classes, the later in order ('b') is +1
    run = perceptron([[3, 1], [1, 2], [-1, -1], [0, -2]], labels, exact=True, trace=True)
    root.get_by_test_id("btn-run").click()
    assert card(root, "mistakes") == str(run.mistakes)
    with page.expect_download() as download:
        root.get_by_test_id("save-snapshot").click()
    path = tmp_path / "notebook-run.html"
    download.value.save_as(path)
    text = path.read_text(encoding="utf-8")
    assert "mountSnapshot" in text and "perceptronlab in Jupyter" in text
    data = json.loads(text.split('id="plab-snapshot">')[1].split("</script>")[0])
    assert (
        data["order"] == ["lab.js"]
        and data["recorded"]["result"]["run"]["mistakes"] == run.mistakes
    )
    assert data["recorded"]["step"] == kernel_eval(
        client, "lab.run['steps']['count']"
    )  # saved at the end
