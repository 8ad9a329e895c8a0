"""``evaluate``: how good a saved model is on labelled data it may not have seen.

Accuracy, the confusion matrix (rows: the true class, columns: the predicted one) and each class's
precision and recall, by scikit-learn's ``sklearn.metrics``; ``--json`` gives ``accuracy``,
``labels``, ``confusion`` and ``per_class``. ``train --holdout`` reports the same score on the
rows it kept out (:func:`held_out_score`).
"""

from __future__ import annotations

from typing import Any

import typer

from perceptronlab.cli._common import (
    DataArg,
    ModelArg,
    OutputOptions,
    TableOptions,
    console,
    print_json,
)


def score(fitted: dict, X: Any, y: Any) -> dict:
    """The model's score on (X, y): accuracy, labels, confusion matrix, per-class precision/recall."""
    import numpy as np
    from sklearn.metrics import confusion_matrix, precision_recall_fscore_support

    from perceptronlab.cli._model import plain_label, predict_labels

    predicted = [str(v) for v in np.asarray(predict_labels(fitted, X)).tolist()]
    truth = [str(v) for v in np.asarray(y).tolist()]
    known = [plain_label(c) for c in fitted["classes"]]
    names = [str(c) for c in known]
    unseen = sorted(set(truth) - set(names))
    labels = names + unseen
    confusion = confusion_matrix(truth, predicted, labels=labels)
    precision, recall, _, support = precision_recall_fscore_support(
        truth, predicted, labels=labels, zero_division=0
    )
    correct = int(np.trace(confusion))
    return {
        "rows": len(truth),
        "accuracy": correct / len(truth),
        "correct": correct,
        "labels": known + unseen,
        "confusion": confusion.tolist(),
        "per_class": {
            name: {
                "precision": float(p),
                "recall": float(r),
                "support": int(s),
            }
            for name, p, r, s in zip(labels, precision, recall, support, strict=True)
        },
        "unseen_labels": unseen,
    }


def held_out_score(
    run: Any,
    scaler: Any,
    names: list[str] | None,
    label_name: str | None,
    recipe: dict | None,
    held: tuple[Any, Any],
) -> dict:
    """The score of a run just trained on the rows ``train --holdout`` kept out, through the
    model file's own path (the document it saves, read back as ``evaluate`` reads it)."""
    from perceptronlab.io.models import check_model_document, model_document

    document = model_document(
        run, scaler=scaler, feature_names=names, label_name=label_name, table=recipe
    )
    return score(check_model_document(document, "the trained model"), *held)


def print_score(record: dict, title: str) -> None:
    """Accuracy, the confusion matrix and each class's precision and recall, as Rich tables."""
    from rich.table import Table

    labels = [str(c) for c in record["labels"]]
    console().print(
        f"[bold]{title}[/bold]: accuracy {record['accuracy']:.2%} "
        f"({record['correct']:,} of {record['rows']:,} rows)"
    )
    console().print("confusion matrix (rows: the true class, columns: the predicted one)")
    matrix = Table()
    matrix.add_column("true \\ predicted", style="bold")
    for label in labels:
        matrix.add_column(label, justify="right")
    for label, row in zip(labels, record["confusion"], strict=True):
        matrix.add_row(label, *(f"{v:,}" for v in row))
    console().print(matrix)
    console().print("each class")
    classes = Table()
    for heading in ("class", "precision", "recall", "rows"):
        classes.add_column(heading, justify="left" if heading == "class" else "right")
    for label in labels:
        one = record["per_class"][label]
        classes.add_row(
            label, f"{one['precision']:.2%}", f"{one['recall']:.2%}", f"{one['support']:,}"
        )
    console().print(classes)
    if record["unseen_labels"]:
        console().print(
            "classes the model never saw (their rows count as wrong): "
            + ", ".join(map(repr, record["unseen_labels"]))
        )


def evaluate(
    model: ModelArg,
    data: DataArg,
    table: TableOptions = TableOptions(),
    output: OutputOptions = OutputOptions(),
) -> None:
    """Score MODEL on the labelled rows of DATA: accuracy, confusion matrix, precision and recall.

    DATA is read as `perceptronlab predict` reads it (the model's columns by name, its recipe of
    categories and fill values applied), with its label column.
    """
    from perceptronlab._ground.validation import fail
    from perceptronlab.cli._model import load_fitted, prediction_data

    fitted = load_fitted(model)
    X, y = prediction_data(fitted, data, table, output.quiet)
    if y is None:
        raise fail(
            f"DATA {str(data)!r}",
            "a label column to score against",
            "none",
            "Evaluate on labelled data (name its label column with --label).",
        )
    record = score(fitted, X, y)
    if output.json_output:
        print_json(record)
        return
    print_score(record, f"{model} on {data}")


def register(app: typer.Typer) -> None:
    """Add ``evaluate`` to ``app``."""
    app.command("evaluate")(evaluate)
