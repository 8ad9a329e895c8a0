"""The one linear decision path: scores summed in feature order, and the one tie rule.

Every linear predictor (the estimators, :class:`~perceptronlab.Run` and the family's runs, loaded
models, the online learner, the scale models) scores with :func:`scores` and decides with
:func:`labels`: ⟨w, x⟩ + b summed in feature order exactly as the training kernels sum it, and a
score ≤ 0 predicts ``classes[0]`` (a tie is not positive, as in the rule's mistake test). So a model
scores bit for bit like the run that made it, and a saved-then-loaded model like the one saved.

>>> import numpy as np
>>> s = scores(np.array([[1.0, 0.0], [1.0, 0.5]]), np.array([1.0, -2.0]), 0.0)
>>> s.tolist(), labels(s, np.array(["no", "yes"])).tolist()
([1.0, 0.0], ['yes', 'no'])
"""

from __future__ import annotations

import contextlib
from collections.abc import Mapping
from typing import Any

import numpy as np

from perceptronlab._ground.validation import is_sparse
from perceptronlab.pure.rule import exact_dot  # ⟨w, x⟩ in Fractions, written once

__all__ = [
    "PARALLEL_MIN_ELEMENTS",
    "margins",
    "score_one",
    "scores",
    "score_matrix",
    "count_errors",
    "count_errors_each",
    "labels",
]

# Below this many entries of X a parallel pass costs more in thread start-up than it saves.
PARALLEL_MIN_ELEMENTS = 1_000_000
# Up to this many entries of X, dense scores are summed by NumPy column by column: the same order
# (feature by feature, each row's sum in float64) and so the same bits as the compiled kernels,
# without loading Numba: `perceptronlab predict` on a small file starts in well under a second.
SMALL_ELEMENTS = 65_536


def _margins_small(X, y, w, b, out):
    """y_i (⟨w, x_i⟩ + b) summed feature by feature in float64, as :func:`kernels.margins_dense`.

    Like the kernels, it lets an overflow become inf or NaN without a warning: the callers check
    the scores and say what to do in one line."""
    out[:] = 0.0
    with np.errstate(over="ignore", invalid="ignore"):
        for j in range(X.shape[1]):
            out += w[j] * X[:, j].astype(np.float64, copy=False)
        out += b
        out *= y
    return out


def margins(X, y, w, b, out=None, n_jobs: int | None = None) -> np.ndarray:
    """y_i (⟨w, x_i⟩ + b) for every row, with the kernels' summation order.

    ``X`` is a dense float array, a CSR matrix, or rows of Fractions (exact: an object array).
    A large dense X is scored on several cores: on ``n_jobs`` threads (1: one core, no threads),
    or on Numba's current count where ``n_jobs`` is None.
    """
    if isinstance(X, list):
        return np.array(
            [int(yi) * (exact_dot(w, xi) + b) for xi, yi in zip(X, y, strict=True)], dtype=object
        )
    out = np.empty(X.shape[0]) if out is None else out
    w = np.ascontiguousarray(w, dtype=np.float64)
    y = np.ascontiguousarray(y, dtype=np.float64)
    if not is_sparse(X) and X.size <= SMALL_ELEMENTS:
        return _margins_small(X, y, w, float(b), out)
    from perceptronlab.core import kernels
    from perceptronlab.core.interrupt import call_parallel

    if is_sparse(X):
        return kernels.margins_csr(X.indptr, X.indices, X.data, y, w, float(b), out)
    if n_jobs != 1 and X.size >= PARALLEL_MIN_ELEMENTS:
        from perceptronlab.core.threads import numba_threads

        with numba_threads(n_jobs) if n_jobs else contextlib.nullcontext():
            return call_parallel(kernels.margins_dense_parallel, X, y, w, float(b), out)
    return kernels.margins_dense(X, y, w, float(b), out)


def score_one(x: np.ndarray, w: np.ndarray, b: float) -> float:
    """⟨w, x⟩ + b for one float64 example, summed as :func:`scores` sums a row (one compiled call:
    the online learner's per-round score)."""
    from perceptronlab.core import kernels

    return kernels.dot_in_order(w, x) + b


def dict_score(weights: Mapping[Any, float], x: Mapping[Any, Any], b: float) -> float:
    """⟨w, x⟩ + b for dict weights and a dict example: the products summed in x's order from 0.0,
    then b added (River's order, its linear models' ``weights.dot(x) + intercept``, and the compiled
    sweep's: a pandas row scores as its vector). A name without a weight counts 0; a value that is
    not a number raises TypeError (the caller names it)."""
    s = 0.0
    try:  # a subscript while every name has a weight (the stream's usual round), get after
        for name, value in x.items():
            s += weights[name] * value
    except KeyError:
        get = weights.get
        s = 0.0
        for name, value in x.items():
            s += get(name, 0.0) * value
    return s + b


def scores(X, w, b) -> np.ndarray:
    """⟨w, x_i⟩ + b for every row (Fractions for exact rows), summed as the training kernels sum."""
    if isinstance(X, list):
        return np.array([exact_dot(w, xi) + b for xi in X], dtype=object)
    return margins(X, np.ones(X.shape[0]), w, float(b))


def score_matrix(X, W, B) -> np.ndarray:
    """(n, k) scores, column j = :func:`scores` of row j of ``W`` with intercept ``B[j]``."""
    n = len(X) if isinstance(X, list) else X.shape[0]
    dtype = object if isinstance(X, list) else np.float64
    out = np.empty((n, len(W)), dtype=dtype)
    for j, (w, b) in enumerate(zip(W, B, strict=True)):
        out[:, j] = scores(X, w, b)
    return out


def count_errors(X, y, w, b) -> int:
    """Training errors of (w, b): examples with y(⟨w,x⟩ + b) ≤ 0 (a tie is an error, as in the rule)."""
    return int(np.count_nonzero(margins(X, y, w, b) <= 0))


def count_errors_each(X, y, weights) -> list[int]:
    """:func:`count_errors` of each (w, b) in ``weights``, the same counts.

    On small dense data (the end-of-sweep errors of a long run: one (w, b) a sweep) the pairs are
    scored a block at a time, one NumPy pass per feature for the whole block, with the products
    summed in the same order as :func:`_margins_small` (so the same bits), instead of one call each.
    """
    weights = list(weights)
    if isinstance(X, list) or is_sparse(X) or X.size > SMALL_ELEMENTS or not weights:
        return [count_errors(X, y, w, b) for w, b in weights]
    y = np.ascontiguousarray(y, dtype=np.float64)
    columns = [X[:, j].astype(np.float64) for j in range(X.shape[1])]
    block = max(1, SMALL_ELEMENTS // max(1, X.shape[0]))
    counts: list[int] = []
    for start in range(0, len(weights), block):
        part = weights[start : start + block]
        W = np.array([np.asarray(w, dtype=np.float64) for w, _ in part]).reshape(len(part), -1)
        B = np.array([float(b) for _, b in part])
        out = np.zeros((len(part), X.shape[0]))
        with np.errstate(over="ignore", invalid="ignore"):
            for j, column in enumerate(columns):
                out += np.multiply.outer(W[:, j], column)
            out += B[:, None]
            out *= y
        counts.extend(np.count_nonzero(out <= 0, axis=1).tolist())
    return counts


def labels(scores: np.ndarray, classes: Any) -> np.ndarray:
    """The tie rule: ``classes[1]`` where the score is > 0, else ``classes[0]``; for (n, k) scores,
    the class of the highest score (ties: the first of ``classes``)."""
    classes = np.asarray(classes)
    scores = np.asarray(scores)
    if scores.ndim == 1:
        return classes[(scores > 0).astype(np.intp)]
    return classes[np.argmax(scores, axis=1)]
