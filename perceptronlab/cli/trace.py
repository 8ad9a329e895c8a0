"""``trace``: the perceptron run exactly (fractions) on a data file, printed as the worksheet table
(one per class on more than two classes), its size bounded before any work (--max-steps)."""

from __future__ import annotations

import enum
from typing import Annotated, Any

import typer

from perceptronlab.cli._common import (
    DEFAULT_MAX_SWEEPS,
    DataArg,
    QuietOpt,
    SeedOpt,
    TableOptions,
    info,
)
from perceptronlab.cli._rule_options import Order, RuleOptions


class TableFormat(str, enum.Enum):
    md = "md"
    csv = "csv"
    latex = "latex"
    html = "html"


#: the most worksheet rows (steps: examples × sweeps) ``trace`` writes unless --max-steps raises it
TRACE_MAX_STEPS = 10_000


def trace(
    data: DataArg,
    fmt: Annotated[
        TableFormat, typer.Option("--format", "-f", help="Table format.")
    ] = TableFormat.md,
    rule: RuleOptions = RuleOptions(),
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
    table: TableOptions = TableOptions(),
    quiet: QuietOpt = False,
) -> None:
    """Run the perceptron exactly (fractions) on DATA and print the worksheet table.

    On more than two classes: one worksheet per class, that class (+1) against the rest (−1).
    """
    import perceptronlab as pl
    from perceptronlab.cli._progress import Progress
    from perceptronlab.cli.theory import class_tasks
    from perceptronlab.exceptions import InputError

    eta_value, margin_value = rule.numbers()
    with Progress("trace", quiet=quiet) as progress:
        progress(f"reading {data}")
        try:  # the fast reader first: the worksheet's size is known before the exact, slower reading
            X, y = table.read(data)
            _check_trace_size(X.shape[0], len(class_tasks(y)), max_sweeps, max_steps)
        except InputError:
            pass  # cells such as 1/3 that only the exact reader takes; checked below
        X, y = table.read(data, exact=True)
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
                    fit_intercept=rule.intercept,
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


def register(app: typer.Typer) -> None:
    """Add ``trace`` to ``app``."""
    app.command("trace")(trace)
