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

if TYPE_CHECKING:
    from rich.console import JustifyMethod

# the seeds' exam task (seed 000): three points in the plane, no offset
EXAM_X = [[1, 0], [1, 1], [0, 1]]
EXAM_Y = [1, -1, -1]


class Algorithm(str, enum.Enum):
    perceptron = "perceptron"
    pocket = "pocket"


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
    """The JSON face of a run (what ``train --json`` prints)."""
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


def _print_run(run: Any, n_rows: int | None, n_features: int, scaler: Any = None) -> None:
    from rich.table import Table

    from perceptronlab._ground.numbers import format_display, format_display_vector

    record = _run_record(run, n_rows)
    state = ("converged (a clean sweep)" if run.converged and run.algorithm == "perceptron"
             else "zero training errors" if run.converged
             else "cycled: w repeats, it never converges" if run.cycled
             else "stopped at the limit, not converged")
    rows_text = "?" if n_rows is None else str(n_rows)
    table = Table(title=f"{run.algorithm} on {rows_text} examples × {n_features} features",
                  show_header=False, title_justify="left")
    table.add_column(style="bold")
    table.add_column()
    table.add_row("classes", f"{run.classes[0]} (−1), {run.classes[1]} (+1)")
    if scaler is not None:
        from perceptronlab.preprocessing import describe_scaler, scaler_name

        table.add_row("scaled", describe_scaler(scaler_name(scaler)) + " (saved with the model)")
    table.add_row("mistakes (updates)", format_display(run.mistakes))
    table.add_row("sweeps", format_display(run.sweeps))
    table.add_row("result", state)
    if "training_errors" in record and n_rows:
        errors = record["training_errors"]
        label = "pocket training errors" if run.algorithm == "pocket" else "training errors"
        table.add_row(label, f"{errors} of {n_rows} ({100 * (n_rows - errors) / n_rows:.2f}% correct)")
    weights = format_display_vector(run.w)
    table.add_row("w" + (" (of the scaled features)" if scaler is not None else ""), weights)
    if run.fit_intercept:
        table.add_row("b", format_display(run.b))
    console().print(table)


# ================================================================ train


EtaOpt = Annotated[str, typer.Option(
    "--eta", metavar="NUMBER", help="Learning rate η > 0: 2, 0.5 or 1/2 (from w = 0 it only scales w).")]
MarginOpt = Annotated[str, typer.Option(
    "--margin", metavar="NUMBER", help="Margin ρ₀ ≥ 0 of the margin perceptron: update while y⟨w,x⟩ ≤ ρ₀.")]
MaxSweepsOpt = Annotated[int | None, typer.Option(
    "--max-sweeps", min=1,
    help=f"Stop after this many sweeps. Default: {DEFAULT_MAX_SWEEPS['perceptron']} for the perceptron "
         f"(--dask and --stream too), {DEFAULT_MAX_SWEEPS['pocket']} for pocket.")]


def train(
    data: DataArg,
    algorithm: Annotated[Algorithm, typer.Option(help="perceptron, or pocket for non-separable data.")]
    = Algorithm.perceptron,
    order: Annotated[Order | None, typer.Option(
        help="cyclic (data order), shuffle, random-mistake. Default: cyclic for the perceptron, "
             "random-mistake for pocket.")] = None,
    eta: EtaOpt = "1",
    intercept: InterceptOpt = False,
    margin: MarginOpt = "0",
    max_sweeps: MaxSweepsOpt = None,
    max_updates: Annotated[int | None, typer.Option(min=1, help="Pocket only: stop after this many updates.")]
    = None,
    check: Annotated[Check | None, typer.Option(
        help="Pocket only: when the pocket counts training errors: update (after every update; the default, "
             "as perceptronlab.pocket), sweep (after every sweep), ratchet (Gallant's ratchet: when a run of "
             "correct picks beats the pocket's; O(d) a pick, for large data).")] = None,
    seed: SeedOpt = None,
    exact: Annotated[bool, typer.Option(help="Compute with exact fractions (small data).")] = False,
    scale: ScaleOpt = Scale.none,
    label: LabelOpt = None,
    data_format: DataFormatOpt = None,
    max_bytes: MaxBytesOpt = None,
    out: Annotated[Path | None, typer.Option("--out", "-o", help="Save the model (and its scaler) as JSON here.")]
    = None,
    json_output: JsonOpt = False,
    quiet: QuietOpt = False,
    dask: Annotated[bool, typer.Option(
        "--dask", help="Train on a Dask cluster by iterative parameter mixing (the dask extra); a local "
                       "cluster unless --scheduler is given.")] = False,
    scheduler: Annotated[str | None, typer.Option(
        help="Dask scheduler address, e.g. tcp://host:8786 (implies --dask).")] = None,
    shards: Annotated[int | None, typer.Option(
        min=1, help="Number of Dask shards (implies --dask). Default: one per partition.")] = None,
    stream: Annotated[bool, typer.Option(
        "--stream", help="Train out of core on this machine: one block of the file in memory at a time "
                         "(the dask extra's readers; no cluster, not with --scheduler or --shards).")] = False,
) -> None:
    """Train a perceptron (or pocket) on DATA and print what the run did."""
    eta_value: Fraction | float = parse_number(eta, "--eta")
    margin_value: Fraction | float = parse_number(margin, "--margin")
    if out is not None:
        from perceptronlab._ground.files import write_target

        write_target(out, "--out")  # a bad --out fails before the training, not after it
    if not exact:
        from perceptronlab._ground.numbers import to_float

        eta_value, margin_value = to_float(eta_value, "--eta"), to_float(margin_value, "--margin")
    name = algorithm.value
    options = dict(algorithm=name, order=order.value if order else None, eta=eta_value,
                   fit_intercept=intercept, margin=margin_value,
                   max_sweeps=DEFAULT_MAX_SWEEPS[name] if max_sweeps is None else max_sweeps,
                   max_updates=max_updates, check=check.value if check else None, seed=seed, exact=exact,
                   label=label, fmt=data_format)
    scaler = names = label_name = None
    if dask or scheduler is not None or shards is not None or stream:
        if scale is not Scale.none:
            from perceptronlab._ground.validation import fail

            raise fail("--scale", "no scaler with --dask or --stream", scale.value,
                       "A scaler needs the whole data in memory; scale the file first, or train without "
                       "--dask/--stream.")
        if max_bytes is not None:
            from perceptronlab._ground.validation import fail

            raise fail("--max-bytes", "no budget with --dask or --stream", repr(max_bytes),
                       "The budget limits reading a file into memory; --dask and --stream read it block by "
                       "block. Drop --max-bytes.")
        run, n_rows, n_features = _train_scaled(data, scheduler, shards, stream, options, quiet)
        if run is None:
            return
    else:
        run, n_rows, n_features, scaler = _train_local(data, options, quiet or json_output, scale, max_bytes)
        names, label_name = column_names(data, label=label, fmt=data_format)
    _report(run, n_rows, n_features, out=out, json_output=json_output, quiet=quiet, scaler=scaler,
            feature_names=names, label_name=label_name)


def _train_local(data: Path, options: dict, quiet: bool, scale: Scale = Scale.none, max_bytes: str | None = None):
    import perceptronlab as pl
    from perceptronlab.cli._progress import Progress

    if scale is not Scale.none and options["exact"]:
        from perceptronlab._ground.validation import fail

        raise fail("--scale", "no scaler with --exact", scale.value,
                   "A scaler computes in floating point; drop --exact, or use --scale none.")
    with Progress("train", quiet=quiet) as progress:
        progress(f"reading {data}")
        X, y = read_xy(data, label=options["label"], fmt=options["fmt"], exact=options["exact"],
                       max_bytes=max_bytes)
        scaler = None
        if scale is not Scale.none:
            from perceptronlab.preprocessing import apply_scaler, fit_scaler

            progress(f"scaling ({scale.value})")
            scaler = fit_scaler(scale.value, X)
            X = apply_scaler(scaler, X)
        run = _fit(pl, X, y, options, progress)
    n_rows, n_features = (len(X), len(X[0])) if options["exact"] else X.shape
    return run, n_rows, n_features, scaler


def _fit(pl, X, y, options: dict, progress):
    algorithm = options["algorithm"]
    common = dict(eta=options["eta"], fit_intercept=options["fit_intercept"], seed=options["seed"],
                  exact=options["exact"], max_sweeps=options["max_sweeps"])
    if algorithm == "perceptron":
        from perceptronlab._ground.validation import fail

        if options["max_updates"] is not None:
            raise fail("--max-updates", "no value for the perceptron", options["max_updates"],
                       "It limits pocket only; use --max-sweeps, or --algorithm pocket.")
        if options["check"] is not None:
            raise fail("--check", "no value for the perceptron", options["check"],
                       "It applies to pocket only; drop --check, or use --algorithm pocket.")
        kwargs = dict(common, order=options["order"] or "cyclic", margin=options["margin"])
        call = pl.perceptron
    else:
        if options["margin"]:
            from perceptronlab._ground.validation import fail

            raise fail("--margin", "0 for pocket", options["margin"],
                       "The margin applies to the perceptron; drop --margin or use --algorithm perceptron.")
        kwargs = dict(common, order=options["order"] or "random-mistake", max_updates=options["max_updates"],
                      check=options["check"] or "update")
        call = pl.pocket
    return call(X, y, **kwargs, on_sweep=progress(algorithm, options["max_sweeps"]))


def _train_scaled(data: Path, scheduler, shards, stream, options: dict, quiet: bool):
    try:
        from perceptronlab.distributed import train_from_cli
    except ImportError as exc:
        from perceptronlab._ground.validation import fail

        raise fail("--dask/--scheduler/--shards/--stream", "the Dask backend (perceptronlab.distributed)",
                   f"it is not available ({exc})",
                   "Install/enable the dask extra: pip install 'perceptronlab[dask]'.") from None
    result = train_from_cli(data, scheduler=scheduler, shards=shards, stream=stream, options=options,
                            quiet=quiet)
    if result is None:  # the backend printed its own report
        return None, 0, 0
    n_features = int(len(result.w))
    n_rows = getattr(result, "n_examples", None)
    return result, (None if n_rows is None else int(n_rows)), n_features


def _report(run: Any, n_rows: int | None, n_features: int, *, out: Path | None, json_output: bool,
            quiet: bool, scaler: Any = None, feature_names: list[str] | None = None,
            label_name: str | None = None) -> None:
    if out is not None:
        from perceptronlab.io import save_model

        save_model(run, out, scaler=scaler, feature_names=feature_names, label_name=label_name)
    if json_output:
        record = _run_record(run, n_rows)
        if scaler is not None:
            from perceptronlab.preprocessing import scaler_name

            record["scale"] = scaler_name(scaler)
        if out is not None:
            record["model"] = str(out)
        print_json(record)
        return
    _print_run(run, n_rows, n_features, scaler)
    if out is not None:
        info(f"model saved to {out}", quiet=quiet)


# ================================================================ predict


def predict(
    model: Annotated[Path, typer.Argument(
        metavar="MODEL", help="Model file (JSON) from `perceptronlab train --out`.")],
    data: DataArg,
    out: Annotated[Path | None, typer.Option("--out", "-o", help="Write the predictions as CSV here.")]
    = None,
    label: LabelOpt = None,
    data_format: DataFormatOpt = None,
    max_bytes: MaxBytesOpt = None,
    json_output: JsonOpt = False,
    quiet: QuietOpt = False,
) -> None:
    """Predict a label for every row of DATA (with or without a label column): one per line.

    A model trained on a CSV file takes DATA's feature columns by name (in any order; others are ignored).
    """
    import numpy as np

    from perceptronlab.estimators import load_model

    if out is not None:
        from perceptronlab._ground.files import write_target

        write_target(out, "--out")  # a bad --out fails before the work
    fitted = load_model(model, as_estimator=False)
    X, y = _prediction_data(fitted, data, label, data_format, max_bytes)
    predictions = fitted.predict(X)
    labels = [_plain_label(v) for v in predictions.tolist()]
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
        same = np.asarray([str(a) == str(b) for a, b in zip(labels, y.tolist(), strict=True)])
        info(f"accuracy on the {len(same)} labelled rows: {same.mean():.2%} "
             f"({int((~same).sum())} wrong)")


def _prediction_data(fitted: Any, data: Path, label: str | None, fmt: str | None, max_bytes: str | None):
    """DATA's feature columns for ``fitted`` (by name when the model knows its features' names)
    and its labels, if it has a label column."""
    import warnings

    from perceptronlab._ground.validation import fail
    from perceptronlab.exceptions import PerceptronLabWarning
    from perceptronlab.io import read_columns, read_data

    exact = bool(fitted.exact)
    names = getattr(fitted, "feature_names_in_", None)
    columns = read_columns(data, fmt=fmt)
    if names is not None and columns is not None:
        names = [str(n) for n in names]
        missing = [n for n in names if n not in columns]
        if missing:
            raise fail(f"DATA {str(data)!r}", f"the model's {len(names)} features (the columns "
                       + ", ".join(map(repr, names)) + ")",
                       "no column " + ", ".join(map(repr, missing)) + " in its header ("
                       + ", ".join(map(repr, columns)) + ")",
                       "Predict on a file with the columns the model was trained on (in any order; a label "
                       "column is not needed).")
        if label is None and fitted.label_name in columns:
            label = fitted.label_name
        return read_data(data, fmt=fmt, exact=exact, features=names, label=label, has_label=label is not None,
                         max_bytes=max_bytes)
    X, y = read_data(data, label=label, fmt=fmt, exact=exact, max_bytes=max_bytes)
    n_features = len(X[0]) if exact else X.shape[1]
    if n_features + 1 == fitted.n_features_in_ and label is None:
        # the file has no label column: every column is a feature
        if columns is not None:
            warnings.warn(f"the model file has no feature names (saved by an older perceptronlab), so every "
                          f"column of DATA is a feature, {columns[-1]!r} included; if {columns[-1]!r} is a label, "
                          f"the model does not fit this file. Train and save the model again to store its "
                          f"feature names.", PerceptronLabWarning, stacklevel=2)
        X, y = read_data(data, fmt=fmt, exact=exact, has_label=False, max_bytes=max_bytes)
    return X, y


def _plain_label(value: Any) -> Any:
    return value.item() if hasattr(value, "item") else value


# ================================================================ trace


def trace(
    data: DataArg,
    fmt: Annotated[TableFormat, typer.Option("--format", "-f", help="Table format.")] = TableFormat.md,
    eta: EtaOpt = "1",
    intercept: InterceptOpt = False,
    margin: MarginOpt = "0",
    max_sweeps: Annotated[int, typer.Option("--max-sweeps", min=1, help="Stop after this many sweeps.")]
    = DEFAULT_MAX_SWEEPS["perceptron"],
    order: Annotated[Order, typer.Option(help="Order of the examples.")] = Order.cyclic,
    seed: SeedOpt = None,
    label: LabelOpt = None,
    data_format: DataFormatOpt = None,
    max_bytes: MaxBytesOpt = None,
    quiet: QuietOpt = False,
) -> None:
    """Run the perceptron exactly (fractions) on DATA and print the worksheet table."""
    import perceptronlab as pl

    X, y = read_xy(data, label=label, fmt=data_format, exact=True, max_bytes=max_bytes)
    run = pl.perceptron(X, y, eta=parse_number(eta, "--eta"), fit_intercept=intercept,
                        margin=parse_number(margin, "--margin"), max_sweeps=max_sweeps, order=order.value,
                        seed=seed, exact=True, trace=True)
    typer.echo(run.table(fmt.value), nl=False)
    info(run.summary(), quiet=quiet)


# ================================================================ demo


def demo(json_output: JsonOpt = False) -> None:
    """The seeds' exam task end to end: worksheet, summary, bound, η = 2, scikit-learn side by side."""
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
        warnings.simplefilter("ignore")  # max_iter=4 on purpose: sklearn's ConvergenceWarning is noise here
        from sklearn.linear_model import Perceptron as SkPerceptron

        sk = SkPerceptron(shuffle=False, eta0=1, alpha=0, penalty=None, fit_intercept=False, tol=None,
                          max_iter=4).fit(np.asarray(EXAM_X, dtype=float), np.asarray(EXAM_Y))
    ours = np.asarray([float(v) for v in run.w])
    agree = bool(np.array_equal(ours, sk.coef_[0]))
    if json_output:
        print_json({"worksheet": [list(r) for r in run.worksheet_rows()], "mistakes": run.mistakes,
                    "sweeps": run.sweeps, "converged": run.converged, "w": run.w,
                    "bound": {"R2": r2, "rho2": rho2, "novikoff": bound},
                    "eta2": {"mistakes": run2.mistakes, "w": run2.w},
                    "sklearn": {"coef": sk.coef_[0], "n_iter": int(sk.n_iter_)},
                    "sklearn_equals_ours": agree})
        return

    from rich.panel import Panel
    from rich.table import Table

    con = console()
    con.print(Panel.fit(
        "[bold]perceptronlab demo[/]: the exam task of the seeds, by the engine\n"
        "x₁ = (1, 0), y₁ = +1    x₂ = (1, 1), y₂ = −1    x₃ = (0, 1), y₃ = −1\n"
        "w starts at (0, 0), no offset; sweep x₁, x₂, x₃ until a sweep makes no update.\n"
        "A mistake is y⟨w,x⟩ ≤ 0 (ties count); on a mistake w ← w + η·y·x.",
        border_style="cyan"))

    sheet = Table(title="(a) the worksheet, exact arithmetic (η = 1)", title_justify="left")
    columns: tuple[tuple[str, JustifyMethod], ...] = (("sweep", "right"), ("point", "left"), ("y⟨w,x⟩", "right"),
                                                      ("mistake?", "center"), ("w after", "left"))
    for name, justify in columns:
        sheet.add_column(name, justify=justify)
    for row in run.worksheet_rows():
        style = "bold red" if row[3] == "yes" else ("bold green" if row[4] == "stop" else None)
        sheet.add_row(*row, style=style)
    con.print(sheet)
    con.print(f"[bold]summary:[/] {run.summary()}")
    con.print(f"[bold](b) bound:[/] R² = {format_number(r2)}, ρ(w*)² = {format_number(rho2)} for "
              f"w* = (1, -2): R²/ρ² = {format_number(bound)} ≥ {run.mistakes} mistakes ✓")
    con.print(f"[bold](c) η = 2:[/] {run2.mistakes} mistakes, w = {format_vector(run2.w)} "
              f"= 2·{format_vector(run.w)}: from w = 0, η only scales w")

    side = Table(title="the same data in scikit-learn: Perceptron(shuffle=False, eta0=1, alpha=0, "
                       "penalty=None, fit_intercept=False, tol=None, max_iter=4)", title_justify="left")
    side.add_column("")
    side.add_column("perceptronlab.perceptron", justify="right")
    side.add_column("sklearn.linear_model.Perceptron", justify="right")
    side.add_row("weights", format_vector(run.w), "(" + ", ".join(format_number(v) for v in sk.coef_[0]) + ")")
    side.add_row("sweeps / epochs", str(run.sweeps), str(int(sk.n_iter_)))
    sk_errors = int((sk.predict(np.asarray(EXAM_X, dtype=float)) != np.asarray(EXAM_Y)).sum())
    side.add_row("training errors", str(int(run.errors_after_sweep[-1])), str(sk_errors))
    con.print(side)
    verdict = "[bold green]identical weights[/]" if agree else "[bold red]the weights differ[/]"
    con.print(f"{verdict}: w = {format_vector(run.w)}.  Next: `perceptronlab trace DATA.csv`, "
              "`perceptronlab train DATA.csv --out model.json`, `perceptronlab --help`.")


def register(app: typer.Typer) -> None:
    """Add the engine commands to ``app``."""
    app.command("train")(train)
    app.command("predict")(predict)
    app.command("trace")(trace)
    app.command("demo")(demo)
