"""The lab server's compute workers: a fixed pool of processes, a bounded queue, and a deadline.

Every lab request runs in a worker process (:mod:`perceptronlab.web.worker`), never on the
server's event loop, so the server keeps answering (``GET /api/health`` included) while the
workers compute, and one worker per core uses every core. The pool

- admits a request only while a worker is idle, or while fewer than ``queue`` requests wait and
  the wait it can expect (from the mean time per request) stays within ``max_wait`` seconds;
  beyond that it refuses at once (:class:`Busy`, the server's 503 with ``Retry-After``);
- lets a request wait at most ``deadline`` seconds for a worker (then :class:`Busy`), and compute
  at most ``deadline`` seconds (then :class:`DeadlineExceeded`): the worker is killed and a fresh
  one started, so the work really stops;
- stops the work when the client leaves: a queued request is dropped, a running one gets
  ``grace`` seconds to finish and is otherwise killed (:class:`ClientGone`);
- on :meth:`WorkerPool.begin_stop` (the server stops accepting: SIGTERM, Ctrl+C), refuses what
  waits and gives running requests ``stop_grace`` seconds; :meth:`WorkerPool.close` then kills
  every worker.

The pool belongs to one asyncio event loop (the server's); :meth:`WorkerPool.start` and
:meth:`WorkerPool.close` run in the application's lifespan.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import math
import os
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import cast

from perceptronlab.web.worker import HEADER

log = logging.getLogger("perceptronlab.web")

#: single-threaded numerics in each worker: the pool runs one worker per core.
WORKER_ENV = {
    "NUMBA_NUM_THREADS": "1",
    "OMP_NUM_THREADS": "1",
    "OPENBLAS_NUM_THREADS": "1",
    "MKL_NUM_THREADS": "1",
}


class Busy(Exception):
    """Every worker is busy and the queue is full (or the request waited too long): answer 503."""

    def __init__(self, message: str, retry_after: int):
        super().__init__(message)
        self.retry_after = retry_after


class DeadlineExceeded(Exception):
    """The request computed past the deadline; its worker was killed."""


class ClientGone(Exception):
    """The client left before the answer; its work was dropped or killed."""


class WorkerFailed(Exception):
    """A worker died or failed on its own (a bug or a crash, not bad input)."""


@dataclass
class Answer:
    """A worker's answer: ``kind`` is "ok" (``payload`` is the answer's JSON) or "input" (a message)."""

    kind: str
    payload: bytes


def available_cores() -> int:
    """The cores this process may run on (the affinity mask where the platform has one)."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # pragma: no cover - macOS, Windows
        return max(1, os.cpu_count() or 1)


class _Worker:
    """One worker process and its two pipes."""

    def __init__(self, process: asyncio.subprocess.Process):
        self.process = process

    @classmethod
    async def start(cls, timeout: float) -> _Worker:
        package_root = str(Path(__file__).resolve().parents[2])
        env = {**os.environ, **WORKER_ENV}
        env["PYTHONPATH"] = os.pathsep.join(
            p for p in (package_root, env.get("PYTHONPATH", "")) if p
        )
        process = await asyncio.create_subprocess_exec(
            sys.executable,
            "-m",
            "perceptronlab.web.worker",
            stdin=asyncio.subprocess.PIPE,
            stdout=asyncio.subprocess.PIPE,
            env=env,
            start_new_session=True,
        )
        worker = cls(process)
        try:
            kind, _ = await asyncio.wait_for(worker._read(), timeout)
        except BaseException:
            worker.kill()
            raise
        if kind != b"R":
            worker.kill()
            raise WorkerFailed(f"a new worker answered {kind!r} instead of ready")
        return worker

    async def _read(self) -> tuple[bytes, bytes]:
        try:
            stdout = cast(asyncio.StreamReader, self.process.stdout)  # started with stdout=PIPE
            kind, size = HEADER.unpack(await stdout.readexactly(HEADER.size))
            return kind, await stdout.readexactly(size)
        except asyncio.IncompleteReadError:
            code = await self.process.wait()
            raise WorkerFailed(f"the worker process stopped (exit code {code})") from None

    async def call(self, body: bytes) -> tuple[bytes, bytes]:
        try:
            stdin = cast(asyncio.StreamWriter, self.process.stdin)  # started with stdin=PIPE
            stdin.write(HEADER.pack(b"Q", len(body)) + body)
            await stdin.drain()
        except (BrokenPipeError, ConnectionResetError):
            code = await self.process.wait()
            raise WorkerFailed(f"the worker process stopped (exit code {code})") from None
        return await self._read()

    def kill(self) -> None:
        with contextlib.suppress(ProcessLookupError):
            self.process.kill()

    @property
    def pid(self) -> int:
        return self.process.pid


class WorkerPool:
    """A fixed number of worker processes behind a bounded queue (see the module docstring).

    Parameters
    ----------
    workers : int
        Worker processes (one request each at a time).
    queue : int
        Requests that may wait for a worker; more are refused at once.
    max_wait : float
        Seconds of expected wait beyond which a request is refused at once.
    deadline : float
        Seconds a request may wait for a worker, and seconds it may compute.
    grace : float
        Seconds a running request may still finish after its client left.
    stop_grace : float
        Seconds a running request may still finish once the server stops.
    start_timeout : float
        Seconds a new worker may take to start (imports and warm-up).
    """

    def __init__(
        self,
        workers: int,
        queue: int,
        deadline: float,
        max_wait: float = 2.0,
        grace: float = 0.25,
        stop_grace: float = 1.0,
        start_timeout: float = 120.0,
    ):
        if workers < 1 or queue < 0 or deadline <= 0:
            raise ValueError(
                f"WorkerPool: expected workers >= 1, queue >= 0, deadline > 0, got {workers}, "
                f"{queue}, {deadline}"
            )
        self.size, self.queue, self.deadline, self.grace = workers, queue, deadline, grace
        self.stop_grace, self.max_wait = stop_grace, max_wait
        self._stopping = asyncio.Event()
        self.start_timeout = start_timeout
        self._idle: asyncio.Queue[_Worker] = asyncio.Queue()
        self._alive: set[_Worker] = set()
        self._dying: set[_Worker] = set()  # killed, not yet reaped
        self._spawning: set[asyncio.Task] = set()
        self._waiting = 0
        self._busy = 0
        self.restarts = 0
        self.served = 0
        self._closing = False
        self._service_seconds = 0.05  # a running mean of the time per request, for Retry-After

    # ------------------------------------------------------------------ life cycle

    async def start(self) -> None:
        """Start every worker and wait until each is ready (imports and warm-up done)."""
        workers = await asyncio.gather(
            *(_Worker.start(self.start_timeout) for _ in range(self.size)), return_exceptions=True
        )
        failures = [w for w in workers if isinstance(w, BaseException)]
        for worker in workers:
            if not isinstance(worker, BaseException):
                self._alive.add(worker)
                self._idle.put_nowait(worker)
        if failures:
            await self.close()
            raise RuntimeError(f"the lab's compute workers did not start: {failures[0]!r}")

    def begin_stop(self) -> None:
        """The server stops: refuse new and waiting requests; running ones get ``stop_grace`` seconds."""
        self._closing = True
        self._stopping.set()

    async def close(self) -> None:
        """Kill every worker (busy ones included) and stop replacing them."""
        self.begin_stop()
        for task in list(self._spawning):
            task.cancel()
        for worker in list(self._alive):
            worker.kill()
        for worker in [*self._alive, *self._dying]:  # no worker outlives the pool
            with contextlib.suppress(Exception):
                await asyncio.wait_for(worker.process.wait(), 5)
        self._alive.clear()
        self._dying.clear()

    def stats(self) -> dict:
        """Workers, how many are busy, how many requests wait, how many workers were replaced."""
        return {
            "workers": self.size,
            "ready": len(self._alive),
            "busy": self._busy,
            "queued": self._waiting,
            "queue": self.queue,
            "restarts": self.restarts,
            "served": self.served,
            "deadline_s": self.deadline,
            "expected_wait_s": round(max(0.0, self.expected_wait()), 3),
        }

    def pids(self) -> list[int]:
        """The process ids of the live workers."""
        return sorted(worker.pid for worker in self._alive)

    def expected_wait(self) -> float:
        """Seconds a request admitted now may expect to wait: the line ahead, at the mean time per request."""
        return (self._waiting + self._busy + 1 - self.size) * self._service_seconds / self.size

    def retry_after(self) -> int:
        """Whole seconds until a refused client may expect a free worker (1 to 60)."""
        return int(min(60, max(1, math.ceil(self.expected_wait()))))

    # ------------------------------------------------------------------ one request

    async def compute(self, body: bytes, gone: asyncio.Event) -> Answer:
        """Run one request body on a worker; ``gone`` is set when the client disconnects."""
        if self._closing:
            raise Busy("the lab server is shutting down", self.retry_after())
        if self._idle.empty() and (
            self._waiting >= self.queue or self.expected_wait() > self.max_wait
        ):
            line = "1 request waits" if self._waiting == 1 else f"{self._waiting} requests wait"
            raise Busy(
                f"{'its worker is' if self.size == 1 else f'all {self.size} workers are'} busy and {line}",
                self.retry_after(),
            )
        worker = await self._acquire(gone)
        self._busy += 1
        loop = asyncio.get_running_loop()
        started = loop.time()
        call = asyncio.ensure_future(worker.call(body))
        watch = asyncio.ensure_future(gone.wait())
        stop = asyncio.ensure_future(self._stopping.wait())
        released = False
        try:
            await asyncio.wait(
                {call, watch, stop}, timeout=self.deadline, return_when=asyncio.FIRST_COMPLETED
            )
            if not call.done() and (gone.is_set() or self._stopping.is_set()):
                with contextlib.suppress(asyncio.TimeoutError, WorkerFailed):
                    await asyncio.wait_for(
                        asyncio.shield(call), self.grace if gone.is_set() else self.stop_grace
                    )
                if not call.done() or call.exception() is not None:
                    if gone.is_set():
                        raise ClientGone()
                    raise Busy("the lab server is shutting down", self.retry_after())
                if gone.is_set():
                    self._release(worker)
                    released = True
                    raise ClientGone()
            if not call.done():
                self._service_seconds += 0.2 * (
                    self.deadline - self._service_seconds
                )  # it held a worker that long
                raise DeadlineExceeded(f"the request computed for more than {self.deadline:g} s")
            kind, payload = call.result()  # WorkerFailed when the process died
            self._release(worker)
            released = True
            elapsed = loop.time() - started
            self._service_seconds += 0.2 * (elapsed - self._service_seconds)
            self.served += 1
            if kind == b"O":
                return Answer("ok", payload)
            if kind == b"E":
                return Answer("input", payload)
            raise WorkerFailed(payload.decode("utf-8", "replace") or f"unexpected answer {kind!r}")
        finally:
            self._busy -= 1
            watch.cancel()
            stop.cancel()
            if not released:
                call.cancel()
                self._replace(worker)

    async def _acquire(self, gone: asyncio.Event) -> _Worker:
        """An idle worker, waiting in line at most ``deadline`` seconds (and not after the client left)."""
        self._waiting += 1
        getter = asyncio.ensure_future(self._idle.get())
        watch = asyncio.ensure_future(gone.wait())
        stop = asyncio.ensure_future(self._stopping.wait())
        try:
            await asyncio.wait(
                {getter, watch, stop}, timeout=self.deadline, return_when=asyncio.FIRST_COMPLETED
            )
        except (
            BaseException
        ):  # cancelled (the server stops): hand back a worker taken at that instant
            if getter.done() and not getter.cancelled():
                self._release(getter.result())
            raise
        finally:
            self._waiting -= 1
            watch.cancel()
            stop.cancel()
            if not getter.done():
                getter.cancel()  # a cancelled Queue.get takes nothing from the queue
        if getter.done() and not getter.cancelled():
            worker = getter.result()
            if not gone.is_set() and not self._closing:
                return worker
            self._release(worker)
        if gone.is_set():
            raise ClientGone()
        if self._closing:
            raise Busy("the lab server is shutting down", self.retry_after())
        raise Busy(f"no worker was free within {self.deadline:g} s", self.retry_after())

    def _release(self, worker: _Worker) -> None:
        if self._closing or worker.process.returncode is not None:
            self._replace(worker)
        else:
            self._idle.put_nowait(worker)

    def _replace(self, worker: _Worker) -> None:
        """Kill ``worker`` (its state is unknown) and start a fresh one in the background."""
        worker.kill()
        if worker not in self._alive:
            return
        self._alive.discard(worker)
        self._dying.add(worker)
        asyncio.ensure_future(worker.process.wait()).add_done_callback(
            lambda _: self._dying.discard(worker)
        )
        self.restarts += 1
        if self._closing:
            return
        task = asyncio.ensure_future(self._respawn(worker))
        self._spawning.add(task)
        task.add_done_callback(self._spawning.discard)

    async def _respawn(self, old: _Worker) -> None:
        with contextlib.suppress(Exception):
            await asyncio.wait_for(old.process.wait(), 5)
        delay = 1.0
        while not self._closing:
            try:
                worker = await _Worker.start(self.start_timeout)
            except Exception as exc:  # noqa: BLE001 - keep trying, with a growing pause
                log.error("a lab worker did not start (%r); retrying in %.0f s", exc, delay)
                await asyncio.sleep(delay)
                delay = min(30.0, 2 * delay)
                continue
            if self._closing:
                worker.kill()
                return
            self._alive.add(worker)
            self._idle.put_nowait(worker)
            return
