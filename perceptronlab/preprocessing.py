"""Feature scaling: scikit-learn's ``StandardScaler`` and ``MaxAbsScaler``, kept with the model.

The perceptron's mistake bound R²/ρ*² depends on the units of the features: one feature measured
in thousands sets the radius R while the margin ρ* is shared by all of them, so the bound (and the
run) can grow by orders of magnitude on data that is easy once scaled. ``scale="standard"``
centres each feature and divides by its standard deviation; ``scale="maxabs"`` divides each by its
largest absolute value (into [−1, 1], zeros kept, so sparse data stays sparse).

A fitted scaler is stored inside the model file as one optional, versioned field,
``"preprocessing"`` (:func:`scaler_to_document`), checked when the model is loaded
(:func:`scaler_from_document`) and applied before every prediction, so ``predict`` takes the
data in its original units::

    "preprocessing": {"version": 1, "scaler": "standard", "mean": [...], "scale": [...]}
    "preprocessing": {"version": 1, "scaler": "maxabs", "scale": [...]}

``mean`` and ``scale`` are scikit-learn's ``mean_`` and ``scale_`` as JSON numbers (shortest
round trip), so a loaded scaler transforms bit for bit like the one fitted.

Examples
--------
>>> import numpy as np
>>> scaler = fit_scaler("maxabs", np.array([[1.0, 200.0], [-2.0, 100.0]]))
>>> scaler.transform([[1.0, 200.0]]).tolist()
[[0.5, 1.0]]
>>> document = scaler_to_document(scaler)
>>> document
{'version': 1, 'scaler': 'maxabs', 'scale': [2.0, 200.0]}
>>> scaler_from_document(document, 2).transform([[-2.0, 50.0]]).tolist()
[[-1.0, 0.25]]
"""

from __future__ import annotations

import math
from typing import Any, Literal, get_args

import numpy as np

from perceptronlab._ground.validation import is_sparse
from perceptronlab.exceptions import InputError, fail

__all__ = [
    "Scale",
    "SCALES",
    "fit_scaler",
    "apply_scaler",
    "scaler_name",
    "describe_scaler",
    "scaler_to_document",
    "scaler_from_document",
    "split_pipeline",
]

#: the ``scale`` choices; "none" (or None) leaves the features as they are
Scale = Literal["standard", "maxabs", "none"]
SCALES: tuple[Scale, ...] = get_args(Scale)
#: the version of the ``"preprocessing"`` field this perceptronlab writes and reads
PREPROCESSING_VERSION = 1

_WHAT = {
    "standard": "StandardScaler: each feature to mean 0 and variance 1",
    "maxabs": "MaxAbsScaler: each feature divided by its largest |value|, into [−1, 1]",
}


def _check_scale(scale: Any) -> Scale:
    if scale is None:
        return "none"
    if not isinstance(scale, str) or scale not in SCALES:
        raise fail(
            "scale",
            "one of " + ", ".join(repr(s) for s in SCALES),
            repr(scale),
            "Pass scale='standard' (mean 0, variance 1) or scale='maxabs' (into [-1, 1]).",
        )
    return scale


def fit_scaler(scale: Scale | None, X: Any) -> Any:
    """A scikit-learn scaler fitted on ``X``, or None for ``scale`` None or "none".

    Parameters
    ----------
    scale : "standard" (``StandardScaler``), "maxabs" (``MaxAbsScaler``), "none" or None.
    X : the training features, dense or sparse (sparse data takes "maxabs": centring would fill
        in every zero).

    Examples
    --------
    >>> fit_scaler("standard", [[0.0, 10.0], [2.0, 30.0]]).transform([[1.0, 20.0]]).tolist()
    [[0.0, 0.0]]
    >>> fit_scaler("none", [[1.0]]) is None
    True
    """
    scale = _check_scale(scale)
    if scale == "none":
        return None
    if scale == "standard" and is_sparse(X):
        raise fail(
            "scale",
            "'maxabs' for sparse data",
            "'standard'",
            "Centring would turn every zero of the sparse matrix into a number; pass scale='maxabs'.",
        )
    from sklearn.preprocessing import MaxAbsScaler, StandardScaler

    scaler = StandardScaler() if scale == "standard" else MaxAbsScaler()
    return scaler.fit(X if is_sparse(X) else np.asarray(X, dtype=np.float64))


def apply_scaler(scaler: Any, X: Any) -> Any:
    """``scaler.transform(X)`` (``X`` itself for no scaler); sparse rows are made dense for a
    ``StandardScaler``, which cannot centre a sparse matrix."""
    if scaler is None:
        return X
    if is_sparse(X) and scaler_name(scaler) == "standard":
        X = X.toarray()
    return scaler.transform(X)


def scaler_name(scaler: Any) -> str:
    """The ``scale`` choice a fitted scaler stands for ("standard" or "maxabs")."""
    from sklearn.preprocessing import MaxAbsScaler, StandardScaler

    if isinstance(scaler, StandardScaler) and scaler.with_mean and scaler.with_std:
        return "standard"
    if isinstance(scaler, MaxAbsScaler):
        return "maxabs"
    raise fail(
        "scaler",
        "a fitted StandardScaler() or MaxAbsScaler()",
        type(scaler).__name__,
        "Other preprocessing is not stored in model files; apply it before predicting.",
    )


def describe_scaler(scale: str | None) -> str:
    """What a ``scale`` choice does, in a few words.

    >>> describe_scaler("standard")
    'StandardScaler: each feature to mean 0 and variance 1'
    """
    return _WHAT.get(_check_scale(scale), "the features as given")


def _floats(values: Any) -> list[float]:
    return [float(v) for v in np.asarray(values, dtype=np.float64).ravel()]


def scaler_to_document(scaler: Any, n_features: int | None = None) -> dict[str, Any]:
    """The ``"preprocessing"`` field of a model file for a fitted scaler (JSON-ready); ``n_features``
    is the model's, which the scaler must match."""
    name = scaler_name(scaler)
    scale = _floats(scaler.scale_)
    if n_features is not None and len(scale) != n_features:
        raise fail(
            "scaler",
            f"a scaler fitted on the model's {n_features} features",
            f"{len(scale)} features",
            "Pass the scaler the model was trained behind.",
        )
    if not all(math.isfinite(v) and v > 0 for v in scale):
        raise fail(
            "scaler",
            "positive finite scales",
            "a zero, negative or non-finite scale",
            "Fit the scaler on finite data.",
        )
    document: dict[str, Any] = {"version": PREPROCESSING_VERSION, "scaler": name}
    if name == "standard":
        document["mean"] = _floats(scaler.mean_)
    document["scale"] = scale
    return document


def _vector(
    document: dict[str, Any], key: str, n_features: int, source: str, positive: bool
) -> np.ndarray:
    values = document.get(key)
    where = f"{source}, field 'preprocessing.{key}'"
    expected = f"{n_features} finite numbers" + (" > 0" if positive else "")
    if (
        not isinstance(values, list)
        or len(values) != n_features
        or not all(
            isinstance(v, int | float)
            and not isinstance(v, bool)
            and math.isfinite(v)
            and (v > 0 or not positive)
            for v in values
        )
    ):
        shown = f"{len(values)} values" if isinstance(values, list) else repr(values)[:60]
        raise fail(
            where,
            expected,
            shown,
            "The file is damaged or was edited by hand; save the model again.",
        )
    return np.asarray(values, dtype=np.float64)


def scaler_from_document(document: Any, n_features: int, source: str = "model document") -> Any:
    """The fitted scikit-learn scaler stored in a model's ``"preprocessing"`` field, checked.

    Raises
    ------
    InputError
        Not an object; a ``version`` newer than this perceptronlab reads; an unknown scaler; a
        ``mean`` or ``scale`` that is not ``n_features`` finite numbers (scales > 0).
    """
    where = f"{source}, field 'preprocessing'"
    if not isinstance(document, dict):
        raise fail(
            where,
            'an object such as {"version": 1, "scaler": "standard", ...}',
            repr(document)[:60],
            "The file is damaged or was edited by hand; save the model again.",
        )
    version = document.get("version")
    if isinstance(version, bool) or not isinstance(version, int) or version < 1:
        raise fail(
            f"{where[:-1]}.version'",
            "an integer >= 1",
            repr(version),
            "The file is damaged or was edited by hand; save the model again.",
        )
    if version > PREPROCESSING_VERSION:
        raise fail(
            where,
            f"preprocessing version {PREPROCESSING_VERSION} or older",
            f"version {version}",
            "The model was saved by a newer perceptronlab; upgrade perceptronlab to load it.",
        )
    name = document.get("scaler")
    if name not in ("standard", "maxabs"):
        raise fail(
            f"{where[:-1]}.scaler'",
            "'standard' or 'maxabs'",
            repr(name)[:60],
            "This perceptronlab cannot apply that step; upgrade perceptronlab, or save the model again.",
        )
    from sklearn.preprocessing import MaxAbsScaler, StandardScaler

    scale = _vector(document, "scale", n_features, source, positive=True)
    if name == "standard":
        scaler = StandardScaler()
        scaler.mean_ = _vector(document, "mean", n_features, source, positive=False)
        scaler.var_ = scale * scale
    else:
        scaler = MaxAbsScaler()
        scaler.max_abs_ = scale.copy()
    scaler.scale_ = scale
    scaler.n_features_in_ = n_features
    scaler.n_samples_seen_ = 0  # not stored: what transform needs is mean_ and scale_
    return scaler


def split_pipeline(model: Any) -> tuple[Any, Any]:
    """``(scaler, estimator)`` of a fitted scikit-learn ``Pipeline([scaler, estimator])`` whose scaler
    a model file can hold; ``(None, model)`` for anything else."""
    steps = getattr(model, "steps", None)
    if not isinstance(steps, list) or len(steps) != 2 or type(model).__name__ != "Pipeline":
        return None, model
    scaler, estimator = steps[0][1], steps[1][1]
    try:
        scaler_name(scaler)
    except InputError:
        return None, model
    return scaler, estimator
