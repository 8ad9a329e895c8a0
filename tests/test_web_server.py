"""The lab server holds: workers on every core, a bounded queue, deadlines, cancellation, shutdown,
and a front door that answers only its own page (issue 13, item 4; issue 14, item 4).

Servers bind port 0 and report the port they got. No test waits a fixed time: each waits for the
state it needs (read from ``/api/health``), bounded by what the server itself guarantees (a
request is answered within its queue deadline plus its compute deadline; a worker starts within
the pool's start timeout).
"""

from __future__ import annotations

import json
import re
import signal
import socket
import subprocess
import sys
import threading
import time

import httpx
import numpy as np
import pytest
from fastapi.testclient import TestClient

from perceptronlab.web.app import background, create_app
from perceptronlab.web.guard import CONTENT_SECURITY_POLICY
from perceptronlab.web.pool import WorkerPool

EXAM = {"points": [[1, 0], [1, 1], [0, 1]], "labels": [1, -1, -1]}
JSON = {"Content-Type": "application/json"}
#: a new worker imports and warms up within this (the pool's own limit), however loaded the machine
WORKER_START = WorkerPool(1, 0, 1.0).start_timeout


def heavy_request(n: int = 300, seed: int = 0) -> bytes:
    """A legal request that keeps a worker busy for seconds (random-mistake Pocket on noisy points,
    each update scoring every point, 80 sweeps: 24,000 updates, over a second of one core on every
    machine measured), long enough to be seen busy, to be queued behind, and to overrun a short
    deadline."""
    rng = np.random.default_rng(seed)
    X = rng.uniform(-5, 5, size=(n, 2)).round(2)
    y = np.where(X[:, 0] + 0.5 * X[:, 1] + 3 * rng.standard_normal(n) > 0, 1, -1)
    return json.dumps(
        {
            "points": X.tolist(),
            "labels": y.tolist(),
            "options": {"order": "random-mistake", "pocket": True, "max_sweeps": 80},
        }
    ).encode()


HEAVY = heavy_request()


def health(url: str) -> dict:
    return httpx.get(url + "api/health", timeout=WORKER_START).json()


def wait_until(url: str, condition, within: float, what: str) -> dict:
    """Poll /api/health until ``condition(state)``; ``within`` is the server's own bound for it."""
    give_up = time.monotonic() + within
    while True:
        state = health(url)
        if condition(state):
            return state
        assert time.monotonic() < give_up, f"{what}: the server's state stayed {state}"
        time.sleep(0.01)


def open_request(url: str, body: bytes) -> socket.socket:
    """Send ``POST /api/run`` on a raw socket and leave it open (close it to leave)."""
    host, port = re.match(r"http://([^:/]+):(\d+)/", url).groups()
    sock = socket.create_connection((host, int(port)))
    sock.sendall(
        f"POST /api/run HTTP/1.1\r\nHost: {host}:{port}\r\nContent-Type: application/json\r\n"
        f"Content-Length: {len(body)}\r\n\r\n".encode()
        + body
    )
    return sock


def post_in_thread(url: str, body: bytes, timeout: float, results: list) -> threading.Thread:
    def go():
        try:
            results.append(httpx.post(url + "api/run", content=body, headers=JSON, timeout=timeout))
        except httpx.HTTPError as exc:
            results.append(exc)

    thread = threading.Thread(target=go, daemon=True)
    thread.start()
    return thread


# ------------------------------------------------------------------ the workers


def test_health_answers_while_a_worker_computes():
    deadline = 30.0
    with background(create_app(workers=1, deadline=deadline)) as url:
        results: list = []
        thread = post_in_thread(url, HEAVY, 2 * deadline + WORKER_START, results)
        wait_until(url, lambda s: s["busy"] == 1, deadline, "the heavy request never started")
        during = [
            health(url) for _ in range(20)
        ]  # answered by the event loop while the worker computes
        thread.join()
        assert any(state["busy"] == 1 for state in during)
        assert results[0].status_code == 200 and results[0].json()["run"]["algorithm"] == "pocket"
        assert health(url)["served"] == 1


def test_requests_run_side_by_side_on_every_worker():
    deadline = 30.0
    with background(create_app(workers=2, deadline=deadline)) as url:
        assert health(url)["ready"] == 2
        results: list = []
        threads = [
            post_in_thread(url, HEAVY, 2 * deadline + WORKER_START, results) for _ in range(2)
        ]
        both = wait_until(
            url, lambda s: s["busy"] == 2 or s["served"] == 2, 2 * deadline, "no answer"
        )
        for thread in threads:
            thread.join()
        assert both["busy"] == 2 and both["queued"] == 0  # two workers computed at once
        assert [r.status_code for r in results] == [200, 200]
        assert results[0].content == results[1].content  # the same request, the same answer


def test_a_full_queue_answers_503_with_retry_after():
    deadline = 30.0
    with background(create_app(workers=1, queue=1, deadline=deadline)) as url:
        running = open_request(url, HEAVY)
        wait_until(url, lambda s: s["busy"] == 1, deadline, "the first request never started")
        queued = open_request(url, HEAVY)
        wait_until(url, lambda s: s["queued"] == 1, deadline, "the second request never queued")
        refused = httpx.post(url + "api/run", json=EXAM, timeout=deadline)
        assert refused.status_code == 503
        assert int(refused.headers["Retry-After"]) >= 1
        assert refused.json()["detail"].startswith(
            "The lab server is busy: its worker is busy and 1 request waits. Try again in "
        )
        running.close()
        queued.close()
        state = wait_until(
            url,
            lambda s: s["busy"] == 0 and s["queued"] == 0 and s["ready"] == 1,
            WORKER_START,
            "the abandoned requests were not dropped",
        )
        assert state["served"] == 0  # neither abandoned request was computed to the end
        assert (
            httpx.post(url + "api/run", json=EXAM, timeout=2 * deadline).json()["run"]["mistakes"]
            == 5
        )


def test_a_long_expected_wait_is_refused_at_once():
    """Admission also looks at time: with a second per request ahead in line, a request that would
    wait longer than ``max_wait`` is refused at once, with that wait as its Retry-After."""
    import asyncio

    from perceptronlab.web.pool import Busy

    pool = WorkerPool(1, queue=100, deadline=30, max_wait=2.0)  # not started: no idle worker
    pool._service_seconds, pool._busy, pool._waiting = 1.0, 1, 2
    assert pool.expected_wait() == 3.0 and pool.retry_after() == 3
    outcome: list[BaseException] = []

    def admit() -> None:  # a loop of its own, in a thread (Playwright's loop may run in this one)
        try:
            asyncio.run(pool.compute(b"{}", asyncio.Event()))
        except BaseException as exc:  # noqa: BLE001 - inspected below
            outcome.append(exc)

    thread = threading.Thread(target=admit)
    thread.start()
    thread.join()
    assert len(outcome) == 1 and isinstance(outcome[0], Busy)
    refused = pytest.ExceptionInfo.from_exception(outcome[0])
    assert (
        refused.value.retry_after == 3
        and str(refused.value) == "its worker is busy and 2 requests wait"
    )
    pool._waiting = 0  # one second ahead: admitted (it would wait for a worker)
    assert pool.expected_wait() == 1.0 <= pool.max_wait


def test_the_deadline_stops_the_work():
    deadline = 0.3  # the heavy request needs over a second of one core
    app = create_app(workers=1, deadline=deadline)
    with background(app) as url:
        before = app.state.pool.pids()
        answer = httpx.post(
            url + "api/run", content=HEAVY, headers=JSON, timeout=2 * deadline + WORKER_START
        )
        assert answer.status_code == 422
        assert answer.json()["detail"] == (
            "request: expected work the lab finishes within 0.3 s (its deadline), got "
            "a run still computing after 0.3 s. Send fewer points or sweeps, or "
            "choose float arithmetic."
        )
        state = wait_until(url, lambda s: s["ready"] == 1, WORKER_START, "no new worker")
        assert state["restarts"] == 1 and state["served"] == 0
        after = app.state.pool.pids()
        assert after != before and not _alive(
            before[0]
        )  # the worker that ran past its deadline is gone
        assert (
            httpx.post(url + "api/run", json=EXAM, timeout=2 * deadline + 5).json()["run"][
                "mistakes"
            ]
            == 5
        )


def test_the_work_stops_when_the_client_leaves():
    deadline = 30.0
    app = create_app(workers=1, deadline=deadline)
    with background(app) as url:
        (first,) = app.state.pool.pids()
        client = open_request(url, HEAVY)
        wait_until(url, lambda s: s["busy"] == 1, deadline, "the request never started")
        client.close()
        state = wait_until(
            url, lambda s: s["ready"] == 1 and s["busy"] == 0, WORKER_START, "the work went on"
        )
        assert state["restarts"] == 1 and state["served"] == 0
        assert not _alive(first) and app.state.pool.pids() != [first]


def _alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as stat:
            return stat.read().split(") ", 1)[1][0] != "Z"
    except FileNotFoundError:
        return False


# ------------------------------------------------------------------ perceptronlab serve


def start_serve(*args: str) -> tuple[subprocess.Popen, str]:
    """``perceptronlab serve --port 0 ARGS``: the process and the URL it printed."""
    command = [
        sys.executable,
        "-c",
        "from perceptronlab.cli import main; main()",
        "serve",
        "--port",
        "0",
        *args,
    ]
    server = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    line = server.stdout.readline()  # printed once the port is bound
    match = re.search(r"http://127\.0\.0\.1:(\d+)/", line)
    if not match:
        server.kill()
        server.communicate()
    assert match, (line, server.poll())
    return server, match.group()


def test_serve_answers_and_shuts_down_on_sigterm_without_waiting_for_the_work():
    server, url = start_serve(
        "--workers", "1", "--deadline", "30", "--allow-host", "lab.example.org"
    )
    try:
        state = health(url)  # the socket is listening: this waits until the workers are ready
        assert state["ok"] is True and state["workers"] == 1
        assert "perceptronlab" in httpx.get(url, timeout=5).text
        assert httpx.post(url + "api/run", json=EXAM, timeout=60).json()["run"]["mistakes"] == 5
        named = httpx.get(url + "api/health", headers={"Host": "lab.example.org"}, timeout=5)
        assert named.status_code == 200
        assert (
            httpx.get(url + "api/health", headers={"Host": "evil.example"}, timeout=5).status_code
            == 400
        )
        import psutil

        workers = psutil.Process(server.pid).children()
        assert len(workers) == 1
        results: list = []
        threads = [
            post_in_thread(url, HEAVY, 120, results) for _ in range(3)
        ]  # seconds of work each, one worker
        wait_until(
            url, lambda s: s["busy"] == 1 and s["queued"] == 2, 60, "the requests never queued"
        )
        server.send_signal(signal.SIGTERM)
        code = server.wait(timeout=60)
        for thread in threads:
            thread.join()
    finally:
        server.kill()
    assert code in (0, -signal.SIGTERM)
    answered = [r for r in results if isinstance(r, httpx.Response) and r.status_code == 200]
    assert len(answered) < 3  # the server stopped before all the queued work was done
    assert not any(
        _alive(worker.pid) for worker in workers
    )  # the server reaped its workers before it exited
    assert "Traceback" not in server.stdout.read()


def test_serve_on_a_busy_port_says_so_in_one_line():
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        command = [
            sys.executable,
            "-c",
            "from perceptronlab.cli import main; main()",
            "serve",
            "--port",
            str(port),
        ]
        done = subprocess.run(command, capture_output=True, text=True, timeout=WORKER_START)
    assert done.returncode == 1 and done.stdout == ""
    assert done.stderr == (
        f"Error: --port {port}: expected a free port on 127.0.0.1, got a port in use (another "
        f"program, perhaps another perceptronlab serve, listens there). Stop that program, or "
        f"choose another port: --port {port + 1}.\n"
    )


def test_serve_rejects_a_bad_port():
    from typer.testing import CliRunner

    from perceptronlab.cli import app

    result = CliRunner().invoke(app, ["serve", "--port", "70000"])
    assert result.exit_code == 2 and "65535" in result.output


# ------------------------------------------------------------------ the front door


@pytest.fixture(scope="module")
def client():
    with TestClient(create_app(workers=1, allow_hosts=["testserver", "lab.example.org"])) as client:
        yield client


SECURITY = {
    "content-security-policy": CONTENT_SECURITY_POLICY,
    "x-content-type-options": "nosniff",
    "x-frame-options": "DENY",
    "referrer-policy": "no-referrer",
}


def test_every_answer_has_the_security_headers(client):
    answers = [
        client.get("/"),
        client.get("/static/lab.js"),
        client.get("/api/health"),
        client.get("/missing"),
        client.post("/api/run", json=EXAM),
        client.post("/api/run", json={"points": []}),
        client.post("/api/run", content=b"{}", headers={"Content-Type": "text/plain"}),
        client.get("/", headers={"Host": "evil.example"}),
    ]
    for answer in answers:
        for name, value in SECURITY.items():
            assert answer.headers[name] == value, (answer.request.url, name)
    assert (
        "frame-ancestors 'none'" in CONTENT_SECURITY_POLICY
        and "script-src 'self';" in CONTENT_SECURITY_POLICY
    )
    assert answers[4].headers["cache-control"] == "no-store"


@pytest.mark.parametrize(
    "host", ["evil.example", "evil.example:8000", "127.0.0.1.evil.example", "", "localhost.:80"]
)
def test_foreign_host_names_are_refused(client, host):
    answer = client.post("/api/run", json=EXAM, headers={"Host": host})
    assert answer.status_code == 400
    assert answer.json()["detail"].startswith("Host: expected one of this lab server's names")
    assert "--allow-host" in answer.json()["detail"]


@pytest.mark.parametrize(
    "host", ["localhost", "localhost:8000", "127.0.0.1:1234", "[::1]:8000", "LAB.example.org"]
)
def test_loopback_and_allowed_names_are_served(client, host):
    assert client.post("/api/run", json=EXAM, headers={"Host": host}).status_code == 200


def test_only_json_from_the_page_itself(client):
    same = client.post(
        "/api/run",
        json=EXAM,
        headers={"Origin": "http://testserver", "Sec-Fetch-Site": "same-origin"},
    )
    assert same.status_code == 200
    for headers in (
        {"Origin": "https://evil.example"},
        {"Origin": "null"},
        {"Sec-Fetch-Site": "cross-site"},
        {"Origin": "http://testserver:8080"},
    ):
        answer = client.post("/api/run", json=EXAM, headers=headers)
        assert answer.status_code == 403 and answer.json()["detail"].startswith(
            "Origin: expected this lab server's"
        )
    text = json.dumps(EXAM).encode()
    for kind in (
        "text/plain",
        "application/x-www-form-urlencoded",
        "multipart/form-data; boundary=x",
        None,
    ):
        answer = client.post(
            "/api/run", content=text, headers={"Content-Type": kind} if kind else {}
        )
        assert answer.status_code == 415, kind
        assert answer.json()["detail"].startswith("Content-Type: expected application/json")
    assert (
        client.post(
            "/api/run", content=text, headers={"Content-Type": "application/json; charset=utf-8"}
        ).status_code
        == 200
    )
    assert (
        client.options(
            "/api/run",
            headers={"Origin": "https://evil.example", "Access-Control-Request-Method": "POST"},
        ).status_code
        == 405
    )
