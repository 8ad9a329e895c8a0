"""Data files and model files.

Data: :func:`read_data` reads CSV (with a header), LIBSVM/svmlight, ``.npy`` and ``.npz`` into
``(X, y)``. Models: :func:`save_model` writes JSON, never pickle, and :func:`perceptronlab.load_model`
reads it back (through :func:`read_model_document`), so a model file is safe to open, diff and read by eye. Every bad file (missing, empty, truncated,
corrupt, foreign, from a newer version) gets one clear :class:`~perceptronlab.exceptions.InputError`
that says what was wrong, what was expected, what came and how to fix it.

Model file layout (``"version": 1``)::

    {"format": "perceptronlab-model", "version": 1,
     "algorithm": "perceptron", "estimator": "Run", "exact": true,
     "params": {"eta": "1", "fit_intercept": false, ...},
     "n_features": 2, "classes": [-1, 1],
     "w": ["1", "-2"], "b": "0",
     "training": {"mistakes": 5, "sweeps": 4, "converged": true, ...},
     "perceptronlab_version": "0.1.0"}

Optional: ``"preprocessing"``, a fitted scaler applied before every prediction (the format of
:mod:`perceptronlab.scaling`: ``{"version": 1, "scaler": "standard", "mean": [...], "scale": [...]}``).

``w`` is one list for two classes and a list of lists (one row per class, one-vs-rest) for more;
``b`` is then a list too. Exact weights (``fractions.Fraction``) are stored as strings ``"p/q"``
(or ``"p"``) and load back as Fractions; float weights are JSON numbers (shortest round-trip form,
so they load back bit for bit).
"""

from __future__ import annotations

import csv
import json
import math
import numbers
import os
from fractions import Fraction
from pathlib import Path
from typing import Any

import numpy as np

from perceptronlab._numbers import parse_exact
from perceptronlab._validation import check_exact_matrix, fail
from perceptronlab._version import __version__
from perceptronlab.core.run import Run
from perceptronlab.exceptions import InputError

__all__ = ["read_data", "save_model", "read_model_document", "DATA_FORMATS",
           "MODEL_FORMAT", "MODEL_VERSION"]

#: data formats and the file extensions that select them
DATA_FORMATS: dict[str, tuple[str, ...]] = {
    "csv": (".csv",),
    "tsv": (".tsv", ".tab"),
    "libsvm": (".libsvm", ".svm", ".svmlight"),
    "npy": (".npy",),
    "npz": (".npz",),
}
_FORMAT_ALIASES = {"svmlight": "libsvm", "svm": "libsvm"}

MODEL_FORMAT = "perceptronlab-model"
MODEL_VERSION = 1


# ================================================================ data


def _data_format(path: Path, fmt: str | None) -> str:
    if fmt is not None:
        key = _FORMAT_ALIASES.get(str(fmt).lower(), str(fmt).lower())
        if key not in DATA_FORMATS:
            raise fail("fmt (the data format)", "one of " + ", ".join(DATA_FORMATS), repr(fmt),
                       "Pass e.g. fmt='csv', or leave it out to choose by the file extension.")
        return key
    suffix = path.suffix.lower()
    for key, suffixes in DATA_FORMATS.items():
        if suffix in suffixes:
            return key
    known = ", ".join(s for suffixes in DATA_FORMATS.values() for s in suffixes)
    raise fail(f"data file {str(path)!r}", f"an extension of {known}",
               repr(suffix) if suffix else "no extension",
               "Rename the file, or name the format (fmt='csv'|'libsvm'|'npy'|'npz'; "
               "on the command line --data-format).")


def _check_file(path: Path, what: str = "data file") -> None:
    if not path.exists():
        raise fail(f"{what} {str(path)!r}", "an existing file", "no such file",
                   "Check the path (it is relative to the current directory).")
    if path.is_dir():
        raise fail(f"{what} {str(path)!r}", "a file", "a directory", "Name a file inside it.")
    if path.stat().st_size == 0:
        raise fail(f"{what} {str(path)!r}", "a non-empty file", "an empty file (0 bytes)",
                   "Check that the file was written completely.")


def read_data(path: str | os.PathLike, *, label: str | None = None, fmt: str | None = None,
              exact: bool = False, has_label: bool = True) -> tuple[Any, np.ndarray | None]:
    """Read a dataset file into ``(X, y)``.

    Parameters
    ----------
    path : the file. Its extension chooses the format unless ``fmt`` is given:
        ``.csv`` (``.tsv``) with a header row; ``.libsvm``/``.svm``/``.svmlight``;
        ``.npy`` (one 2-D numeric array, the last column is the label); ``.npz`` (arrays ``X`` and ``y``).
    label : CSV only: the name of the label column (default: the last column).
    fmt : ``"csv"``, ``"tsv"``, ``"libsvm"`` (or ``"svmlight"``), ``"npy"`` or ``"npz"``.
    exact : return ``X`` as rows of :class:`fractions.Fraction` taken from the exact decimal text
        of the cells (CSV: ``0.1`` is exactly 1/10; other formats: the exact value of each float),
        ready for ``perceptron(..., exact=True)``.
    has_label : ``False`` for data to predict on without labels: every CSV/.npy column is a
        feature, a .npz needs only ``X``, and ``y`` is returned as ``None`` (LIBSVM lines always
        start with a label, so it is read and dropped).

    Returns
    -------
    X : float64 ndarray (n, d), a CSR matrix for LIBSVM, or a list of rows of Fractions with ``exact``.
    y : 1-D ndarray of labels: integers when every label is a whole number, else floats, else
        strings; ``None`` with ``has_label=False``.

    Raises
    ------
    InputError
        Missing, empty, truncated or corrupt file, ragged rows, a non-numeric feature cell (the
        message names the line and the column), an unknown extension or label column.

    Examples
    --------
    >>> import tempfile, pathlib
    >>> path = pathlib.Path(tempfile.mkdtemp()) / "exam.csv"
    >>> _ = path.write_text("x1,x2,y\\n1,0,+1\\n1,1,-1\\n0,1,-1\\n")
    >>> X, y = read_data(path)
    >>> X.tolist(), y.tolist()
    ([[1.0, 0.0], [1.0, 1.0], [0.0, 1.0]], [1, -1, -1])
    >>> X, y = read_data(path, exact=True)
    >>> X[1]
    [Fraction(1, 1), Fraction(1, 1)]
    """
    path = Path(path)
    kind = _data_format(path, fmt)
    _check_file(path)
    if label is not None and not has_label:
        raise fail("label", "no label column with has_label=False", repr(label),
                   "Drop one of the two.")
    if label is not None and kind not in ("csv", "tsv"):
        raise fail("label", "no label column name for a " + kind + " file", repr(label),
                   "Only CSV files have named columns; .npy uses the last column, .npz the array 'y', "
                   "LIBSVM the first field of each line.")
    if kind in ("csv", "tsv"):
        return _read_csv(path, label=label, delimiter="," if kind == "csv" else "\t", exact=exact,
                         has_label=has_label)
    if kind == "libsvm":
        X, y = _read_libsvm(path)
    elif kind == "npy":
        X, y = _read_npy(path, has_label)
    else:
        X, y = _read_npz(path, has_label)
    if not has_label:
        y = None
    if exact:
        X = check_exact_matrix(X)
    return X, y


def _tidy_labels(values: list[str] | np.ndarray) -> np.ndarray:
    """Labels as integers when all are whole numbers, else floats, else the strings themselves."""
    if isinstance(values, np.ndarray) and values.dtype.kind in "iub":
        return values.astype(np.int64) if values.dtype.kind != "b" else values
    try:
        floats = np.asarray(values, dtype=np.float64)
    except (TypeError, ValueError):
        return np.asarray(values, dtype=str)
    if floats.size and np.all(np.isfinite(floats)) and np.all(floats == np.round(floats)) \
            and np.all(np.abs(floats) < 2**53):
        return floats.astype(np.int64)
    return floats


def _csv_records(path: Path, delimiter: str, where: str, *, header_only: bool = False):
    """The non-blank rows of a CSV file as (line number, stripped cells); only the first with
    ``header_only``."""
    records = []
    try:
        with open(path, newline="", encoding="utf-8-sig") as handle:
            reader = csv.reader(handle, delimiter=delimiter)
            for row in reader:
                if row and any(c.strip() for c in row):
                    records.append((reader.line_num, [c.strip() for c in row]))
                    if header_only:
                        break
    except UnicodeDecodeError as exc:
        raise fail(where, "UTF-8 text", f"undecodable bytes at byte {exc.start}",
                   "Is it a binary file (use .npy/.npz) or another encoding? Save it as UTF-8 CSV.") from None
    except csv.Error as exc:
        raise fail(where, "well-formed CSV", f"a CSV syntax error ({exc})",
                   "The file may be corrupt or truncated; check the quoting and re-export it.") from None
    if not records:
        raise fail(where, "a header row and data rows", "only blank lines", "Write the data into the file.")
    return records


def _csv_fast(path: Path, delimiter: str, header_line: int, width: int, label_col: int):
    """All-numeric files in NumPy's C parser; None when anything is unusual (the careful path
    then reads the file again and names the bad line)."""
    import warnings

    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # NumPy's note about skipped blank lines
            table = np.loadtxt(path, delimiter=delimiter, skiprows=header_line, comments=None,
                               quotechar='"', dtype=np.float64, ndmin=2, encoding="utf-8-sig")
    except (ValueError, UnicodeDecodeError):
        return None
    if table.shape[0] == 0 or table.shape[1] != width or not np.isfinite(table).all():
        return None
    if label_col < 0:
        return np.ascontiguousarray(table), None
    X = np.ascontiguousarray(np.delete(table, label_col, axis=1))
    return X, _tidy_labels(table[:, label_col])


def _read_csv(path: Path, *, label: str | None, delimiter: str, exact: bool, has_label: bool = True):
    where = f"CSV file {str(path)!r}"
    header_line, header = _csv_records(path, delimiter, where, header_only=True)[0]
    if len(header) < 1 + has_label:
        raise fail(where, "at least two columns (features and a label)" if has_label else "a feature column",
                   f"{len(header)} column in the header {header!r}",
                   "Separate the columns with commas" + (" (tab-separated files need .tsv)" if delimiter == ","
                                                         else "") + ".")
    if all(_is_number(c) for c in header):
        raise fail(where, f"a header row of column names on line {header_line}", f"numbers {header[:4]!r}",
                   "Add a header line such as 'x1,x2,y' (the label column is the last one by default).")
    if not has_label:
        label_col = -1
    elif label is None:
        label_col = len(header) - 1
    else:
        matches = [j for j, name in enumerate(header) if name == label]
        if not matches:
            raise fail("label", "a column name of the header (" + ", ".join(map(repr, header)) + ")",
                       repr(label), "Pass one of the header's names, or leave it out for the last column.")
        if len(matches) > 1:
            raise fail("label", "a column name that occurs once", f"{repr(label)} {len(matches)} times",
                       "Rename the duplicate columns.")
        label_col = matches[0]
    if not exact:
        fast = _csv_fast(path, delimiter, header_line, len(header), label_col)
        if fast is not None:
            return fast
    records = _csv_records(path, delimiter, where)
    rows = records[1:]
    if not rows:
        raise fail(where, "data rows below the header", "only the header", "Add the examples, one per line.")
    width = len(header)
    for line, row in rows:
        if len(row) != width:
            raise fail(where, f"{width} cells on every line (as in the header)",
                       f"{len(row)} on line {line}",
                       "Fix the ragged line (a truncated file ends in a short line).")
    feature_cols = [j for j in range(width) if j != label_col]
    names = [header[j] or f"column {j + 1}" for j in range(width)]
    cells = [[row[j] for j in feature_cols] for _, row in rows]
    for line, row in rows:
        if has_label and row[label_col] == "":
            raise fail(where, f"a label in column {names[label_col]!r}", f"an empty cell on line {line}",
                       "Fill in or drop the row.")
    y = _tidy_labels([row[label_col] for _, row in rows]) if has_label else None
    if exact:
        X = []
        for (line, _), cell_row in zip(rows, cells, strict=True):
            X.append([_exact_cell(text, where, line, names[j]) for text, j in zip(cell_row, feature_cols,
                                                                                  strict=True)])
        return X, y
    try:
        X = np.array(cells, dtype=np.float64)
    except ValueError:
        X = None
    if X is not None and np.isfinite(X).all():
        return X, y
    for (line, _), cell_row in zip(rows, cells, strict=True):
        for text, j in zip(cell_row, feature_cols, strict=True):
            try:
                value = float(text)
            except ValueError:
                got = "an empty cell" if text == "" else repr(text)
                raise fail(where, f"a number in column {names[j]!r}", f"{got} on line {line}",
                           "Fix or drop the row; encode categories as numbers first.") from None
            if not math.isfinite(value):
                raise fail(where, f"a finite number in column {names[j]!r}", f"{text!r} on line {line}",
                           "Remove or impute the rows with NaN or inf.")
    raise AssertionError("unreachable: every cell parsed")  # pragma: no cover


def _is_number(text: str) -> bool:
    try:
        float(text)
    except ValueError:
        return False
    return True


def _exact_cell(text: str, where: str, line: int, column: str) -> Fraction:
    what, expected = f"{where}, column {column!r}", "an exact number (like 2, -0.5 or 1/3)"
    if text == "":
        raise fail(what, expected, f"an empty cell on line {line}", "Fix or drop the row.")
    return parse_exact(text, what, expected=expected, fix="Fix or drop the row.", at=f" on line {line}")


def _read_libsvm(path: Path):
    from sklearn.datasets import load_svmlight_file

    where = f"LIBSVM file {str(path)!r}"
    try:
        X, y = load_svmlight_file(str(path))
    except UnicodeDecodeError:
        raise fail(where, "text lines 'label index:value ...'", "undecodable bytes",
                   "Is it another format? Name it with fmt=... .") from None
    except (ValueError, IndexError) as exc:
        raise fail(where, "lines 'label index:value ...' with numbers", f"a malformed line ({exc})",
                   "The file may be corrupt or truncated; re-export it.") from None
    if X.shape[0] == 0:
        raise fail(where, "at least one example line", "no examples", "Write the data into the file.")
    return X.tocsr(), _tidy_labels(y)


def _load_numpy(path: Path, kind: str):
    try:
        return np.load(path, allow_pickle=False)
    except ValueError as exc:
        text = str(exc)
        if "pickle" in text.lower():
            raise fail(f"{kind} file {str(path)!r}", "numeric arrays", "an object array (pickled data)",
                       "Save plain numeric arrays (np.save(path, X.astype(float))); pickles are never loaded."
                       ) from None
        raise fail(f"{kind} file {str(path)!r}", f"a valid {kind} file", f"a corrupt file ({text})",
                   "The file may be truncated; write it again.") from None
    except (OSError, EOFError) as exc:
        raise fail(f"{kind} file {str(path)!r}", f"a valid {kind} file", f"unreadable data ({exc})",
                   "The file may be truncated or not a NumPy file; write it again.") from None


def _read_npy(path: Path, has_label: bool = True):
    where = f".npy file {str(path)!r}"
    arr = _load_numpy(path, ".npy")
    if not isinstance(arr, np.ndarray):  # pragma: no cover - np.load of .npy gives an array
        raise fail(where, "one array", type(arr).__name__, "Use .npz for several arrays.")
    if arr.ndim != 2 or arr.shape[1] < 1 + has_label:
        raise fail(where, "a 2-D array with at least 2 columns (features, then the label)",
                   f"shape {arr.shape}", "Save np.column_stack([X, y]); or save X and y in a .npz.")
    if arr.dtype.kind not in "biuf":
        raise fail(where, "a numeric array", f"dtype {arr.dtype}", "Convert it with arr.astype(float).")
    if not has_label:
        return np.ascontiguousarray(arr, dtype=np.float64), None
    return np.ascontiguousarray(arr[:, :-1], dtype=np.float64), _tidy_labels(arr[:, -1])


def _read_npz(path: Path, has_label: bool = True):
    where = f".npz file {str(path)!r}"
    try:
        archive = _load_numpy(path, ".npz")
        if not hasattr(archive, "files"):
            raise fail(where, "an .npz archive", "a single array", "Rename it to .npy.")
        with archive:
            missing = [k for k in (("X", "y") if has_label else ("X",)) if k not in archive.files]
            if missing:
                raise fail(where, "arrays named 'X' and 'y'", "arrays " + repr(sorted(archive.files)),
                           "Save with np.savez(path, X=X, y=y).")
            X = archive["X"]
            y = archive["y"] if has_label else np.zeros(X.shape[:1])
    except InputError:
        raise
    except (ValueError, OSError, EOFError, KeyError) as exc:
        if "pickle" in str(exc).lower():
            raise fail(where, "numeric arrays", "an object array (pickled data)",
                       "Save plain arrays; pickles are never loaded.") from None
        raise fail(where, "a valid .npz archive", f"a corrupt archive ({exc})",
                   "The file may be truncated; write it again.") from None
    except Exception as exc:  # zipfile.BadZipFile and friends
        raise fail(where, "a valid .npz archive", f"a corrupt archive ({type(exc).__name__}: {exc})",
                   "The file may be truncated; write it again.") from None
    y = np.asarray(y)
    if y.ndim == 2 and 1 in y.shape:
        y = y.ravel()
    if y.ndim != 1:
        raise fail(where, "y as a 1-D array of labels", f"shape {y.shape}", "Save y.ravel().")
    if X.ndim != 2:
        raise fail(where, "X as a 2-D array (rows are examples)", f"shape {X.shape}",
                   "Save X.reshape(len(X), -1).")
    if X.shape[0] != y.shape[0]:
        raise fail(where, f"one label per row of X ({X.shape[0]})", f"{y.shape[0]} labels",
                   "Save X and y of the same rows.")
    if X.dtype.kind not in "biuf":
        raise fail(where, "a numeric X", f"dtype {X.dtype}", "Convert it with X.astype(float).")
    if y.dtype.kind in "biuf":
        y = _tidy_labels(y)
    return np.ascontiguousarray(X, dtype=np.float64), y


# ================================================================ models


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
        raise fail("the model's weights", "finite numbers", value,
                   "Train again on scaled data; a model with inf or NaN weights cannot be saved.")
    return value


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


def _model_document(model: Any) -> dict:

    if isinstance(model, Run):
        w = model.w
        rows = [w.tolist()]
        intercepts = [model.b]
        classes = list(model.classes) if getattr(model, "classes", None) is not None else [-1, 1]
        algorithm, estimator, params, exact = (model.algorithm, "perceptronlab.Run", dict(model.params),
                                               bool(model.exact))
        training = {"mistakes": int(model.mistakes), "sweeps": int(model.sweeps),
                    "converged": bool(model.converged), "cycled": bool(model.cycled)}
        if model.pocket_errors is not None:
            training["pocket_errors"] = int(model.pocket_errors)
    elif hasattr(model, "coef_") and hasattr(model, "classes_"):
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
            "pocket" if "Pocket" in name else "online" if "Online" in name else "perceptron")
        params = (model.get_params(deep=False) if hasattr(model, "get_params")
                  else dict(getattr(model, "params", None) or {}))
        exact = bool(getattr(model, "exact", False)) or coef.dtype.kind == "O"
        training = {}
        for name, key in (("n_mistakes_", "mistakes"), ("n_sweeps_", "sweeps"),
                          ("converged_", "converged"), ("pocket_errors_", "pocket_errors")):
            if hasattr(model, name):
                try:
                    training[key] = _plain(getattr(model, name))
                except Exception:  # pragma: no cover - exotic attribute types are just left out
                    pass
    else:
        raise fail("model", "a perceptronlab Run or a fitted estimator (with coef_, intercept_, classes_)",
                   type(model).__name__,
                   "Pass the result of perceptronlab.perceptron/pocket or a fitted estimator.")
    if len(rows) != len(intercepts):
        raise fail("model", "one intercept per weight row", f"{len(rows)} rows, {len(intercepts)} intercepts",
                   "Fit the model again.")
    n_features = len(rows[0])
    if len(classes) == 2 and len(rows) != 1:
        raise fail("model", "one weight row for two classes", f"{len(rows)} rows", "Fit the model again.")
    if len(classes) > 2 and len(rows) != len(classes):
        raise fail("model", f"one weight row per class ({len(classes)})", f"{len(rows)} rows",
                   "Fit the model again.")
    w_json = [[_number_to_json(v) for v in row] for row in rows]
    b_json = [_number_to_json(v) for v in intercepts]
    params = {k: _plain(v) for k, v in params.items() if not callable(v)}
    binary = len(w_json) == 1
    return {
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


def save_model(model: Any, path: str | os.PathLike, *, scaler: Any = None) -> Path:
    """Save a run or a fitted estimator as a JSON model file (never pickle).

    Parameters
    ----------
    model : a :class:`~perceptronlab.Run` (from ``perceptron``/``pocket``), a fitted estimator
        with ``coef_``, ``intercept_`` and ``classes_`` (perceptronlab's or scikit-learn's), a
        :class:`perceptronlab.estimators.LoadedModel`, or a fitted scikit-learn
        ``Pipeline([scaler, estimator])`` with a ``StandardScaler`` or ``MaxAbsScaler``.
    path : where to write; parent folders must exist.
    scaler : the fitted ``StandardScaler`` or ``MaxAbsScaler`` the model was trained behind
        (:func:`perceptronlab.scaling.fit_scaler`); it is stored in the file and applied again by
        :func:`perceptronlab.load_model`'s model before every prediction.

    Returns
    -------
    Path
        The path written.

    Examples
    --------
    >>> import tempfile, pathlib
    >>> from perceptronlab import load_model, perceptron
    >>> run = perceptron([[1, 0], [1, 1], [0, 1]], [1, -1, -1], exact=True)
    >>> path = save_model(run, pathlib.Path(tempfile.mkdtemp()) / "exam.json")
    >>> model = load_model(path)
    >>> model.w, model.predict([[1, 0], [0, 1]]).tolist()
    ([Fraction(1, 1), Fraction(-2, 1)], [1, -1])
    """
    from perceptronlab.scaling import scaler_to_document, split_pipeline

    path = Path(path)
    piped, model = split_pipeline(model)
    scaler = piped if scaler is None else scaler
    document = dict(model.document) if hasattr(model, "document") else _model_document(model)
    if scaler is not None:
        document["preprocessing"] = scaler_to_document(scaler, document["n_features"])
    if path.parent and not path.parent.exists():
        raise fail(f"model path {str(path)!r}", "a file in an existing folder",
                   f"missing folder {str(path.parent)!r}", "Create the folder first.")
    if path.is_dir():
        raise fail(f"model path {str(path)!r}", "a file name", "a directory",
                   f"Name a file inside it, e.g. {str(path / 'model.json')!r}.")
    text = json.dumps(document, indent=2, allow_nan=False)
    tmp = path.with_name(path.name + ".tmp")
    try:
        tmp.write_text(text + "\n", encoding="utf-8")
        os.replace(tmp, path)  # never leave a half-written model behind
    finally:
        if tmp.exists():
            tmp.unlink()
    return path


def read_model_document(path: str | os.PathLike) -> dict:
    """The JSON document of a model file written by :func:`save_model`, its envelope checked.

    The file must exist, be UTF-8 JSON, carry ``"format": "perceptronlab-model"`` and a ``version``
    this perceptronlab reads; the fields inside are checked by the model that reads them
    (:class:`perceptronlab.estimators.LoadedModel`). Load a model with
    :func:`perceptronlab.load_model`.

    Raises
    ------
    InputError
        Missing, empty, truncated or corrupt file; not JSON; a foreign JSON document; a wrong
        ``format`` tag; a ``version`` newer than this perceptronlab reads.

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
    _check_file(path, "model file")
    where = model_source(path)
    try:
        text = path.read_text(encoding="utf-8")
    except UnicodeDecodeError:
        raise fail(where, "UTF-8 JSON text", "binary data",
                   "Model files are JSON written by perceptronlab.save_model (never pickle).") from None
    try:
        document = json.loads(text)
    except json.JSONDecodeError as exc:
        raise fail(where, "valid JSON", f"a JSON error at line {exc.lineno}, column {exc.colno} ({exc.msg})",
                   "The file is truncated or corrupt; save the model again.") from None
    if not isinstance(document, dict) or document.get("format") != MODEL_FORMAT:
        got = (f"format tag {document.get('format')!r}" if isinstance(document, dict) and "format" in document
               else "a JSON document without it")
        raise fail(where, f"a perceptronlab model (\"format\": \"{MODEL_FORMAT}\")", got,
                   "Load a file written by perceptronlab.save_model or `perceptronlab train --out`.")
    version = document.get("version")
    if isinstance(version, bool) or not isinstance(version, int) or version < 1:
        raise bad_model(where, "version", "an integer >= 1", repr(version))
    if version > MODEL_VERSION:
        raise fail(where, f"model format version {MODEL_VERSION} or older", f"version {version}",
                   "The file was written by a newer perceptronlab; upgrade perceptronlab to load it.")
    return document


def model_source(path: str | os.PathLike) -> str:
    """How messages name a model file."""
    return f"model file {str(Path(path))!r}"


def bad_model(source: str, field: str, expected: str, got: str) -> InputError:
    """A malformed field of a model document."""
    return fail(f"{source}, field {field!r}", expected, got,
                "The file is damaged or was edited by hand; save the model again.")
