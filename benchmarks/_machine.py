"""What the machine reports about itself: its last-level cache and the BLAS kernel that ran."""

from __future__ import annotations

import functools
import os
import re
import subprocess
from pathlib import Path

import numpy as np

_UNITS = {"": 1, "K": 2**10, "M": 2**20, "G": 2**30}


def _size(text: str) -> int | None:
    match = re.match(r"\s*([\d.]+)\s*([KMG]?)i?B?", text.strip(), re.IGNORECASE)
    if not match:
        return None
    return int(float(match.group(1)) * _UNITS[match.group(2).upper()])


@functools.lru_cache(maxsize=1)
def l3_cache() -> tuple[int, str]:
    """(bytes, where the figure came from): the larger of lscpu's total L3 and sysfs's per-instance
    L3 (the larger, so that data sized "twice the L3" is out of cache whichever one applies)."""
    found: list[tuple[int, str]] = []
    try:
        out = subprocess.run(
            ["lscpu"], capture_output=True, text=True, timeout=10, env={**os.environ, "LC_ALL": "C"}
        ).stdout
        for line in out.splitlines():
            if line.strip().startswith("L3 cache:"):
                size = _size(line.split(":", 1)[1])
                if size:
                    found.append((size, f"lscpu: {line.split(':', 1)[1].strip()}"))
    except (OSError, subprocess.SubprocessError):
        pass
    for index in sorted(Path("/sys/devices/system/cpu/cpu0/cache").glob("index*")):
        try:
            if (index / "level").read_text().strip() == "3":
                size = _size((index / "size").read_text())
                if size:
                    found.append(
                        (size, f"sysfs {index.name}: {(index / 'size').read_text().strip()}")
                    )
        except OSError:
            continue
    if not found:
        return 32 * 2**20, "not reported; 32 MiB assumed"
    return max(found)


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
