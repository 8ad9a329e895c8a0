"""One compute worker of the lab server: a process that answers lab requests, one at a time.

The server (:mod:`perceptronlab.web.pool`) starts ``python -m perceptronlab.web.worker`` and talks
to it over its standard input and output in frames: a kind byte, a 4-byte big-endian length, the
payload. The server sends ``Q`` + a raw request body; the worker answers ``O`` + the answer's JSON,
``E`` + a message for bad input (the server's 422) or ``X`` + a message for a failure of its own
(500). After start-up (imports, and one warm-up request per code path, so that the compiled kernels
are loaded before the first user waits) it sends ``R`` once.

A worker holds no state between requests; the server kills it (SIGKILL) when a request runs past
its deadline or its client leaves, and starts a fresh one. It exits when its input closes (the
server is gone) and, on Linux, when the server process dies.
"""

from __future__ import annotations

import json
import os
import signal
import struct
import sys
import traceback

HEADER = struct.Struct(">cI")

#: requests that load every code path of the lab once (exact, float, bias, pocket, random-mistake,
#: the separability LP with its certificate, the max-margin solver), so that a fresh worker answers
#: its first real request at full speed.
WARM_UP = (
    {"points": [[1, 0], [1, 1], [0, 1]], "labels": [1, -1, -1]},
    {
        "points": [[1, 1], [-1, -1], [1, -1], [-1, 1]],
        "labels": [1, 1, -1, -1],
        "options": {"max_sweeps": 3},
    },
    {
        "points": [[1.5, 0.25], [1, 1.1], [0, 1]],
        "labels": [1, -1, -1],
        "options": {"fit_intercept": True},
    },
    {
        "points": [[1.5, 0.25], [1, 1.1], [0, 1], [0.3, 0.2]],
        "labels": [1, -1, -1, -1],
        "options": {"pocket": True, "order": "random-mistake", "max_sweeps": 3},
    },
    {
        "points": [[0.5, 0.1], [0.2, 0.7], [0.3, 0.3]],
        "labels": [1, -1, 1],
        "options": {"max_sweeps": 2},
    },
)


def _die_with_parent() -> None:
    """On Linux, ask the kernel to kill this process when the server that started it dies."""
    if not sys.platform.startswith("linux"):
        return
    try:
        import ctypes

        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG
    except (OSError, AttributeError):  # pragma: no cover - exotic libc
        pass


def _read_exactly(stream, size: int) -> bytes | None:
    data = bytearray()
    while len(data) < size:
        chunk = stream.read(size - len(data))
        if not chunk:
            return None
        data.extend(chunk)
    return bytes(data)


def main() -> int:
    """Serve requests on stdin/stdout until the input closes."""
    signal.signal(
        signal.SIGINT, signal.SIG_IGN
    )  # Ctrl+C goes to the server, which stops its workers
    _die_with_parent()
    # The protocol owns the original stdout; anything else printed goes to stderr.
    protocol = os.fdopen(os.dup(1), "wb", buffering=0)
    os.dup2(2, 1)
    requests = sys.stdin.buffer

    from perceptronlab.exceptions import PerceptronLabError
    from perceptronlab.web import api

    def send(kind: bytes, payload: bytes = b"") -> None:
        protocol.write(HEADER.pack(kind, len(payload)) + payload)

    for request in WARM_UP:
        api.compute(request)
    send(b"R")
    while True:
        header = _read_exactly(requests, HEADER.size)
        if header is None:
            return 0
        kind, size = HEADER.unpack(header)
        body = _read_exactly(requests, size)
        if body is None or kind != b"Q":
            return 0
        try:
            answer = api.compute_body(body)
            send(b"O", json.dumps(answer, separators=(",", ":"), allow_nan=False).encode())
        except PerceptronLabError as exc:
            send(b"E", str(exc).encode())
        except Exception as exc:  # noqa: BLE001 - the worker answers every request
            traceback.print_exc()
            send(b"X", f"{type(exc).__name__}: {exc}"[:500].encode())


if __name__ == "__main__":
    sys.exit(main())
