"""Model files: JSON, never pickle, written atomically and read back through one contract.

Data: :func:`read_data` reads CSV (with a header), LIBSVM/svmlight, ``.npy`` and ``.npz`` into
``(X, y)``. Models: :func:`save_model` writes JSON, never pickle, and :func:`perceptronlab.load_model`
reads it back (through :func:`read_model_document` and the contract :func:`check_model_document`), so a
model file is safe to open, diff and read by eye. Every bad file (missing, empty, truncated,
corrupt, foreign, from a newer version) gets one clear :class:`~perceptronlab.exceptions.InputError`
that says what was wrong, what was expected, what came and how to fix it.

Limits: every reader works out the memory a file needs from what it declares or implies (rows ×
columns, a LIBSVM feature index, an .npy header, an .npz archive's sizes) and refuses it before
allocating when it exceeds the budget (``max_bytes``; :mod:`perceptronlab._ground.memory`). Models are
written atomically (:mod:`perceptronlab._ground.files`).

Model file layout (``"version": 1``)::

    {"format": "perceptronlab-model", "version": 1,
     "algorithm": "perceptron", "estimator": "Run", "exact": true,
     "params": {"eta": "1", "fit_intercept": false, ...},
     "n_features": 2, "classes": [-1, 1],
     "w": ["1", "-2"], "b": "0",
     "training": {"mistakes": 5, "sweeps": 4, "converged": true, ...},
     "perceptronlab_version": "0.1.0"}

Optional: ``"preprocessing"``, a fitted scaler applied before every prediction (the format of
:mod:`perceptronlab.preprocessing`: ``{"version": 1, "scaler": "standard", "mean": [...], "scale": [...]}``);
``"feature_names": ["x1", "x2"]`` and ``"label_name": "y"`` (the CSV columns at training: prediction
then takes the columns by name, so a label column is never read as a feature); ``"table"``, the
recipe that made a raw table's columns into the features (:mod:`perceptronlab.io.table`: the columns
chosen, each a number or a category with its categories, and the values that fill missing cells),
applied to a raw file by ``perceptronlab predict`` and ``evaluate``. Files without them load as
before.

``w`` is one list for two classes and a list of lists (one row per class, one-vs-rest) for more;
``b`` is then a list too. Exact weights (``fractions.Fraction``) are stored as strings ``"p/q"``
(or ``"p"``) and load back as Fractions; float weights are JSON numbers (shortest round-trip form,
so they load back bit for bit).
"""

from __future__ import annotations

import json
import math
import numbers
import os
from collections.abc import Callable, Sequence
from fractions import Fraction
from pathlib import Path
from typing import TYPE_CHECKING, Any, NamedTuple, TypeAlias

import numpy as np

from perceptronlab._ground.files import atomic_write, check_readable_file
from perceptronlab._ground.memory import check_budget, format_bytes
from perceptronlab._ground.numbers import int_text, parse_exact, shown_value, to_float
from perceptronlab._ground.validation import fail
from perceptronlab._version import __version__
from perceptronlab.core.run import Run
from perceptronlab.exceptions import InputError
from perceptronlab.preprocessing import scaler_from_document

if TYPE_CHECKING:
    pass

#: how the model-document checks build their errors: bad(field, expected, got)
_Bad: TypeAlias = Callable[[str, str, str], InputError]

__all__ = [
    "save_model",
    "read_model_document",
    "check_model_document",
    "MODEL_FORMAT",
    "MODEL_VERSION",
]


MODEL_FORMAT = "perceptronlab-model"
MODEL_VERSION = 1


# ================================================================ models

#: a model file's JSON takes about this many bytes in memory per byte of text, at most
JSON_BYTES_PER_BYTE = 24
#: the ``training`` fields the loader reads, and the values each may hold (one per class for one-vs-rest)
_TRAINING_COUNTS = ("mistakes", "sweeps", "pocket_errors")
_TRAINING_FLAGS = ("converged", "cycled")


def _number_to_json(value: Any) -> Any:
    """A weight for JSON: Fractions as exact strings, floats as numbers (must be finite)."""
    if isinstance(value, Fraction):
        return str(value)
    if isinstance(value, bool | np.bool_):
        return bool(value)
    if isinstance(value, numbers.Integral):
        return int(value)
    value = float(value)
    if not math.isfinite(value):
        raise fail(
            "the model's weights",
            "finite numbers",
            value,
            "Train again on scaled data; a model with inf or NaN weights cannot be saved.",
        )
    return value


def _weights_to_json(row: Any) -> list[Any]:
    """A row of weights for JSON, each as :func:`_number_to_json` writes it; a float array at once
    (a hashed model's million weights in a fraction of a second)."""
    if isinstance(row, np.ndarray) and row.dtype.kind == "f":
        row = row.astype(np.float64).tolist()
    if all(type(v) is float for v in row) and all(map(math.isfinite, row)):
        return list(row)
    return [_number_to_json(v) for v in row]  # exact, integer, or with the one bad weight


def _plain(value: Any) -> Any:
    """Parameters and labels as plain JSON values (Fractions as strings)."""
    if isinstance(value, Fraction):
        return str(value)
    if isinstance(value, np.generic):
        return value.item()
    if isinstance(value, np.ndarray):
        return [_plain(v) for v in value.tolist()]
    if isinstance(value, list | tuple):
        return [_plain(v) for v in value]
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, float) and not math.isfinite(value):
        return str(value)
    if value is None or isinstance(value, bool | int | float | str):
        return value
    return repr(value)


class _Saved(NamedTuple):
    """What a model file records of a model, before it is written as JSON."""

    rows: list[Any]
    intercepts: list[Any]
    classes: list[Any]
    algorithm: Any
    estimator: str
    params: dict[str, Any]
    exact: bool
    training: dict[str, Any]


def _model_document(model: Any) -> dict[str, Any]:
    if isinstance(model, Run):
        saved = _saved_run(model)
    elif hasattr(model, "coef_") and hasattr(model, "classes_"):
        saved = _saved_estimator(model)
    else:
        raise fail(
            "model",
            "a perceptronlab Run or a fitted estimator (with coef_, intercept_, classes_)",
            type(model).__name__,
            "Pass the result of perceptronlab.perceptron/pocket or a fitted estimator.",
        )
    rows, intercepts, classes, algorithm, estimator, params, exact, training = saved
    n_features = _check_rows(rows, intercepts, classes)
    w_json = [_weights_to_json(row) for row in rows]
    b_json = [_number_to_json(v) for v in intercepts]
    params = {k: _plain(v) for k, v in params.items() if not callable(v)}
    binary = len(w_json) == 1
    document = {
        "format": MODEL_FORMAT,
        "version": MODEL_VERSION,
        "algorithm": str(algorithm),
        "estimator": estimator,
        "exact": exact,
        "params": params,
        "n_features": n_features,
        "classes": _plain(classes),
        "w": w_json[0] if binary else w_json,
        "b": b_json[0] if binary else b_json,
        "training": training,
        "perceptronlab_version": __version__,
    }
    names = getattr(model, "feature_names_in_", None)
    if names is not None:
        document["feature_names"] = [str(name) for name in np.asarray(names).tolist()]
    return document


def _saved_run(model: Run) -> _Saved:
    """A Run's rows (a two-class multiclass run as the binary file's one row), classes and record."""
    w = model.w
    classes = list(model.classes) if getattr(model, "classes", None) is not None else [-1, 1]
    if np.ndim(w) == 2 and len(w) == 2 == len(classes):
        # the multiclass perceptron on two classes: classes[1] wins where ⟨w₁ − w₀, x⟩ + b₁ − b₀ > 0,
        # which is the binary file's one row
        rows, intercepts = [(w[1] - w[0]).tolist()], [model.b[1] - model.b[0]]
    elif np.ndim(w) == 2:  # the multiclass perceptron: one row per class, the highest score wins
        rows, intercepts = [row.tolist() for row in w], list(np.asarray(model.b).tolist())
    else:
        rows, intercepts = [w.tolist()], [model.b]
    algorithm, estimator, params, exact = (
        model.algorithm,
        "perceptronlab.Run",
        dict(model.params),
        bool(model.exact),
    )
    training = {
        "mistakes": int(model.mistakes),
        "sweeps": int(model.sweeps),
        "converged": bool(model.converged),
        "cycled": bool(model.cycled),
    }
    if model.pocket_errors is not None:
        training["pocket_errors"] = int(model.pocket_errors)
    return _Saved(rows, intercepts, classes, algorithm, estimator, params, exact, training)


def _saved_estimator(model: Any) -> _Saved:
    """A fitted estimator's rows, classes, parameters and training counts (those it has)."""
    coef = np.asarray(model.coef_) if not isinstance(model.coef_, np.ndarray) else model.coef_
    if coef.ndim == 1:
        coef = coef.reshape(1, -1)
    intercept = np.atleast_1d(np.asarray(getattr(model, "intercept_", np.zeros(coef.shape[0]))))
    rows = [r.tolist() for r in coef]
    intercepts = intercept.tolist()
    classes = list(np.asarray(model.classes_).tolist())
    estimator = f"{type(model).__module__}.{type(model).__qualname__}"
    name = type(model).__name__
    algorithm = getattr(model, "algorithm", None) or (
        "pocket" if "Pocket" in name else "online" if "Online" in name else "perceptron"
    )
    params = (
        model.get_params(deep=False)
        if hasattr(model, "get_params")
        else dict(getattr(model, "params", None) or {})
    )
    exact = bool(getattr(model, "exact", False)) or coef.dtype.kind == "O"
    training = {}
    for name, key in (
        ("n_mistakes_", "mistakes"),
        ("n_sweeps_", "sweeps"),
        ("converged_", "converged"),
        ("pocket_errors_", "pocket_errors"),
    ):
        if hasattr(model, name):
            try:
                training[key] = _plain(getattr(model, name))
            except Exception:  # pragma: no cover - exotic attribute types are just left out
                pass
    return _Saved(rows, intercepts, classes, algorithm, estimator, params, exact, training)


def _check_rows(rows: list[Any], intercepts: list[Any], classes: list[Any]) -> int:
    """One intercept per row; one row for two classes, else one per class. Returns n_features."""
    if len(rows) != len(intercepts):
        raise fail(
            "model",
            "one intercept per weight row",
            f"{len(rows)} rows, {len(intercepts)} intercepts",
            "Fit the model again.",
        )
    n_features = len(rows[0])
    if len(classes) == 2 and len(rows) != 1:
        raise fail(
            "model", "one weight row for two classes", f"{len(rows)} rows", "Fit the model again."
        )
    if len(classes) > 2 and len(rows) != len(classes):
        raise fail(
            "model",
            f"one weight row per class ({len(classes)})",
            f"{len(rows)} rows",
            "Fit the model again.",
        )
    return n_features


def save_model(
    model: Any,
    path: str | os.PathLike[str],
    *,
    scaler: Any = None,
    feature_names: Sequence[str] | None = None,
    label_name: str | None = None,
    table: dict[str, Any] | None = None,
) -> Path:
    """Save a run or a fitted estimator as a JSON model file (never pickle).

    The document is checked against the same contract :func:`load_model` checks, and written
    atomically: to a unique temporary file in the target's folder, then moved over the target in
    one step (an existing file keeps its permissions; a symbolic link is written through).

    Parameters
    ----------
    model : a :class:`~perceptronlab.Run` (from ``perceptron``/``pocket``), a fitted estimator
        with ``coef_``, ``intercept_`` and ``classes_`` (perceptronlab's or scikit-learn's), a
        :class:`perceptronlab.estimators.LoadedModel`, or a fitted scikit-learn
        ``Pipeline([scaler, estimator])`` with a ``StandardScaler`` or ``MaxAbsScaler``.
    path : where to write; parent folders must exist.
    scaler : the fitted ``StandardScaler`` or ``MaxAbsScaler`` the model was trained behind
        (:func:`perceptronlab.preprocessing.fit_scaler`); it is stored in the file and applied again by
        :func:`perceptronlab.load_model`'s model before every prediction.
    feature_names : the names of the features, in the order of the weights (a CSV file's header
        without the label column); stored so that prediction takes the right columns by name.
        Default: the estimator's ``feature_names_in_`` (set by scikit-learn-style estimators fitted
        on a DataFrame), if any.
    label_name : the name of the label column the model was trained on, if any.
    table : the recipe of :func:`perceptronlab.io.table.fit_recipe` (the columns chosen, their
        fill values and categories) that made a raw table into the features; stored so that
        prediction applies it to a raw file with the same header.

    Returns
    -------
    Path
        The path written.

    Examples
    --------
    >>> import tempfile, pathlib
    >>> from perceptronlab import load_model, perceptron
    >>> run = perceptron([[1, 0], [1, 1], [0, 1]], [1, -1, -1], exact=True)
    >>> path = save_model(run, pathlib.Path(tempfile.mkdtemp()) / "exam.json", feature_names=["x1", "x2"])
    >>> model = load_model(path)
    >>> model.w, model.predict([[1, 0], [0, 1]]).tolist(), model.feature_names_in_.tolist()
    ([Fraction(1, 1), Fraction(-2, 1)], [1, -1], ['x1', 'x2'])
    """
    document = model_document(
        model, scaler=scaler, feature_names=feature_names, label_name=label_name, table=table
    )
    text = json.dumps(document, indent=2, allow_nan=False)
    atomic_write(path, text + "\n", what="model path")
    return Path(path)


def model_document(
    model: Any,
    *,
    scaler: Any = None,
    feature_names: Sequence[str] | None = None,
    label_name: str | None = None,
    table: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """The JSON document :func:`save_model` writes (checked against the contract), without writing it."""
    from perceptronlab.preprocessing import scaler_to_document, split_pipeline

    piped, model = split_pipeline(model)
    scaler = piped if scaler is None else scaler
    document = dict(model.document) if hasattr(model, "document") else _model_document(model)
    if scaler is not None:
        document["preprocessing"] = scaler_to_document(scaler, document["n_features"])
    if feature_names is not None:
        document["feature_names"] = [str(name) for name in feature_names]
    if label_name is not None:
        document["label_name"] = str(label_name)
    if table is not None:
        document["table"] = table
    check_model_document(document, "the model to save")
    return document


_DAMAGED = "The file is damaged or was edited by hand; save the model again."


def _parse_weight(value: Any, field: str, exact: bool, source: str) -> Any:
    if isinstance(value, bool) or not isinstance(value, int | float | str):
        raise bad_model(source, field, "numbers (or exact strings like '1/3')", _shown(value))
    if isinstance(value, float) and not math.isfinite(value):  # NaN, Infinity and 1e309 in the JSON
        raise bad_model(source, field, "finite numbers", repr(value))
    what = f"{source}, field {field!r}"
    number = parse_exact(
        value, what, expected="numbers (or exact strings like '1/3')", fix=_DAMAGED
    )
    return number if exact else to_float(number, what, _DAMAGED)


def _parse_weights(values: list[Any], field: str, exact: bool, source: str) -> Any:
    """A row of weights as :func:`_parse_weight` reads each; a row of finite JSON floats for a
    float model at once (the values it would give: a float read exactly and converted back)."""
    if not exact and all(type(v) is float for v in values):
        row = np.array(values, dtype=np.float64)
        if np.isfinite(row).all():
            return row
    return [_parse_weight(v, field, exact, source) for v in values]


def bad_model(source: str, field: str, expected: str, got: str) -> InputError:
    """A malformed field of a model document."""
    return fail(f"{source}, field {field!r}", expected, got, _DAMAGED)


def model_source(path: str | os.PathLike[str]) -> str:
    """How messages name a model file."""
    return f"model file {str(Path(path))!r}"


def _shown(value: Any) -> str:
    return shown_value(value, cut=60)


def _label_kind(value: Any) -> str | None:
    """The type of a class label in a model file (None for a value that cannot be a label)."""
    if isinstance(value, bool):
        return "booleans"
    if isinstance(value, int):
        return "integers"
    if isinstance(value, float):
        return "numbers" if math.isfinite(value) else None
    if isinstance(value, str):
        return "strings"
    return None


def _check_classes(classes: Any, bad: _Bad) -> list[Any]:
    if not isinstance(classes, list) or len(classes) < 2:
        raise bad("classes", "a list of at least two labels", _shown(classes))
    kinds = [_label_kind(c) for c in classes]
    if None in kinds:
        odd = classes[kinds.index(None)]
        raise bad(
            "classes", "labels that are strings, integers, booleans or finite numbers", _shown(odd)
        )
    found = {kind for kind in kinds if kind is not None}  # every kind, after the check above
    if len(found) > 1:
        raise bad(
            "classes",
            "labels of one type (all strings, all integers, all booleans or all numbers)",
            f"{_shown(classes)} (mixed " + " and ".join(sorted(found)) + ")",
        )
    if len(set(classes)) != len(classes):
        raise bad("classes", "distinct labels", _shown(classes))
    return classes


def _check_training(training: Any, bad: _Bad) -> dict[str, Any]:
    if not isinstance(training, dict):
        raise bad(
            "training", "an object (the run's mistakes, sweeps, ...)", type(training).__name__
        )
    for key in _TRAINING_COUNTS + _TRAINING_FLAGS:
        if key not in training or training[key] is None:
            continue
        value = training[key]
        values = value if isinstance(value, list) else [value]
        if key in _TRAINING_COUNTS:
            ok = all(isinstance(v, int) and not isinstance(v, bool) and v >= 0 for v in values)
            expected = "a count (an integer >= 0), or one per class"
        else:
            ok = all(isinstance(v, bool) for v in values)
            expected = "true or false, or one per class"
        if not values or not ok:
            raise bad(f"training.{key}", expected, _shown(value))
    return dict(training)


def _check_names(
    document: dict[str, Any], n_features: int, bad: _Bad
) -> tuple[list[str] | None, str | None]:
    names = document.get("feature_names")
    if names is not None:
        if not isinstance(names, list) or not all(isinstance(n, str) and n for n in names):
            raise bad("feature_names", "a list of column names (non-empty strings)", _shown(names))
        if len(names) != n_features:
            raise bad("feature_names", f"{n_features} names (n_features)", f"{len(names)} names")
        if len(set(names)) != len(names):
            raise bad("feature_names", "distinct names", _shown(names))
    label_name = document.get("label_name")
    if label_name is not None and not isinstance(label_name, str):
        raise bad("label_name", "the label column's name (a string)", _shown(label_name))
    if names is not None and label_name in names:
        raise bad("label_name", "a column that is not a feature", repr(label_name))
    return names, label_name


def check_model_document(document: Any, source: str = "model document") -> dict[str, Any]:
    """Check a model document against the model-file contract; return its fields, parsed.

    The contract: ``exact`` a boolean; ``algorithm`` and ``estimator`` strings; ``params`` and
    ``training`` objects (the counts integers >= 0, the flags booleans, one per class allowed);
    at least two ``classes``, distinct, of one type (strings, integers, booleans or finite
    numbers: ``[1, 1.0]``, ``[true, 1]`` and NaN are refused); ``n_features`` >= 1; ``w`` one row
    (two classes) or one row per class of ``n_features`` finite numbers (or exact strings such as
    ``"1/3"``), ``b`` one finite number per row; optional ``feature_names`` (``n_features``
    distinct names) and ``label_name``; an optional ``preprocessing`` scaler (float models only,
    checked by :func:`perceptronlab.preprocessing.scaler_from_document`).

    Parameters
    ----------
    document : the parsed JSON (a dict).
    source : how messages name the document (``"model file 'm.json'"``).

    Returns
    -------
    dict
        ``exact``, ``algorithm``, ``estimator``, ``params``, ``training``, ``classes`` (ndarray),
        ``n_features``, ``feature_names`` (list or None), ``label_name`` (str or None), ``coef``
        and ``intercept`` (ndarrays; Fractions in object arrays when exact), ``scaler`` (a fitted
        scikit-learn scaler, or None), ``table`` (the recipe, or None).

    Raises
    ------
    InputError
        The first field that breaks the contract, named, with what it holds.

    Examples
    --------
    >>> document = {"format": "perceptronlab-model", "version": 1, "algorithm": "perceptron",
    ...             "n_features": 2, "classes": [-1, 1], "w": [1.0, -2.0], "b": 0.0}
    >>> check_model_document(document)["coef"].tolist()
    [[1.0, -2.0]]
    >>> check_model_document({**document, "classes": [1, 1.0]})
    Traceback (most recent call last):
    ...
    perceptronlab.exceptions.InputError: model document, field 'classes': expected labels of one type \
(all strings, all integers, all booleans or all numbers), got [1, 1.0] (mixed integers and numbers). \
The file is damaged or was edited by hand; save the model again.
    """

    def bad(field: str, expected: str, got: str) -> InputError:
        return bad_model(source, field, expected, got)

    if not isinstance(document, dict):
        raise fail(source, "a JSON object", type(document).__name__, "Save the model again.")
    exact, algorithm, estimator = _check_header(document, bad)
    params = _check_params(document.get("params", {}), exact, bad)
    training = _check_training(document.get("training", {}), bad)
    classes = _check_classes(document.get("classes"), bad)
    n_features = document.get("n_features")
    if isinstance(n_features, bool) or not isinstance(n_features, int) or n_features < 1:
        raise bad("n_features", "an integer >= 1", _shown(n_features))
    feature_names, label_name = _check_names(document, n_features, bad)
    scaler, table = _check_inputs(document, exact, n_features, source, bad)
    coef, intercept = _check_weights(document, len(classes), n_features, exact, source, bad)
    return {
        "exact": exact,
        "algorithm": algorithm,
        "estimator": estimator,
        "params": params,
        "training": training,
        "classes": np.asarray(classes),
        "n_features": n_features,
        "feature_names": feature_names,
        "label_name": label_name,
        "coef": coef,
        "intercept": intercept,
        "scaler": scaler,
        "table": table,
    }


def _check_header(document: dict[str, Any], bad: _Bad) -> tuple[bool, str, str]:
    """The document's ``exact`` flag, ``algorithm`` and ``estimator``."""
    exact = document.get("exact", False)
    if not isinstance(exact, bool):
        raise bad("exact", "true or false", _shown(exact))
    algorithm = document.get("algorithm")
    if not isinstance(algorithm, str):
        raise bad("algorithm", "a string", _shown(algorithm))
    estimator = document.get("estimator", "perceptronlab.Run")
    if not isinstance(estimator, str):
        raise bad("estimator", "a string (the class that was saved)", _shown(estimator))
    return exact, algorithm, estimator


def _check_params(document_params: Any, exact: bool, bad: _Bad) -> dict[str, Any]:
    """The training's parameters (an exact model's η and ρ₀ as Fractions where they parse)."""
    if not isinstance(document_params, dict):
        raise bad("params", "an object", type(document_params).__name__)
    params: dict[str, Any] = dict(document_params)
    if exact:
        for key in ("eta", "margin"):
            if isinstance(params.get(key), str):
                try:
                    params[key] = parse_exact(params[key], f"params.{key}")
                except InputError:
                    pass  # a parameter is a record of the training, not needed to predict
    return params


def _check_inputs(
    document: dict[str, Any], exact: bool, n_features: int, source: str, bad: _Bad
) -> tuple[Any, Any]:
    """The optional ``preprocessing`` scaler (fitted) and ``table`` recipe: float models only."""
    preprocessing = document.get("preprocessing")
    if preprocessing is not None and exact:
        raise bad(
            "preprocessing",
            "no scaler in an exact model (exact models take the data as written)",
            "a scaler",
        )
    if isinstance(preprocessing, dict):
        _check_scaler_magnitudes(preprocessing, bad)
    scaler = (
        None if preprocessing is None else scaler_from_document(preprocessing, n_features, source)
    )
    table = document.get("table")
    if table is not None:
        from perceptronlab.io.table import check_recipe

        if exact:
            raise bad("table", "no table recipe in an exact model", "a recipe")
        table = check_recipe(table, n_features, bad)
    return scaler, table


def _check_weights(
    document: dict[str, Any], n_classes: int, n_features: int, exact: bool, source: str, bad: _Bad
) -> tuple[np.ndarray, np.ndarray]:
    """``w`` and ``b`` as arrays (one row per class, or one for two classes): the right shape, and
    finite numbers (exact strings in an exact model)."""
    w, b = document.get("w"), document.get("b")
    binary = n_classes == 2
    rows = [w] if binary else w
    intercepts = [b] if binary else b
    if not isinstance(rows, list) or not all(isinstance(r, list) for r in rows):
        raise bad(
            "w", "a list of numbers" if binary else "a list of rows, one per class", _shown(w)
        )
    if not binary and len(rows) != n_classes:
        raise bad("w", f"{n_classes} rows (one per class)", f"{len(rows)} rows")
    if any(len(r) != n_features for r in rows):
        lengths = ", ".join(str(len(r)) for r in rows[:10]) + (", ..." if len(rows) > 10 else "")
        raise bad("w", f"{n_features} weights per row (n_features)", lengths)
    if not isinstance(intercepts, list) or len(intercepts) != len(rows):
        raise bad("b", "a number" if binary else f"a list of {len(rows)} numbers", _shown(b))
    dtype = object if exact else np.float64
    coef = np.array([_parse_weights(r, "w", exact, source) for r in rows], dtype=dtype)
    intercept = np.array([_parse_weight(v, "b", exact, source) for v in intercepts], dtype=dtype)
    return coef, intercept


#: the scaler's numbers of a model file lie within these magnitudes (a scale of 1e-320 would blow
#: every feature past the float range; an integer of 401 digits is past it already)
SCALER_LARGEST = 1e300
SCALER_SMALLEST_SCALE = 1e-300


def _check_scaler_magnitudes(preprocessing: dict[str, Any], bad: _Bad) -> None:
    """Every number of the scaler's ``mean`` and ``scale`` within the float range (and a scale
    large enough to divide by), before the scaler is built from them."""
    for key in ("mean", "scale"):
        values = preprocessing.get(key)
        if not isinstance(values, list):
            continue  # its shape is scaler_from_document's to check
        for index, value in enumerate(values):
            if isinstance(value, bool) or not isinstance(value, int | float):
                continue
            size = abs(value)
            too_small = key == "scale" and 0 < size < SCALER_SMALLEST_SCALE
            if (
                size > SCALER_LARGEST or too_small
            ):  # an int compares with a float without converting
                got = (
                    f"an integer of {len(int_text(value)) - (value < 0):,} digits"
                    if isinstance(value, int)
                    else repr(value)
                )
                raise bad(
                    f"preprocessing.{key}[{index}]",
                    f"a number of magnitude {'1e-300 to ' if key == 'scale' else 'at most '}1e300",
                    got,
                )


def read_model_document(path: str | os.PathLike[str]) -> dict[str, Any]:
    """The JSON document of a model file written by :func:`save_model`, its envelope checked.

    The file must exist, be UTF-8 JSON of a size the memory budget allows, carry ``"format":
    "perceptronlab-model"`` and a ``version`` this perceptronlab reads; the fields inside are the
    contract of :func:`check_model_document`, which the model that reads them
    (:class:`perceptronlab.estimators.LoadedModel`) applies. Load a model with
    :func:`perceptronlab.load_model`.

    Raises
    ------
    InputError
        Missing, empty, truncated or corrupt file; not JSON (or nested too deeply, or with an
        integer of more than 4,300 digits); a foreign JSON document; a wrong ``format`` tag; a
        ``version`` newer than this perceptronlab reads.

    Examples
    --------
    >>> import tempfile
    >>> from pathlib import Path
    >>> from perceptronlab import perceptron, save_model
    >>> from perceptronlab.io import read_model_document
    >>> path = save_model(perceptron([[1, 0], [0, 1]], [1, -1]), Path(tempfile.mkdtemp()) / "m.json")
    >>> document = read_model_document(path)
    >>> document["format"], document["algorithm"], document["w"]
    ('perceptronlab-model', 'perceptron', [1.0, -1.0])
    """
    path = Path(path)
    check_readable_file(path, "model file")
    where = model_source(path)
    size = path.stat().st_size
    check_budget(
        JSON_BYTES_PER_BYTE * size,
        where,
        file_size=size,
        detail=f"the JSON of a {format_bytes(size)} file",
    )
    try:
        text = path.read_text(encoding="utf-8")
    except UnicodeDecodeError:
        raise fail(
            where,
            "UTF-8 JSON text",
            "binary data",
            "Model files are JSON written by perceptronlab.save_model (never pickle).",
        ) from None
    try:
        document = json.loads(text)
    except json.JSONDecodeError as exc:
        raise fail(
            where,
            "valid JSON",
            f"a JSON error at line {exc.lineno}, column {exc.colno} ({exc.msg})",
            "The file is truncated or corrupt; save the model again.",
        ) from None
    except RecursionError:
        raise fail(
            where,
            "a model document",
            "JSON nested too deeply to read",
            "The file is damaged or not a model; save the model again.",
        ) from None
    except ValueError as exc:  # an integer of more than 4,300 digits (Python's limit for int(text))
        raise fail(
            where, "numbers of at most 4,300 digits", f"a longer one ({str(exc)[:60]}...)", _DAMAGED
        ) from None
    if not isinstance(document, dict) or document.get("format") != MODEL_FORMAT:
        got = (
            f"format tag {_shown(document.get('format'))}"
            if isinstance(document, dict) and "format" in document
            else "a JSON document without it"
        )
        raise fail(
            where,
            f'a perceptronlab model ("format": "{MODEL_FORMAT}")',
            got,
            "Load a file written by perceptronlab.save_model or `perceptronlab train --out`.",
        )
    version = document.get("version")
    if isinstance(version, bool) or not isinstance(version, int) or version < 1:
        raise bad_model(where, "version", "an integer >= 1", _shown(version))
    if version > MODEL_VERSION:
        raise fail(
            where,
            f"model format version {MODEL_VERSION} or older",
            f"version {version}",
            "The file was written by a newer perceptronlab; upgrade perceptronlab to load it.",
        )
    return document
