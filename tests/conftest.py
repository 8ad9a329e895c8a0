"""Shared fixtures and settings. Tests mirror the package: tests/test_<module>.py."""

import os

import pytest
from hypothesis import HealthCheck, settings

# Plots render headless everywhere.
os.environ.setdefault("MPLBACKEND", "Agg")

# Hypothesis profiles, chosen with HYPOTHESIS_PROFILE: "test" (the default, `make test`: Hypothesis's
# 100 examples, the fuzz suites in about a minute) and "fuzz" (`make fuzz`, the tests marked `fuzz`:
# 20 times the examples). Tests that set max_examples themselves keep theirs; the fuzz tests
# (tests/test_fuzz.py, tests/test_web_fuzz.py) take multiples of the profile's.
_SLOW_OK = [HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.filter_too_much]
settings.register_profile("test", max_examples=100, suppress_health_check=_SLOW_OK)
settings.register_profile(
    "fuzz", max_examples=2000, deadline=None, suppress_health_check=_SLOW_OK, print_blob=True
)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "test"))

# pytest-xdist (`make test`, --dist loadfile) hands whole modules to its workers in the order they
# are collected; by default it first sorts them by their number of tests, which sent the few-but-long
# modules (the docs site, the README's story, the browsers) last, where one worker ran them alone
# while the other had finished. The modules that took longest (seconds summed over their tests,
# `--durations=0` on two cores, December 2026) go first instead, and the short ones fill in at the
# end. A module missing from the list keeps its place after them: the order only balances the workers.
LONGEST_FIRST = [
    *("progress", "fuzz", "docs", "web_browser", "benchmarks", "web_server", "wheel"),
    *("jupyterlab_widget", "readme_story", "real_data_stories", "report", "scale_cluster"),
    *("truth", "interrupt", "reliability", "web_fuzz", "web_bench", "experiments"),
    *("core_kernels", "site_browser", "quiz_options", "cli_help", "river", "estimators"),
    *("bench_pocket", "difficulty", "class", "quiz", "files", "exams", "online_learners"),
]


def pytest_collection_modifyitems(config, items):
    rank = {f"test_{name}.py": place for place, name in enumerate(LONGEST_FIRST)}
    items.sort(
        key=lambda item: rank.get(item.path.name, len(rank))
    )  # stable: within a module as is


@pytest.fixture(scope="session", autouse=True)
def kernel_choices_small(tmp_path_factory):
    """The measured kernel choices (:mod:`perceptronlab.core.choice`: the CSR loop, the dense sweep,
    the thread choice) measured on small data and kept in the session's own folder: a test that
    reaches them (a long fit on two cores, a large sparse fit, ``show_config``) measures in a fraction
    of a second, and the checkout's cache (the real measurement, on data beyond the L3) is neither
    read nor overwritten by a measurement made on a busy test machine. Yields the unpatched cache-file
    functions (``cache_file``, ``threads_cache_file``)."""
    from types import SimpleNamespace

    from perceptronlab.core import choice

    originals = SimpleNamespace(
        cache_file=choice.cache_file, threads_cache_file=choice.threads_cache_file
    )
    folder = tmp_path_factory.mktemp("kernel-choices")
    patch = pytest.MonkeyPatch()
    patch.setattr(choice, "cache_file", lambda: folder / "kernel-choices-test.json")
    patch.setattr(choice, "threads_cache_file", lambda: folder / "late-sweep-threads-test.json")
    patch.setattr(choice, "THREADS_SLICE_BYTES", (4 * 2**20, 4 * 2**20))
    patch.setattr(choice, "_dense_bytes", lambda: 4 * 2**20)
    choice.threads_choice.cache_clear()
    choice.choices.cache_clear()
    yield originals
    patch.undo()
    choice.threads_choice.cache_clear()
    choice.choices.cache_clear()


@pytest.fixture(scope="session")
def bc200_csv(tmp_path_factory):
    """A user's own unscaled data (issue 14): the first 200 rows of scikit-learn's breast cancer as a
    CSV with a header (spaces in the names made underscores) and a ``label`` column."""
    import csv

    from sklearn.datasets import load_breast_cancer

    data = load_breast_cancer()
    path = tmp_path_factory.mktemp("bc200") / "bc200.csv"
    with open(path, "w", newline="") as handle:
        writer = csv.writer(handle, lineterminator="\n")  # the bytes pandas' to_csv writes
        writer.writerow([name.replace(" ", "_") for name in data.feature_names] + ["label"])
        writer.writerows(
            [*(repr(float(v)) for v in row), int(label)]
            for row, label in zip(data.data[:200], data.target[:200], strict=True)
        )
    return path


@pytest.fixture
def exam_csv(tmp_path):
    """The exam task of "Perceptron Mistake Bound" as a CSV file."""
    path = tmp_path / "exam.csv"
    path.write_text("x1,x2,y\n1,0,1\n1,1,-1\n0,1,-1\n")
    return path


@pytest.fixture
def two_rounds():
    """The benchmarks' smoke runs: two interleaved rounds per figure (a spread needs two)."""
    from benchmarks import _timing

    before = _timing._settings["rounds"]
    _timing.set_rounds(2)
    yield
    _timing.set_rounds(before)


CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-default-apps",
    "--disable-extensions",
]


@pytest.fixture(scope="module")
def browser():
    """Debian's Chromium driven by Playwright, one per test module (the browser tests' fixture).

    Per module, not per session: a browser shared with a module that runs a Jupyter kernel client
    fails there ("Sync API inside the asyncio loop"); one per module, closed before the next starts,
    works.
    """
    import shutil

    from playwright.sync_api import sync_playwright

    executable = shutil.which("chromium")
    assert executable, (
        "Debian's chromium is not on the PATH: apt-get install chromium (make test does this)"
    )
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=executable, args=CHROMIUM_ARGS)
        yield browser
        browser.close()


@pytest.fixture(autouse=True)
def _no_progress_lines_in_process(request, monkeypatch):
    """Commands run in this process print no progress lines, however loaded the machine: a test
    that reads stderr for one error line must not see a stage's log line because the work took
    more than a second here (tests/test_progress.py sets its own clock)."""
    if request.module.__name__.rsplit(".", 1)[-1] != "test_progress":
        from perceptronlab.cli import _progress

        monkeypatch.setattr(_progress, "SHOW_AFTER", 1e9)


@pytest.fixture(scope="session")
def run_once(tmp_path_factory, worker_id):
    """``run_once(command, data, *flags)``: ``perceptronlab COMMAND DATA FLAGS`` run once per test run
    for every module that reads it (the same bytes of data, the same flags): the first pytest-xdist
    worker to ask runs it on a copy of DATA in a folder that all workers share, the others wait for it
    (a file lock) and read what it wrote. A report is written to ``out/`` in that folder. Returns the
    folder and what the command printed."""
    import hashlib
    import shutil

    from filelock import FileLock
    from typer.testing import CliRunner

    from perceptronlab.cli import app

    shared = tmp_path_factory.getbasetemp()
    root = shared.parent if worker_id != "master" else shared

    def run(command: str, data, *flags: str):
        key = hashlib.sha256(data.read_bytes() + repr((command, flags)).encode()).hexdigest()[:20]
        folder = root / f"once-{command}-{key}"
        with FileLock(f"{folder}.lock"):
            if not (folder / "printed.txt").exists():
                folder.mkdir(exist_ok=True)
                copy = folder / data.name
                shutil.copyfile(data, copy)
                out = ["--out", str(folder / "out")] if command == "report" else []
                result = CliRunner().invoke(app, [command, str(copy), *flags, *out])
                assert result.exit_code == 0, result.output
                (folder / "printed.txt").write_text(result.stdout, encoding="utf-8")
        return folder, (folder / "printed.txt").read_text(encoding="utf-8")

    return run
