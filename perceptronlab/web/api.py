"""The lab's computation: one request (points, labels, options) in, the whole run and the cards out.

The server and the Jupyter widget both call :func:`compute`; its answer is
:func:`perceptronlab.web.lab.compute`'s, the function that the static site's page runs in the
browser (``perceptronlab site``). It validates the request at the
boundary (every message: what, expected, got, how to fix), runs the engine
(:func:`perceptronlab.perceptron` or :func:`perceptronlab.pocket`) with ``trace=True``, asks the
theory toolkit for R, ρ*, Novikoff's bound and separability, and returns plain JSON-ready data.
Nothing here re-implements the rule: the page then only draws and animates this answer.

The request
-----------
``{"points": [[x, y], ...], "labels": [1, -1, ...], "options": {...}}``. Coordinates are numbers
or strings (``"1/2"``, ``"0.5"``); JSON numbers are taken as the decimals they spell. Options
(all optional):

=================  ==========================================================================
``order``          "cyclic" (default), "shuffle", "random-mistake", or "pick": the user's
                   own cyclic order, given in ``sequence``
``sequence``       with "pick": the point indices in visiting order (distinct); points left out
                   are visited after them in index order. Each sweep follows this order.
``fit_intercept``  the bias trick (x augmented with 1); default false, as in the exam task
``eta``            learning rate η > 0 (default 1)
``margin``         ρ₀ ≥ 0 of the margin perceptron (default 0)
``pocket``         run Pocket (Gallant 1990) instead (default false)
``check``          when Pocket counts its errors: "update" (after every update, the default),
                   "sweep" (after every sweep) or "ratchet" (Gallant's ratchet), as
                   :func:`perceptronlab.pocket`'s ``check``
``max_sweeps``     1 … 1000 (default 100)
``seed``           integer ≥ 0 for the shuffle and random-mistake orders (default 0)
``arithmetic``     "auto" (default: exact Fractions when every coordinate is an integer or a
                   half-integer and there are at most 200 points), "exact" or "float"
=================  ==========================================================================

The answer
----------
``run``: the result (mistakes, sweeps, converged/cycled, final ``w`` and ``b`` with their exact
text) and the trace as columns: ``steps`` (sweep, point index, y⟨w,x⟩ as a number and as the
worksheet writes it, mistake?, and how many updates were made so far) and ``weights`` (every
weight vector of the run from w = 0, its text, and which points it misclassifies: the page marks
them without computing a single score). ``log`` says how the worksheet ends (the last clean sweep
collapses into one "all … stop" row, exactly as :meth:`perceptronlab.Run.worksheet_rows`).
``cards``: R, ρ*, the bound R²/ρ*² (or the margin perceptron's), mistakes, separability (with
Gordan's certificate when not separable), each with a display text: exact fractions on the grid
("1/√5", "10"), decimals otherwise. ``max_margin``: the best separating line and its band (null
when not separable). ``plots``: the squeeze plot (‖w_k‖ with kηρ* and √(k(η²R² + 2ηρ₀))) and
the training errors after each sweep (and the pocket's). ``limits``: how much was traced.

"I pick the next point"
-----------------------
The page sends the order the user clicked as ``sequence``; the engine runs its cyclic order on
the points in that order, and the answer maps every index back to the user's numbering.

Limits
------
At most :data:`~perceptronlab.web.request.MAX_POINTS` points (the server also refuses bodies over
:data:`~perceptronlab.web.request.MAX_BODY_BYTES`),
coordinates within ±:data:`~perceptronlab.web.request.MAX_COORDINATE`. So that the page stays
quick, a run is traced step
by step for at most :data:`~perceptronlab.web.request.TRACE_STEPS` steps (at least one sweep; random-mistake order and
Pocket, which score every point at each update, within
:data:`~perceptronlab.web.request.TRACE_WORK` scores); a longer run
is then finished by the compiled engine and the cards and the final w come from that whole run,
with a note saying so. Exact runs stop within :data:`~perceptronlab.web.request.EXACT_WORK` scores,
and exact arithmetic is
used only while every coordinate, η and ρ₀ share a common denominator below
:data:`~perceptronlab.web.request.EXACT_DENOMINATOR` (Fractions then stay small; "auto" falls back to floats, "exact" is
refused with the budget in the message). Integers are refused past
±:data:`~perceptronlab.web.request.MAX_COORDINATE` with a
short message (a 4,000-digit integer is described, not echoed), and past
:data:`~perceptronlab.web.request.MAX_INT_DIGITS`
digits while the JSON is parsed. The server (:mod:`perceptronlab.web.app`) adds a deadline.
"""

from __future__ import annotations

from typing import Any

from perceptronlab.core.threads import numba_threads
from perceptronlab.web import lab
from perceptronlab.web.request import MAX_BODY_BYTES as MAX_BODY_BYTES  # the server's limits
from perceptronlab.web.request import MAX_POINTS as MAX_POINTS
from perceptronlab.web.request import parse_body


def compute(payload: Any) -> dict:
    """Run the lab on one request and return the whole answer (see the module docstring).

    Raises
    ------
    perceptronlab.InputError
        Bad request: the message says what, expected, got, and how to fix it.

    Examples
    --------
    The lectures' exam task:

    >>> answer = compute({"points": [[1, 0], [1, 1], [0, 1]], "labels": [1, -1, -1]})
    >>> answer["run"]["mistakes"], answer["run"]["w_text"], answer["cards"]["bound"]["text"]
    (5, '(1, -2)', '10')
    """
    # a lab request is small: thread start-up would cost more than it saves (requests run side by side)
    with numba_threads(1):
        return lab.compute(payload)


def compute_body(body: bytes) -> dict:
    """:func:`compute` on a raw JSON body (the server's entry): size limit, then JSON, then checks."""
    return compute(parse_body(body))
