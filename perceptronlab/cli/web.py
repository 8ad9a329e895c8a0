"""The ``serve`` command: the lab page (issue 6) on a local web server.

The command parses its options and hands over to :func:`perceptronlab.web.app.serve`; the page and
its computation live in :mod:`perceptronlab.web`.
"""

from __future__ import annotations

from typing import Annotated

import typer

HostOpt = Annotated[str, typer.Option("--host", help="Address to listen on (loopback by default).")]
PortOpt = Annotated[int, typer.Option("--port", min=1, max=65535, help="Port to listen on.")]
OpenOpt = Annotated[bool, typer.Option("--open", help="Open the page in the default web browser.")]


def serve(host: HostOpt = "127.0.0.1", port: PortOpt = 8000, open_browser: OpenOpt = False) -> None:
    """Serve the lab page: click points, step the perceptron, read R, ρ* and the bound.

    The page needs no network: its ES module and CSS ship in the package. Stop with Ctrl+C.
    """
    from perceptronlab.web.app import serve as run_server

    run_server(host=host, port=port, open_browser=open_browser)


def register(app: typer.Typer) -> None:
    """Add ``serve`` to ``app``."""
    app.command("serve")(serve)
