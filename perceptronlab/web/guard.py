"""The lab server's front door: allowed Host names, same-origin JSON requests, security headers.

A plain ASGI middleware (:class:`Guard`) checks every HTTP request before the application sees it:

- the ``Host`` header must name the server: loopback names always, the address it listens on,
  and every name passed with ``perceptronlab serve --allow-host NAME`` (a page on another domain
  that resolves to this machine, DNS rebinding, gets ``400``);
- ``POST`` requests must come from the page's own origin (a foreign ``Origin`` or
  ``Sec-Fetch-Site: cross-site`` gets ``403``) and carry ``Content-Type: application/json``
  (anything else, such as the ``text/plain`` a foreign form may send without asking, gets ``415``);
- every answer carries a Content Security Policy of ``'self'``, ``nosniff``, no framing and no
  referrer.

Below the application, :func:`guarded_protocol` is uvicorn's HTTP protocol with more bounds, so
that stalled clients cannot make the server refuse everyone: a request must arrive whole (headers
and body) within :data:`REQUEST_TIMEOUT` seconds of the connection falling idle, and its body at
:data:`MIN_BODY_RATE` bytes a second at least (after :data:`BODY_GRACE` seconds); each client
address keeps at most :data:`IDLE_PER_CLIENT` waiting connections, idle or still sending a request
(past it, its connection waiting the longest is closed), and near the server's connection limit the
client holding the most waiting connections loses its oldest. A connection inside a body counts as
waiting: a body sent one byte and then never (a "slowloris" on the body) holds no more room than
unfinished headers. Each such closing is logged in one line.
"""

from __future__ import annotations

import ipaddress
import json
import logging
from collections.abc import Iterable
from typing import Any

log = logging.getLogger("perceptronlab.web")

#: seconds from a connection falling idle (opened, or its last answer sent) to its next request
#: having arrived whole: a client that sends its headers or body slower is disconnected
REQUEST_TIMEOUT = 10.0
#: waiting connections (idle, or still sending a request's headers or body) one client address may
#: hold
IDLE_PER_CLIENT = 128
#: once its headers have arrived, a request's body must arrive at this many bytes a second on
#: average (a slow mobile uplink sends far more) ...
MIN_BODY_RATE = 16 * 1024
#: ... after these seconds of grace
BODY_GRACE = 2.0
#: an idle connection is closed to make room only once it has been idle this many seconds (a burst of
#: fresh connections from one address, such as a load test, is not cut short)
EVICT_AFTER = 2.0

LOOPBACK_NAMES = frozenset({"localhost", "127.0.0.1", "::1"})

#: what the page needs: its own scripts, styles, images and endpoint; nothing inline, no frames.
CONTENT_SECURITY_POLICY = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'none'; "
    "frame-ancestors 'none'"
)

SECURITY_HEADERS = (
    (b"content-security-policy", CONTENT_SECURITY_POLICY.encode()),
    (b"x-content-type-options", b"nosniff"),
    (b"x-frame-options", b"DENY"),
    (b"referrer-policy", b"no-referrer"),
    (b"cross-origin-opener-policy", b"same-origin"),
    (b"cross-origin-resource-policy", b"same-origin"),
)


def host_name(value: str) -> str:
    """The name in a Host header or an origin's authority, without the port, lower case.

    >>> host_name("Example.org:8000"), host_name("[::1]:8000"), host_name("127.0.0.1")
    ('example.org', '::1', '127.0.0.1')
    """
    value = value.strip().lower()
    if value.startswith("["):
        return value[1:].split("]", 1)[0]
    if value.count(":") == 1:
        return value.split(":", 1)[0]
    return value


def split_host(value: str) -> tuple[str, int | None] | None:
    """``(name, port)`` of a Host header (lower case; the port None when absent), or None when it is
    not ``NAME`` or ``NAME:PORT`` with a port number from 1 to 65535.

    >>> split_host("Example.org:8000"), split_host("[::1]:8000"), split_host("localhost")
    (('example.org', 8000), ('::1', 8000), ('localhost', None))
    >>> split_host("localhost:evil"), split_host("[::1]x"), split_host("a:99999"), split_host("a:")
    (None, None, None, None)
    """
    value = value.strip().lower()
    if value.startswith("["):
        name, closed, rest = value[1:].partition("]")
        if not closed or (rest and not rest.startswith(":")):
            return None
        port_text = rest[1:] if rest else None
    elif value.count(":") == 1:
        name, _, port_text = value.partition(":")
    else:
        name, port_text = value, None  # a name, or an IPv6 address without brackets
    if port_text is None:
        return (name, None) if name else None
    if not (
        port_text.isascii()
        and port_text.isdigit()
        and len(port_text) <= 5
        and 1 <= int(port_text) <= 65535
    ):
        return None
    return (name, int(port_text)) if name else None


def allowed_hosts(extra: Iterable[str] = (), bind_host: str | None = None) -> frozenset[str]:
    """Loopback names, the address the server listens on (unless a wildcard), and ``extra``.

    >>> sorted(allowed_hosts(["lab.example.org"], bind_host="0.0.0.0"))
    ['127.0.0.1', '::1', 'lab.example.org', 'localhost']
    """
    names = set(LOOPBACK_NAMES) | {host_name(name) for name in extra if name.strip()}
    if bind_host:
        try:
            if not ipaddress.ip_address(bind_host).is_unspecified:
                names.add(host_name(bind_host))
        except ValueError:
            names.add(host_name(bind_host))
    return frozenset(names)


def _origin_authority(origin: str) -> str | None:
    """``http://127.0.0.1:8000`` -> ``127.0.0.1:8000``; None for ``null`` and anything odd."""
    scheme, sep, rest = origin.partition("://")
    if not sep or scheme not in ("http", "https") or not rest or "/" in rest:
        return None
    return rest.lower()


def same_origin(origin: str, host: str) -> bool:
    """Whether a request's ``Origin`` names the same authority (host and port) as its ``Host``.

    >>> same_origin("http://127.0.0.1:8000", "127.0.0.1:8000"), same_origin("https://evil.test", "127.0.0.1:8000")
    (True, False)
    >>> same_origin("https://lab.example.org", "lab.example.org"), same_origin("null", "127.0.0.1:8000")
    (True, False)
    """
    authority = _origin_authority(origin)
    if authority is None:
        return False
    scheme = origin.split("://", 1)[0]
    default = ":443" if scheme == "https" else ":80"
    normal = host.strip().lower()
    return authority == normal or authority == normal + default or authority + default == normal


class Guard:
    """ASGI middleware: the checks and headers of the module docstring around ``app``."""

    def __init__(self, app, hosts: frozenset[str], json_paths: tuple[str, ...] = ("/api/",)):
        self.app = app
        self.hosts = hosts
        self.json_paths = json_paths

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            return await self.app(scope, receive, send)
        headers: dict[str, str] = {}
        for key, value in scope.get("headers", []):
            headers.setdefault(key.decode("latin-1").lower(), value.decode("latin-1"))
        problem = self.check(scope, headers)
        if problem is not None:
            status, message = problem
            return await _refuse(send, status, message)

        async def send_with_headers(message):
            if message["type"] == "http.response.start":
                present = {key.lower() for key, _ in message.get("headers", [])}
                extra = [(key, value) for key, value in SECURITY_HEADERS if key not in present]
                message = {**message, "headers": [*message.get("headers", []), *extra]}
            await send(message)

        return await self.app(scope, receive, send_with_headers)

    def check(self, scope, headers: dict[str, str]) -> tuple[int, str] | None:
        """``(status, message)`` for a request to refuse, or None."""
        host = headers.get("host", "")
        parsed = split_host(host)
        if host and parsed is None:
            return 400, (
                f"Host: expected NAME or NAME:PORT (a port number from 1 to 65535), got {host[:80]!r}. "
                "Open the lab at the address perceptronlab serve prints."
            )
        if parsed is None or parsed[0] not in self.hosts:
            shown = host[:80] if host else "no Host header"
            return 400, (
                f"Host: expected one of this lab server's names ({', '.join(sorted(self.hosts))}), got "
                f"{shown!r}. If you serve the lab under that name, start it with "
                f"perceptronlab serve --allow-host {host_name(host) or 'NAME'}."
            )
        if scope["method"] not in ("POST", "PUT", "PATCH", "DELETE"):
            return None
        origin = headers.get("origin")
        fetch_site = headers.get("sec-fetch-site", "")
        if (origin is not None and not same_origin(origin, host)) or fetch_site in (
            "cross-site",
            "same-site",
        ):
            return 403, (
                f"Origin: expected this lab server's own page, got {(origin or fetch_site)[:80]!r}. "
                "The lab answers only its own page (and clients that send no Origin, such as curl)."
            )
        if scope["path"].startswith(self.json_paths):
            kind = headers.get("content-type", "").split(";", 1)[0].strip().lower()
            if kind != "application/json":
                return 415, (
                    f"Content-Type: expected application/json, got {kind or 'none'!r}. "
                    "Send the request as JSON (curl: -H 'Content-Type: application/json')."
                )
        return None


async def _refuse(send, status: int, message: str) -> None:
    body = json.dumps({"detail": message}).encode()
    headers = [
        (b"content-type", b"application/json"),
        (b"content-length", str(len(body)).encode()),
        *SECURITY_HEADERS,
    ]
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": body})


def guarded_protocol(
    request_timeout: float | None = None, idle_per_client: int | None = None
) -> type:
    """uvicorn's h11 HTTP protocol with a request timeout and a cap on idle connections per client
    (see the module's docstring; by default :data:`REQUEST_TIMEOUT` and :data:`IDLE_PER_CLIENT` as
    they are when it is called); pass it as ``uvicorn.Config(http=...)``. Each call makes a class
    with its own table of idle connections (one per server)."""
    timeout: float = REQUEST_TIMEOUT if request_timeout is None else float(request_timeout)
    cap: int = IDLE_PER_CLIENT if idle_per_client is None else int(idle_per_client)
    import h11
    from uvicorn.protocols.http.h11_impl import H11Protocol

    settings = {
        "_h11": h11,
        "_arrived": (h11.DONE, h11.MUST_CLOSE, h11.CLOSED, h11.ERROR, h11.SWITCHED_PROTOCOL),
        "_request_timeout": timeout,
        "_cap": cap,
        "_idle_table": {},  # client address -> {connection: idle since}, oldest first
    }
    return type("GuardedH11Protocol", (_IdleGuard, H11Protocol), settings)


class _IdleGuard:
    """The bounds of :func:`guarded_protocol`, mixed in before uvicorn's ``H11Protocol``; the class
    that function makes sets ``_h11``, ``_arrived``, ``_request_timeout``, ``_cap`` and
    ``_idle_table`` (its own per server)."""

    _h11: Any
    _arrived: tuple
    _request_timeout: float
    _cap: int
    _idle_table: dict[str, dict[Any, float]]
    _timer: Any = None
    _idle_since: float | None = None
    _in_body: bool = False
    # set by uvicorn's H11Protocol
    client: Any
    conn: Any
    connections: Any
    headers: Any
    limit_concurrency: int | None
    loop: Any
    transport: Any

    def connection_made(self, transport: Any) -> None:
        super().connection_made(transport)  # type: ignore[misc]
        self._track()

    def data_received(self, data: bytes) -> None:
        super().data_received(data)  # type: ignore[misc]
        self._track()

    def on_response_complete(self) -> None:
        super().on_response_complete()  # type: ignore[misc]
        self._in_body = False
        self._track()

    def connection_lost(self, exc: Exception | None) -> None:
        self._stop_timer()
        self._not_idle()
        super().connection_lost(exc)  # type: ignore[misc]

    def _address(self) -> str:
        return str(self.client[0]) if self.client else "an unknown address"

    def _track(self) -> None:
        if self.transport.is_closing():
            self._stop_timer()
            self._not_idle()
            return
        h11 = self._h11
        state = self.conn.their_state
        if state is h11.IDLE:
            if self._idle_since is None:
                self._become_idle()
        elif state is h11.SEND_BODY:  # still waiting for the request: it stays evictable
            if self._idle_since is None:
                self._become_idle()
            if not self._in_body:
                self._in_body = True
                self._body_deadline()
        else:
            self._not_idle()
            if state in self._arrived:
                self._stop_timer()

    def _body_deadline(self) -> None:
        """Bring the timer forward to the body's minimum rate, if that comes sooner."""
        length = 0
        for name, value in self.headers or ():
            if name == b"content-length" and value.isdigit() and len(value) < 19:
                length = int(value)
        due = self.loop.time() + BODY_GRACE + length / MIN_BODY_RATE
        if self._timer is not None and due < self._timer.when():
            self._timer.cancel()
            self._timer = self.loop.call_at(due, self._too_slow)

    def _become_idle(self) -> None:
        now = self.loop.time()
        self._idle_since = now
        self._stop_timer()
        self._timer = self.loop.call_later(self._request_timeout, self._too_slow)
        mine = self._idle_table.setdefault(self._address(), {})
        mine[self] = now
        closed = 0
        while len(mine) > self._cap and self._evict(mine, now):
            closed += 1
        if closed:
            log.warning(
                "%s held more than %d idle connections: closed its %d idle longest",
                self._address(),
                self._cap,
                closed,
            )
        self._make_room(now)

    def _make_room(self, now: float) -> None:
        """Near the server's limit: room for this connection from the client that holds the most
        idle connections (closing ends them soon after)."""
        limit = self.limit_concurrency
        idle = self._idle_table
        if limit is None or len(self.connections) < limit - 1:
            return
        closed = 0
        while len(self.connections) - closed >= limit - 1 and idle:
            if not self._evict(max(idle.values(), key=len), now):
                break
            closed += 1
        if closed:
            log.warning(
                "%d connections open (the limit is %d): closed %d idle ones of the client "
                "holding the most",
                len(self.connections),
                limit,
                closed,
            )

    def _evict(self, connections: dict[Any, float], now: float) -> bool:
        """Close the connection idle the longest of ``connections`` if it has been idle at least
        :data:`EVICT_AFTER` seconds (and is not this one); whether one was closed."""
        oldest, since = next(iter(connections.items()))
        if oldest is self or now - since < EVICT_AFTER:
            return False
        oldest._close()
        return True

    def _not_idle(self) -> None:
        if self._idle_since is None:
            return
        self._idle_since = None
        mine = self._idle_table.get(self._address(), {})
        mine.pop(self, None)
        if not mine:
            self._idle_table.pop(self._address(), None)

    def _stop_timer(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None

    def _too_slow(self) -> None:
        self._timer = None
        if self._in_body:
            log.warning(
                "%s sent a request body slower than %d bytes a second: connection closed",
                self._address(),
                MIN_BODY_RATE,
            )
        else:
            log.warning(
                "%s sent no whole request within %g s: connection closed",
                self._address(),
                self._request_timeout,
            )
        self._close()

    def _close(self) -> None:
        self._stop_timer()
        self._not_idle()
        self.transport.close()
