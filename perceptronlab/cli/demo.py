"""``demo``: the exam task of the lecture notes “Perceptron Mistake Bound” end to end, by the
engine: the worksheet, the summary, Novikoff's bound, η = 2, and scikit-learn side by side."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import typer

from perceptronlab.cli._common import JsonOpt, console, print_json

if TYPE_CHECKING:
    from rich.console import Console, JustifyMethod
    from rich.table import Table

# the exam task of the lecture notes “Perceptron Mistake Bound”: three points in the plane, no offset
EXAM_X = [[1, 0], [1, 1], [0, 1]]
EXAM_Y = [1, -1, -1]


def demo(json_output: JsonOpt = False) -> None:
    """The exam task of the lecture notes “Perceptron Mistake Bound” end to end: worksheet, summary,
    bound, η = 2, scikit-learn side by side."""
    import numpy as np

    import perceptronlab as pl
    from perceptronlab.bounds import novikoff
    from perceptronlab.theory.geometry import margin_squared, radius_squared

    run = pl.perceptron(EXAM_X, EXAM_Y, exact=True, trace=True)
    run2 = pl.perceptron(EXAM_X, EXAM_Y, eta=2, exact=True, trace=True)
    # (b): the separator w* = (1, -2) of the seed, its margin and Novikoff's bound R²/ρ²
    r2 = radius_squared(EXAM_X)
    rho2 = margin_squared([1, -2], EXAM_X, EXAM_Y)
    bound = novikoff(r2, rho2, squared=True)
    sk = _sklearn_run()
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
    _print_demo(console(), run, run2, (r2, rho2, bound), sk, agree)


def _sklearn_run() -> Any:
    """scikit-learn's Perceptron on the same data, in the same order, four epochs."""
    import warnings

    import numpy as np

    with warnings.catch_warnings():
        warnings.simplefilter(
            "ignore"
        )  # max_iter=4 on purpose: sklearn's ConvergenceWarning is noise here
        from sklearn.linear_model import Perceptron as SkPerceptron

        return SkPerceptron(
            shuffle=False, eta0=1, alpha=0, penalty=None, fit_intercept=False, tol=None, max_iter=4
        ).fit(np.asarray(EXAM_X, dtype=float), np.asarray(EXAM_Y))


def _print_demo(
    con: Console, run: Any, run2: Any, bound: tuple[Any, Any, Any], sk: Any, agree: bool
) -> None:
    """The demo for a terminal: the task, (a) the worksheet, (b) the bound, (c) η = 2, and the
    side-by-side table with scikit-learn."""
    from rich.panel import Panel

    from perceptronlab._ground.numbers import format_number, format_vector

    r2, rho2, novikoff = bound
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
    con.print(_worksheet(run))
    con.print(f"[bold]summary:[/] {run.summary()}")
    con.print(
        f"[bold](b) bound:[/] R² = {format_number(r2)}, ρ(w*)² = {format_number(rho2)} for "
        f"w* = (1, -2): R²/ρ² = {format_number(novikoff)} ≥ {run.mistakes} mistakes ✓"
    )
    con.print(
        f"[bold](c) η = 2:[/] {run2.mistakes} mistakes, w = {format_vector(run2.w)} "
        f"= 2·{format_vector(run.w)}: from w = 0, η only scales w"
    )
    con.print(_side_by_side(run, sk))
    verdict = "[bold green]identical weights[/]" if agree else "[bold red]the weights differ[/]"
    con.print(
        f"{verdict}: w = {format_vector(run.w)}.  Next: `perceptronlab trace DATA.csv`, "
        "`perceptronlab train DATA.csv --out model.json`, `perceptronlab --help`."
    )


def _worksheet(run: Any) -> Table:
    """(a): the run's worksheet, mistakes in red, the clean sweep's stop in green."""
    from rich.table import Table

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
    return sheet


def _side_by_side(run: Any, sk: Any) -> Table:
    """Our run and scikit-learn's on the same data: weights, sweeps, training errors."""
    import numpy as np
    from rich.table import Table

    from perceptronlab._ground.numbers import format_number, format_vector

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
    return side


def register(app: typer.Typer) -> None:
    """Add ``demo`` to ``app``."""
    app.command("demo")(demo)
