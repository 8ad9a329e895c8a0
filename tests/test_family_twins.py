"""The family's compiled loops against their pure-Python twins, bit for bit (as core/'s kernels are)."""

import family_twins as twin
import numpy as np
import pytest
import scipy.sparse as sp

from perceptronlab.family import _kernels as compiled
from perceptronlab.family.kernel import ColumnCache, KernelSpec, row_sq_norms

NO_ORDER = np.empty(0, dtype=np.int64)


def bits(value):
    """Exact bits of a float or an array (0.0 and -0.0 differ, NaNs compare by pattern)."""
    return np.asarray(value).tobytes()


def data(seed, n=40, d=6, dtype=np.float64, density=None):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, d)).astype(dtype)
    if density is not None:
        X[rng.random((n, d)) > density] = 0.0
    return X


def same(a_result, b_result, *arrays):
    assert bits(np.array(a_result, dtype=np.float64)) == bits(np.array(b_result, dtype=np.float64))
    for a, b in arrays:
        assert bits(a) == bits(b)


def orders(n, seed):
    return [(NO_ORDER, False), (np.random.default_rng(seed).permutation(n).astype(np.int64), True)]


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_int_power_is_numbas(dtype):
    values = np.random.default_rng(0).normal(size=500).astype(dtype) * 3
    for degree in (1, 2, 3, 5):
        for v in values:
            got = compiled._apply_kernel(compiled.POLY, float(v), 0.0, 0.0, degree, 0.7, 0.3)
            assert bits(got) == bits(
                twin.apply_kernel(twin.POLY, float(v), 0.0, 0.0, degree, 0.7, 0.3)
            )


@pytest.mark.parametrize("sparse", [False, True])
@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_accumulators(sparse, dtype):
    X = data(1, dtype=dtype, density=0.5 if sparse else None)
    y = np.where(np.random.default_rng(2).random(X.shape[0]) < 0.5, -1.0, 1.0)
    idx = np.array([3, 0, 7, 3, 12, 39], dtype=np.int64)
    steps = np.array([2.0, 5.0, 9.0, 41.0, 60.0, 79.0])
    u_c, u_t = np.full(X.shape[1], 0.125), np.full(X.shape[1], 0.125)
    if sparse:
        M = sp.csr_matrix(X)
        args = (M.indptr, M.indices, M.data, idx, steps, y, 0.3)
        same(compiled.accumulate_csr(*args, u_c), twin.accumulate_csr(*args, u_t), (u_c, u_t))
    else:
        args = (X, idx, steps, y, 0.3)
        same(compiled.accumulate_dense(*args, u_c), twin.accumulate_dense(*args, u_t), (u_c, u_t))


@pytest.mark.parametrize("sparse", [False, True])
@pytest.mark.parametrize("fit_intercept", [False, True])
@pytest.mark.parametrize("margin", [0.0, 0.5])
def test_multiclass_sweeps(sparse, fit_intercept, margin):
    X = data(3, n=50, d=5, density=0.6 if sparse else None)
    labels = np.random.default_rng(4).integers(0, 3, size=X.shape[0]).astype(np.int64)
    for order, use_order in orders(X.shape[0], 5):
        state = {}
        for name in ("compiled", "twin"):
            W, B, U, BU = np.zeros((3, 5)), np.zeros(3), np.zeros((3, 5)), np.zeros(3)
            c, sq = 0.0, 0.0
            idx, norms, out = np.zeros(50, dtype=np.int64), np.zeros(50), []
            module = compiled if name == "compiled" else twin
            for _ in range(3):  # three sweeps, the state carried over
                scores = np.zeros(3)
                common = (
                    labels,
                    order,
                    use_order,
                    (W, B, U, BU),
                    (0.7, margin, fit_intercept),
                    (c, sq),
                    (scores, idx, norms),
                )
                if sparse:
                    M = sp.csr_matrix(X)
                    count, c, sq = module.multiclass_sweep_csr(M.indptr, M.indices, M.data, *common)
                else:
                    count, c, sq = module.multiclass_sweep_dense(X, *common)
                out.append((count, idx[:count].copy(), norms[:count].copy()))
            state[name] = (W, B, U, BU, c, sq, out)
        a, b = state["compiled"], state["twin"]
        for x, z in zip(a[:6], b[:6], strict=True):
            assert bits(x) == bits(z)
        for (ca, ia, na), (cb, ib, nb) in zip(a[6], b[6], strict=True):
            assert ca == cb and bits(ia) == bits(ib) and bits(na) == bits(nb)
        assert sum(count for count, _, _ in a[6]) > 0


KERNELS = [
    ("linear", compiled.LINEAR, 1),
    ("poly", compiled.POLY, 2),
    ("poly", compiled.POLY, 3),
    ("rbf", compiled.RBF, 1),
]


def _sweeps(module, source, X, y, kind, degree, budget, fit_intercept, order, use_order, cached):
    n = X.shape[0]
    spec = KernelSpec(
        {compiled.LINEAR: "linear", compiled.POLY: "poly", compiled.RBF: "rbf"}[kind],
        degree,
        0.25,
        1.0,
    )
    G = spec(X, X) if source == compiled.FROM_GRAM else np.empty((0, 0))
    M = sp.csr_matrix(X)
    indptr, indices, values = (
        (M.indptr, M.indices, M.data)
        if source == compiled.FROM_CSR
        else (np.empty(0, dtype=np.int32), np.empty(0, dtype=np.int32), np.empty(0))
    )
    dense = X if source == compiled.FROM_DENSE else np.empty((0, 0))
    cache = ColumnCache(n, enabled=cached)
    scores, alpha = np.zeros(n), np.zeros(n, dtype=np.int64)
    ring = np.zeros(max(budget, 1), dtype=np.int64)
    b, fsq, step, entries = 0.0, 0.0, 0, 0
    log = []
    for _ in range(4):
        idx, steps, norms = np.zeros(n, dtype=np.int64), np.zeros(n, dtype=np.int64), np.zeros(n)
        columns = compiled.Columns(
            source, G, dense, indptr, indices, values, row_sq_norms(X), kind, degree, 0.25, 1.0
        )
        buffers = compiled.Buffers(
            np.zeros(n), np.zeros(X.shape[1]), cache.slots, cache.C, cache.used
        )
        count, b, fsq, step, entries = module.kernel_sweep(
            columns,
            buffers,
            compiled.Dual(scores, alpha, budget, ring),
            compiled.Rule(y, 0.5, 0.0, fit_intercept),
            order,
            use_order,
            (b, fsq, step, entries),
            compiled.Log(idx, steps, norms),
        )
        log.append((count, idx[:count].copy(), steps[:count].copy(), norms[:count].copy()))
    return scores, alpha, b, fsq, step, entries, ring, cache.slots, cache.C[: cache.n_columns], log


@pytest.mark.parametrize("kernel", KERNELS, ids=lambda k: f"{k[0]}{k[2]}")
@pytest.mark.parametrize("source", [compiled.FROM_DENSE, compiled.FROM_CSR, compiled.FROM_GRAM])
@pytest.mark.parametrize("budget", [0, 5])
@pytest.mark.parametrize("fit_intercept", [False, True])
def test_kernel_sweeps(kernel, source, budget, fit_intercept):
    _, kind, degree = kernel
    X = data(6, n=30, d=4, density=0.7)
    y = np.where(np.sum(X[:, :2] ** 2, axis=1) > 1.0, 1.0, -1.0)
    for order, use_order in orders(X.shape[0], 7):
        for cached in (True, False):
            a = _sweeps(
                compiled,
                source,
                X,
                y,
                kind,
                degree,
                budget,
                fit_intercept,
                order,
                use_order,
                cached,
            )
            b = _sweeps(
                twin, source, X, y, kind, degree, budget, fit_intercept, order, use_order, cached
            )
            for x, z in zip(a[:9], b[:9], strict=True):
                assert bits(x) == bits(z)
            for (ca, ia, sa, na), (cb, ib, sb, nb) in zip(a[9], b[9], strict=True):
                assert (
                    ca == cb
                    and bits(ia) == bits(ib)
                    and bits(sa) == bits(sb)
                    and bits(na) == bits(nb)
                )
            assert a[9][0][0] > 0  # the first sweep made updates
