"""A practitioner's table: a CSV file's named columns made into features, and the recipe kept.

A table as it comes (a label column, measurements, a text column or two, ``NA`` cells, a column to
leave out) becomes ``X`` in three steps, each one scikit-learn's:

- the columns: ``features`` (names as in the header, spaces and parentheses included) or every
  column but the label and ``ignore``;
- the missing cells (``""``, ``NA``, ``N/A``, ``NaN``, ``null``, ``None``: pandas' default list):
  ``missing="error"`` refuses the first, ``"drop"`` drops its rows, ``"mean"`` and
  ``"most-frequent"`` fill them (scikit-learn's ``SimpleImputer``; a text column's cells take its
  most frequent value with either);
- the text columns: ``categorical`` (names, or ``"auto"`` for every text column) one-hot encodes
  them (scikit-learn's ``OneHotEncoder``; a category unseen at training becomes all zeros and is
  counted).

What was learnt (the columns, their fill values and categories) is a plain JSON recipe,
:func:`fit_recipe`; :func:`encode` turns any table with those columns (in any order, extra columns
ignored) into ``X`` through one ``ColumnTransformer`` built from the recipe, at training and at
prediction alike, so the model file (JSON, never pickle) carries everything prediction needs.

Examples
--------
>>> import tempfile, pathlib
>>> path = pathlib.Path(tempfile.mkdtemp()) / "birds.csv"
>>> _ = path.write_text("island,mass (g),year,species\\nDream,3.5,2007,a\\nBiscoe,NA,2008,b\\n"
...                     "Dream,4.5,2009,b\\n")
>>> table = read_table(path)
>>> recipe = fit_recipe(table, ignore=["year"], categorical="auto", missing="mean")
>>> [c["name"] for c in recipe["columns"]], recipe["columns"][1]["fill"]
(['island', 'mass (g)'], 4.0)
>>> encoded = encode(table, recipe)
>>> encoded.names, encoded.X.tolist(), encoded.y.tolist()
(['island=Biscoe', 'island=Dream', 'mass (g)'], [[0.0, 1.0, 3.5], [1.0, 0.0, 4.0], [0.0, 1.0, 4.5]], ['a', 'b', 'b'])
"""

from __future__ import annotations

import math
import os
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from perceptronlab._ground.files import check_readable_file
from perceptronlab._ground.validation import fail
from perceptronlab.io.data import (
    _check_size,
    _count_lines,
    _csv_header,
    _csv_rows,
    _data_format,
    _tidy_labels,
    is_number,
)

if TYPE_CHECKING:
    from numpy.typing import NDArray

__all__ = [
    "MISSING",
    "MISSING_CELLS",
    "Table",
    "Encoded",
    "read_table",
    "fit_recipe",
    "encode",
    "check_recipe",
]

#: what ``missing`` may be
MISSING = ("error", "drop", "mean", "most-frequent")
#: the cells read as missing: pandas' default ``na_values`` (and the empty cell)
MISSING_CELLS = frozenset({
    "", "#N/A", "#N/A N/A", "#NA", "-1.#IND", "-1.#QNAN", "-NaN", "-nan", "1.#IND", "1.#QNAN",
    "<NA>", "N/A", "NA", "NULL", "NaN", "None", "n/a", "nan", "null",
})  # fmt: skip
#: bytes a cell costs while the table is held as text (a Python string and its slot)
TEXT_CELL_BYTES = 80
RECIPE_VERSION = 1


@dataclass
class Table:
    """A CSV file's cells as text, column by column, with each row's line number."""

    where: str
    header: list[str]
    columns: list[list[str]]
    lines: list[int]

    def column(self, name: str) -> list[str]:
        return self.columns[self.header.index(name)]

    @property
    def n_rows(self) -> int:
        return len(self.lines)


@dataclass
class Encoded:
    """A table made into features: ``X``, the labels (None without the label column), the features'
    names, the rows dropped, the cells filled and the unseen categories counted per column."""

    X: NDArray[np.float64]
    y: NDArray[Any] | None
    names: list[str]
    dropped: int = 0
    filled: int = 0
    unseen: dict[str, int] = field(default_factory=dict)
    rows: NDArray[np.intp] | None = None  # the table's rows kept, in order


def read_table(
    path: str | os.PathLike[str], *, fmt: str | None = None, max_bytes: Any = None
) -> Table:
    """A CSV/TSV file's header and cells as text (ragged lines refused, within the memory budget)."""
    path = Path(path)
    kind = _data_format(path, fmt)
    check_readable_file(path)
    where = f"CSV file {str(path)!r}"
    if kind not in ("csv", "tsv"):
        raise fail(
            where.replace("CSV file", "data file"),
            "a CSV or TSV file (named columns)",
            f"a {kind} file",
            "Columns by name (features, ignore, categorical, missing) need a CSV file's header.",
        )
    delimiter = "," if kind == "csv" else "\t"
    header_line, header = _csv_header(path, delimiter, where)
    rows = max(0, _count_lines(path) - header_line)
    _check_size(
        path,
        rows * len(header) * TEXT_CELL_BYTES,
        f"up to {rows:,} rows × {len(header):,} columns × {TEXT_CELL_BYTES} bytes (as text)",
        max_bytes,
    )
    columns: list[list[str]] = [[] for _ in header]
    lines: list[int] = []
    records = _csv_rows(path, delimiter, where)
    next(records)
    for line, row in records:
        if len(row) != len(header):
            raise fail(
                where,
                f"{len(header)} cells on every line (as in the header)",
                f"{len(row)} on line {line}",
                "Fix the ragged line (a truncated file ends in a short line).",
            )
        for cells, cell in zip(columns, row, strict=True):
            cells.append(cell)
        lines.append(line)
    if not lines:
        raise fail(where, "data rows below the header", "only the header", "Add the examples.")
    return Table(where, header, columns, lines)


# ---------------------------------------------------------------- the columns


def _named(table: Table, names: Sequence[str], what: str) -> list[str]:
    """Names that are columns of the header, each once."""
    counts = Counter(table.header)
    for name in names:
        if name not in counts:
            raise fail(
                what,
                "column names of the header (" + ", ".join(map(repr, table.header)) + ")",
                repr(name),
                "Write the names as in the header, separated by commas.",
            )
        if counts[name] > 1:
            raise fail(what, "a column name that occurs once", repr(name), "Rename the duplicates.")
    return list(dict.fromkeys(names))


def _label_of(table: Table, label: str | None) -> str:
    name = table.header[-1] if label is None else label
    return _named(table, [name], "label")[0]


def _feature_names(
    table: Table, label: str, features: Sequence[str] | None, ignore: Sequence[str]
) -> list[str]:
    ignored = set(_named(table, ignore, "ignore"))
    if features is not None:
        chosen = _named(table, features, "features")
        both = [n for n in chosen if n in ignored or n == label]
        if both:
            raise fail(
                "features",
                "columns that are neither ignored nor the label",
                repr(both[0]),
                "Leave it out of features, or out of ignore/label.",
            )
    else:
        chosen = [n for n in table.header if n != label and n not in ignored]
        chosen = _named(table, chosen, "the header")
    if not chosen:
        raise fail("features", "at least one feature column", "none left", "Ignore fewer columns.")
    return chosen


def _first_text(cells: list[str]) -> int | None:
    """The row of the first cell that is neither missing nor a number."""
    for i, cell in enumerate(cells):
        if cell not in MISSING_CELLS and not is_number(cell):
            return i
    return None


def _categorical(
    table: Table, names: list[str], categorical: str | Sequence[str] | None
) -> set[str]:
    """The columns to one-hot encode; a text column left out of them is refused (one line)."""
    if categorical == "auto":
        chosen = {n for n in names if _first_text(table.column(n)) is not None}
    else:
        chosen = set(_named(table, categorical or [], "categorical"))
        outside = sorted(chosen - set(names))
        if outside:
            raise fail(
                "categorical",
                "feature columns",
                repr(outside[0]),
                "Name feature columns only (not the label or an ignored column).",
            )
    for name in names:
        row = None if name in chosen else _first_text(table.column(name))
        if row is not None:
            cell = table.column(name)[row]
            raise fail(
                f"{table.where}, column {name!r}",
                "numbers",
                f"text ({cell[:40]!r} on line {table.lines[row]})",
                f"One-hot encode it: pass categorical='{name}' (or categorical='auto' for every "
                f"text column), or leave it out: ignore='{name}'. If it holds the labels, "
                f"pass label='{name}'.",
            )
    return chosen


# ---------------------------------------------------------------- the missing cells


def _missing_rows(table: Table, names: list[str]) -> NDArray[np.bool_]:
    missing = np.zeros(table.n_rows, dtype=bool)
    for name in names:
        missing |= np.fromiter((c in MISSING_CELLS for c in table.column(name)), bool)
    return missing


def _refuse_missing(table: Table, names: list[str], label: str | None) -> None:
    """missing="error": the first missing cell (in row order) is one line naming its column and row."""
    first = None
    for name in names + ([label] if label is not None else []):
        cells = table.column(name)
        row = next((i for i, c in enumerate(cells) if c in MISSING_CELLS), None)
        if row is not None and (first is None or row < first[0]):
            first = (row, name)
    if first is None:
        return
    row, name = first
    cell = table.column(name)[row]
    fix = (
        "Drop its rows: missing='drop'."
        if name == label
        else "Drop such rows: missing='drop', or fill them: missing='mean' (a text column takes "
        "its most frequent value) or missing='most-frequent'."
    )
    raise fail(
        f"{table.where}, column {name!r}",
        "a value in every cell",
        f"a missing cell ({cell!r}) on line {table.lines[row]}",
        fix,
    )


def _numbers(table: Table, name: str, rows: NDArray[np.intp]) -> NDArray[np.float64]:
    """A numeric column's cells as floats (missing cells NaN); an infinite value is refused."""
    cells = table.column(name)
    values = np.array(
        [np.nan if cells[i] in MISSING_CELLS else float(cells[i]) for i in rows], dtype=np.float64
    )
    bad = np.isinf(values)
    if bad.any():
        i = int(rows[int(np.argmax(bad))])
        raise fail(
            f"{table.where}, column {name!r}",
            "finite numbers",
            f"{cells[i]!r} on line {table.lines[i]}",
            "Fix the cell, or mark it missing (NA) and pass missing='drop' or 'mean'.",
        )
    return values


def _texts(table: Table, name: str, rows: NDArray[np.intp]) -> NDArray[Any]:
    """A text column's cells (missing cells NaN, as scikit-learn's imputers expect)."""
    cells = table.column(name)
    return np.array([np.nan if cells[i] in MISSING_CELLS else cells[i] for i in rows], dtype=object)


# ---------------------------------------------------------------- the recipe


def fit_recipe(
    table: Table,
    *,
    label: str | None = None,
    features: Sequence[str] | None = None,
    ignore: Sequence[str] = (),
    categorical: str | Sequence[str] | None = None,
    missing: str = "error",
    rows: NDArray[np.intp] | None = None,
) -> dict[str, Any]:
    """Learn the recipe (columns, fill values, categories) from the table's ``rows`` (default: all
    rows; a held-out part is left out). Refuses a text column outside ``categorical`` and, with
    ``missing="error"``, the first missing cell, each in one line."""
    if missing not in MISSING:
        raise fail("missing", " or ".join(map(repr, MISSING)), repr(missing), "Pass one of them.")
    label = _label_of(table, label)
    names = _feature_names(table, label, features, ignore)
    texts = _categorical(table, names, categorical)
    if missing == "error":
        _refuse_missing(table, names, label)
    if rows is None:
        rows = np.arange(table.n_rows)
    if missing == "drop":
        rows = rows[~_missing_rows(table, names + [label])[rows]]
        if rows.size == 0:
            raise fail(
                table.where,
                "rows without missing cells (missing='drop')",
                "a missing cell in every row",
                "Fill them instead: missing='mean', or ignore the emptiest columns.",
            )
    # scikit-learn (about 2 s to import) only once the table passed every check: a refusal is quick
    from sklearn.impute import SimpleImputer
    from sklearn.preprocessing import OneHotEncoder

    columns = []
    for name in names:
        column: dict[str, Any] = {"name": name, "kind": "category" if name in texts else "number"}
        values = _texts(table, name, rows) if name in texts else _numbers(table, name, rows)
        strategy = "mean" if missing == "mean" and name not in texts else "most_frequent"
        column["fill"] = None
        if missing in ("mean", "most-frequent"):
            imputer = SimpleImputer(strategy=strategy, keep_empty_features=True)
            values = imputer.fit_transform(values.reshape(-1, 1))[:, 0]
            fill = imputer.statistics_[0]
            column["fill"] = str(fill) if name in texts else _number(name, fill)
        if name in texts:
            encoder = OneHotEncoder().fit(values.reshape(-1, 1).astype(str))
            column["categories"] = [str(c) for c in encoder.categories_[0]]
        columns.append(column)
    return {"version": RECIPE_VERSION, "label": label, "missing": missing, "columns": columns}


def _number(name: str, fill: Any) -> float:
    value = float(fill)
    if not math.isfinite(value):  # a column with no value at all among the rows learnt from
        raise fail(
            f"column {name!r}",
            "at least one value to fill its missing cells with",
            "none",
            f"Leave it out: ignore='{name}'.",
        )
    return value


def _transformer(recipe: dict[str, Any]) -> Any:
    """scikit-learn's ColumnTransformer of the recipe: its fill values and categories are fixed,
    so fitting it learns nothing and it maps every table alike."""
    from sklearn.compose import ColumnTransformer
    from sklearn.impute import SimpleImputer
    from sklearn.pipeline import make_pipeline
    from sklearn.preprocessing import OneHotEncoder

    parts = []
    for j, column in enumerate(recipe["columns"]):
        steps: list[Any] = []
        if column["fill"] is not None:
            steps.append(SimpleImputer(strategy="constant", fill_value=column["fill"]))
        if column["kind"] == "category":
            steps.append(
                OneHotEncoder(
                    categories=[np.asarray(column["categories"], dtype=object)],
                    handle_unknown="ignore",
                    sparse_output=False,
                    dtype=np.float64,
                    feature_name_combiner=lambda feature, category: f"{feature}={category}",
                )
            )
        parts.append((column["name"], make_pipeline(*steps) if steps else "passthrough", [j]))
    return ColumnTransformer(parts, verbose_feature_names_out=False)


def encode(
    table: Table,
    recipe: dict[str, Any],
    *,
    has_label: bool | None = None,
    rows: NDArray[np.intp] | None = None,
) -> Encoded:
    """The table's ``rows`` (default: all) as features by the recipe, and their labels when the
    table has the label column (``has_label=None``: if present). Rows with a missing cell are
    dropped when the recipe says ``missing="drop"`` (and counted); a missing cell without a fill
    value is refused."""
    import warnings

    names = [c["name"] for c in recipe["columns"]]
    absent = [n for n in names if n not in table.header]
    if absent:
        raise fail(
            table.where,
            f"the model's {len(names)} columns",
            "no column " + ", ".join(map(repr, absent[:4])) + f" among its {len(table.header)}",
            "Use a file with those columns (in any order; other columns are ignored).",
        )
    label = recipe["label"]
    if has_label is None:
        has_label = label in table.header
    _named(table, names + ([label] if has_label else []), "the columns")
    if rows is None:
        rows = np.arange(table.n_rows)
    dropped = 0
    if recipe["missing"] == "drop":
        gone = _missing_rows(table, names + ([label] if has_label else []))[rows]
        rows, dropped = rows[~gone], int(gone.sum())
    unfilled = [c["name"] for c in recipe["columns"] if c["fill"] is None]
    _refuse_missing(_rows_of(table, rows), unfilled, label if has_label else None)
    columns, filled, unseen = [], 0, {}
    for column in recipe["columns"]:
        name = column["name"]
        if column["kind"] == "category":
            values = _texts(table, name, rows)
            seen = set(column["categories"]) | {None}
            count = sum(isinstance(v, str) and v not in seen for v in values)
            if count:
                unseen[name] = count
        else:
            _check_numbers(table, name, rows)
            values = _numbers(table, name, rows).astype(object)
        filled += int(sum(isinstance(v, float) and math.isnan(v) for v in values))
        columns.append(values)
    frame = np.empty((rows.size, len(columns)), dtype=object)
    for j, values in enumerate(columns):
        frame[:, j] = values
    transformer = _transformer(recipe)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # OneHotEncoder's note on unknown categories: counted here
        X = np.ascontiguousarray(transformer.fit_transform(frame), dtype=np.float64)
    y = _tidy_labels([table.column(label)[i] for i in rows]) if has_label else None
    names_out = [str(n) for n in transformer.get_feature_names_out(names)]
    return Encoded(X, y, names_out, dropped, filled, unseen, rows)


def _rows_of(table: Table, rows: NDArray[np.intp]) -> Table:
    """The table cut to ``rows`` (for messages that name a row's line)."""
    columns = [[cells[i] for i in rows] for cells in table.columns]
    return Table(table.where, table.header, columns, [table.lines[i] for i in rows])


def _check_numbers(table: Table, name: str, rows: NDArray[np.intp]) -> None:
    cells = table.column(name)
    for i in rows:
        cell = cells[i]
        if cell not in MISSING_CELLS and not is_number(cell):
            raise fail(
                f"{table.where}, column {name!r}",
                "a number (the model learnt this column as numbers)",
                f"{cell[:40]!r} on line {table.lines[i]}",
                "Fix the cell, or predict on a file whose column holds numbers.",
            )


def check_recipe(recipe: Any, n_features: int, bad: Any) -> dict[str, Any]:
    """A model file's recipe, checked (``bad(field, expected, got)`` makes the error): the columns
    with their kinds, fill values and categories, and as many features as the weights."""
    if not isinstance(recipe, dict) or recipe.get("version") != RECIPE_VERSION:
        raise bad("table", f"a table recipe of version {RECIPE_VERSION}", _shown(recipe))
    if recipe.get("missing") not in MISSING or not isinstance(recipe.get("label"), str):
        raise bad("table", "a label name and a missing rule of " + ", ".join(MISSING), "none")
    columns = recipe.get("columns")
    if not isinstance(columns, list) or not columns:
        raise bad("table.columns", "a list of columns", _shown(columns))
    width = 0
    for column in columns:
        ok = isinstance(column, dict) and isinstance(column.get("name"), str)
        kind = column.get("kind") if ok else None
        fill = column.get("fill") if ok else None
        if kind == "number":
            ok = ok and (fill is None or _finite(fill))
            width += 1
        elif kind == "category":
            categories = column.get("categories")
            ok = ok and (fill is None or isinstance(fill, str))
            ok = ok and isinstance(categories, list) and all(isinstance(c, str) for c in categories)
            ok = ok and len(set(categories)) == len(categories) > 0
            width += len(categories) if ok else 0
        else:
            ok = False
        if not ok:
            raise bad("table.columns", "columns of kind number or category", _shown(column))
    names = [c["name"] for c in columns]
    if len(set(names)) != len(names) or recipe["label"] in names:
        raise bad("table.columns", "distinct names, the label not among them", _shown(names))
    if width != n_features:
        raise bad("table", f"{n_features} features (n_features)", f"{width} from its columns")
    return recipe


def _finite(value: Any) -> bool:
    return (
        isinstance(value, int | float)
        and not isinstance(value, bool)
        and math.isfinite(float(value))
    )


def _shown(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."
