"""The experiments of the lectures, run through the engine and the theory toolkit, with tables, text and plots.

:data:`EXPERIMENTS` maps a name to a function
``(out_dir=None, *, seed=None, trials=None, progress=None) -> ExperimentResult``:

- ``bound-vs-actual``: the study of the notebook “The Perceptron Convergence Theorem”: Gaussian pairs with separations 1.5 … 6 and a bias
  column, actual mistakes against Novikoff's R²/ρ*² with the *exact* max margin ρ* (the notebook
  approximates ρ by the mean-difference direction; its value is kept in the table for comparison).
- ``lfd``: the Learning From Data PLA experiment: N points uniform in [−1, 1]², a random target
  line, random-mistake PLA with intercept from w = 0; iterations and P[f ≠ g] on fresh points.
- ``worst-case``: the basis vectors e₁ … e_n, all +1: mistakes = n = R²/ρ*² (the notebook “The Perceptron Convergence Theorem”, §6.7).
- ``non-separable``: overlapping clouds: errors oscillate sweep after sweep, Pocket keeps the
  fewest (the notebook “The Perceptron Convergence Theorem”, §6.9; Gallant 1990).

``seed=None`` uses each experiment's own default (the lectures' choices, so the notebook's numbers
come back); ``trials`` is the number of random repetitions where an experiment has them.
``progress(stage, done, total)`` is called as the work advances (the CLI draws Rich bars with it).
With ``out_dir`` the table (CSV), the table, summary and statistics (JSON) and the figures (PNG)
are written there.

Examples
--------
>>> from perceptronlab.studies.experiments import run_experiment
>>> result = run_experiment("worst-case")
>>> [(row["n"], row["mistakes"], row["bound"]) for row in result.table][:3]
[(2, 2, 2.0), (3, 3, 3.0), (5, 5, 5.0)]
"""

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
from perceptronlab.studies import learners as learners

if TYPE_CHECKING:
    from matplotlib.figure import Figure

__all__ = ["EXPERIMENTS", "ExperimentResult", "run_experiment"]

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

    def write(self, out_dir: Path | str, progress: Progress | None = None, image_format: str = "png") -> list[Path]:
        """Write ``<name>.csv``, ``<name>.json`` and every figure as ``<stem>.png`` (or ``.svg``) into ``out_dir``."""
        from perceptronlab._ground.validation import check_choice

        check_choice("image_format", image_format, IMAGE_FORMATS)
        progress = progress or _quiet
        out = Path(out_dir)
        try:
            out.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise fail("out_dir", "a writable directory", f"{out} ({exc.strerror})",
                       "Pass --out with a directory you can write to.") from None
        written = []
        table_path = out / f"{self.name}.csv"
        columns = list(dict.fromkeys(key for row in self.table for key in row))
        with atomic_open(table_path, "w", newline="", what="experiment table") as handle:
            writer = csv.DictWriter(handle, fieldnames=columns)
            writer.writeheader()
            writer.writerows(self.table)
        written.append(table_path)
        json_path = out / f"{self.name}.json"
        payload = {"name": self.name, "params": self.params, "summary": self.summary, "stats": self.stats,
                   "table": self.table}
        atomic_write(json_path, json.dumps(_jsonable(payload), indent=2) + "\n", what="experiment summary")
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


def _value(quantity: Any) -> float:
    """A theory result as a float (plain numbers, or objects with ``.value``)."""
    return float(getattr(quantity, "value", quantity))


def _novikoff(R: float, rho: float) -> float:
    from perceptronlab.bounds import novikoff

    return _value(novikoff(R, rho))


def _quiet(stage: str, done: int, total: int) -> None:
    """The default progress callback: nothing."""


def _finish(result: ExperimentResult, out_dir: Path | str | None, progress: Progress | None) -> ExperimentResult:
    if out_dir is not None:
        result.write(out_dir, progress)
    return result


def _trials(trials: Any, default: int) -> int:
    if trials is None:
        return default
    return check_positive_int("trials", trials, f"Pass e.g. trials={default}.")


# ---------------------------------------------------------------- bound vs actual

#: the notebook's separations (the notebook “The Perceptron Convergence Theorem”, "Theoretical Bound vs. Actual Iterations")
SEPARATIONS = (1.5, 2.0, 2.5, 3.0, 3.5, 4.0, 5.0, 6.0)


def study_seed(separation: float, trial: int, seed: int = 0) -> int:
    """The data seed of one dataset: the notebook's ``trial * 137 + int(sep * 100)`` (``seed`` = 0)."""
    return (seed * 1_000_003 + trial * 137 + int(separation * 100)) % 2**32


def mean_difference_margin(X: np.ndarray, y_signs: np.ndarray) -> float:
    """The notebook's approximation: the margin of the mean-difference direction (may be ≤ 0).

    Kept only for comparison with the exact ρ*: min_i yᵢ⟨u, xᵢ⟩ with u ∝ mean(x | +1) − mean(x | −1).
    """
    direction = X[y_signs > 0].mean(axis=0) - X[y_signs < 0].mean(axis=0)
    direction = direction / np.linalg.norm(direction)
    return float(np.min(y_signs * (X @ direction)))


def bound_vs_actual(out_dir: Path | str | None = None, *, seed: int | None = None, trials: int | None = None,
                    progress: Progress | None = None, n_per_class: int = 25,
                    separations: tuple[float, ...] = SEPARATIONS, max_sweeps: int = 500) -> ExperimentResult:
    """Seed 003's study: actual perceptron mistakes against R²/ρ*² on random Gaussian pairs.

    For every separation and trial: :func:`perceptronlab.datasets.gaussian_pair` (bias column
    first, seed ``trial * 137 + int(separation * 100)`` as in the notebook; ``seed`` shifts it),
    R = ``perceptronlab.radius``, ρ* = ``perceptronlab.max_margin(...).rho`` (exact, instead of the
    notebook's mean-difference approximation), the cyclic perceptron from w = 0, and Novikoff's
    bound. Datasets that are not separable are counted and left out of the bound check.

    ``trials``: datasets per separation (default 15, the notebook's).
    """
    from perceptronlab.core.batch import perceptron_batch
    from perceptronlab.core.perceptron import perceptron
    from perceptronlab.datasets import gaussian_pair
    from perceptronlab.exceptions import NotSeparableError
    from perceptronlab.theory.geometry import max_margin, radius

    seed = check_seed(seed) or 0
    trials = _trials(trials, 15)
    progress = progress or _quiet
    total = len(separations) * trials
    datasets = [(separation, trial, study_seed(separation, trial, seed))
                for separation in separations for trial in range(trials)]
    pairs = [gaussian_pair(n_per_class, separation, seed=data_seed) for separation, _, data_seed in datasets]
    # every dataset has the same shape: one compiled call runs them all (exactly perceptron(X, y) each)
    batch = perceptron_batch(np.stack([X for X, _ in pairs]), np.stack([y for _, y in pairs]),
                             max_sweeps=max_sweeps)
    rows: list[dict[str, Any]] = []
    progress("datasets", 0, total)
    for done, ((separation, trial, data_seed), (X, y)) in enumerate(zip(datasets, pairs, strict=True), start=1):
        R = float(radius(X))
        try:
            rho = _value(max_margin(X, y).rho)
        except NotSeparableError:
            rho = None
        mistakes = int(batch.mistakes[done - 1])
        bound = _novikoff(R, rho) if rho else None
        rows.append(dict(separation=separation, trial=trial, seed=data_seed, n=int(X.shape[0]),
                         separable=rho is not None, R=R, rho=rho, bound=bound, mistakes=mistakes,
                         sweeps=int(batch.sweeps[done - 1]), converged=bool(batch.converged[done - 1]),
                         ratio=bound / max(mistakes, 1) if bound else None,
                         within_bound=mistakes <= bound * (1 + 1e-9) if bound else None,
                         rho_mean_diff=mean_difference_margin(X, np.where(y > 0, 1.0, -1.0))))
        progress("datasets", done, total)

    separable = [r for r in rows if r["separable"]]
    within = all(r["within_bound"] for r in separable)
    ratios = np.array([r["ratio"] for r in separable])
    failed_approx = sum(1 for r in separable if r["rho_mean_diff"] <= 0)
    looser = [(r["rho"] / r["rho_mean_diff"]) ** 2 for r in separable if r["rho_mean_diff"] > 0]
    per_separation: dict[str, dict[str, Any]] = {}
    for separation in separations:
        group = [r for r in separable if r["separation"] == separation]
        if group:
            per_separation[f"{separation:g}"] = dict(
                datasets=len(group), mean_mistakes=float(np.mean([r["mistakes"] for r in group])),
                mean_bound=float(np.mean([r["bound"] for r in group])),
                median_ratio=float(np.median([r["ratio"] for r in group])))
    stats: dict[str, Any] = dict(datasets=len(rows), separable=len(separable), not_separable=len(rows) - len(separable),
                 all_within_bound=within, max_fraction_of_bound=max(
                     (r["mistakes"] / r["bound"] for r in separable), default=None),
                 mean_ratio=float(ratios.mean()) if len(ratios) else None,
                 median_ratio=float(np.median(ratios)) if len(ratios) else None,
                 mean_difference_failed=failed_approx,
                 mean_difference_bound_factor=float(np.median(looser)) if looser else None,
                 per_separation=per_separation)
    lines = [f"bound-vs-actual: {len(rows)} Gaussian pairs ({trials} per separation, {n_per_class} points per "
             f"class, bias column), exact max margin ρ*.",
             f"  separable: {len(separable)}; not separable (left out): {len(rows) - len(separable)}",
             f"  every run respected Novikoff's bound R²/ρ*²: {'yes' if within else 'NO'}"]
    if len(ratios):
        lines.append(f"  bound / actual: mean {ratios.mean():.1f}x, median {np.median(ratios):.1f}x; the largest "
                     f"share of its bound any run used: {stats['max_fraction_of_bound']:.1%}")
    lines.append(f"  the notebook's mean-difference margin: fails (<= 0) on {failed_approx} separable datasets"
                 + (f"; elsewhere its bound is a median {np.median(looser):.2f}x the exact one" if looser else ""))
    lines.append("  separation  datasets  mean mistakes  mean bound  median bound/actual")
    for key, cells in per_separation.items():
        lines.append(f"  {key:>10}  {cells['datasets']:>8}  {cells['mean_mistakes']:>13.1f}  "
                     f"{cells['mean_bound']:>10.1f}  {cells['median_ratio']:>19.1f}")
    figures: dict[str, Any] = {}
    if separable:
        from perceptronlab import plots

        figures["bound-vs-actual"] = plots.bound_vs_actual(separable)
        busiest = max(separable, key=lambda r: r["mistakes"])
        X, y = gaussian_pair(n_per_class, busiest["separation"], seed=busiest["seed"])
        run = perceptron(X, y, max_sweeps=max_sweeps, warn=False)
        figures["squeeze"] = plots.squeeze(run, busiest["rho"], busiest["R"])
        figures["bound-surface"] = plots.bound_surface()
    result = ExperimentResult("bound-vs-actual", rows, "\n".join(lines), stats, figures,
                              dict(seed=seed, trials=trials, n_per_class=n_per_class,
                                   separations=list(separations), max_sweeps=max_sweeps))
    return _finish(result, out_dir, progress)


# ---------------------------------------------------------------- Learning From Data


def lfd(out_dir: Path | str | None = None, *, seed: int | None = None, trials: int | None = None,
        progress: Progress | None = None, sizes: tuple[int, ...] = (10, 100), test_points: int = 10_000,
        max_sweeps: int = 100_000) -> ExperimentResult:
    """The Learning From Data PLA experiment (Abu-Mostafa et al. 2012, homework 1, Problems 7-10).

    For each N in ``sizes`` and each trial: :func:`perceptronlab.datasets.lfd` (N points uniform
    in [−1, 1]², a target line through two random points), random-mistake PLA with intercept from
    w = 0 until no point is misclassified; the iterations (= updates) and P[f ≠ g] estimated on
    ``test_points`` fresh uniform points. The course's answers: about 10 iterations and
    P ≈ 0.1 for N = 10, about 100 iterations and P ≈ 0.01 for N = 100.

    ``trials``: runs per N (default 1000).
    """
    from perceptronlab.core.perceptron import perceptron
    from perceptronlab.datasets import label_by
    from perceptronlab.datasets import lfd as make

    seed = check_seed(seed) or 0
    trials = _trials(trials, 1000)
    progress = progress or _quiet
    sizes = tuple(check_positive_int("sizes", N, "Pass e.g. sizes=(10, 100).") for N in sizes)
    rows: list[dict[str, Any]] = []
    total = trials * len(sizes)
    progress("runs", 0, total)
    for s_index, N in enumerate(sizes):
        for trial in range(trials):
            data_seed, run_seed, test_seed = (int(s) for s in np.random.SeedSequence([seed, N, trial])
                                              .generate_state(3))
            data = make(N, seed=data_seed)
            assert data.target is not None  # the Learning From Data setup draws its target line
            run = perceptron(data.X, data.y, fit_intercept=True, order="random-mistake", seed=run_seed,
                             max_sweeps=max_sweeps, warn=False)
            fresh = np.random.default_rng(test_seed).uniform(-1.0, 1.0, size=(test_points, 2))
            disagree = float(np.mean(label_by(data.target, fresh) != label_by(np.r_[run.b, run.w], fresh)))
            rows.append(dict(N=N, trial=trial, seed=data_seed, iterations=run.mistakes,
                             converged=run.converged, disagreement=disagree))
            progress("runs", s_index * trials + trial + 1, total)

    stats, lines = {}, [f"lfd: random-mistake PLA with intercept from w = 0, {trials} runs per N, "
                        f"P[f != g] on {test_points} fresh points per run."]
    lines.append("     N  mean iter  median  q10   q90   q99   max   converged  mean P[f!=g]  median P[f!=g]")
    for N in sizes:
        its = np.array([r["iterations"] for r in rows if r["N"] == N])
        dis = np.array([r["disagreement"] for r in rows if r["N"] == N])
        conv = sum(r["converged"] for r in rows if r["N"] == N)
        q10, q90, q99 = np.quantile(its, [0.1, 0.9, 0.99])
        stats[str(N)] = dict(mean_iterations=float(its.mean()), median_iterations=float(np.median(its)),
                             q10=float(q10), q90=float(q90), q99=float(q99), max_iterations=int(its.max()),
                             converged=int(conv), mean_disagreement=float(dis.mean()),
                             median_disagreement=float(np.median(dis)))
        lines.append(f"  {N:>4}  {its.mean():>9.1f}  {np.median(its):>6.0f}  {q10:>4.0f}  {q90:>4.0f}  "
                     f"{q99:>4.0f}  {its.max():>4d}  {conv:>5}/{len(its):<5}  {dis.mean():>12.4f}  "
                     f"{np.median(dis):>14.4f}")
    figures = {"lfd": _lfd_figure(rows, sizes)}
    example = make(sizes[0], seed=int(np.random.SeedSequence([seed, sizes[0], 0]).generate_state(1)[0]))
    from perceptronlab import plots

    example_run = perceptron(example.X, example.y, fit_intercept=True, order="random-mistake", seed=seed,
                             max_sweeps=max_sweeps, warn=False)
    figures["lfd-example"] = plots.decision_regions(example_run, example.X, example.y,
                                                    title=f"LFD, N = {sizes[0]}: the learned line g")
    result = ExperimentResult("lfd", rows, "\n".join(lines), stats, figures,
                              dict(seed=seed, trials=trials, sizes=list(sizes), test_points=test_points))
    return _finish(result, out_dir, progress)


def _lfd_figure(rows: list[dict[str, Any]], sizes: tuple[int, ...]) -> Figure:
    from perceptronlab.plots import _figure

    fig = _figure(12, 4.8)
    left, right = fig.subplots(1, 2)
    for N in sizes:
        its = np.array([r["iterations"] for r in rows if r["N"] == N])
        dis = np.array([r["disagreement"] for r in rows if r["N"] == N])
        bins = np.logspace(0, np.log10(max(its.max(), 2)) + 0.05, 40)
        left.hist(np.maximum(its, 1), bins=bins, alpha=0.6, label=f"N = {N} (mean {its.mean():.1f})")
        right.hist(dis, bins=40, alpha=0.6, label=f"N = {N} (mean {dis.mean():.4f})")
    left.set_xscale("log")
    left.set_xlabel("PLA iterations to converge")
    left.set_ylabel("runs")
    left.set_title("Iterations (random-mistake PLA from w = 0)")
    left.legend()
    right.set_xlabel("P[f ≠ g] on fresh points")
    right.set_ylabel("runs")
    right.set_title("Out-of-sample disagreement")
    right.legend()
    return fig


# ---------------------------------------------------------------- worst case


def worst_case(out_dir: Path | str | None = None, *, seed: int | None = None, trials: int | None = None,
               progress: Progress | None = None, dimensions: tuple[int, ...] = (2, 3, 5, 10, 20, 50)
               ) -> ExperimentResult:
    """Seed 003, §6.7: the basis vectors e₁ … e_n, all +1, attain Novikoff's bound: mistakes = n.

    R = 1 and ρ* = 1/√n (computed by ``perceptronlab.radius`` and ``perceptronlab.max_margin``), so
    R²/ρ*² = n; the cyclic perceptron (exact arithmetic) makes exactly n mistakes, and so does a
    shuffled order (seeded by ``seed``): each e_i is a tie until it is added once.

    ``trials``: the number of shuffled orders per n (default 5).
    """
    from perceptronlab.core.perceptron import perceptron
    from perceptronlab.datasets import basis
    from perceptronlab.theory.geometry import max_margin, radius

    seed = check_seed(seed) or 0
    trials = _trials(trials, 5)
    progress = progress or _quiet
    rows, runs = [], {}
    progress("dimensions", 0, len(dimensions))
    for done, n in enumerate(dimensions, start=1):
        X, y = basis(n)
        R = float(radius(X))
        rho = _value(max_margin(X, y).rho)
        bound = _novikoff(R, rho)
        run = perceptron(X, y, exact=True)
        shuffled = [perceptron(X, y, order="shuffle", seed=seed + t).mistakes for t in range(trials)]
        rows.append(dict(n=n, R=R, rho=rho, bound=round(bound, 9), mistakes=run.mistakes, sweeps=run.sweeps,
                         shuffled_mistakes_min=min(shuffled), shuffled_mistakes_max=max(shuffled),
                         attains_bound=run.mistakes == n and math.isclose(bound, n, rel_tol=1e-6)))
        runs[n] = (run, rho, R)
        progress("dimensions", done, len(dimensions))
    tight = all(r["attains_bound"] and r["shuffled_mistakes_min"] == r["shuffled_mistakes_max"] == r["n"]
                for r in rows)
    lines = ["worst-case: the basis vectors e₁…eₙ, all labelled +1 (the notebook “The Perceptron Convergence Theorem”, section 6.7).",
             f"  mistakes = n = R²/ρ*² for every n, in cyclic and {trials} shuffled orders: "
             f"{'yes' if tight else 'NO'}",
             "     n    R      ρ*     bound  mistakes  shuffled"]
    lines += [f"  {r['n']:>4}  {r['R']:.3f}  {r['rho']:.4f}  {r['bound']:>5g}  {r['mistakes']:>8}  "
              f"{r['shuffled_mistakes_min']}..{r['shuffled_mistakes_max']}" for r in rows]
    from perceptronlab import plots

    figures = {"worst-case": _worst_case_figure(rows)}
    middle = dimensions[len(dimensions) // 2]
    figures["worst-case-squeeze"] = plots.squeeze(*runs[middle])
    stats = dict(attains_bound=tight, dimensions=list(dimensions))
    result = ExperimentResult("worst-case", rows, "\n".join(lines), stats, figures,
                              dict(seed=seed, trials=trials, dimensions=list(dimensions)))
    return _finish(result, out_dir, progress)


def _worst_case_figure(rows: list[dict[str, Any]]) -> Figure:
    from perceptronlab.plots import BOUND_COLOR, POSITIVE_COLOR, _figure

    fig = _figure(7, 5)
    ax = fig.subplots()
    n = np.array([r["n"] for r in rows], dtype=np.float64)
    ax.plot(n, [r["bound"] for r in rows], "-", color=BOUND_COLOR, lw=2, label=r"bound $R^2/\rho^{*2} = n$")
    ax.plot(n, [r["mistakes"] for r in rows], "o", color=POSITIVE_COLOR, ms=8, label="perceptron mistakes")
    ax.set_xlabel("dimension n")
    ax.set_ylabel("mistakes")
    ax.set_title("The basis vectors attain Novikoff's bound")
    ax.legend()
    ax.grid(True, alpha=0.3)
    return fig


# ---------------------------------------------------------------- non-separable


def non_separable(out_dir: Path | str | None = None, *, seed: int | None = None, trials: int | None = None,
                  progress: Progress | None = None, sweeps: int = 200) -> ExperimentResult:
    """Seed 003, §6.9: on overlapping clouds the perceptron never settles; Pocket keeps the best.

    The data is :func:`perceptronlab.datasets.nonseparable` (the notebook's 80 points, seed 42 by
    default), labels 0/1, trained with an intercept. ``perceptronlab.separable`` confirms no line
    separates it. Then the cyclic perceptron for ``sweeps`` sweeps (errors per sweep oscillate),
    Pocket checked after every sweep (the notebook “The Perceptron Convergence Theorem”) and Pocket checked after every update in
    random-mistake order (Lin's lecture 2, Gallant 1990).

    ``trials``: not used (one dataset; pass ``seed`` for another).
    """
    from perceptronlab.core.perceptron import perceptron, pocket
    from perceptronlab.datasets import nonseparable
    from perceptronlab.theory.separability import separable

    checked = check_seed(seed)
    data_seed = 42 if checked is None else checked
    progress = progress or _quiet
    progress("runs", 0, 4)
    X, y = nonseparable(seed=data_seed)
    verdict = separable(X, y, fit_intercept=True)
    progress("runs", 1, 4)
    run = perceptron(X, y, fit_intercept=True, max_sweeps=sweeps, warn=False)
    progress("runs", 2, 4)
    by_sweep = pocket(X, y, fit_intercept=True, order="cyclic", check="sweep", max_sweeps=sweeps)
    progress("runs", 3, 4)
    by_update = pocket(X, y, fit_intercept=True, check="update", max_sweeps=sweeps, seed=data_seed)
    progress("runs", 4, 4)
    errors = run.errors_after_sweep
    sweep_history, update_history = by_sweep.pocket_history, by_update.pocket_history
    assert sweep_history is not None and update_history is not None  # pocket runs keep their history
    assert by_sweep.pocket_errors is not None and by_update.pocket_errors is not None
    rows: list[dict[str, Any]] = []
    for i in range(run.sweeps):
        rows.append(dict(sweep=i + 1, updates=int(run.updates_per_sweep[i]), errors_after=int(errors[i]),
                         pocket_sweep_check=int(sweep_history[i]) if i < len(sweep_history) else None,
                         pocket_update_check=int(update_history[i]) if i < len(update_history) else None))
    tail = errors[-20:]
    stats = dict(separable=bool(verdict.separable), n=int(X.shape[0]), sweeps=run.sweeps,
                 converged=run.converged, cycled=run.cycled, errors_min=int(errors.min()),
                 errors_max=int(errors.max()), errors_last_20_min=int(tail.min()), errors_last_20_max=int(tail.max()),
                 pocket_sweep_check_errors=int(by_sweep.pocket_errors),
                 pocket_update_check_errors=int(by_update.pocket_errors))
    state = "cycled (a start-of-sweep w repeated)" if run.cycled else (
        "converged" if run.converged else "never converged")
    lines = [f"non-separable: {X.shape[0]} points in two overlapping clouds (seed {data_seed}), labels 0/1, "
             "with intercept.",
             f"  separable (LP): {'yes' if verdict.separable else 'no'}",
             f"  cyclic perceptron, {run.sweeps} sweeps: {state}; errors after a sweep range over "
             f"{errors.min()}..{errors.max()} (last 20 sweeps: {tail.min()}..{tail.max()}), "
             f"{run.mistakes} updates in all",
             f"  the perceptron's final w misclassifies {int(errors[-1])} of {X.shape[0]}",
             f"  pocket, checked after each sweep (the notebook “The Perceptron Convergence Theorem”): keeps w with {by_sweep.pocket_errors} errors",
             f"  pocket, checked after each update, random-mistake order (Lin's lecture 2): keeps w with "
             f"{by_update.pocket_errors} errors"]
    from perceptronlab import plots

    figures = {"non-separable-sweeps": plots.sweeps(run),
               "non-separable-pocket": plots.sweeps(by_update),
               "non-separable-regions": plots.decision_regions(
                   by_update, X, y, title=f"Pocket's line: {by_update.pocket_errors} of {X.shape[0]} misclassified")}
    result = ExperimentResult("non-separable", rows, "\n".join(lines), stats, figures,
                              dict(seed=data_seed, sweeps=sweeps))
    return _finish(result, out_dir, progress)


def learners_experiment(out_dir: Path | str | None = None, *, seed: int | None = None, trials: int | None = None,
                        progress: Progress | None = None) -> ExperimentResult:
    """The family against scikit-learn's linear learners on digits and breast cancer (clean and
    with noisy labels), after Freund & Schapire (1999, §6); see
    :func:`perceptronlab.studies.learners.run_learners_experiment`.

    Returns the table, a summary with the findings, the stats and the figure (test error and
    training time of every learner on every dataset); with ``out_dir`` it writes ``learners.csv``,
    ``learners.json``, ``learners.md`` and the figure ``learners.png`` (or ``.svg``).
    """
    seed = 0 if seed is None else seed
    rows = learners.run_learners_experiment(seed=seed, trials=trials, progress=progress)
    lines, stats = learners.findings(rows)
    n_trials = learners.DEFAULT_TRIALS if trials is None else trials
    head = (f"learners: test error on digits, breast cancer and their noisy variants "
            f"({int(100 * learners.NOISE_RATE)} % of training labels flipped), mean of {n_trials} "
            f"split(s), {learners.SWEEPS} sweeps each (Freund & Schapire 1999, §6).")
    table = learners.markdown_table(rows)
    summary = "\n".join([head, *("  " + line for line in lines), "", table])
    result = ExperimentResult("learners", rows, summary, stats, {"learners": _learners_figure(rows, n_trials)},
                              dict(seed=seed, trials=n_trials, sweeps=learners.SWEEPS,
                                   noise_rate=learners.NOISE_RATE), texts={"learners.md": table})
    return _finish(result, out_dir, progress)


def _learners_figure(rows: list[dict[str, Any]], trials: int) -> Figure:
    """Test error (left) and training time (right, log scale) of every learner, one bar per dataset."""
    from perceptronlab.plots import _figure

    datasets = list(dict.fromkeys(r["dataset"] for r in rows))
    names = list(dict.fromkeys(r["learner"] for r in rows))
    cell = {(r["dataset"], r["learner"]): r for r in rows}
    fig = _figure(13, 0.32 * len(names) * max(1, len(datasets) / 2) + 2.0)
    left, right = fig.subplots(1, 2, sharey=True)
    height = 0.8 / max(1, len(datasets))
    positions = np.arange(len(names), dtype=float)
    colors = ("#1b6ac9", "#9ecae1", "#d95f02", "#fdae6b", "#7b3294", "#c2a5cf")
    for k, dataset in enumerate(datasets):
        where = positions - 0.4 + height * (k + 0.5)
        errors = [100 * cell[dataset, n]["test_error"] if (dataset, n) in cell else np.nan for n in names]
        times = [cell[dataset, n]["train_time"] if (dataset, n) in cell else np.nan for n in names]
        color = colors[k % len(colors)]
        left.barh(where, errors, height=height, color=color, label=dataset)
        right.barh(where, np.maximum(times, 1e-5), height=height, color=color, label=dataset)
    left.set_yticks(positions, names)
    left.invert_yaxis()
    left.set_xlabel("test error (%)")
    left.set_title(f"Test error, mean of {trials} split(s)")
    left.grid(True, axis="x", alpha=0.3)
    left.legend(loc="lower right", fontsize="small")
    right.set_xscale("log")
    right.set_xlabel("training time (s, log scale)")
    right.set_title("Time to fit")
    right.grid(True, axis="x", alpha=0.3)
    fig.suptitle("The perceptron family and scikit-learn's linear learners (Freund & Schapire 1999, §6)")
    return fig


#: name -> experiment function ``(out_dir=None, *, seed=None, trials=None, progress=None)``
EXPERIMENTS: dict[str, Callable[..., ExperimentResult]] = {
    "bound-vs-actual": bound_vs_actual,
    "lfd": lfd,
    "worst-case": worst_case,
    "non-separable": non_separable,
    "learners": learners_experiment,
}


def run_experiment(name: str, out_dir: Path | str | None = None, *, seed: int | None = None,
                   trials: int | None = None, progress: Progress | None = None,
                   image_format: str = "png") -> ExperimentResult:
    """Run the experiment ``name`` of :data:`EXPERIMENTS` (and write its files into ``out_dir``).

    ``image_format`` is "png" (default) or "svg" for the figures written into ``out_dir``.

    Examples
    --------
    >>> import tempfile
    >>> from perceptronlab.studies.experiments import run_experiment
    >>> result = run_experiment("non-separable", tempfile.mkdtemp())
    >>> result.stats["separable"], result.stats["pocket_update_check_errors"]
    (False, 20)
    >>> sorted(path.name for path in result.files)[:2]
    ['non-separable-pocket.png', 'non-separable-regions.png']
    """
    from perceptronlab._ground.validation import check_choice

    if name not in EXPERIMENTS:
        raise fail("experiment", "one of " + ", ".join(sorted(EXPERIMENTS)), repr(name),
                   "Run `perceptronlab experiment --help` for the list.")
    check_choice("image_format", image_format, IMAGE_FORMATS)
    if out_dir is None or image_format == "png":
        return EXPERIMENTS[name](out_dir, seed=seed, trials=trials, progress=progress)
    # run without writing, then write in the asked format (entries only know the registry's signature)
    result = EXPERIMENTS[name](None, seed=seed, trials=trials, progress=progress)
    result.write(out_dir, progress, image_format)
    return result
