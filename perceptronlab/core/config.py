"""What the compiled kernels run on, and which of their variants they chose there.

:func:`cpu` reads the processor's description (vendor, family, model, model name, AVX-512 or not)
from ``/proc/cpuinfo`` (Linux; elsewhere what :mod:`platform` knows); :func:`kernel_choices` says
which loop each kind of sweep takes on this machine; :func:`show_config` prints both with the
versions, for a bug report or a benchmark's machine line.
"""

from __future__ import annotations

import functools
import platform
import sys
from pathlib import Path
from typing import Any, TextIO

__all__ = ["cpu", "cpu_text", "kernel_choices", "show_config"]


@functools.lru_cache(maxsize=1)
def cpu() -> dict[str, Any]:
    """The processor: ``vendor``, ``family``, ``model``, ``model_name`` (None where not reported),
    ``avx512`` (the AVX-512 foundation instructions: True, False, or None when the flags are not
    readable) and ``avx2``."""
    info: dict[str, Any] = {"vendor": None, "family": None, "model": None, "model_name": platform.processor() or None,
                            "avx512": None, "avx2": None}
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
    info.update(vendor=fields.get("vendor_id"), model_name=fields.get("model name") or info["model_name"],
                family=int(fields["cpu family"]) if fields.get("cpu family", "").isdigit() else None,
                model=int(fields["model"]) if fields.get("model", "").isdigit() else None,
                avx512=("avx512f" in flags) if flags else None, avx2=("avx2" in flags) if flags else None)
    return info


def cpu_text() -> str:
    """The processor in one line: ``Intel(R) Xeon(R) Processor (GenuineIntel family 6 model 143, AVX-512)``."""
    info = cpu()
    name = info["model_name"] or "unknown CPU"
    parts = [str(info["vendor"])] if info["vendor"] else []
    if info["family"] is not None:
        parts.append(f"family {info['family']} model {info['model']}")
    simd = {True: "AVX-512", False: "AVX2, no AVX-512" if info["avx2"] else "no AVX-512"}.get(info["avx512"])
    if simd:
        parts.append(simd)
    return f"{name} ({', '.join(parts)})" if parts else name


def kernel_choices() -> dict[str, str]:
    """Which loop each kind of sweep takes here, and why, in words."""
    import numba

    from perceptronlab.core import engines, kernels

    return {
        "dense sweep": (f"{kernels.GROUP} rows scored at a time in SIMD lanes, each in feature order; rows prefetched "
                        f"{kernels.PREFETCH_BYTES // 1024} KiB ahead, or one group ahead when a group spans "
                        f"{kernels.LONG_GROUP_BYTES // 1024} KiB or more"),
        "CSR sweep": csr_text(),
        "several cores": (f"late sweeps (≤ 1 update in {round(1 / engines.PARALLEL_MAX_UPDATE_RATE):,} rows, "
                          f"≥ {engines.PARALLEL_MIN_ROWS:,} rows) scored in parallel blocks; Numba threads: "
                          f"{numba.config.NUMBA_NUM_THREADS} ({numba.threading_layer() if _layer_known() else 'not yet loaded'})"),
    }


def csr_text() -> str:
    """The CSR loop chosen, and the measurement that chose it (:mod:`perceptronlab.core.choice`)."""
    from perceptronlab.core import choice, kernels

    found = choice.choices()
    timings = ", ".join(f"{name} {ms} ms" for name, ms in found["measured_ms"].items())
    where = (f"where every gather misses the inner caches (w ≥ {kernels.PAIRED_MIN_WEIGHT_BYTES // 2**20} MiB, "
             f"≥ {kernels.PAIRED_MIN_ROW_NNZ} non-zeros a row, evenly spread columns)")
    loop = ("two rows at a time, the weights of the rows ahead prefetched, " + where + "; else row by row"
            if found["csr_paired"] else "row by row (the paired loop did not pay here, even " + where + ")")
    return f"{loop}; measured: {timings}; {found['source']}"


def _layer_known() -> bool:
    import numba

    try:
        numba.threading_layer()
    except ValueError:  # no parallel kernel has run yet
        return False
    return True


def show_config(file: TextIO | None = None) -> None:
    """Print the versions, the processor and the kernels chosen on it.

    Examples
    --------
    >>> import io
    >>> out = io.StringIO()
    >>> show_config(file=out)
    >>> out.getvalue().splitlines()[0].startswith("perceptronlab ")
    True
    """
    import numba
    import numpy
    import scipy

    from perceptronlab import __version__

    out = sys.stdout if file is None else file
    print(f"perceptronlab {__version__}", file=out)
    print(f"Python {platform.python_version()}, NumPy {numpy.__version__}, SciPy {scipy.__version__}, "
          f"Numba {numba.__version__}", file=out)
    print(f"CPU: {cpu_text()}", file=out)
    for what, choice in kernel_choices().items():
        print(f"{what}: {choice}", file=out)
