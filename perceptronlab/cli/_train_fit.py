"""How ``train`` fits: in memory (the table's reading, the scaler, one run or one per class) or
block by block on Dask (:mod:`perceptronlab.distributed`); each returns a
:class:`~perceptronlab.cli._train_report.Trained` for the report."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from perceptronlab.cli._common import Scale, TableOptions
from perceptronlab.cli._train_report import Trained

#: the functions behind --algorithm, for the binary tasks (one per class on k > 2 classes)
_LEARNERS = {"perceptron": "perceptron", "pocket": "pocket", "averaged": "averaged_perceptron"}


def train_in_memory(
    data: Path, options: dict, scale: Scale, table: TableOptions, json_output: bool
) -> Trained:
    """Read DATA whole (``table``: --label, --data-format, --max-bytes; its recipe and held-out
    rows), scale it and fit; the model file's column names are the table's when it has a recipe,
    else the file's."""
    run, n_rows, n_features, scaler = _train_local(
        data, options, options["quiet"] or json_output, scale, table
    )
    training = options.pop("training")
    names, label_name = table.columns(data)
    if training.recipe is not None:
        names, label_name = training.names, training.recipe["label"]
    return Trained(run, n_rows, n_features, scaler, names, label_name, training)


def _dense_for_centring(X: Any, max_bytes: str | None) -> Any:
    """Sparse rows as a dense matrix (within the memory budget): --scale standard centres every
    feature, which fills in every zero, so it means the same on a LIBSVM file as on a CSV file."""
    from perceptronlab._ground.memory import check_budget
    from perceptronlab._ground.validation import is_sparse

    if not is_sparse(X):
        return X
    check_budget(
        8.0 * X.shape[0] * X.shape[1],
        "--scale standard (the sparse data made dense to centre it)",
        max_bytes=max_bytes,
    )
    return X.toarray()


def _train_local(data: Path, options: dict, quiet: bool, scale: Scale, table: TableOptions):
    import time

    import perceptronlab as pl
    from perceptronlab.cli._progress import Progress
    from perceptronlab.cli._table import read_training

    with Progress("train", quiet=quiet) as progress:
        progress(f"reading {data}")
        # its lines (rows dropped, cells filled) even with --json
        training = read_training(data, options, table)
        X, y = training.X, training.y
        units = X
        scaler = None
        if scale is not Scale.none:
            from perceptronlab.preprocessing import apply_scaler, fit_scaler

            progress(f"scaling ({scale.value})")
            if scale is Scale.standard:
                X = units = _dense_for_centring(X, table.max_bytes)
            scaler = fit_scaler(scale.value, X)
            X = apply_scaler(scaler, X)
        started = time.perf_counter()
        run = _fit(pl, X, y, options, progress)
        options["seconds"] = time.perf_counter() - started
    options["units"], options["y"], options["training"] = units, y, training
    n_rows, n_features = (len(X), len(X[0])) if options["exact"] else X.shape
    return run, n_rows, n_features, scaler


def _fit(pl, X, y, options: dict, progress):
    import numpy as np

    from perceptronlab.cli._classes import OneVsRest, one_vs_rest_signs

    algorithm = options["algorithm"]
    common = dict(
        eta=options["eta"],
        fit_intercept=options["fit_intercept"],
        seed=options["seed"],
        max_sweeps=options["max_sweeps"],
    )
    if algorithm == "multiclass":
        return pl.multiclass_perceptron(
            X,
            y,
            **common,
            order=options["order"] or "cyclic",
            margin=options["margin"],
            warn=False,
            on_sweep=progress("multiclass perceptron", options["max_sweeps"]),
        )
    if algorithm == "perceptron":
        kwargs = dict(
            common,
            exact=options["exact"],
            order=options["order"] or "cyclic",
            margin=options["margin"],
            warn=False,
        )
    elif algorithm == "averaged":
        kwargs = dict(
            common, order=options["order"] or "cyclic", margin=options["margin"], warn=False
        )
    else:
        kwargs = dict(
            common,
            exact=options["exact"],
            order=options["order"] or "random-mistake",
            max_updates=options["max_updates"],
            check=options["check"] or "update",
        )
    call = getattr(pl, _LEARNERS[algorithm])
    classes = np.unique(np.asarray(y))
    if len(classes) <= 2:
        return call(X, y, **kwargs, on_sweep=progress(algorithm, options["max_sweeps"]))
    runs = []
    for label in classes:
        run = call(
            X,
            one_vs_rest_signs(y, label),
            **kwargs,
            on_sweep=progress(f"{algorithm}: {label} against the rest", options["max_sweeps"]),
        )
        runs.append(run)
    return OneVsRest(runs, classes, runs[0].algorithm, dict(runs[0].params))


def train_scaled(
    data: Path, scheduler, shards, stream, options: dict, quiet: bool
) -> Trained | None:
    """Train on Dask or block by block (--dask, --stream); None when the backend printed its own
    report."""
    try:
        from perceptronlab.distributed import train_from_cli
    except ImportError as exc:
        from perceptronlab._ground.validation import fail

        raise fail(
            "--dask/--scheduler/--shards/--stream",
            "the Dask backend (perceptronlab.distributed)",
            f"it is not available ({exc})",
            "Install/enable the dask extra: pip install 'perceptronlab[dask]'.",
        ) from None
    result = train_from_cli(
        data, scheduler=scheduler, shards=shards, stream=stream, options=options, quiet=quiet
    )
    if result is None:  # the backend printed its own report
        return None
    n_features = int(len(result.w))
    n_rows = getattr(result, "n_examples", None)
    return Trained(result, (None if n_rows is None else int(n_rows)), n_features)
