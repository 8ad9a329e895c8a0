"""Seeded data for the benchmarks, generated here (nothing is downloaded), in chunks where it is large."""

from __future__ import annotations

import numpy as np
import scipy.sparse as sp

CHUNK_ROWS = 250_000


def separable_dense(n: int, d: int, dtype=np.float64, seed: int = 0):
    """Gaussian rows labelled by a random hyperplane (separable, with a small margin)."""
    rng = np.random.default_rng(seed)
    X = np.empty((n, d), dtype=dtype)
    for start in range(0, n, CHUNK_ROWS):
        stop = min(n, start + CHUNK_ROWS)
        X[start:stop] = rng.standard_normal((stop - start, d))
    w_true = rng.standard_normal(d)
    y = np.sign(X.astype(np.float64, copy=False) @ w_true)
    y[y == 0] = 1.0
    return X, y


def noisy_dense(n: int, d: int, flip: float = 0.1, seed: int = 0):
    """:func:`separable_dense` with a fraction ``flip`` of the labels flipped (not separable)."""
    X, y = separable_dense(n, d, seed=seed)
    flipped = np.random.default_rng(seed + 1).random(n) < flip
    y[flipped] *= -1
    return X, y


def random_csr(n: int, d: int, nnz: int, seed: int = 0):
    """``nnz`` uniformly random columns a row (duplicates summed), Gaussian values; separable labels."""
    rng = np.random.default_rng(seed)
    data, indices, counts = [], [], []
    for start in range(0, n, CHUNK_ROWS):
        rows = min(n, start + CHUNK_ROWS) - start
        block = sp.csr_matrix(
            (
                rng.standard_normal(rows * nnz),
                np.sort(rng.integers(0, d, size=(rows, nnz)), axis=1).ravel().astype(np.int32),
                np.arange(0, rows * nnz + 1, nnz, dtype=np.int64),
            ),
            shape=(rows, d),
        )
        block.sum_duplicates()
        data.append(block.data)
        indices.append(block.indices.astype(np.int32))
        counts.append(np.diff(block.indptr))
    X = _assemble(data, indices, counts, n, d)
    y = np.sign(X @ rng.standard_normal(d))
    y[y == 0] = 1.0
    return X, y


def text_like(
    n: int, d: int = 2**18, mean_tokens: float = 100.0, zipf: float = 1.05, seed: int = 0
):
    """A LIBSVM-like text matrix: documents of lognormal length whose tokens follow a power law
    over the vocabulary (Zipf exponent ``zipf``; the token ranks mapped to random columns), tf-idf
    values (smooth idf, as scikit-learn's ``TfidfTransformer``), rows scaled to unit length.
    Labels: a sparse random hyperplane through the tf-idf rows (separable)."""
    rng = np.random.default_rng(seed)
    cdf = np.cumsum(np.arange(1, d + 1, dtype=np.float64) ** -zipf)
    cdf /= cdf[-1]
    column_of_rank = rng.permutation(d).astype(np.int32)
    data, indices, counts = [], [], []
    for start in range(0, n, CHUNK_ROWS):
        rows = min(n, start + CHUNK_ROWS) - start
        lengths = np.maximum(
            1, rng.lognormal(np.log(mean_tokens) - 0.32, 0.8, size=rows).astype(np.int64)
        )
        tokens = column_of_rank[np.searchsorted(cdf, rng.random(int(lengths.sum())))]
        indptr = np.r_[0, np.cumsum(lengths)]
        block = sp.csr_matrix((np.ones(tokens.shape[0]), tokens, indptr), shape=(rows, d))
        block.sum_duplicates()  # term counts, columns sorted
        data.append(block.data)
        indices.append(block.indices.astype(np.int32))
        counts.append(np.diff(block.indptr))
    X = _assemble(data, indices, counts, n, d)
    df = np.bincount(X.indices, minlength=d)
    idf = np.log((1 + n) / (1 + df)) + 1.0
    X.data *= idf[X.indices]
    norms = np.sqrt(np.add.reduceat(X.data**2, X.indptr[:-1])) if X.nnz else np.ones(n)
    X.data /= np.repeat(norms, np.diff(X.indptr))
    w_true = np.where(rng.random(d) < 0.1, rng.standard_normal(d), 0.0)
    y = np.sign(X @ w_true)
    y[y == 0] = 1.0
    return X, y


def _assemble(data, indices, counts, n: int, d: int):
    counts = np.concatenate(counts)
    indptr = np.zeros(n + 1, dtype=np.int64)
    np.cumsum(counts, out=indptr[1:])
    index_type = np.int32 if indptr[-1] < 2**31 else np.int64
    X = sp.csr_matrix(
        (
            np.concatenate(data),
            np.concatenate(indices).astype(index_type, copy=False),
            indptr.astype(index_type),
        ),
        shape=(n, d),
    )
    X.has_sorted_indices = True
    return X
