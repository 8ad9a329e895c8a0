"""Theory commands: ``analyze`` (issue 4).

``perceptronlab analyze DATA`` reads the file, calls :func:`perceptronlab.analyze` and prints its
answer as Rich cards (or JSON with ``--json``). No computation happens here.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Annotated, Any

import typer

from perceptronlab.cli._common import (
    DataArg,
    DataFormatOpt,
    InterceptOpt,
    JsonOpt,
    LabelOpt,
    MaxBytesOpt,
    QuietOpt,
    console,
    print_json,
    progress,
    read_xy,
)


def _num(value: Any, digits: int = 6) -> str:
    from perceptronlab._numbers import format_short as fmt

    return fmt(value, digits)


def _card(title: str, rows: list[tuple[str, str]], style: str = "cyan"):
    from rich.panel import Panel
    from rich.table import Table

    table = Table.grid(padding=(0, 1))
    table.add_column(style="bold")
    table.add_column()
    for key, value in rows:
        table.add_row(key, value)
    return Panel(table, title=title, border_style=style, expand=False)


def _exact_pair(value: Any) -> str:
    if isinstance(value, Fraction) and value.denominator != 1:
        return f"{value}  (≈ {_num(float(value))})"
    return _num(value)


def _cards(result: Any) -> list:
    run = result.run
    cards = [_card("data", [("n", str(result.n)), ("d", str(result.d)),
                            ("intercept", "yes (augmented x → (1, x))" if result.fit_intercept else "no"),
                            ("R", _num(result.R)), ("R²", _exact_pair(result.R_squared))])]
    sep = result.separability
    if sep.separable:
        cards.append(_card("separable", [("verdict", "yes: the perceptron converges"),
                                         ("min y(⟨w,x⟩+b)", _num(sep.residual))], "green"))
        cards.append(_card("best margin", [("ρ*", _num(result.rho, 10)), ("ρ*²", _exact_pair(result.rho_squared)),
                                           ("support vectors", ", ".join(str(int(i)) for i in
                                                                         result.max_margin.support[:8])
                                            + (" …" if len(result.max_margin.support) > 8 else ""))]))
        state = "converged" if run.converged else f"not converged in {run.params['max_sweeps']} sweeps"
        cards.append(_card("mistakes", [("bound R²/ρ*²", _exact_pair(result.bound)),
                                        ("perceptron", f"{run.mistakes} mistakes, {run.sweeps} sweeps"),
                                        ("run", state), ("mistakes / bound", _num(result.ratio, 4))]))
        rows = [("test-error bound", _exact_pair(result.test_error_bound) + "  = R²/ρ*²/(n+1)")]
        if result.loo is not None:
            loo = result.loo
            rows.insert(0, ("leave-one-out", f"{loo.errors}/{loo.n} = {loo.error_rate:.4g}"))
            rows.insert(1, ("retrainings", f"{loo.retrainings} (mistake set) instead of {loo.n}"))
        cards.append(_card("generalization", rows))
    else:
        support = ", ".join(str(int(i)) for i in sep.support[:8]) + (" …" if len(sep.support) > 8 else "")
        cards.append(_card("not separable", [("verdict", "no hyperplane separates: the perceptron never converges"),
                                             ("certificate", f"examples {support}"),
                                             ("checked", "exactly" if sep.exact else f"residual {sep.residual:.1e}")],
                           "red"))
        rows = [("perceptron", f"{run.mistakes} mistakes in {run.sweeps} sweeps"
                 + (", cycled" if run.cycled else ""))]
        if result.pocket is not None:
            rows.append(("pocket errors", f"{result.pocket.pocket_errors}/{result.n}"))
        if result.freund_schapire is not None:
            rows.append(("Freund–Schapire", f"(R + D)²/ρ² = {_num(result.freund_schapire)}"))
            rows.append(("first sweep", f"{int(run.updates_per_sweep[0])} mistakes"))
        cards.append(_card("non-separable", rows, "yellow"))
    return cards


def analyze(
    data: DataArg,
    intercept: InterceptOpt = False,
    label: LabelOpt = None,
    data_format: DataFormatOpt = None,
    loo: Annotated[bool, typer.Option("--loo/--no-loo", help="Compute the exact leave-one-out error.")] = True,
    exact: Annotated[bool | None, typer.Option(
        "--exact/--no-exact",
        help="Read the cells exactly (0.1 = 1/10) for exact R², ρ*² and bound. Default: for small files.")] = None,
    max_bytes: MaxBytesOpt = None,
    json_output: JsonOpt = False,
    quiet: QuietOpt = False,
) -> None:
    """Will the perceptron converge on DATA, within how many mistakes, and how well will it generalize?

    Prints n, d, R, separability (with a certificate when not), the best margin ρ*, the bound
    R²/ρ*², the actual run and its ratio to the bound, the leave-one-out error and the test-error
    bound; for non-separable data the pocket's errors and its Freund–Schapire bound.
    """
    from perceptronlab.theory.analysis import EXACT_LIMIT
    from perceptronlab.theory.analysis import analyze as run_analysis

    X, y = read_xy(data, label=label, fmt=data_format, max_bytes=max_bytes)
    shape = getattr(X, "shape", None)
    small = shape is not None and shape[0] * shape[1] <= EXACT_LIMIT
    if exact or (exact is None and small and not hasattr(X, "tocsr")):
        X, y = read_xy(data, label=label, fmt=data_format, exact=True, max_bytes=max_bytes)
    with progress("analysing", quiet=quiet or json_output):
        result = run_analysis(X, y, fit_intercept=intercept, loo=loo)
    if json_output:
        print_json(result.to_dict())
        return
    from rich.columns import Columns

    out = console()
    out.print(Columns(_cards(result)))
    out.print(str(result.separability))


def register(app: typer.Typer) -> None:
    """Add the theory commands to ``app``."""
    app.command("analyze")(analyze)
