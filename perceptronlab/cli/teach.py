"""Teaching commands: ``experiment`` (the lectures' experiments) and ``report`` (one HTML page).

The commands parse, call :mod:`perceptronlab.studies.experiments` and :mod:`perceptronlab.studies.report`, and
format; results go to stdout, progress bars and notes to stderr.
"""

from __future__ import annotations

import enum
from pathlib import Path
from typing import Annotated

import typer

from perceptronlab.cli._common import (
    DataArg,
    InterceptOpt,
    JsonOpt,
    QuietOpt,
    Scale,
    ScaleOpt,
    TableOptions,
    info,
    print_json,
    record,
)
from perceptronlab.cli.theory import AnalysisSweepsOpt
from perceptronlab.studies.experiments import EXPERIMENTS


class ImageFormat(str, enum.Enum):
    png = "png"
    svg = "svg"


def experiment(
    name: Annotated[
        str,
        typer.Argument(
            help=f"The experiment: {', '.join(EXPERIMENTS)}.", metavar="NAME", show_default=False
        ),
    ],
    out: Annotated[
        Path | None,
        typer.Option(
            "--out", "-o", help="Directory for the CSV, JSON and PNG files (default: ./NAME)."
        ),
    ] = None,
    seed: Annotated[
        int | None,
        typer.Option(
            "--seed",
            min=0,
            help="Seed (default: each experiment's own, so the notebook's numbers come back).",
        ),
    ] = None,
    trials: Annotated[
        int | None,
        typer.Option("--trials", min=1, help="Random repetitions (default: the experiment's own)."),
    ] = None,
    image_format: Annotated[
        ImageFormat, typer.Option("--format", "-f", help="Figure format.")
    ] = ImageFormat.png,
    quiet: QuietOpt = False,
    json_out: JsonOpt = False,
) -> None:
    """Run one of the experiments of the lectures and write its table, summary and plots.

    bound-vs-actual: Novikoff's bound (exact max margin) against actual mistakes (the notebook “The
    Perceptron Convergence Theorem”).

    lfd: the Learning From Data PLA experiment. worst-case: the basis vectors attain the bound.

    non-separable: errors oscillate sweep after sweep, Pocket keeps the best.
    """
    from perceptronlab.studies.experiments import run_experiment

    if name not in EXPERIMENTS:
        typer.echo(
            f"Error: unknown experiment {name!r}: expected one of {', '.join(sorted(EXPERIMENTS))}. "
            "Run e.g. `perceptronlab experiment bound-vs-actual`.",
            err=True,
        )
        raise typer.Exit(2)
    from perceptronlab.cli._progress import Progress

    out_dir = out if out is not None else Path(name)
    with Progress(f"experiment {name}", quiet=quiet or json_out) as progress:
        result = run_experiment(
            name,
            out_dir,
            seed=seed,
            trials=trials,
            progress=progress.count,
            image_format=image_format.value,
        )
    if json_out:
        print_json(record(result, "name", "params", "stats", "files"))  # files: their paths
    else:
        typer.echo(result.summary)
    info(
        f"wrote {len(result.files)} files to {out_dir}: " + ", ".join(p.name for p in result.files),
        quiet=quiet,
    )


def report(
    ctx: typer.Context,
    data: DataArg,
    out: Annotated[Path, typer.Option("--out", "-o", help="Directory for report.html.")] = Path(
        "report"
    ),
    intercept: InterceptOpt = False,
    scale: ScaleOpt = Scale.none,
    max_sweeps: AnalysisSweepsOpt = None,
    table: TableOptions = TableOptions(),
    title: Annotated[str | None, typer.Option("--title", help="The page's heading.")] = None,
    quiet: QuietOpt = False,
) -> None:
    """Write one self-contained HTML page about DATA: analysis cards, the run, its bound, plots, trace.

    The page shows one analysis and its one run; when the bound is huge or the run cannot finish,
    it says why and what to do (e.g. --scale standard).
    """
    from perceptronlab.cli._progress import Progress
    from perceptronlab.cli._wording import flags_of, to_command_line
    from perceptronlab.studies.report import TRACE_POINTS, write_report

    flags = flags_of(ctx.command)
    with Progress("report", quiet=quiet) as progress:
        progress(f"reading {data}")
        X, y = table.read(data)
        if X.shape[0] <= TRACE_POINTS and scale is Scale.none:
            # small data: read the cells exactly, so the worksheet shows 1/10, not 0.1000000000000000055…
            X, y = table.read(data, exact=True)
        path = write_report(
            X,
            y,
            out,
            fit_intercept=intercept,
            title=title or f"perceptronlab report: {data.name}",
            source=str(data),
            max_sweeps=max_sweeps,
            scale=None if scale is Scale.none else scale.value,
            feature_names=table.feature_names(data),
            on_stage=progress,
            wording=lambda text: to_command_line(text, flags),
        )
    typer.echo(str(path))


def register(app: typer.Typer) -> None:
    """Add the teaching commands ``experiment`` and ``report`` to ``app``."""
    app.command("experiment")(experiment)
    app.command("report")(report)
