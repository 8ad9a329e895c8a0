"""The ``serve`` command: the lab page (issue 6) on a local web server; ``site``: the lab as static
files that compute in the browser.

The command parses its options and hands over to :func:`perceptronlab.web.app.serve`; the page and
its computation live in :mod:`perceptronlab.web`.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

HostOpt = Annotated[
    str,
    typer.Option(
        "--host", help="Address to listen on (loopback by default; 0.0.0.0: every network)."
    ),
]
PortOpt = Annotated[
    int,
    typer.Option(
        "--port", min=0, max=65535, help="Port to listen on (0: a free port, printed at start)."
    ),
]
OpenOpt = Annotated[bool, typer.Option("--open", help="Open the page in the default web browser.")]
AllowHostOpt = Annotated[
    list[str] | None,
    typer.Option(
        "--allow-host",
        metavar="NAME",
        help="Also answer requests for this Host name (repeatable), e.g. the machine's name on the network. "
        "Loopback names are always allowed.",
    ),
]
WorkersOpt = Annotated[
    int | None,
    typer.Option(
        "--workers", min=1, max=64, help="Compute worker processes (default: one per core)."
    ),
]
QueueOpt = Annotated[
    int | None,
    typer.Option(
        "--queue",
        min=0,
        max=10_000,
        help="Requests that may wait for a worker; more get 503 "
        "(default: 100 per worker; and no request that would wait more than about 2 s).",
    ),
]
DeadlineOpt = Annotated[
    float,
    typer.Option(
        "--deadline",
        min=0.1,
        max=600,
        help="Seconds a request may wait, and seconds it may compute.",
    ),
]


def serve(
    host: HostOpt = "127.0.0.1",
    port: PortOpt = 8000,
    open_browser: OpenOpt = False,
    allow_host: AllowHostOpt = None,
    workers: WorkersOpt = None,
    queue: QueueOpt = None,
    deadline: DeadlineOpt = 10.0,
) -> None:
    """Serve the lab page: click points, step the perceptron, read R, ρ* and the bound.

    The page needs no network: its ES module and CSS ship in the package. Stop with Ctrl+C.

    Examples:

      perceptronlab serve                      # http://127.0.0.1:8000/

      perceptronlab serve --port 0 --open      # a free port, opened in the browser

      perceptronlab serve --host 0.0.0.0 --allow-host lab.example.org   # for a classroom network
    """
    from perceptronlab.web.app import serve as run_server

    run_server(
        host=host,
        port=port,
        open_browser=open_browser,
        allow_hosts=allow_host or (),
        workers=workers,
        queue=queue,
        deadline=deadline,
    )


SiteDirArg = Annotated[
    Path, typer.Argument(metavar="DIR", help="Folder to write the site into (made if missing).")
]
PyodideOpt = Annotated[
    Path | None,
    typer.Option(
        "--pyodide",
        metavar="DIR",
        help="Folder of the Pyodide 314 runtime (default: the project's node_modules/pyodide, "
        "from `npm install`).",
    ),
]


def site(directory: SiteDirArg, pyodide: PyodideOpt = None) -> None:
    """Write the lab as a static site that computes in the browser: no server, no Python to install.

    The page runs perceptronlab's own exact engine (its Python files, copied byte for byte) in
    Pyodide, loaded from the site's own folder. Serve the folder with any static server.

    Examples:

      perceptronlab site lab-site && python -m http.server -d lab-site 8000

      perceptronlab site public/lab --pyodide ~/pyodide-314.0.8   # an unpacked npm package
    """
    from perceptronlab.web.site import build_site

    written = build_site(directory, pyodide)
    print(
        f"Wrote the lab to {directory}/ ({written['files']} files, "
        f"{written['bytes'] / 1e6:.1f} MB). Serve it with: python -m http.server -d {directory}",
        flush=True,
    )


def register(app: typer.Typer) -> None:
    """Add ``serve`` and ``site`` to ``app``."""
    app.command("serve")(serve)
    app.command("site")(site)
