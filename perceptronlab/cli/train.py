"""``train``: fit a perceptron (or pocket, averaged, multiclass) on a data file and show the run.

The command parses and checks its flags (refused before any work, one line each), fits through
:mod:`perceptronlab.cli._train_fit` and reports through :mod:`perceptronlab.cli._train_report`;
results go to stdout, progress and notes to stderr.
"""

from __future__ import annotations

import enum
from fractions import Fraction
from pathlib import Path
from typing import Annotated, Any

import typer

from perceptronlab.cli._common import (
    DEFAULT_MAX_SWEEPS,
    DataArg,
    OutputOptions,
    Scale,
    ScaleOpt,
    SeedOpt,
    TableOptions,
)
from perceptronlab.cli._groups import option_group
from perceptronlab.cli._rule_options import Order, RuleOptions
from perceptronlab.cli._table import ColumnsOptions
from perceptronlab.cli._train_report import Trained


class Algorithm(str, enum.Enum):
    perceptron = "perceptron"
    pocket = "pocket"
    averaged = "averaged"
    multiclass = "multiclass"


class Check(str, enum.Enum):
    update = "update"
    sweep = "sweep"
    ratchet = "ratchet"


AlgorithmOpt = Annotated[
    Algorithm,
    typer.Option(
        help="perceptron; pocket (the fewest training errors, for non-separable data); averaged (the average of "
        "the run's weights); multiclass (the multiclass perceptron: one weight row per class). On more than "
        "two classes the first three run once per class, that class against the rest (one-vs-rest)."
    ),
]
OrderOpt = Annotated[
    Order | None,
    typer.Option(
        help="cyclic (data order), shuffle, random-mistake. Default: cyclic for the perceptron, "
        "random-mistake for pocket."
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
MaxUpdatesOpt = Annotated[
    int | None, typer.Option(min=1, help="Pocket only: stop after this many updates.")
]
CheckOpt = Annotated[
    Check | None,
    typer.Option(
        help="Pocket only: when the pocket counts training errors: update (after every update; the default, "
        "as perceptronlab.pocket), sweep (after every sweep), ratchet (Gallant's ratchet: when a run of "
        "correct picks beats the pocket's; O(d) a pick, for large data)."
    ),
]
ExactOpt = Annotated[bool, typer.Option(help="Compute with exact fractions (small data).")]
ModelOutOpt = Annotated[
    Path | None,
    typer.Option(
        "--out", "-o", help="Save the model (its scaler and column recipe too) as JSON here."
    ),
]
DaskOpt = Annotated[
    bool,
    typer.Option(
        "--dask",
        help="Train on a Dask cluster by iterative parameter mixing (the dask extra); a local "
        "cluster unless --scheduler is given.",
    ),
]
SchedulerOpt = Annotated[
    str | None,
    typer.Option(help="Dask scheduler address, e.g. tcp://host:8786 (implies --dask)."),
]
ShardsOpt = Annotated[
    int | None,
    typer.Option(min=1, help="Number of Dask shards (implies --dask). Default: one per partition."),
]
StreamOpt = Annotated[
    bool,
    typer.Option(
        "--stream",
        help="Train out of core on this machine: one block of the file in memory at a time "
        "(the dask extra's readers; no cluster, not with --scheduler or --shards).",
    ),
]


@option_group("Run")
class RunOptions:
    """How the run goes: the order of the examples, when it stops, the pocket's check, the seed
    and exact arithmetic."""

    order: OrderOpt = None
    max_sweeps: MaxSweepsOpt = None
    max_updates: MaxUpdatesOpt = None
    check: CheckOpt = None
    seed: SeedOpt = None
    exact: ExactOpt = False


@option_group("Out of core (Dask)")
class DaskOptions:
    """Training block by block: on a Dask cluster (--dask, --scheduler, --shards) or on this
    machine (--stream)."""

    dask: DaskOpt = False
    scheduler: SchedulerOpt = None
    shards: ShardsOpt = None
    stream: StreamOpt = False

    @property
    def wanted(self) -> bool:
        """Whether any of these flags asks for training block by block."""
        return self.dask or self.scheduler is not None or self.shards is not None or self.stream


def train(
    ctx: typer.Context,
    data: DataArg,
    algorithm: AlgorithmOpt = Algorithm.perceptron,
    rule: RuleOptions = RuleOptions(),
    run: RunOptions = RunOptions(),
    scale: ScaleOpt = Scale.none,
    table: TableOptions = TableOptions(),
    columns: ColumnsOptions = ColumnsOptions(),
    out: ModelOutOpt = None,
    output: OutputOptions = OutputOptions(),
    dask: DaskOptions = DaskOptions(),
) -> None:
    """Train a perceptron (or pocket, averaged, multiclass) on DATA and print what the run did.

    Any number of classes: on more than two, one run per class (one-vs-rest) unless --algorithm
    multiclass. A run that did not converge is judged as `perceptronlab analyze` judges it (separable
    or not, by a linear program) with the same advice.

    A CSV file as it comes: pick columns by name with --features or --ignore, one-hot encode text
    columns with --categorical, fill or drop missing cells with --missing (the model file keeps
    the recipe, and predict applies it); --holdout scores the model on rows kept out.
    """
    from perceptronlab.cli._train_fit import train_in_memory, train_scaled
    from perceptronlab.cli._train_report import judge, report

    options = _options(algorithm, rule, run, table, out)
    _check_options(options, scale)
    trained: Trained | None
    if dask.wanted:
        _refuse_for_blocks(dask, columns, scale, table)
        trained = train_scaled(
            data, dask.scheduler, dask.shards, dask.stream, options, output.quiet
        )
        if trained is None:
            return
    else:
        options["table"], options["holdout"] = columns.request(), columns.holdout
        options["quiet"] = output.quiet
        trained = train_in_memory(data, options, scale, table, output.json_output)
    verdicts, advice = judge(trained.run, options, scale, trained.names, table.max_bytes)
    report(
        trained,
        out=out,
        output=output,
        verdicts=verdicts,
        advice=advice,
        command=ctx.command,
        holdout=_held_out(trained, columns.holdout, run.seed),
    )


def _options(
    algorithm: Algorithm, rule: RuleOptions, run: RunOptions, table: TableOptions, out: Path | None
) -> dict[str, Any]:
    """The run's settings as the fitting and the report take them (the library's names); --eta
    and --margin as numbers, and a bad --out refused here, before the training."""
    eta_value, margin_value = _rates(rule, run.exact, out)
    name = algorithm.value
    return dict(
        algorithm=name,
        order=run.order.value if run.order else None,
        eta=eta_value,
        fit_intercept=rule.intercept,
        margin=margin_value,
        max_sweeps=DEFAULT_MAX_SWEEPS[name] if run.max_sweeps is None else run.max_sweeps,
        max_updates=run.max_updates,
        check=run.check.value if run.check else None,
        seed=run.seed,
        exact=run.exact,
        label=table.label,
        fmt=table.data_format,
    )


def _rates(
    rule: RuleOptions, exact: bool, out: Path | None
) -> tuple[Fraction | float, Fraction | float]:
    """--eta and --margin as numbers (floats unless --exact); a bad --out fails here too, before
    the training, not after it."""
    eta_value: Fraction | float
    margin_value: Fraction | float
    eta_value, margin_value = rule.numbers()
    if out is not None:
        from perceptronlab._ground.files import write_target

        write_target(out, "--out")  # a bad --out fails before the training, not after it
    if not exact:
        from perceptronlab._ground.numbers import to_float

        eta_value, margin_value = to_float(eta_value, "--eta"), to_float(margin_value, "--margin")
    return eta_value, margin_value


def _held_out(trained: Trained, holdout: float | None, seed: int | None) -> dict | None:
    """The model's score on the rows --holdout kept out (None without them)."""
    held = None if trained.training is None else trained.training.held
    if held is None:
        return None
    from perceptronlab.cli.evaluate import held_out_score

    scored = held_out_score(
        trained.run, trained.scaler, trained.names, trained.label_name, trained.recipe, held
    )
    scored.update(fraction=holdout, seed=seed)
    return scored


def _refuse_for_blocks(
    dask: DaskOptions, columns: ColumnsOptions, scale: Scale, table: TableOptions
) -> None:
    """--dask and --stream: the extra installed, and none of the flags that need the whole file
    in memory (columns flags, --holdout, --scale, --max-bytes)."""
    from perceptronlab._ground.validation import fail
    from perceptronlab.cli._common import require_extra

    require_extra("dask", "--stream" if dask.stream else "--dask")
    _refuse_table_flags(columns)
    if scale is not Scale.none:
        raise fail(
            "--scale",
            "no scaler with --dask or --stream",
            scale.value,
            "A scaler needs the whole data in memory; scale the file first, or train without "
            "--dask/--stream.",
        )
    if table.max_bytes is not None:
        raise fail(
            "--max-bytes",
            "no budget with --dask or --stream",
            repr(table.max_bytes),
            "The budget limits reading a file into memory; --dask and --stream read it block by "
            "block. Drop --max-bytes.",
        )


def _refuse_table_flags(columns: ColumnsOptions) -> None:
    """--dask and --stream read a file block by block: no columns flags, no held-out part."""
    from perceptronlab._ground.validation import fail

    request, holdout = columns.request(), columns.holdout
    if request.given or holdout is not None:
        raise fail(
            "--features/--ignore/--categorical/--missing/--holdout",
            "none with --dask or --stream",
            "a columns flag" if request.given else f"--holdout {holdout}",
            "These read the whole table in memory; prepare the file first, or train without "
            "--dask/--stream.",
        )


#: train's flags for pocket only (the options' key, the fix of a value given to another learner)
_POCKET_ONLY = (
    ("max_updates", "It limits pocket only; use --max-sweeps, or --algorithm pocket."),
    ("check", "It applies to pocket only; drop --check, or use --algorithm pocket."),
)


def _check_options(options: dict, scale: Scale) -> None:
    """The flags that do not go together, refused before any work (one line each)."""
    from perceptronlab._ground.validation import fail

    algorithm = options["algorithm"]
    if algorithm != "pocket":
        for key, fix in _POCKET_ONLY:
            if options[key] is not None:
                flag = "--" + key.replace("_", "-")
                raise fail(flag, f"no value for --algorithm {algorithm}", options[key], fix)
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


def register(app: typer.Typer) -> None:
    """Add ``train`` to ``app``."""
    app.command("train")(train)
