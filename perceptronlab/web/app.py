"""The lab's web server: one page, its static ES module and CSS, and one stateless endpoint.

``POST /api/run`` takes ``{"points", "labels", "options"}`` and answers with the whole run and the
cards (:func:`perceptronlab.web.api.compute`); bad input gets ``422 {"detail": message}``, a body
over 1 MB gets ``413``, and nothing a client sends can stop the server. ``GET /`` is the page,
``GET /static/...`` its files (shipped in the package: no CDN, no build step, no network).

Start it with ``perceptronlab serve`` or :func:`serve`; embed it with :func:`create_app`.
"""

from __future__ import annotations

import json
import logging
import threading
import webbrowser
from pathlib import Path

from perceptronlab.exceptions import PerceptronLabError

try:
    import fastapi
    from fastapi import Request
    from fastapi.responses import FileResponse, JSONResponse, Response
    from fastapi.staticfiles import StaticFiles
    from starlette.concurrency import run_in_threadpool
except ImportError as exc:  # pragma: no cover - depends on the environment
    raise ImportError("The lab page needs FastAPI and uvicorn: pip install 'perceptronlab[web]'.") from exc

STATIC = Path(__file__).resolve().parent / "static"
log = logging.getLogger("perceptronlab.web")


def create_app():
    """The FastAPI application of the lab (stateless: every request carries its whole state).

    Examples
    --------
    >>> from fastapi.testclient import TestClient
    >>> client = TestClient(create_app())
    >>> answer = client.post("/api/run", json={"points": [[1, 0], [1, 1], [0, 1]], "labels": [1, -1, -1]})
    >>> answer.status_code, answer.json()["run"]["mistakes"]
    (200, 5)
    """
    from perceptronlab import __version__
    from perceptronlab.web import api

    app = fastapi.FastAPI(title="perceptronlab lab", version=__version__, docs_url=None, redoc_url=None,
                          openapi_url=None)
    app.mount("/static", StaticFiles(directory=STATIC), name="static")

    def problem(status: int, message: str) -> JSONResponse:
        return JSONResponse({"detail": message}, status_code=status)

    @app.get("/", include_in_schema=False)
    async def page() -> FileResponse:
        return FileResponse(STATIC / "index.html", media_type="text/html")

    @app.get("/api/health")
    async def health() -> dict:
        return {"ok": True, "version": __version__}

    @app.post("/api/run")
    async def run(request: Request) -> Response:
        declared = request.headers.get("content-length", "")
        too_big = (f"request: expected at most {api.MAX_BODY_BYTES:,} bytes, got {{}} bytes. "
                   f"Send at most {api.MAX_POINTS:,} points.")
        if declared.isdigit() and int(declared) > api.MAX_BODY_BYTES:
            return problem(413, too_big.format(f"{int(declared):,}"))
        body = bytearray()
        async for chunk in request.stream():
            body.extend(chunk)
            if len(body) > api.MAX_BODY_BYTES:
                return problem(413, too_big.format(f"more than {api.MAX_BODY_BYTES:,}"))
        try:
            answer = await run_in_threadpool(api.compute_body, bytes(body))
            text = json.dumps(answer, separators=(",", ":"), allow_nan=False)
        except PerceptronLabError as exc:
            return problem(422, str(exc))
        except Exception as exc:  # noqa: BLE001 - the server must answer, never fall over
            log.exception("lab request failed")
            return problem(500, f"The lab could not compute this request ({type(exc).__name__}: {exc}). "
                                "Please report it with the link of the page.")
        return Response(text, media_type="application/json")

    return app


def serve(host: str = "127.0.0.1", port: int = 8000, open_browser: bool = False, log_level: str = "warning") -> None:
    """Serve the lab page with uvicorn until interrupted (loopback only unless ``host`` says so).

    Parameters
    ----------
    host, port : where to listen (default http://127.0.0.1:8000/).
    open_browser : open the page in the default web browser once the server is up.
    log_level : uvicorn's log level.
    """
    try:
        import uvicorn
    except ImportError as exc:  # pragma: no cover - depends on the environment
        raise ImportError("perceptronlab serve needs uvicorn: pip install 'perceptronlab[web]'.") from exc

    url = f"http://{'127.0.0.1' if host in ('0.0.0.0', '::') else host}:{port}/"
    if open_browser:
        threading.Timer(0.8, webbrowser.open, args=(url,)).start()
    print(f"perceptronlab lab on {url}  (Ctrl+C to stop)", flush=True)
    uvicorn.run(create_app(), host=host, port=port, log_level=log_level)
