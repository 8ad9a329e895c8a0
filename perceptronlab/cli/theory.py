"""Theory commands: ``analyze`` (issue 4).

``perceptronlab analyze DATA`` reads the file, calls :func:`perceptronlab.analyze` and prints its
answer as Rich cards (or JSON with ``--json``): one run, shown as it ended, every bound with what it
does and does not say, and the analysis' advice in the command's own flags. No computation happens
here.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Annotated, Any

import typer

from perceptronlab.cli._common import (
    DataArg,
    InterceptOpt,
    OutputOptions,
    Scale,
    ScaleOpt,
    TableOptions,
    console,
    print_json,
)

#: the analysis' --max-sweeps (its default is the analysis' own: enough for the bound, within reason)
AnalysisSweepsOpt = Annotated[
    int | None,
    typer.Option(
        "--max-sweeps",
        min=1,
        help="The run's sweep limit. Default: enough for the bound R²/ρ*² (at least 1000, at most 100,000 and a "
        "few seconds of compiled work); 100 for data that is not separable.",
    ),
]


def _num(value: Any, digits: int = 6) -> str:
    from perceptronlab._ground.numbers import format_display

    return format_display(value, digits)


def _card(title: str, rows: list[tuple[str, str]], style: str = "cyan"):
    from rich.panel import Panel
    from rich.table import Table

    table = Table.grid(padding=(0, 1))
    table.add_column(style="bold")
    table.add_column(overflow="fold")
    for key, value in rows:
        table.add_row(key, value)
    return Panel(table, title=title, border_style=style, expand=False)


def _exact_pair(value: Any) -> str:
    """An exact value shown exactly with its decimal (1/5  ≈ 0.2), or rounded when it is long."""
    text = _num(value)
    if isinstance(value, Fraction) and value.denominator != 1 and not text.startswith("≈"):
        return f"{text}  (≈ {_num(float(value))})"
    return text


def _list(indices: Any, limit: int = 8) -> str:
    items = [str(int(i) + 1) for i in indices[:limit]]
    return ", ".join(items) + (f" … ({len(indices)} in all)" if len(indices) > limit else "")


def run_cards(result: Any) -> list:
    """The Rich cards of an :class:`~perceptronlab.theory.analysis.Analysis` (one run, told as it ended)."""
    cards = [_data_card(result), _verdict_card(result)]
    if result.separability.separable:
        return cards + _separable_cards(result)
    return cards + _non_separable_cards(result)


def _data_card(result: Any):
    """The data: n, d, the intercept, the scaler, R and the spread of the feature scales."""
    from perceptronlab.preprocessing import describe_scaler

    data = [
        ("n", str(result.n)),
        ("d", str(result.d)),
        ("intercept", "yes (augmented x → (1, x))" if result.fit_intercept else "no"),
    ]
    if result.scale:
        data.append(("scaled", describe_scaler(result.scale)))
    data += [("R", _num(result.R)), ("R²", _exact_pair(result.R_squared))]
    if result.spread is not None:
        data.append(("feature scales", f"differ {_num(result.spread.ratio, 2)}×"))
    return _card("data", data)


def _verdict_card(result: Any):
    """Separable or not: the least y(⟨w,x⟩+b) of the separating hyperplane, or the certificate
    that none exists."""
    sep = result.separability
    if sep.separable:
        verdict = [
            ("verdict", "yes: the perceptron converges"),
            ("min y(⟨w,x⟩+b)", _num(sep.residual)),
        ]
        return _card("separable", verdict, "green")
    checked = "exactly" if sep.exact else f"residual {sep.residual:.1e}"
    verdict = [
        ("verdict", "no hyperplane separates: the perceptron never converges"),
        ("certificate", "examples " + _list(sep.support)),
        ("checked", checked),
    ]
    return _card("not separable", verdict, "red")


def _separable_cards(result: Any) -> list:
    """Separable data: the best margin, the mistakes against the bound, generalization."""
    from perceptronlab._ground.numbers import format_count, format_percent

    run, state = result.run, result.run_state()
    cards = []
    cards.append(
        _card(
            "best margin",
            [
                ("ρ*", _num(result.rho)),
                ("ρ*²", _exact_pair(result.rho_squared)),
                ("support vectors", "examples " + _list(result.max_margin.support)),
            ],
        )
    )
    cards.append(
        _card(
            "mistakes",
            [
                ("bound R²/ρ*²", _exact_pair(result.bound)),
                (
                    "perceptron",
                    f"{format_count(run.mistakes, 'mistake')}, {format_count(run.sweeps, 'sweep')}",
                ),
                ("run", state),
                ("mistakes / bound", format_percent(result.ratio)),
            ],
            "cyan" if run.converged else "red",
        )
    )
    bound = _exact_pair(result.test_error_bound) + "  = R²/ρ*²/(n+1)"
    if result.test_error_bound_vacuous:
        bound += "\nvacuous: a bound ≥ 1 on an error probability says nothing"
    rows = [("test-error bound", bound)]
    if result.loo is not None:
        loo = result.loo
        rows.insert(
            0, ("leave-one-out", f"{loo.errors}/{loo.n} = {format_percent(loo.error_rate)}")
        )
        rows.insert(1, ("retrainings", f"{loo.retrainings} (mistake set) instead of {loo.n}"))
    elif not run.converged:
        rows.insert(0, ("leave-one-out", "not computed: the run did not converge"))
    cards.append(
        _card("generalization", rows, "yellow" if result.test_error_bound_vacuous else "cyan")
    )
    return cards


def _non_separable_cards(result: Any) -> list:
    """Non-separable data: the run, the pocket and Freund–Schapire's bound."""
    from perceptronlab._ground.numbers import format_count

    run, state = result.run, result.run_state()
    rows = [
        (
            "perceptron",
            f"{format_count(run.mistakes, 'mistake')} in {format_count(run.sweeps, 'sweep')}",
        ),
        ("run", state),
    ]
    if result.pocket is not None:
        rows.append(("pocket errors", f"{result.pocket.pocket_errors}/{result.n}"))
    if result.freund_schapire is not None:
        rows.append(("Freund–Schapire", f"(R + D)²/ρ² = {_num(result.freund_schapire)}"))
        rows.append(("first sweep", f"{int(run.updates_per_sweep[0])} mistakes"))
    return [_card("non-separable", rows, "yellow")]


def advice_cards(result: Any, wording=None) -> list:
    """One card per piece of the analysis' advice: why, and what to do (in ``wording``'s words)."""
    wording = wording or (lambda text: text)
    return [
        _card(
            f"why, and what to do ({a.topic})",
            [("why", wording(a.why)), ("what to do", wording(a.fix))],
            "yellow",
        )
        for a in result.advice
    ]


LooOpt = Annotated[
    bool, typer.Option("--loo/--no-loo", help="Compute the exact leave-one-out error.")
]
ExactCellsOpt = Annotated[
    bool | None,
    typer.Option(
        "--exact/--no-exact",
        help="Read the cells exactly (0.1 = 1/10) for exact R², ρ*² and bound. Default: for small files "
        "(never with --scale).",
    ),
]


def analyze(
    ctx: typer.Context,
    data: DataArg,
    intercept: InterceptOpt = False,
    scale: ScaleOpt = Scale.none,
    max_sweeps: AnalysisSweepsOpt = None,
    table: TableOptions = TableOptions(),
    loo: LooOpt = True,
    exact: ExactCellsOpt = None,
    output: OutputOptions = OutputOptions(),
) -> None:
    """Will the perceptron converge on DATA, within how many mistakes, and how well will it generalize?

    Prints n, d, R, separability (with a certificate when not), the best margin ρ*, the bound
    R²/ρ*², the actual run and its ratio to the bound, the leave-one-out error and the test-error
    bound; for non-separable data the pocket's errors and its Freund–Schapire bound. When the bound
    is huge or the run cannot finish, it says why and what to do.
    """
    from perceptronlab.cli._progress import Progress
    from perceptronlab.cli._wording import flags_of, to_command_line
    from perceptronlab.theory.analysis import EXACT_LIMIT
    from perceptronlab.theory.analysis import analyze as run_analysis

    scaled = scale is not Scale.none
    if exact and scaled:
        from perceptronlab._ground.validation import fail

        raise fail(
            "--exact",
            "no --exact with --scale",
            "both",
            "A scaler computes in floating point; drop --exact, or use --scale none.",
        )
    with Progress("analyze", quiet=output.silent) as progress:
        progress(f"reading {data}")
        X, y = table.read(data)
        shape = getattr(X, "shape", None)
        small = shape is not None and shape[0] * shape[1] <= EXACT_LIMIT
        if exact or (exact is None and small and not scaled and not hasattr(X, "tocsr")):
            X, y = table.read(data, exact=True)
        names = table.feature_names(data)
        tasks = class_tasks(y)
        results = []
        for label_of_class, signs in tasks:
            if label_of_class is not None:
                progress(f"{label_of_class} against the rest")
            results.append(
                run_analysis(
                    X,
                    signs,
                    fit_intercept=intercept,
                    loo=loo,
                    max_sweeps=max_sweeps,
                    scale=None if not scaled else scale.value,
                    feature_names=names,
                    on_stage=progress,
                    max_bytes=table.max_bytes,
                )
            )
    flags = flags_of(ctx.command)

    def wording(text: str) -> str:
        return to_command_line(text, flags)

    if output.json_output:
        print_json(_json_analyses(tasks, results, wording))
        return
    _print_analyses(tasks, results, wording)


def _json_analyses(tasks: list, results: list, wording: Any) -> dict:
    """What ``analyze --json`` prints: one record, or one per class (one-vs-rest)."""
    records = [analysis_record(result, wording) for result in results]
    if tasks[0][0] is None:
        return records[0]
    return {
        "multiclass": "one-vs-rest",
        "classes": [c for c, _ in tasks],
        "per_class": [
            {"class": c, **record} for (c, _), record in zip(tasks, records, strict=True)
        ],
    }


def _print_analyses(tasks: list, results: list, wording: Any) -> None:
    """The analysis for a terminal: each class's cards, its separability and the advice."""
    from rich.columns import Columns
    from rich.rule import Rule

    out = console()
    for (label_of_class, _), result in zip(tasks, results, strict=True):
        if label_of_class is not None:
            out.print(Rule(f"class {label_of_class} (+1) against the rest (−1)"))
        out.print(Columns(run_cards(result)))
        out.print(wording(str(result.separability)))
        for card in advice_cards(result, wording):
            out.print(card)


def class_tasks(y: Any) -> list[tuple[Any, Any]]:
    """The binary tasks of the labels: ``[(None, y)]`` for two classes, else one per class,
    ``(label, ±1 signs)`` with that class +1 against the rest (one-vs-rest)."""
    import numpy as np

    from perceptronlab.cli._classes import one_vs_rest_signs

    classes = np.unique(np.asarray(y))
    if len(classes) <= 2:
        return [(None, y)]
    return [
        (label.item() if hasattr(label, "item") else label, one_vs_rest_signs(y, label))
        for label in classes
    ]


def analysis_record(result: Any, wording: Any) -> dict:
    """The JSON of an analysis, its advice in the command's words (and the flags that follow it)."""
    record = result.to_dict()
    record["advice"] = [
        {
            **a,
            "why": wording(a["why"]),
            "fix": wording(a["fix"]),
            "flags": [advice_flags(setting) for setting in a["settings"]],
        }
        for a in record["advice"]
    ]
    return record


def advice_flags(setting: dict) -> list[str]:
    """The command-line flags of one setting the advice names: ``["--scale", "standard", "--intercept"]``."""
    flags: list[str] = []
    if setting.get("scale") not in (None, "none"):
        flags += ["--scale", str(setting["scale"])]
    if "fit_intercept" in setting:
        flags.append("--intercept" if setting["fit_intercept"] else "--no-intercept")
    return flags


def register(app: typer.Typer) -> None:
    """Add the theory commands to ``app``."""
    app.command("analyze")(analyze)
