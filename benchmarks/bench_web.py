"""The lab page's server: a whole run for 1,000 points answered in ≤ 50 ms (issue 6).

Times what ``POST /api/run`` does in-process: decode the JSON body, validate, run the traced
perceptron, ask the theory toolkit for R, ρ*, the bound and separability, and encode the answer.
The data is what the page sends for clicked points with snapping off: 1,000 points with two
decimals, separable through the origin with a margin of at least 0.25 (seeded).
"""

from __future__ import annotations

import json

import numpy as np

from benchmarks._timing import best_time, row

TARGET_SECONDS = 0.050


def lab_request(n: int = 1000, seed: int = 6) -> bytes:
    """The JSON body the page posts for ``n`` separable points (two decimals, margin ≥ 0.25)."""
    rng = np.random.default_rng(seed)
    angle = rng.uniform(0, 2 * np.pi)
    direction = np.array([np.cos(angle), np.sin(angle)])
    X = np.round(rng.uniform(-5, 5, size=(8 * n, 2)), 2)
    margins = X @ direction
    X = X[np.abs(margins) >= 0.25][:n]
    y = np.where(X @ direction > 0, 1, -1)
    return json.dumps({"points": X.tolist(), "labels": y.tolist(), "options": {}}).encode()


def bench_web_run_1000(scale: float = 1.0) -> dict:
    from perceptronlab.web import api

    n = max(50, int(1000 * scale))
    body = lab_request(n)

    def answer() -> str:
        return json.dumps(api.compute_body(body), separators=(",", ":"), allow_nan=False)

    text = answer()  # warm up: compiled kernels, imports
    seconds = best_time(answer, repeat=7)
    result = json.loads(text)
    run = result["run"]
    try:
        from fastapi.testclient import TestClient

        from perceptronlab.web.app import create_app

        client = TestClient(create_app())
        client.post("/api/run", content=body)
        http = best_time(lambda: client.post("/api/run", content=body), repeat=5)
        http_text = f"; through FastAPI's TestClient {http * 1e3:.1f} ms"
    except ImportError:  # pragma: no cover - the web extra is missing
        http_text = ""
    ratio = seconds / TARGET_SECONDS
    return row(f"lab page: whole run for {n:,} points answered (vs 50 ms)", "≤ 1.0", ratio, ratio <= 1.0,
               f"{seconds * 1e3:.1f} ms in-process for {run['steps']['count']:,} traced steps, "
               f"{run['mistakes']} mistakes in {run['sweeps']} sweeps, {'exact' if result['exact'] else 'float'} "
               f"arithmetic, answer {len(text) / 1024:.0f} KiB{http_text}")
