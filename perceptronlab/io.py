"""Data files and model files.

Data: :func:`read_data` reads CSV (with a header), LIBSVM/svmlight, ``.npy`` and ``.npz`` into
``(X, y)``. Models: :func:`save_model` writes JSON, never pickle, and :func:`perceptronlab.load_model`
reads it back (through :func:`read_model_document` and the contract :func:`check_model_document`), so a
model file is safe to open, diff and read by eye. Every bad file (missing, empty, truncated,
corrupt, foreign, from a newer version) gets one clear :class:`~perceptronlab.exceptions.InputError`
that says what was wrong, what was expected, what came and how to fix it.

Limits: every reader works out the memory a file needs from what it declares or implies (rows ×
columns, a LIBSVM feature index, an .npy header, an .npz archive's sizes) and refuses it before
allocating when it exceeds the budget (``max_bytes``; :mod:`perceptronlab._memory`). Models are
written atomically (:mod:`perceptronlab._files`).

Model file layout (``"version": 1``)::

    {"format": "perceptronlab-model", "version": 1,
     "algorithm": "perceptron", "estimator": "Run", "exact": true,
     "params": {"eta": "1", "fit_intercept": false, ...},
     "n_features": 2, "classes": [-1, 1],
     "w": ["1", "-2"], "b": "0",
     "training": {"mistakes": 5, "sweeps": 4, "converged": true, ...},
     "perceptronlab_version": "0.1.0"}

Optional: ``"preprocessing"``, a fitted scaler applied before every prediction (the format of
:mod:`perceptronlab.scaling`: ``{"version": 1, "scaler": "standard", "mean": [...], "scale": [...]}``);
``"feature_names": ["x1", "x2"]`` and ``"label_name": "y"`` (the CSV columns at training: prediction
then takes the columns by name, so a label column is never read as a feature). Files without them
load as before.

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
import struct
import tokenize
import warnings
import zipfile
import zlib
from collections import Counter
from collections.abc import Callable, Generator, Sequence
from fractions import Fraction
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any, TypeAlias

import numpy as np

from perceptronlab._files import atomic_write
from perceptronlab._memory import check_budget, format_bytes, parse_bytes
from perceptronlab._numbers import parse_exact, shown_value, to_float
from perceptronlab._validation import check_exact_matrix, fail
from perceptronlab._version import __version__
from perceptronlab.core.run import Run
from perceptronlab.exceptions import InputError
from perceptronlab.scaling import scaler_from_document

if TYPE_CHECKING:
    from numpy.typing import NDArray

#: what a reader returns: X (float64 C-contiguous, CSR, or rows of Fractions) and the labels (None
#: without a label column)
_Data: TypeAlias = "tuple[Any, NDArray[Any] | None]"
#: how the model-document checks build their errors: bad(field, expected, got)
_Bad: TypeAlias = Callable[[str, str, str], InputError]

__all__ = ["read_data", "read_columns", "save_model", "read_model_document", "check_model_document",
           "DATA_FORMATS", "MODEL_FORMAT", "MODEL_VERSION"]

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

#: bytes a cell costs while a file is read: float64 (the parsed table and X) and exact (a Fraction)
FLOAT_CELL_BYTES = 16
EXACT_CELL_BYTES = 160
#: the parsed entries of a LIBSVM file take about this many times the file's size
LIBSVM_BYTES_PER_FILE_BYTE = 4

# what NumPy's header parsers and the zip reader raise on hostile bytes (besides InputError)
_PARSE_ERRORS = (ValueError, TypeError, SyntaxError, tokenize.TokenError, OverflowError, MemoryError,
                 RecursionError, KeyError, EOFError, OSError, RuntimeError, NotImplementedError, zlib.error,
                 zipfile.BadZipFile, zipfile.LargeZipFile, struct.error)


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
    if path.is_dir():
        raise fail(f"{what} {str(path)!r}", "a file", "a directory", "Name a file inside it.")
    if not path.exists():
        raise fail(f"{what} {str(path)!r}", "an existing file", "no such file",
                   "Check the path (it is relative to the current directory).")
    if not path.is_file():
        raise fail(f"{what} {str(path)!r}", "a regular file", "a device, pipe or socket",
                   "Save the data to a file first.")
    if path.stat().st_size == 0:
        raise fail(f"{what} {str(path)!r}", "a non-empty file", "an empty file (0 bytes)",
                   "Check that the file was written completely.")


def _check_size(path: Path, needed: float, detail: str, max_bytes: Any) -> None:
    """The memory budget (:func:`perceptronlab._memory.check_budget`) for reading ``path``."""
    check_budget(needed, f"data file {str(path)!r}", max_bytes=max_bytes, file_size=path.stat().st_size,
                 detail=detail)


def read_data(path: str | os.PathLike[str], *, label: str | None = None, fmt: str | None = None,
              exact: bool = False, has_label: bool = True, features: Sequence[str] | None = None,
              max_bytes: int | str | None = None) -> _Data:
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
        ready for ``perceptron(..., exact=True)``. A sparse LIBSVM file becomes dense rows, so its
        rows × columns count against ``max_bytes``.
    has_label : ``False`` for data to predict on without labels: every CSV/.npy column is a
        feature, a .npz needs only ``X``, and ``y`` is returned as ``None`` (LIBSVM lines always
        start with a label, so it is read and dropped).
    features : CSV only: the names of the feature columns, in the order ``X`` gets them (e.g. a
        model's feature names); the other columns, except ``label``, are ignored.
    max_bytes : the memory budget, in bytes or as a text such as ``"2G"``. A file whose declared
        or implied size (rows × columns × 16 bytes, 160 with ``exact``; a LIBSVM file's largest
        feature index; an .npy header; the sizes in an .npz archive) needs more is refused before
        anything is allocated. Default: half of the available memory, and at most 200 times the
        file's own size (so that a small file cannot unpack to gigabytes).

    Returns
    -------
    X : float64 ndarray (n, d), a CSR matrix for LIBSVM, or a list of rows of Fractions with ``exact``.
    y : 1-D ndarray of labels: integers when every label is a whole number, else floats, else
        strings; ``None`` with ``has_label=False``.

    Raises
    ------
    InputError
        Missing, empty, truncated or corrupt file, ragged rows, a non-numeric feature cell (the
        message names the line and the column), an unknown extension or label column, a file over
        the memory budget (the message says the size it needs and how to raise the budget).

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
    >>> read_data(path, features=["x2", "x1"], has_label=False)[0].tolist()
    [[0.0, 1.0], [1.0, 1.0], [1.0, 0.0]]
    """
    path = Path(path)
    if path.is_dir():  # said before the extension: a folder has none to speak of
        _check_file(path)
    kind = _data_format(path, fmt)
    _check_file(path)
    if max_bytes is not None:
        max_bytes = parse_bytes(max_bytes)
    if label is not None and not has_label:
        raise fail("label", "no label column with has_label=False", repr(label),
                   "Drop one of the two.")
    if (label is not None or features is not None) and kind not in ("csv", "tsv"):
        name = "label" if label is not None else "features"
        raise fail(name, "no column names for a " + kind + " file", repr(label if label is not None else features),
                   "Only CSV files have named columns; .npy uses the last column, .npz the array 'y', "
                   "LIBSVM the first field of each line.")
    if kind in ("csv", "tsv"):
        return _read_csv(path, label=label, delimiter="," if kind == "csv" else "\t", exact=exact,
                         has_label=has_label, features=features, max_bytes=max_bytes)
    if kind == "libsvm":
        X, y = _read_libsvm(path, exact, max_bytes)
    elif kind == "npy":
        X, y = _read_npy(path, has_label, exact, max_bytes)
    else:
        X, y = _read_npz(path, has_label, exact, max_bytes)
    if not has_label:
        y = None
    if exact:
        X = check_exact_matrix(X)
    return X, y


def read_columns(path: str | os.PathLike[str], *, fmt: str | None = None) -> list[str] | None:
    """The column names of a CSV/TSV file's header row; ``None`` for formats without names.

    Examples
    --------
    >>> import tempfile, pathlib
    >>> path = pathlib.Path(tempfile.mkdtemp()) / "exam.csv"
    >>> _ = path.write_text("x1, x2 ,y\\n1,0,+1\\n")
    >>> read_columns(path)
    ['x1', 'x2', 'y']
    """
    path = Path(path)
    kind = _data_format(path, fmt)
    if kind not in ("csv", "tsv"):
        return None
    _check_file(path)
    return _csv_header(path, "," if kind == "csv" else "\t", f"CSV file {str(path)!r}")[1]


def _tidy_labels(values: list[str] | np.ndarray) -> np.ndarray:
    """Labels as integers when all are whole numbers, else floats, else the strings themselves."""
    if isinstance(values, np.ndarray) and values.dtype.kind in "iub":
        return values.astype(np.int64) if values.dtype.kind != "b" else values
    try:
        floats = np.asarray(values, dtype=np.float64)
    except (TypeError, ValueError, OverflowError):
        return np.asarray(values, dtype=str)
    if floats.size and np.all(np.isfinite(floats)) and np.all(floats == np.round(floats)) \
            and np.all(np.abs(floats) < 2**53):
        return floats.astype(np.int64)
    return floats


def _csv_rows(path: Path, delimiter: str, where: str) -> Generator[tuple[int, list[str]], None, None]:
    """The non-blank rows of a CSV file as (line number, stripped cells), one at a time."""
    try:
        with open(path, newline="", encoding="utf-8-sig") as handle:
            reader = csv.reader(handle, delimiter=delimiter)
            for row in reader:
                if row and any(c.strip() for c in row):
                    yield reader.line_num, [c.strip() for c in row]
    except UnicodeDecodeError as exc:
        raise fail(where, "UTF-8 text", f"undecodable bytes at byte {exc.start}",
                   "Is it a binary file (use .npy/.npz) or another encoding? Save it as UTF-8 CSV.") from None
    except csv.Error as exc:
        raise fail(where, "well-formed CSV", f"a CSV syntax error ({exc})",
                   "The file may be corrupt or truncated; check the quoting and re-export it.") from None


def _csv_header(path: Path, delimiter: str, where: str) -> tuple[int, list[str]]:
    rows = _csv_rows(path, delimiter, where)
    try:
        return next(rows)
    except StopIteration:
        raise fail(where, "a header row and data rows", "only blank lines", "Write the data into the file.") from None
    finally:
        rows.close()


def _count_lines(path: Path) -> int:
    """Lines of a text file (\\n, \\r\\n or \\r endings): an upper bound of its CSV rows, in one pass."""
    lines = crlf = 0
    previous = b""
    last = b""
    with open(path, "rb") as handle:
        while chunk := handle.read(1 << 22):
            lines += chunk.count(b"\n") + chunk.count(b"\r")
            crlf += chunk.count(b"\r\n") + (previous == b"\r" and chunk[:1] == b"\n")
            previous = last = chunk[-1:]
    return lines - crlf + (last not in (b"\n", b"\r", b""))


def _csv_fast(path: Path, delimiter: str, header_line: int, width: int, feature_cols: list[int],
              label_col: int) -> _Data | None:
    """Well-formed files in NumPy's C parser; None when anything is unusual (the careful path then
    reads the file again and names the bad line).

    All-numeric files are parsed as one table; a file with text labels or other text columns is
    parsed again with those columns turned into codes (features stay numbers)."""

    options: dict[str, Any] = dict(delimiter=delimiter, skiprows=header_line, comments=None, quotechar='"', dtype=np.float64,
                   ndmin=2, encoding="utf-8-sig")
    chosen = set(feature_cols)
    others = [j for j in range(width) if j not in chosen]
    table = None
    for attempt in ("numbers", "codes"):
        codes: dict[str, int] | None = {} if attempt == "codes" else None
        converters: dict[int | str, Callable[[str], float]] | None = None
        if codes is not None:
            if not others:
                return None

            def code(text: str, codes: dict[str, int] = codes) -> float:
                text = text.strip()
                if not text:
                    raise ValueError("an empty label")
                return float(codes.setdefault(text, len(codes)))

            converters = {j: code for j in others}
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")  # NumPy's note about skipped blank lines
                table = np.loadtxt(path, converters=converters, **options)
            break
        except (ValueError, UnicodeDecodeError, OverflowError):
            table = None
    if table is None or table.shape[0] == 0 or table.shape[1] != width:
        return None
    if feature_cols == list(range(len(feature_cols))) and table.shape[1] == len(feature_cols):
        X = table
    else:
        X = np.ascontiguousarray(table[:, feature_cols])
    if not np.isfinite(X).all():
        return None
    if label_col < 0:
        return X, None
    column = table[:, label_col]
    if codes is None:
        return X, _tidy_labels(column)
    names = np.asarray(list(codes), dtype=object)
    return X, _tidy_labels([str(v) for v in names[column.astype(np.intp)]])


def _read_csv(path: Path, *, label: str | None, delimiter: str, exact: bool, has_label: bool = True,
              features: Sequence[str] | None = None, max_bytes: Any = None) -> _Data:
    where = f"CSV file {str(path)!r}"
    header_line, header = _csv_header(path, delimiter, where)
    n_needed = 1 + has_label if features is None else len(features) + has_label
    if len(header) < max(n_needed, 1 + has_label):
        raise fail(where, "at least two columns (features and a label)" if has_label else "a feature column",
                   f"{len(header)} column in the header {header!r}",
                   "Separate the columns with commas" + (" (tab-separated files need .tsv)" if delimiter == ","
                                                         else "") + ".")
    if all(_is_number(c) for c in header):
        raise fail(where, f"a header row of column names on line {header_line}", f"numbers {header[:4]!r}",
                   "Add a header line such as 'x1,x2,y' (the label column is the last one by default).")
    label_col = _label_column(header, label, has_label, features)
    feature_cols = _feature_columns(where, header, features, label_col)
    width = len(header)
    rows = max(0, _count_lines(path) - header_line)
    per_cell = EXACT_CELL_BYTES if exact else FLOAT_CELL_BYTES
    _check_size(path, rows * width * per_cell,
                f"up to {rows:,} rows × {width:,} columns × {per_cell} bytes" + (" (exact)" if exact else ""),
                max_bytes)
    if not exact:
        fast = _csv_fast(path, delimiter, header_line, width, feature_cols, label_col)
        if fast is not None:
            return fast
    return _csv_careful(path, delimiter, where, header, feature_cols, label_col, exact, rows)


def _label_column(header: list[str], label: str | None, has_label: bool, features: Sequence[str] | None) -> int:
    if not has_label:
        return -1
    if label is None:
        if features is not None:
            raise fail("label", "the label column's name when features are named", "none",
                       "Pass label='y' (the column of the labels), or has_label=False.")
        return len(header) - 1
    matches = [j for j, name in enumerate(header) if name == label]
    if not matches:
        raise fail("label", "a column name of the header (" + ", ".join(map(repr, header)) + ")",
                   repr(label), "Pass one of the header's names, or leave it out for the last column.")
    if len(matches) > 1:
        raise fail("label", "a column name that occurs once", f"{repr(label)} {len(matches)} times",
                   "Rename the duplicate columns.")
    return matches[0]


def _feature_columns(where: str, header: list[str], features: Sequence[str] | None, label_col: int) -> list[int]:
    if features is None:
        return [j for j in range(len(header)) if j != label_col]
    names = [str(name) for name in features]
    in_header, in_names = Counter(header), Counter(names)
    missing = [name for name in names if name not in in_header]
    if missing:
        raise fail(where, "the feature columns " + ", ".join(map(repr, names)),
                   "no column " + ", ".join(map(repr, missing)) + " in the header (" + ", ".join(map(repr, header))
                   + ")", "Use a file with those columns (in any order; other columns are ignored).")
    repeated = sorted({name for name in names if in_header[name] > 1 or in_names[name] > 1})
    if repeated:
        raise fail(where, "feature columns whose names occur once", "repeated " + ", ".join(map(repr, repeated)),
                   "Rename the duplicate columns.")
    position = {name: j for j, name in reversed(list(enumerate(header)))}  # the first, as header.index
    columns = [position[name] for name in names]
    if label_col in columns:
        raise fail("label", "a column that is not a feature", repr(header[label_col]),
                   "Name the label column, or leave it out of the features.")
    return columns


def _csv_careful(path: Path, delimiter: str, where: str, header: list[str], feature_cols: list[int],
                 label_col: int, exact: bool, rows: int) -> _Data:
    """Row by row, naming the first bad line: ragged rows, empty labels, cells that are no number."""
    width = len(header)
    names = [header[j] or f"column {j + 1}" for j in range(width)]
    X: Any = [] if exact else np.empty((max(rows, 1), len(feature_cols)))
    labels = []
    n = 0
    records = _csv_rows(path, delimiter, where)
    next(records)  # the header
    for line, row in records:
        if len(row) != width:
            raise fail(where, f"{width} cells on every line (as in the header)", f"{len(row)} on line {line}",
                       "Fix the ragged line (a truncated file ends in a short line).")
        if label_col >= 0:
            if row[label_col] == "":
                raise fail(where, f"a label in column {names[label_col]!r}", f"an empty cell on line {line}",
                           "Fill in or drop the row.")
            labels.append(row[label_col])
        if exact:
            X.append([_exact_cell(row[j], where, line, names[j]) for j in feature_cols])
        else:
            if n == X.shape[0]:  # pragma: no cover - more rows than lines cannot happen; grow anyway
                X = np.resize(X, (2 * n, X.shape[1]))
            for k, j in enumerate(feature_cols):
                X[n, k] = _float_cell(row[j], where, line, names[j])
        n += 1
    if n == 0:
        raise fail(where, "data rows below the header", "only the header", "Add the examples, one per line.")
    y = _tidy_labels(labels) if label_col >= 0 else None
    return (X if exact else X[:n]), y


def _float_cell(text: str, where: str, line: int, column: str) -> float:
    try:
        value = float(text)
    except ValueError:
        got = "an empty cell" if text == "" else repr(text if len(text) <= 40 else text[:40] + "...")
        raise fail(where, f"a number in column {column!r}", f"{got} on line {line}",
                   "Fix or drop the row; encode categories as numbers first.") from None
    if not math.isfinite(value):
        raise fail(where, f"a finite number in column {column!r}", f"{text[:40]!r} on line {line}",
                   "Remove or impute the rows with NaN or inf.")
    return value


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


def _read_libsvm(path: Path, exact: bool = False, max_bytes: Any = None) -> _Data:
    from sklearn.datasets import load_svmlight_file

    where = f"LIBSVM file {str(path)!r}"
    size = path.stat().st_size
    _check_size(path, LIBSVM_BYTES_PER_FILE_BYTE * size, f"the entries of a {format_bytes(size)} file", max_bytes)
    try:
        X, y = load_svmlight_file(str(path))
    except UnicodeDecodeError:
        raise fail(where, "text lines 'label index:value ...'", "undecodable bytes",
                   "Is it another format? Name it with fmt=... .") from None
    except OverflowError:
        raise fail(where, "feature indices below 2,147,483,648 (2^31)", "a larger index",
                   "Number the features from 1 (or 0) upwards; the file may be corrupt.") from None
    except (ValueError, IndexError, TypeError, RuntimeError) as exc:
        raise fail(where, "lines 'label index:value ...' with numbers", f"a malformed line ({exc})",
                   "The file may be corrupt or truncated; re-export it.") from None
    except MemoryError:
        raise fail(where, "a file that fits in memory", "a file too large to parse",
                   "Read a smaller file, or train out of core (--stream).") from None
    n, d = X.shape
    if n == 0:
        raise fail(where, "at least one example line", "no examples", "Write the data into the file.")
    # LIBSVM stays sparse; but every feature index up to the largest gets a weight (8 bytes), and
    # exact mode turns the rows into dense rows of Fractions
    needed = 8 * d + (n * d * EXACT_CELL_BYTES if exact else 0)
    detail = (f"{n:,} rows × {d:,} columns as exact dense rows" if exact
              else f"largest feature index {d:,}: a weight vector of {d:,} numbers")
    _check_size(path, needed, detail, max_bytes)
    if not np.all(np.isfinite(X.data)):
        row = int(np.searchsorted(X.indptr, np.flatnonzero(~np.isfinite(X.data))[0], side="right"))
        raise fail(where, "finite feature values", f"NaN or inf in example {row} (counting from 1)",
                   "Remove or impute the rows with NaN or inf.")
    return X.tocsr(), _tidy_labels(y)


def _not_numpy(path: Path, kind: str, head: bytes) -> InputError:
    shown = head[:16]
    text_like = all(32 <= b < 127 or b in (9, 10, 13) for b in shown)
    hint = (f"a file that starts with {shown.decode('ascii', 'replace')!r}: text, perhaps CSV or LIBSVM; "
            "name its format (fmt='csv')" if text_like and shown
            else f"a file that starts with the bytes {shown!r}")
    magic = "\\x93NUMPY" if kind == ".npy" else "PK (a zip archive)"
    return fail(f"{kind} file {str(path)!r}", f"a NumPy {kind} file (starting with {magic})", hint,
                "Save the arrays with " + ("np.save" if kind == ".npy" else "np.savez(path, X=X, y=y)")
                + ", or read the file in its own format.")


def _npy_header(handle: IO[bytes], where: str) -> tuple[tuple[int, ...], bool, np.dtype]:
    """Shape, Fortran order and dtype of the .npy stream at ``handle`` (positioned at its start)."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # Python's notes on a forged header's text (bad escapes)
            version = np.lib.format.read_magic(handle)
            if version == (1, 0):
                shape, fortran, dtype = np.lib.format.read_array_header_1_0(handle)
            elif version == (2, 0):
                shape, fortran, dtype = np.lib.format.read_array_header_2_0(handle)
            else:
                raise fail(where, "an .npy file of format version 1.0 or 2.0 (a plain numeric array)",
                           f"version {version[0]}.{version[1]}", "Save a numeric array with np.save.")
    except InputError:
        raise
    except _PARSE_ERRORS as exc:
        raise fail(where, "a valid .npy header", f"a corrupt or truncated header ({type(exc).__name__})",
                   "The file may be truncated; write it again.") from None
    if not isinstance(shape, tuple) or not all(isinstance(n, int) and n >= 0 for n in shape):
        raise fail(where, "a header with a shape of sizes >= 0", repr(shape)[:60], "Write the file again.")
    if dtype.hasobject:
        raise fail(where, "numeric arrays", "an object array (pickled data)",
                   "Save plain numeric arrays (np.save(path, X.astype(float))); pickles are never loaded.")
    return shape, fortran, dtype


def _check_declared(where: str, shape: tuple[int, ...], dtype: np.dtype[Any], available: int) -> None:
    """Refuse a header that declares more data than the file holds (a truncated or forged file)."""
    declared = math.prod(shape) * dtype.itemsize
    if declared > available:
        raise fail(where, f"the {format_bytes(declared)} of data its header declares (shape {shape})",
                   f"{format_bytes(max(available, 0))}: a truncated or corrupt file",
                   "The file may be truncated; write it again.")


def _check_numeric(where: str, dtype: np.dtype, what: str = "array") -> None:
    if dtype.kind not in "biuf":
        raise fail(where, f"a numeric {what}", f"dtype {dtype}", f"Convert it with {what}.astype(float).")


def _read_npy(path: Path, has_label: bool = True, exact: bool = False, max_bytes: Any = None) -> _Data:
    where = f".npy file {str(path)!r}"
    with open(path, "rb") as handle:
        head = handle.read(6)
        if head != b"\x93NUMPY":
            raise _not_numpy(path, ".npy", head + handle.read(10))
        handle.seek(0)
        shape, _, dtype = _npy_header(handle, where)
        available = path.stat().st_size - handle.tell()
    if len(shape) != 2 or shape[1] < 1 + has_label:
        raise fail(where, "a 2-D array with at least 2 columns (features, then the label)",
                   f"shape {shape}", "Save np.column_stack([X, y]); or save X and y in a .npz.")
    _check_numeric(where, dtype)
    _check_declared(where, shape, dtype, available)
    n, width = shape
    d = width - has_label
    per_cell = EXACT_CELL_BYTES if exact else 8
    _check_size(path, n * d * per_cell, f"{n:,} rows × {d:,} columns × {per_cell} bytes", max_bytes)
    try:
        arr = np.load(path, mmap_mode="r", allow_pickle=False)  # the file's pages, not a copy
    except _PARSE_ERRORS as exc:
        raise fail(where, "a valid .npy file", f"unreadable data ({type(exc).__name__}: {exc})",
                   "The file may be truncated or not a NumPy file; write it again.") from None
    if not has_label:
        return np.array(arr, dtype=np.float64, order="C"), None
    X = np.array(arr[:, :-1], dtype=np.float64, order="C")
    return X, _tidy_labels(np.array(arr[:, -1]))


def _npz_member(archive: zipfile.ZipFile, name: str, where: str) -> tuple[zipfile.ZipInfo, tuple[int, ...], np.dtype[Any]]:
    info = archive.getinfo(name)
    with archive.open(info) as member:
        shape, _, dtype = _npy_header(member, f"{where}, array {name[:-4]!r}")
        header_size = member.tell()
    _check_declared(f"{where}, array {name[:-4]!r}", shape, dtype, info.file_size - header_size)
    return info, shape, dtype


def _read_npz(path: Path, has_label: bool = True, exact: bool = False, max_bytes: Any = None) -> _Data:
    where = f".npz file {str(path)!r}"
    with open(path, "rb") as handle:
        head = handle.read(16)
    if head[:4] not in (b"PK\x03\x04", b"PK\x05\x06"):
        raise _not_numpy(path, ".npz", head)
    wanted = ("X", "y") if has_label else ("X",)
    try:
        with zipfile.ZipFile(path) as archive:
            names = archive.namelist()
            missing = [k for k in wanted if f"{k}.npy" not in names]
            if missing:
                stored = sorted(n[:-4] if n.endswith(".npy") else n for n in names)
                raise fail(where, "arrays named 'X' and 'y'" if has_label else "an array named 'X'",
                           "arrays " + repr(stored)[:200], "Save with np.savez(path, X=X, y=y).")
            members = {k: _npz_member(archive, f"{k}.npy", where) for k in wanted}
            _, x_shape, x_dtype = members["X"]
            if len(x_shape) != 2:
                raise fail(where, "X as a 2-D array (rows are examples)", f"shape {x_shape}",
                           "Save X.reshape(len(X), -1).")
            _check_numeric(where, x_dtype, "X")
            n, d = x_shape
            if n == 0 or d == 0:
                raise fail(where, "X with at least one row and one feature column", f"shape {x_shape}",
                           "Save a non-empty X (rows are examples, columns features).")
            declared = sum(info.file_size for info, _, _ in members.values())
            converted = n * d * EXACT_CELL_BYTES if exact else (0 if x_dtype == np.float64 else n * d * 8)
            _check_size(path, declared + converted,
                        f"{n:,} rows × {d:,} columns: {format_bytes(declared)} unpacked"
                        + (f" + {format_bytes(converted)} converted" if converted else ""), max_bytes)
            arrays: dict[str, np.ndarray] = {}
            for key, (info, _, _) in members.items():
                with archive.open(info) as member:
                    arrays[key] = np.lib.format.read_array(member, allow_pickle=False)
    except InputError:
        raise
    except _PARSE_ERRORS as exc:
        raise fail(where, "a valid .npz archive", f"a corrupt archive ({type(exc).__name__}: {str(exc)[:80]})",
                   "The file may be truncated; write it again.") from None
    X = arrays["X"]
    if not has_label:
        return np.ascontiguousarray(X, dtype=np.float64), None
    y = np.asarray(arrays["y"])
    if y.ndim == 2 and 1 in y.shape:
        y = y.ravel()
    if y.ndim != 1:
        raise fail(where, "y as a 1-D array of labels", f"shape {y.shape}", "Save y.ravel().")
    if X.shape[0] != y.shape[0]:
        raise fail(where, f"one label per row of X ({X.shape[0]})", f"{y.shape[0]} labels",
                   "Save X and y of the same rows.")
    if y.dtype.kind in "biuf":
        y = _tidy_labels(y)
    return np.ascontiguousarray(X, dtype=np.float64), y


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


def _model_document(model: Any) -> dict[str, Any]:
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


def save_model(model: Any, path: str | os.PathLike[str], *, scaler: Any = None,
               feature_names: Sequence[str] | None = None, label_name: str | None = None) -> Path:
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
        (:func:`perceptronlab.scaling.fit_scaler`); it is stored in the file and applied again by
        :func:`perceptronlab.load_model`'s model before every prediction.
    feature_names : the names of the features, in the order of the weights (a CSV file's header
        without the label column); stored so that prediction takes the right columns by name.
        Default: the estimator's ``feature_names_in_`` (set by scikit-learn-style estimators fitted
        on a DataFrame), if any.
    label_name : the name of the label column the model was trained on, if any.

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
    from perceptronlab.scaling import scaler_to_document, split_pipeline

    piped, model = split_pipeline(model)
    scaler = piped if scaler is None else scaler
    document = dict(model.document) if hasattr(model, "document") else _model_document(model)
    if scaler is not None:
        document["preprocessing"] = scaler_to_document(scaler, document["n_features"])
    if feature_names is not None:
        document["feature_names"] = [str(name) for name in feature_names]
    if label_name is not None:
        document["label_name"] = str(label_name)
    check_model_document(document, "the model to save")
    text = json.dumps(document, indent=2, allow_nan=False)
    atomic_write(path, text + "\n", what="model path")
    return Path(path)


_DAMAGED = "The file is damaged or was edited by hand; save the model again."


def _parse_weight(value: Any, field: str, exact: bool, source: str) -> Any:
    if isinstance(value, bool) or not isinstance(value, int | float | str):
        raise bad_model(source, field, "numbers (or exact strings like '1/3')", _shown(value))
    if isinstance(value, float) and not math.isfinite(value):  # NaN, Infinity and 1e309 in the JSON
        raise bad_model(source, field, "finite numbers", repr(value))
    what = f"{source}, field {field!r}"
    number = parse_exact(value, what, expected="numbers (or exact strings like '1/3')", fix=_DAMAGED)
    return number if exact else to_float(number, what, _DAMAGED)


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
        raise bad("classes", "labels that are strings, integers, booleans or finite numbers", _shown(odd))
    found = {kind for kind in kinds if kind is not None}  # every kind, after the check above
    if len(found) > 1:
        raise bad("classes", "labels of one type (all strings, all integers, all booleans or all numbers)",
                  f"{_shown(classes)} (mixed " + " and ".join(sorted(found)) + ")")
    if len(set(classes)) != len(classes):
        raise bad("classes", "distinct labels", _shown(classes))
    return classes


def _check_training(training: Any, bad: _Bad) -> dict[str, Any]:
    if not isinstance(training, dict):
        raise bad("training", "an object (the run's mistakes, sweeps, ...)", type(training).__name__)
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


def _check_names(document: dict[str, Any], n_features: int, bad: _Bad) -> tuple[list[str] | None, str | None]:
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
    checked by :func:`perceptronlab.scaling.scaler_from_document`).

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
        scikit-learn scaler, or None).

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
    exact = document.get("exact", False)
    if not isinstance(exact, bool):
        raise bad("exact", "true or false", _shown(exact))
    algorithm = document.get("algorithm")
    if not isinstance(algorithm, str):
        raise bad("algorithm", "a string", _shown(algorithm))
    estimator = document.get("estimator", "perceptronlab.Run")
    if not isinstance(estimator, str):
        raise bad("estimator", "a string (the class that was saved)", _shown(estimator))
    params = document.get("params", {})
    if not isinstance(params, dict):
        raise bad("params", "an object", type(params).__name__)
    params = dict(params)
    if exact:
        for key in ("eta", "margin"):
            if isinstance(params.get(key), str):
                try:
                    params[key] = parse_exact(params[key], f"params.{key}")
                except InputError:
                    pass  # a parameter is a record of the training, not needed to predict
    training = _check_training(document.get("training", {}), bad)
    classes = _check_classes(document.get("classes"), bad)
    n_features = document.get("n_features")
    if isinstance(n_features, bool) or not isinstance(n_features, int) or n_features < 1:
        raise bad("n_features", "an integer >= 1", _shown(n_features))
    feature_names, label_name = _check_names(document, n_features, bad)
    preprocessing = document.get("preprocessing")
    if preprocessing is not None and exact:
        raise bad("preprocessing", "no scaler in an exact model (exact models take the data as written)",
                  "a scaler")
    scaler = None if preprocessing is None else scaler_from_document(preprocessing, n_features, source)
    w, b = document.get("w"), document.get("b")
    binary = len(classes) == 2
    rows = [w] if binary else w
    intercepts = [b] if binary else b
    if not isinstance(rows, list) or not all(isinstance(r, list) for r in rows):
        raise bad("w", "a list of numbers" if binary else "a list of rows, one per class", _shown(w))
    if not binary and len(rows) != len(classes):
        raise bad("w", f"{len(classes)} rows (one per class)", f"{len(rows)} rows")
    if any(len(r) != n_features for r in rows):
        lengths = ", ".join(str(len(r)) for r in rows[:10]) + (", ..." if len(rows) > 10 else "")
        raise bad("w", f"{n_features} weights per row (n_features)", lengths)
    if not isinstance(intercepts, list) or len(intercepts) != len(rows):
        raise bad("b", "a number" if binary else f"a list of {len(rows)} numbers", _shown(b))
    dtype = object if exact else np.float64
    coef = np.array([[_parse_weight(v, "w", exact, source) for v in r] for r in rows], dtype=dtype)
    intercept = np.array([_parse_weight(v, "b", exact, source) for v in intercepts], dtype=dtype)
    return {"exact": exact, "algorithm": algorithm, "estimator": estimator, "params": params,
            "training": training, "classes": np.asarray(classes), "n_features": n_features,
            "feature_names": feature_names, "label_name": label_name, "coef": coef, "intercept": intercept,
            "scaler": scaler}


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
    _check_file(path, "model file")
    where = model_source(path)
    size = path.stat().st_size
    check_budget(JSON_BYTES_PER_BYTE * size, where, file_size=size, detail=f"the JSON of a {format_bytes(size)} file")
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
    except RecursionError:
        raise fail(where, "a model document", "JSON nested too deeply to read",
                   "The file is damaged or not a model; save the model again.") from None
    except ValueError as exc:  # an integer of more than 4,300 digits (Python's limit for int(text))
        raise fail(where, "numbers of at most 4,300 digits", f"a longer one ({str(exc)[:60]}...)",
                   _DAMAGED) from None
    if not isinstance(document, dict) or document.get("format") != MODEL_FORMAT:
        got = (f"format tag {_shown(document.get('format'))}" if isinstance(document, dict) and "format" in document
               else "a JSON document without it")
        raise fail(where, f"a perceptronlab model (\"format\": \"{MODEL_FORMAT}\")", got,
                   "Load a file written by perceptronlab.save_model or `perceptronlab train --out`.")
    version = document.get("version")
    if isinstance(version, bool) or not isinstance(version, int) or version < 1:
        raise bad_model(where, "version", "an integer >= 1", _shown(version))
    if version > MODEL_VERSION:
        raise fail(where, f"model format version {MODEL_VERSION} or older", f"version {version}",
                   "The file was written by a newer perceptronlab; upgrade perceptronlab to load it.")
    return document
