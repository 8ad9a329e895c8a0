"""``predict``: a saved model's label for every row of a data file (one per line, or CSV, or JSON)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from perceptronlab.cli._common import (
    DataArg,
    ModelArg,
    OutputOptions,
    TableOptions,
    info,
    print_json,
)


def predict(
    model: ModelArg,
    data: DataArg,
    out: Annotated[
        Path | None, typer.Option("--out", "-o", help="Write the predictions as CSV here.")
    ] = None,
    table: TableOptions = TableOptions(),
    output: OutputOptions = OutputOptions(),
) -> None:
    """Predict a label for every row of DATA (with or without a label column): one per line.

    A model trained on a CSV file takes DATA's feature columns by name (in any order; others are ignored),
    and applies the column recipe it was trained with (one-hot categories, fill values).
    """
    import numpy as np

    from perceptronlab.cli._model import load_fitted, plain_label, predict_labels, prediction_data

    if out is not None:
        from perceptronlab._ground.files import write_target

        write_target(out, "--out")  # a bad --out fails before the work
    quiet = output.quiet
    fitted = load_fitted(model)
    X, y = prediction_data(fitted, data, table, quiet)
    labels = [plain_label(v) for v in predict_labels(fitted, X).tolist()]
    if out is not None:
        import csv

        from perceptronlab._ground.files import atomic_open

        with atomic_open(out, "w", newline="", what="--out") as handle:
            writer = csv.writer(handle)
            writer.writerow(["prediction"])
            writer.writerows([v] for v in labels)
        info(f"{len(labels)} predictions written to {out}", quiet=quiet)
    if output.json_output:
        print_json({"predictions": labels})
    elif out is None:
        typer.echo("\n".join(str(v) for v in labels))
    if y is not None and not quiet:
        from perceptronlab._ground.numbers import format_count

        known = {str(c) for c in fitted["classes"].tolist()}
        truth = [str(v) for v in np.asarray(y).tolist()]
        same = np.asarray([str(a) == b for a, b in zip(labels, truth, strict=True)])
        info(
            f"accuracy on the {format_count(len(same), 'labelled row')}: {same.mean():.2%} "
            f"({int((~same).sum())} wrong)"
        )
        unseen = sorted(set(truth) - known)
        if unseen:
            count = sum(t not in known for t in truth)
            info(
                f"Warning: DATA holds {format_count(count, 'row')} labelled "
                + ", ".join(repr(u) for u in unseen[:5])
                + (", ..." if len(unseen) > 5 else "")
                + f", a class the model never saw (it knows {', '.join(sorted(known))}): those rows count as "
                "wrong. Train on data with every class to predict them."
            )


def register(app: typer.Typer) -> None:
    """Add ``predict`` to ``app``."""
    app.command("predict")(predict)
