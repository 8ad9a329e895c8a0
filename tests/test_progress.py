"""Issue 14, item 2: progress on long work, through the real command line.

A terminal is a pseudo-terminal (``pty``): the command runs as a child process whose stdout and
stderr are the terminal, as in a user's shell. A log (not a terminal: a pipe, CI) is the
command line's app run in the test's process with its output captured. ``SHOW_AFTER`` (a second of work
before anything shows) is lowered to 0 for the quick cases, so that they need not run
a second; one case keeps it, on work that takes longer than a second.
"""

from __future__ import annotations

import json
import os
import pty
import re
import subprocess
import sys
import time
from types import SimpleNamespace

import numpy as np
import pytest
from typer.testing import CliRunner

from perceptronlab.cli import _progress, app
from perceptronlab.core.driver import Chunked, SweepInfo

CHILD = (
    "import sys; import perceptronlab.cli._progress as p; p.SHOW_AFTER = float(sys.argv[1]); "
    "from perceptronlab.cli import main; main(sys.argv[2:])"
)
ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")
HIDE_CURSOR = "\x1b[?25l"  # Rich's live display starts by hiding the cursor


def _env() -> dict:
    # wide enough that a row's numbers stay on one line whatever the data file's folder (the bar's
    # columns are as wide as the widest stage, "reading <path>"; pytest-xdist's folders are longer)
    env = dict(os.environ, TERM="xterm-256color", COLUMNS="220", LINES="40")
    for name in ("NO_COLOR", "FORCE_COLOR", "TTY_COMPATIBLE", "TTY_INTERACTIVE", "CI"):
        env.pop(name, None)
    return env


def in_terminal(*args, show_after: float = 0.0, timeout: float = 120) -> tuple[int, str]:
    """Run ``perceptronlab ARGS`` on a pseudo-terminal; its exit code and everything it wrote."""
    argv = [sys.executable, "-c", CHILD, str(show_after), *map(str, args)]
    pid, fd = pty.fork()
    if pid == 0:  # the child: stdin, stdout and stderr are the terminal
        os.execve(sys.executable, argv, _env())
    chunks = []
    while True:
        try:
            chunk = os.read(fd, 1 << 16)
        except OSError:  # EIO: the child closed the terminal
            break
        if not chunk:
            break
        chunks.append(chunk)
    os.close(fd)
    _, status = os.waitpid(pid, 0)
    return os.waitstatus_to_exitcode(status), b"".join(chunks).decode("utf-8", "replace")


def in_log(*args, show_after: float = 0.0) -> SimpleNamespace:
    """Run ``perceptronlab ARGS`` with stdout and stderr captured, not a terminal (a log, CI): the
    command line's app in this process, as the console script runs it, without a new interpreter's
    start-up. Its ``returncode``, ``stdout`` and ``stderr``."""
    env: dict[str, str | None] = dict(TERM="xterm-256color", COLUMNS="220", LINES="40")
    env.update(
        dict.fromkeys(("NO_COLOR", "FORCE_COLOR", "TTY_COMPATIBLE", "TTY_INTERACTIVE", "CI"))
    )
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(_progress, "SHOW_AFTER", show_after)
        result = CliRunner().invoke(app, [str(a) for a in args], env=env)
    return SimpleNamespace(returncode=result.exit_code, stdout=result.stdout, stderr=result.stderr)


def plain(text: str) -> str:
    return ANSI.sub("", text).replace("\r", "\n")


@pytest.fixture(scope="module")
def noisy_csv(tmp_path_factory):
    """2,000 noisy examples: never separable, a few seconds' worth of sweeps on demand."""
    rng = np.random.default_rng(0)
    X = rng.normal(size=(2000, 5))
    y = np.where(X[:, 0] + 0.8 * rng.normal(size=2000) > 0, 1, -1)
    path = tmp_path_factory.mktemp("noisy") / "noisy.csv"
    np.savetxt(path, np.c_[X, y], delimiter=",", header="a,b,c,d,e,y", comments="", fmt="%.6g")
    return path


# ---------------------------------------------------------------- on a terminal: the bar


def test_train_shows_sweeps_mistakes_and_time_on_a_terminal(noisy_csv):
    code, out = in_terminal(
        "train", noisy_csv, "--order", "shuffle", "--seed", "0", "--max-sweeps", "2000"
    )
    assert code == 0, out
    assert HIDE_CURSOR in out
    text = plain(out)
    bars = re.findall(
        r"perceptron .*?sweep ([\d,]+) of 2,000 · ([\d,]+) mistakes? in the last sweep\s+(\d+:\d\d:\d\d)",
        text,
    )
    assert bars, text[-2000:]
    assert all(0 < int(sweep.replace(",", "")) <= 2000 for sweep, _, _ in bars)
    assert re.search(
        r"2,000 sweeps of at most 2,000, [\d,]+ mistakes in the last sweep, [\d,]+ in all", text
    )
    assert (
        "reading" in text and "perceptron on 2,000 examples" in text
    )  # the stages, then the result
    # no warning: the run's verdict is the analysis' own, a row of the table once the bar is down (issue 22)
    assert "Warning:" not in text and re.search(
        r"separable\s+│ no \(a Gordan certificate\)", text
    ), text[-1500:]


def test_pocket_shows_its_bar(noisy_csv):
    code, out = in_terminal(
        "train", noisy_csv, "--algorithm", "pocket", "--seed", "0", "--max-sweeps", "20"
    )
    assert code == 0, out
    text = plain(out)
    assert re.search(r"pocket .*sweep [\d,]+ of 20", text) and "pocket training errors" in text


def test_a_second_of_work_shows_the_bar_and_less_shows_nothing(bc200_csv, exam_csv):
    """The real delay: the unscaled breast cancer's 100,000 sweeps take more than a second and show
    the bar; the exam task of "Perceptron Mistake Bound", shorter than the threshold, shows none."""
    code, out = in_terminal("analyze", bc200_csv, show_after=_progress.SHOW_AFTER)
    assert code == 0, out
    assert HIDE_CURSOR in out and re.search(r"sweep [\d,]+ of 100,000", plain(out))
    # A three-row run still loads Numba's compiled kernels, about a second of start-up here (a fresh
    # clone's `make test` showed the bar while "reading" the three-row file): the short run's work is
    # timed first, and the bar must stay away for a threshold well beyond it.
    start = time.perf_counter()
    assert in_terminal("train", exam_csv, show_after=1000.0)[0] == 0
    short = time.perf_counter() - start
    code, out = in_terminal("train", exam_csv, show_after=max(_progress.SHOW_AFTER, 3 * short))
    assert (
        code == 0 and HIDE_CURSOR not in out and "sweep" not in plain(out).split("perceptron on")[0]
    )


def test_analyze_report_and_experiment_show_their_stages(bc200_csv, tmp_path):
    code, out = in_terminal("analyze", bc200_csv, "--scale", "standard")
    text = plain(out)
    assert code == 0 and "separability (linear program)" in text and "best margin ρ*" in text
    assert re.search(r"perceptron .*of (at most )?46,332", text) and "leave-one-out" in text
    code, out = in_terminal("report", bc200_csv, "--scale", "standard", "--out", tmp_path / "r")
    text = plain(out)
    assert (
        code == 0
        and "plots" in text
        and "writing the page" in text
        and re.search(r"perceptron .*of (at most )?46,332", text)
    )
    code, out = in_terminal("experiment", "worst-case", "--out", tmp_path / "w")
    text = plain(out)
    assert code == 0 and HIDE_CURSOR in out and re.search(r"dimensions .*\d of 6\b", text)


@pytest.mark.parametrize("flag", ["--quiet", "--json"])
def test_quiet_and_json_show_nothing(noisy_csv, flag):
    code, out = in_terminal(
        "train", noisy_csv, "--order", "shuffle", "--seed", "0", "--max-sweeps", "300", flag
    )
    assert code == 0, out
    assert HIDE_CURSOR not in out and "mistakes in the last sweep" not in out
    if (
        flag == "--json"
    ):  # the terminal holds the JSON alone: the run's verdict is in it, not a warning (issue 22)
        text = plain(out).replace("\n\n", "\n")
        assert text.startswith("{")
        record = json.loads(text)
        assert record["sweeps"] == 300 and record["separable"] == {"all": False}


def test_experiment_json_shows_nothing(tmp_path):
    code, out = in_terminal("experiment", "worst-case", "--out", tmp_path, "--json")
    assert code == 0 and HIDE_CURSOR not in out and "dimensions" not in out.split("{", 1)[0]


# ---------------------------------------------------------------- in a log: one line per stage


def test_a_log_gets_one_line_per_stage(noisy_csv):
    result = in_log("train", noisy_csv, "--order", "shuffle", "--seed", "0", "--max-sweeps", "300")
    assert result.returncode == 0, result.stderr
    assert "\x1b" not in result.stderr  # no bar, no colour
    lines = [ln for ln in result.stderr.splitlines() if ln.startswith("train: ")]
    assert len(lines) == 2, result.stderr
    assert re.fullmatch(
        rf"train: reading {re.escape(str(noisy_csv))}: done \(\d+\.\d s\)", lines[0]
    )
    assert re.fullmatch(
        r"train: perceptron: 300 sweeps of at most 300, [\d,]+ mistakes? in the last sweep, "
        r"[\d,]+ in all \(\d+\.\d s\)",
        lines[1],
    )
    assert "perceptron on 2,000 examples" in result.stdout


def test_a_log_of_analyze_names_every_stage(bc200_csv):
    result = in_log("analyze", bc200_csv, "--scale", "standard")
    stages = [ln.split(": ")[1] for ln in result.stderr.splitlines() if ln.startswith("analyze: ")]
    assert stages == [
        f"reading {bc200_csv}",
        "separability (linear program)",
        "best margin ρ* (quadratic program)",
        "perceptron",
        "leave-one-out",
    ]


@pytest.mark.parametrize("flag", ["--quiet", "--json"])
def test_a_log_is_silent_with_quiet_or_json(noisy_csv, flag):
    result = in_log(
        "train", noisy_csv, "--order", "shuffle", "--seed", "0", "--max-sweeps", "300", flag
    )
    assert result.returncode == 0 and "train: " not in result.stderr, result.stderr


def test_quick_work_writes_no_log_lines(exam_csv):
    """Work shorter than the threshold (the real one) writes nothing: the child's progress clock
    stands still, so the work is short by construction, however slowly the machine starts it."""
    frozen = "import types; p.time = types.SimpleNamespace(monotonic=lambda: 0.0); "
    result = subprocess.run(
        [
            sys.executable,
            "-c",
            CHILD.replace("from ", frozen + "from ", 1),
            str(_progress.SHOW_AFTER),
        ]
        + ["train", str(exam_csv)],
        capture_output=True,
        text=True,
        env=_env(),
        timeout=300,
    )
    assert result.returncode == 0 and result.stderr == "", result.stderr


# ---------------------------------------------------------------- the hook between chunks of sweeps


def test_the_driver_calls_a_chunked_hook_between_chunks_and_after_the_last_sweep():
    from perceptronlab import perceptron

    rng = np.random.default_rng(1)
    X = rng.normal(size=(50, 3))
    y = np.where(X[:, 0] + rng.normal(size=50) > 0, 1, -1)
    seen: list[SweepInfo] = []
    run = perceptron(
        X,
        y,
        order="shuffle",
        seed=0,
        max_sweeps=5000,
        warn=False,
        on_sweep=Chunked(seen.append, interval=3600),
    )
    assert [info.sweep for info in seen] == [
        1,
        2,
        4,
        8,
        16,
        32,
        64,
        128,
        256,
        512,
        1024,
        2048,
        4096,
        5000,
    ]
    last = seen[-1]
    assert (last.sweep, last.updates, last.total_updates) == (
        run.sweeps,
        run.updates_per_sweep[-1],
        run.mistakes,
    )
    every: list[int] = []
    perceptron(
        X,
        y,
        order="shuffle",
        seed=0,
        max_sweeps=300,
        warn=False,
        on_sweep=Chunked(lambda info: every.append(info.sweep), interval=0),
    )
    assert every == list(range(1, 301))  # a zero interval never grows the chunk


def test_a_chunked_hook_can_stop_the_run_where_its_chunk_ends():
    from perceptronlab import perceptron

    X = np.array([[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]])
    run = perceptron(
        X,
        [1, 1, -1],
        order="shuffle",
        seed=0,
        max_sweeps=1000,
        warn=False,
        on_sweep=Chunked(lambda info: info.sweep >= 10, interval=3600),
    )
    assert run.stopped and run.sweeps == 16


def test_the_display_takes_its_numbers_from_the_last_sweep():
    from rich.console import Console

    console = Console(file=__import__("io").StringIO(), force_terminal=False)
    with _progress.Progress("test", console=console) as progress:
        hook = progress("perceptron", 100)
        assert isinstance(hook, Chunked)
        hook.hook(SweepInfo(7, 3, 40))
        assert progress.stage.detail() == "sweep 7 of 100 · 3 mistakes in the last sweep"
        assert progress("separability", None) is None
    assert _progress.Progress("quiet", quiet=True)("perceptron", 10) is None


def test_the_benchmark_of_the_progress_display_runs():
    """A smoke run of bench_progress at a small size: rows well formed (no timing asserted)."""
    from benchmarks.bench_progress import bench_progress_overhead

    rows = bench_progress_overhead(scale=0.01)
    assert len(rows) == 2
    for row in rows:
        assert row["case"].startswith("progress display / none") and row["target"] == "≤ 1.02"
        assert row["ratio"] > 0 and row["met"] in (True, False) and "CPU time" in row["detail"]
