"""Models read back from model files: :func:`load_model` and :class:`LoadedModel`.

A float model saved from a run of ``perceptron``/``pocket`` or from :class:`Perceptron` /
:class:`PocketPerceptron` comes back as that estimator, fitted; everything else (exact models,
online models, other libraries' linear models) as a :class:`LoadedModel`. Both score with the
core's one decision path, so a saved-then-loaded model scores bit for bit like the one saved.
"""

from __future__ import annotations

import math
import os
from typing import Any

import numpy as np

from perceptronlab._numbers import parse_exact, to_float
from perceptronlab._validation import (
    ESTIMATOR_NAMES,
    check_exact_matrix,
    check_matrix,
    check_n_features,
)
from perceptronlab.core.scores import labels, score_matrix
from perceptronlab.estimators._linear import Perceptron, PocketPerceptron
from perceptronlab.exceptions import InputError
from perceptronlab.io import bad_model, model_source, read_model_document
from perceptronlab.scaling import apply_scaler, scaler_from_document

__all__ = ["LoadedModel", "load_model"]

_LINEAR = {"Perceptron": Perceptron, "PocketPerceptron": PocketPerceptron}


_DAMAGED = "The file is damaged or was edited by hand; save the model again."


def _parse_weight(value: Any, field: str, exact: bool, source: str) -> Any:
    if isinstance(value, bool) or not isinstance(value, int | float | str):
        raise bad_model(source, field, "numbers (or exact strings like '1/3')", repr(value))
    if isinstance(value, float) and not math.isfinite(value):  # pragma: no cover - json gives no inf
        raise bad_model(source, field, "finite numbers", repr(value))
    what = f"{source}, field {field!r}"
    number = parse_exact(value, what, expected="numbers (or exact strings like '1/3')", fix=_DAMAGED)
    return number if exact else to_float(number, what, _DAMAGED)


def load_model(path: str | os.PathLike, *, as_estimator: bool = True) -> Any:
    """Load a JSON model file written by :func:`perceptronlab.save_model`.

    Parameters
    ----------
    path : the model file.
    as_estimator : return a fitted :class:`perceptronlab.Perceptron` or
        :class:`perceptronlab.PocketPerceptron` for float models saved from a run or from those
        estimators; ``False`` always gives a :class:`LoadedModel`.

    Returns
    -------
    Perceptron, PocketPerceptron, LoadedModel or Pipeline
        A fitted model with ``coef_``, ``intercept_``, ``classes_``, ``n_features_in_``,
        ``predict`` and ``decision_function``. Exact models (Fractions kept), online models and
        models saved from other libraries load as :class:`LoadedModel`. A model saved with a
        scaler (``"preprocessing"``) loads as a scikit-learn ``Pipeline([scaler, estimator])``
        (a :class:`LoadedModel`, which applies the scaler itself, with ``as_estimator=False``).

    Raises
    ------
    InputError
        Missing, empty, truncated or corrupt file; not JSON; a foreign JSON document; a wrong
        ``format`` tag; a ``version`` newer than this perceptronlab reads; malformed fields.
    """
    loaded = LoadedModel(read_model_document(path), source=model_source(path))
    return _as_estimator(loaded) if as_estimator else loaded


_ESTIMATOR_OF = {"perceptron": "Perceptron", "pocket": "PocketPerceptron"}


def _as_estimator(model: LoadedModel) -> Any:
    """The perceptronlab estimator with the loaded weights, where one fits; else ``model`` itself;
    behind its scaler in a ``Pipeline`` when it has one."""
    if model.scaler is not None:
        from sklearn.pipeline import make_pipeline

        bare = LoadedModel({k: v for k, v in model.document.items() if k != "preprocessing"})
        return make_pipeline(model.scaler, _as_estimator(bare))
    name = _ESTIMATOR_OF.get(model.algorithm)
    if model.exact or name is None or model.estimator not in (
            "perceptronlab.Run", f"perceptronlab.estimators.{name}"):
        return model
    cls = _LINEAR[name]
    accepted = cls().get_params(deep=False)
    params = {k: model.params[k] for k in accepted if k in model.params}
    for old, new in ESTIMATOR_NAMES.items():  # files of 0.1.0 and of runs: the functional API's names
        if old in model.params and new in accepted and new not in params:
            params[new] = model.params[old]
    if not (params.get("random_state") is None or isinstance(params["random_state"], int)):
        del params["random_state"]  # a RandomState was saved as its repr: a record, not a seed
    try:
        fitted = cls(**params)
    except TypeError:  # pragma: no cover - a parameter of another version
        fitted = cls()
    fitted.classes_ = model.classes_
    fitted.coef_ = np.array(model.coef_, dtype=np.float64)
    fitted.intercept_ = np.array(model.intercept_, dtype=np.float64)
    fitted.n_features_in_ = model.n_features_in_
    for key, attribute in (("mistakes", "n_mistakes_"), ("sweeps", "n_sweeps_"),
                           ("converged", "converged_"), ("pocket_errors", "pocket_errors_")):
        if key in model.training:
            value = model.training[key]
            setattr(fitted, attribute, np.asarray(value) if isinstance(value, list) else value)
    return fitted


class LoadedModel:
    """A fitted linear model read from a model file: predicts like the estimator that was saved.

    Attributes
    ----------
    coef_ : ndarray (1, d) for two classes, (k, d) one-vs-rest for k > 2 (object array of Fractions
        for exact models).
    intercept_ : ndarray (1,) or (k,).
    classes_ : ndarray of the labels; ``classes_[1]`` is the positive class of a binary model.
    w, b : the binary model's weight vector and intercept (as in a :class:`~perceptronlab.Run`).
    algorithm, params, exact, training, n_features_in_, document : as stored.
    scaler : the fitted scikit-learn scaler applied before scoring (the file's ``"preprocessing"``),
        or None.

    Examples
    --------
    An exact run keeps its weights as fractions in the file and in the loaded model:

    >>> import tempfile
    >>> from pathlib import Path
    >>> from perceptronlab import load_model, perceptron, save_model
    >>> run = perceptron([[1, 0], [1, 1], [0, 1]], [1, -1, -1], exact=True)
    >>> path = save_model(run, Path(tempfile.mkdtemp()) / "exam.json")
    >>> model = load_model(path)
    >>> type(model).__name__, [str(w) for w in model.w], model.predict([[3, 1], [0, 1]]).tolist()
    ('LoadedModel', ['1', '-2'], [1, -1])
    """

    def __init__(self, document: dict, *, source: str = "model document"):
        self.document = document

        def bad(field: str, expected: str, got: str) -> InputError:
            return bad_model(source, field, expected, got)

        exact = document.get("exact", False)
        if not isinstance(exact, bool):
            raise bad("exact", "true or false", repr(exact))
        self.exact = exact
        self.algorithm = document.get("algorithm")
        if not isinstance(self.algorithm, str):
            raise bad("algorithm", "a string", repr(self.algorithm))
        self.estimator = document.get("estimator", "perceptronlab.Run")
        params = document.get("params", {})
        if not isinstance(params, dict):
            raise bad("params", "an object", type(params).__name__)
        self.params = dict(params)
        if exact:
            for key in ("eta", "margin"):
                if isinstance(self.params.get(key), str):
                    try:
                        self.params[key] = parse_exact(self.params[key], f"params.{key}")
                    except InputError:
                        pass  # a parameter is a record of the training, not needed to predict
        training = document.get("training", {})
        self.training = training if isinstance(training, dict) else {}
        classes = document.get("classes")
        if not isinstance(classes, list) or len(classes) < 2 or \
                any(isinstance(c, dict | list) or c is None for c in classes):
            raise bad("classes", "a list of at least two labels", repr(classes))
        if len({repr(c) for c in classes}) != len(classes):
            raise bad("classes", "distinct labels", repr(classes))
        self.classes_ = np.asarray(classes)
        n_features = document.get("n_features")
        if isinstance(n_features, bool) or not isinstance(n_features, int) or n_features < 1:
            raise bad("n_features", "an integer >= 1", repr(n_features))
        self.n_features_in_ = n_features
        w, b = document.get("w"), document.get("b")
        binary = len(classes) == 2
        rows = [w] if binary else w
        intercepts = [b] if binary else b
        if not isinstance(rows, list) or not all(isinstance(r, list) for r in rows):
            raise bad("w", "a list of numbers" if binary else "a list of rows, one per class",
                             repr(w)[:60])
        if not binary and len(rows) != len(classes):
            raise bad("w", f"{len(classes)} rows (one per class)", f"{len(rows)} rows")
        if any(len(r) != n_features for r in rows):
            raise bad("w", f"{n_features} weights per row (n_features)",
                             ", ".join(str(len(r)) for r in rows))
        if not isinstance(intercepts, list) or len(intercepts) != len(rows):
            raise bad("b", "a number" if binary else f"a list of {len(rows)} numbers", repr(b)[:60])
        dtype = object if exact else np.float64
        self.coef_ = np.array([[_parse_weight(v, "w", exact, source) for v in r] for r in rows], dtype=dtype)
        self.intercept_ = np.array([_parse_weight(v, "b", exact, source) for v in intercepts], dtype=dtype)
        preprocessing = document.get("preprocessing")
        if preprocessing is not None and exact:
            raise bad("preprocessing", "no scaler in an exact model (exact models take the data as written)",
                      "a scaler")
        self.scaler = None if preprocessing is None else scaler_from_document(preprocessing, n_features, source)

    # ------------------------------------------------------------ binary views
    @property
    def w(self) -> Any:
        """The weight vector of a binary model (a list of Fractions when exact)."""
        if self.coef_.shape[0] != 1:
            raise AttributeError("w: a one-vs-rest model has one weight row per class; use coef_.")
        return self.coef_[0].tolist() if self.exact else self.coef_[0]

    @property
    def b(self) -> Any:
        if self.coef_.shape[0] != 1:
            raise AttributeError("b: a one-vs-rest model has one intercept per class; use intercept_.")
        return self.intercept_[0]

    @property
    def fit_intercept(self) -> bool:
        return bool(self.params.get("fit_intercept", False))

    def __repr__(self) -> str:
        return (f"LoadedModel(algorithm={self.algorithm!r}, n_features={self.n_features_in_}, "
                f"classes={self.classes_.tolist()!r}, exact={self.exact})")

    # ------------------------------------------------------------ prediction
    def _check_X(self, X: Any) -> Any:
        if self.exact:
            rows = check_exact_matrix(X)
            check_n_features(len(rows[0]), self.n_features_in_, "the loaded model")
            return rows
        Xc = check_matrix(X)
        check_n_features(Xc.shape[1], self.n_features_in_, "the loaded model")
        return apply_scaler(self.scaler, Xc)

    def decision_function(self, X: Any) -> np.ndarray:
        """⟨w,x⟩ + b for each row: shape (n,) for two classes, (n, k) one-vs-rest.

        Summed as the training kernels sum (feature order), so the scores are bit for bit those
        of the model that was saved. Exact models compute with Fractions (float inputs taken at
        their exact value).
        """
        scores = score_matrix(self._check_X(X), self.coef_, self.intercept_)
        return scores[:, 0] if self.coef_.shape[0] == 1 else scores

    def predict(self, X: Any) -> np.ndarray:
        """``classes_[1]`` where ⟨w,x⟩ + b > 0, else ``classes_[0]`` (ties go to the negative class,
        as in scikit-learn); one-vs-rest: the class of the largest score."""
        return labels(self.decision_function(X), self.classes_)
