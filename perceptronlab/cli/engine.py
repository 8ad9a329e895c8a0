"""Engine commands: ``train``, ``predict``, ``trace`` and ``demo`` (issue 2, section 9).

The commands parse, call the API (:func:`perceptronlab.perceptron`, :func:`perceptronlab.pocket`,
:mod:`perceptronlab.io`) and format; results go to stdout, progress and notes to stderr.
"""

from __future__ import annotations

import enum
from fractions import Fraction
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from perceptronlab.cli._common import (
    DEFAULT_MAX_SWEEPS,
    DataArg,
    DataFormatOpt,
    InterceptOpt,
    JsonOpt,
    LabelOpt,
    MaxBytesOpt,
    QuietOpt,
    Scale,
    ScaleOpt,
    SeedOpt,
    column_names,
    console,
    info,
    parse_number,
    print_json,
    read_xy,
)
from perceptronlab.cli._table import (
    CategoricalOpt,
    FeaturesOpt,
    HoldoutOpt,
    IgnoreOpt,
    Missing,
    MissingOpt,
    table_request,
)

if TYPE_CHECKING:
    from rich.console import JustifyMethod

# the exam task of the lecture notes “Perceptron Mistake Bound”: three points in the plane, no offset
EXAM_X = [[1, 0], [1, 1], [0, 1]]
EXAM_Y = [1, -1, -1]


class Algorithm(str, enum.Enum):
    perceptron = "perceptron"
    pocket = "pocket"
    averaged = "averaged"
    multiclass = "multiclass"


#: the functions behind --algorithm, for the binary tasks (one per class on k > 2 classes)
_LEARNERS = {"perceptron": "perceptron", "pocket": "pocket", "averaged": "averaged_perceptron"}


class Order(str, enum.Enum):
    cyclic = "cyclic"
    shuffle = "shuffle"
    random_mistake = "random-mistake"


class Check(str, enum.Enum):
    update = "update"
    sweep = "sweep"
    ratchet = "ratchet"


class TableFormat(str, enum.Enum):
    md = "md"
    csv = "csv"
    latex = "latex"
    html = "html"


def _run_record(run: Any, n_rows: int | None) -> dict:
    """The JSON face of a run (what ``train --json`` prints); one record per class for one-vs-rest."""
    from perceptronlab.cli._classes import OneVsRest

    if isinstance(run, OneVsRest):
        return {
            "algorithm": run.algorithm,
            "multiclass": "one-vs-rest",
            "params": run.params,
            "exact": run.exact,
            "classes": run.classes_,
            "n_examples": n_rows,
            "per_class": [
                {"class": label, **_run_record(one, n_rows)}
                for label, one in zip(run.classes_, run.runs, strict=True)
            ],
        }
    record = {
        "algorithm": run.algorithm,
        "params": run.params,
        "exact": run.exact,
        "classes": run.classes,
        "w": run.w,
        "b": run.b,
        "mistakes": run.mistakes,
        "sweeps": run.sweeps,
        "converged": run.converged,
        "cycled": run.cycled,
        "updates_per_sweep": run.updates_per_sweep,
        "n_examples": n_rows,
    }
    if run.pocket_errors is not None:
        record["training_errors"] = run.pocket_errors
    elif len(run.errors_after_sweep):
        record["training_errors"] = int(run.errors_after_sweep[-1])
    return record


def _state(run: Any) -> str:
    return (
        "converged (a clean sweep)"
        if run.converged and run.algorithm != "pocket"
        else "zero training errors"
        if run.converged
        else "cycled: w repeats, it never converges"
        if run.cycled
        else "stopped at the limit, not converged"
    )


def _print_run(
    run: Any, n_rows: int | None, n_features: int, scaler: Any = None, verdicts: dict | None = None
) -> None:
    from rich.table import Table

    from perceptronlab._ground.numbers import format_count, format_display, format_display_vector
    from perceptronlab.cli._classes import OneVsRest

    verdicts = verdicts or {}
    rows_text = "?" if n_rows is None else f"{int(n_rows):,}"
    ovr = isinstance(run, OneVsRest)
    name = f"{run.algorithm}, one run per class (one-vs-rest)" if ovr else run.algorithm
    table = Table(
        title=f"{name} on {rows_text} examples × {n_features} features",
        show_header=False,
        title_justify="left",
    )
    table.add_column(style="bold")
    table.add_column()
    classes = run.classes_ if ovr else run.classes
    if ovr or len(classes) > 2 or getattr(run.w, "ndim", 1) == 2:
        table.add_row("classes", ", ".join(str(c) for c in classes) + " (the highest score wins)")
    else:
        table.add_row("classes", f"{classes[0]} (−1), {classes[1]} (+1)")
    if scaler is not None:
        from perceptronlab.preprocessing import describe_scaler, scaler_name

        table.add_row("scaled", describe_scaler(scaler_name(scaler)) + " (saved with the model)")
    if ovr:
        for label, one in zip(run.classes_, run.runs, strict=True):
            text = (
                f"{format_count(one.mistakes, 'mistake')} in {format_count(one.sweeps, 'sweep')}, "
                f"{_state(one)}"
            )
            if label in verdicts:
                text += f"; {verdicts[label]}"
            table.add_row(f"{label} against the rest", text)
    else:
        record = _run_record(run, n_rows)
        table.add_row("mistakes (updates)", format_display(run.mistakes))
        table.add_row("sweeps", format_display(run.sweeps))
        table.add_row("result", _state(run))
        if None in verdicts:
            table.add_row("separable", verdicts[None])
        if "training_errors" in record and n_rows:
            errors = record["training_errors"]
            label = "pocket training errors" if run.algorithm == "pocket" else "training errors"
            table.add_row(
                label,
                f"{format_display(errors)} of {format_display(n_rows)} "
                f"({100 * (n_rows - errors) / n_rows:.2f}% correct)",
            )
        if getattr(run.w, "ndim", 1) == 2:
            for label, w, b in zip(classes, run.w, run.b, strict=True):
                table.add_row(
                    f"w of {label}",
                    format_display_vector(w)
                    + (f", b = {format_display(b)}" if run.fit_intercept else ""),
                )
        else:
            table.add_row(
                "w" + (" (of the scaled features)" if scaler is not None else ""),
                format_display_vector(run.w),
            )
            if run.fit_intercept:
                table.add_row("b", format_display(run.b))
    console().print(table)


def _judge(
    run: Any, options: dict, scale: Scale, names: list[str] | None, max_bytes: str | None = None
) -> tuple[dict, list]:
    """The analysis' verdict on each run that did not converge (``perceptronlab analyze``'s own
    :func:`~perceptronlab.theory.analysis.judge_run`): {class or None: words}, and its advice.

    A verdict whose linear program would need more memory than ``max_bytes`` (estimated from the
    shape) is left out with one warning: the trained model is still shown and saved."""
    import warnings

    from perceptronlab._ground.numbers import format_display
    from perceptronlab.cli._classes import OneVsRest, one_vs_rest_signs
    from perceptronlab.exceptions import InputError, PerceptronLabWarning
    from perceptronlab.theory.analysis import judge_run

    if options["algorithm"] not in ("perceptron", "averaged") or "units" not in options:
        return {}, []
    tasks = (
        [
            (label, one, one_vs_rest_signs(options["y"], label))
            for label, one in zip(run.classes_, run.runs, strict=True)
        ]
        if isinstance(run, OneVsRest)
        else [(None, run, options["y"])]
    )
    verdicts, advice = {}, []
    for label, one, y in tasks:
        if one.converged:
            continue
        try:
            measured, said = judge_run(
                options["units"],
                y,
                one,
                fit_intercept=options["fit_intercept"],
                scale=None if scale is Scale.none else scale.value,
                seconds=options.get("seconds"),
                feature_names=names,
                max_bytes=max_bytes,
            )
        except InputError as refused:  # over the memory budget: the model stands without it
            warnings.warn(f"no separability verdict: {refused}", PerceptronLabWarning, stacklevel=2)
            verdicts[label] = "not checked (over the memory budget: see the warning)"
            continue
        if measured.separability.separable:
            verdicts[label] = (
                f"yes (linear program): it converges within R²/ρ*² {format_display(measured.bound)} "
                "mistakes; this run is unfinished"
            )
        else:
            verdicts[label] = (
                "no (a Gordan certificate): the perceptron never converges on this data; "
                "perceptronlab.pocket keeps the weights with the fewest training errors"
            )
        advice += said
    return verdicts, advice


# ================================================================ train


EtaOpt = Annotated[
    str,
    typer.Option(
        "--eta",
        metavar="NUMBER",
        help="Learning rate η > 0: 2, 0.5 or 1/2 (from w = 0 it only scales w).",
    ),
]
MarginOpt = Annotated[
    str,
    typer.Option(
        "--margin",
        metavar="NUMBER",
        help="Margin ρ₀ ≥ 0 of the margin perceptron: update while y⟨w,x⟩ ≤ ρ₀.",
    ),
]
MaxSweepsOpt = Annotated[
    int | None,
    typer.Option(
        "--max-sweeps",
        min=1,
        help=f"Stop after this many sweeps. Default: {DEFAULT_MAX_SWEEPS['perceptron']} for the perceptron "
        f"(--dask and --stream too), {DEFAULT_MAX_SWEEPS['pocket']} for the others.",
    ),
]


def train(
    ctx: typer.Context,
    data: DataArg,
    algorithm: Annotated[
        Algorithm,
        typer.Option(
            help="perceptron; pocket (the fewest training errors, for non-separable data); averaged (the average of "
            "the run's weights); multiclass (the multiclass perceptron: one weight row per class). On more than "
            "two classes the first three run once per class, that class against the rest (one-vs-rest)."
        ),
    ] = Algorithm.perceptron,
    order: Annotated[
        Order | None,
        typer.Option(
            help="cyclic (data order), shuffle, random-mistake. Default: cyclic for the perceptron, "
            "random-mistake for pocket."
        ),
    ] = None,
    eta: EtaOpt = "1",
    intercept: InterceptOpt = False,
    margin: MarginOpt = "0",
    max_sweeps: MaxSweepsOpt = None,
    max_updates: Annotated[
        int | None, typer.Option(min=1, help="Pocket only: stop after this many updates.")
    ] = None,
    check: Annotated[
        Check | None,
        typer.Option(
            help="Pocket only: when the pocket counts training errors: update (after every update; the default, "
            "as perceptronlab.pocket), sweep (after every sweep), ratchet (Gallant's ratchet: when a run of "
            "correct picks beats the pocket's; O(d) a pick, for large data)."
        ),
    ] = None,
    seed: SeedOpt = None,
    exact: Annotated[bool, typer.Option(help="Compute with exact fractions (small data).")] = False,
    scale: ScaleOpt = Scale.none,
    label: LabelOpt = None,
    features: FeaturesOpt = None,
    ignore: IgnoreOpt = None,
    categorical: CategoricalOpt = None,
    missing: MissingOpt = Missing.error,
    holdout: HoldoutOpt = None,
    data_format: DataFormatOpt = None,
    max_bytes: MaxBytesOpt = None,
    out: Annotated[
        Path | None,
        typer.Option(
            "--out", "-o", help="Save the model (its scaler and column recipe too) as JSON here."
        ),
    ] = None,
    json_output: JsonOpt = False,
    quiet: QuietOpt = False,
    dask: Annotated[
        bool,
        typer.Option(
            "--dask",
            help="Train on a Dask cluster by iterative parameter mixing (the dask extra); a local "
            "cluster unless --scheduler is given.",
        ),
    ] = False,
    scheduler: Annotated[
        str | None,
        typer.Option(help="Dask scheduler address, e.g. tcp://host:8786 (implies --dask)."),
    ] = None,
    shards: Annotated[
        int | None,
        typer.Option(
            min=1, help="Number of Dask shards (implies --dask). Default: one per partition."
        ),
    ] = None,
    stream: Annotated[
        bool,
        typer.Option(
            "--stream",
            help="Train out of core on this machine: one block of the file in memory at a time "
            "(the dask extra's readers; no cluster, not with --scheduler or --shards).",
        ),
    ] = False,
) -> None:
    """Train a perceptron (or pocket, averaged, multiclass) on DATA and print what the run did.

    Any number of classes: on more than two, one run per class (one-vs-rest) unless --algorithm
    multiclass. A run that did not converge is judged as `perceptronlab analyze` judges it (separable
    or not, by a linear program) with the same advice.

    A CSV file as it comes: pick columns by name with --features or --ignore, one-hot encode text
    columns with --categorical, fill or drop missing cells with --missing (the model file keeps
    the recipe, and predict applies it); --holdout scores the model on rows kept out.
    """
    eta_value: Fraction | float = parse_number(eta, "--eta")
    margin_value: Fraction | float = parse_number(margin, "--margin")
    if out is not None:
        from perceptronlab._ground.files import write_target

        write_target(out, "--out")  # a bad --out fails before the training, not after it
    if not exact:
        from perceptronlab._ground.numbers import to_float

        eta_value, margin_value = to_float(eta_value, "--eta"), to_float(margin_value, "--margin")
    name = algorithm.value
    options: dict[str, Any] = dict(
        algorithm=name,
        order=order.value if order else None,
        eta=eta_value,
        fit_intercept=intercept,
        margin=margin_value,
        max_sweeps=DEFAULT_MAX_SWEEPS[name] if max_sweeps is None else max_sweeps,
        max_updates=max_updates,
        check=check.value if check else None,
        seed=seed,
        exact=exact,
        label=label,
        fmt=data_format,
    )
    _check_options(options, scale)
    request = table_request(features, ignore, categorical, missing)
    scaler = names = label_name = recipe = held = training = None
    if dask or scheduler is not None or shards is not None or stream:
        from perceptronlab.cli._common import require_extra

        require_extra("dask", "--stream" if stream else "--dask")
        _refuse_table_flags(request, holdout)
        if scale is not Scale.none:
            from perceptronlab._ground.validation import fail

            raise fail(
                "--scale",
                "no scaler with --dask or --stream",
                scale.value,
                "A scaler needs the whole data in memory; scale the file first, or train without "
                "--dask/--stream.",
            )
        if max_bytes is not None:
            from perceptronlab._ground.validation import fail

            raise fail(
                "--max-bytes",
                "no budget with --dask or --stream",
                repr(max_bytes),
                "The budget limits reading a file into memory; --dask and --stream read it block by "
                "block. Drop --max-bytes.",
            )
        run, n_rows, n_features = _train_scaled(data, scheduler, shards, stream, options, quiet)
        if run is None:
            return
    else:
        options["table"], options["holdout"], options["quiet"] = request, holdout, quiet
        run, n_rows, n_features, scaler = _train_local(
            data, options, quiet or json_output, scale, max_bytes
        )
        training = options.pop("training")
        recipe, held = training.recipe, training.held
        names, label_name = column_names(data, label=label, fmt=data_format)
        if recipe is not None:
            names, label_name = training.names, recipe["label"]
    verdicts, advice = _judge(run, options, scale, names, max_bytes)
    scored = None
    if held is not None:
        from perceptronlab.cli.evaluate import held_out_score

        scored = held_out_score(run, scaler, names, label_name, recipe, held)
        scored.update(fraction=holdout, seed=seed)
    counts = (
        None
        if recipe is None or training is None
        else dict(training.counts, missing=recipe["missing"])
    )
    _report(
        run,
        n_rows,
        n_features,
        out=out,
        json_output=json_output,
        quiet=quiet,
        scaler=scaler,
        feature_names=names,
        label_name=label_name,
        verdicts=verdicts,
        advice=advice,
        command=ctx.command,
        table=recipe,
        holdout=scored,
        counts=counts,
    )


def _refuse_table_flags(request: Any, holdout: float | None) -> None:
    """--dask and --stream read a file block by block: no columns flags, no held-out part."""
    from perceptronlab._ground.validation import fail

    if request.given or holdout is not None:
        raise fail(
            "--features/--ignore/--categorical/--missing/--holdout",
            "none with --dask or --stream",
            "a columns flag" if request.given else f"--holdout {holdout}",
            "These read the whole table in memory; prepare the file first, or train without "
            "--dask/--stream.",
        )


def _check_options(options: dict, scale: Scale) -> None:
    """The flags that do not go together, refused before any work (one line each)."""
    from perceptronlab._ground.validation import fail

    algorithm = options["algorithm"]
    if algorithm != "pocket":
        if options["max_updates"] is not None:
            raise fail(
                "--max-updates",
                f"no value for --algorithm {algorithm}",
                options["max_updates"],
                "It limits pocket only; use --max-sweeps, or --algorithm pocket.",
            )
        if options["check"] is not None:
            raise fail(
                "--check",
                f"no value for --algorithm {algorithm}",
                options["check"],
                "It applies to pocket only; drop --check, or use --algorithm pocket.",
            )
    elif options["margin"]:
        raise fail(
            "--margin",
            "0 for pocket",
            options["margin"],
            "The margin applies to the perceptron; drop --margin or use --algorithm perceptron.",
        )
    if algorithm in ("averaged", "multiclass"):
        if options["order"] not in (None, "cyclic", "shuffle"):
            raise fail(
                "--order",
                f"cyclic or shuffle for --algorithm {algorithm}",
                options["order"],
                "These learners visit every example once a sweep; pass --order cyclic or --order shuffle.",
            )
        if options["exact"]:
            raise fail(
                "--exact",
                f"no --exact with --algorithm {algorithm}",
                "--exact",
                "It computes in floating point; drop --exact, or use --algorithm perceptron.",
            )
    if scale is not Scale.none and options["exact"]:
        raise fail(
            "--scale",
            "no scaler with --exact",
            scale.value,
            "A scaler computes in floating point; drop --exact, or use --scale none.",
        )


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


def _train_local(
    data: Path, options: dict, quiet: bool, scale: Scale = Scale.none, max_bytes: str | None = None
):
    import time

    import perceptronlab as pl
    from perceptronlab.cli._progress import Progress
    from perceptronlab.cli._table import read_training

    with Progress("train", quiet=quiet) as progress:
        progress(f"reading {data}")
        training = read_training(  # its lines (rows dropped, cells filled) even with --json
            data, options["table"], options, max_bytes, options["holdout"], options["quiet"]
        )
        X, y = training.X, training.y
        units = X
        scaler = None
        if scale is not Scale.none:
            from perceptronlab.preprocessing import apply_scaler, fit_scaler

            progress(f"scaling ({scale.value})")
            if scale is Scale.standard:
                X = units = _dense_for_centring(X, max_bytes)
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


def _train_scaled(data: Path, scheduler, shards, stream, options: dict, quiet: bool):
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
        return None, 0, 0
    n_features = int(len(result.w))
    n_rows = getattr(result, "n_examples", None)
    return result, (None if n_rows is None else int(n_rows)), n_features


def _report(
    run: Any,
    n_rows: int | None,
    n_features: int,
    *,
    out: Path | None,
    json_output: bool,
    quiet: bool,
    scaler: Any = None,
    feature_names: list[str] | None = None,
    label_name: str | None = None,
    verdicts: dict | None = None,
    advice: list | None = None,
    command: Any = None,
    table: dict | None = None,
    holdout: dict | None = None,
    counts: dict | None = None,
) -> None:
    from perceptronlab.cli._wording import flags_of, to_command_line

    flags = flags_of(command)

    def wording(text: str) -> str:
        return to_command_line(text, flags)

    if out is not None:
        from perceptronlab.io import save_model

        save_model(
            run,
            out,
            scaler=scaler,
            feature_names=feature_names,
            label_name=label_name,
            table=table,
        )
    if json_output:
        record = _run_record(run, n_rows)
        if scaler is not None:
            from perceptronlab.preprocessing import scaler_name

            record["scale"] = scaler_name(scaler)
        if verdicts:
            record["separable"] = {
                ("all" if k is None else str(k)): v.startswith("yes") for k, v in verdicts.items()
            }
        record["advice"] = [
            {"topic": a.topic, "why": wording(a.why), "fix": wording(a.fix)} for a in advice or []
        ]
        if holdout is not None:
            record["holdout"] = holdout
        if counts is not None:
            record["table"] = counts
        if out is not None:
            record["model"] = str(out)
        print_json(record)
        return
    _print_run(
        run, n_rows, n_features, scaler, {k: wording(v) for k, v in (verdicts or {}).items()}
    )
    if holdout is not None:
        from perceptronlab.cli.evaluate import print_score

        print_score(
            holdout, f"held out ({holdout['rows']:,} rows, --holdout {holdout['fraction']})"
        )
    if advice:
        from perceptronlab.cli.theory import advice_cards

        for card in advice_cards(type("Advised", (), {"advice": advice})(), wording):
            console().print(card)
    if out is not None:
        info(f"model saved to {out}", quiet=quiet)


# ================================================================ predict


def predict(
    model: Annotated[
        Path,
        typer.Argument(metavar="MODEL", help="Model file (JSON) from `perceptronlab train --out`."),
    ],
    data: DataArg,
    out: Annotated[
        Path | None, typer.Option("--out", "-o", help="Write the predictions as CSV here.")
    ] = None,
    label: LabelOpt = None,
    data_format: DataFormatOpt = None,
    max_bytes: MaxBytesOpt = None,
    json_output: JsonOpt = False,
    quiet: QuietOpt = False,
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
    fitted = load_fitted(model)
    X, y = prediction_data(fitted, data, label, data_format, max_bytes, quiet)
    labels = [plain_label(v) for v in predict_labels(fitted, X).tolist()]
    if out is not None:
        import csv

        from perceptronlab._ground.files import atomic_open

        with atomic_open(out, "w", newline="", what="--out") as handle:
            writer = csv.writer(handle)
            writer.writerow(["prediction"])
            writer.writerows([v] for v in labels)
        info(f"{len(labels)} predictions written to {out}", quiet=quiet)
    if json_output:
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


# ================================================================ trace


#: the most worksheet rows (steps: examples × sweeps) ``trace`` writes unless --max-steps raises it
TRACE_MAX_STEPS = 10_000


def trace(
    data: DataArg,
    fmt: Annotated[
        TableFormat, typer.Option("--format", "-f", help="Table format.")
    ] = TableFormat.md,
    eta: EtaOpt = "1",
    intercept: InterceptOpt = False,
    margin: MarginOpt = "0",
    max_sweeps: Annotated[
        int, typer.Option("--max-sweeps", min=1, help="Stop after this many sweeps.")
    ] = DEFAULT_MAX_SWEEPS["perceptron"],
    max_steps: Annotated[
        int,
        typer.Option(
            "--max-steps",
            min=1,
            help="The most worksheet rows (one per step: examples × sweeps, per class on more than two classes); "
            "data that could need more is refused before any work.",
        ),
    ] = TRACE_MAX_STEPS,
    order: Annotated[Order, typer.Option(help="Order of the examples.")] = Order.cyclic,
    seed: SeedOpt = None,
    label: LabelOpt = None,
    data_format: DataFormatOpt = None,
    max_bytes: MaxBytesOpt = None,
    quiet: QuietOpt = False,
) -> None:
    """Run the perceptron exactly (fractions) on DATA and print the worksheet table.

    On more than two classes: one worksheet per class, that class (+1) against the rest (−1).
    """
    import perceptronlab as pl
    from perceptronlab.cli._progress import Progress
    from perceptronlab.cli.theory import class_tasks
    from perceptronlab.exceptions import InputError

    eta_value, margin_value = parse_number(eta, "--eta"), parse_number(margin, "--margin")
    with Progress("trace", quiet=quiet) as progress:
        progress(f"reading {data}")
        try:  # the fast reader first: the worksheet's size is known before the exact, slower reading
            X, y = read_xy(data, label=label, fmt=data_format, max_bytes=max_bytes)
            _check_trace_size(X.shape[0], len(class_tasks(y)), max_sweeps, max_steps)
        except InputError:
            pass  # cells such as 1/3 that only the exact reader takes; checked below
        X, y = read_xy(data, label=label, fmt=data_format, exact=True, max_bytes=max_bytes)
        tasks = class_tasks(y)
        _check_trace_size(len(X), len(tasks), max_sweeps, max_steps)
        runs = []
        for label_of_class, signs in tasks:
            name = (
                "perceptron"
                if label_of_class is None
                else f"perceptron: {label_of_class} against the rest"
            )
            runs.append(
                pl.perceptron(
                    X,
                    signs,
                    eta=eta_value,
                    fit_intercept=intercept,
                    margin=margin_value,
                    max_sweeps=max_sweeps,
                    order=order.value,
                    seed=seed,
                    exact=True,
                    trace=True,
                    warn=False,
                    on_sweep=progress(name, max_sweeps),
                )
            )
    for (label_of_class, _), run in zip(tasks, runs, strict=True):
        if label_of_class is not None:
            typer.echo(_heading(label_of_class, fmt))
        typer.echo(run.table(fmt.value), nl=False)
        info(
            ("" if label_of_class is None else f"{label_of_class} against the rest: ")
            + run.summary(),
            quiet=quiet,
        )


def _check_trace_size(n: int, tasks: int, max_sweeps: int, max_steps: int) -> None:
    """Refuse, before any work, a worksheet that could hold more than ``max_steps`` rows."""
    from perceptronlab._ground.numbers import format_display
    from perceptronlab._ground.validation import fail

    rows = n * max_sweeps * tasks
    if rows <= max_steps:
        return
    fits = max_steps // (n * tasks)
    what = (
        f"up to {format_display(rows)} ({format_display(n)} examples × {format_display(max_sweeps)} sweeps"
        + (f" × {tasks} classes" if tasks > 1 else "")
        + ")"
    )
    fix = (
        f"Pass --max-sweeps {fits} for a worksheet of at most {format_display(max_steps)} rows, or raise "
        "--max-steps (exact fractions: each row is a step done by hand)."
        if fits
        else "One sweep alone is longer: trace a sample of the rows, raise --max-steps, or use "
        "`perceptronlab train`, which computes in floating point."
    )
    raise fail(
        "trace", f"a worksheet of at most {format_display(max_steps)} rows (--max-steps)", what, fix
    )


def _heading(label: Any, fmt: TableFormat) -> str:
    """The heading of one class's worksheet, in the table's format, the label escaped for it: HTML
    text, live LaTeX text (never a comment, which a line break in the label would end), Markdown
    with raw HTML made literal, a CSV comment line (control characters made spaces)."""
    from perceptronlab._ground.markup import flat_text, html_text, latex_text, markdown_text

    if fmt is TableFormat.html:
        return f"<h3>class {html_text(label)} (+1) against the rest (−1)</h3>"
    if fmt is TableFormat.latex:
        heading = f"class {latex_text(label)} (+1) against the rest ($-1$)"
        return f"\\medskip\\noindent\\textbf{{{heading}}}\\par"
    if fmt is TableFormat.md:
        return f"\n### class {markdown_text(label)} (+1) against the rest (−1)\n"
    return f"# class {flat_text(label)} (+1) against the rest (−1)"


# ================================================================ demo


def demo(json_output: JsonOpt = False) -> None:
    """The exam task of the lecture notes “Perceptron Mistake Bound” end to end: worksheet, summary,
    bound, η = 2, scikit-learn side by side."""
    import warnings

    import numpy as np

    import perceptronlab as pl
    from perceptronlab._ground.numbers import format_number, format_vector
    from perceptronlab.bounds import novikoff
    from perceptronlab.theory.geometry import margin_squared, radius_squared

    run = pl.perceptron(EXAM_X, EXAM_Y, exact=True, trace=True)
    run2 = pl.perceptron(EXAM_X, EXAM_Y, eta=2, exact=True, trace=True)
    # (b): the separator w* = (1, -2) of the seed, its margin and Novikoff's bound R²/ρ²
    r2 = radius_squared(EXAM_X)
    rho2 = margin_squared([1, -2], EXAM_X, EXAM_Y)
    bound = novikoff(r2, rho2, squared=True)
    with warnings.catch_warnings():
        warnings.simplefilter(
            "ignore"
        )  # max_iter=4 on purpose: sklearn's ConvergenceWarning is noise here
        from sklearn.linear_model import Perceptron as SkPerceptron

        sk = SkPerceptron(
            shuffle=False, eta0=1, alpha=0, penalty=None, fit_intercept=False, tol=None, max_iter=4
        ).fit(np.asarray(EXAM_X, dtype=float), np.asarray(EXAM_Y))
    ours = np.asarray([float(v) for v in run.w])
    agree = bool(np.array_equal(ours, sk.coef_[0]))
    if json_output:
        print_json(
            {
                "worksheet": [list(r) for r in run.worksheet_rows()],
                "mistakes": run.mistakes,
                "sweeps": run.sweeps,
                "converged": run.converged,
                "w": run.w,
                "bound": {"R2": r2, "rho2": rho2, "novikoff": bound},
                "eta2": {"mistakes": run2.mistakes, "w": run2.w},
                "sklearn": {"coef": sk.coef_[0], "n_iter": int(sk.n_iter_)},
                "sklearn_equals_ours": agree,
            }
        )
        return

    from rich.panel import Panel
    from rich.table import Table

    con = console()
    con.print(
        Panel.fit(
            "[bold]perceptronlab demo[/]: the exam task of the lecture notes "
            "“Perceptron Mistake Bound”, by the engine\n"
            "x₁ = (1, 0), y₁ = +1    x₂ = (1, 1), y₂ = −1    x₃ = (0, 1), y₃ = −1\n"
            "w starts at (0, 0), no offset; sweep x₁, x₂, x₃ until a sweep makes no update.\n"
            "A mistake is y⟨w,x⟩ ≤ 0 (ties count); on a mistake w ← w + η·y·x.",
            border_style="cyan",
        )
    )

    sheet = Table(title="(a) the worksheet, exact arithmetic (η = 1)", title_justify="left")
    columns: tuple[tuple[str, JustifyMethod], ...] = (
        ("sweep", "right"),
        ("point", "left"),
        ("y⟨w,x⟩", "right"),
        ("mistake?", "center"),
        ("w after", "left"),
    )
    for name, justify in columns:
        sheet.add_column(name, justify=justify)
    for row in run.worksheet_rows():
        style = "bold red" if row[3] == "yes" else ("bold green" if row[4] == "stop" else None)
        sheet.add_row(*row, style=style)
    con.print(sheet)
    con.print(f"[bold]summary:[/] {run.summary()}")
    con.print(
        f"[bold](b) bound:[/] R² = {format_number(r2)}, ρ(w*)² = {format_number(rho2)} for "
        f"w* = (1, -2): R²/ρ² = {format_number(bound)} ≥ {run.mistakes} mistakes ✓"
    )
    con.print(
        f"[bold](c) η = 2:[/] {run2.mistakes} mistakes, w = {format_vector(run2.w)} "
        f"= 2·{format_vector(run.w)}: from w = 0, η only scales w"
    )

    side = Table(
        title="the same data in scikit-learn: Perceptron(shuffle=False, eta0=1, alpha=0, "
        "penalty=None, fit_intercept=False, tol=None, max_iter=4)",
        title_justify="left",
    )
    side.add_column("")
    side.add_column("perceptronlab.perceptron", justify="right")
    side.add_column("sklearn.linear_model.Perceptron", justify="right")
    side.add_row(
        "weights",
        format_vector(run.w),
        "(" + ", ".join(format_number(v) for v in sk.coef_[0]) + ")",
    )
    side.add_row("sweeps / epochs", str(run.sweeps), str(int(sk.n_iter_)))
    sk_errors = int((sk.predict(np.asarray(EXAM_X, dtype=float)) != np.asarray(EXAM_Y)).sum())
    side.add_row("training errors", str(int(run.errors_after_sweep[-1])), str(sk_errors))
    con.print(side)
    verdict = "[bold green]identical weights[/]" if agree else "[bold red]the weights differ[/]"
    con.print(
        f"{verdict}: w = {format_vector(run.w)}.  Next: `perceptronlab trace DATA.csv`, "
        "`perceptronlab train DATA.csv --out model.json`, `perceptronlab --help`."
    )


def register(app: typer.Typer) -> None:
    """Add the engine commands to ``app``."""
    app.command("train")(train)
    app.command("predict")(predict)
    app.command("trace")(trace)
    app.command("demo")(demo)
