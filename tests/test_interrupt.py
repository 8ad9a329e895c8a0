"""Ctrl-C (issue 13 item 6): real processes sent SIGINT end with exit code 130 and one line,
no traceback, and leave no process behind."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import numpy as np
import pytest

pytestmark = pytest.mark.skipif(os.name == "nt", reason="POSIX signals and process groups")
SCRIPT = Path(sys.executable).parent / "perceptronlab"
#: Numba's thread pool (whichever threading layer it chose), loaded when a parallel kernel first runs
NUMBA_THREAD_POOL = r"numba/np/ufunc/(tbbpool|omppool|workqueue)"


def _default_sigint() -> None:  # a parent that ignores SIGINT would pass the ignore on
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def _loaded(pid: int, library: re.Pattern) -> bool:
    """Whether the process has mapped a shared library whose path matches ``library``."""
    try:
        return bool(library.search(Path(f"/proc/{pid}/maps").read_text()))
    except OSError:  # not started yet, or gone
        return False


def interrupt(args: list[str], library: str, *, group: bool = False, before=None):
    """Start ``args``, wait until it has loaded the shared library ``library`` (a regular
    expression on its path: an event of its start-up or of its work, not a guessed number of
    seconds), send SIGINT (to the whole process group, as a terminal does, with ``group``); return
    (exit code, stderr, the descendants seen before the signal). The process group is killed
    whatever happens."""
    if not Path("/proc/self/maps").exists():
        pytest.skip("waits on /proc/PID/maps (Linux)")
    process = subprocess.Popen(
        args,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
        preexec_fn=_default_sigint,
    )
    try:
        deadline, pattern = time.monotonic() + 120, re.compile(library)
        while not _loaded(process.pid, pattern) and process.poll() is None:
            assert time.monotonic() < deadline, f"{args[1:3]} loaded no {library} in 120 s"
            time.sleep(0.01)
        children = before(process.pid) if before else []
        if group:
            os.killpg(process.pid, signal.SIGINT)
        else:
            process.send_signal(signal.SIGINT)
        try:
            _, err = process.communicate(timeout=90)
        except subprocess.TimeoutExpired:
            pytest.fail(f"{args[1:3]} still running 90 s after Ctrl-C")
    finally:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGKILL)
            process.communicate()
    return process.returncode, err, children


def _clean(code: int, err: str) -> None:
    assert code == 130, err
    assert err.strip() == "Interrupted.", err


@pytest.fixture(scope="module")
def noisy(tmp_path_factory):
    """Non-separable data large enough for the parallel margins kernel (4 million entries)."""
    rng = np.random.default_rng(0)
    path = tmp_path_factory.mktemp("ctrl-c") / "noisy.npz"
    np.savez(path, X=rng.normal(size=(200_000, 20)), y=np.where(rng.random(200_000) < 0.5, 1, -1))
    return path


def test_pocket_training_in_a_parallel_kernel(noisy):
    """The issue's reproduction: it printed a 50-line SystemError traceback and exited 1."""
    code, err, _ = interrupt(
        [
            str(SCRIPT),
            "train",
            str(noisy),
            "--algorithm",
            "pocket",
            "--max-sweeps",
            "1000000",
            "-q",
        ],
        NUMBA_THREAD_POOL,  # the parallel kernel's threads have started
    )
    _clean(code, err)


def test_a_parallel_kernel_interrupted_raises_keyboard_interrupt():
    """In-process: SIGINT while the margins kernel runs comes out as KeyboardInterrupt."""
    script = textwrap.dedent("""
        import os, signal, threading
        import numpy as np
        from perceptronlab.core.engines import margins
        X = np.random.default_rng(0).normal(size=(200_000, 20)); y = np.ones(200_000); w = np.zeros(20)
        margins(X, y, w, 0.0)  # load the compiled kernel first
        threading.Timer(0.5, os.kill, (os.getpid(), signal.SIGINT)).start()
        try:
            for _ in range(1_000_000):
                margins(X, y, w, 0.0)
        except BaseException as exc:
            print(type(exc).__name__)
    """)
    done = subprocess.run(
        [sys.executable, "-c", script],
        capture_output=True,
        text=True,
        timeout=120,
        preexec_fn=_default_sigint,
    )
    assert done.stdout.strip() == "KeyboardInterrupt", done.stdout + done.stderr


def test_ctrl_c_while_the_command_line_is_imported(tmp_path):
    """Ctrl-C while Typer and the commands are imported (the first tenth of a second): the entry
    point's guard. Deterministic: the interrupt is raised by the import of typer itself."""
    script = textwrap.dedent("""
        import builtins, os, signal
        real_import = builtins.__import__
        def interrupting_import(name, *args, **kwargs):
            if name == "typer":
                os.kill(os.getpid(), signal.SIGINT)
            return real_import(name, *args, **kwargs)
        builtins.__import__ = interrupting_import
        from perceptronlab.__main__ import main
        main(["--version"])
    """)
    done = subprocess.run(
        [sys.executable, "-c", script],
        capture_output=True,
        text=True,
        timeout=120,
        preexec_fn=_default_sigint,
    )
    _clean(done.returncode, done.stderr)


# Stages of a start: the command line's import (NumPy's core loaded: within the entry point's
# guard), then the kernels' loading (llvmlite, Numba's compiler, loaded).
@pytest.mark.parametrize("library", [r"numpy/_?core/_multiarray_umath", r"libllvmlite"])
def test_ctrl_c_while_starting(tmp_path, library):
    data = tmp_path / "d.csv"
    data.write_text("x1,x2,y\n1,0,1\n1,1,-1\n0,1,-1\n")
    code, err, _ = interrupt([str(SCRIPT), "analyze", str(data)], library)
    if code == 0:  # finished before the signal: nothing to interrupt on a fast machine
        return
    _clean(code, err)


@pytest.mark.slow
def test_dask_training_leaves_no_worker_behind(tmp_path):
    """Ctrl-C from a terminal reaches the whole process group, Dask's worker processes included:
    one line, no traceback (the workers ignore it; the command closes them), no process left."""
    pytest.importorskip("distributed")
    psutil = pytest.importorskip("psutil")
    rng = np.random.default_rng(1)
    data = tmp_path / "noisy.csv"
    X = rng.normal(size=(20_000, 5))
    y = np.where(rng.random(20_000) < 0.5, 1, -1)
    np.savetxt(
        data, np.column_stack([X, y]), delimiter=",", header="a,b,c,d,e,y", comments="", fmt="%.4f"
    )
    process = subprocess.Popen(
        [str(SCRIPT), "train", str(data), "--dask", "--max-sweeps", "1000000"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
        preexec_fn=_default_sigint,
    )
    children = _running_cluster(psutil, process.pid)
    assert children, "no Dask worker process started"
    err = ""
    for _ in range(3):  # a Ctrl-C while the cluster starts is ignored; a user presses again
        os.killpg(process.pid, signal.SIGINT)
        try:
            _, err = process.communicate(timeout=20)
            break
        except subprocess.TimeoutExpired:
            continue
    else:
        os.killpg(process.pid, signal.SIGKILL)
        process.communicate()
        pytest.fail("still running after three Ctrl-C")
    assert (
        process.returncode == 130
        and "Traceback" not in err
        and err.strip().endswith("Interrupted.")
    ), err
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline and any(
        c.is_running() and c.status() != psutil.STATUS_ZOMBIE for c in children
    ):
        time.sleep(0.5)
    alive = [c for c in children if c.is_running() and c.status() != psutil.STATUS_ZOMBIE]
    assert alive == [], [c.cmdline()[:3] for c in alive]


def _running_cluster(psutil, pid: int) -> list:
    """The process's descendants once their number has stopped growing for a few seconds."""
    deadline = time.monotonic() + 90
    children, steady_since = [], time.monotonic()
    while time.monotonic() < deadline:
        now = psutil.Process(pid).children(recursive=True)
        if len(now) != len(children):
            children, steady_since = now, time.monotonic()
        elif children and time.monotonic() - steady_since > 4:
            return children
        time.sleep(0.5)
    return children


def test_a_ctrl_c_dropped_in_a_finalizer_still_stops_the_command(monkeypatch, tmp_path):
    """A Ctrl-C that lands while Python runs a ``__del__`` (llvmlite's, as Numba loads a kernel) is
    dropped by Python; the command line raises it again, so the command stops with one line and
    130 instead of working on to its end (here: a 60 s wait that only the interrupt cuts short)."""
    from typer.testing import CliRunner

    from perceptronlab.cli import _progress, app

    class Finalized:
        def __del__(self):
            raise KeyboardInterrupt  # as a Ctrl-C landing in a finalizer

    enter = _progress.Progress.__enter__

    def entering(self):
        finalized = Finalized()
        del finalized
        time.sleep(60)
        return enter(self)

    monkeypatch.setattr(_progress.Progress, "__enter__", entering)
    data = tmp_path / "exam.csv"
    data.write_text("x1,x2,y\n1,0,1\n1,1,-1\n0,1,-1\n")
    result = CliRunner().invoke(app, ["train", str(data)])
    assert result.exit_code == 130 and result.stderr.strip() == "Interrupted.", result.output
