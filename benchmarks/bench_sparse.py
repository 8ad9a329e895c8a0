"""Sparse (CSR) sweeps against one SpMV and against scikit-learn, like for like (issues 16.2, 18.1).

Two matrices: uniformly random columns (200,000 × 2^18, 60 non-zeros a row) and a LIBSVM-like text
matrix (power-law column frequencies, tf-idf values, unit rows). Each round times ours, SpMV and
scikit-learn in turn.
"""

from __future__ import annotations

from benchmarks._data import random_csr, text_like
from benchmarks._floor import ceilings_text, gathers, read_bytes, streaming_reads
from benchmarks._runs import kernel_calls, products, public_calls, same_weights_as_sklearn, sweeps
from benchmarks._timing import Stat, at_least, at_most, interleave, median_ms, result_row


def _rows(X, y, label: str, scale: float) -> list[dict]:
    updates: list[int] = []
    cases = {
        "sweep": sweeps(X, y, 5, updates=updates),
        "SpMV": products(X, times=5),
        "read": streaming_reads(X, times=5),
        "gather": gathers(X, times=5),
    }
    cases.update({f"{side} fit": case for side, case in public_calls(X, y).items()})
    cases.update({f"{side} epoch": case for side, case in kernel_calls(X, y).items()})
    seconds = interleave(cases)
    same = {"same weights as scikit-learn": same_weights_as_sklearn(X, y)}
    shape = f"{X.shape[0]:,} × {X.shape[1]:,}, {X.nnz / X.shape[0]:.0f} non-zeros a row on average"
    return [
        result_row(
            f"sparse sweep, {label}: first five sweeps / streaming read of its arrays",
            Stat.ratio(seconds["sweep"], seconds["read"]),
            at_most(1.5),
            f"{shape}; data, indices and indptr {read_bytes(X) / 2**20:.0f} MiB; sweep {median_ms(seconds['sweep'])}, "
            f"streaming read {median_ms(seconds['read'])}; {ceilings_text(scale)}",
        ),
        result_row(
            f"sparse sweep, {label}: first five sweeps / the arrays read and w gathered (any order)",
            Stat.ratio(seconds["sweep"], seconds["gather"]),
            None,
            f"Σ w[indices]·data over every entry, reassociated (the floor when the gathers are the cost, "
            f"as for every sweep and SpMV): {median_ms(seconds['gather'])}; sweep {median_ms(seconds['sweep'])}; "
            f"the gathers alone cost {Stat.ratio(seconds['gather'], seconds['read']).median:.2g} × the streaming read; "
            f"{ceilings_text(scale)}",
        ),
        result_row(
            f"sparse sweep, {label}: first five sweeps / one SpMV",
            Stat.ratio(seconds["sweep"], seconds["SpMV"]),
            at_most(1.2),
            f"{shape}; updates {updates}; sweep {median_ms(seconds['sweep'])}, SciPy SpMV "
            f"{median_ms(seconds['SpMV'])}",
        ),
        result_row(
            f"sparse, {label}: scikit-learn Perceptron.fit / perceptron() (5 epochs, validation on both sides)",
            Stat.ratio(seconds["scikit-learn fit"], seconds["ours fit"]),
            at_least(1.3),
            f"one core each; ours {median_ms(seconds['ours fit'])}, scikit-learn "
            f"{median_ms(seconds['scikit-learn fit'])}",
            same,
        ),
        result_row(
            f"sparse, {label}: scikit-learn epoch / our sweep (fixed costs removed on both sides)",
            Stat.ratio(seconds["scikit-learn epoch"], seconds["ours epoch"]),
            at_least(1.3),
            f"(fit with 6 epochs − fit with 1) / 5 on both sides; ours {median_ms(seconds['ours epoch'])}, "
            f"scikit-learn {median_ms(seconds['scikit-learn epoch'])}",
        ),
    ]


def bench_sparse_random(scale: float = 1.0):
    X, y = random_csr(max(1000, int(200_000 * scale)), 2**18, 60)
    return _rows(X, y, "random columns", scale)


def bench_sparse_text(scale: float = 1.0):
    X, y = text_like(max(1000, int(200_000 * scale)))
    return _rows(X, y, "text-like (power-law columns, tf-idf)", scale)
