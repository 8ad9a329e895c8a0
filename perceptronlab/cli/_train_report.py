"""What ``train`` shows of a run: the JSON record, the Rich table, the analysis' verdicts on a run
that did not converge, and the saved model (:func:`report`)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from perceptronlab.cli._common import OutputOptions, Scale, console, info, print_json


def run_record(run: Any, n_rows: int | None) -> dict:
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
                {"class": label, **run_record(one, n_rows)}
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


def print_run(
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
        record = run_record(run, n_rows)
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


def judge(
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


@dataclass
class Trained:
    """A training run and what reading its data left for the report (the model file's scaler and
    column names; ``training``, the table's reading: None with --dask or --stream)."""

    run: Any
    n_rows: int | None
    n_features: int
    scaler: Any = None
    names: list[str] | None = None
    label_name: str | None = None
    training: Any = None

    @property
    def recipe(self) -> dict | None:
        """The column recipe the model file keeps (None without a table's reading)."""
        return None if self.training is None else self.training.recipe

    def counts(self) -> dict | None:
        """The table's counts (rows dropped, cells filled) and its --missing, for ``--json``."""
        recipe = self.recipe
        return None if recipe is None else dict(self.training.counts, missing=recipe["missing"])


def report(
    trained: Trained,
    *,
    out: Path | None,
    output: OutputOptions,
    verdicts: dict | None = None,
    advice: list | None = None,
    command: Any = None,
    holdout: dict | None = None,
) -> None:
    """Save the model (--out), then print the run (``output``: --json, --quiet): its JSON record,
    or its table, the held-out score and the advice cards, in the command's wording."""
    from perceptronlab.cli._wording import flags_of, to_command_line

    flags = flags_of(command)

    def wording(text: str) -> str:
        return to_command_line(text, flags)

    if out is not None:
        from perceptronlab.io import save_model

        save_model(
            trained.run,
            out,
            scaler=trained.scaler,
            feature_names=trained.names,
            label_name=trained.label_name,
            table=trained.recipe,
        )
    if output.json_output:
        print_json(_json_record(trained, out, verdicts, advice, holdout, wording))
        return
    print_run(
        trained.run,
        trained.n_rows,
        trained.n_features,
        trained.scaler,
        {k: wording(v) for k, v in (verdicts or {}).items()},
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
        info(f"model saved to {out}", quiet=output.quiet)


def _json_record(
    trained: Trained,
    out: Path | None,
    verdicts: dict | None,
    advice: list | None,
    holdout: dict | None,
    wording: Any,
) -> dict:
    """What ``train --json`` prints: the run's record with the scaler, the verdicts, the advice,
    the held-out score, the table's counts and the model file."""
    record = run_record(trained.run, trained.n_rows)
    if trained.scaler is not None:
        from perceptronlab.preprocessing import scaler_name

        record["scale"] = scaler_name(trained.scaler)
    if verdicts:
        record["separable"] = {
            ("all" if k is None else str(k)): v.startswith("yes") for k, v in verdicts.items()
        }
    record["advice"] = [
        {"topic": a.topic, "why": wording(a.why), "fix": wording(a.fix)} for a in advice or []
    ]
    if holdout is not None:
        record["holdout"] = holdout
    counts = trained.counts()
    if counts is not None:
        record["table"] = counts
    if out is not None:
        record["model"] = str(out)
    return record
