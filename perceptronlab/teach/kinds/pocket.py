"""The "pocket" task: the pocket algorithm on points that are not separable (4 points), after Lin's
*Machine Learning Foundations* lecture 2: run the perceptron, keep the w with the fewest errors."""

from __future__ import annotations

import random

from perceptronlab.core.perceptron import perceptron
from perceptronlab.teach import quantities as q
from perceptronlab.teach import tex as t
from perceptronlab.teach.task import MAX_DRAWS, ExamTask, exact_points, three_parts

#: how many updates the task follows
UPDATES = 4


def errors(w, X, y) -> int:
    """Training errors of w: the points with y⟨w,x⟩ ≤ 0 (by the engine's exact scores)."""
    return sum(1 for s in q.scores(w, X, y) if s <= 0)


def pocket_task(rng: random.Random, seed: int) -> ExamTask:
    for _ in range(MAX_DRAWS):
        drawn = q.draw_points(rng, 5)
        if drawn is None:
            continue
        X, y = drawn
        run = perceptron(X, y, exact=True, trace=True, max_sweeps=30, warn=False)
        if run.converged:
            continue  # separable: no pocket needed
        assert run.steps is not None  # traced
        updates = [s for s in run.steps if s.mistake][:UPDATES]
        if len(updates) < UPDATES:
            continue  # w came back to an earlier w before the last update
        counts = [errors(s.w, X, y) for s in updates]
        best = counts.index(min(counts))
        if best == UPDATES - 1 or len(set(counts)) < 3 or updates[-1].sweep > 2:
            continue  # the pocket must differ from the last w, the counts must tell the w apart
        return pocket_from(X, y, seed)
    raise RuntimeError(f"no pocket task found for seed {seed}")  # pragma: no cover


def pocket_from(X, y, seed: int) -> ExamTask:
    run = perceptron(X, y, exact=True, trace=True, max_sweeps=30, warn=False)
    assert run.steps is not None  # traced
    updates = [s for s in run.steps if s.mistake][:UPDATES]
    ws = [tuple(s.w) for s in updates]
    counts = [errors(w, X, y) for w in ws]
    best = counts.index(
        min(counts)
    )  # the pocket is replaced only by strictly fewer errors: the first best
    answers = dict(
        ws=ws,
        errors=counts,
        pocket=ws[best],
        pocket_index=best,
        pocket_errors=counts[best],
        last=ws[-1],
        last_errors=counts[-1],
        places=[(s.sweep, s.index) for s in updates],
    )
    data = dict(X=exact_points(X), y=list(y))
    n = len(X)
    intro = [
        (
            "p",
            f"Points in $\\mathbb{{R}}^2$, no offset: {t.data_text(X, y)}. They are not linearly separable. "
            f"The perceptron starts at $w=(0,0)$ and sweeps in the order $x_1,\\dots,x_{n}$, updating "
            "$w\\leftarrow w+y_i x_i$ when $y_i\\langle w,x_i\\rangle\\le 0$; the pocket algorithm keeps the "
            "$w$ with the fewest training errors so far (starting from $w=0$, which errs on every point).",
        )
    ]
    steps = "; ".join(
        f"update {k + 1} at $x_{{{s.index + 1}}}$ (sweep {s.sweep}): $w={t.tex_vec(s.w)}$"
        for k, s in enumerate(updates)
    )
    table = ", ".join(f"$w_{k + 1}$: {c}" for k, c in enumerate(counts))
    solution_a = [("p", f"{steps}. (2 points)")]
    solution_b = [
        (
            "p",
            f"Training errors ($y_i\\langle w,x_i\\rangle\\le 0$): {table}. The pocket holds "
            f"$w_{best + 1}={t.tex_vec(ws[best])}$ with {counts[best]} errors (a later $w$ replaces it "
            "only with strictly fewer). (1 point)",
        )
    ]
    solution_c = [
        (
            "p",
            f"The perceptron returns its last $w_{UPDATES}={t.tex_vec(ws[-1])}$ with {counts[-1]} errors, "
            f"{counts[-1] - counts[best]} more than the pocket's. On data that is not separable the "
            "perceptron never settles, so its last $w$ is as good as chance picks it; the pocket pays one "
            "pass over the data per update to keep the best. (1 point)",
        )
    ]
    questions = (
        f"Carry out the perceptron until its {UPDATES}th update; give $w$ after each update.",
        "Count the training errors of each of these $w$. Which $w$ is in the pocket?",
        "The plain perceptron is stopped after the same updates. What does it return, and how does "
        "that compare with the pocket? Why?",
    )
    parts = three_parts((2, 1, 1), questions, (solution_a, solution_b, solution_c))
    return ExamTask("pocket", seed, "the pocket algorithm", intro, parts, data, answers, run=run)
