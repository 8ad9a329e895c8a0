"""A saved model on the command line: its file read, a data file's rows made into its features, its
labels predicted (``predict``, ``evaluate`` and ``train --holdout`` share these).

A model trained on named columns (``train --features/--ignore/--categorical/--missing``) keeps its
recipe (:mod:`perceptronlab.io.table`) and applies it to a raw file with the same header; a model
trained on a CSV file takes the file's feature columns by name; others take the columns as they come.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from perceptronlab.cli._common import TableOptions, info


def load_fitted(model: Path) -> dict:
    """A model file, checked (:func:`perceptronlab.io.check_model_document`)."""
    from perceptronlab.io.models import check_model_document, model_source, read_model_document

    return check_model_document(read_model_document(model), model_source(model))


def predict_labels(fitted: dict, X: Any) -> Any:
    """The model file's labels for the rows of X, through the core's one decision path (no estimator:
    ``predict`` starts without scikit-learn's estimators)."""
    from perceptronlab._ground.validation import check_exact_matrix, check_matrix, check_n_features
    from perceptronlab.core.scores import labels, score_matrix, scores

    if fitted["exact"]:
        rows = check_exact_matrix(X)
        check_n_features(len(rows[0]), fitted["n_features"], "the model")
    else:
        from perceptronlab.preprocessing import apply_scaler

        rows = check_matrix(X)
        check_n_features(rows.shape[1], fitted["n_features"], "the model")
        rows = apply_scaler(fitted["scaler"], rows)
    coef, intercept = fitted["coef"], fitted["intercept"]
    if len(coef) == 1:
        return labels(
            scores(rows, coef[0] if not fitted["exact"] else list(coef[0]), intercept[0]),
            fitted["classes"],
        )
    return labels(score_matrix(rows, coef, intercept), fitted["classes"])


def _names(names: list[str], limit: int = 4) -> str:
    """The first few names and how many there are: ``'a', 'b', 'c', … (30 in all)``."""
    shown = ", ".join(map(repr, names[:limit]))
    return shown + (f", … ({len(names)} in all)" if len(names) > limit else "")


def prediction_data(fitted: dict, data: Path, table: TableOptions, quiet: bool = False):
    """DATA's feature columns for the model (by its recipe when it has one, by name when the model
    knows its features' names) and its labels, if it has a label column; ``table`` says how DATA
    is read (--label, --data-format, --max-bytes)."""
    import warnings

    from perceptronlab._ground.validation import fail
    from perceptronlab.exceptions import PerceptronLabWarning
    from perceptronlab.io import read_columns, read_data

    label, fmt, max_bytes = table.label, table.data_format, table.max_bytes
    if fitted.get("table") is not None:
        return _table_data(fitted["table"], data, fmt, max_bytes, quiet)
    exact = bool(fitted["exact"])
    names = fitted["feature_names"]
    columns = read_columns(data, fmt=fmt)
    if names is not None and columns is not None:
        names = [str(n) for n in names]
        missing = [n for n in names if n not in columns]
        if missing:
            raise fail(
                f"DATA {str(data)!r}",
                f"the model's {len(names)} features (columns {_names(names)})",
                ("none of them" if len(missing) == len(names) else f"no column {_names(missing)}")
                + f" among its {len(columns)} columns",
                "Predict on a file with the columns the model was trained on (in any order; a label "
                "column is not needed).",
            )
        if label is None and fitted["label_name"] in columns:
            label = fitted["label_name"]
        return read_data(
            data,
            fmt=fmt,
            exact=exact,
            features=names,
            label=label,
            has_label=label is not None,
            max_bytes=max_bytes,
        )
    X, y = read_data(data, label=label, fmt=fmt, exact=exact, max_bytes=max_bytes)
    n_features = len(X[0]) if exact else X.shape[1]
    if n_features + 1 == fitted["n_features"] and label is None:
        # the file has no label column: every column is a feature
        if columns is not None:
            warnings.warn(
                f"the model file has no feature names (saved by an older perceptronlab), so every "
                f"column of DATA is a feature, {columns[-1]!r} included; if {columns[-1]!r} is a label, "
                f"the model does not fit this file. Train and save the model again to store its "
                f"feature names.",
                PerceptronLabWarning,
                stacklevel=2,
            )
        X, y = read_data(data, fmt=fmt, exact=exact, has_label=False, max_bytes=max_bytes)
    return X, y


def plain_label(value: Any) -> Any:
    return value.item() if hasattr(value, "item") else value


def _table_data(recipe: dict, data: Path, fmt: str | None, max_bytes: str | None, quiet: bool):
    """A raw table made into the model's features by its recipe (columns in any order, others
    ignored), with one line for the rows dropped, the cells filled and the unseen categories."""
    from perceptronlab.io.table import MISSING_CELLS, encode, read_table

    table = read_table(data, fmt=fmt, max_bytes=max_bytes)
    labelled = recipe["label"] in table.header
    if labelled and recipe["missing"] != "drop":
        gaps = sum(cell in MISSING_CELLS for cell in table.column(recipe["label"]))
        if gaps:  # rows to predict all the same; no labels to score against
            info(
                f"the label column {recipe['label']!r} has {gaps} missing cells: predicting "
                "every row, without labels",
                quiet=quiet,
            )
            labelled = False
    encoded = encode(table, recipe, has_label=labelled)
    for line in encoding_notes(encoded, recipe):
        info(line, quiet=quiet)
    return encoded.X, encoded.y


def encoding_notes(encoded: Any, recipe: dict) -> list[str]:
    """One line each: rows dropped (``--missing drop``), cells filled, categories never seen."""
    from perceptronlab._ground.numbers import format_count

    notes = []
    kept = encoded.X.shape[0]
    if encoded.dropped:
        notes.append(
            f"--missing drop: dropped {format_count(encoded.dropped, 'row')} with a missing cell "
            f"({kept:,} of {kept + encoded.dropped:,} rows kept)"
        )
    if encoded.filled:
        how = (
            "the training's mean" if recipe["missing"] == "mean" else "the training's most frequent"
        )
        notes.append(
            f"--missing {recipe['missing']}: filled {format_count(encoded.filled, 'missing cell')} "
            f"({how} value of its column; a text column's most frequent value)"
        )
    if encoded.unseen:
        counts = ", ".join(f"{n!r} {c}" for n, c in encoded.unseen.items())
        notes.append(
            f"categories the model never saw (encoded as all zeros): {counts} "
            f"{'cell' if sum(encoded.unseen.values()) == 1 else 'cells'}"
        )
    return notes
