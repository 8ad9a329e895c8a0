"""The "margin-perceptron" task: the exercise sheet's margin perceptron (4 points): it updates while
y⟨w,x⟩ ≤ ρ₀, and its number of updates is at most (R² + 2ρ₀)/ρ²."""

from __future__ import annotations

import random
from fractions import Fraction

from perceptronlab.core.perceptron import perceptron
from perceptronlab.core.run import Run
from perceptronlab.teach import quantities as q
from perceptronlab.teach import tex as t
from perceptronlab.teach.kinds.trace import best_small_separator
from perceptronlab.teach.task import HALVES_GRADING, MAX_DRAWS, ExamTask, exact_points, three_parts


def margin_perceptron_task(rng: random.Random, seed: int) -> ExamTask:
    X, y, rho0, _ = margin_perceptron_draw(rng, seed)
    return margin_perceptron_from(X, y, rho0, seed)


def margin_perceptron_draw(rng: random.Random, seed: int) -> tuple[list, list, Fraction, Run]:
    """The task's points, labels and ρ₀ with the margin rule's run, by seeded rejection sampling."""
    for _ in range(MAX_DRAWS):
        drawn = q.draw_points(rng, 3)
        if drawn is None:
            continue
        X, y = drawn
        rho0 = Fraction(rng.choice((1, 2)))
        if not q.quick_run(X, y, 20)[0]:
            continue  # not separable within reach: the plain run below would refuse it
        run = perceptron(X, y, margin=rho0, exact=True, trace=True, max_sweeps=6, warn=False)
        assert run.steps is not None  # traced
        if not run.converged or not 2 <= run.sweeps <= 5 or len(run.steps) > 15:
            continue
        plain = perceptron(X, y, exact=True, max_sweeps=20, warn=False)
        if not plain.converged or plain.mistakes >= run.mistakes:
            continue  # the margin rule should update more than the plain one
        if q.margin2(run.w, X, y) == q.margin2(plain.w, X, y):
            continue  # (c) compares two different margins
        return X, y, rho0, run
    raise RuntimeError(f"no margin-perceptron task found for seed {seed}")  # pragma: no cover


def margin_perceptron_from(X, y, rho0: Fraction, seed: int) -> ExamTask:
    run = perceptron(X, y, margin=rho0, exact=True, trace=True, max_sweeps=20, warn=False)
    plain = perceptron(X, y, exact=True, max_sweeps=20, warn=False)
    answers = _margin_perceptron_answers(X, y, rho0, run, plain)
    w_star = answers["w_star"]
    data = dict(X=exact_points(X), y=list(y), rho0=rho0, w_star=w_star)
    intro = [
        (
            "p",
            f"Points in $\\mathbb{{R}}^2$, no offset: {t.data_text(X, y)}. The margin perceptron starts at "
            f"$w=(0,0)$, sweeps in the order $x_1,x_2,x_3$ and sets $w\\leftarrow w+y_i x_i$ whenever "
            f"$y_i\\langle w,x_i\\rangle\\le\\rho_0$ with $\\rho_0={t.tex_num(rho0)}$, until a sweep makes no "
            "update.",
        )
    ]
    questions = (
        "Carry out the run: for each step give $y_i\\langle w,x_i\\rangle$, whether it updates, and $w$ "
        "afterwards.",
        f"$w^*={t.tex_vec(w_star)}$ separates the data. Compute $R^2$, $\\rho^2$ of $w^*$ and the bound "
        "$(R^2+2\\rho_0)/\\rho^2$ on the number of updates. Is your run consistent with it?",
        "The plain perceptron ($\\rho_0=0$) on the same points: how many updates, which final $w$? "
        "Which final $w$ has the larger margin?",
    )
    solutions = _margin_perceptron_solutions(rho0, run, plain, answers)
    parts = three_parts((2, 1, 1), questions, solutions, HALVES_GRADING)
    return ExamTask(
        "margin-perceptron", seed, "the margin perceptron", intro, parts, data, answers, run=run
    )


def _margin_perceptron_answers(X, y, rho0: Fraction, run: Run, plain: Run) -> dict:
    """The key: the margin run, the bound (R² + 2ρ₀)/ρ² of the best small separator and both
    runs' margins."""
    w_star, rho2 = best_small_separator(X, y)
    R2 = q.radius2(X)
    bound = (R2 + 2 * rho0) / rho2
    if bound < run.mistakes:  # pragma: no cover - the theorem
        raise AssertionError("the margin perceptron's bound failed")
    return dict(
        mistakes=run.mistakes,
        sweeps=run.sweeps,
        final_w=tuple(run.w),
        worksheet=run.worksheet_rows(),
        w_star=w_star,
        R2=R2,
        rho2=rho2,
        bound=bound,
        plain_mistakes=plain.mistakes,
        plain_w=tuple(plain.w),
        rho2_margin=q.margin2(run.w, X, y),
        rho2_plain=q.margin2(plain.w, X, y),
    )


def _margin_perceptron_solutions(rho0: Fraction, run: Run, plain: Run, answers: dict) -> tuple:
    """The worked solutions of (a), (b) and (c)."""
    R2, rho2, bound = answers["R2"], answers["rho2"], answers["bound"]
    rho2_margin, rho2_plain = answers["rho2_margin"], answers["rho2_plain"]
    better = "the margin perceptron's" if rho2_margin > rho2_plain else "the plain perceptron's"
    solution_a = [
        ("table", run),
        (
            "p",
            f"{run.mistakes} updates, final $w={t.tex_vec(run.w)}$: every point now has "
            f"$y_i\\langle w,x_i\\rangle>{t.tex_num(rho0)}$.",
        ),
    ]
    solution_b = [
        (
            "p",
            f"$R^2={t.tex_num(R2)}$; $w^*={t.tex_vec(answers['w_star'])}$ has $\\rho^2={t.tex_num(rho2)}$. "
            f"Bound $(R^2+2\\rho_0)/\\rho^2=({t.tex_num(R2)}+{t.tex_num(2 * rho0)})/{t.paren(rho2)}"
            f"={t.tex_exact(bound)}\\ge {run.mistakes}$ "
            "✓. With $\\rho_0=0$ it is Novikoff's $R^2/\\rho^2$. (1 point)",
        )
    ]
    solution_c = [
        (
            "p",
            f"The plain perceptron makes {plain.mistakes} updates and stops at "
            f"$w={t.tex_vec(plain.w)}$ with $\\rho^2={t.tex_num(rho2_plain)}$; the margin perceptron's "
            f"$w$ has $\\rho^2={t.tex_num(rho2_margin)}$. Larger margin: {better}. The extra updates buy "
            "every point a functional margin above $\\rho_0$. (1 point)",
        )
    ]
    return solution_a, solution_b, solution_c
