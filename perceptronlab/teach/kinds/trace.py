"""The "trace" task: the perceptron by hand (4 points), after the lecture notes "Perceptron Mistake Bound"."""

from __future__ import annotations

import math
import random
from fractions import Fraction

from perceptronlab._ground.numbers import parse_exact
from perceptronlab.core.perceptron import perceptron
from perceptronlab.core.run import Run
from perceptronlab.teach import quantities as q
from perceptronlab.teach import tex as t
from perceptronlab.teach.task import GRID_ROWS, MAX_DRAWS, ExamTask, exact_points, three_parts


def trace_task(rng: random.Random, seed: int) -> ExamTask:
    X, y, run, ties = trace_draw(rng, seed)
    return trace_from(X, y, run, ties, rng, seed)


def trace_draw(rng: random.Random, seed: int) -> tuple[list, list, Run, list]:
    """The task's data and its traced exact run (``X, y, run, ties``): :func:`trace_data`'s draw,
    run by the engine."""
    X, y, shape = trace_data(rng, seed)
    run = perceptron(X, y, exact=True, trace=True, max_sweeps=6, warn=False)
    assert run.steps is not None  # traced
    if [s.score for s in run.steps] != shape["scores"] or run.mistakes != shape["mistakes"]:
        raise AssertionError("the integer pre-check disagrees with the engine")  # pragma: no cover
    return X, y, run, [s for s in run.steps[1:] if s.score == 0]


def trace_data(rng: random.Random, seed: int) -> tuple[list, list, dict]:
    """The task's points and labels, drawn by seeded rejection sampling, with the shape of their
    run (``mistakes``, ``sweeps``, ``scores``): separable, 2 to 5 sweeps (the clean one included),
    at least 3 mistakes, at most 16 worksheet steps and a tie y⟨w,x⟩ = 0 after the first step.
    :func:`trace_task` continues from here with the same ``rng``, so a class reads a seed's
    difficulty from this draw alone (:func:`perceptronlab.teach.difficulty.seed_profile`)."""
    for _ in range(MAX_DRAWS):
        n = rng.choice((3, 3, 3, 4))
        X = [(rng.randint(-2, 2), rng.randint(-2, 2)) for _ in range(n)]
        if len(set(X)) < n or (0, 0) in X:
            continue
        y = [rng.choice((-1, 1)) for _ in range(n)]
        if len(set(y)) < 2:
            continue
        converged, sweeps, mistakes, scores = q.quick_run(X, y, 6)
        if not converged or not 2 <= sweeps <= 5 or mistakes < 3 or len(scores) > 16:
            continue
        if 0 in scores[1:]:
            return X, y, {"mistakes": mistakes, "sweeps": sweeps, "scores": scores}
    raise RuntimeError(
        f"no trace task found for seed {seed} within {MAX_DRAWS} draws"
    )  # pragma: no cover


def best_small_separator(X, y) -> tuple[tuple[int, int], Fraction]:
    """The integer w with entries in −3…3 of the largest margin (ties: smallest ‖w‖², then first)."""
    best = None
    for a in range(-3, 4):
        for b in range(-3, 4):
            if (a, b) == (0, 0) or math.gcd(a, b) != 1:
                continue
            plain = [label * (a * x[0] + b * x[1]) for x, label in zip(X, y, strict=True)]
            if min(plain) <= 0:
                continue  # (a, b) does not separate: plain integers suffice to skip it
            key = (-Fraction(min(plain) ** 2, a * a + b * b), a * a + b * b)
            if best is None or key < best[0]:
                best = (key, (a, b))
    if best is None:  # pragma: no cover - the run converged, so its w separates
        raise RuntimeError("no small integer separator")
    return best[1], q.margin2(best[1], X, y)  # the chosen w's margin by the theory toolkit


def trace_from(
    X, y, run: Run, ties, rng: random.Random, seed: int, *, w_star=None, eta=None
) -> ExamTask:
    """The trace task for data whose run is known; ``w_star``/``eta`` default to the best small
    integer separator and a seeded choice among 2, 3 and 1/2 (the lecture notes use w* = (1, −2), η = 2)."""
    answers = _trace_answers(X, y, run, ties, rng, w_star, eta)
    w_star, eta = answers["w_star"], answers["eta"]
    data = dict(X=exact_points(X), y=list(y), w_star=w_star, eta=eta)
    names = ",".join(f"x_{{{i + 1}}}" for i in range(len(X)))
    intro = [
        (
            "p",
            f"Points in $\\mathbb{{R}}^2$, no offset: {t.data_text(X, y)}. Start with $w=(0,0)$, "
            f"sweep in the order ${names}$ and repeat until a full sweep makes no update. Count "
            "$y_i\\langle w,x_i\\rangle\\le 0$ as a mistake; on a mistake set "
            "$w\\leftarrow w+y_i x_i$.",
        )
    ]
    half = run.sweeps // 2
    grading_a = (
        f"(2 points: 1 point for {t.sweeps_text(1, half)}, 1 point for {t.sweeps_text(half + 1, run.sweeps)} "
        "and the stop)"
    )
    questions = (
        [
            (
                "p",
                "Carry out the run: for each step give $y_i\\langle w,x_i\\rangle$, whether it is a "
                "mistake, and $w$ afterwards (one row per step; the last, clean sweep in one row "
                "that ends with stop).",
            ),
            ("grid", GRID_ROWS),
        ],
        f"$w^*={t.tex_vec(w_star)}$ separates the data. Compute $R$, the margin $\\rho$ of $w^*$ "
        "and the mistake bound. Is your run consistent with it?",
        f"Run the update $w\\leftarrow w+\\eta y_i x_i$ with $\\eta={t.tex_num(eta)}$ instead. How "
        "many mistakes are made, and what is the final $w$?",
    )
    solutions = (_trace_solution_a(run, ties), _bound_solution(X, answers), _eta_solution(answers))
    parts = three_parts((2, 1, 1), questions, solutions, grading_a)
    return ExamTask("trace", seed, "the perceptron by hand", intro, parts, data, answers, run=run)


def _trace_answers(X, y, run: Run, ties, rng: random.Random, w_star, eta) -> dict:
    """The trace task's key: the run, the bound of ``w_star`` and the run with learning rate ``eta``
    (each drawn when ``None``; ``rng`` draws η after w* is fixed)."""
    if w_star is None:
        w_star, rho2 = best_small_separator(X, y)
    else:
        w_star, rho2 = tuple(w_star), q.margin2(w_star, X, y)
    R2 = q.radius2(X)
    eta = (
        rng.choice((Fraction(2), Fraction(3), Fraction(1, 2)))
        if eta is None
        else parse_exact(eta, "eta (the learning rate)")
    )
    run_eta = perceptron(X, y, eta=eta, exact=True, max_sweeps=6, warn=False)
    if run_eta.mistakes != run.mistakes or list(run_eta.w) != [eta * c for c in run.w]:
        raise AssertionError(
            "eta-invariance failed: the engine disagrees with the learning-rate task (c) "
            "of the lecture notes “Perceptron Mistake Bound”"
        )  # pragma: no cover
    return dict(
        mistakes=run.mistakes,
        sweeps=run.sweeps,
        converged=run.converged,
        final_w=tuple(run.w),
        worksheet=run.worksheet_rows(),
        ties=[(s.sweep, s.index) for s in ties],
        w_star=w_star,
        star_scores=q.scores(w_star, X, y),
        R2=R2,
        rho2=rho2,
        bound=q.novikoff(R2, rho2),
        eta=eta,
        mistakes_eta=run_eta.mistakes,
        final_w_eta=tuple(run_eta.w),
    )


def _trace_solution_a(run: Run, ties) -> list:
    """(a): the worked worksheet, the count and the ties, named by sweep."""
    by_sweep: dict[int, list[str]] = {}
    for s in ties:
        by_sweep.setdefault(s.sweep, []).append(f"$x_{{{s.index + 1}}}$")
    tie_text = t.join(
        [f"at {t.join(points)} in sweep {sweep}" for sweep, points in by_sweep.items()]
    )
    return [
        ("table", run),
        (
            "p",
            f"{run.mistakes} mistakes, final $w={t.tex_vec(run.w)}$. Watch the "
            f"tie{'s' if len(ties) > 1 else ''}: {tie_text}, $y\\langle w,x\\rangle=0$ counts as a "
            "mistake.",
        ),
    ]


def _bound_solution(X, answers: dict) -> list:
    """(b): R, the margin of w* and Novikoff's bound against the run's mistakes."""
    R2, rho2, bound, mistakes = (
        answers["R2"],
        answers["rho2"],
        answers["bound"],
        answers["mistakes"],
    )
    star_scores = answers["star_scores"]
    R_index = max(range(len(X)), key=lambda i: (q.norm2(X[i]), -i))
    w2 = q.norm2(answers["w_star"])
    consistent = "✓" if bound >= mistakes else "✗ (impossible: Novikoff's theorem)"
    return [
        (
            "p",
            f"$R=\\max_i\\|x_i\\|=\\|x_{{{R_index + 1}}}\\|={t.tex_sqrt(R2)}$. With "
            f"$\\|w^*\\|={t.tex_sqrt(w2)}$: $y_i\\langle w^*,x_i\\rangle={t.tex_list(star_scores)}$, so "
            f"$\\rho{t.ratio_text(min(star_scores), w2)}$, $\\rho^2={t.tex_num(rho2)}$. Bound "
            f"$R^2/\\rho^2={t.tex_num(R2)}/{t.paren(rho2)}={t.tex_exact(bound)}"
            f"\\ge {mistakes}$ {consistent}. (1 point)",
        )
    ]


def _eta_solution(answers: dict) -> list:
    """(c): the run with η ≠ 1, the same signs by η-invariance."""
    return [
        (
            "p",
            f"With $w_0=0$, every $w_t$ is exactly $\\eta$ times the $w_t$ of the run with "
            "$\\eta=1$, so all signs $y_i\\langle w,x_i\\rangle$ are the same: again "
            f"{answers['mistakes_eta']} mistakes, final $w={t.tex_vec(answers['final_w_eta'])}$. The "
            "learning rate does not matter for the perceptron started at 0. (1 point)",
        )
    ]
