r"""The kernel perceptron: the perceptron in dual form (Aizerman et al. 1964; Freund & Schapire 1999).

From w = 0, every weight vector the perceptron makes is a sum of the examples it erred on, so
⟨w, x⟩ = η Σ_i α_i y_i ⟨x_i, x⟩ with α_i the number of mistakes on x_i. Replacing ⟨·,·⟩ by a kernel
K gives

.. math::

    f(x) = \eta \sum_i \alpha_i y_i K(x_i, x) + b,

with the engine's rule unchanged: a mistake when y_i f(x_i) ≤ margin (ties count), then α_i += 1
(and b += η y_i with ``fit_intercept``). With ``kernel="linear"`` the run *is* the primal
perceptron's: the same mistakes, and η Σ α_i y_i x_i is the engine's w.

Kernels: ``"linear"`` ⟨x, z⟩; ``"poly"`` (γ⟨x, z⟩ + coef0)^degree; ``"rbf"`` exp(−γ‖x − z‖²); or a
callable ``kernel(A, B) -> (len(A), len(B))`` Gram block (as scikit-learn's SVC takes).

Cost. The learner keeps f(x_r) − b for every training row, so a check costs O(1) and a mistake on
x_i costs one kernel column K(·, x_i) (n kernel evaluations, compiled). The Gram cache
(``cache="auto"``, the default) keeps every column it computes, filled on demand, up to
``GRAM_CACHE_BYTES`` (256 MiB): for n ≤ 5,792 (float64) every column fits, so a column is computed
once however many mistakes its example makes, and examples that never err cost nothing; above that
size the first columns to be needed are kept and the rest recomputed. ``cache="full"`` computes the
whole n × n Gram matrix up front with BLAS (worth it when most examples become support vectors;
callable kernels always do this); ``cache="none"`` keeps nothing (O(n) memory).

Budget (for streams). Every mistake adds a support entry (x_i, y_i). With ``budget=B`` at most B
entries are kept: when a mistake comes and B are held, the oldest entry leaves first (FIFO, the
"forgetting" budget perceptron), so memory and prediction cost stay O(B).

Variants. ``"last"`` predicts with the final f; ``"averaged"`` with the average of f over every
step (as :func:`perceptronlab.averaged_perceptron`); ``"voted"`` with the survival-weighted vote
of every f_k (as :func:`perceptronlab.voted_perceptron`, Freund & Schapire's kernel form).
"""

from __future__ import annotations

import math
import numbers
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal, cast, get_args

import numpy as np
import scipy.sparse as sp

from perceptronlab._ground import validation as v
from perceptronlab.core.driver import Engine, OnSweep, UpdateLog, finish_as
from perceptronlab.core.run import Run
from perceptronlab.core.scores import labels
from perceptronlab.family import _kernels
from perceptronlab.family._common import (
    check_predict_X,
    warn_not_converged,
)
from perceptronlab.family.settings import RunSettings, check_run_options
from perceptronlab.family.voted import survival_counts

if TYPE_CHECKING:
    from numpy.typing import ArrayLike, NDArray

    from perceptronlab._ground.types import Float64Array, Int64Array, MatrixLike, RealLike

#: the built-in kernels (a callable kernel(A, B) -> Gram block is taken too)
Kernel = Literal["rbf", "poly", "linear"]
KERNELS: tuple[Kernel, ...] = get_args(Kernel)
#: the hypothesis: the last dual iterate, the average over every step, or the vote of the iterates
Variant = Literal["last", "averaged", "voted"]
VARIANTS: tuple[Variant, ...] = get_args(Variant)
#: the Gram cache: filled on demand up to GRAM_CACHE_BYTES, the whole matrix up front, or none
CacheMode = Literal["auto", "full", "none"]
CACHE_MODES: tuple[CacheMode, ...] = get_args(CacheMode)
#: gamma as a rule: "scale" is 1 / (n_features * X.var()), "auto" is 1 / n_features
GammaRule = Literal["scale", "auto"]
#: a kernel function: the Gram block K(A, B) of shape (len(A), len(B))
KernelFunction = Callable[[Any, Any], "ArrayLike"]
#: the Gram cache holds at most this many bytes of kernel columns (all n for n ≤ 5,792 in float64)
GRAM_CACHE_BYTES = 256 * 2**20

_NO_ORDER = np.empty(0, dtype=np.int64)
_KIND = {"linear": _kernels.LINEAR, "poly": _kernels.POLY, "rbf": _kernels.RBF}


# ---------------------------------------------------------------- the kernel


@dataclass(frozen=True)
class KernelSpec:
    """A resolved kernel: name (or callable), degree, γ (a number) and coef0."""

    kernel: Any
    degree: int
    gamma: float
    coef0: float

    @property
    def params(self) -> dict[str, Any]:
        """The kernel's settings, as a run records them."""
        return dict(kernel=self.kernel, degree=self.degree, gamma=self.gamma, coef0=self.coef0)

    def __call__(self, A: Any, B: Any) -> Float64Array:
        """The Gram block K(A, B) of shape (len(A), len(B))."""
        if callable(self.kernel):
            out = np.asarray(self.kernel(A, B), dtype=np.float64)
            want = (A.shape[0], B.shape[0])
            if out.shape != want or not np.isfinite(out).all():
                raise v.fail(
                    "kernel (the callable)",
                    f"a finite array of shape {want}",
                    f"shape {out.shape}" if out.shape != want else "NaN or inf",
                    "The callable takes (A, B) and returns the matrix K(a_i, b_j).",
                )
            return out
        dot = A @ B.T
        K = dot.toarray() if sp.issparse(dot) else np.array(dot, dtype=np.float64)
        if self.kernel == "linear":
            return K
        if self.kernel == "poly":
            K *= self.gamma
            K += self.coef0
            return np.power(K, self.degree, out=K)
        # in place: −γ·max(‖a‖² + ‖b‖² − 2⟨a,b⟩, 0), then exp
        K *= -2.0
        K += row_sq_norms(A)[:, None]
        K += row_sq_norms(B)[None, :]
        np.maximum(K, 0.0, out=K)
        K *= -self.gamma
        return np.exp(K, out=K)


def row_sq_norms(X: Any) -> Float64Array:
    if sp.issparse(X):
        sparse_norms: Float64Array = np.asarray(X.multiply(X).sum(axis=1), dtype=np.float64).ravel()
        return sparse_norms
    X = np.asarray(X, dtype=np.float64)
    dense_norms: Float64Array = np.einsum("ij,ij->i", X, X)
    return dense_norms


def resolve_kernel(X: Any, kernel: Any, degree: Any, gamma: Any, coef0: Any) -> KernelSpec:
    """Check the kernel parameters and resolve γ ("scale": 1/(d·Var X), "auto": 1/d)."""
    if not callable(kernel):
        v.check_choice("kernel", kernel, KERNELS)
    if isinstance(degree, bool) or not isinstance(degree, numbers.Integral) or degree < 1:
        raise v.fail(
            "degree (of the poly kernel)", "an integer >= 1", repr(degree), "Pass e.g. degree=3."
        )
    if (
        isinstance(coef0, bool)
        or not isinstance(coef0, numbers.Real)
        or not np.isfinite(cast(float, coef0))
    ):
        raise v.fail(
            "coef0 (of the poly kernel)", "a finite number", repr(coef0), "Pass e.g. coef0=1.0."
        )
    d = X.shape[1]
    if isinstance(gamma, str):
        v.check_choice("gamma", gamma, get_args(GammaRule))
        if gamma == "auto":
            value = 1.0 / d
        else:
            if sp.issparse(X):
                mean = X.mean()
                var = X.multiply(X).mean() - mean * mean
            else:
                var = np.asarray(X, dtype=np.float64).var()
            value = 1.0 / (d * var) if var > 0 else 1.0
    elif (
        isinstance(gamma, bool)
        or not isinstance(gamma, numbers.Real)
        or not np.isfinite(cast(float, gamma))
        or gamma <= 0
    ):
        raise v.fail(
            "gamma (the kernel width)",
            "a number > 0, 'scale' or 'auto'",
            repr(gamma),
            "Pass e.g. gamma='scale' (1 / (n_features * X.var())) or gamma=0.1.",
        )
    else:
        value = float(gamma)
    return KernelSpec(kernel, int(degree), float(value), float(coef0))


# ---------------------------------------------------------------- the engine


class ColumnCache:
    """Kernel columns K(·, x_i) kept as they are computed (the Gram cache, filled on demand).

    At most ``GRAM_CACHE_BYTES`` of columns; the rows of ``C`` are taken in the order the columns
    are first needed. Labels play no part, so one-vs-rest runs share one cache.
    """

    def __init__(self, n: int, enabled: bool = True) -> None:
        rows = min(n, GRAM_CACHE_BYTES // (8 * n)) if enabled else 0
        self.slots = np.full(n, -1, dtype=np.int64)
        self.C = np.empty((rows, n))  # pages are touched only as columns arrive
        self.used = np.zeros(1, dtype=np.int64)

    @property
    def n_columns(self) -> int:
        return int(self.used[0])


class KernelEngine(UpdateLog, Engine):
    """The dual perceptron as an :class:`~perceptronlab.core.driver.Engine`: its own sweep (the dual
    mistake test and update, in :mod:`perceptronlab.family._kernels`), the driver's control flow.

    The training errors are counted at each sweep's end from the kept scores (no primal w to store).
    Its update log is not cut at :data:`~perceptronlab.core.driver.LOG_BUDGET_BYTES`: the entries
    (and their steps) are the hypothesis the averaged and voted variants predict with. Each update
    costs n kernel values, so the time of a run bounds its updates long before their 24 bytes do.
    """

    exact = False
    overflowing = "dual scores"
    overflow_fix = "Scale the data, lower gamma or degree, or lower eta."

    def __init__(
        self,
        X: Any,
        y: Any,
        spec: KernelSpec,
        *,
        eta: Any,
        margin: Any,
        fit_intercept: bool,
        budget: int | None,
        gram: Float64Array | None = None,
        columns: ColumnCache | None = None,
    ) -> None:
        self.X, self.y = X, np.ascontiguousarray(y, dtype=np.float64)
        self.n = X.shape[0]
        self.eta, self.margin, self.fit_intercept = float(eta), float(margin), bool(fit_intercept)
        self.budget = 0 if budget is None else int(budget)
        self.spec = spec
        self.scores = np.zeros(self.n)
        self.alpha = np.zeros(self.n, dtype=np.int64)
        self.b = 0.0
        self.fsq = 0.0
        self.step = 0
        self.n_entries = 0
        self.ring = np.zeros(max(self.budget, 1), dtype=np.int64)
        self.start_log(self.n, budget_bytes=math.inf)
        self._step_buf = np.empty(self.n, dtype=np.int64)
        self._col = np.empty(self.n)
        self._step_chunks: list[NDArray[Any]] = []
        self.steps = None
        empty_f, empty_i = np.empty((0, 0)), np.empty(0, dtype=np.int32)
        self._G, self._X = empty_f, empty_f
        self._csr = (empty_i, empty_i, np.empty(0))
        self._buf = np.empty(0)
        self._sqn = np.empty(0)
        kind = spec.kernel
        self.columns = ColumnCache(self.n, enabled=False) if columns is None else columns
        if gram is not None or callable(kind):
            self.source = _kernels.FROM_GRAM
            self._G = np.ascontiguousarray(spec(X, X) if gram is None else gram, dtype=np.float64)
        else:
            self.source = _kernels.FROM_CSR if sp.issparse(X) else _kernels.FROM_DENSE
            self._sqn = row_sq_norms(X)
            if sp.issparse(X):
                self._csr = (X.indptr, X.indices, X.data)
                self._buf = np.zeros(X.shape[1])
            else:
                self._X = X
        self._kind = _KIND.get(kind, _kernels.LINEAR) if not callable(kind) else _kernels.LINEAR

    @property
    def entry_steps(self) -> Int64Array:
        return np.concatenate(self._step_chunks) if self._step_chunks else _NO_ORDER

    def sweep(self, order: NDArray[Any] | None, sweep: int) -> int:
        use_order = order is not None
        order = _NO_ORDER if order is None else np.ascontiguousarray(order, dtype=np.int64)
        indptr, indices, data = self._csr
        spec = self.spec
        columns = _kernels.Columns(
            self.source,
            self._G,
            self._X,
            indptr,
            indices,
            data,
            self._sqn,
            self._kind,
            spec.degree,
            spec.gamma,
            spec.coef0,
        )
        buffers = _kernels.Buffers(
            self._col, self._buf, self.columns.slots, self.columns.C, self.columns.used
        )
        dual = _kernels.Dual(self.scores, self.alpha, self.budget, self.ring)
        rule = _kernels.Rule(self.y, self.eta, self.margin, self.fit_intercept)
        log = _kernels.Log(self._idx_buf, self._step_buf, self._norm_buf)
        state = (self.b, self.fsq, self.step, self.n_entries)
        (count, self.b, self.fsq, self.step, self.n_entries) = _kernels.kernel_sweep(
            columns, buffers, dual, rule, order, use_order, state, log
        )
        self.log_sweep(count)
        if count:
            self._step_chunks.append(self._step_buf[:count].copy())
        return int(count)

    def snapshot(self) -> tuple[Float64Array, float]:
        return np.empty(0), self.b

    def checkpoint(self) -> None:
        return None  # the errors are counted now, from the scores

    def finite(self) -> bool:
        return bool(np.isfinite(self.scores).all() and np.isfinite(self.b))

    def errors(self, state: tuple[Any, Any] | None = None) -> int:
        """Training errors of f now: y_r(f(x_r)) ≤ 0 (a tie counts)."""
        return int(np.count_nonzero(self.y * (self.scores + self.b) <= 0))


# ---------------------------------------------------------------- the result


@dataclass(eq=False)
class KernelRun(Run):
    """A :class:`~perceptronlab.Run` of the dual perceptron, with everything needed to predict.

    ``w`` is the primal weight vector η Σ α_i y_i x_i of the chosen variant for the linear kernel
    (empty for other kernels and for the voted variant); ``b`` its intercept (the last f's for
    "voted"). ``errors_after_sweep`` and ``norms`` (‖f‖ in the kernel's space, with b) are those of
    the iterates f_t.

    Attributes
    ----------
    variant : "last", "averaged" or "voted".
    alpha : (n,) mistakes per example in the final f (inside the budget window).
    support : indices of the training examples with a non-zero coefficient in the chosen variant.
    support_vectors : those rows of X.
    dual_coef : their coefficients (η α_i y_i for "last"; survival-weighted for "averaged").
    entries, entry_steps : the example and the step (1-based) of every support entry, in order.
    counts : survival count of f after each entry (the vote's weights).
    n_steps : T = sweeps · n. kernel_spec : the resolved kernel. budget : the budget or None.
    cache : where the kernel columns came from: "full" (the Gram matrix), "columns" (the Gram
        cache, filled on demand) or "none". cached_columns : columns the Gram cache held at the end.
    """

    variant: str = "last"
    # kernel_perceptron always sets these (the defaults only keep the dataclass fields in order)
    alpha: Int64Array = None  # type: ignore[assignment]
    support: Int64Array = None  # type: ignore[assignment]
    support_vectors: Any = None
    dual_coef: Float64Array = None  # type: ignore[assignment]
    entries: Int64Array = None  # type: ignore[assignment]
    entry_steps: Int64Array = None  # type: ignore[assignment]
    counts: Int64Array = None  # type: ignore[assignment]
    entry_signs: Float64Array = None  # type: ignore[assignment]
    n_steps: int = 0
    kernel_spec: KernelSpec = None  # type: ignore[assignment]
    budget: int | None = None
    cache: str = "none"
    cached_columns: int = 0
    n_features: int = 0

    def summary(self, *, state: str | None = None, short: bool = False) -> str:
        kernel = getattr(self.kernel_spec.kernel, "__name__", self.kernel_spec.kernel)
        return (
            f"kernel perceptron ({kernel}, {self.variant}): {self.mistakes} mistakes in "
            f"{self.sweeps} sweeps, {state or self.ending()}; {self.support.shape[0]} support vectors"
        )

    def decision_function(self, X: MatrixLike) -> Float64Array:
        """f(x) for "last"/"averaged"; the normalised vote in [−1, 1] for "voted"."""
        Xc = check_predict_X(X, self.n_features, "this kernel perceptron")
        if self.variant != "voted":
            if self.support.shape[0] == 0:
                return np.full(Xc.shape[0], float(self.b))
            f: Float64Array = self.kernel_spec(Xc, self.support_vectors) @ self.dual_coef + self.b
            return f
        return self._vote(Xc)

    def _vote(self, X: Any, block: int = 1024) -> Float64Array:
        eta = float(self.params["eta"])
        total = float(self.counts.sum())
        out = np.zeros(X.shape[0])
        if self.entries.shape[0] == 0 or total == 0:
            return out
        # each entry's column of K(X, support) and its signed step η y_k
        position = np.searchsorted(self.support, self.entries)
        signed = eta * self.entry_signs
        intercepts = (
            np.cumsum(signed) if self.params["fit_intercept"] else np.zeros(signed.shape[0])
        )
        if self.budget:
            intercepts = _window(intercepts[None, :], self.budget)[0]
        weights = self.counts.astype(np.float64)
        for start in range(0, X.shape[0], block):
            K = self.kernel_spec(X[start : start + block], self.support_vectors)
            f = np.cumsum(K[:, position] * signed, axis=1)
            if self.budget:
                f = _window(f, self.budget)
            out[start : start + block] = np.sign(f + intercepts) @ weights / total
        return out

    def predict(self, X: MatrixLike) -> NDArray[Any]:
        """classes[1] where the decision is > 0, else classes[0]."""
        return labels(self.decision_function(X), self.classes)


def _window(prefix: NDArray[Any], budget: int) -> NDArray[Any]:
    """Sums over the last ``budget`` entries from prefix sums along axis 1 (the FIFO window)."""
    out: NDArray[Any] = prefix.copy()
    out[:, budget:] -= prefix[:, :-budget]
    return out


# ---------------------------------------------------------------- the learner


@v.seeds_names
def kernel_perceptron(  # noqa: PLR0913 (the public keyword arguments)
    X: MatrixLike,
    y: ArrayLike,
    *,
    kernel: Kernel | KernelFunction = "rbf",
    degree: int = 3,
    gamma: float | GammaRule = "scale",
    coef0: float = 1.0,
    variant: Variant = "last",
    budget: int | None = None,
    eta: RealLike = 1.0,
    fit_intercept: bool = False,
    order: v.FamilyOrder = "cyclic",
    margin: RealLike = 0.0,
    max_sweeps: int = 100,
    seed: int | None = None,
    cache: CacheMode = "auto",
    warn: bool = True,
    on_sweep: OnSweep | None = None,
) -> KernelRun:
    """Run the perceptron in dual form with a kernel.

    Parameters
    ----------
    X : array-like (n, d) or CSR matrix.
    y : any two labels; the larger (``classes[1]``) is +1.
    kernel : "rbf", "poly", "linear", or a callable ``kernel(A, B)`` returning the Gram block.
    degree, gamma, coef0 : poly is (γ⟨x,z⟩ + coef0)^degree, rbf is exp(−γ‖x−z‖²); gamma "scale"
        is 1/(d·Var X) (as scikit-learn's SVC), "auto" is 1/d.
    variant : "last" (the final f), "averaged" (f averaged over every step) or "voted".
    budget : keep at most this many support entries (the oldest leaves first); None: no limit.
    eta, fit_intercept, margin, seed : as in :func:`perceptronlab.perceptron`.
    order : "cyclic" or "shuffle".
    max_sweeps : the run ends here or at a clean sweep.
    cache : "auto": the Gram cache, filled on demand (all columns for n ≤ 5,792); "full": the whole
        Gram matrix up front (BLAS); "none": no cache.
    warn : warn (NotConvergedWarning) when no clean sweep came.
    on_sweep : the per-sweep hook, as in :func:`perceptronlab.perceptron`.

    Returns
    -------
    KernelRun

    References
    ----------
    Aizerman, M. A., Braverman, E. M. & Rozonoer, L. I. (1964). Theoretical foundations of the
    potential function method in pattern recognition learning. Freund, Y. & Schapire, R. E.
    (1999). Large margin classification using the perceptron algorithm. Machine Learning 37(3).

    Examples
    --------
    XOR is not linearly separable, but it is with the kernel (1 + ⟨x, z⟩)²:

    >>> from perceptronlab import kernel_perceptron
    >>> X, y = [[1, 1], [-1, -1], [1, -1], [-1, 1]], [1, 1, -1, -1]
    >>> run = kernel_perceptron(X, y, kernel="poly", degree=2, gamma=1.0, coef0=1.0)
    >>> run.converged, run.alpha.tolist(), run.predict(X).tolist()
    (True, [1, 1, 1, 1], [1, 1, -1, -1])
    """
    settings = check_run_options(eta, fit_intercept, order, margin, max_sweeps, seed, on_sweep)
    v.check_choice("variant", variant, VARIANTS)
    budget = v.check_optional_positive_int(
        "budget", budget, "Pass e.g. budget=500, or None for no limit."
    )
    if not isinstance(cache, str) or cache not in CACHE_MODES:
        raise v.fail(
            "cache",
            "one of 'auto', 'full', 'none'",
            repr(cache),
            "Pass cache='auto' (the Gram cache, filled on demand up to 256 MiB).",
        )
    Xc, signs, classes = v.check_Xy(X, y)
    spec = resolve_kernel(Xc, kernel, degree, gamma, coef0)
    return fit_kernel(
        Xc, signs, classes, spec, settings, variant=variant, budget=budget, cache=cache, warn=warn
    )


def use_gram(spec: KernelSpec, cache: CacheMode) -> bool:
    """Whether the whole Gram matrix is computed up front (``"full"``, or a callable kernel)."""
    return callable(spec.kernel) or cache == "full"


def fit_kernel(
    Xc: Any,
    signs: Float64Array,
    classes: NDArray[Any],
    spec: KernelSpec,
    settings: RunSettings,
    *,
    variant: Variant,
    budget: int | None,
    cache: CacheMode,
    warn: bool,
    gram: Float64Array | None = None,
    columns: ColumnCache | None = None,
) -> KernelRun:
    """The learner on validated input; one-vs-rest passes one ``gram`` or ``columns`` cache to all."""
    n = Xc.shape[0]
    if gram is None and use_gram(spec, cache):
        gram = spec(Xc, Xc)
    if gram is None and columns is None:
        columns = ColumnCache(n, enabled=cache == "auto")
    engine = KernelEngine(
        Xc, signs, spec, **settings.rule, budget=budget, gram=gram, columns=columns
    )
    outcome = settings.drive(engine)
    n_steps = len(outcome.log.updates_per_sweep) * n
    params = settings.params(**spec.params, variant=variant, budget=budget, cache=cache)
    eta, fit_intercept = float(settings.eta), settings.fit_intercept
    run = finish_as(
        engine,
        outcome,
        run_class=KernelRun,
        algorithm="kernel perceptron",
        params=params,
        X=Xc,
        signs=signs,
        classes=classes,
        variant=variant,
        kernel_spec=spec,
        budget=budget,
        **_dual_fields(engine, Xc, signs, spec, variant, budget, eta, fit_intercept, n_steps),
    )
    what = "kernel perceptron's " + variant + " hypothesis"
    warn_not_converged(run, warn, settings.max_sweeps, what)
    return run


def _dual_fields(
    engine: KernelEngine,
    Xc: Any,
    signs: Float64Array,
    spec: KernelSpec,
    variant: Variant,
    budget: int | None,
    eta: float,
    fit_intercept: bool,
    n_steps: int,
) -> dict[str, Any]:
    """A finished run's dual hypothesis and record, as :class:`KernelRun`'s fields: w and b, the
    coefficients and their support, the entries with their steps and survival counts, the cache."""
    entries, steps = engine.indices, engine.entry_steps
    counts = survival_counts(steps, n_steps)
    coef_all, b = _coefficients(engine, signs, variant, budget, eta, fit_intercept, n_steps)
    support, dual_coef, support_vectors, w = _support(Xc, entries, coef_all, variant, spec)
    return dict(
        w=w,
        b=b,
        alpha=engine.alpha.copy(),
        support=support,
        support_vectors=support_vectors,
        dual_coef=dual_coef,
        entries=entries,
        entry_steps=steps,
        counts=counts,
        entry_signs=signs[entries],
        n_steps=n_steps,
        cache=_cache_used(engine),
        cached_columns=engine.columns.n_columns,
        n_features=Xc.shape[1],
    )


def _coefficients(
    engine: KernelEngine,
    signs: Float64Array,
    variant: Variant,
    budget: int | None,
    eta: float,
    fit_intercept: bool,
    n_steps: int,
) -> tuple[Float64Array, float]:
    """Every example's dual coefficient and b: the average's over the n_steps steps, or the last
    iterate's (the perceptron's and, entry by entry, the voted one's)."""
    if variant != "averaged":
        return eta * signs * engine.alpha, engine.b
    entries, steps = engine.indices, engine.entry_steps
    # entry k is in f for steps t_k … r_k − 1, r_k = t_{k+budget} (its removal) or T + 1
    ends = np.full(entries.shape[0], n_steps + 1, dtype=np.int64)
    if budget and entries.shape[0] > budget:
        ends[:-budget] = steps[budget:]
    weights = (ends - steps) / max(n_steps, 1)
    per_example = np.bincount(entries, weights=weights, minlength=signs.shape[0])
    b = float(eta * np.dot(signs[entries], weights)) if fit_intercept else 0.0
    return eta * signs * per_example, b


def _support(
    Xc: Any, entries: np.ndarray, coef_all: Float64Array, variant: Variant, spec: KernelSpec
) -> tuple[np.ndarray, Float64Array, Any, Float64Array]:
    """The support (every entry's example for the voted hypothesis, else the nonzero
    coefficients), its coefficients and vectors, and w for a linear kernel (else empty)."""
    support = (
        np.unique(entries) if variant == "voted" else np.flatnonzero(coef_all != 0).astype(np.int64)
    )
    dual_coef = coef_all[support]
    support_vectors = Xc[support]
    if spec.kernel == "linear" and variant != "voted":
        w = np.asarray(support_vectors.T @ dual_coef, dtype=np.float64).ravel()
    else:
        w = np.empty(0)
    return support, dual_coef, support_vectors, w


def _cache_used(engine: KernelEngine) -> str:
    """How the run read the kernel: the full Gram matrix, cached columns, or none."""
    if engine.source == _kernels.FROM_GRAM:
        return "full"
    return "columns" if engine.columns.C.shape[0] else "none"
