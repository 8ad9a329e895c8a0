"""The "eta" task: η-invariance (4 points): from w = 0 the learning rate only scales w, and it stops
doing so once the rule has a margin ρ₀ > 0."""

from __future__ import annotations

import random
from fractions import Fraction

from perceptronlab.core.perceptron import perceptron
from perceptronlab.teach import tex as t
from perceptronlab.teach.quantities import draw_points, quick_run
from perceptronlab.teach.task import HALVES_GRADING, MAX_DRAWS, ExamTask, exact_points, three_parts

ETAS = (Fraction(1, 2), Fraction(2), Fraction(3))


def eta_task(rng: random.Random, seed: int) -> ExamTask:
    X, y, eta, _ = eta_draw(rng, seed)
    return eta_from(X, y, eta, seed)


def eta_draw(rng: random.Random, seed: int) -> tuple[list, list, Fraction, int]:
    """The task's points, labels and η, and the run's mistakes, by seeded rejection sampling (an
    integer pre-check of the η = 1 run, the same signs by η-invariance, skips most draws fast)."""
    for _ in range(MAX_DRAWS):
        drawn = draw_points(rng, 3)
        if drawn is None:
            continue
        X, y = drawn
        eta = rng.choice(ETAS)
        converged, sweeps, mistakes, scores = quick_run(X, y, 5)
        if not converged or not 2 <= sweeps <= 4 or mistakes < 3 or len(scores) > 12:
            continue
        run = perceptron(X, y, eta=eta, exact=True, trace=True, max_sweeps=5, warn=False)
        assert run.steps is not None  # traced
        if not run.converged or not 2 <= run.sweeps <= 4 or run.mistakes < 3 or len(run.steps) > 12:
            continue  # pragma: no cover - the pre-check agrees
        with_margin = perceptron(X, y, eta=eta, margin=1, exact=True, max_sweeps=50, warn=False)
        unit_margin = perceptron(X, y, margin=1, exact=True, max_sweeps=50, warn=False)
        if (
            not (with_margin.converged and unit_margin.converged)
            or with_margin.mistakes == unit_margin.mistakes
        ):
            continue  # (c) needs the margin rule to depend on eta
        return X, y, eta, run.mistakes
    raise RuntimeError(f"no eta task found for seed {seed}")  # pragma: no cover


def eta_from(X, y, eta: Fraction, seed: int) -> ExamTask:
    run = perceptron(X, y, eta=eta, exact=True, trace=True, max_sweeps=20, warn=False)
    unit = perceptron(X, y, exact=True, trace=True, max_sweeps=20, warn=False)
    assert run.steps is not None and unit.steps is not None  # traced
    with_margin = perceptron(X, y, eta=eta, margin=1, exact=True, max_sweeps=50, warn=False)
    unit_margin = perceptron(X, y, margin=1, exact=True, max_sweeps=50, warn=False)
    answers = dict(
        mistakes=run.mistakes,
        final_w=tuple(run.w),
        worksheet=run.worksheet_rows(),
        unit_mistakes=unit.mistakes,
        unit_w=tuple(unit.w),
        margin_mistakes=with_margin.mistakes,
        margin_w=tuple(with_margin.w),
        unit_margin_mistakes=unit_margin.mistakes,
        unit_margin_w=tuple(unit_margin.w),
    )
    data = dict(X=exact_points(X), y=list(y), eta=eta)
    intro = [
        (
            "p",
            f"Points in $\\mathbb{{R}}^2$, no offset: {t.data_text(X, y)}. The perceptron starts at "
            f"$w=(0,0)$, sweeps in the order $x_1,x_2,x_3$ and on $y_i\\langle w,x_i\\rangle\\le 0$ sets "
            f"$w\\leftarrow w+\\eta y_i x_i$ with $\\eta={t.tex_num(eta)}$, until a sweep makes no update.",
        )
    ]
    solution_a = [
        ("table", run),
        ("p", f"{run.mistakes} mistakes, final $w={t.tex_vec(run.w)}$. (2 points)"),
    ]
    solution_b = [
        (
            "p",
            f"With $\\eta=1$: again {unit.mistakes} mistakes, final $w={t.tex_vec(unit.w)}$, and "
            f"${t.tex_vec(run.w)}={t.tex_num(eta)}\\cdot{t.tex_vec(unit.w)}$. By induction "
            "$w_t^{(\\eta)}=\\eta w_t^{(1)}$: true at $w_0=0$, and an update adds $\\eta y x$ exactly when "
            "$y\\langle\\eta w,x\\rangle\\le 0$, i.e. when $y\\langle w,x\\rangle\\le 0$. (1 point)",
        )
    ]
    solution_c = [
        (
            "p",
            f"With $\\rho_0=1$: $\\eta={t.tex_num(eta)}$ makes {with_margin.mistakes} updates (final "
            f"$w={t.tex_vec(with_margin.w)}$), $\\eta=1$ makes {unit_margin.mistakes} (final "
            f"$w={t.tex_vec(unit_margin.w)}$). The test $y\\langle w,x\\rangle\\le\\rho_0$ compares a "
            "scaled score with a fixed number, so the scaling argument breaks: the learning rate matters "
            "for the margin perceptron. (1 point)",
        )
    ]
    questions = (
        "Carry out the run: for each step give $y_i\\langle w,x_i\\rangle$, whether it is a mistake, "
        "and $w$ afterwards.",
        "Without a new table: what do the mistakes and the final $w$ of the run with $\\eta=1$ look "
        "like? Prove it.",
        f"Now update while $y_i\\langle w,x_i\\rangle\\le\\rho_0=1$ (the margin perceptron). Run it "
        f"with $\\eta={t.tex_num(eta)}$ and with $\\eta=1$. Does the learning rate still not matter?",
    )
    parts = three_parts((2, 1, 1), questions, (solution_a, solution_b, solution_c), HALVES_GRADING)
    return ExamTask("eta", seed, "the learning rate", intro, parts, data, answers, run=run)
