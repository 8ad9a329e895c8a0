"""What the machine reports about itself: its last-level cache and the BLAS kernel that ran."""

from __future__ import annotations

import functools
import os

import numpy as np

from perceptronlab.core.cpu import l3_cache  # the one place that reads it


def l3_bytes() -> int:
    return l3_cache()[0]


def l3_text() -> str:
    size, source = l3_cache()
    return f"L3 {size / 2**20:.0f} MiB ({source})"


@functools.lru_cache(maxsize=1)
def _flush_buffer() -> np.ndarray:
    return np.ones(2 * l3_bytes() // 8)


def flush_caches() -> None:
    """Evict the caches: read a buffer twice the L3 (so the next pass reads from memory; reading
    only, so that no dirty lines are left to write back during the timed pass)."""
    float(_flush_buffer().sum())


def blas_text() -> str:
    """The BLAS that NumPy's GEMV runs: library, version, kernel (architecture) and threads."""
    from threadpoolctl import threadpool_info

    parts = []
    for info in threadpool_info():
        if info.get("user_api") == "blas":
            parts.append(
                f"{info.get('internal_api')} {info.get('version')} ({info.get('architecture', '?')} kernel, "
                f"{info.get('num_threads')} threads)"
            )
    coretype = os.environ.get("OPENBLAS_CORETYPE")
    text = ", ".join(parts) or "no BLAS found by threadpoolctl"
    return text + (f"; OPENBLAS_CORETYPE={coretype}" if coretype else "")
