"""The benchmarks for another CPU's build: ``python -m benchmarks --cpu haswell``.

Numba compiles for the CPU that ``NUMBA_CPU_NAME`` names (``haswell``, ``znver3``, …: what LLVM
knows) with that CPU's own instructions when ``NUMBA_CPU_FEATURES`` is empty (left unset, Numba adds
this machine's features, AVX-512 included). :func:`run_for_cpu` runs the same command again in a
child process with both set and a Numba cache of that build's own (``benchmarks/__pycache__/
numba-<name>``, so that the two builds never load each other's kernels; the kernel choices are
measured again for that build and kept there), writing ``benchmarks/RESULTS-<name>.md`` unless
``--out`` says otherwise.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent


def cpu_environment(name: str) -> dict[str, str]:
    """This process's environment with the build for CPU ``name`` and its own Numba cache."""
    return {
        **os.environ,
        "NUMBA_CPU_NAME": name,
        "NUMBA_CPU_FEATURES": "",
        "NUMBA_CACHE_DIR": str(HERE / "__pycache__" / f"numba-{name}"),
    }


def run_for_cpu(name: str, module: str, argv: list[str]) -> int:
    """Run ``python -m module argv`` compiled for CPU ``name`` (:func:`cpu_environment`); its exit
    status. ``argv`` without ``--cpu``."""
    if not name.replace("-", "").replace("_", "").isalnum():
        print(
            f"--cpu: expected an LLVM CPU name such as haswell or znver3, got {name!r} "
            "(`llc -mcpu=help` lists them)",
            file=sys.stderr,
        )
        return 2
    command = [sys.executable, "-m", module, *argv]
    return subprocess.call(command, env=cpu_environment(name))
