"""The result of a perceptron run: weights, counts, per-sweep records and the worksheet trace."""

from __future__ import annotations

import csv
import io
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal, get_args

import numpy as np

from perceptronlab._ground.numbers import (
    format_count,
    format_display,
    format_display_vector,
    format_number,
    format_vector,
)
from perceptronlab._ground.validation import check_choice, fail
from perceptronlab.core.scores import count_errors_each

if TYPE_CHECKING:
    from numpy.typing import NDArray

    from perceptronlab._ground.types import Float64Array, Int64Array, WeightArray

#: the formats of :meth:`Run.table`
TableFormat = Literal["md", "csv", "latex", "html"]
TABLE_FORMATS: tuple[TableFormat, ...] = get_args(TableFormat)


@dataclass(frozen=True)
class Step:
    """One step of a traced run: example ``index`` checked in ``sweep`` (both as in the worksheet).

    ``score`` is y⟨w,x⟩ (+ y·b) *before* the update, ``w``/``b`` are the weights *after* it.
    """

    sweep: int
    index: int
    x: tuple[Any, ...]
    y: int
    score: Any
    mistake: bool
    w: tuple[Any, ...]
    b: Any


@dataclass(eq=False)
class Run:
    """What a perceptron (or pocket) run did.

    Attributes
    ----------
    w, b : the final weights and intercept (``b`` is 0 without ``fit_intercept``). For pocket,
        the pocket weights (fewest training errors seen).
    mistakes : number of updates.
    sweeps : number of sweeps started (the last clean sweep included).
    converged : the last sweep made no update (pocket: the pocket weights have zero errors).
    cycled : a start-of-sweep weight vector repeated in cyclic order: it never converges.
    stopped : the per-sweep hook (``on_sweep``) stopped the run early.
    mistake_indices : the example index of every update, in order.
    updates_per_sweep : updates made during each sweep.
    errors_after_sweep : training errors (y⟨w,x⟩ ≤ 0) of the weights at the end of each sweep.
    norms : ‖w_k‖ after every update (with the intercept as a coordinate), for the squeeze plot.
    log_complete : whether ``mistake_indices`` and ``norms`` hold every update. The log keeps
        ``perceptronlab.core.driver.LOG_BUDGET_BYTES`` (256 MiB, 16 bytes an update); past it they
        hold the first updates only (False), while ``mistakes``, ``updates_per_sweep`` and
        ``mistake_set`` count every update.
    mistake_set : a boolean per example: updated on at least once (the mistake set J of the lecture notes).
    steps : the step trace (``trace=True``), else ``None``.
    """

    w: WeightArray
    b: Any
    mistakes: int
    sweeps: int
    converged: bool
    cycled: bool
    mistake_indices: Int64Array
    updates_per_sweep: Int64Array
    norms: Float64Array
    errors_after_sweep_known: dict[int, int] = field(repr=False, default_factory=dict)
    checkpoints: dict[int, tuple[Any, Any]] = field(repr=False, default_factory=dict)
    steps: list[Step] | None = field(repr=False, default=None)
    algorithm: str = "perceptron"
    params: dict[str, Any] = field(default_factory=dict)
    exact: bool = False
    pocket_errors: int | None = None
    pocket_history: Int64Array | None = field(repr=False, default=None)
    data: Any = field(repr=False, default=None)
    stopped: bool = field(repr=False, default=False)
    log_complete: bool = field(repr=False, default=True)
    mistake_set: NDArray[Any] | None = field(repr=False, default=None)

    def check_log_complete(self, who: str) -> None:
        """Raise :class:`~perceptronlab.exceptions.InputError` when ``who`` needs every update's log
        (``mistake_indices``, ``norms``) and this run kept only the first updates'."""
        if not self.log_complete:
            raise fail(
                f"{who}: run",
                "a run whose log holds every update (mistake_indices, norms)",
                f"a run that logged the first {self.mistake_indices.shape[0]:,} of its {self.mistakes:,} "
                "updates (the log's memory budget, perceptronlab.core.driver.LOG_BUDGET_BYTES)",
                "Train on fewer examples or sweeps, or raise LOG_BUDGET_BYTES before training "
                "(16 bytes an update).",
            )

    if TYPE_CHECKING:  # set by the driver's finish, not a field: the labels, classes[1] is +1
        classes: NDArray[Any] = field(init=False, repr=False)

    @property
    def fit_intercept(self) -> bool:
        return bool(self.params.get("fit_intercept", False))

    @property
    def coef(self) -> WeightArray:
        """The augmented weight vector (b, w₁, …, w_d) with the intercept first, as in Lin's w₀."""
        head = (
            np.array([self.b], dtype=self.w.dtype)
            if self.fit_intercept
            else np.array([], dtype=self.w.dtype)
        )
        return np.concatenate([head, self.w])

    @property
    def errors_after_sweep(self) -> Int64Array:
        """Training errors of the end-of-sweep weights, computed on first access from checkpoints."""
        if len(self.errors_after_sweep_known) < self.sweeps and self.data is not None:
            X, y = self.data
            todo = [s for s in self.checkpoints if s not in self.errors_after_sweep_known]
            counts = count_errors_each(X, y, [self.checkpoints[s] for s in todo])
            self.errors_after_sweep_known.update(zip(todo, counts, strict=True))
            self.checkpoints.clear()
        return np.array(
            [self.errors_after_sweep_known[s] for s in sorted(self.errors_after_sweep_known)],
            dtype=np.int64,
        )

    def ending(self) -> str:
        """How the run ended, in words: converged, cycled, stopped early or at the sweep limit."""
        return (
            "converged"
            if self.converged
            else "cycled (never converges)"
            if self.cycled
            else "stopped early (on_sweep)"
            if self.stopped
            else "stopped at the sweep limit"
        )

    def summary(self, *, state: str | None = None, short: bool = False) -> str:
        """One line: the algorithm, its mistakes and sweeps, how it ended (or ``state``), w and b.

        ``short`` writes the numbers for people (six significant digits, at most eight entries of w,
        as on the report) instead of exactly (every entry, floats in round-trip form).
        """
        if state is None:
            state = self.ending()
        number, vector = (
            (format_display, format_display_vector) if short else (format_number, format_vector)
        )
        head = (
            f"{self.algorithm}: {format_count(self.mistakes, 'mistake')} in {format_count(self.sweeps, 'sweep')}, "
            f"{state}; w = {vector(self.w)}"
        )
        if self.fit_intercept:
            head += f", b = {number(self.b)}"
        if self.pocket_errors is not None:
            head += f"; training errors of the pocket's w: {self.pocket_errors}"
        return head

    # ------------------------------------------------------------ the worksheet
    def worksheet_rows(self) -> list[tuple[str, str, str, str, str]]:
        """Rows (sweep, point, y⟨w,x⟩, mistake?, w after) in the layout of the lecture notes' exam worksheet.

        A final clean sweep is one row ``(sweep, all, scores, no, stop)``.
        """
        if self.steps is None:
            raise ValueError(
                "This run has no trace: run it with trace=True (exact=True for hand-checkable numbers)."
            )
        last_clean = self.sweeps if self.converged and self.algorithm == "perceptron" else None
        rows = []
        for step in self.steps:
            if step.sweep == last_clean:
                continue
            w_after = format_vector(step.w)
            if self.fit_intercept:
                w_after += f", b = {format_number(step.b)}"
            rows.append(
                (
                    str(step.sweep),
                    f"x{step.index + 1}",
                    format_number(step.score),
                    "yes" if step.mistake else "no",
                    w_after,
                )
            )
        if last_clean is not None:
            scores = [format_number(s.score) for s in self.steps if s.sweep == last_clean]
            rows.append((str(last_clean), "all", ", ".join(scores), "no", "stop"))
        elif self.cycled:
            rows.append((str(self.sweeps + 1), "all", "", "", "cycle: w repeats, never converges"))
        elif not self.converged:
            rows.append((str(self.sweeps), "", "", "", "sweep limit reached"))
        return rows

    def table(self, fmt: TableFormat = "md") -> str:
        """Render the trace as the worksheet: ``fmt`` is one of md, csv, latex, html."""
        check_choice("fmt", fmt, TABLE_FORMATS)
        rows = self.worksheet_rows()
        header = ("sweep", "point", "y⟨w,x⟩", "mistake?", "w after")
        if fmt == "md":
            lines = [
                "| " + " | ".join(header) + " |",
                "| " + " | ".join("---" for _ in header) + " |",
            ]
            lines += ["| " + " | ".join(r) + " |" for r in rows]
            return "\n".join(lines) + "\n"
        if fmt == "csv":
            buf = io.StringIO()
            writer = csv.writer(buf, lineterminator="\n")
            writer.writerow(["sweep", "point", "score", "mistake", "w_after"])
            writer.writerows(rows)
            return buf.getvalue()
        if fmt == "latex":

            def tex(row: Sequence[str]) -> str:
                point = row[1] if not row[1].startswith("x") else f"$x_{{{row[1][1:]}}}$"
                return (
                    " & ".join(
                        [
                            row[0],
                            point,
                            f"${row[2]}$" if row[2] else "",
                            row[3],
                            f"${row[4]}$" if row[4].startswith("(") else row[4],
                        ]
                    )
                    + r" \\"
                )

            body = "\n".join(tex(r) for r in rows)
            return (
                "\\begin{tabular}{llrll}\n\\hline\n"
                "sweep & point & $y_i\\langle w,x_i\\rangle$ & mistake? & $w$ after \\\\\n"
                f"\\hline\n{body}\n\\hline\n\\end{{tabular}}\n"
            )
        from perceptronlab._ground.markup import html_text

        def cell(tag: str, text: str) -> str:
            text = html_text(text)
            if text.startswith("x") and text[1:].isdigit():
                text = f"x<sub>{text[1:]}</sub>"
            return f"<{tag}>{text}</{tag}>"

        head = "<tr>" + "".join(cell("th", h) for h in header) + "</tr>"
        body = "\n".join("<tr>" + "".join(cell("td", c) for c in r) + "</tr>" for r in rows)
        return f'<table class="worksheet">\n<thead>{head}</thead>\n<tbody>\n{body}\n</tbody>\n</table>\n'
