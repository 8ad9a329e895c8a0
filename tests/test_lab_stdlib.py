"""The lab's exact engine runs without NumPy (as in the browser's Pyodide) and answers as the server does."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path

import pytest

from perceptronlab.web import api

ROOT = Path(__file__).resolve().parents[1]

#: a meta-path finder that makes NumPy, SciPy and Numba unimportable, then the browser's calls
BLOCKED = """
import json, sys
class Blocker:
    def find_spec(self, name, path=None, target=None):
        if name.split(".")[0] in ("numpy", "scipy", "numba", "sklearn"):
            raise ImportError(f"{name} is blocked (the browser has no NumPy)")
        return None
sys.meta_path.insert(0, Blocker())
from perceptronlab.exceptions import InputError
from perceptronlab.web.lab import compute
out = []
for payload in json.load(sys.stdin):
    try:
        out.append(compute(payload))
    except InputError as exc:
        out.append({"error": str(exc)})
assert not any(m.split(".")[0] in ("numpy", "scipy", "numba") for m in sys.modules), sorted(sys.modules)
files = sorted(m.__file__ for n, m in sys.modules.items() if n.split(".")[0] == "perceptronlab")
json.dump({"answers": out, "files": files}, sys.stdout, allow_nan=False)
"""

EXAM = {"points": [[1, 0], [1, 1], [0, 1]], "labels": [1, -1, -1]}


def random_payloads(count: int, seed: int = 3) -> list[dict]:
    """Point sets, separable or not, with options: on the half-integer grid (exact arithmetic),
    every third set with random decimals (floating point)."""
    rng = random.Random(seed)
    payloads = []
    for k in range(count):
        n = rng.randint(1, 25)
        if k % 3 == 2:
            points = [
                [round(rng.uniform(-5, 5), rng.choice((2, 17))) for _ in range(2)] for _ in range(n)
            ]
        else:
            points = [[rng.randint(-8, 8) / rng.choice((1, 2)) for _ in range(2)] for _ in range(n)]
        if k % 2:
            a, b, c = rng.randint(-3, 3), rng.randint(-3, 3), rng.choice((0, 1))
            labels = [1 if a * x + b * y + c > 0 else -1 for x, y in points]
        else:
            labels = [rng.choice((1, -1)) for _ in points]
        options: dict = {"fit_intercept": k % 3 == 1, "max_sweeps": rng.choice((5, 30, 100))}
        if k % 4 == 3:
            options.update(eta="1/2", margin=1)
        if k % 5 == 4:
            options.update(order="pick", sequence=list(range(n))[::-1][: n // 2])
        payloads.append({"points": points, "labels": labels, "options": options})
    return payloads


def blocked_run(payloads: list[dict]) -> dict:
    done = subprocess.run(
        [sys.executable, "-c", BLOCKED],
        input=json.dumps(payloads),
        capture_output=True,
        text=True,
        cwd=ROOT,
        env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"},
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    return json.loads(done.stdout)


def blocked_answers(payloads: list[dict]) -> list[dict]:
    return blocked_run(payloads)["answers"]


@pytest.mark.slow
def test_without_numpy_the_answers_equal_the_servers():
    payloads = [EXAM, *random_payloads(24)]
    answers = blocked_answers(payloads)
    exam = answers[0]
    # the lecture notes' exam worksheet: 5 mistakes in 4 sweeps, w = (1, -2), R = √2, ρ* = 1/√5, bound 10
    assert (exam["run"]["mistakes"], exam["run"]["sweeps"], exam["run"]["w_text"]) == (
        5,
        4,
        "(1, -2)",
    )
    assert [exam["cards"][k]["text"] for k in ("R", "rho", "bound")] == ["√2", "1/√5", "10"]
    assert exam["run"]["steps"]["score_text"][:5] == ["0", "-1", "1", "0", "0"]
    for payload, answer in zip(payloads, answers, strict=True):
        assert answer == json.loads(json.dumps(api.compute(payload))), payload
    assert any(not a["cards"]["separable"]["separable"] for a in answers)
    assert any(a["cards"]["separable"]["separable"] for a in answers)
    assert any(a["exact"] for a in answers) and any(not a["exact"] for a in answers)


def test_without_numpy_a_request_for_the_compiled_engine_gets_one_line():
    payload = {"points": [[0.3, 1], [1, 0.7]], "labels": [1, -1], "options": {"pocket": True}}
    (answer,) = blocked_answers([payload])
    assert answer["error"].startswith("options.pocket: expected a run of the perceptron in cyclic")
    assert "perceptronlab serve" in answer["error"]
    assert api.compute(payload)["run"]["algorithm"] == "pocket"  # the server runs Pocket


def test_the_site_carries_every_file_the_browser_imports():
    from perceptronlab.web.site import BROWSER_FILES, PACKAGE

    loaded = blocked_run([EXAM])["files"]
    assert sorted(Path(f).relative_to(PACKAGE).as_posix() for f in loaded) == sorted(BROWSER_FILES)


def test_site_without_the_runtime_says_what_to_do_in_one_line(tmp_path):
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "perceptronlab",
            "site",
            str(tmp_path / "out"),
            "--pyodide",
            str(tmp_path),
        ],
        capture_output=True,
        text=True,
        cwd=ROOT,
        env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"},
        timeout=120,
        check=False,
    )
    lines = [line for line in (done.stdout + done.stderr).splitlines() if line.strip()]
    assert done.returncode == 1 and len(lines) == 1, lines
    assert "--pyodide" in lines[0] and "npm install" in lines[0] and "Traceback" not in lines[0]
    assert not (tmp_path / "out").exists()


def test_the_site_page_is_the_served_page_run_by_site_js():
    from perceptronlab.web.site import STATIC, site_page

    served = (STATIC / "index.html").read_text(encoding="utf-8")
    page = site_page().decode("utf-8")
    assert 'src="static/site.js"' in page and "static/page.js" not in page
    assert page.count('data-testid="runtime"') == 1 and "running in this page" in page
    # the rest is the served page line for line: one header line changed, one added
    assert len(page.splitlines()) == len(served.splitlines()) + 1
    assert served.splitlines()[:12] == page.splitlines()[:12]
