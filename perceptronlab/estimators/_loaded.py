"""Models read back from model files: :func:`load_model` and :class:`LoadedModel`.

A float model saved from a run of ``perceptron``/``pocket`` or from :class:`Perceptron` /
:class:`PocketPerceptron` comes back as that estimator, fitted; everything else (exact models,
online models, other libraries' linear models) as a :class:`LoadedModel`. Both score with the
core's one decision path, so a saved-then-loaded model scores bit for bit like the one saved.
"""

from __future__ import annotations

import copy
import os
from typing import TYPE_CHECKING, Any, Literal, overload

import numpy as np

from perceptronlab._ground.validation import (
    ESTIMATOR_NAMES,
    check_exact_matrix,
    check_matrix,
    check_n_features,
    fail,
)
from perceptronlab.core.scores import labels, score_matrix
from perceptronlab.estimators._linear import Perceptron, PocketPerceptron
from perceptronlab.io.models import check_model_document, model_source, read_model_document
from perceptronlab.preprocessing import apply_scaler

if TYPE_CHECKING:
    from numpy.typing import NDArray

    from perceptronlab._ground.types import Float64Array, MatrixLike

__all__ = ["LoadedModel", "load_model"]

_LINEAR = {"Perceptron": Perceptron, "PocketPerceptron": PocketPerceptron}


@overload
def load_model(path: str | os.PathLike[str], *, as_estimator: Literal[False]) -> LoadedModel: ...


@overload
def load_model(path: str | os.PathLike[str], *, as_estimator: bool = True) -> Any: ...


def load_model(path: str | os.PathLike[str], *, as_estimator: bool = True) -> Any:
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
        ``predict`` and ``decision_function`` (and ``feature_names_in_`` when the file stores the
        feature names). Exact models (Fractions kept), online models and models saved from other
        libraries load as :class:`LoadedModel`. A model saved with a scaler (``"preprocessing"``)
        loads as a scikit-learn ``Pipeline([scaler, estimator])`` when the estimator is one of
        perceptronlab's above, else (and with ``as_estimator=False``) as a :class:`LoadedModel`,
        which applies the scaler itself.

    Raises
    ------
    InputError
        Missing, empty, truncated or corrupt file; not JSON; a foreign JSON document; a wrong
        ``format`` tag; a ``version`` newer than this perceptronlab reads; a field that breaks the
        contract of :func:`perceptronlab.io.check_model_document`.
    """
    loaded = LoadedModel(read_model_document(path), source=model_source(path))
    return _as_estimator(loaded) if as_estimator else loaded


_ESTIMATOR_OF = {"perceptron": "Perceptron", "pocket": "PocketPerceptron"}


def _as_estimator(model: LoadedModel) -> Any:
    """The perceptronlab estimator with the loaded weights, where one fits; else ``model`` itself;
    behind its scaler in a ``Pipeline`` when it has one."""
    if model.scaler is not None:
        from sklearn.pipeline import make_pipeline

        bare = copy.copy(
            model
        )  # the same weights without the scaler (the document is checked already)
        bare.document = {
            k: v for k, v in model.document.items() if k not in ("preprocessing", "feature_names")
        }
        bare.scaler = None
        vars(bare).pop("feature_names_in_", None)
        if hasattr(model, "feature_names_in_"):  # the pipeline's first step sees the named columns
            model.scaler.feature_names_in_ = model.feature_names_in_
        estimator = _as_estimator(bare)
        if isinstance(
            estimator, LoadedModel
        ):  # no scikit-learn estimator to put behind the scaler (a
            return (
                model  # pipeline would refuse it): the LoadedModel, which applies the scaler itself
            )
        return make_pipeline(model.scaler, estimator)
    name = _ESTIMATOR_OF.get(model.algorithm)
    if (
        model.exact
        or name is None
        or model.estimator not in ("perceptronlab.Run", f"perceptronlab.estimators.{name}")
    ):
        return model
    cls = _LINEAR[name]
    accepted = cls().get_params(deep=False)
    params = {k: model.params[k] for k in accepted if k in model.params}
    for (
        old,
        new,
    ) in ESTIMATOR_NAMES.items():  # files of 0.1.0 and of runs: the functional API's names
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
    if hasattr(model, "feature_names_in_"):
        fitted.feature_names_in_ = model.feature_names_in_
    for key, attribute in (
        ("mistakes", "n_mistakes_"),
        ("sweeps", "n_sweeps_"),
        ("converged", "converged_"),
        ("pocket_errors", "pocket_errors_"),
    ):
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
    feature_names_in_ : ndarray of the feature names, when the file stores them (a DataFrame given
        to ``predict`` then has its columns taken by name).
    label_name : the label column's name at training, or None.
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

    def __init__(self, document: dict[str, Any], *, source: str = "model document") -> None:
        fields = check_model_document(document, source)
        self.document = document
        self.exact = fields["exact"]
        self.algorithm = fields["algorithm"]
        self.estimator = fields["estimator"]
        self.params = fields["params"]
        self.training = fields["training"]
        self.classes_ = fields["classes"]
        self.n_features_in_ = fields["n_features"]
        if fields["feature_names"] is not None:
            self.feature_names_in_ = np.asarray(fields["feature_names"], dtype=object)
        self.label_name = fields["label_name"]
        self.coef_ = fields["coef"]
        self.intercept_ = fields["intercept"]
        self.scaler = fields["scaler"]

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
            raise AttributeError(
                "b: a one-vs-rest model has one intercept per class; use intercept_."
            )
        return self.intercept_[0]

    @property
    def fit_intercept(self) -> bool:
        return bool(self.params.get("fit_intercept", False))

    def __repr__(self) -> str:
        return (
            f"LoadedModel(algorithm={self.algorithm!r}, n_features={self.n_features_in_}, "
            f"classes={self.classes_.tolist()!r}, exact={self.exact})"
        )

    # ------------------------------------------------------------ prediction
    def _check_X(self, X: Any) -> Any:
        if hasattr(X, "columns") and hasattr(X, "to_numpy"):  # a DataFrame: its columns by name
            X = self._by_name(X)
        if self.exact:
            rows = check_exact_matrix(X)
            check_n_features(len(rows[0]), self.n_features_in_, "the loaded model")
            return rows
        Xc = check_matrix(X)
        check_n_features(Xc.shape[1], self.n_features_in_, "the loaded model")
        return apply_scaler(self.scaler, Xc)

    def _by_name(self, frame: Any) -> NDArray[Any]:
        names = getattr(self, "feature_names_in_", None)
        if names is None:
            values: NDArray[Any] = frame.to_numpy()
            return values
        columns = [str(c) for c in frame.columns]
        missing = [n for n in names if n not in columns]
        if missing:
            raise fail(
                "X",
                "the columns the model was trained on (" + ", ".join(map(repr, names)) + ")",
                "no column " + ", ".join(map(repr, missing)),
                "Pass a DataFrame with those columns.",
            )
        named: NDArray[Any] = frame[list(names)].to_numpy()
        return named

    def decision_function(self, X: MatrixLike) -> Float64Array:
        """⟨w,x⟩ + b for each row: shape (n,) for two classes, (n, k) one-vs-rest.

        Summed as the training kernels sum (feature order), so the scores are bit for bit those
        of the model that was saved. Exact models compute with Fractions (float inputs taken at
        their exact value).
        """
        scores = score_matrix(self._check_X(X), self.coef_, self.intercept_)
        return scores[:, 0] if self.coef_.shape[0] == 1 else scores

    def predict(self, X: MatrixLike) -> NDArray[Any]:
        """``classes_[1]`` where ⟨w,x⟩ + b > 0, else ``classes_[0]`` (ties go to the negative class,
        as in scikit-learn); one-vs-rest: the class of the largest score."""
        return labels(self.decision_function(X), self.classes_)
