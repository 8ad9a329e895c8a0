"""Progress of long work on stderr: a Rich bar on a terminal, one line per stage in logs.

A command opens one :class:`Progress` and announces its stages (``progress("perceptron", 1000)``
returns the run's per-sweep hook, ``on_sweep``); long library functions take the object itself as
their ``on_stage`` (:data:`perceptronlab.core.driver.OnStage`). What the user sees:

- on a terminal, once the work has taken :data:`SHOW_AFTER` seconds: a Rich progress display,
  one row per stage: sweeps done of the limit, mistakes in the last sweep, the elapsed time
  (a stage without sweeps shows a pulsing bar and its time; counted work, such as an
  experiment's runs, shows done of total, one stage at a time); it disappears when the command ends;
- when stderr is not a terminal (a log, a pipe, CI): one line per stage as it ends, for work that
  took at least :data:`SHOW_AFTER` seconds (earlier stages' lines are kept until then);
- nothing with ``--quiet`` or ``--json``, and nothing for work that ends within a second.

The per-sweep hook is a :class:`~perceptronlab.core.driver.Chunked` hook: the driver calls it
between chunks of sweeps, about :data:`REFRESH` times a second, so a compiled run of microsecond
sweeps pays an integer comparison per sweep (``benchmarks/bench_progress.py`` measures the cost).
"""

from __future__ import annotations

import threading
import time
import warnings
from typing import Any, cast

from perceptronlab.core.driver import Chunked

#: seconds of work before anything is shown
SHOW_AFTER = 1.0
#: at most this many updates of the display per second
REFRESH = 5.0


def _count(value: int) -> str:
    return f"{value:,}"


class _Stage:
    """One stage: its name, its sweep limit (None: no sweeps), and the last sweep's numbers."""

    __slots__ = ("name", "total", "started", "sweep", "updates", "mistakes", "task", "done", "of")

    def __init__(self, name: str, total: int | None, task: Any):
        self.name, self.total, self.task = name, total, task
        self.started = time.monotonic()
        self.sweep = self.updates = self.mistakes = 0
        self.done: int | None = None  # counted work (experiments): done of `of`
        self.of: int | None = None

    def detail(self) -> str:
        if self.done is not None:
            return f"{_count(self.done)} of {_count(self.of or 0)}"
        if self.total is None:
            return ""
        return (
            f"sweep {_count(self.sweep)} of {_count(self.total)} · {_count(self.updates)} "
            f"mistake{'' if self.updates == 1 else 's'} in the last sweep"
        )

    def summary(self) -> str:
        if self.done is not None:
            return self.detail()
        if self.total is None:
            return "done"
        return (
            f"{_count(self.sweep)} sweep{'' if self.sweep == 1 else 's'} of at most {_count(self.total)}, "
            f"{_count(self.updates)} "
            f"mistake{'' if self.updates == 1 else 's'} in the last sweep, {_count(self.mistakes)} in all"
        )


class Progress:
    """The progress of one command (see the module's docstring).

    Parameters
    ----------
    command : the command's name, which starts every log line.
    quiet : show nothing (``--quiet``, ``--json``).
    console : the Rich console to draw on (default: stderr).
    """

    def __init__(self, command: str, *, quiet: bool = False, console: Any = None):
        self.command = command
        self.enabled = not quiet
        self.stage: _Stage | None = None
        self.started = time.monotonic()
        self._lines: list[str] = []
        self._logging = False
        self._bar = None
        self._timer: threading.Timer | None = None
        self._lock = threading.Lock()
        self._closed = False
        if not self.enabled:
            return
        if console is None:
            from perceptronlab.cli._common import err_console

            console = err_console()
        self.console = console
        self.terminal = bool(console.is_terminal) and not console.is_dumb_terminal
        if self.terminal:
            from rich.progress import BarColumn, TextColumn, TimeElapsedColumn
            from rich.progress import Progress as RichProgress

            self._bar = RichProgress(
                TextColumn("{task.description}"),
                BarColumn(),
                TextColumn("{task.fields[detail]}"),
                TimeElapsedColumn(),
                console=console,
                transient=True,
                refresh_per_second=REFRESH,
                redirect_stdout=False,
            )
            self._timer = threading.Timer(SHOW_AFTER, self._show)
            self._timer.daemon = True
            self._timer.start()

    # ------------------------------------------------------------ the context
    def __enter__(self) -> Progress:
        if (
            self._bar is not None
        ):  # warnings wait until the bar is down, then print as they would have
            self._showwarning = warnings.showwarning
            self._warnings: list[tuple] = []
            warnings.showwarning = lambda *args, **kwargs: self._warnings.append((args, kwargs))
        return self

    def __exit__(self, kind, error, traceback) -> None:
        self.close(failed=kind is not None)

    def close(self, failed: bool = False) -> None:
        """End the last stage and take the display down (a log's lines are printed unless ``failed``)."""
        if not self.enabled or self._closed:
            return
        self._end_stage()
        if self._timer is not None:
            self._timer.cancel()
            self._timer.join()
        with self._lock:
            self._closed = True
            if self._bar is not None and self._bar.live.is_started:
                self._bar.stop()
        if self._bar is not None and hasattr(self, "_showwarning"):
            warnings.showwarning = self._showwarning
            for args, kwargs in self._warnings:
                self._showwarning(*args, **kwargs)
        if not self.terminal and not failed:
            self._flush()

    @property
    def live(self) -> bool:
        """Whether the terminal display is up (after :data:`SHOW_AFTER` seconds of work)."""
        return self._bar is not None and self._bar.live.is_started

    def _show(self) -> None:
        with self._lock:
            if not self._closed and self._bar is not None:
                self._bar.start()

    # ------------------------------------------------------------ stages
    def __call__(self, name: str, total: int | None = None):
        """Start the stage ``name`` (ending the one before); returns its per-sweep hook when it has
        sweeps (``total``: their limit), else None. The signature of ``on_stage``."""
        if not self.enabled:
            return None
        self._end_stage()
        task = None
        if self._bar is not None:
            task = self._bar.add_task(name, total=total, detail="")
        self.stage = _Stage(name, total, task)
        return None if total is None else Chunked(self.on_sweep, 1.0 / REFRESH)

    def on_sweep(self, info: Any) -> None:
        """The per-sweep hook of the current stage (``info``: a :class:`~perceptronlab.core.driver.SweepInfo`)."""
        stage = cast(_Stage, self.stage)  # called inside a stage
        stage.sweep, stage.updates, stage.mistakes = info.sweep, info.updates, info.total_updates
        if self._bar is not None:
            self._bar.update(stage.task, completed=stage.sweep, detail=stage.detail())

    def count(self, name: str, done: int, total: int) -> None:
        """Counted work (the experiments' ``progress(stage, done, total)``): ``done`` of ``total`` in ``name``."""
        if not self.enabled:
            return
        if self.stage is None or self.stage.name != name:
            self(name, None)
        stage = cast(_Stage, self.stage)  # started just above if it was not
        stage.done, stage.of = done, total
        if self._bar is not None:
            self._bar.update(stage.task, completed=done, total=total, detail=stage.detail())

    def _end_stage(self) -> None:
        stage = self.stage
        if stage is None:
            return
        self.stage = None
        if self._bar is not None:
            if stage.done is not None:  # counted work moves on to its next stage: one row at a time
                self._bar.remove_task(stage.task)
                return
            end = max(stage.sweep if stage.total is not None else 1, 1)
            self._bar.update(stage.task, total=end, completed=end, detail=stage.summary())
            self._bar.stop_task(stage.task)
            return
        if not self.terminal:
            seconds = time.monotonic() - stage.started
            self._lines.append(f"{self.command}: {stage.name}: {stage.summary()} ({seconds:.1f} s)")
            if time.monotonic() - self.started >= SHOW_AFTER:
                self._flush()

    def _flush(self) -> None:
        if self._lines and time.monotonic() - self.started >= SHOW_AFTER:
            for line in self._lines:
                self.console.print(line, markup=False, highlight=False, soft_wrap=True)
            self._lines = []
