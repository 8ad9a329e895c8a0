"""Columns as a practitioner names them: ``--features``, ``--ignore``, ``--categorical``,
``--missing`` and ``--holdout`` on ``train`` (:mod:`perceptronlab.io.table` does the work).

Without these flags a CSV file is read as before (every column but the label a number); when that
fails, the table reader says why in the flags' words: the first text column names
``--categorical`` (and ``--ignore``), the first missing cell names ``--missing``.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Any

import typer

from perceptronlab.cli._common import TableOptions, info
from perceptronlab.cli._groups import option_group


class Missing(str, enum.Enum):
    error = "error"
    drop = "drop"
    mean = "mean"
    most_frequent = "most-frequent"


FeaturesOpt = Annotated[
    str | None,
    typer.Option(
        "--features",
        metavar="A,B,...",
        help="The feature columns of a CSV file by their header names, commas between (spaces and "
        "parentheses are part of a name). Default: every column but the label and --ignore.",
    ),
]
IgnoreOpt = Annotated[
    str | None,
    typer.Option(
        "--ignore", metavar="C,D,...", help="Columns of a CSV file to leave out, by header name."
    ),
]
CategoricalOpt = Annotated[
    str | None,
    typer.Option(
        "--categorical",
        metavar="COLS|auto",
        help="One-hot encode these text columns (scikit-learn's OneHotEncoder; auto: every text "
        "column). A category that prediction meets but training did not is all zeros, and counted.",
    ),
]
MissingOpt = Annotated[
    Missing,
    typer.Option(
        "--missing",
        help="Missing cells (empty, NA, N/A, NaN, null, None): error (say the first), drop (drop "
        "their rows), mean (fill with the column's mean; a text column's most frequent value) or "
        "most-frequent (scikit-learn's SimpleImputer). The model keeps the fill values.",
    ),
]
HoldoutOpt = Annotated[
    float | None,
    typer.Option(
        "--holdout",
        metavar="FRACTION",
        help="Keep this fraction of the rows out of the training (stratified by class, seeded by "
        "--seed) and report the model's accuracy on them.",
    ),
]


@dataclass
class TableRequest:
    """The columns flags of one command, as the table reader takes them."""

    features: list[str] | None = None
    ignore: tuple[str, ...] = ()
    categorical: str | list[str] | None = None
    missing: str = "error"

    @property
    def given(self) -> bool:
        return bool(
            self.features is not None or self.ignore or self.categorical or self.missing != "error"
        )


def _names(text: str | None) -> list[str] | None:
    return None if text is None else [n.strip() for n in text.split(",") if n.strip()]


@option_group("Columns of a CSV file")
class ColumnsOptions:
    """``train``'s columns flags and --holdout, as given on the command line."""

    features: FeaturesOpt = None
    ignore: IgnoreOpt = None
    categorical: CategoricalOpt = None
    missing: MissingOpt = Missing.error
    holdout: HoldoutOpt = None

    def request(self) -> TableRequest:
        """The columns flags as a request (``--categorical auto`` stays ``"auto"``)."""
        categorical = self.categorical
        chosen = (
            "auto"
            if categorical is not None and categorical.strip() == "auto"
            else _names(categorical)
        )
        return TableRequest(
            _names(self.features), tuple(_names(self.ignore) or ()), chosen, self.missing.value
        )


@dataclass
class Training:
    """What ``train`` reads: X and y to learn from, the held-out part (or None), the recipe (or
    None), the features' names and the lines said about the table."""

    X: Any
    y: Any
    held: tuple[Any, Any] | None = None
    recipe: dict | None = None
    names: list[str] | None = None
    counts: dict | None = None  # rows dropped, cells filled, unseen categories (for --json)


def holdout_rows(y: Any, fraction: float, seed: int | None) -> tuple[Any, Any]:
    """(training rows, held-out rows): scikit-learn's stratified split, seeded (the same seed, the
    same split)."""
    import numpy as np
    from sklearn.model_selection import train_test_split

    from perceptronlab._ground.validation import fail

    if not 0.0 < fraction < 1.0:
        raise fail(
            "--holdout",
            "a fraction between 0 and 1 (exclusive)",
            repr(fraction),
            "Pass e.g. --holdout 0.25.",
        )
    rows = np.arange(len(y))
    try:
        train, held = train_test_split(
            rows, test_size=fraction, stratify=np.asarray(y), random_state=seed
        )
    except ValueError as exc:
        raise fail(
            "--holdout",
            "a fraction that leaves every class rows on both sides",
            f"{fraction} ({exc})",
            "Pass a larger or smaller --holdout, or use more data.",
        ) from None
    return np.sort(train), np.sort(held)


def read_training(data: Path, options: dict, table: TableOptions) -> Training:
    """The data of ``train``: by the table reader when columns flags are given (the recipe learnt
    from the training rows only), else by :func:`perceptronlab.io.read_data`; a held-out part kept
    out when ``--holdout`` is given. ``table`` says how the file is read (--label, --data-format,
    --max-bytes); ``options`` holds the other flags: ``table`` (the columns flags'
    :class:`TableRequest`), ``holdout``, ``quiet``, ``exact`` and ``seed``."""
    from perceptronlab.exceptions import InputError

    if options["table"].given:
        return _read_table(data, options, table)
    try:
        X, y = table.read(data, exact=options["exact"])
    except InputError as error:
        raise _diagnosed(data, options, table, error) from None
    if options["holdout"] is None:
        return Training(X, y)
    train, held = holdout_rows(y, options["holdout"], options["seed"])
    pick = _rows_picker(X)
    return Training(pick(train), y[train], (pick(held), y[held]))


def _rows_picker(X: Any) -> Any:
    if isinstance(X, list):  # exact rows
        return lambda rows: [X[i] for i in rows]
    return lambda rows: X[rows]


def _diagnosed(data: Path, options: dict, table: TableOptions, error: Exception) -> Exception:
    """A CSV file that the numbers reader refused, read again as a table: its first text column
    (then its first missing cell) said in the columns flags' words; else the reader's own error."""
    from perceptronlab.exceptions import InputError
    from perceptronlab.io.data import read_columns
    from perceptronlab.io.table import fit_recipe, read_table

    if options["exact"]:  # the columns flags do not go with --exact: the exact reader's line
        return error
    try:
        if read_columns(data, fmt=table.data_format) is None:
            return error
        fit_recipe(
            read_table(data, fmt=table.data_format, max_bytes=table.max_bytes), label=table.label
        )
    except InputError as better:
        return better
    return error


def _read_table(data: Path, options: dict, reading: TableOptions) -> Training:
    from perceptronlab._ground.validation import fail
    from perceptronlab.io.table import encode, fit_recipe, read_table

    if options["exact"]:
        raise fail(
            "--exact",
            "no --exact with --features/--ignore/--categorical/--missing",
            "--exact",
            "The table's encoding computes in floating point; drop --exact.",
        )
    table = read_table(data, fmt=reading.data_format, max_bytes=reading.max_bytes)
    request, holdout, quiet = options["table"], options["holdout"], options["quiet"]
    learn = dict(
        label=reading.label,
        features=request.features,
        ignore=request.ignore,
        categorical=request.categorical,
        missing=request.missing,
    )
    if holdout is None:
        recipe = fit_recipe(table, **learn)
        encoded = encode(table, recipe, has_label=True)
        counts = _say(encoded, encoded, None, recipe, quiet)
        return Training(encoded.X, encoded.y, None, recipe, encoded.names, counts)
    # the split is drawn over the rows that the flags keep; the recipe (its means, its categories)
    # is then learnt from the training rows only, and the held-out rows are encoded by it
    kept = encode(table, fit_recipe(table, **learn), has_label=True)
    assert kept.rows is not None  # encode says which rows it kept
    rows, held_rows = (kept.rows[part] for part in holdout_rows(kept.y, holdout, options["seed"]))
    recipe = fit_recipe(table, **learn, rows=rows)
    encoded = encode(table, recipe, has_label=True, rows=rows)
    other = encode(table, recipe, has_label=True, rows=held_rows)
    counts = _say(kept, encoded, other, recipe, quiet)
    return Training(encoded.X, encoded.y, (other.X, other.y), recipe, encoded.names, counts)


def _say(kept: Any, encoded: Any, other: Any, recipe: dict, quiet: bool) -> dict:
    """The table's lines: rows dropped (of all), cells filled and categories unseen (training and
    held-out rows together); the same counts for ``--json``."""
    from dataclasses import replace

    from perceptronlab.cli._model import encoding_notes

    parts = [encoded] if other is None else [encoded, other]
    unseen: dict[str, int] = {}
    for part in parts:
        for name, count in part.unseen.items():
            unseen[name] = unseen.get(name, 0) + count
    whole = replace(kept, filled=sum(p.filled for p in parts), unseen=unseen)
    for line in encoding_notes(whole, recipe):
        info(line, quiet=quiet)
    return {
        "rows": int(kept.X.shape[0]) + whole.dropped,
        "rows_dropped": whole.dropped,
        "cells_filled": whole.filled,
        "unseen_categories": unseen,
        "features": list(encoded.names),
    }
