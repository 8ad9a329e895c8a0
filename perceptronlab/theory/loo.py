r"""Exact leave-one-out error of the cyclic perceptron, retraining only on the mistake set.

The lecture notes “Perceptron Mistake Bound” (proof of Theorem 2): run the perceptron on all n
examples to convergence. An example
that never triggered an update can be removed without changing the run (it was only ever checked,
never added), so the run without it ends at the same w, which classifies it correctly. Only the
examples in the mistake set J can be leave-one-out errors, and there are at most
:math:`|J| \le M \le R^2/\rho^2` of them.

For the examples in J, the run without example k coincides with the full run up to k's first
update; retraining resumes there (same weights, same position in the sweep) instead of from 0.
The full run's mistake set is its ``mistake_set`` (a boolean per example); the resumed runs replay
its update log, and an example whose first update lies past the part of the log a very long run
kept (``Run.log_complete``) is retrained from w = 0 instead.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal, TypedDict

import numpy as np

from perceptronlab._ground import validation as v
from perceptronlab.core.driver import drive
from perceptronlab.core.engines import CompiledEngine
from perceptronlab.core.perceptron import perceptron
from perceptronlab.core.run import Run
from perceptronlab.core.scores import margins
from perceptronlab.exceptions import NotSeparableError
from perceptronlab.theory._common import NUMBERING

if TYPE_CHECKING:
    from numpy.typing import ArrayLike, NDArray
    from typing_extensions import Unpack

    from perceptronlab._ground.types import Int64Array, MatrixLike, RealLike


class RunOptions(TypedDict, total=False):
    """The perceptron's options that affect the cyclic run (those :func:`loo_error` passes on)."""

    eta: RealLike
    fit_intercept: bool
    margin: RealLike
    max_sweeps: int
    exact: bool
    backend: v.Backend


class LooOptions(RunOptions, total=False):
    """The options of :func:`loo_error`: :class:`RunOptions`, and the one order it runs."""

    order: Literal["cyclic"]


@dataclass
class LooResult:
    """The leave-one-out error of the cyclic perceptron.

    Attributes
    ----------
    error_rate : float
        ``errors / n``.
    errors : int
        Examples k misclassified (y_k(⟨w,x_k⟩ + b) ≤ 0, ties count) by the perceptron trained on
        the other n − 1 examples.
    n : int
    retrainings : int
        Runs needed: one per distinct example of the full run's mistake set (brute force: n).
    indices : numpy.ndarray
        The examples that are leave-one-out errors.
    mistakes : int
        Mistakes M of the full run; ``errors ≤ retrainings ≤ M`` (“Perceptron Mistake Bound”).
    candidates : numpy.ndarray
        The mistake set: the examples retrained.
    """

    error_rate: float
    errors: int
    n: int
    retrainings: int
    indices: Int64Array
    mistakes: int
    candidates: Int64Array

    def __str__(self) -> str:
        return (
            f"leave-one-out error {self.errors}/{self.n} = {self.error_rate:.4g} "
            f"({self.retrainings} retrainings for the mistake set, instead of {self.n}; "
            f"{self.mistakes} mistakes in the full run)"
        )

    def to_dict(self) -> dict[str, Any]:
        return {
            "error_rate": float(self.error_rate),
            "errors": int(self.errors),
            "n": int(self.n),
            "retrainings": int(self.retrainings),
            "indices": [int(i) + 1 for i in self.indices],
            "numbering": NUMBERING,
            "mistakes": int(self.mistakes),
        }


def loo_error(X: MatrixLike, y: ArrayLike, **perceptron_options: Unpack[LooOptions]) -> LooResult:
    r"""Exact leave-one-out error of the cyclic perceptron trained to convergence.

    .. math:: \mathrm{LOO} = \frac1n \sum_{k=1}^n 1\{y_k(\langle w(S^{-k}), x_k\rangle + b(S^{-k})) \le 0\}

    where :math:`w(S^{-k})` is the perceptron trained on all examples but k until a clean sweep.
    Only the examples of the full run's mistake set are retrained (“Perceptron Mistake Bound”, proof of Theorem 2),
    each resuming from the full run's state at its first update; the result equals brute force.

    Parameters
    ----------
    X, y : a linearly separable training set.
    **perceptron_options : ``eta``, ``fit_intercept``, ``margin``, ``max_sweeps``, ``exact``,
        ``backend``, as for :func:`perceptronlab.perceptron`. The order is cyclic (the argument
        needs a deterministic order that does not depend on n).

    Raises
    ------
    NotSeparableError
        The full run does not converge within ``max_sweeps`` (non-separable data, or too few sweeps).

    Examples
    --------
    >>> result = loo_error([[1, 0], [1, 1], [0, 1]], [1, -1, -1])
    >>> result.errors, result.retrainings, result.indices.tolist()
    (2, 2, [0, 1])
    """
    v.check_option_names(
        "loo_error",
        perceptron_options,
        LooOptions,
        "Pass only perceptron options that affect the cyclic run.",
    )
    v.check_choice("order", perceptron_options.pop("order", "cyclic"), ("cyclic",))
    run_options: RunOptions = perceptron_options
    full = perceptron(X, y, order="cyclic", warn=False, **run_options)
    if not full.converged:
        why = (
            "the start-of-sweep weights repeat, so it never converges"
            if full.cycled
            else f"no clean sweep within max_sweeps={full.params['max_sweeps']}"
        )
        raise NotSeparableError(
            f"loo_error: expected a run that converges (linearly separable data), got {why}. The "
            "leave-one-out error of the perceptron is defined for training to zero errors; check "
            "perceptronlab.separable(X, y), or raise max_sweeps."
        )
    Xc, signs = full.data
    n = len(Xc) if full.exact else Xc.shape[0]
    assert full.mistake_set is not None  # the driver's finish sets it on every run
    candidates = np.flatnonzero(full.mistake_set)
    if (
        n == 1
    ):  # trained on no example, w = 0 and b = 0: the tie y(<0, x> + 0) = 0 <= 0 is a mistake
        wrong = [int(k) for k in candidates]
    elif (
        full.exact
        or run_options.get("backend", "compiled") != "compiled"
        or not isinstance(Xc, np.ndarray)
    ):
        wrong = _loo_by_retraining(Xc, signs, candidates, run_options)
    else:
        wrong = _loo_resumed(Xc, signs, full, candidates)
    indices = np.asarray(sorted(wrong), dtype=np.int64)
    return LooResult(
        error_rate=len(indices) / n,
        errors=len(indices),
        n=n,
        retrainings=len(candidates),
        indices=indices,
        mistakes=full.mistakes,
        candidates=candidates,
    )


def _not_converged(k: int, max_sweeps: int) -> NotSeparableError:
    return NotSeparableError(
        f"loo_error: the run without example {k} did not converge within max_sweeps={max_sweeps}; "
        "expected convergence (a subset of separable data is separable). Raise max_sweeps."
    )


def _loo_by_retraining(
    X: Any, signs: NDArray[Any], candidates: NDArray[Any], options: RunOptions
) -> list[int]:
    """Retrain from w = 0 without each candidate (exact arithmetic, or the reference backend)."""
    wrong = []
    max_sweeps = options.get("max_sweeps", 1000)
    for k in candidates:
        k = int(k)
        keep = [i for i in range(len(signs)) if i != k]
        rows = [X[i] for i in keep] if isinstance(X, list) else X[keep]
        run = perceptron(rows, signs[keep], order="cyclic", warn=False, **options)
        if not run.converged:
            raise _not_converged(k, max_sweeps)
        x_k = [X[k]] if isinstance(X, list) else X[k : k + 1]
        if margins(x_k, signs[k : k + 1], run.w, run.b)[0] <= 0:
            wrong.append(k)
    return wrong


def _loo_resumed(
    X: NDArray[Any], signs: NDArray[Any], full: Run, candidates: NDArray[Any]
) -> list[int]:
    """Resume each leave-one-out run at the full run's state just before k's first update (from
    w = 0 for a k whose first update the full run's log did not keep)."""
    params = full.params
    eta, margin, fit_intercept = (
        float(params["eta"]),
        float(params["margin"]),
        params["fit_intercept"],
    )
    max_sweeps = params["max_sweeps"]
    sequence = full.mistake_indices
    sweep_of_update = np.repeat(
        np.arange(1, len(full.updates_per_sweep) + 1), full.updates_per_sweep
    )
    first: dict[int, int] = {}
    for t, i in enumerate(sequence.tolist()):
        first.setdefault(i, t)
    unlogged = [int(k) for k in candidates if int(k) not in first]
    n = X.shape[0]
    # the full run's updates, replayed with the engine's own update (the same bits)
    full_run = CompiledEngine(X, signs, eta=eta, margin=margin, fit_intercept=fit_intercept)
    done = 0
    wrong = []
    for k, t_k in sorted(first.items(), key=lambda item: item[1]) + [(k, None) for k in unlogged]:
        keep = np.r_[0:k, k + 1 : n]
        if t_k is None:  # from w = 0, whole sweeps
            engine = CompiledEngine(
                X[keep], signs[keep], eta=eta, margin=margin, fit_intercept=fit_intercept
            )
            outcome = drive(engine, max_sweeps=max_sweeps, cycles=False, record_errors=False)
        else:
            full_run.replay(sequence[done:t_k])
            done = t_k
            engine = CompiledEngine(
                X[keep],
                signs[keep],
                eta=eta,
                margin=margin,
                fit_intercept=fit_intercept,
                w0=full_run.w,
                b0=full_run.b,
            )
            # the rest of the sweep of k's first update (k's place and after), then whole sweeps
            outcome = drive(
                engine,
                max_sweeps=max_sweeps,
                cycles=False,
                record_errors=False,
                first_sweep=int(sweep_of_update[t_k]),
                rest_of_sweep=np.arange(k, n - 1),
            )
        if not outcome.converged:
            raise _not_converged(k, max_sweeps)
        if margins(X[k : k + 1], signs[k : k + 1], engine.w, engine.b)[0] <= 0:
            wrong.append(k)
    return wrong
