"""Data sources read partition by partition: dask arrays, dask DataFrames, Parquet, CSV and LIBSVM.

A :class:`Source` is a list of small partition descriptors plus the functions that turn one
descriptor into numbers. Nothing here ever holds more than one partition: Parquet is read one row
group at a time, CSV and LIBSVM one byte range (aligned to line starts) at a time, dask collections
one block at a time. The same three steps run in-process (stream, reference) and on Dask workers:

1. :func:`read_raw` -- one partition as ``(X, labels)`` (LIBSVM: CSR in the file's own indices);
2. :func:`summarize` -- its rows, width, smallest sparse index and distinct labels (small);
3. :func:`finalize` -- with the :class:`Spec` learned from every summary: validated float64 ``X``
   (C-contiguous, or CSR with ``n_features`` columns) and labels as ±1 signs.
"""

from __future__ import annotations

import glob
import io
import os
from collections.abc import Hashable, Sequence
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any, TypeAlias

import numpy as np
import scipy.sparse as sp

from perceptronlab._ground import validation as v
from perceptronlab.io.data import is_number

if TYPE_CHECKING:
    import dask.array as da
    import dask.dataframe as dd
    from numpy.typing import ArrayLike, NDArray

    #: what the scale functions read: a row-chunked dask array (its labels a dask ``y``), a dask
    #: DataFrame with a label column, or a path, directory or glob of Parquet, CSV or LIBSVM files
    DataSource: TypeAlias = str | os.PathLike[str] | da.Array | dd.DataFrame
    #: one partition as read: (X, labels), X not yet validated (LIBSVM: CSR in the file's indices)
    Raw: TypeAlias = tuple[Any, NDArray[Any]]
    #: one partition checked: float64 X (C-contiguous, or CSR) and the labels as ±1
    Finished: TypeAlias = tuple[Any, NDArray[np.float64]]

#: file extensions and the format each one means
EXTENSIONS = {
    ".parquet": "parquet",
    ".pq": "parquet",
    ".csv": "csv",
    ".libsvm": "libsvm",
    ".svm": "libsvm",
    ".svmlight": "libsvm",
    ".txt": "libsvm",
}
#: byte size of one CSV/LIBSVM partition
BLOCKSIZE = 64 * 2**20


@dataclass(frozen=True)
class Part:
    """One partition of a file: a Parquet row group, or the byte range [start, stop) of a text file."""

    kind: str
    path: str
    index: int = 0
    start: int = 0
    stop: int = 0

    def describe(self) -> str:
        if self.kind == "parquet":
            return f"{self.path} (row group {self.index})"
        return f"{self.path} (bytes {self.start}-{self.stop})"


@dataclass(frozen=True)
class Spec:
    """What reading needs beyond the descriptor; filled in from the summaries of every partition."""

    kind: str
    label: Any = None
    columns: tuple[Hashable, ...] = ()
    header: bool = True
    n_features: int | None = None
    zero_based: bool = True
    positive: Any = None  # classes[1]; labels equal to it become +1, all others -1


@dataclass
class Source:
    """The partitions of one dataset (descriptors, or dask ``Delayed`` blocks) and how to read them."""

    parts: list[Any]
    spec: Spec
    names: list[str] = field(default_factory=list)
    feature_names: list[str] | None = None
    n_rows: int | None = None
    classes: NDArray[Any] | None = None

    def __len__(self) -> int:
        return len(self.parts)

    def describe(self, i: int) -> str:
        return self.names[i] if self.names else f"partition {i}"

    def raw_task(self, i: int) -> Any:
        """A dask ``Delayed`` for :func:`read_raw` of partition ``i`` (runs on a worker)."""
        import dask

        return dask.delayed(read_raw, pure=False)(self.parts[i], self.spec)

    def read_local(self, i: int) -> Raw:
        """Partition ``i`` as raw ``(X, labels)``, computed in this process."""
        part = self.parts[i]
        if self.spec.kind in ("array", "frame"):
            import dask

            (part,) = dask.compute(part, scheduler="sync")
        return read_raw(part, self.spec)

    @property
    def n_features(self) -> int:
        """The width of X, known once :meth:`learn` has read every partition's summary."""
        assert self.spec.n_features is not None, "Source.learn(summaries) first"
        return self.spec.n_features

    def learn(self, summaries: list[dict[str, Any]]) -> None:
        """Check the summaries of every partition and fix the spec (width, classes)."""
        self.spec, self.classes, self.n_rows = learn_spec(self.spec, summaries, self.names)


# ---------------------------------------------------------------- opening a dataset


def open_source(
    X: DataSource,
    y: ArrayLike | None = None,
    *,
    label: Hashable | None = None,
    blocksize: int = BLOCKSIZE,
) -> Source:
    """A :class:`Source` for a dask array (+ dask ``y``), a dask DataFrame or a path/glob of files."""
    if isinstance(X, str | os.PathLike):
        _refuse_y(y, "a path (the labels are a column of the files)")
        return _file_source(os.fspath(X), label=label, blocksize=blocksize)
    try:
        import dask.array as da
        import dask.dataframe as dd
    except ImportError as exc:  # pragma: no cover - the dask extra is installed in development
        raise ImportError(
            "perceptronlab.distributed needs Dask: pip install 'perceptronlab[dask]'"
        ) from exc
    if isinstance(X, dd.DataFrame):
        _refuse_y(y, "a dask DataFrame (the labels are one of its columns)")
        return _frame_source(X, label)
    if isinstance(X, da.Array):
        return _array_source(X, y)
    raise v.fail(
        "X",
        "a row-chunked dask array, a dask DataFrame, or a path/glob of Parquet, CSV or "
        "LIBSVM files",
        type(X).__name__,
        "Wrap in-memory data with dask.array.from_array(X, chunks=(rows, -1)), or use "
        "perceptronlab.perceptron for data that fits in memory.",
    )


def _refuse_y(y: object, what_x_is: str) -> None:
    """Labels come from X's own column when X is a path or a DataFrame: a ``y`` is one line."""
    if y is not None:
        raise v.fail(
            "y",
            f"None when X is {what_x_is}",
            type(y).__name__,
            "Drop y and name the label column with label=.",
        )


def _array_source(X: da.Array, y: Any) -> Source:
    import dask.array as da

    if X.ndim != 2:
        raise v.fail(
            "X",
            "a 2-D dask array (rows are examples)",
            f"{X.ndim}-D shape {X.shape}",
            "Reshape it so that each example is one row.",
        )
    if y is None:
        raise v.fail(
            "y",
            "a dask array of labels (one per row of X)",
            "None",
            "Pass y=dask.array.from_array(labels, chunks=X.chunks[0]).",
        )
    if not isinstance(y, da.Array):
        y = da.from_array(np.asarray(y), chunks=(X.chunks[0],))
    if y.ndim == 2 and 1 in y.shape:
        y = y.reshape(-1)
    if y.ndim != 1:
        raise v.fail(
            "y (the labels)", "a 1-D dask array", f"shape {y.shape}", "Pass one label per row of X."
        )
    if not any(np.isnan(c) for c in X.chunks[0]) and not any(np.isnan(c) for c in y.chunks[0]):
        if X.shape[0] != y.shape[0]:
            raise v.label_count_error(X.shape[0], y.shape[0])
        if len(X.chunks[1]) > 1:
            X = X.rechunk({1: -1})  # a partition is a block of whole rows
        if y.chunks[0] != X.chunks[0]:
            y = y.rechunk((X.chunks[0],))
    elif len(X.chunks[1]) > 1 or X.numblocks[0] != y.numblocks[0]:
        raise v.fail(
            "X and y",
            "row chunks of known, equal sizes",
            "unknown chunk sizes",
            "Call X.compute_chunk_sizes() and y.compute_chunk_sizes() first.",
        )
    x_blocks = X.to_delayed().ravel()
    y_blocks = y.to_delayed().ravel()
    parts = [_pair(xb, yb) for xb, yb in zip(x_blocks, y_blocks, strict=True)]
    names = [f"block {i} of the dask array" for i in range(len(parts))]
    return Source(parts=parts, spec=Spec(kind="array"), names=names)


def _pair(x_block: Any, y_block: Any) -> Any:
    import dask

    return dask.delayed(tuple, pure=True)([x_block, y_block])


def _frame_source(frame: dd.DataFrame, label: Hashable | None) -> Source:
    columns = list(frame.columns)
    label = _pick_label(label, columns, "the dask DataFrame")
    parts = list(frame.to_delayed())
    names = [f"partition {i} of the dask DataFrame" for i in range(len(parts))]
    spec = Spec(kind="frame", label=label, columns=tuple(columns))
    return Source(
        parts=parts, spec=spec, names=names, feature_names=[str(c) for c in columns if c != label]
    )


def _pick_label(label: Hashable | None, columns: Sequence[Hashable], where: str) -> Hashable:
    if not columns:
        raise v.fail(
            where, "at least two columns (features and a label)", "no columns", "Check the data."
        )
    if label is None:
        return columns[-1]
    if label not in columns:
        shown = ", ".join(map(str, columns[:8])) + (", ..." if len(columns) > 8 else "")
        raise v.fail(
            "label",
            f"one of the columns of {where} ({shown})",
            repr(label),
            "Pass the name of the label column, or leave label=None for the last column.",
        )
    return label


def expand_paths(path: str) -> list[str]:
    """The files of a path: itself, a directory's data files, or a glob's matches (sorted)."""
    if os.path.isdir(path):
        files = sorted(
            os.path.join(path, f)
            for f in os.listdir(path)
            if _kind_of(f) is not None and not f.startswith(".")
        )
    elif glob.has_magic(path):
        files = sorted(f for f in glob.glob(path) if os.path.isfile(f))
    else:
        files = [path] if os.path.isfile(path) else []
    if not files:
        raise v.fail(
            "data path",
            "an existing file, directory or glob of Parquet/CSV/LIBSVM files",
            repr(path),
            "Check the path (quote globs like 'data/*.parquet' in the shell).",
        )
    return files


def _kind_of(path: str) -> str | None:
    name = path.lower()
    for ext, kind in EXTENSIONS.items():
        if name.endswith(ext):
            return kind
    return None


def _file_source(path: str, *, label: Hashable | None, blocksize: int) -> Source:
    files = expand_paths(path)
    found = {f: _kind_of(f) for f in files}
    unknown = [f for f, k in found.items() if k is None]
    if unknown:
        raise v.fail(
            "data file",
            "a .parquet, .csv or .libsvm/.svm/.txt file",
            repr(unknown[0]),
            "Rename the file with its format's extension.",
        )
    kinds = {f: k for f, k in found.items() if k is not None}
    if len(set(kinds.values())) > 1:
        raise v.fail(
            "data files",
            "one format for every file",
            ", ".join(sorted(set(kinds.values()))),
            "Point at one format at a time, e.g. 'data/*.parquet'.",
        )
    kind = kinds[files[0]]
    if kind == "parquet":
        return _parquet_source(files, label)
    if kind == "csv":
        return _csv_source(files, label, blocksize)
    if label is not None:
        raise v.fail(
            "label",
            "None for LIBSVM files (the label is the first field of each line)",
            repr(label),
            "Drop label=.",
        )
    parts = [p for f in files for p in _byte_ranges(f, "libsvm", 0, blocksize)]
    return Source(parts=parts, spec=Spec(kind="libsvm"), names=[p.describe() for p in parts])


def _same_columns(
    columns: tuple[str, ...] | None, names: tuple[str, ...], f: str, first: str, fix: str
) -> tuple[str, ...]:
    """The first file's columns, kept while every later file has the same; else one line naming
    the file, ending in ``fix``."""
    if columns is None:
        return names
    if names != columns:
        raise v.fail(
            f"the columns of {f}",
            f"the columns of {first} ({', '.join(columns)})",
            ", ".join(names),
            fix,
        )
    return columns


def _parquet_source(files: list[str], label: Hashable | None) -> Source:
    import pyarrow.parquet as pq

    parts: list[Part] = []
    columns: tuple[str, ...] | None = None
    for f in files:
        meta = pq.ParquetFile(f)
        names = tuple(meta.schema_arrow.names)
        columns = _same_columns(
            columns, names, f, files[0], "Write every Parquet file with the same schema."
        )
        parts += [Part("parquet", f, index=g) for g in range(meta.metadata.num_row_groups)]
    return _table_source("parquet", parts, columns, label, files[0])


def _csv_source(files: list[str], label: Hashable | None, blocksize: int) -> Source:
    parts: list[Part] = []
    columns: tuple[str, ...] | None = None
    header = True
    for f in files:
        with open(f, "rb") as fh:
            first = fh.readline()
        fields = [c.strip().strip('"') for c in first.decode("utf-8-sig").strip().split(",")]
        has_header = not all(is_number(c) for c in fields)
        names = tuple(fields) if has_header else tuple(str(j) for j in range(len(fields)))
        if columns is None:
            header = has_header
        columns = _same_columns(
            columns, names, f, files[0], "Write every CSV file with the same header."
        )
        parts += _byte_ranges(f, "csv", len(first) if has_header else 0, blocksize)
    return _table_source("csv", parts, columns, label, files[0], header=header)


def _table_source(
    kind: str,
    parts: list[Part],
    columns: tuple[str, ...] | None,
    label: Hashable | None,
    first: str,
    header: bool = True,
) -> Source:
    """The source of Parquet or CSV files with these columns: the label picked among them (default
    the last), the others the features; each part named by where it is."""
    assert columns is not None  # expand_paths returns at least one file
    label = _pick_label(label, list(columns), first)
    return Source(
        parts=parts,
        spec=Spec(kind=kind, label=label, columns=columns, header=header),
        names=[p.describe() for p in parts],
        feature_names=[c for c in columns if c != label],
    )


def _byte_ranges(path: str, kind: str, begin: int, blocksize: int) -> list[Part]:
    """Split [begin, size) into ranges of about ``blocksize`` bytes that start at line starts."""
    size = os.path.getsize(path)
    cuts = [begin]
    with open(path, "rb") as fh:
        while cuts[-1] + blocksize < size:
            fh.seek(cuts[-1] + blocksize)
            fh.readline()  # finish the line the cut fell into
            position = fh.tell()
            if position >= size:
                break
            cuts.append(position)
    cuts.append(size)
    return [
        Part(kind, path, index=i, start=a, stop=b)
        for i, (a, b) in enumerate(zip(cuts[:-1], cuts[1:], strict=True))
        if b > a
    ]


# ---------------------------------------------------------------- the three steps


def read_raw(part: Any, spec: Spec) -> Raw:
    """One partition as ``(X, labels)``; X is not yet validated (LIBSVM: CSR, the file's indices)."""
    kind = spec.kind
    if kind == "array":
        X_block, y_block = part
        return np.asarray(X_block), np.asarray(y_block).ravel()
    if kind == "frame":
        return _split_frame(part, spec)
    if kind == "parquet":
        import pyarrow.parquet as pq

        table = pq.ParquetFile(part.path).read_row_group(part.index)
        features = [c for c in spec.columns if c != spec.label]
        X = np.empty((table.num_rows, len(features)))
        for j, name in enumerate(features):
            column = table.column(name)
            try:
                X[:, j] = column.to_numpy(zero_copy_only=False)
            except (TypeError, ValueError) as exc:
                raise v.fail(
                    f"column {name!r} of {part.describe()}",
                    "numbers",
                    f"{column.type} values",
                    "Convert the column to a numeric type.",
                ) from exc
        return X, table.column(spec.label).to_numpy(zero_copy_only=False)
    with open(part.path, "rb") as fh:
        fh.seek(part.start)
        data = fh.read(part.stop - part.start)
    if kind == "csv":
        import pandas as pd

        frame = pd.read_csv(io.BytesIO(data), header=None, names=list(spec.columns))
        return _split_frame(frame, spec, where=part.describe())
    from sklearn.datasets import load_svmlight_file

    try:
        X, labels = load_svmlight_file(io.BytesIO(data), zero_based=True, dtype=np.float64)
    except ValueError as exc:
        raise v.fail(
            part.describe(),
            "LIBSVM lines 'label index:value ...'",
            str(exc),
            "Fix the malformed line.",
        ) from exc
    return X, labels


def _split_frame(frame: Any, spec: Spec, where: str = "a DataFrame partition") -> Raw:
    features = [c for c in frame.columns if c != spec.label]
    try:
        X = frame[features].to_numpy(dtype=np.float64)
    except (TypeError, ValueError) as exc:
        raise v.fail(
            f"the feature columns of {where}",
            "numbers",
            f"a cell that is not a number ({exc})",
            "Fix or drop non-numeric cells.",
        ) from exc
    return X, frame[spec.label].to_numpy()


def summarize(raw: Raw) -> dict[str, Any]:
    """Rows, width, smallest stored sparse index, distinct labels and the first non-finite cell."""
    X, labels = raw
    labels = np.asarray(labels)
    summary: dict[str, Any] = {
        "rows": int(X.shape[0]),
        "width": int(X.shape[1]) if X.ndim == 2 else -1,
        "ndim": X.ndim,
        "min_index": None,
        "bad": None,
        "labels": None,
        "label_error": None,
    }
    if sp.issparse(X):
        if X.nnz:
            summary["min_index"] = int(X.indices.min())
        values = X.data
    else:
        values = X
    if X.ndim == 2 and not np.isfinite(values).all():
        summary["bad"] = "NaN or inf"
    if labels.shape[0] != X.shape[0]:
        summary["label_error"] = f"{labels.shape[0]} labels for {X.shape[0]} rows"
    elif labels.shape[0]:
        try:
            summary["labels"] = v.distinct_labels(labels)
        except TypeError:
            summary["label_error"] = "labels of mixed types"
    return summary


def learn_spec(
    spec: Spec, summaries: list[dict[str, Any]], names: list[str]
) -> tuple[Spec, NDArray[Any], int]:
    """Check every partition's summary; return (spec with width and positive class, classes, rows)."""
    widths = set()
    min_index = None
    distinct = []
    for i, s in enumerate(summaries):
        where = names[i] if names else f"partition {i}"
        if s["ndim"] != 2:
            raise v.fail(f"X in {where}", "a 2-D block", f"{s['ndim']}-D", "Pass a 2-D dask array.")
        if s["bad"]:
            raise v.fail(
                f"X in {where}",
                "finite values",
                s["bad"],
                "Remove or impute the rows with NaN or inf.",
            )
        if s["label_error"]:
            raise v.fail(
                f"the labels of {where}",
                "one label per row, of one type",
                s["label_error"],
                "Check that X and y come from the same rows.",
            )
        if s["rows"]:
            widths.add(s["width"])
            distinct.append(s["labels"])
        if s["min_index"] is not None:
            min_index = s["min_index"] if min_index is None else min(min_index, s["min_index"])
    n_rows = sum(s["rows"] for s in summaries)
    if n_rows == 0:
        raise v.fail(
            "the data", "at least one example", "0 rows", "Check the path or the collection."
        )
    if spec.kind == "libsvm":
        zero_based = min_index == 0
        width = max(widths)
        n_features = max(width - (0 if zero_based else 1), 1)
        spec = replace(spec, zero_based=zero_based, n_features=n_features)
    else:
        if len(widths) > 1:
            raise v.fail(
                "X",
                "the same number of features in every partition",
                sorted(widths),
                "Check that the partitions come from one dataset.",
            )
        (n_features,) = widths
        if n_features == 0:
            raise v.fail(
                "X", "at least one feature", "0 features", "Pass a dataset with feature columns."
            )
        spec = replace(spec, n_features=n_features)
    with v.comparable_labels():
        union = v.distinct_labels(np.concatenate(distinct))
    _, classes = v.check_labels(union)
    return replace(spec, positive=classes[-1]), classes, n_rows


def finalize(raw: Raw, spec: Spec) -> Finished:
    """Validated float64 X (C-contiguous, or CSR of ``n_features`` columns) and the labels as ±1."""
    X, labels = raw
    if spec.kind == "libsvm":
        X = sp.csr_matrix(X)
        indices = X.indices if spec.zero_based else X.indices - 1
        X = sp.csr_matrix((X.data, indices, X.indptr), shape=(X.shape[0], spec.n_features))
        X.sort_indices()
    else:
        X = v.check_matrix(X, dtypes=(np.float64,))
    signs = np.where(np.asarray(labels) == spec.positive, 1.0, -1.0)
    return X, signs


def load_local(source: Source, i: int) -> Finished:
    """Partition ``i`` read, checked and converted in this process."""
    return finalize(source.read_local(i), source.spec)
