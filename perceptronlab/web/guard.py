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
"""

from __future__ import annotations

import ipaddress
import json
from collections.abc import Iterable

LOOPBACK_NAMES = frozenset({"localhost", "127.0.0.1", "::1"})

#: what the page needs: its own scripts, styles, images and endpoint; nothing inline, no frames.
CONTENT_SECURITY_POLICY = ("default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
                           "connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'none'; "
                           "frame-ancestors 'none'")

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
        if host_name(host) not in self.hosts:
            shown = host[:80] if host else "no Host header"
            return 400, (f"Host: expected one of this lab server's names ({', '.join(sorted(self.hosts))}), got "
                         f"{shown!r}. If you serve the lab under that name, start it with "
                         f"perceptronlab serve --allow-host {host_name(host) or 'NAME'}.")
        if scope["method"] not in ("POST", "PUT", "PATCH", "DELETE"):
            return None
        origin = headers.get("origin")
        fetch_site = headers.get("sec-fetch-site", "")
        if (origin is not None and not same_origin(origin, host)) or fetch_site in ("cross-site", "same-site"):
            return 403, (f"Origin: expected this lab server's own page, got {(origin or fetch_site)[:80]!r}. "
                         "The lab answers only its own page (and clients that send no Origin, such as curl).")
        if scope["path"].startswith(self.json_paths):
            kind = headers.get("content-type", "").split(";", 1)[0].strip().lower()
            if kind != "application/json":
                return 415, (f"Content-Type: expected application/json, got {kind or 'none'!r}. "
                             "Send the request as JSON (curl: -H 'Content-Type: application/json').")
        return None


async def _refuse(send, status: int, message: str) -> None:
    body = json.dumps({"detail": message}).encode()
    headers = [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode()),
               *SECURITY_HEADERS]
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": body})
