"""Running the engine for the lab: the traced run within its budget, and the trace as columns.

Nothing here re-implements the rule: the runs are :func:`perceptronlab.perceptron` and
:func:`perceptronlab.pocket`, and the lab's runs of the perceptron in cyclic order
:func:`perceptronlab.pure.rule.run_cyclic` (the standard library alone: this module runs in the
browser too; NumPy is imported only for the compiled engine's runs); the scores that mark
misclassified points are the core's (:func:`perceptronlab.core.scores.margins`,
:func:`perceptronlab.pure.rule.exact_score`, :func:`~perceptronlab.pure.rule.float_score`).
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from perceptronlab._ground.numbers import format_count, format_number
from perceptronlab.pure.rule import exact_score, float_score, run_cyclic
from perceptronlab.web.request import EXACT_WORK, TRACE_STEPS, TRACE_WORK, WHOLE_WORK, WRONG_WORK
from perceptronlab.web.texts import float_texts, w_text


def engine_order(opts: dict, n: int) -> tuple[str, list[int] | None]:
    """The engine's order, and for "pick" the full visiting order (the picks, then the rest)."""
    if opts["order"] != "pick":
        return opts["order"], None
    picked = list(opts["sequence"])
    chosen = set(picked)
    return "cyclic", picked + [i for i in range(n) if i not in chosen]


#: float runs in cyclic order are computed in plain Python (as exact ones) while points × sweeps
#: stays within this; longer ones on the compiled engine
PURE_WORK = 200_000


def needs_numpy(opts: dict, exact: bool, n: int) -> bool:
    """Whether the request runs on the compiled engine (Pocket, the seeded orders, long float runs)
    rather than on :func:`perceptronlab.pure.rule.run_cyclic`."""
    if opts["pocket"] or opts["order"] not in ("cyclic", "pick"):
        return True
    return not exact and n * opts["max_sweeps"] > PURE_WORK


def _run(X, y, opts: dict, exact: bool, order: str, max_sweeps: int, trace: bool, max_updates=None):
    if not needs_numpy(opts, exact, len(y)):
        return run_cyclic(
            X,
            y,
            eta=opts["eta"],
            margin=opts["margin"],
            fit_intercept=opts["fit_intercept"],
            max_sweeps=max_sweeps,
            exact=exact,
            trace=trace,
        )
    from perceptronlab import perceptron, pocket

    common = dict(
        eta=opts["eta"] if exact else float(opts["eta"]),
        fit_intercept=opts["fit_intercept"],
        order=order,
        max_sweeps=max_sweeps,
        seed=opts["seed"],
        exact=exact,
        trace=trace,
        n_jobs=1,
    )
    if opts["pocket"]:
        return pocket(X, y, check=opts["check"], max_updates=max_updates, **common)
    margin = opts["margin"] if exact else float(opts["margin"])
    return perceptron(X, y, margin=margin, warn=False, **common)


def traced_runs(X, y, opts: dict, exact: bool, order: str, n: int):
    """The traced run, the whole run (the same object when the trace covers it) and a note.

    Work is counted in scored points: a cyclic or shuffled step scores one point; random-mistake
    and Pocket score every point at each update. The trace stays within :data:`TRACE_STEPS`
    (:data:`TRACE_WORK` for the scoring orders), exact runs within :data:`EXACT_WORK`, and the
    compiled whole run within :data:`WHOLE_WORK`; the note says when a limit cut a run short.
    """
    max_sweeps, pocket = opts["max_sweeps"], opts["pocket"]
    scoring = pocket or order == "random-mistake"

    def limits(work: int) -> tuple[int, int | None]:
        if not scoring:
            return min(max_sweeps, max(1, work // n)), None
        updates = max(1, work // n)
        return (max_sweeps, updates) if pocket else (min(max_sweeps, max(1, updates // n)), None)

    def capped(run, sweeps: int, updates: int | None) -> bool:
        if run.converged or run.cycled:
            return False
        return (sweeps < max_sweeps and run.sweeps >= sweeps) or (
            updates is not None and run.mistakes >= updates
        )

    if exact:
        sweeps, updates = limits(EXACT_WORK)
        run = _run(X, y, opts, exact, order, sweeps, trace=True, max_updates=updates)
        note = (
            (
                "Exact arithmetic stops after "
                + (format_count(updates, "update") if updates else format_count(sweeps, "sweep"))
                + f" for {format_count(n, 'point')}; choose float arithmetic for a longer run."
            )
            if capped(run, sweeps, updates)
            else ""
        )
        return run, run, note
    whole_sweeps, whole_updates = limits(WHOLE_WORK)
    if scoring and not pocket and n * n > TRACE_WORK:
        whole = _run(X, y, opts, exact, order, whole_sweeps, trace=False)
        note = (
            f"Random-mistake order with {format_count(n, 'point')} is not traced (each update scores every point); "
            "the final w and the cards come from the whole run."
        )
        return None, whole, note
    sweeps, updates = limits(TRACE_WORK if scoring else TRACE_STEPS)
    traced = _run(X, y, opts, exact, order, sweeps, trace=True, max_updates=updates)
    if not capped(traced, sweeps, updates):
        return traced, traced, ""
    whole = _run(X, y, opts, exact, order, whole_sweeps, trace=False, max_updates=whole_updates)
    note = (
        f"The first {format_count(len(traced.steps), 'step')} are traced; the cards and the final w come from the "
        f"whole run ({format_count(whole.sweeps, 'sweep')}, {format_count(whole.mistakes, 'update')})."
    )
    if capped(whole, whole_sweeps, whole_updates):
        note += " The lab stopped that run early; use the Python API or the CLI for longer runs."
    return traced, whole, note


def wrong_lists(
    X, signs, history_w, history_b, exact: bool, pure: bool = True
) -> list[list[int] | None]:
    """For every weight vector of the run: the points with y(⟨w,x⟩ + b) ≤ 0 (the engine's margins).

    Listed while n·(vectors) stays within :data:`WRONG_WORK` (a tenth of it in exact arithmetic);
    later vectors get ``None`` and the page then marks nothing.
    """
    n = len(signs)
    budget = (WRONG_WORK // 10 if exact else WRONG_WORK) // max(1, n)
    out: list[list[int] | None] = [None] * len(history_w)
    if exact or pure:
        score = exact_score if exact else float_score
        for k, (w, b) in enumerate(zip(history_w[:budget], history_b[:budget], strict=False)):
            out[k] = [
                i for i, (x, s) in enumerate(zip(X, signs, strict=True)) if score(w, b, x, s) <= 0
            ]
        return out
    import numpy as np

    from perceptronlab.core.scores import margins

    y = np.asarray(signs, dtype=np.float64)
    for k, (w, b) in enumerate(zip(history_w[:budget], history_b[:budget], strict=False)):
        scores = margins(X, y, np.asarray(w, dtype=np.float64), b)
        out[k] = np.flatnonzero(np.asarray(scores <= 0, dtype=bool)).tolist()
    return out


def trace_columns(run, sequence: list[int] | None, fit_intercept: bool, d: int):
    """The step trace as columns, and every weight vector the run went through (w₀ = 0 first)."""
    steps = run.steps or []
    zero = Fraction(0) if run.exact else 0.0
    history_w: list[tuple] = [tuple([zero] * d)]
    history_b: list[Any] = [zero]
    updates = []
    for step in steps:
        if step.mistake:
            history_w.append(step.w)
            history_b.append(step.b)
        updates.append(len(history_w) - 1)
    index = [step.index for step in steps]
    if sequence is not None:
        index = [sequence[i] for i in index]
    scores = [float(step.score) for step in steps]
    score_text = [format_number(step.score) for step in steps] if run.exact else float_texts(scores)
    columns = {
        "count": len(steps),
        "sweep": [step.sweep for step in steps],
        "index": index,
        "score": scores,
        "score_text": score_text,
        "mistake": [bool(step.mistake) for step in steps],
        "updates": updates,
    }
    if run.exact:
        texts = [w_text(w, b, fit_intercept) for w, b in zip(history_w, history_b, strict=True)]
    else:
        parts = [float_texts([float(w[j]) for w in history_w]) for j in range(d)]
        texts = [
            "(" + ", ".join(column[k] for column in parts) + ")" for k in range(len(history_w))
        ]
        if fit_intercept:
            b_text = float_texts([float(b) for b in history_b])
            texts = [f"{text}, b = {bt}" for text, bt in zip(texts, b_text, strict=True)]
    weights = {
        "w": [[float(c) for c in w] for w in history_w],
        "b": [float(b) for b in history_b],
        "text": texts,
    }
    return columns, weights, history_w, history_b


def log_tail(run, columns: dict) -> dict:
    """How the worksheet ends, as :meth:`Run.worksheet_rows` writes it.

    A converged run's last clean sweep is one row ``(sweep, all, scores, no, stop)``; a cycle or
    the sweep limit adds a closing row. ``collapse_from`` is the first step of that clean sweep.
    """
    collapse_from, final_row = None, None
    if run.algorithm == "perceptron" and run.converged and run.steps:
        collapse_from = columns["sweep"].index(run.sweeps)
        scores = ", ".join(columns["score_text"][collapse_from:])
        final_row = [str(run.sweeps), "all", scores, "no", "stop"]
    elif run.cycled:
        final_row = [str(run.sweeps + 1), "all", "", "", "cycle: w repeats, never converges"]
    elif not run.converged:
        final_row = [str(run.sweeps), "", "", "", "sweep limit reached"]
    return {"collapse_from": collapse_from, "final_row": final_row}
