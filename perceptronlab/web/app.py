"""The lab's web server: one page, its static ES module and CSS, and one stateless endpoint.

``POST /api/run`` takes ``{"points", "labels", "options"}`` and answers with the whole run and the
cards (:func:`perceptronlab.web.api.compute`). ``GET /`` is the page, ``GET /static/...`` its files
(shipped in the package: no CDN, no build step, no network), ``GET /api/health`` the server's state.

How it holds up (see docs/reference/limits.md, "Limits and safety"):

- every request is computed in a pool of worker processes (:mod:`perceptronlab.web.pool`), one
  per core by default, never on the event loop: the page and ``/api/health`` answer at once
  while the workers compute;
- each request has a budget of work (:mod:`perceptronlab.web.api`: points, sweeps, the size of
  exact numbers) and a deadline: a request that computes longer is stopped (its worker killed and
  replaced) and answered ``422``; when the client leaves, its work is dropped or killed too;
- a bounded queue: beyond it, ``503`` with ``Retry-After`` at once, instead of a long wait;
- bad input gets ``422 {"detail": message}``, a body over 1 MB ``413``;
- the front door (:mod:`perceptronlab.web.guard`): only the server's own Host names (and a port
  number), only JSON from its own page, security headers on every answer; a request must arrive
  whole within 10 s and a client holds at most 128 idle connections, so that stalled clients cannot
  make the server refuse everyone; a client that leaves mid-request is one line in the log;
- SIGTERM or Ctrl+C: in-flight requests get 2 seconds, then every worker is killed.

Start it with ``perceptronlab serve`` or :func:`serve`; embed it with :func:`create_app`.
"""

from __future__ import annotations

import asyncio
import contextlib
import errno
import logging
import socket
import threading
import webbrowser
from collections.abc import Iterable, Iterator
from pathlib import Path

from perceptronlab._ground.validation import fail
from perceptronlab.web.guard import LOOPBACK_NAMES, Guard, allowed_hosts, guarded_protocol
from perceptronlab.web.pool import (
    Busy,
    ClientGone,
    DeadlineExceeded,
    WorkerFailed,
    WorkerPool,
    available_cores,
)

try:
    import fastapi
    from fastapi import Request
    from fastapi.responses import FileResponse, JSONResponse, Response
    from fastapi.staticfiles import StaticFiles
    from starlette.requests import ClientDisconnect
except ImportError as exc:  # pragma: no cover - depends on the environment
    raise ImportError(
        "The lab page needs FastAPI and uvicorn: pip install 'perceptronlab[web]'."
    ) from exc

STATIC = Path(__file__).resolve().parent / "static"
log = logging.getLogger("perceptronlab.web")

#: seconds a request may wait for a worker, and seconds it may compute.
DEFAULT_DEADLINE = 10.0
#: requests that may wait for a worker, per worker (each holds its body, at most 1 MB); the pool
#: also refuses a request that would wait more than about 2 s, whatever the count.
QUEUE_PER_WORKER = 100
#: open connections the server accepts (more get 503 from uvicorn): bounds the request bodies in memory.
MAX_CONNECTIONS = 512
#: seconds in-flight requests get after SIGTERM before their workers are killed.
SHUTDOWN_GRACE = 2
#: the self-test's questions per request: by default, and at most
QUIZ_COUNT = 10
MAX_QUIZ_COUNT = 50


def _query_int(request: Request, name: str, default: int) -> int | str:
    """A query parameter as an int when it spells one (else its text, for the check's message)."""
    text = request.query_params.get(name)
    if text is None:
        return default
    text = text.strip()[:40]
    return int(text) if text.lstrip("-").isdigit() else text


def create_app(
    *,
    workers: int | None = None,
    queue: int | None = None,
    deadline: float = DEFAULT_DEADLINE,
    allow_hosts: Iterable[str] = (),
    bind_host: str | None = None,
) -> fastapi.FastAPI:
    """The FastAPI application of the lab (stateless: every request carries its whole state).

    Parameters
    ----------
    workers : int, optional
        Compute worker processes (default: one per available core).
    queue : int, optional
        Requests that may wait for a worker (default: 100 per worker); more get 503, and so does a
        request that would wait more than about 2 seconds.
    deadline : float
        Seconds a request may wait for a worker, and seconds it may compute (default 10).
    allow_hosts : iterable of str
        Host names the server answers besides loopback (``localhost``, ``127.0.0.1``, ``::1``).
    bind_host : str, optional
        The address the server listens on; allowed as a Host name unless it is a wildcard.

    The workers start with the application's lifespan (uvicorn runs it; with Starlette's test
    client, use it as a context manager).

    Examples
    --------
    >>> from fastapi.testclient import TestClient
    >>> with TestClient(create_app(workers=1, allow_hosts=["testserver"])) as client:
    ...     answer = client.post("/api/run", json={"points": [[1, 0], [1, 1], [0, 1]], "labels": [1, -1, -1]})
    >>> answer.status_code, answer.json()["run"]["mistakes"]
    (200, 5)
    """
    from perceptronlab import __version__

    size = available_cores() if workers is None else int(workers)
    waiting = QUEUE_PER_WORKER * size if queue is None else int(queue)
    pool = WorkerPool(
        size, waiting, float(deadline)
    )  # checks the numbers now; starts with the lifespan
    app = fastapi.FastAPI(
        title="perceptronlab lab",
        version=__version__,
        docs_url=None,
        redoc_url=None,
        openapi_url=None,
        lifespan=_lifespan(pool),
    )
    app.add_middleware(Guard, hosts=allowed_hosts(allow_hosts, bind_host))
    app.mount("/static", StaticFiles(directory=STATIC), name="static")
    _add_routes(app, pool, __version__)
    return app


def _lifespan(pool: WorkerPool):
    """The application's lifespan: the pool's workers start with it and stop after it."""

    @contextlib.asynccontextmanager
    async def lifespan(app):
        await pool.start()
        app.state.pool = pool
        try:
            yield
        finally:
            await pool.close()

    return lifespan


def _problem(status: int, message: str, headers: dict | None = None) -> JSONResponse:
    """An answer ``{"detail": message}`` with ``status``, never cached."""
    return JSONResponse(
        {"detail": message},
        status_code=status,
        headers={"Cache-Control": "no-store", **(headers or {})},
    )


def _add_routes(app: fastapi.FastAPI, pool: WorkerPool, version: str) -> None:
    """The page, the server's state, the self-test's questions and the run, on ``app``."""

    @app.get("/", include_in_schema=False)
    async def page() -> FileResponse:
        return FileResponse(STATIC / "index.html", media_type="text/html")

    @app.get("/api/health")
    async def health() -> JSONResponse:
        return JSONResponse(
            {"ok": True, "version": version, **pool.stats()},
            headers={"Cache-Control": "no-store"},
        )

    @app.get("/api/quiz")
    async def quiz(request: Request) -> Response:
        """The self-test's questions (:func:`perceptronlab.teach.quiz.quiz_document`) for the page's panel."""
        return await _quiz_answer(request)

    @app.post("/api/run")
    async def run(request: Request) -> Response:
        body = await _read_body(request)
        if isinstance(body, Response):
            return body
        return await _run_answer(request, pool, body)


async def _quiz_answer(request: Request) -> Response:
    """``GET /api/quiz?seed=&count=``: the questions, or 422 with one line on a bad number."""
    from perceptronlab._ground.validation import check_int_between
    from perceptronlab.exceptions import InputError
    from perceptronlab.teach.quiz import quiz_document

    try:
        seed = check_int_between(
            "seed", _query_int(request, "seed", 0), 0, 2**32 - 1, "Ask e.g. api/quiz?seed=7."
        )
        count = check_int_between(
            "count",
            _query_int(request, "count", QUIZ_COUNT),
            1,
            MAX_QUIZ_COUNT,
            f"Ask e.g. api/quiz?count={QUIZ_COUNT}.",
        )
        document = await asyncio.to_thread(quiz_document, seed, count)
    except InputError as exc:
        return _problem(422, str(exc))
    return JSONResponse(document, headers={"Cache-Control": "no-store"})


async def _read_body(request: Request) -> bytes | Response:
    """The request's body, at most :data:`api.MAX_BODY_BYTES` (else 413); 499 if the client left."""
    from perceptronlab.web import api

    declared = request.headers.get("content-length", "")
    too_big = (
        f"request: expected at most {api.MAX_BODY_BYTES:,} bytes, got {{}} bytes. "
        f"Send at most {api.MAX_POINTS:,} points."
    )
    if declared.isdigit() and int(declared) > api.MAX_BODY_BYTES:
        return _problem(413, too_big.format(f"{int(declared):,}"))
    body = bytearray()
    try:
        async for chunk in request.stream():
            body.extend(chunk)
            if len(body) > api.MAX_BODY_BYTES:
                return _problem(413, too_big.format(f"more than {api.MAX_BODY_BYTES:,}"))
    except ClientDisconnect:  # a half-sent request abandoned: one line, not a traceback
        client = request.client.host if request.client else "a client"
        log.info(
            "%s left before its request was sent whole (%s bytes of %s)",
            client,
            f"{len(body):,}",
            declared or "an unknown length",
        )
        return Response(status_code=499)
    return bytes(body)


async def _run_answer(request: Request, pool: WorkerPool, body: bytes) -> Response:
    """``body`` computed in the pool while the client is watched: the run, or one line and a status."""
    gone = asyncio.Event()

    async def watch_the_client() -> None:
        while (await request.receive())["type"] != "http.disconnect":
            pass
        gone.set()

    watcher = asyncio.create_task(watch_the_client())
    try:
        answer = await pool.compute(body, gone)
    except Busy as exc:
        return _problem(
            503,
            f"The lab server is busy: {exc}. Try again in {exc.retry_after} s.",
            headers={"Retry-After": str(exc.retry_after)},
        )
    except DeadlineExceeded:
        return _problem(
            422,
            f"request: expected work the lab finishes within {pool.deadline:g} s (its "
            f"deadline), got a run still computing after {pool.deadline:g} s. Send fewer "
            "points or sweeps, or choose float arithmetic.",
        )
    except ClientGone:
        return Response(status_code=499)  # nobody reads it: the client has left
    except WorkerFailed as exc:
        log.error("a lab worker failed: %s", exc)
        return _problem(
            500,
            f"The lab could not compute this request ({exc}). Please report it with the "
            "link of the page.",
        )
    finally:
        watcher.cancel()
    if answer.kind == "ok":
        return Response(
            answer.payload, media_type="application/json", headers={"Cache-Control": "no-store"}
        )
    return _problem(422, answer.payload.decode("utf-8", "replace"))


def bind(host: str, port: int) -> socket.socket:
    """A listening TCP socket on ``host:port`` (``port=0``: a free port the system picks).

    Raises
    ------
    perceptronlab.InputError
        The port is in use, or the address is not one of this machine's.
    """
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    # IPPROTO_TCP, not 0: asyncio turns Nagle's algorithm off only on sockets that say they are TCP
    # (with it on, every answer on a kept-alive connection waits 40 ms for a delayed ACK)
    sock = socket.socket(family, socket.SOCK_STREAM, socket.IPPROTO_TCP)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind((host, port))
        sock.listen(2048)
    except OSError as exc:
        sock.close()
        if exc.errno == errno.EADDRINUSE:
            raise fail(
                f"--port {port}",
                f"a free port on {host}",
                "a port in use (another program, perhaps "
                "another perceptronlab serve, listens there)",
                f"Stop that program, or choose another port: --port {port + 1 if port < 65535 else 8000}.",
            ) from None
        if exc.errno in (errno.EADDRNOTAVAIL, errno.EACCES) or isinstance(exc, socket.gaierror):
            reason = str(exc.strerror or exc).split(" (while attempting", 1)[0]
            raise fail(
                f"--host {host}",
                "an address of this machine that this user may listen on",
                f"{host}:{port} ({reason})",
                "Use --host 127.0.0.1 (this machine only) or --host 0.0.0.0 (every network).",
            ) from None
        raise
    sock.set_inheritable(False)
    return sock


def _server(app, log_level: str):
    """A uvicorn server for ``app`` that tells the worker pool first when it stops (SIGTERM, Ctrl+C,
    ``should_exit``): waiting requests get 503 at once and running ones a second to finish, so that
    every handler has answered before uvicorn's own grace (:data:`SHUTDOWN_GRACE`) runs out."""
    try:
        import uvicorn
    except ImportError as exc:  # pragma: no cover - depends on the environment
        raise ImportError(
            "perceptronlab serve needs uvicorn: pip install 'perceptronlab[web]'."
        ) from exc

    class LabServer(uvicorn.Server):
        async def shutdown(self, sockets=None):
            pool = getattr(app.state, "pool", None)
            if pool is not None:
                pool.begin_stop()
            await super().shutdown(sockets=sockets)

    return LabServer(
        uvicorn.Config(
            app,
            log_level=log_level,
            timeout_graceful_shutdown=SHUTDOWN_GRACE,
            server_header=False,
            limit_concurrency=MAX_CONNECTIONS,
            http=guarded_protocol(),
        )
    )  # a request timeout, idle connections capped


def _url(host: str, port: int) -> str:
    """The page's address on ``host`` (an IPv6 address in brackets)."""
    return f"http://{'[' + host + ']' if ':' in host else host}:{port}/"


@contextlib.contextmanager
def background(
    app, host: str = "127.0.0.1", port: int = 0, log_level: str = "warning"
) -> Iterator[str]:
    """Serve ``app`` from a thread of this process while the block runs; yields its URL.

    The port is bound first (``port=0``: a free one, with no window in which another program can
    take it), then uvicorn starts, runs the application's lifespan (the workers) and serves; the
    block starts once it accepts requests. Leaving the block shuts the server down.

    >>> import httpx
    >>> with background(create_app(workers=1)) as url:
    ...     httpx.get(url + "api/health").json()["ok"]
    True
    """
    sock = bind(host, port)
    url = _url(sock.getsockname()[0], sock.getsockname()[1])
    server = _server(app, log_level)
    failure: list[BaseException] = []

    def run() -> None:
        try:
            server.run(sockets=[sock])
        except BaseException as exc:  # noqa: BLE001 - reported to the caller below
            failure.append(exc)

    thread = threading.Thread(target=run, name="perceptronlab-lab-server", daemon=True)
    thread.start()
    try:
        while not server.started:  # the lifespan (starting the workers) has its own time limit
            if not thread.is_alive():
                raise RuntimeError(
                    f"the lab server did not start: {failure[0]!r}"
                    if failure
                    else "the lab server did not start (see the log above)"
                )
            thread.join(0.02)
        yield url
    finally:
        server.should_exit = True
        thread.join()
        sock.close()


def serve(
    host: str = "127.0.0.1",
    port: int = 8000,
    open_browser: bool = False,
    log_level: str = "warning",
    *,
    workers: int | None = None,
    queue: int | None = None,
    deadline: float = DEFAULT_DEADLINE,
    allow_hosts: Iterable[str] = (),
) -> None:
    """Serve the lab page with uvicorn until interrupted (loopback only unless ``host`` says so).

    Parameters
    ----------
    host, port : where to listen (default http://127.0.0.1:8000/; ``port=0`` picks a free port and
        prints it).
    open_browser : open the page in the default web browser once the server is up.
    log_level : uvicorn's log level.
    workers, queue, deadline, allow_hosts : see :func:`create_app`.

    Raises
    ------
    perceptronlab.InputError
        The port is in use (one line for the command line, which exits 1).
    """
    allow_hosts = list(allow_hosts)
    sock = bind(host, port)
    port = sock.getsockname()[1]
    shown = "127.0.0.1" if host in ("0.0.0.0", "::", "") else host
    url = _url(shown, port)
    app = create_app(
        workers=workers, queue=queue, deadline=deadline, allow_hosts=allow_hosts, bind_host=host
    )
    if open_browser:
        threading.Timer(0.8, webbrowser.open, args=(url,)).start()
    print(f"perceptronlab lab on {url}  (Ctrl+C to stop)", flush=True)
    if host not in LOOPBACK_NAMES:
        names = ", ".join(sorted(allowed_hosts(allow_hosts, host)))
        print(
            f"Listening on {host}: other machines can reach the lab. It answers only the Host names {names} "
            "(add more with --allow-host NAME).",
            flush=True,
        )
    try:
        _server(app, log_level).run(sockets=[sock])
    finally:
        sock.close()
