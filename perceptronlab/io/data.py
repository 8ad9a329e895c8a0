"""Data files: CSV (with a header), TSV, LIBSVM/svmlight, ``.npy`` and ``.npz`` read into ``(X, y)``.

Every bad file (missing, empty, truncated, corrupt, foreign) gets one clear
:class:`~perceptronlab.exceptions.InputError` that says what was wrong, what was expected, what came
and how to fix it. Every reader works out the memory a file needs from what it declares or implies
(rows × columns, a LIBSVM feature index, an .npy header, an .npz archive's sizes) and refuses it
before allocating when it exceeds the budget (``max_bytes``; :mod:`perceptronlab._ground.memory`).
"""

from __future__ import annotations

import csv
import lzma
import math
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

from perceptronlab._ground.files import check_readable_file
from perceptronlab._ground.memory import check_budget, format_bytes, parse_bytes
from perceptronlab._ground.numbers import parse_exact
from perceptronlab._ground.validation import check_exact_matrix, fail
from perceptronlab.exceptions import InputError

if TYPE_CHECKING:
    from numpy.typing import NDArray

#: what a reader returns: X (float64 C-contiguous, CSR, or rows of Fractions) and the labels (None
#: without a label column)
_Data: TypeAlias = "tuple[Any, NDArray[Any] | None]"

__all__ = ["read_data", "read_columns", "DATA_FORMATS"]

#: data formats and the file extensions that select them
DATA_FORMATS: dict[str, tuple[str, ...]] = {
    "csv": (".csv",),
    "tsv": (".tsv", ".tab"),
    "libsvm": (".libsvm", ".svm", ".svmlight"),
    "npy": (".npy",),
    "npz": (".npz",),
}
_FORMAT_ALIASES = {"svmlight": "libsvm", "svm": "libsvm"}


# ================================================================ data

#: bytes a cell costs while a file is read: float64 (the parsed table and X) and exact (a Fraction)
FLOAT_CELL_BYTES = 16
EXACT_CELL_BYTES = 160
#: the parsed entries of a LIBSVM file take about this many times the file's size
LIBSVM_BYTES_PER_FILE_BYTE = 4

# what NumPy's header parsers and the zip reader raise on hostile bytes (besides InputError)
_PARSE_ERRORS = (
    ValueError,
    TypeError,
    SyntaxError,
    tokenize.TokenError,
    OverflowError,
    MemoryError,
    RecursionError,
    KeyError,
    EOFError,
    OSError,
    RuntimeError,
    NotImplementedError,
    zlib.error,
    zipfile.BadZipFile,
    zipfile.LargeZipFile,
    struct.error,
    lzma.LZMAError,
)


def _data_format(path: Path, fmt: str | None) -> str:
    if fmt is not None:
        key = _FORMAT_ALIASES.get(str(fmt).lower(), str(fmt).lower())
        if key not in DATA_FORMATS:
            raise fail(
                "fmt (the data format)",
                "one of " + ", ".join(DATA_FORMATS),
                repr(fmt),
                "Pass e.g. fmt='csv', or leave it out to choose by the file extension.",
            )
        return key
    suffix = path.suffix.lower()
    for key, suffixes in DATA_FORMATS.items():
        if suffix in suffixes:
            return key
    known = ", ".join(s for suffixes in DATA_FORMATS.values() for s in suffixes)
    raise fail(
        f"data file {str(path)!r}",
        f"an extension of {known}",
        repr(suffix) if suffix else "no extension",
        "Rename the file to one of those extensions, or name its format, e.g. fmt='csv' (one of "
        + ", ".join(DATA_FORMATS)
        + ").",
    )


def _check_size(path: Path, needed: float, detail: str, max_bytes: Any) -> None:
    """The memory budget (:func:`perceptronlab._ground.memory.check_budget`) for reading ``path``."""
    check_budget(
        needed,
        f"data file {str(path)!r}",
        max_bytes=max_bytes,
        file_size=path.stat().st_size,
        detail=detail,
    )


def read_data(
    path: str | os.PathLike[str],
    *,
    label: str | None = None,
    fmt: str | None = None,
    exact: bool = False,
    has_label: bool = True,
    features: Sequence[str] | None = None,
    max_bytes: int | str | None = None,
) -> _Data:
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
        check_readable_file(path)
    kind = _data_format(path, fmt)
    check_readable_file(path)
    if max_bytes is not None:
        max_bytes = parse_bytes(max_bytes)
    _check_columns(kind, label, features, has_label)
    if kind in ("csv", "tsv"):
        return _read_csv(
            path,
            label=label,
            delimiter="," if kind == "csv" else "\t",
            exact=exact,
            has_label=has_label,
            features=features,
            max_bytes=max_bytes,
        )
    return _read_arrays(path, kind, has_label, exact, max_bytes)


def _check_columns(
    kind: str, label: str | None, features: Sequence[str] | None, has_label: bool
) -> None:
    """``label`` and ``features`` name CSV columns only, and a label only where there is one."""
    if label is not None and not has_label:
        raise fail(
            "label", "no label column with has_label=False", repr(label), "Drop one of the two."
        )
    if (label is not None or features is not None) and kind not in ("csv", "tsv"):
        name = "label" if label is not None else "features"
        raise fail(
            name,
            "no column names for a " + kind + " file",
            repr(label if label is not None else features),
            "Only CSV files have named columns; .npy uses the last column, .npz the array 'y', "
            "LIBSVM the first field of each line.",
        )


def _read_arrays(path: Path, kind: str, has_label: bool, exact: bool, max_bytes: Any) -> _Data:
    """A LIBSVM, .npy or .npz file as (X, y) (y None without labels; X in Fractions if exact)."""
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
    check_readable_file(path)
    return _csv_header(path, "," if kind == "csv" else "\t", f"CSV file {str(path)!r}")[1]


def _tidy_labels(values: list[str] | np.ndarray) -> np.ndarray:
    """Labels as integers when all are whole numbers, else floats, else the strings themselves."""
    if isinstance(values, np.ndarray) and values.dtype.kind in "iub":
        return values.astype(np.int64) if values.dtype.kind != "b" else values
    try:
        floats = np.asarray(values, dtype=np.float64)
    except (TypeError, ValueError, OverflowError):
        return np.asarray(values, dtype=str)
    if (
        floats.size
        and np.all(np.isfinite(floats))
        and np.all(floats == np.round(floats))
        and np.all(np.abs(floats) < 2**53)
    ):
        return floats.astype(np.int64)
    return floats


def _csv_rows(
    path: Path, delimiter: str, where: str
) -> Generator[tuple[int, list[str]], None, None]:
    """The non-blank rows of a CSV file as (line number, stripped cells), one at a time."""
    try:
        with open(path, newline="", encoding="utf-8-sig") as handle:
            reader = csv.reader(handle, delimiter=delimiter)
            for row in reader:
                if row and any(c.strip() for c in row):
                    yield reader.line_num, [c.strip() for c in row]
    except UnicodeDecodeError as exc:
        raise fail(
            where,
            "UTF-8 text",
            f"undecodable bytes at byte {exc.start}",
            "Is it a binary file (use .npy/.npz) or another encoding? Save it as UTF-8 CSV.",
        ) from None
    except csv.Error as exc:
        raise fail(
            where,
            "well-formed CSV",
            f"a CSV syntax error ({exc})",
            "The file may be corrupt or truncated; check the quoting and re-export it.",
        ) from None


def _csv_header(path: Path, delimiter: str, where: str) -> tuple[int, list[str]]:
    rows = _csv_rows(path, delimiter, where)
    try:
        return next(rows)
    except StopIteration:
        raise fail(
            where, "a header row and data rows", "only blank lines", "Write the data into the file."
        ) from None
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


def _csv_fast(
    path: Path,
    delimiter: str,
    header_line: int,
    width: int,
    feature_cols: list[int],
    label_col: int,
) -> _Data | None:
    """Well-formed files in NumPy's C parser; None when anything is unusual (the careful path then
    reads the file again and names the bad line).

    All-numeric files are parsed as one table; a file with text labels or other text columns is
    parsed again with those columns turned into codes (features stay numbers)."""

    options: dict[str, Any] = dict(
        delimiter=delimiter,
        skiprows=header_line,
        comments=None,
        quotechar='"',
        dtype=np.float64,
        ndmin=2,
        encoding="utf-8-sig",
    )
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


def _read_csv(
    path: Path,
    *,
    label: str | None,
    delimiter: str,
    exact: bool,
    has_label: bool = True,
    features: Sequence[str] | None = None,
    max_bytes: Any = None,
) -> _Data:
    where = f"CSV file {str(path)!r}"
    header_line, header = _csv_header(path, delimiter, where)
    n_needed = 1 + has_label if features is None else len(features) + has_label
    if len(header) < max(n_needed, 1 + has_label):
        raise fail(
            where,
            "at least two columns (features and a label)" if has_label else "a feature column",
            f"{len(header)} column in the header {header!r}",
            "Separate the columns with commas"
            + (" (tab-separated files need .tsv)" if delimiter == "," else "")
            + ".",
        )
    if all(is_number(c) for c in header):
        raise fail(
            where,
            f"a header row of column names on line {header_line}",
            f"numbers {header[:4]!r}",
            "Add a header line such as 'x1,x2,y' (the label column is the last one by default).",
        )
    label_col = _label_column(header, label, has_label, features)
    feature_cols = _feature_columns(where, header, features, label_col)
    width = len(header)
    rows = max(0, _count_lines(path) - header_line)
    per_cell = EXACT_CELL_BYTES if exact else FLOAT_CELL_BYTES
    _check_size(
        path,
        rows * width * per_cell,
        f"up to {rows:,} rows × {width:,} columns × {per_cell} bytes"
        + (" (exact)" if exact else ""),
        max_bytes,
    )
    data = (
        _csv_fast(path, delimiter, header_line, width, feature_cols, label_col)
        if not exact
        else None
    )
    if data is None:
        data = _csv_careful(path, delimiter, where, header, feature_cols, label_col, exact, rows)
    _refuse_index_column(where, header, feature_cols, data[0])
    return data


def _refuse_index_column(where: str, header: list[str], feature_cols: list[int], X: Any) -> None:
    """A first feature column without a name that counts 0, 1, …, n − 1 is the row index pandas
    writes with ``df.to_csv(path)``: not a feature, and training on it would go on without a word."""
    if not feature_cols or feature_cols[0] != 0 or header[0].strip():
        return
    column = [row[0] for row in X] if isinstance(X, list) else X[:, 0].tolist()
    if len(column) < 2 or any(value != i for i, value in enumerate(column)):
        return
    raise fail(
        where,
        "feature columns",
        f"an unnamed first column 0, 1, 2, …, {len(column) - 1}: the row index "
        "that pandas writes with df.to_csv(path)",
        "Write the file with df.to_csv(path, index=False), or drop its first column (e.g. cut -d, -f2-).",
    )


def _label_column(
    header: list[str], label: str | None, has_label: bool, features: Sequence[str] | None
) -> int:
    if not has_label:
        return -1
    if label is None:
        if features is not None:
            raise fail(
                "label",
                "the label column's name when features are named",
                "none",
                "Pass label='y' (the column of the labels), or has_label=False.",
            )
        return len(header) - 1
    matches = [j for j, name in enumerate(header) if name == label]
    if not matches:
        raise fail(
            "label",
            "a column name of the header (" + ", ".join(map(repr, header)) + ")",
            repr(label),
            "Pass one of the header's names, or leave it out for the last column.",
        )
    if len(matches) > 1:
        raise fail(
            "label",
            "a column name that occurs once",
            f"{repr(label)} {len(matches)} times",
            "Rename the duplicate columns.",
        )
    return matches[0]


def _feature_columns(
    where: str, header: list[str], features: Sequence[str] | None, label_col: int
) -> list[int]:
    if features is None:
        return [j for j in range(len(header)) if j != label_col]
    names = [str(name) for name in features]
    in_header, in_names = Counter(header), Counter(names)
    missing = [name for name in names if name not in in_header]
    if missing:
        raise fail(
            where,
            "the feature columns " + ", ".join(map(repr, names)),
            "no column "
            + ", ".join(map(repr, missing))
            + " in the header ("
            + ", ".join(map(repr, header))
            + ")",
            "Use a file with those columns (in any order; other columns are ignored).",
        )
    repeated = sorted({name for name in names if in_header[name] > 1 or in_names[name] > 1})
    if repeated:
        raise fail(
            where,
            "feature columns whose names occur once",
            "repeated " + ", ".join(map(repr, repeated)),
            "Rename the duplicate columns.",
        )
    position = {
        name: j for j, name in reversed(list(enumerate(header)))
    }  # the first, as header.index
    columns = [position[name] for name in names]
    if label_col in columns:
        raise fail(
            "label",
            "a column that is not a feature",
            repr(header[label_col]),
            "Name the label column, or leave it out of the features.",
        )
    return columns


def _csv_careful(
    path: Path,
    delimiter: str,
    where: str,
    header: list[str],
    feature_cols: list[int],
    label_col: int,
    exact: bool,
    rows: int,
) -> _Data:
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
            raise fail(
                where,
                f"{width} cells on every line (as in the header)",
                f"{len(row)} on line {line}",
                "Fix the ragged line (a truncated file ends in a short line).",
            )
        if label_col >= 0:
            if row[label_col] == "":
                raise fail(
                    where,
                    f"a label in column {names[label_col]!r}",
                    f"an empty cell on line {line}",
                    "Fill in or drop the row.",
                )
            labels.append(row[label_col])
        if exact:
            X.append([_exact_cell(row[j], where, line, names[j]) for j in feature_cols])
        else:
            if (
                n == X.shape[0]
            ):  # pragma: no cover - more rows than lines cannot happen; grow anyway
                X = np.resize(X, (2 * n, X.shape[1]))
            for k, j in enumerate(feature_cols):
                X[n, k] = _float_cell(row[j], where, line, names[j])
        n += 1
    if n == 0:
        raise fail(
            where,
            "data rows below the header",
            "only the header",
            "Add the examples, one per line.",
        )
    y = _tidy_labels(labels) if label_col >= 0 else None
    return (X if exact else X[:n]), y


def _float_cell(text: str, where: str, line: int, column: str) -> float:
    try:
        value = float(text)
    except ValueError:
        got = (
            "an empty cell" if text == "" else repr(text if len(text) <= 40 else text[:40] + "...")
        )
        fix = "Fix or drop the row; encode categories as numbers first."
        if (
            text.strip()
        ):  # words in a feature column: often the labels, in a column that is not the last
            fix = (
                f"If column {column!r} holds the labels, name it: label='{column}'; else fix or drop the row, "
                "or encode categories as numbers first."
            )
        raise fail(where, f"a number in column {column!r}", f"{got} on line {line}", fix) from None
    if not math.isfinite(value):
        raise fail(
            where,
            f"a finite number in column {column!r}",
            f"{text[:40]!r} on line {line}",
            "Remove or impute the rows with NaN or inf.",
        )
    return value


def is_number(text: str) -> bool:
    """Whether ``float`` reads the text (a header's cells are not all numbers)."""
    try:
        float(text)
    except ValueError:
        return False
    return True


def _exact_cell(text: str, where: str, line: int, column: str) -> Fraction:
    what, expected = f"{where}, column {column!r}", "an exact number (like 2, -0.5 or 1/3)"
    if text == "":
        raise fail(what, expected, f"an empty cell on line {line}", "Fix or drop the row.")
    return parse_exact(
        text, what, expected=expected, fix="Fix or drop the row.", at=f" on line {line}"
    )


def _read_libsvm(path: Path, exact: bool = False, max_bytes: Any = None) -> _Data:
    from sklearn.datasets import load_svmlight_file

    where = f"LIBSVM file {str(path)!r}"
    size = path.stat().st_size
    _check_size(
        path,
        LIBSVM_BYTES_PER_FILE_BYTE * size,
        f"the entries of a {format_bytes(size)} file",
        max_bytes,
    )
    try:
        X, y = load_svmlight_file(str(path))
    except UnicodeDecodeError:
        raise fail(
            where,
            "text lines 'label index:value ...'",
            "undecodable bytes",
            "Is it another format? Name it with fmt=... .",
        ) from None
    except OverflowError:
        raise fail(
            where,
            "feature indices below 2,147,483,648 (2^31)",
            "a larger index",
            "Number the features from 1 (or 0) upwards; the file may be corrupt.",
        ) from None
    except (ValueError, IndexError, TypeError, RuntimeError) as exc:
        raise fail(
            where,
            "lines 'label index:value ...' with numbers",
            f"a malformed line ({exc})",
            "The file may be corrupt or truncated; re-export it.",
        ) from None
    except MemoryError:
        raise fail(
            where,
            "a file that fits in memory",
            "a file too large to parse",
            "Read a smaller file, or train out of core (--stream).",
        ) from None
    n, d = X.shape
    if n == 0:
        raise fail(
            where, "at least one example line", "no examples", "Write the data into the file."
        )
    # LIBSVM stays sparse; but every feature index up to the largest gets a weight (8 bytes), and
    # exact mode turns the rows into dense rows of Fractions
    needed = 8 * d + (n * d * EXACT_CELL_BYTES if exact else 0)
    detail = (
        f"{n:,} rows × {d:,} columns as exact dense rows"
        if exact
        else f"largest feature index {d:,}: a weight vector of {d:,} numbers"
    )
    _check_size(path, needed, detail, max_bytes)
    if not np.all(np.isfinite(X.data)):
        row = int(np.searchsorted(X.indptr, np.flatnonzero(~np.isfinite(X.data))[0], side="right"))
        raise fail(
            where,
            "finite feature values",
            f"NaN or inf in example {row} (counting from 1)",
            "Remove or impute the rows with NaN or inf.",
        )
    return X.tocsr(), _tidy_labels(y)


def _not_numpy(path: Path, kind: str, head: bytes) -> InputError:
    shown = head[:16]
    text_like = all(32 <= b < 127 or b in (9, 10, 13) for b in shown)
    hint = (
        f"a file that starts with {shown.decode('ascii', 'replace')!r}: text, perhaps CSV or LIBSVM; "
        "name its format (fmt='csv')"
        if text_like and shown
        else f"a file that starts with the bytes {shown!r}"
    )
    magic = "\\x93NUMPY" if kind == ".npy" else "PK (a zip archive)"
    return fail(
        f"{kind} file {str(path)!r}",
        f"a NumPy {kind} file (starting with {magic})",
        hint,
        "Save the arrays with "
        + ("np.save" if kind == ".npy" else "np.savez(path, X=X, y=y)")
        + ", or read the file in its own format.",
    )


def _npy_header(handle: IO[bytes], where: str) -> tuple[tuple[int, ...], bool, np.dtype]:
    """Shape, Fortran order and dtype of the .npy stream at ``handle`` (positioned at its start)."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter(
                "ignore"
            )  # Python's notes on a forged header's text (bad escapes)
            version = np.lib.format.read_magic(handle)
            if version == (1, 0):
                shape, fortran, dtype = np.lib.format.read_array_header_1_0(handle)
            elif version == (2, 0):
                shape, fortran, dtype = np.lib.format.read_array_header_2_0(handle)
            else:
                raise fail(
                    where,
                    "an .npy file of format version 1.0 or 2.0 (a plain numeric array)",
                    f"version {version[0]}.{version[1]}",
                    "Save a numeric array with np.save.",
                )
    except InputError:
        raise
    except _PARSE_ERRORS as exc:
        raise fail(
            where,
            "a valid .npy header",
            f"a corrupt or truncated header ({_error_name(exc)})",
            "The file may be truncated; write it again.",
        ) from None
    if not isinstance(shape, tuple) or not all(isinstance(n, int) and n >= 0 for n in shape):
        raise fail(
            where, "a header with a shape of sizes >= 0", repr(shape)[:60], "Write the file again."
        )
    if dtype.hasobject:
        raise fail(
            where,
            "numeric arrays",
            "an object array (pickled data)",
            "Save plain numeric arrays (np.save(path, X.astype(float))); pickles are never loaded.",
        )
    return shape, fortran, dtype


def _error_name(exc: BaseException) -> str:
    """The kind of a reading error for a message: zlib's ``error`` says which codec it is."""
    name = type(exc).__name__
    return f"{type(exc).__module__}.{name}" if name == "error" else name


def _check_declared(
    where: str, shape: tuple[int, ...], dtype: np.dtype[Any], available: int
) -> None:
    """Refuse a header that declares more data than the file holds (a truncated or forged file)."""
    declared = math.prod(shape) * dtype.itemsize
    if declared > available:
        raise fail(
            where,
            f"the {format_bytes(declared)} of data its header declares (shape {shape})",
            f"{format_bytes(max(available, 0))}: a truncated or corrupt file",
            "The file may be truncated; write it again.",
        )


def _check_numeric(where: str, dtype: np.dtype, what: str = "array") -> None:
    if dtype.kind not in "biuf":
        raise fail(
            where, f"a numeric {what}", f"dtype {dtype}", f"Convert it with {what}.astype(float)."
        )


def _read_npy(
    path: Path, has_label: bool = True, exact: bool = False, max_bytes: Any = None
) -> _Data:
    where = f".npy file {str(path)!r}"
    with open(path, "rb") as handle:
        head = handle.read(6)
        if head != b"\x93NUMPY":
            raise _not_numpy(path, ".npy", head + handle.read(10))
        handle.seek(0)
        shape, _, dtype = _npy_header(handle, where)
        available = path.stat().st_size - handle.tell()
    if len(shape) != 2 or shape[1] < 1 + has_label:
        raise fail(
            where,
            "a 2-D array with at least 2 columns (features, then the label)",
            f"shape {shape}",
            "Save np.column_stack([X, y]); or save X and y in a .npz.",
        )
    _check_numeric(where, dtype)
    _check_declared(where, shape, dtype, available)
    n, width = shape
    d = width - has_label
    per_cell = EXACT_CELL_BYTES if exact else 8
    _check_size(path, n * d * per_cell, f"{n:,} rows × {d:,} columns × {per_cell} bytes", max_bytes)
    try:
        arr = np.load(path, mmap_mode="r", allow_pickle=False)  # the file's pages, not a copy
    except _PARSE_ERRORS as exc:
        raise fail(
            where,
            "a valid .npy file",
            f"unreadable data ({type(exc).__name__}: {exc})",
            "The file may be truncated or not a NumPy file; write it again.",
        ) from None
    if not has_label:
        return np.array(arr, dtype=np.float64, order="C"), None
    X = np.array(arr[:, :-1], dtype=np.float64, order="C")
    return X, _tidy_labels(np.array(arr[:, -1]))


def _lzma_dictionary(archive: zipfile.ZipFile, info: zipfile.ZipInfo) -> int:
    """The dictionary an LZMA member's decoder allocates (declared in its first bytes: up to 4 GiB),
    read before the member is opened; 0 for other codecs or a header too short to say."""
    if info.compress_type != zipfile.ZIP_LZMA or archive.fp is None:
        return 0
    handle = archive.fp
    handle.seek(info.header_offset)
    local = handle.read(30)
    if len(local) < 30 or local[:4] != b"PK\x03\x04":
        return 0
    skip = int.from_bytes(local[26:28], "little") + int.from_bytes(local[28:30], "little")
    handle.seek(info.header_offset + 30 + skip)
    head = handle.read(
        9
    )  # version (2), size of the properties (2), properties (5: lc/lp/pb, dictionary)
    return int.from_bytes(head[5:9], "little") if len(head) == 9 else 0


def _npz_member(
    archive: zipfile.ZipFile, name: str, where: str, max_bytes: Any = None
) -> tuple[zipfile.ZipInfo, tuple[int, ...], np.dtype[Any]]:
    info = archive.getinfo(name)
    dictionary = _lzma_dictionary(archive, info)
    if dictionary:  # before the decoder is made: its dictionary is allocated in full
        check_budget(
            dictionary,
            f"{where}, array {name[:-4]!r}",
            max_bytes=max_bytes,
            detail=f"an LZMA dictionary of {format_bytes(dictionary)}",
        )
    with archive.open(info) as member:
        shape, _, dtype = _npy_header(member, f"{where}, array {name[:-4]!r}")
        header_size = member.tell()
    _check_declared(f"{where}, array {name[:-4]!r}", shape, dtype, info.file_size - header_size)
    return info, shape, dtype


def _check_label_shape(where: str, shape: tuple[int, ...], n: int) -> None:
    """y's shape (from its header) against X's rows: one label per row, a 1-D array (or a column)."""
    if len(shape) == 2 and 1 in shape:
        shape = (shape[0] * shape[1],)
    if len(shape) != 1:
        raise fail(where, "y as a 1-D array of labels", f"shape {shape}", "Save y.ravel().")
    if shape[0] != n:
        raise fail(
            where,
            f"one label per row of X ({n:,})",
            f"{shape[0]:,} labels",
            "Save X and y of the same rows.",
        )


def _read_npz(
    path: Path, has_label: bool = True, exact: bool = False, max_bytes: Any = None
) -> _Data:
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
                raise fail(
                    where,
                    "arrays named 'X' and 'y'" if has_label else "an array named 'X'",
                    "arrays " + repr(stored)[:200],
                    "Save with np.savez(path, X=X, y=y).",
                )
            members = {k: _npz_member(archive, f"{k}.npy", where, max_bytes) for k in wanted}
            _, x_shape, x_dtype = members["X"]
            if len(x_shape) != 2:
                raise fail(
                    where,
                    "X as a 2-D array (rows are examples)",
                    f"shape {x_shape}",
                    "Save X.reshape(len(X), -1).",
                )
            _check_numeric(where, x_dtype, "X")
            n, d = x_shape
            if n == 0 or d == 0:
                raise fail(
                    where,
                    "X with at least one row and one feature column",
                    f"shape {x_shape}",
                    "Save a non-empty X (rows are examples, columns features).",
                )
            if (
                has_label
            ):  # the members against each other, from their headers, before decompressing either
                _check_label_shape(where, members["y"][1], n)
            declared = sum(info.file_size for info, _, _ in members.values())
            converted = (
                n * d * EXACT_CELL_BYTES if exact else (0 if x_dtype == np.float64 else n * d * 8)
            )
            _check_size(
                path,
                declared + converted,
                f"{n:,} rows × {d:,} columns: {format_bytes(declared)} unpacked"
                + (f" + {format_bytes(converted)} converted" if converted else ""),
                max_bytes,
            )
            arrays: dict[str, np.ndarray] = {}
            for key, (info, _, _) in members.items():
                with archive.open(info) as member:
                    arrays[key] = np.lib.format.read_array(member, allow_pickle=False)
    except InputError:
        raise
    except _PARSE_ERRORS as exc:
        raise fail(
            where,
            "a valid .npz archive",
            f"a corrupt archive ({type(exc).__name__}: {str(exc)[:80]})",
            "The file may be truncated; write it again.",
        ) from None
    X = arrays["X"]
    if not has_label:
        return np.ascontiguousarray(X, dtype=np.float64), None
    y = np.asarray(arrays["y"])
    if y.ndim == 2 and 1 in y.shape:
        y = y.ravel()
    if y.ndim != 1:
        raise fail(where, "y as a 1-D array of labels", f"shape {y.shape}", "Save y.ravel().")
    if X.shape[0] != y.shape[0]:
        raise fail(
            where,
            f"one label per row of X ({X.shape[0]})",
            f"{y.shape[0]} labels",
            "Save X and y of the same rows.",
        )
    if y.dtype.kind in "biuf":
        y = _tidy_labels(y)
    return np.ascontiguousarray(X, dtype=np.float64), y
