"""The "online" task: the online protocol (4 points): predict with w before the label is shown, then
update on a mistake; one pass over a stream of points."""

from __future__ import annotations

import random
from fractions import Fraction

from perceptronlab.core.perceptron import perceptron
from perceptronlab.teach import quantities as q
from perceptronlab.teach import tex as t
from perceptronlab.teach.kinds.trace import best_small_separator
from perceptronlab.teach.task import MAX_DRAWS, ExamTask, exact_points, three_parts

#: the rounds of the stream
ROUNDS = 5


def online_task(rng: random.Random, seed: int) -> ExamTask:
    for _ in range(MAX_DRAWS):
        drawn = q.draw_points(rng, ROUNDS)
        if drawn is None:
            continue
        X, y = drawn
        if not perceptron(X, y, exact=True, max_sweeps=20, warn=False).converged:
            continue  # separable, so that (b) has a bound
        one_pass = perceptron(X, y, exact=True, trace=True, max_sweeps=1, warn=False)
        assert one_pass.steps is not None  # traced
        if not 2 <= one_pass.mistakes <= 4 or all(s.score != 0 for s in one_pass.steps[1:]):
            continue  # a few mistakes, and one tie after the first round
        return online_from(X, y, seed)
    raise RuntimeError(f"no online task found for seed {seed}")  # pragma: no cover


def _prediction(inner: Fraction) -> str:
    return "+1" if inner > 0 else "-1" if inner < 0 else "none (0: a tie)"


def online_from(X, y, seed: int) -> ExamTask:
    run = perceptron(X, y, exact=True, trace=True, max_sweeps=1, warn=False)
    assert run.steps is not None  # traced
    steps = run.steps[:ROUNDS]
    answers = _online_answers(X, y, steps)
    w_star, first = answers["w_star"], answers["first_mistake"]
    data = dict(X=exact_points(X), y=list(y), w_star=w_star)
    stream = ", ".join(f"$x_{{{k + 1}}}={t.tex_vec(x)}$" for k, x in enumerate(X))
    labels = ", ".join(f"$y_{{{k + 1}}}={'+1' if s > 0 else '-1'}$" for k, s in enumerate(y))
    intro = [
        (
            "p",
            f"Online, one pass, no offset: at round $t$ the learner sees $x_t$, predicts the sign of "
            f"$\\langle w_t,x_t\\rangle$ (0 predicts nothing and counts as a mistake), and only then sees "
            f"$y_t$; on a mistake $w_{{t+1}}=w_t+y_t x_t$. It starts at $w_1=(0,0)$. The stream: {stream}; "
            f"the labels, revealed one by one: {labels}.",
        )
    ]
    questions = (
        "For each round give $\\langle w_t,x_t\\rangle$, the prediction, whether it is a mistake, and the "
        "new $w$ after a mistake.",
        f"How many mistakes were made? $w^*={t.tex_vec(w_star)}$ separates the points: what bound holds "
        "for any stream of them?",
        f"A student reads $y_{{{first + 1}}}$ first and updates before predicting. Which score "
        f"$y\\langle w,x\\rangle$ would they write at round {first + 1}, and why is that not allowed?",
    )
    parts = three_parts((2, 1, 1), questions, _online_solutions(X, steps, answers))
    return ExamTask("online", seed, "the online protocol", intro, parts, data, answers, run=run)


def _online_answers(X, y, steps) -> dict:
    """The key: each round's ⟨w_t, x_t⟩ before the label, the predictions and mistakes, the bound of
    the best small separator and the score of the slip that updates before predicting."""
    inners = [label * s.score for s, label in zip(steps, y, strict=True)]  # ⟨w_t, x_t⟩
    mistakes = [s.mistake for s in steps]
    w_star, rho2 = best_small_separator(X, y)
    R2 = q.radius2(X)
    first = mistakes.index(True)
    return dict(
        inners=inners,
        predictions=[_prediction(v) for v in inners],
        mistakes=mistakes,
        total=sum(mistakes),
        final_w=tuple(steps[-1].w),
        before=[tuple(Fraction(0) for _ in X[0])] + [tuple(s.w) for s in steps[:-1]],
        w_star=w_star,
        R2=R2,
        rho2=rho2,
        bound=R2 / rho2,
        first_mistake=first,
        # the online slip: the label read first and w updated before the prediction
        early_score=steps[first].score + q.norm2(X[first]),
    )


def _online_solutions(X, steps, answers: dict) -> tuple:
    """The worked solutions of (a), (b) and (c)."""
    inners, mistakes, first = answers["inners"], answers["mistakes"], answers["first_mistake"]
    rounds = "; ".join(
        f"$t={k + 1}$: $\\langle w,x\\rangle={t.tex_num(inners[k])}$, prediction {answers['predictions'][k]}, "
        f"{'mistake, $w=' + t.tex_vec(steps[k].w) + '$' if mistakes[k] else 'correct'}"
        for k in range(ROUNDS)
    )
    solution_b = [
        (
            "p",
            f"{sum(mistakes)} mistakes. $R^2={t.tex_num(answers['R2'])}$, and "
            f"$w^*={t.tex_vec(answers['w_star'])}$ has $\\rho^2={t.tex_num(answers['rho2'])}$, so no "
            "stream of these points can cause more than "
            f"$R^2/\\rho^2={t.tex_exact(answers['bound'])}$ "
            "mistakes, in any order and however long. (1 point)",
        )
    ]
    solution_c = [
        (
            "p",
            f"At round {first + 1} the update first would give "
            f"$y\\langle w+yx,x\\rangle=y\\langle w,x\\rangle+\\|x\\|^2={t.tex_num(steps[first].score)}+"
            f"{t.tex_num(q.norm2(X[first]))}={t.tex_num(answers['early_score'])}$: the learner would look "
            "right because it used the answer. Predicting after the label is not a prediction; the "
            "mistake bound counts predictions made before $y_t$. (1 point)",
        )
    ]
    return [("p", f"{rounds}. (2 points)")], solution_b, solution_c
