"""The lab's answer to one request, written once for the server and for the page in the browser.

:func:`compute` validates the request (:mod:`perceptronlab.web.request`), runs it
(:mod:`perceptronlab.web.trace`) and writes the cards (:mod:`perceptronlab.web.exact_cards` for
the runs of :func:`perceptronlab.pure.rule.run_cyclic`, :mod:`perceptronlab.web.cards` for the
compiled engine's). A run of the perceptron in cyclic order (or the user's own order), exact or in
floats (up to :data:`~perceptronlab.web.trace.PURE_WORK` points × sweeps), needs the standard
library alone: ``perceptronlab site`` copies this module and the ones it imports into a static
site, where Pyodide runs them. Pocket, the seeded orders and longer float runs run on the compiled
engine (NumPy, Numba): in a browser, where NumPy cannot be imported, such a request gets one line
saying so. :mod:`perceptronlab.web.api` describes the
request and the answer.
"""

from __future__ import annotations

import importlib.util
import math
import warnings
from fractions import Fraction
from typing import Any

from perceptronlab._ground.numbers import format_count, format_number
from perceptronlab.exceptions import InputError, fail
from perceptronlab.web.exact_cards import exact_cards
from perceptronlab.web.request import parse_request, use_exact
from perceptronlab.web.texts import w_text
from perceptronlab.web.trace import (
    PURE_WORK,
    engine_order,
    log_tail,
    needs_numpy,
    trace_columns,
    traced_runs,
    wrong_lists,
)


def numpy_available() -> bool:
    """Whether NumPy can be imported here (not in the browser's Pyodide)."""
    try:
        return importlib.util.find_spec("numpy") is not None
    except (ImportError, ValueError):
        return False


def _float_rows(points, order: list[int] | None) -> list[list[float]]:
    rows = points.float_rows
    return [list(rows[i]) for i in (range(len(rows)) if order is None else order)]


def browser_limit(opts: dict, n: int) -> InputError:
    """The one line for a request that needs the compiled engine where there is none."""
    if not opts["pocket"] and opts["order"] in ("cyclic", "pick"):
        what = "options.max_sweeps"
        got = f"{n:,} points × {opts['max_sweeps']:,} sweeps in floating point"
        fix = (
            f"Ask for fewer sweeps (points × sweeps ≤ {PURE_WORK:,}), use points on the "
            "half-integer grid (exact arithmetic), or run the lab server (perceptronlab serve)."
        )
    elif opts["pocket"]:
        what, got = "options.pocket", "true"
        fix = "Switch pocket off, or run the lab server (perceptronlab serve) for Pocket."
    else:
        what, got = "options.order", repr(opts["order"])
        fix = "Choose the cyclic order or your own, or run the lab server (perceptronlab serve)."
    return fail(
        what,
        "a run of the perceptron in cyclic or your own order (the lab in the browser, "
        "without NumPy)",
        got,
        fix,
    )


def compute(payload: Any) -> dict:
    """The lab's answer to one request (:func:`perceptronlab.web.api.compute`'s, which the server
    and the widget call; the page in the browser calls this one in Pyodide).

    >>> answer = compute({"points": [[1, 0], [1, 1], [0, 1]], "labels": [1, -1, -1]})
    >>> answer["run"]["mistakes"], answer["run"]["w_text"], answer["cards"]["rho"]["text"]
    (5, '(1, -2)', '1/√5')
    """
    points, signs, opts = parse_request(payload)
    n, d = len(points), 2
    exact = use_exact(points, opts)
    pure = not needs_numpy(opts, exact, n)
    if not pure and not numpy_available():
        raise browser_limit(opts, n)
    fit = opts["fit_intercept"]
    order, sequence = engine_order(opts, n)
    X = points.rows(exact, sequence) if exact or not pure else _float_rows(points, sequence)
    y = signs if sequence is None else [signs[i] for i in sequence]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        traced, whole, note = traced_runs(X, y, opts, exact, order, n)
    complete = traced is whole
    if traced is not None:
        columns, weights, history_w, history_b = trace_columns(traced, sequence, fit, d)
    else:
        columns, weights, history_w, history_b = _empty_trace(fit)
    rows = points.rows(exact) if exact or not pure else _float_rows(points, None)
    weights["wrong"] = wrong_lists(rows, signs, history_w, history_b, exact, pure)
    proof = whole if whole.converged and whole.algorithm == "perceptron" else None
    if pure:
        fractions = points.rows(True) if exact else [[Fraction(c) for c in r] for r in rows]
        cards, mm = exact_cards(fractions, signs, fit, opts["eta"], opts["margin"], proof, exact)
    else:
        from perceptronlab.web.cards import theory_cards

        cards, mm = theory_cards(points, signs, exact, fit, opts["eta"], opts["margin"], proof)
    cards["mistakes"] = _mistakes_card(whole, cards["bound"])
    return {
        "n": n,
        "exact": exact,
        "options": {
            **opts,
            "eta": format_number(opts["eta"]),
            "margin": format_number(opts["margin"]),
        },
        "visit_order": sequence,
        "run": _run_record(whole, traced, columns, weights, fit),
        "cards": cards,
        "max_margin": mm,
        "plots": {
            "squeeze": _squeeze(traced, cards, opts),
            "errors": [int(e) for e in whole.errors_after_sweep],
            "pocket": None
            if whole.pocket_history is None
            else [int(e) for e in whole.pocket_history],
        },
        "limits": {"traced_steps": columns["count"], "complete": complete, "note": note},
    }


def _empty_trace(fit: bool) -> tuple[dict, dict, list, list]:
    """The trace's columns, weights and history when no run was traced (w = 0 only)."""
    columns = {
        "count": 0,
        "sweep": [],
        "index": [],
        "score": [],
        "score_text": [],
        "mistake": [],
        "updates": [],
    }
    weights = {"w": [[0.0, 0.0]], "b": [0.0], "text": [w_text((0, 0), 0, fit)]}
    return columns, weights, [(0.0, 0.0)], [0.0]


def _state_text(whole) -> str:
    """How the run ended, in words."""
    if whole.algorithm == "pocket":
        return (
            "found weights with 0 errors"
            if whole.converged
            else f"the pocket keeps the best weights seen: {format_count(whole.pocket_errors, 'error')}"
        )
    return (
        "converged"
        if whole.converged
        else "cycled: the weights repeat, it never converges"
        if whole.cycled
        else "stopped at the sweep limit"
    )


def _mistakes_card(whole, card_bound: dict) -> dict:
    """The card mistakes: the run's count held against the bound's card."""
    mistakes = int(whole.mistakes)
    bound = card_bound["value"]
    within = None if bound is None else mistakes <= bound * (1 + 1e-12)
    card = {
        "value": mistakes,
        "bound": bound,
        "within": within,
        "text": str(mistakes),
        "detail": (
            "no bound: not separable"
            if bound is None
            else f"≤ {card_bound['text'].split(' ≈')[0]}, within the bound"
            if within
            else f"above {card_bound['text'].split(' ≈')[0]}"
        ),
    }
    if whole.algorithm == "pocket":
        card["detail"] = (
            f"updates; the pocket's weights make {format_count(whole.pocket_errors, 'error')}"
        )
    return card


def _squeeze(traced, cards: dict, opts: dict) -> dict:
    """The squeeze plot: ‖w_k‖ between Novikoff's two bounds."""
    norms = [float(value) for value in traced.norms] if traced is not None else []
    r_value, rho_value = cards["R"]["value"], cards["rho"]["value"]
    eta, margin = float(opts["eta"]), float(opts["margin"])
    ks = [float(k) for k in range(len(norms) + 1)]
    return {
        "norms": [0.0, *norms],
        # ‖w_k‖² ≤ k(η²R² + 2ηρ₀) and ‖w_k‖ ≥ ⟨w*, w_k⟩ ≥ kηρ* (Novikoff's two steps)
        "upper": [math.sqrt(k * (eta * eta * r_value * r_value + 2 * eta * margin)) for k in ks],
        "lower": [k * eta * rho_value for k in ks] if rho_value else None,
        "bound": cards["bound"]["value"],
    }


def _run_record(whole, traced, columns: dict, weights: dict, fit: bool) -> dict:
    """The answer's ``run``: the whole run's result and its traced steps."""
    complete = traced is whole
    return {
        "algorithm": whole.algorithm,
        "mistakes": int(whole.mistakes),
        "sweeps": int(whole.sweeps),
        "converged": bool(whole.converged),
        "cycled": bool(whole.cycled),
        "state": _state_text(whole),
        "summary": whole.summary(),
        "w": [float(c) for c in whole.w],
        "b": float(whole.b),
        "w_text": w_text(whole.w, whole.b, fit),
        "pocket_errors": None if whole.pocket_errors is None else int(whole.pocket_errors),
        "steps": columns,
        "weights": weights,
        "log": log_tail(traced, columns)
        if complete
        else {"collapse_from": None, "final_row": None},
        "complete": complete,
    }
