"""What an experiment returns and writes: :class:`ExperimentResult`, and the studies' shared helpers."""

from __future__ import annotations

import csv
import json
import math
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from perceptronlab._ground.files import atomic_open, atomic_write
from perceptronlab._ground.validation import check_positive_int, check_seed, fail

if TYPE_CHECKING:
    from matplotlib.figure import Figure

Progress = Callable[[str, int, int], None]

#: the formats :meth:`ExperimentResult.write` writes figures in
IMAGE_FORMATS = ("png", "svg")


@dataclass(eq=False)
class ExperimentResult:
    """What an experiment found.

    Attributes
    ----------
    name : str
        The experiment's name in :data:`EXPERIMENTS`.
    table : list of dict
        One row per run (CSV-ready: numbers, strings, booleans).
    summary : str
        The findings in a few lines of plain text.
    stats : dict
        The summary's numbers (JSON-ready), e.g. ``{"all_within_bound": True, ...}``.
    figures : dict of str to Figure
        The plots, by file stem (written as ``<stem>.png``).
    params : dict
        The parameters used (seed, trials, …).
    texts : dict of str to str
        Further text files, by file name (e.g. ``learners.md``), written beside the table.
    files : list of Path
        What :meth:`write` wrote.

    Examples
    --------
    >>> from perceptronlab.studies.experiments import run_experiment
    >>> result = run_experiment("worst-case", trials=2)
    >>> result.name, result.stats["attains_bound"], sorted(result.figures)
    ('worst-case', True, ['worst-case', 'worst-case-squeeze'])
    >>> print(result.summary.splitlines()[1])
      mistakes = n = R²/ρ*² for every n, in cyclic and 2 shuffled orders: yes
    """

    name: str
    table: list[dict[str, Any]]
    summary: str
    stats: dict[str, Any] = field(default_factory=dict)
    figures: dict[str, Figure] = field(default_factory=dict)
    params: dict[str, Any] = field(default_factory=dict)
    files: list[Path] = field(default_factory=list)
    texts: dict[str, str] = field(default_factory=dict)

    def __str__(self) -> str:
        return self.summary

    def write(
        self, out_dir: Path | str, progress: Progress | None = None, image_format: str = "png"
    ) -> list[Path]:
        """Write ``<name>.csv``, ``<name>.json`` and every figure as ``<stem>.png`` (or ``.svg``) into ``out_dir``."""
        from perceptronlab._ground.validation import check_choice

        check_choice("image_format", image_format, IMAGE_FORMATS)
        progress = progress or quiet
        out = make_out_dir(out_dir)
        written = []
        table_path = out / f"{self.name}.csv"
        columns = list(dict.fromkeys(key for row in self.table for key in row))
        with atomic_open(table_path, "w", newline="", what="experiment table") as handle:
            writer = csv.DictWriter(handle, fieldnames=columns)
            writer.writeheader()
            writer.writerows(self.table)
        written.append(table_path)
        json_path = out / f"{self.name}.json"
        payload = {
            "name": self.name,
            "params": self.params,
            "summary": self.summary,
            "stats": self.stats,
            "table": self.table,
        }
        atomic_write(
            json_path, json.dumps(_jsonable(payload), indent=2) + "\n", what="experiment summary"
        )
        written.append(json_path)
        for filename, text in self.texts.items():
            path = out / filename
            atomic_write(path, text, what="experiment table")
            written.append(path)
        progress("files", 0, len(self.figures))
        for done, (stem, figure) in enumerate(self.figures.items(), start=1):
            path = out / f"{stem}.{image_format}"
            with atomic_open(path, "wb", what="figure") as handle:
                figure.savefig(handle, dpi=110, format=image_format)
            written.append(path)
            progress("files", done, len(self.figures))
        self.files = written
        return written


def _jsonable(obj: Any) -> Any:
    if isinstance(obj, dict):
        return {str(k): _jsonable(v) for k, v in obj.items()}
    if isinstance(obj, list | tuple):
        return [_jsonable(v) for v in obj]
    if isinstance(obj, np.generic):
        return _jsonable(obj.item())
    if isinstance(obj, float) and not math.isfinite(obj):
        return str(obj)
    if isinstance(obj, bool | int | float | str) or obj is None:
        return obj
    return str(obj)


def value_of(quantity: Any) -> float:
    """A theory result as a float (plain numbers, or objects with ``.value``)."""
    return float(getattr(quantity, "value", quantity))


def novikoff_value(R: float, rho: float) -> float:
    from perceptronlab.bounds import novikoff

    return value_of(novikoff(R, rho))


def radius_margin_bound(X: Any, y: Any) -> tuple[float, float | None, float | None]:
    """R, the exact ρ* (None when no hyperplane through the origin separates the data) and
    Novikoff's R²/ρ*² (None without a positive ρ*) of one dataset."""
    from perceptronlab.exceptions import NotSeparableError
    from perceptronlab.theory.geometry import max_margin, radius

    R = float(radius(X))
    try:
        rho: float | None = value_of(max_margin(X, y).rho)
    except NotSeparableError:
        rho = None
    return R, rho, novikoff_value(R, rho) if rho else None


def quiet(stage: str, done: int, total: int) -> None:
    """The default progress callback: nothing."""


def finish(
    result: ExperimentResult, out_dir: Path | str | None, progress: Progress | None
) -> ExperimentResult:
    if out_dir is not None:
        result.write(out_dir, progress)
    return result


def trials_or(trials: Any, default: int) -> int:
    if trials is None:
        return default
    return check_positive_int("trials", trials, f"Pass e.g. trials={default}.")


def begin(
    seed: int | None, trials: Any, default_trials: int, progress: Progress | None
) -> tuple[int, int, Progress]:
    """A study's checked arguments: the seed (None: 0), the trials (None: the study's default)
    and the progress callback (None: :func:`quiet`)."""
    return check_seed(seed) or 0, trials_or(trials, default_trials), progress or quiet


def make_out_dir(out_dir: Path | str) -> Path:
    """``out_dir`` made (with its parents), or one line saying it cannot be written to."""
    out = Path(out_dir)
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise fail(
            "out_dir",
            "a writable directory",
            f"{out} ({exc.strerror})",
            "Pass --out with a directory you can write to.",
        ) from None
    return out
