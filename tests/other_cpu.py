"""The compiled loops' bits, as fingerprints, for comparing builds for two CPUs.

``python tests/other_cpu.py`` (run by ``tests/test_core_kernels.py`` under
``NUMBA_CPU_NAME=haswell``, a build without AVX-512) prints one JSON object: the fingerprints of
(w, b, updates) of every dense sweep and every CSR loop on seeded data (:func:`fingerprints`), the
CPU the kernels were compiled for, the kernel choice measured on small problems, and the
AVX-512-only registers found in the 8-row sweep's machine code. The test computes the same
fingerprints in its own (native) process: the bits must not depend on the CPU the kernels were
compiled for.
"""

from __future__ import annotations

import hashlib
import json
import re

import numpy as np
import scipy.sparse as sp

NO_ORDER = np.empty(0, dtype=np.int64)
# registers only AVX-512 (EVEX) code can name: zmm0–31, and xmm/ymm 16–31
AVX512_REGISTERS = re.compile(r"%zmm\d+|%[xy]mm(?:1[6-9]|2\d|3[01])\b")


def _key(w, b, total, last) -> str:
    """(w, b, the updates of every sweep, the rows the last sweep updated) as a hex digest."""
    digest = hashlib.sha256(np.ascontiguousarray(w).tobytes())
    digest.update(np.float64(b).tobytes() + np.int64(total).tobytes())
    digest.update(np.ascontiguousarray(last).tobytes())
    return digest.hexdigest()[:24]


def _dense_cases():
    rng = np.random.default_rng(37)
    for dtype in (np.float64, np.float32):
        for d, use_order, margin, intercept in ((13, False, 0.0, True), (100, True, 0.5, False)):
            X = rng.normal(size=(1200, d)).astype(dtype)
            y = np.where(X.astype(np.float64) @ rng.normal(size=d) + 0.05 > 0, 1.0, -1.0)
            order = rng.permutation(1200) if use_order else NO_ORDER
            name = f"{np.dtype(dtype).name} d={d} order={use_order} margin={margin} b={intercept}"
            yield name, X, y, order, use_order, margin, intercept


def fingerprints(sweeps: int = 3) -> dict[str, str]:
    """{loop and case: fingerprint of (w, b, updates, the rows updated) after ``sweeps`` sweeps}."""
    from perceptronlab.core import kernels

    found = {}
    for case, X, y, order, use_order, margin, intercept in _dense_cases():
        n, d = X.shape
        for loop in kernels.DENSE_SWEEPS:
            w, b, idx, norms, total = np.zeros(d), 0.0, np.empty(n, np.int64), np.empty(n), 0
            for _ in range(sweeps):
                rule = (w, b, 0.7, margin, intercept, idx, norms)
                count, b, _ = kernels.sweep_dense_loop(X, y, order, use_order, rule, loop)
                total += count
            found[f"dense {loop} | {case}"] = _key(w, b, total, idx[:count])
    rng = np.random.default_rng(38)
    X = sp.random(1500, 4000, density=0.01, format="csr", random_state=rng)
    y = np.where(X @ rng.normal(size=4000) > 0, 1.0, -1.0)
    for loop in kernels.CSR_LOOPS:
        w, b, idx, norms, total = np.zeros(4000), 0.0, np.empty(1500, np.int64), np.empty(1500), 0
        for _ in range(sweeps):
            rule = (w, b, 1.0, 0.0, True, idx, norms)
            count, b, _ = kernels.sweep_csr(
                X.indptr, X.indices, X.data, y, NO_ORDER, False, rule, loop
            )
            total += count
        found[f"CSR {loop}"] = _key(w, b, total, idx[:count])
    return found


def avx512_registers() -> tuple[list[str], int]:
    """The AVX-512-only registers named in the machine code of the 8-row dense sweep (float64), and
    how many SIMD instructions that code has (none where Numba loaded it from its cache: Numba shows
    no machine code then, so run this with an empty ``NUMBA_CACHE_DIR``)."""
    from perceptronlab.core import kernels

    asm = "\n".join(kernels._sweep_dense_8_prefetched.inspect_asm().values())
    simd = re.findall(r"^\s+v[a-z0-9]+\s", asm, re.MULTILINE)
    return sorted(set(AVX512_REGISTERS.findall(asm))), len(simd)


def small_choice() -> dict:
    """:func:`perceptronlab.core.choice.measure` on small problems (the loops, not the sizes)."""
    import functools

    from perceptronlab.core import choice

    choice._paired_problem = functools.partial(choice._paired_problem, n=512, nnz=16, d=2**14)
    choice._dense_bytes = lambda: 2**20
    return choice.measure()


if __name__ == "__main__":
    from perceptronlab.core import choice

    print(
        json.dumps(
            {
                "fingerprints": fingerprints(),
                "compiled_for": choice.compiled_for(),
                "avx512_registers": avx512_registers(),
                "choice": small_choice(),
            }
        )
    )
