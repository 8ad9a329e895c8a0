"""The processor the compiled kernels run on, as ``/proc/cpuinfo`` describes it.

:func:`cpu` reads its vendor, family, model, model name and whether it has AVX-512 (Linux;
elsewhere what :mod:`platform` knows); the kernel choices are kept per processor
(:mod:`perceptronlab.core.choice`) and the benchmarks' machine line names it.
"""

from __future__ import annotations

import functools
import platform
from pathlib import Path
from typing import Any

__all__ = ["cpu", "cpu_text"]


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
