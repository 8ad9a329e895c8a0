"""One self-contained HTML page about a dataset: its theory, a perceptron run, and the plots.

The page has inline CSS and its figures embedded as base64 PNG: it opens offline, from a mail
attachment or a USB stick, with nothing to load. It holds:

- the analysis cards of :func:`perceptronlab.analyze` (radius, separability, the best margin ρ*,
  Novikoff's bound, …),
- the run summary of :func:`perceptronlab.perceptron` (and of :func:`perceptronlab.pocket` when
  the data is not separable) and how the run compares with its bound,
- the plots of :mod:`perceptronlab.plots` that apply (decision regions for 2-D data, the
  squeeze, errors per sweep, the bound surface with the data marked),
- the worksheet trace in exact arithmetic when the data is small (≤ 20 points by default).

Faces hold no logic: every number on the page comes from the engine and the theory toolkit.
"""

from __future__ import annotations

import base64
import datetime as _dt
import html
import io
from fractions import Fraction
from pathlib import Path
from typing import Any

import numpy as np

from perceptronlab._files import atomic_write
from perceptronlab._validation import check_labels, fail
from perceptronlab._version import __version__

__all__ = ["build_report", "write_report"]

#: a dataset with at most this many points gets the exact worksheet trace
TRACE_POINTS = 20
#: a dataset with at most this many points gets the exact leave-one-out error card
LOO_POINTS = 2000

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
.card .value { font-size: 1.25em; font-weight: 600; word-break: break-word;
               font-variant-numeric: tabular-nums; }
.verdict { border-radius: 10px; padding: 12px 16px; margin: 10px 0; font-weight: 600; }
.verdict.good { background: #e8f5ec; border: 1px solid #a6d8b5; color: var(--good); }
.verdict.bad { background: #fdecea; border: 1px solid #f3b4ae; color: var(--bad); }
.verdict.note { background: #eef4fc; border: 1px solid #b8cff0; color: var(--accent); }
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


def _esc(value: Any) -> str:
    return html.escape(str(value), quote=True)


def _number(value: Any) -> str:
    """A number for a card: exact values as p/q (and ≈ decimal), floats with 6 significant digits."""
    if isinstance(value, bool | np.bool_):
        return "yes" if value else "no"
    if isinstance(value, Fraction):
        if value.denominator == 1:
            return str(value.numerator)
        return f"{value.numerator}/{value.denominator} ≈ {float(value):.6g}"
    if isinstance(value, int | np.integer):
        return str(int(value))
    if isinstance(value, float | np.floating):
        value = float(value)
        if value.is_integer() and abs(value) < 1e15:
            return str(int(value))
        return f"{value:.6g}"
    if isinstance(value, list | tuple | np.ndarray):
        items = list(value)
        shown = ", ".join(_number(v) for v in items[:8]) + (", …" if len(items) > 8 else "")
        return f"({shown})"
    return str(value)


def _png(figure) -> str:
    buffer = io.BytesIO()
    figure.savefig(buffer, format="png", dpi=100)
    return base64.b64encode(buffer.getvalue()).decode("ascii")


def _figure_html(figure, caption: str) -> str:
    return (f'<figure><img alt="{_esc(caption)}" src="data:image/png;base64,{_png(figure)}">'
            f"<figcaption>{_esc(caption)}</figcaption></figure>")


def _cards(items: list[tuple[str, Any]]) -> str:
    cells = [f'<div class="card"><div class="label">{_esc(label)}</div><div class="value">{_esc(_number(value))}'
             "</div></div>" for label, value in items]
    return '<div class="cards">' + "".join(cells) + "</div>"


def _flatten(data: Any, prefix: str = "") -> list[tuple[str, Any]]:
    """(label, scalar) pairs from the analysis' to_dict(); short lists stay as one card."""
    items: list[tuple[str, Any]] = []
    if isinstance(data, dict):
        for key, value in data.items():
            label = f"{prefix}{key}".replace("_", " ")
            if isinstance(value, dict):
                items += _flatten(value, f"{label} · ")
            elif isinstance(value, list | tuple) and (len(value) > 12 or any(isinstance(v, dict | list | tuple)
                                                                           for v in value)):
                continue
            elif value is not None:
                items.append((label, value))
    return items


def _dense(X: Any) -> tuple[Any, np.ndarray]:
    """(X as given for exact use, X as float64): Fractions and ints stay exact in the first."""
    import scipy.sparse as sp

    if sp.issparse(X):
        if X.shape[0] * X.shape[1] > 5_000_000:
            raise fail("X", "data small enough for a one-page report (n * d <= 5,000,000)",
                       f"a sparse matrix of shape {X.shape}", "Report on a sample of the rows.")
        X = X.toarray()
    try:
        Xf = np.array(X, dtype=np.float64)
    except (TypeError, ValueError) as exc:
        raise fail("X", "numeric rows", f"cells that are not numbers ({exc})",
                   "Read the file with perceptronlab.read_data.") from None
    if Xf.ndim != 2 or Xf.shape[0] == 0 or Xf.shape[1] == 0:
        raise fail("X", "a non-empty 2-D table (rows are examples)", f"shape {Xf.shape}",
                   "Pass rows of numbers.")
    if not np.isfinite(Xf).all():
        raise fail("X", "finite values", "NaN or inf", "Remove or impute the rows with NaN or inf.")
    return X, Xf


class _Analysis:
    """The cards when ``perceptronlab.analyze`` is not available: the theory toolkit, piece by piece.

    Measured where the perceptron runs (the augmented (1, x) with an intercept), exactly for exact
    input: R² (``radius_squared``), separability with its certificate (``separable``), ρ*² and ρ*
    (``max_margin``), Novikoff's bound and the leave-one-out test-error bound (``bounds``).
    """

    def __init__(self, X, y, fit_intercept: bool):
        from perceptronlab.bounds import novikoff, test_error
        from perceptronlab.exceptions import NotSeparableError
        from perceptronlab.theory.geometry import max_margin, radius_squared
        from perceptronlab.theory.separability import separable

        rows = [[1, *row] for row in X] if fit_intercept else X
        n = len(rows)
        self.data: dict[str, Any] = {"R²": radius_squared(rows)}
        verdict = separable(rows, y)
        self.data["separable"] = bool(verdict.separable)
        self.message = ("In the augmented space of (1, x), the perceptron's with an intercept: "
                        if fit_intercept else "") + verdict.message
        if verdict.separable:
            try:
                best = max_margin(rows, y)
            except NotSeparableError:  # separable only with margin 0 (a point on the origin)
                best = None
            if best is not None:
                self.data["ρ*²"] = best.rho_squared
                self.data["ρ*"] = float(best.rho)
                self.data["Novikoff bound R²/ρ*²"] = novikoff(self.data["R²"], best.rho_squared, squared=True)
                self.data[f"test-error bound R²/ρ*²/(n+1), n = {n}"] = test_error(
                    self.data["R²"], best.rho_squared, n, squared=True)

    def to_dict(self) -> dict:
        return dict(self.data)

    def __str__(self) -> str:
        return self.message


def _analyze(X, y, fit_intercept: bool):
    try:
        from perceptronlab.theory.analysis import analyze
    except ImportError:
        return _Analysis(X, y, fit_intercept)
    # the exact leave-one-out error retrains once per example of the mistake set: small data only
    return analyze(X, y, fit_intercept=fit_intercept, loo=len(y) <= LOO_POINTS)


def _analysis_cards(analysis) -> list[tuple[str, Any]]:
    """The cards of an analysis: the theory's numbers, exact where the analysis is exact."""
    if not hasattr(analysis, "R_squared"):
        return _flatten(analysis.to_dict())
    cards: list[tuple[str, Any]] = [("radius R", analysis.R), ("R²", analysis.R_squared),
                                    ("separable", analysis.separable)]
    if analysis.separable and analysis.rho is not None:
        cards += [("best margin ρ*", analysis.rho), ("ρ*²", analysis.rho_squared),
                  ("Novikoff bound R²/ρ*²", analysis.bound)]
        if analysis.max_margin is not None:
            cards.append(("support vectors", len(analysis.max_margin.support)))
        if analysis.ratio is not None:
            cards.append(("mistakes / bound", analysis.ratio))
        if analysis.loo is not None:
            cards.append(("leave-one-out error", analysis.loo.error_rate))
        if analysis.test_error_bound is not None:
            cards.append(("test-error bound R²/ρ*²/(n+1)", analysis.test_error_bound))
    else:
        if analysis.pocket is not None:
            cards.append(("pocket's training errors", analysis.pocket.pocket_errors))
        if analysis.freund_schapire is not None:
            cards.append(("Freund–Schapire bound (R+D)²/ρ²", analysis.freund_schapire))
    return cards


def build_report(X, y, *, fit_intercept: bool = False, title: str | None = None, source: str | None = None,
                 trace_points: int = TRACE_POINTS, max_sweeps: int = 1000) -> str:
    """The report as an HTML string (see :func:`write_report`).

    Examples
    --------
    >>> from perceptronlab.datasets import exam_task
    >>> from perceptronlab.report import build_report
    >>> page = build_report(*exam_task(), title="The exam task")
    >>> page.startswith("<!DOCTYPE html>"), "<h1>The exam task</h1>" in page, "M = 5 ≤ R²/ρ*² = 10" in page
    (True, True, True)
    """
    from perceptronlab import plots
    from perceptronlab.bounds import novikoff
    from perceptronlab.core.perceptron import perceptron, pocket
    from perceptronlab.exceptions import NotSeparableError
    from perceptronlab.theory.geometry import max_margin, radius

    X, Xf = _dense(X)
    n, d = Xf.shape
    signs, classes = check_labels(y, n)
    small = n <= trace_points
    fit_intercept = bool(fit_intercept)
    # the exact engine makes the worksheet hand-checkable; large data runs compiled in float64
    X_run = X if small else Xf
    title = title or "perceptronlab report"
    sections: list[str] = []

    analysis = _analyze(X_run, y, fit_intercept)
    cards = _analysis_cards(analysis)
    sections.append("<h2>Analysis</h2>" + _cards([("points", n), ("features", d),
                                                    ("classes (−1, +1)", f"{classes[0]}, {classes[1]}"),
                                                    ("intercept", fit_intercept)]))
    if cards:
        sections.append(_cards(cards))
    sections.append(f"<pre>{_esc(str(analysis))}</pre>")

    run = perceptron(X_run, y, fit_intercept=fit_intercept, exact=small, trace=small, max_sweeps=max_sweeps,
                     warn=False)
    # Novikoff's bound lives in the space the perceptron updates in: (1, x) with the bias trick
    X_space = np.hstack([np.ones((n, 1)), Xf]) if fit_intercept else Xf
    R = float(radius(Xf, fit_intercept=fit_intercept))
    try:
        best = max_margin(X_space, y)
        rho = float(best.rho)
    except NotSeparableError:
        best, rho = None, None
    run_section = ["<h2>The perceptron run</h2>", f"<pre>{_esc(run.summary())}</pre>"]
    if best is not None:
        bound = float(novikoff(R, rho))
        within = run.mistakes <= bound * (1 + 1e-9)
        space = " (in the augmented space of (1, x))" if fit_intercept else ""
        run_section.append(_cards([("mistakes M", run.mistakes), ("sweeps", run.sweeps),
                                   (f"radius R{space}", R), (f"max margin ρ*{space}", rho),
                                   ("bound R²/ρ*²", bound),
                                   ("share of the bound used", f"{run.mistakes / bound:.1%}")]))
        verdict = (f"The run respected Novikoff's bound: M = {run.mistakes} ≤ R²/ρ*² = {_number(bound)}"
                   if within else f"The run broke the bound: M = {run.mistakes} > {_number(bound)}")
        run_section.append(f'<div class="verdict {"good" if within else "bad"}">{_esc(verdict)}</div>')
        pocket_run = None
    else:
        pocket_run = getattr(analysis, "pocket", None) or pocket(Xf, y, fit_intercept=fit_intercept,
                                                                 max_sweeps=min(max_sweeps, 200), seed=0)
        state = "cycled: a start-of-sweep w repeated" if run.cycled else "stopped at the sweep limit"
        run_section.append(_cards([("mistakes M", run.mistakes), ("sweeps", run.sweeps), ("radius R", R),
                                   ("pocket's training errors", pocket_run.pocket_errors)]))
        verdict = ("Not linearly separable: no margin, so no Novikoff bound; the perceptron never "
                   f"converges ({state}).")
        run_section.append(f'<div class="verdict bad">{_esc(verdict)}</div>')
        run_section.append(f"<pre>{_esc(pocket_run.summary())}</pre>")
    sections.append("".join(run_section))

    figures = ["<h2>Plots</h2>"]
    plane = d == 2 or (d == 3 and bool(np.all(Xf[:, 0] == 1.0)))
    shown = pocket_run if pocket_run is not None else run
    if plane and np.any(np.asarray(shown.w, dtype=np.float64)):
        figures.append(_figure_html(plots.decision_regions(shown, Xf, y, max_margin=best is not None),
                                    "The plane: both classes, the learned line and w"
                                    + (", the max-margin band." if best is not None else
                                       " (pocket's weights); misclassified points circled.")))
    if best is not None and run.mistakes:
        figures.append(_figure_html(plots.squeeze(run, rho, R),
                                    "The squeeze of Novikoff's proof: kρ* ≤ ‖w_k‖ ≤ √k·R, so k ≤ R²/ρ*²."))
    figures.append(_figure_html(plots.sweeps(run), "Updates per sweep and training errors after each sweep."))
    if pocket_run is not None:
        figures.append(_figure_html(plots.sweeps(pocket_run), "Pocket: the fewest errors kept so far."))
    if best is not None:
        figures.append(_figure_html(plots.bound_surface(mark=(R, rho)),
                                    "Novikoff's bound R²/ρ² over (R, ρ), with this dataset marked."))
    sections.append("".join(figures))

    if small:
        sections.append("<h2>Worksheet (exact arithmetic)</h2>" + run.table("html"))
    else:
        sections.append(f'<h2>Worksheet</h2><div class="verdict note">{n} points: the step-by-step trace is '
                        f"shown for at most {trace_points} points.</div>")

    stamp = _dt.datetime.now(_dt.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    meta = f"{_esc(source)} · " if source else ""

    return ("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
            "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
            f"<title>{_esc(title)}</title>\n<style>{_CSS}</style>\n</head>\n<body>\n<main>\n"
            f"<h1>{_esc(title)}</h1>\n<div class=\"meta\">{meta}{n} points, {d} features, generated {stamp}"
            "</div>\n" + "\n".join(sections)
            + f"\n<footer>perceptronlab {_esc(__version__)}: every number computed by the engine and the "
              "theory toolkit.</footer>\n</main>\n</body>\n</html>\n")


def write_report(X, y, out_dir: Path | str, *, fit_intercept: bool = False, title: str | None = None,
                 source: str | None = None, filename: str = "report.html", trace_points: int = TRACE_POINTS,
                 max_sweeps: int = 1000) -> Path:
    """Write the one-page HTML report of ``(X, y)`` into ``out_dir`` and return its path.

    Parameters
    ----------
    X : array-like (n, d), rows of Fractions/ints (exact), or a sparse matrix (densified)
    y : any two labels
    out_dir : the directory (created if missing)
    fit_intercept : train and analyse with an intercept (the bias trick)
    title, source : the page's heading and a note on where the data came from
    filename : the file name inside ``out_dir``
    trace_points : data with at most this many points gets the exact worksheet trace
    max_sweeps : the perceptron's limit

    Examples
    --------
    >>> import tempfile
    >>> from perceptronlab.datasets import exam_task
    >>> path = write_report(*exam_task(), tempfile.mkdtemp())
    >>> path.name, "R²/ρ*²" in path.read_text(encoding="utf-8")
    ('report.html', True)
    """
    if not isinstance(filename, str) or not filename or Path(filename).name != filename:
        raise fail("filename", "a plain file name such as 'report.html'", repr(filename),
                   "Put the directory in out_dir.")
    out = Path(out_dir)
    _writable(out.mkdir, out, parents=True, exist_ok=True)  # before the work: a bad --out fails at once
    page = build_report(X, y, fit_intercept=fit_intercept, title=title, source=source,
                        trace_points=trace_points, max_sweeps=max_sweeps)
    path = out / filename
    atomic_write(path, page, what="report")
    return path


def _writable(action, out: Path, *args, **kwargs) -> None:
    try:
        action(*args, **kwargs)
    except OSError as exc:
        raise fail("out_dir", "a writable directory", f"{out} ({exc.strerror})",
                   "Pass --out with a directory you can write to.") from None
