"""The built wheel works on its own: installed into a fresh virtual environment outside the checkout.

One module-scoped fixture builds the sdist and the wheel (``python -m build --no-isolation``: the
wheel is built from the sdist, so both are exercised) into a temporary folder. The wheel is then
installed with ``--no-deps`` into a new venv beside it; the venv sees the already-installed
dependencies of this environment through a ``.pth`` file (nothing is downloaded), but not the
source tree: every command runs from a temporary working directory, and the test asserts that
``perceptronlab`` is imported from the new venv. There it runs what a user runs first:
``--version``, ``demo``, ``train`` → ``predict``, a compiled ``perceptronlab.perceptron(...)``
and ``serve`` with every static file of the lab page.
"""

from __future__ import annotations

import email
import json
import os
import re
import subprocess
import sys
import sysconfig
import tarfile
import time
import urllib.error
import urllib.request
import zipfile
from pathlib import Path

import pytest

import perceptronlab

pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parents[1]
STATIC = ROOT / "perceptronlab" / "web" / "static"
VERSION = perceptronlab.__version__


def _run(args, *, cwd, env=None, timeout=180, check=True) -> subprocess.CompletedProcess:
    result = subprocess.run(
        [str(a) for a in args], cwd=cwd, env=env, capture_output=True, text=True, timeout=timeout
    )
    if check:
        assert result.returncode == 0, f"{args}\nstdout:\n{result.stdout}\nstderr:\n{result.stderr}"
    return result


@pytest.fixture(scope="module")
def dist(tmp_path_factory) -> dict[str, Path]:
    """The sdist and the wheel of this checkout, freshly built."""
    out = tmp_path_factory.mktemp("dist")
    _run(
        [sys.executable, "-m", "build", "--no-isolation", "--outdir", out, ROOT],
        cwd=ROOT,
        timeout=300,
    )
    wheels, sdists = sorted(out.glob("*.whl")), sorted(out.glob("*.tar.gz"))
    assert len(wheels) == 1 and len(sdists) == 1, sorted(p.name for p in out.iterdir())
    return {"wheel": wheels[0], "sdist": sdists[0]}


def _static_files() -> list[str]:
    return sorted(
        p.relative_to(STATIC).as_posix()
        for p in STATIC.rglob("*")
        if p.is_file() and "__pycache__" not in p.parts
    )


# ---------------------------------------------------------------- what the files carry


def test_wheel_carries_the_package_data_license_and_entry_point(dist):
    wheel = dist["wheel"]
    assert wheel.name == f"perceptronlab-{VERSION}-py3-none-any.whl"
    with zipfile.ZipFile(wheel) as archive:
        names = set(archive.namelist())
        info = f"perceptronlab-{VERSION}.dist-info"
        metadata = email.message_from_bytes(archive.read(f"{info}/METADATA"))
        entry_points = archive.read(f"{info}/entry_points.txt").decode()
        license_text = archive.read(f"{info}/licenses/LICENSE").decode()
    assert {f"perceptronlab/web/static/{name}" for name in _static_files()} <= names
    assert {
        "perceptronlab/py.typed",
        "perceptronlab/core/kernels.py",
        "perceptronlab/__main__.py",
        "perceptronlab/_version.py",
    } <= names
    # every module of the source tree is in the wheel, and nothing from outside the package
    sources = {p.relative_to(ROOT).as_posix() for p in (ROOT / "perceptronlab").rglob("*.py")}
    assert sources <= names
    assert not [n for n in names if not n.startswith(("perceptronlab/", info))]
    assert "perceptronlab = perceptronlab.__main__:main" in entry_points
    assert license_text == (ROOT / "LICENSE").read_text()
    assert metadata["Version"] == VERSION and metadata["License-Expression"] == "MIT"
    urls = dict(value.split(", ", 1) for value in metadata.get_all("Project-URL"))
    assert {"Documentation", "Source", "Issues"} <= set(urls)
    assert all(url.startswith("https://") for url in urls.values())
    assert "Typing :: Typed" in metadata.get_all("Classifier")
    assert "pdf" in metadata.get_all("Provides-Extra")


def test_sdist_carries_license_changelog_citation_and_tests(dist):
    with tarfile.open(dist["sdist"]) as archive:
        names = {n.split("/", 1)[1] for n in archive.getnames() if "/" in n}
    assert {
        "LICENSE",
        "README.md",
        "CHANGELOG.md",
        "CITATION.cff",
        "pyproject.toml",
        "Makefile",
        "perceptronlab/_version.py",
        "tests/test_wheel.py",
    } <= names
    assert {f"perceptronlab/web/static/{name}" for name in _static_files()} <= names
    assert not [n for n in names if "__pycache__" in n or n.endswith(".pyc")]


def test_twine_check_passes(dist):
    result = _run(
        [sys.executable, "-m", "twine", "check", "--strict", dist["wheel"], dist["sdist"]], cwd=ROOT
    )
    assert result.stdout.count("PASSED") == 2, result.stdout


# ---------------------------------------------------------------- installed, away from the checkout


@pytest.fixture(scope="module")
def installed(dist, tmp_path_factory) -> dict:
    """A fresh venv with the wheel installed, the dev environment's dependencies visible, a work dir."""
    home = tmp_path_factory.mktemp("installed")
    venv = home / "venv"
    # no PYTHONPATH (or any PYTHON* setting) of this session reaches the venv: not even pip, which
    # would take a source tree on PYTHONPATH (with its .egg-info) for the installed package
    env = {
        k: v
        for k, v in os.environ.items()
        if not k.startswith(("PYTHON", "VIRTUAL_ENV", "NUMBA_CACHE"))
    }
    env["PATH"] = f"{venv / 'bin'}{os.pathsep}{env.get('PATH', '')}"
    env["COLUMNS"] = "120"
    _run([sys.executable, "-m", "venv", "--without-pip", venv], cwd=home)
    python = venv / "bin" / "python"
    # install before the dependencies become visible: pip must not see the checkout's editable install
    _run(
        [
            sys.executable,
            "-m",
            "pip",
            "--python",
            python,
            "install",
            "--no-deps",
            "--no-index",
            "-q",
            dist["wheel"],
        ],
        cwd=home,
        env=env,
        timeout=300,
    )
    purelib = Path(
        _run(
            [python, "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"], cwd=home
        ).stdout.strip()
    )
    dev = {sysconfig.get_paths()["purelib"], sysconfig.get_paths()["platlib"]}
    (purelib / "_perceptronlab_dev_dependencies.pth").write_text("\n".join(sorted(dev)) + "\n")
    work = home / "work"
    work.mkdir()
    return {
        "venv": venv,
        "python": python,
        "script": venv / "bin" / "perceptronlab",
        "work": work,
        "env": env,
    }


def _in(installed, *args, **kw) -> subprocess.CompletedProcess:
    return _run(args, cwd=installed["work"], env=installed["env"], **kw)


def test_the_package_is_the_installed_one(installed):
    code = (
        "import perceptronlab, sys; print(perceptronlab.__file__); print(perceptronlab.__version__)"
    )
    where, version = _in(installed, installed["python"], "-c", code).stdout.split()
    assert Path(where).is_relative_to(installed["venv"]), where
    assert not Path(where).is_relative_to(ROOT)
    assert version == VERSION


def test_version_and_demo(installed):
    script = installed["script"]
    assert _in(installed, script, "--version").stdout.strip() == f"perceptronlab {VERSION}"
    assert _in(installed, script, "-V").stdout.strip() == f"perceptronlab {VERSION}"
    assert (
        _in(installed, installed["python"], "-m", "perceptronlab", "--version").stdout.strip()
        == f"perceptronlab {VERSION}"
    )
    demo = _in(installed, script, "demo").stdout
    assert "5 mistakes in 4 sweeps, converged; w = (1, -2)" in demo and "identical weights" in demo


def test_train_then_predict(installed):
    work = installed["work"]
    rows = (
        ["a,b,kind"]
        + [f"{4 + 0.1 * k},{4 - 0.1 * k},big" for k in range(10)]
        + [f"{0.1 * k},{1 - 0.1 * k},small" for k in range(10)]
    )
    (work / "data.csv").write_text("\n".join(rows) + "\n")
    trained = _in(
        installed,
        installed["script"],
        "train",
        "data.csv",
        "--intercept",
        "--out",
        "model.json",
        "--json",
        "-q",
    )
    record = json.loads(trained.stdout)
    assert record["converged"] and record["training_errors"] == 0
    assert json.loads((work / "model.json").read_text())["format"] == "perceptronlab-model"
    predicted = _in(installed, installed["script"], "predict", "model.json", "data.csv", "-q")
    assert predicted.stdout.split() == ["big"] * 10 + ["small"] * 10


def test_a_compiled_run_from_python(installed):
    code = """
import numpy as np, perceptronlab
from perceptronlab.core import kernels
rng = np.random.default_rng(0)
X = rng.integers(-5, 6, size=(200, 4)).astype(float)
y = np.where(X @ np.array([1.0, -2.0, 0.5, 3.0]) > 0, 1, -1)
run = perceptronlab.perceptron(X, y, max_sweeps=10000)
exact = perceptronlab.perceptron(X.astype(int).tolist(), y.tolist(), exact=True, max_sweeps=10000)
compiled = [name for name, obj in vars(kernels).items() if getattr(obj, "signatures", None)]
print(kernels.__file__)
print(run.converged, run.mistakes == exact.mistakes, [float(v) for v in exact.w] == run.w.tolist())
print(len(compiled))
"""
    where, verdict, compiled = (
        _in(installed, installed["python"], "-c", code).stdout.strip().splitlines()
    )
    assert Path(where).is_relative_to(installed["venv"])
    assert verdict == "True True True"  # the compiled float run equals the exact one
    assert int(compiled) >= 1  # Numba compiled at least one kernel for this call


def _get(url: str) -> tuple[int, bytes]:
    with urllib.request.urlopen(url, timeout=10) as response:  # noqa: S310 - loopback only
        return response.status, response.read()


def test_serve_answers_the_page_and_every_static_file(installed):
    server = subprocess.Popen(
        [str(installed["script"]), "serve", "--port", "0"],  # the system picks a free port
        cwd=installed["work"],
        env=installed["env"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        line = server.stdout.readline()  # printed once the port is bound
        found = re.search(r"http://127\.0\.0\.1:(\d+)/", line)
        assert found, (line, server.poll())
        port = found.group(1)
        deadline = time.monotonic() + 60
        while True:
            try:
                status, page = _get(f"http://127.0.0.1:{port}/")
                break
            except (urllib.error.URLError, ConnectionError):
                assert server.poll() is None, server.communicate()
                assert time.monotonic() < deadline, "the server did not answer within 60 s"
                time.sleep(0.2)
        assert status == 200 and b"<html" in page.lower()
        files = _static_files()
        assert files
        for name in files:
            status, body = _get(f"http://127.0.0.1:{port}/static/{name}")
            assert status == 200 and body == (STATIC / name).read_bytes(), name
    finally:
        server.terminate()
        try:
            server.communicate(timeout=30)
        except subprocess.TimeoutExpired:
            server.kill()
            server.communicate()
