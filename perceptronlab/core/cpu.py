"""The processor the compiled kernels run on, as ``/proc/cpuinfo`` describes it.

:func:`cpu` reads its vendor, family, model, model name and whether it has AVX-512 (Linux;
elsewhere what :mod:`platform` knows); the kernel choices are kept per processor
(:mod:`perceptronlab.core.choice`) and the benchmarks' machine line names it. :func:`l3_cache` and
:func:`threads_per_core` say how large its last-level cache is and whether two logical CPUs share a
core (SMT): what the measured choices size their data by and what explains them.
"""

from __future__ import annotations

import functools
import os
import platform
import re
import subprocess
from pathlib import Path
from typing import Any

__all__ = ["cpu", "cpu_text", "l3_cache", "threads_per_core"]

_UNITS = {"": 1, "K": 2**10, "M": 2**20, "G": 2**30}


@functools.lru_cache(maxsize=1)
def cpu() -> dict[str, Any]:
    """The processor: ``vendor``, ``family``, ``model``, ``model_name`` (None where not reported),
    ``avx512`` (the AVX-512 foundation instructions: True, False, or None when the flags are not
    readable) and ``avx2``."""
    info: dict[str, Any] = {
        "vendor": None,
        "family": None,
        "model": None,
        "model_name": platform.processor() or None,
        "avx512": None,
        "avx2": None,
    }
    try:
        text = Path("/proc/cpuinfo").read_text(encoding="utf-8", errors="replace")
    except OSError:
        return info
    fields: dict[str, str] = {}
    for line in text.splitlines():
        if not line.strip():
            break  # the first processor is enough: they are alike on the machines we run on
        key, _, value = line.partition(":")
        fields.setdefault(key.strip(), value.strip())
    flags = set(fields.get("flags", "").split())
    info.update(
        vendor=fields.get("vendor_id"),
        model_name=fields.get("model name") or info["model_name"],
        family=int(fields["cpu family"]) if fields.get("cpu family", "").isdigit() else None,
        model=int(fields["model"]) if fields.get("model", "").isdigit() else None,
        avx512=("avx512f" in flags) if flags else None,
        avx2=("avx2" in flags) if flags else None,
    )
    return info


def cpu_text() -> str:
    """The processor in one line: ``Intel(R) Xeon(R) Processor (GenuineIntel family 6 model 143, AVX-512)``."""
    info = cpu()
    name = info["model_name"] or "unknown CPU"
    parts = [str(info["vendor"])] if info["vendor"] else []
    if info["family"] is not None:
        parts.append(f"family {info['family']} model {info['model']}")
    simd = {True: "AVX-512", False: "AVX2, no AVX-512" if info["avx2"] else "no AVX-512"}.get(
        info["avx512"]
    )
    if simd:
        parts.append(simd)
    return f"{name} ({', '.join(parts)})" if parts else name


def _size(text: str) -> int | None:
    """Bytes of a size as lscpu (``32 MiB (1 instance)``) or sysfs (``32768K``) write it."""
    match = re.match(r"\s*([\d.]+)\s*([KMG]?)i?B?", text.strip(), re.IGNORECASE)
    if not match:
        return None
    return int(float(match.group(1)) * _UNITS[match.group(2).upper()])


def _lscpu_l3() -> list[tuple[int, str]]:
    try:
        out = subprocess.run(
            ["lscpu"], capture_output=True, text=True, timeout=10, env={**os.environ, "LC_ALL": "C"}
        ).stdout
    except (OSError, subprocess.SubprocessError):
        return []
    found = []
    for line in out.splitlines():
        if line.strip().startswith("L3 cache:"):
            size = _size(line.split(":", 1)[1])
            if size:
                found.append((size, f"lscpu: {line.split(':', 1)[1].strip()}"))
    return found


@functools.lru_cache(maxsize=1)
def l3_cache() -> tuple[int, str]:
    """(bytes, where the figure came from): the larger of lscpu's total L3 and sysfs's per-instance
    L3 (the larger, so that data sized "twice the L3" is out of cache whichever one applies);
    32 MiB when neither reports one."""
    found = _lscpu_l3()
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


@functools.lru_cache(maxsize=1)
def threads_per_core() -> int | None:
    """Logical CPUs per physical core as the (virtual) machine reports it: 2 where two share a core
    (SMT, hyper-threading: they share its arithmetic units, so a second thread adds memory
    bandwidth but little arithmetic); None where not reported."""
    try:
        siblings = Path("/sys/devices/system/cpu/cpu0/topology/thread_siblings_list").read_text()
    except OSError:
        return None
    count = 0
    for part in siblings.strip().split(","):
        low, _, high = part.partition("-")
        if low.strip().isdigit():
            count += int(high) - int(low) + 1 if high.strip().isdigit() else 1
    return count or None
