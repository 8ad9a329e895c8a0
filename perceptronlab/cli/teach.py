"""Teaching commands: ``experiment`` (the seeds' experiments) and ``report`` (one HTML page).

The commands parse, call :mod:`perceptronlab.experiments` and :mod:`perceptronlab.report`, and
format; results go to stdout, progress bars and notes to stderr.
"""

from __future__ import annotations

import enum
from pathlib import Path
from typing import Annotated

import typer

from perceptronlab.cli._common import (
    DataArg,
    DataFormatOpt,
    InterceptOpt,
    JsonOpt,
    LabelOpt,
    MaxBytesOpt,
    QuietOpt,
    err_console,
    info,
    print_json,
    progress,
    read_xy,
)
from perceptronlab.experiments import EXPERIMENTS


class ImageFormat(str, enum.Enum):
    png = "png"
    svg = "svg"


class _Bars:
    """A Rich progress bar per stage, driven by the experiments' ``progress(stage, done, total)``."""

    def __init__(self, title: str, quiet: bool):
        self.title, self.quiet = title, quiet
        self.bar = None
        self.tasks: dict[str, int] = {}

    def __enter__(self):
        con = err_console()
        if not self.quiet and con.is_terminal:
            from rich.progress import (
                BarColumn,
                MofNCompleteColumn,
                Progress,
                TextColumn,
                TimeElapsedColumn,
            )

            self.bar = Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(),
                                TimeElapsedColumn(), console=con, transient=False)
            self.bar.__enter__()
        return self

    def __call__(self, stage: str, done: int, total: int) -> None:
        if self.bar is None:
            return
        if stage not in self.tasks:
            self.tasks[stage] = self.bar.add_task(f"{self.title}: {stage}", total=total)
        self.bar.update(self.tasks[stage], completed=done, total=total)

    def __exit__(self, *exc) -> None:
        if self.bar is not None:
            self.bar.__exit__(*exc)


def experiment(
    name: Annotated[str, typer.Argument(help=f"The experiment: {', '.join(EXPERIMENTS)}.", metavar="NAME",
                                        show_default=False)],
    out: Annotated[Path | None, typer.Option("--out", "-o", help="Directory for the CSV, JSON and PNG files "
                                             "(default: ./NAME).")] = None,
    seed: Annotated[int | None, typer.Option("--seed", min=0, help="Seed (default: the seeds' own choices, "
                                             "so the notebook's numbers come back).")] = None,
    trials: Annotated[int | None, typer.Option("--trials", min=1, help="Random repetitions (default: the "
                                               "experiment's own).")] = None,
    image_format: Annotated[ImageFormat, typer.Option("--format", "-f", help="Figure format.")] = ImageFormat.png,
    quiet: QuietOpt = False,
    json_out: JsonOpt = False,
) -> None:
    """Run one of the seeds' experiments and write its table, summary and plots.

    bound-vs-actual: Novikoff's bound (exact max margin) against actual mistakes (seed 003).

    lfd: the Learning From Data PLA experiment. worst-case: the basis vectors attain the bound.

    non-separable: errors oscillate sweep after sweep, Pocket keeps the best.
    """
    from perceptronlab.experiments import run_experiment

    if name not in EXPERIMENTS:
        typer.echo(f"Error: unknown experiment {name!r}: expected one of {', '.join(sorted(EXPERIMENTS))}. "
                   "Run e.g. `perceptronlab experiment bound-vs-actual`.", err=True)
        raise typer.Exit(2)
    out_dir = out if out is not None else Path(name)
    with _Bars(name, quiet) as bars:
        result = run_experiment(name, out_dir, seed=seed, trials=trials, progress=bars,
                                image_format=image_format.value)
    if json_out:
        print_json({"name": result.name, "params": result.params, "stats": result.stats,
                    "files": [str(p) for p in result.files]})
    else:
        typer.echo(result.summary)
    info(f"wrote {len(result.files)} files to {out_dir}: " + ", ".join(p.name for p in result.files), quiet=quiet)


def report(
    data: DataArg,
    out: Annotated[Path, typer.Option("--out", "-o", help="Directory for report.html.")] = Path("report"),
    intercept: InterceptOpt = False,
    label: LabelOpt = None,
    data_format: DataFormatOpt = None,
    title: Annotated[str | None, typer.Option("--title", help="The page's heading.")] = None,
    max_bytes: MaxBytesOpt = None,
    quiet: QuietOpt = False,
) -> None:
    """Write one self-contained HTML page about DATA: analysis cards, the run, its bound, plots, trace."""
    from perceptronlab.report import TRACE_POINTS, write_report

    X, y = read_xy(data, label=label, fmt=data_format, max_bytes=max_bytes)
    if X.shape[0] <= TRACE_POINTS:
        # small data: read the cells exactly, so the worksheet shows 1/10, not 0.1000000000000000055…
        X, y = read_xy(data, label=label, fmt=data_format, exact=True, max_bytes=max_bytes)
    with progress("computing the report", quiet=quiet):
        path = write_report(X, y, out, fit_intercept=intercept, title=title or f"perceptronlab report: {data.name}",
                            source=str(data))
    typer.echo(str(path))


def register(app: typer.Typer) -> None:
    """Add the teaching commands ``experiment`` and ``report`` to ``app``."""
    app.command("experiment")(experiment)
    app.command("report")(report)
