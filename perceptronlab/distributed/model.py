"""The model :func:`perceptronlab.distributed.fit` and :func:`perceptronlab.distributed.stream_fit` return."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Protocol

import numpy as np

from perceptronlab._ground import validation as v
from perceptronlab.core.scores import labels, scores

if TYPE_CHECKING:
    import dask.array as da
    import dask.dataframe as dd
    from numpy.typing import ArrayLike, NDArray

    from perceptronlab._ground.types import Float64Array, Int64Array, MatrixLike
    from perceptronlab.distributed.sources import Source


class MixedPerceptron:
    """A binary perceptron trained by iterative parameter mixing; used like ``perceptronlab.Perceptron``.

    Attributes
    ----------
    coef_ : ndarray (1, n_features)
        The weights (the mix after the last epoch, or with ``averaged=True`` the mean of the mixed
        weights over the epochs).
    intercept_ : ndarray (1,)
    classes_ : ndarray (2,)
        ``classes_[1]`` is the positive class (+1).
    n_features_in_ : int
    feature_names_in_ : ndarray of str, only for DataFrame/Parquet/CSV input.
    history : ndarray (epochs, shards)
        Mistakes of every shard in every epoch.
    converged : bool
        The last epoch was clean on every shard (of the non-averaged weights).
    cycled : bool
        A start-of-epoch weight vector repeated: the mixing never converges on this data.
    epochs : int
    mistakes : int
        All mistakes of all shards.
    shards : list of list of int
        The partitions of every shard.
    final_w_, final_b_ : the last mixed weights (equal to ``coef_``/``intercept_`` unless averaged).
    params : dict
        The training parameters.
    """

    def __init__(
        self, training: _Trained, source: Source, shards: list[list[int]], params: dict[str, Any]
    ) -> None:
        """The model of a finished :class:`~perceptronlab.distributed.mixing.Training` on the
        ``source``'s data in ``shards``, trained with ``params``."""
        averaged = params.get("averaged", False)
        w, b = (training.w_avg, training.b_avg) if averaged else (training.w, training.b)
        if not params.get("fit_intercept"):
            b = 0.0
        assert source.classes is not None  # learnt from the summaries before training
        self.coef_: Float64Array = np.asarray(w, dtype=np.float64).reshape(1, -1)
        self.intercept_ = np.array([float(b)])
        self.classes_ = np.asarray(source.classes)
        self.n_features_in_ = self.coef_.shape[1]
        if source.feature_names is not None:
            self.feature_names_in_ = np.asarray(source.feature_names, dtype=object)
        self.history: Int64Array = np.asarray(training.history, dtype=np.int64)
        self.converged = bool(training.converged)
        self.cycled = bool(training.cycled)
        self.shards = shards
        self.params = params
        self.final_w_ = np.asarray(training.w)
        self.final_b_ = float(training.b)
        self.n_rows = source.n_rows

    @property
    def epochs(self) -> int:
        return int(self.history.shape[0])

    @property
    def mistakes(self) -> int:
        return int(self.history.sum())

    # the names perceptronlab.io.save_model records
    n_mistakes_ = mistakes
    n_sweeps_ = epochs

    @property
    def converged_(self) -> bool:
        return self.converged

    # the face of a perceptronlab Run, which the CLI's report reads
    algorithm = "perceptron"
    exact = False
    pocket_errors = None
    errors_after_sweep = np.empty(0, dtype=np.int64)

    @property
    def classes(self) -> list[Any]:
        classes: list[Any] = self.classes_.tolist()
        return classes

    @property
    def sweeps(self) -> int:
        return self.epochs

    @property
    def updates_per_sweep(self) -> Int64Array:
        per_epoch: Int64Array = self.history.sum(axis=1)
        return per_epoch

    @property
    def fit_intercept(self) -> bool:
        return bool(self.params.get("fit_intercept"))

    @property
    def n_examples(self) -> int | None:
        return self.n_rows

    @property
    def w(self) -> Float64Array:
        weights: Float64Array = self.coef_[0]
        return weights

    @property
    def b(self) -> float:
        return float(self.intercept_[0])

    def __repr__(self) -> str:
        state = "converged" if self.converged else ("cycled" if self.cycled else "not converged")
        return (
            f"MixedPerceptron(shards={len(self.shards)}, mixing={self.params.get('mixing')!r}, "
            f"epochs={self.epochs}, mistakes={self.mistakes}, {state})"
        )

    def summary(self) -> str:
        """One paragraph for the CLI and notebooks."""
        state = (
            "converged (a clean epoch)"
            if self.converged
            else ("cycled (never converges)" if self.cycled else "not converged")
        )
        rows = f" over {self.n_rows} rows" if self.n_rows is not None else ""
        how = (
            "The cyclic perceptron (one shard)"
            if len(self.shards) == 1
            else f"Iterative parameter mixing ({self.params.get('mixing')}) of {len(self.shards)} shards"
        )
        per_epoch = self.history.sum(axis=1).tolist()
        shown = str(per_epoch) if len(per_epoch) <= 12 else f"{per_epoch[:6]} ... {per_epoch[-6:]}"
        return (
            f"{how}{rows}: {self.epochs} epoch(s), {self.mistakes} mistakes, {state}.\n"
            f"mistakes per epoch: {shown}"
        )

    # ---------------------------------------------------------- prediction

    def decision_function(self, X: MatrixLike | da.Array | dd.DataFrame) -> Float64Array | da.Array:
        """⟨w, x⟩ + b per row; a dask array for dask input (computed block by block)."""
        lazy = _as_dask_array(X, self)
        if lazy is not None:
            return self._per_block(_block_scores, lazy, dtype=np.float64)
        return _block_scores(X, self.coef_[0], self.b, self.n_features_in_)

    def predict(self, X: MatrixLike | da.Array | dd.DataFrame) -> NDArray[Any] | da.Array:
        """``classes_[1]`` where ⟨w, x⟩ + b > 0, else ``classes_[0]``; dask in, dask out."""
        lazy = _as_dask_array(X, self)
        if lazy is not None:
            return self._per_block(_block_predict, lazy, self.classes_, dtype=self.classes_.dtype)
        return _block_predict(X, self.coef_[0], self.b, self.n_features_in_, self.classes_)

    def _per_block(
        self, function: Callable[..., Any], lazy: da.Array, *args: Any, dtype: Any
    ) -> da.Array:
        """``function(block, w, b, n_features, *args)`` on every row block of ``lazy``."""
        import dask.array as da

        blocks: da.Array = da.map_blocks(
            function,
            lazy,
            self.coef_[0],
            self.b,
            self.n_features_in_,
            *args,
            drop_axis=1,
            dtype=dtype,
        )
        return blocks

    def score(self, X: MatrixLike | da.Array | dd.DataFrame, y: ArrayLike | da.Array) -> float:
        """Mean accuracy (computed for dask input too)."""
        predicted = self.predict(X)
        if hasattr(predicted, "compute"):
            import dask.array as da

            assert isinstance(predicted, da.Array)  # the dask branch of predict
            if not isinstance(y, da.Array):
                y = da.from_array(np.asarray(y), chunks=(predicted.chunks[0],))
            return float((predicted == y).mean().compute())
        return float(np.mean(predicted == np.asarray(y)))


def _as_dask_array(X: Any, model: MixedPerceptron) -> da.Array | None:
    try:
        import dask.array as da
        import dask.dataframe as dd
    except ImportError:  # pragma: no cover
        return None
    if isinstance(X, dd.DataFrame):
        names = getattr(model, "feature_names_in_", None)
        if names is not None:
            X = X[[c for c in names]]
        X = X.to_dask_array(lengths=True)
    if isinstance(X, da.Array):
        if X.ndim != 2:
            raise v.fail("X", "a 2-D dask array", f"{X.ndim}-D", "Pass rows of features.")
        v.check_n_features(X.shape[1], model.n_features_in_, "this MixedPerceptron")
        return X.rechunk({1: -1}) if len(X.chunks[1]) > 1 else X
    return None


def _block_scores(X: MatrixLike, w: Float64Array, b: float, n_features: int) -> Float64Array:
    X = v.check_matrix(X)
    v.check_n_features(X.shape[1], n_features, "this MixedPerceptron")
    return scores(X, w, b)


def _block_predict(
    X: MatrixLike, w: Float64Array, b: float, n_features: int, classes: NDArray[Any]
) -> NDArray[Any]:
    return labels(_block_scores(X, w, b, n_features), classes)


class _Trained(Protocol):
    """What :class:`MixedPerceptron` reads of a :class:`perceptronlab.distributed.mixing.Training` (the mixing
    imports this module, so not the other way round)."""

    w: Float64Array
    b: float
    history: Int64Array
    converged: bool
    cycled: bool
    w_avg: Float64Array
    b_avg: float
