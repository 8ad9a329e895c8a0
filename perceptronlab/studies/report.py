"""One self-contained HTML page about a dataset: its theory, a perceptron run, and the plots.

The page has inline CSS and its figures embedded as base64 PNG: it opens offline, from a mail
attachment or a USB stick, with nothing to load. It holds:

- the analysis cards of :func:`perceptronlab.analyze` (radius, separability, the best margin ρ*,
  Novikoff's bound, …), a bound that says nothing marked vacuous,
- why, and what to do, when the bound is huge or the run could not finish (the analysis' advice),
- the analysis' one run (and the pocket's when the data is not separable), told as it ended, and
  how it compares with its bound,
- the plots of :mod:`perceptronlab.plots` that apply (decision regions for 2-D data, the
  squeeze, errors per sweep, the bound surface with the data marked),
- the worksheet trace in exact arithmetic when the data is small (≤ 20 points by default).

Faces hold no logic: every number on the page comes from the engine and the theory toolkit.
"""

from __future__ import annotations

import base64
import datetime as _dt
import functools
import io
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeAlias, TypedDict

import numpy as np

from perceptronlab._ground.files import atomic_write
from perceptronlab._ground.markup import html_text
from perceptronlab._ground.validation import check_labels, check_option_names, fail
from perceptronlab._version import __version__
from perceptronlab.studies._result import make_out_dir

if TYPE_CHECKING:
    from matplotlib.figure import Figure
    from numpy.typing import ArrayLike
    from typing_extensions import Unpack

    from perceptronlab._ground.types import Float64Array, MatrixLike
    from perceptronlab.core.driver import OnStage
    from perceptronlab.core.run import Run
    from perceptronlab.preprocessing import Scale
    from perceptronlab.theory.analysis import Analysis
    from perceptronlab.theory.geometry import MaxMarginResult

__all__ = ["build_report", "write_report"]

#: a dataset with at most this many points gets the exact worksheet trace
TRACE_POINTS = 20
#: a dataset with at most this many points gets the exact leave-one-out error card
LOO_POINTS = 2000
#: a card value of words longer than this is set as a wide card in body type (no word cut mid-word)
TEXT_CARD_CHARS = 20

_CSS = """
:root { --ink: #1d2330; --muted: #5b6475; --line: #d9dee8; --card: #f6f8fb; --good: #1a7f37;
        --bad: #b42318; --accent: #1b6ac9; }
* { box-sizing: border-box; }
body { font: 15px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: var(--ink);
       margin: 0; background: #fff; }
main { max-width: 1100px; margin: 0 auto; padding: 24px 28px 60px; }
h1 { font-size: 1.7em; margin: 0.2em 0; }
h2 { font-size: 1.25em; margin: 1.8em 0 0.6em; padding-bottom: 4px; border-bottom: 2px solid var(--line); }
.meta { color: var(--muted); }
.cards { display: grid; grid-template-columns: repeat(auto-fill, minmax(190px, 1fr)); gap: 12px; }
.cards + .cards, .cards + pre, pre + .cards { margin-top: 12px; }
.card { background: var(--card); border: 1px solid var(--line); border-radius: 10px; padding: 10px 14px; }
.card .label { color: var(--muted); font-size: 0.85em; }
.card .value { font-size: 1.25em; font-weight: 600; overflow-wrap: break-word; word-break: normal;
               hyphens: manual; font-variant-numeric: tabular-nums; }
.card.text { grid-column: span 2; }
.card.text .value { font-size: 1em; font-weight: 500; }
.verdict { border-radius: 10px; padding: 12px 16px; margin: 10px 0; font-weight: 600; }
.verdict.good { background: #e8f5ec; border: 1px solid #a6d8b5; color: var(--good); }
.verdict.bad { background: #fdecea; border: 1px solid #f3b4ae; color: var(--bad); }
.verdict.note { background: #eef4fc; border: 1px solid #b8cff0; color: var(--accent); }
.advice { border-radius: 10px; padding: 12px 16px; margin: 10px 0; background: #fff8e6;
          border: 1px solid #f0d48a; }
.advice h3 { margin: 0 0 6px; font-size: 1em; }
.advice p { margin: 4px 0; }
.card.vacuous .value { color: var(--muted); }
.card .note { color: var(--muted); font-size: 0.8em; }
pre { background: var(--card); border: 1px solid var(--line); border-radius: 8px; padding: 12px;
      overflow-x: auto; font-size: 0.9em; white-space: pre-wrap; }
figure { margin: 14px 0 22px; }
figure img { max-width: 100%; height: auto; border: 1px solid var(--line); border-radius: 8px; }
figcaption { color: var(--muted); font-size: 0.9em; margin-top: 4px; }
table { border-collapse: collapse; font-variant-numeric: tabular-nums; }
th, td { border: 1px solid var(--line); padding: 4px 10px; text-align: left; }
th { background: var(--card); }
table.worksheet td:nth-child(3) { text-align: right; }
footer { color: var(--muted); font-size: 0.85em; margin-top: 40px; }
"""


def _number(value: Any) -> str:
    """A number for a card, to sensible precision (:func:`perceptronlab._ground.numbers.format_display`):
    exact values exactly when short, floats to 6 significant digits, yes/no for booleans."""
    from perceptronlab._ground.numbers import format_display

    if isinstance(value, str):
        return value
    if isinstance(value, list | tuple | np.ndarray):
        from perceptronlab._ground.numbers import format_display_vector

        return format_display_vector(value)
    return format_display(value)


def _png(figure: Figure) -> str:
    buffer = io.BytesIO()
    figure.savefig(buffer, format="png", dpi=100)
    return base64.b64encode(buffer.getvalue()).decode("ascii")


def _figure_html(figure: Figure, caption: str) -> str:
    return (
        f'<figure><img alt="{html_text(caption)}" src="data:image/png;base64,{_png(figure)}">'
        f"<figcaption>{html_text(caption)}</figcaption></figure>"
    )


#: a card: (label, value) or (label, value, note); the note says what the value does not
Card: TypeAlias = "tuple[str, Any] | tuple[str, Any, str | None]"


def _cards(items: Sequence[Card]) -> str:
    cells = []
    for item in items:
        label, value, note = item if len(item) == 3 else (*item, None)
        vacuous = note is not None and note.startswith("vacuous")
        text = _number(value)
        # words (a scaler's description): a wide card in body type, so that no word is cut or wrapped mid-word
        kind = " vacuous" if vacuous else ""
        kind += " text" if len(text) > TEXT_CARD_CHARS and " " in text else ""
        cells.append(
            f'<div class="card{kind}"><div class="label">{html_text(label)}</div>'
            f'<div class="value">{html_text(text)}</div>'
            + (f'<div class="note">{html_text(note)}</div>' if note else "")
            + "</div>"
        )
    return '<div class="cards">' + "".join(cells) + "</div>"


def _dense(X: Any) -> tuple[MatrixLike, Float64Array]:
    """(X as given for exact use, X as float64): Fractions and ints stay exact in the first."""
    import scipy.sparse as sp

    if sp.issparse(X):
        if X.shape[0] * X.shape[1] > 5_000_000:
            raise fail(
                "X",
                "data small enough for a one-page report (n * d <= 5,000,000)",
                f"a sparse matrix of shape {X.shape}",
                "Report on a sample of the rows.",
            )
        X = X.toarray()
    try:
        Xf = np.array(X, dtype=np.float64)
    except (TypeError, ValueError) as exc:
        raise fail(
            "X",
            "numeric rows",
            f"cells that are not numbers ({exc})",
            "Read the file with perceptronlab.read_data.",
        ) from None
    if Xf.ndim != 2 or Xf.shape[0] == 0 or Xf.shape[1] == 0:
        raise fail(
            "X",
            "a non-empty 2-D table (rows are examples)",
            f"shape {Xf.shape}",
            "Pass rows of numbers.",
        )
    if not np.isfinite(Xf).all():
        raise fail("X", "finite values", "NaN or inf", "Remove or impute the rows with NaN or inf.")
    return X, Xf


def _analysis_cards(analysis: Analysis) -> list[Card]:
    """The cards of an analysis: the theory's numbers, exact where the analysis is exact."""
    from perceptronlab._ground.numbers import format_percent

    cards: list[Card] = [
        ("radius R", analysis.R),
        ("R²", analysis.R_squared),
        ("separable", analysis.separable),
    ]
    if analysis.separable and analysis.rho is not None:
        cards += [
            ("best margin ρ*", analysis.rho),
            ("ρ*²", analysis.rho_squared),
            ("Novikoff bound R²/ρ*²", analysis.bound, "at most this many mistakes"),
        ]
        if analysis.max_margin is not None:
            cards.append(("support vectors", len(analysis.max_margin.support)))
        if analysis.ratio is not None:
            cards.append(
                (
                    "mistakes / bound",
                    format_percent(analysis.ratio),
                    None if analysis.converged else "so far: the run did not finish",
                )
            )
        if analysis.loo is not None:
            cards.append(("leave-one-out error", format_percent(analysis.loo.error_rate)))
        if analysis.test_error_bound is not None:
            cards.append(
                (
                    "test-error bound R²/ρ*²/(n+1)",
                    analysis.test_error_bound,
                    "vacuous: a bound ≥ 1 on an error probability says nothing"
                    if analysis.test_error_bound_vacuous
                    else "on the expected test error",
                )
            )
    else:
        if analysis.pocket is not None:
            cards.append(("pocket's training errors", analysis.pocket.pocket_errors))
        if analysis.freund_schapire is not None:
            cards.append(
                (
                    "Freund–Schapire bound (R+D)²/ρ²",
                    analysis.freund_schapire,
                    "mistakes of one pass, for the pocket's w",
                )
            )
    return cards


def _advice_html(analysis: Analysis, wording: Callable[[str], str]) -> str:
    parts = []
    for advice in analysis.advice:
        parts.append(
            f'<div class="advice"><h3>Why, and what to do</h3><p>{html_text(wording(advice.why))}</p>'
            f"<p><strong>What to do:</strong> {html_text(wording(advice.fix))}</p></div>"
        )
    return "".join(parts)


def _run_section(analysis: Analysis) -> list[str]:
    """The one run, told as it ended: a success only when it converged within its bound."""
    from perceptronlab._ground.numbers import format_display, format_percent

    run = analysis.run
    section = [
        "<h2>The perceptron run</h2>",
        f"<pre>{html_text(run.summary(state=analysis.run_state(), short=True))}</pre>",
    ]
    space = " (in the augmented space of (1, x))" if analysis.fit_intercept else ""
    if analysis.separable and analysis.rho is not None:
        bound = analysis.bound
        assert bound is not None  # separable, with its margin ρ*: the bound is set
        within = run.mistakes <= float(bound) * (1 + 1e-9)
        section.append(
            _cards(
                [
                    ("mistakes M", run.mistakes),
                    (
                        "sweeps",
                        f"{format_display(run.sweeps)} of at most "
                        f"{format_display(analysis.max_sweeps)}",
                    ),
                    (f"radius R{space}", analysis.R),
                    (f"max margin ρ*{space}", analysis.rho),
                    ("bound R²/ρ*²", bound),
                    ("share of the bound used", format_percent(analysis.ratio)),
                ]
            )
        )
        if run.converged and within:
            verdict, kind = (
                (
                    f"The run converged and respected Novikoff's bound: M = {format_display(run.mistakes)} ≤ "
                    f"R²/ρ*² = {format_display(bound)}"
                ),
                "good",
            )
        elif run.converged:
            verdict, kind = (
                (
                    f"The run broke the bound: M = {format_display(run.mistakes)} > "
                    f"{format_display(bound)}"
                ),
                "bad",
            )
        else:
            verdict, kind = (
                f"The run did NOT converge: it stopped at the limit of "
                f"{format_display(analysis.max_sweeps)} sweeps after M = {format_display(run.mistakes)} "
                f"mistakes. Novikoff's theorem says it would converge within R²/ρ*² = "
                f"{format_display(bound)} mistakes: the run is unfinished, not a success"
                + (" (why, and what to do: above)." if analysis.advice else "."),
                "bad",
            )
        section.append(f'<div class="verdict {kind}">{html_text(verdict)}</div>')
        return section
    kept = analysis.pocket
    cards: list[Card] = [
        ("mistakes M", run.mistakes),
        ("sweeps", run.sweeps),
        (f"radius R{space}", analysis.R),
    ]
    section.append(
        _cards(
            cards + ([("pocket's training errors", kept.pocket_errors)] if kept is not None else [])
        )
    )
    verdict = f"Not linearly separable: no margin, so no Novikoff bound. The perceptron made {analysis.run_state()}."
    section.append(f'<div class="verdict bad">{html_text(verdict)}</div>')
    if kept is not None:
        section.append(
            f"<pre>{html_text(kept.summary(state='the weights with the fewest training errors', short=True))}</pre>"
        )
    return section


def _sections(
    X: MatrixLike,
    Xf: Float64Array,
    y: ArrayLike,
    *,
    fit_intercept: bool,
    trace_points: int,
    max_sweeps: int | None,
    scale: Scale | None,
    feature_names: list[str] | None,
    on_stage: OnStage | None,
    wording: Callable[[str], str],
    class_names: tuple[str, str] | None = None,
) -> list[str]:
    """The report's sections for two classes: analysis, advice, the run, plots, worksheet."""
    from perceptronlab.theory.analysis import analyze

    n, d = Xf.shape
    signs, classes = check_labels(y, n)
    if class_names is not None:
        classes = np.asarray(class_names, dtype=object)
    small = n <= trace_points
    # small exact data keeps its exact cells (a hand-checkable worksheet); the rest runs in float64
    analysis = analyze(
        X if small else Xf,
        y,
        fit_intercept=fit_intercept,
        loo=n <= LOO_POINTS,
        max_sweeps=max_sweeps,
        scale=scale,
        trace=small,
        feature_names=feature_names,
        on_stage=on_stage,
    )
    if analysis.scale:  # the plots show the data the run saw: the scaled features
        Xf = np.asarray(analysis.run.data[0], dtype=np.float64)
    sections = [_analysis_section(analysis, (n, d), classes, fit_intercept, wording)]
    if analysis.advice:
        sections.append(_advice_html(analysis, wording))
    sections.append("".join(_run_section(analysis)))
    if on_stage is not None:
        on_stage("plots", None)
    sections.append(_plots_section(analysis, Xf, y, d))
    sections.append(_worksheet_section(analysis.run, n, small, trace_points))
    return sections


def _analysis_section(
    analysis: Analysis,
    shape: tuple[int, int],
    classes: Any,
    fit_intercept: bool,
    wording: Callable[[str], str],
) -> str:
    """The data's facts and the analysis' cards, and its separability told in words."""
    from perceptronlab.preprocessing import describe_scaler

    facts: list[Card] = [
        ("points", shape[0]),
        ("features", shape[1]),
        ("classes (−1, +1)", f"{classes[0]}, {classes[1]}"),
        ("intercept", fit_intercept),
    ]
    if analysis.scale:
        facts.append(("features scaled", describe_scaler(analysis.scale)))
    return (
        "<h2>Analysis</h2>"
        + _cards(facts)
        + _cards(_analysis_cards(analysis))
        + f"<pre>{html_text(wording(str(analysis.separability)))}</pre>"
    )


def _plots_section(analysis: Analysis, Xf: Float64Array, y: ArrayLike, d: int) -> str:
    """The figures that apply: the plane (``d`` = 2 features, or the bias trick's 3), the squeeze,
    the sweeps, the bound surface."""
    from perceptronlab import plots

    run, kept, R = analysis.run, analysis.pocket, float(analysis.R)
    rho = (
        float(analysis.rho) if analysis.separable and analysis.rho is not None else None
    )  # separable data's ρ*
    figures = ["<h2>Plots</h2>"]
    plane = _plane_figure(analysis, Xf, y, d, separable_data=rho is not None)
    if plane is not None:
        figures.append(plane)
    if rho is not None and run.mistakes and run.log_complete:
        figures.append(
            _figure_html(
                plots.squeeze(run, rho, R),
                "The squeeze of Novikoff's proof: kρ* ≤ ‖w_k‖ ≤ √k·R, so k ≤ R²/ρ*².",
            )
        )
    elif rho is not None and run.mistakes:
        figures.append(
            '<div class="verdict note">The squeeze of Novikoff\'s proof needs ‖w_k‖ after every '
            f"update; this run of {run.mistakes:,} updates logged the first "
            f"{run.mistake_indices.shape[0]:,} (the log's memory budget).</div>"
        )
    figures.append(
        _figure_html(plots.sweeps(run), "Updates per sweep and training errors after each sweep.")
    )
    if kept is not None:
        figures.append(_figure_html(plots.sweeps(kept), "Pocket: the fewest errors kept so far."))
    if rho is not None:
        figures.append(
            _figure_html(
                plots.bound_surface(mark=(R, rho)),
                "Novikoff's bound R²/ρ² over (R, ρ), with this dataset marked.",
            )
        )
    return "".join(figures)


def _plane_figure(
    analysis: Analysis, Xf: Float64Array, y: ArrayLike, d: int, separable_data: bool
) -> str | None:
    """The decision regions of 2-D data (or of the bias trick's (1, x)), with the max-margin band
    when the data is separable; None for other data or a zero w."""
    from perceptronlab import plots

    plane = d == 2 or (d == 3 and bool(np.all(Xf[:, 0] == 1.0)))
    shown = analysis.pocket if analysis.pocket is not None else analysis.run
    if not (plane and np.any(np.asarray(shown.w, dtype=np.float64))):
        return None
    # the analysis' own maximum margin: one computation of ρ* for the cards and the band
    band: bool | MaxMarginResult = False
    if separable_data:
        band = analysis.max_margin if analysis.max_margin is not None else True
    return _figure_html(
        plots.decision_regions(shown, Xf, y, max_margin=band),
        "The plane: both classes, the learned line and w"
        + (
            ", the max-margin band."
            if separable_data
            else " (pocket's weights); misclassified points circled."
        ),
    )


def _worksheet_section(run: Run, n: int, small: bool, trace_points: int) -> str:
    """The exact worksheet trace when the run kept one, or a note saying why not."""
    from perceptronlab.theory.analysis import EXACT_RUN_LIMIT

    if run.steps is not None:
        return "<h2>Worksheet (exact arithmetic)</h2>" + run.table("html")
    if small:
        return (
            '<h2>Worksheet</h2><div class="verdict note">The worksheet is shown for runs in exact '
            f"arithmetic of separable data with a bound R²/ρ*² of at most {EXACT_RUN_LIMIT:,} mistakes; this run "
            "was computed in floating point.</div>"
        )
    return (
        f'<h2>Worksheet</h2><div class="verdict note">{n} points: the step-by-step trace is '
        f"shown for at most {trace_points} points.</div>"
    )


def build_report(
    X: MatrixLike,
    y: ArrayLike,
    *,
    fit_intercept: bool = False,
    title: str | None = None,
    source: str | None = None,
    trace_points: int = TRACE_POINTS,
    max_sweeps: int | None = None,
    scale: Scale | None = None,
    feature_names: list[str] | None = None,
    on_stage: OnStage | None = None,
    wording: Callable[[str], str] | None = None,
) -> str:
    """The report as an HTML string (see :func:`write_report`).

    Examples
    --------
    >>> from perceptronlab.datasets import exam_task
    >>> from perceptronlab.studies.report import build_report
    >>> page = build_report(*exam_task(), title="The exam task")
    >>> page.startswith("<!DOCTYPE html>"), "<h1>The exam task</h1>" in page, "M = 5 ≤ R²/ρ*² = 10" in page
    (True, True, True)
    """

    X, Xf = _dense(X)
    n, d = Xf.shape
    fit_intercept = bool(fit_intercept)
    wording = wording or (lambda text: text)
    title = title or "perceptronlab report"
    sections_of = functools.partial(
        _sections,
        X,
        Xf,
        fit_intercept=fit_intercept,
        trace_points=trace_points,
        max_sweeps=max_sweeps,
        scale=scale,
        feature_names=feature_names,
        on_stage=on_stage,
        wording=wording,
    )
    labels = np.asarray(y)
    if labels.ndim == 1 and labels.shape[0] == n and len(np.unique(labels)) > 2:
        sections = _one_vs_rest(labels, sections_of)
    else:
        sections = sections_of(y)

    stamp = _dt.datetime.now(_dt.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    meta = f"{html_text(source)} · " if source else ""

    return (
        '<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n'
        '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
        f"<title>{html_text(title)}</title>\n<style>{_CSS}</style>\n</head>\n<body>\n<main>\n"
        f'<h1>{html_text(title)}</h1>\n<div class="meta">{meta}{n} points, {d} features, generated {stamp}'
        "</div>\n"
        + "\n".join(sections)
        + f"\n<footer>perceptronlab {html_text(__version__)}: every number computed by the engine and the "
        "theory toolkit.</footer>\n</main>\n</body>\n</html>\n"
    )


def _one_vs_rest(labels: Any, sections_of: Callable[..., list[str]]) -> list[str]:
    """k > 2 classes: one binary analysis per class, that class (+1) against the rest (−1)."""
    sections = [
        f'<div class="verdict note">{len(np.unique(labels))} classes: one analysis per class, that class '
        "(+1) against the rest (−1), as the one-vs-rest model that `perceptronlab train` fits.</div>"
    ]
    for label in np.unique(labels):
        part = sections_of(np.where(labels == label, 1, -1), class_names=("the rest", str(label)))
        sections.append(
            f"<h2>Class {html_text(label)} against the rest</h2>"
            + "".join(part).replace("<h2>", "<h3>").replace("</h2>", "</h3>")
        )
    return sections


class ReportOptions(TypedDict, total=False):
    """The options of the report's analysis and page, as :func:`build_report` takes them (and
    :func:`write_report` passes them on)."""

    fit_intercept: bool
    title: str | None
    source: str | None
    trace_points: int
    max_sweeps: int | None
    scale: Scale | None
    feature_names: list[str] | None
    on_stage: OnStage | None
    wording: Callable[[str], str] | None


def write_report(
    X: MatrixLike,
    y: ArrayLike,
    out_dir: Path | str,
    *,
    filename: str = "report.html",
    **options: Unpack[ReportOptions],
) -> Path:
    """Write the one-page HTML report of ``(X, y)`` into ``out_dir`` and return its path.

    Every number on the page comes from one :func:`perceptronlab.analyze` and its one run.

    Parameters
    ----------
    X : array-like (n, d), rows of Fractions/ints (exact), or a sparse matrix (densified)
    y : any two labels
    out_dir : the directory (created if missing)
    filename : the file name inside ``out_dir``
    **options : :class:`ReportOptions`, each as :func:`build_report` takes it:
    fit_intercept : train and analyse with an intercept (the bias trick)
    title, source : the page's heading and a note on where the data came from
    trace_points : data with at most this many points gets the exact worksheet trace
    max_sweeps : the run's sweep limit (default: the analysis' own, enough for the bound within reason)
    scale : "standard" or "maxabs": scale the features first (see :func:`perceptronlab.analyze`)
    feature_names : the features' names, for the advice
    on_stage : progress, as :func:`perceptronlab.analyze` takes it (stages "plots" and "writing" added)
    wording : rewrites the advice for the page (the command line passes its flags: ``--scale standard``);
        default: the library's words (``scale='standard'``)

    Examples
    --------
    >>> import tempfile
    >>> from perceptronlab.datasets import exam_task
    >>> path = write_report(*exam_task(), tempfile.mkdtemp())
    >>> path.name, "R²/ρ*²" in path.read_text(encoding="utf-8")
    ('report.html', True)
    """
    if not isinstance(filename, str) or not filename or Path(filename).name != filename:
        raise fail(
            "filename",
            "a plain file name such as 'report.html'",
            repr(filename),
            "Put the directory in out_dir.",
        )
    check_option_names(
        "write_report",
        options,
        ReportOptions,
        "Pass build_report's options.",
    )
    out = make_out_dir(out_dir)  # before the work: a bad --out fails at once
    page = build_report(X, y, **options)
    on_stage = options.get("on_stage")
    if on_stage is not None:
        on_stage("writing the page", None)
    path = out / filename
    atomic_write(path, page, what="report")
    return path
