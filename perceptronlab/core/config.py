"""What the compiled kernels run on, and which of their variants they chose there.

:func:`kernel_choices` says which loop each kind of sweep takes on this machine (the processor:
:mod:`perceptronlab.core.cpu`); :func:`show_config` prints both with the versions, for a bug
report or a benchmark's machine line.
"""

from __future__ import annotations

import platform
import sys
from typing import TextIO

from perceptronlab.core.cpu import cpu_text

__all__ = ["kernel_choices", "show_config"]


def kernel_choices() -> dict[str, str]:
    """Which loop each kind of sweep takes here, and why, in words."""
    import numba

    from perceptronlab.core import engines

    return {
        "dense sweep": dense_text(),
        "CSR sweep": csr_text(),
        "several cores": (
            f"late sweeps (≤ 1 update in {round(1 / engines.PARALLEL_MAX_UPDATE_RATE):,} rows, "
            f"≥ {engines.PARALLEL_MIN_ROWS:,} rows) {threads_text()}; Numba threads: "
            f"{numba.config.NUMBA_NUM_THREADS} ({numba.threading_layer() if _layer_known() else 'not yet loaded'})"
        ),
        "compiled for": compiled_text(),
    }


def threads_text() -> str:
    """Whether late sweeps take several threads here, and the measurement that decided
    (:func:`perceptronlab.core.choice.threads_choice`)."""
    from perceptronlab.core import choice

    found = choice.threads_choice()
    if "gain" not in found:
        return f"on one thread ({found['source']})"
    verdict = (
        "scored in parallel blocks"
        if found["two_threads"]
        else f"on one thread (two did not make it {choice.THREADS_MIN_GAIN}× faster here)"
    )
    ms = found["measured_ms"]
    smt = found.get("threads_per_core")
    shared = f"; {smt} logical CPUs share each core" if isinstance(smt, int) and smt > 1 else ""
    return (
        f"{verdict}; measured on {found['slice']}: late sweep one thread {ms['late sweep, 1 thread']} ms, "
        f"two {ms['late sweep, 2 threads']} ms ({found['gain']}×); streaming read one thread "
        f"{ms['read, 1 thread']} ms, two {ms['read, 2 threads']} ms (the memory's ceiling "
        f"{found['read_ceiling']}×); a fork/join costs {found['fork_rows']:g} rows"
        f"{shared}{'; measured twice' if found.get('measured_twice') else ''}; {found['source']}"
    )


def csr_text() -> str:
    """The CSR loop chosen, and the measurement that chose it (:mod:`perceptronlab.core.choice`)."""
    from perceptronlab.core import choice, kernels

    found = choice.choices()
    timings = ", ".join(f"{name} {ms} ms" for name, ms in found["measured_ms"].items())
    if isinstance(found.get("confirmed_ms"), dict):
        again = ", ".join(f"{name} {ms} ms" for name, ms in found["confirmed_ms"].items())
        timings += f"; measured again: {again}"
    where = (
        f"where every gather misses the inner caches (w ≥ {kernels.PAIRED_MIN_WEIGHT_BYTES // 2**20} MiB, "
        f"≥ {kernels.PAIRED_MIN_ROW_NNZ} non-zeros a row, evenly spread columns)"
    )
    loop = {
        "paired": "two rows at a time, the weights of the rows ahead prefetched, " + where,
        "prefetched": "row by row, the weights of the rows ahead prefetched, " + where,
    }.get(
        found["csr_loop"],
        "row by row (neither the prefetched nor the paired loop paid here, even " + where + ")",
    )
    loop += "; else row by row" if found["csr_loop"] != "row by row" else ""
    return f"{loop}; measured: {timings}; {found['source']}"


def _dense_loop_text(name: str) -> str:
    from perceptronlab.core import kernels

    if name == "row by row":
        return "one row at a time, in feature order"
    rows, _, prefetched = name.partition(", ")
    text = f"{rows} scored at a time in SIMD lanes, each in feature order"
    if prefetched:
        text += (
            f", the rows {kernels.PREFETCH_BYTES // 1024} KiB ahead prefetched (one group ahead "
            f"when a group spans {kernels.LONG_GROUP_BYTES // 1024} KiB or more)"
        )
    return text


def dense_text() -> str:
    """The dense sweep chosen, and the measurement that chose it (:mod:`perceptronlab.core.choice`)."""
    from perceptronlab.core import choice, kernels
    from perceptronlab.core.cpu import l3_cache

    found = choice.choices()
    l3 = f"{l3_cache()[0] / 2**20:.0f} MiB"
    chosen, default = found["dense_sweep"], kernels.DEFAULT_DENSE_SWEEP
    loop = f"{_dense_loop_text(chosen)} on matrices larger than the L3 ({l3})"
    loop += f"; else {_dense_loop_text(default)}" if chosen != default else ", and on smaller ones"

    def timings(ms: dict) -> str:
        return ", ".join(f"{name} {t[0]} + {t[1]} ms" for name, t in ms.items())

    problem = found.get("dense_problem") or {}
    updates = problem.get("updates") or {}
    measured = (
        f"measured (the first sweep from w = 0 + a late sweep, {_count(problem.get('rows'))} × "
        f"{problem.get('columns')} float64, {problem.get('MiB')} MiB, updates "
        f"{_count(updates.get('from w = 0'))} + {_count(updates.get('late'))}): "
        f"{timings(found['dense_measured_ms'])}"
    )
    if isinstance(found.get("dense_confirmed_ms"), dict):
        measured += f"; measured again: {timings(found['dense_confirmed_ms'])}"
    return f"{loop}; {measured}; {found['source']}"


def _count(value: object) -> str:
    return f"{value:,}" if isinstance(value, int) else str(value)


def compiled_text() -> str:
    """The CPU the kernels are compiled for (``host``, or ``NUMBA_CPU_NAME``'s)."""
    from perceptronlab.core import choice

    return choice.compiled_for()


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
    print(
        f"Python {platform.python_version()}, NumPy {numpy.__version__}, SciPy {scipy.__version__}, "
        f"Numba {numba.__version__}",
        file=out,
    )
    print(f"CPU: {cpu_text()}", file=out)
    for what, choice in kernel_choices().items():
        print(f"{what}: {choice}", file=out)
