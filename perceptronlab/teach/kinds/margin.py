"""The "margin" task: margin and mistake bound (4 points)."""

from __future__ import annotations

import random
from fractions import Fraction

from perceptronlab.teach import quantities as q
from perceptronlab.teach import tex as t
from perceptronlab.teach.task import MAX_DRAWS, ExamTask, exact_points, three_parts


def margin_task(rng: random.Random, seed: int) -> ExamTask:
    grid = [(a, b) for a in range(-2, 3) for b in range(-2, 3) if (a, b) != (0, 0)]
    far = [(a, b) for a in range(-5, 6) for b in range(-5, 6)]
    for _ in range(MAX_DRAWS):
        X = [(rng.randint(-3, 3), rng.randint(-3, 3)) for _ in range(4)]
        y = [1, 1, -1, -1]
        if len(set(X)) < 4 or (0, 0) in X:
            continue
        separating = [w for w in grid if min(q.scores(w, X, y)) > 0]
        if len(separating) < 2:
            continue
        w_a, w_b = rng.sample(separating, 2)
        if w_a[0] * w_b[1] == w_a[1] * w_b[0]:
            continue  # parallel candidates have the same margin
        rho2 = {"A": q.margin2(w_a, X, y), "B": q.margin2(w_b, X, y)}
        if rho2["A"] == rho2["B"]:
            continue
        better = "A" if rho2["A"] > rho2["B"] else "B"
        w_best = w_a if better == "A" else w_b
        R2 = q.radius2(X)
        y5 = rng.choice((1, 1, -1))
        candidates = []
        for x5 in far:
            score5 = q.scores(w_best, [x5], [y5])[0]
            if x5 in X or score5 <= 0 or q.norm2(x5) <= R2:
                continue  # x5 must stay separated and lie outside the ball of radius R
            rho2_new = score5 * score5 / q.norm2(w_best)
            if rho2_new < rho2[better] and q.norm2(x5) / rho2_new >= 3 * (R2 / rho2[better]):
                candidates.append(x5)
        if not candidates:
            continue
        x5 = rng.choice(candidates)
        return margin_from(X, y, w_a, w_b, x5, y5, seed)
    raise RuntimeError(
        f"no margin task found for seed {seed} within {MAX_DRAWS} draws"
    )  # pragma: no cover


def margin_from(X, y, w_a, w_b, x5, y5, seed) -> ExamTask:
    """The margin task for four points, two separating candidates and the extra point (x5, y5)."""
    w = {"A": w_a, "B": w_b}
    answers = _margin_answers(X, y, w, x5, y5)
    better, worse = answers["better"], answers["worse"]
    data = dict(X=exact_points(X), y=list(y), w_A=w_a, w_B=w_b, x5=x5, y5=y5)
    intro = [
        (
            "p",
            f"Training data: $x_1={t.tex_vec(X[0])}$ and $x_2={t.tex_vec(X[1])}$ with label $+1$, "
            f"$x_3={t.tex_vec(X[2])}$ and $x_4={t.tex_vec(X[3])}$ with label $-1$. Two candidate normal "
            f"vectors: $w_A={t.tex_vec(w_a)}$ and $w_B={t.tex_vec(w_b)}$.",
        )
    ]
    label5 = "+1" if y5 > 0 else "-1"
    questions = (
        "Compute the margin of $w_A$ and of $w_B$ on the data.",
        "Compute $R$ and the best mistake bound you can derive from $w_A$ or $w_B$.",
        f"A new point $x_5={t.tex_vec(x5)}$ with label ${label5}$ is added. Is the data still "
        f"separated by $w_{better}$? What happens to the bound, and why can a single point make "
        "it much worse?",
    )
    R_index = max(range(4), key=lambda i: (q.norm2(X[i]), -i))
    R2, rho2 = answers["R2"], answers["rho2"]
    solution_a = [
        ("p", f"{_margin_sentence(w, answers, 'A')} {_margin_sentence(w, answers, 'B')} (1 point)")
    ]
    solution_b = [
        (
            "p",
            f"$R=\\max\\|x_i\\|=\\|x_{{{R_index + 1}}}\\|={t.tex_sqrt(R2)}$. The larger margin gives "
            f"the better bound: $R^2/\\rho_{better}^2={_bound_text(R2, rho2[better])}$ mistakes. "
            f"(With $w_{worse}$: ${_bound_text(R2, rho2[worse])}$.) (1.5 points)",
        )
    ]
    solution_c = _new_point_solution(w[better], better, answers)
    parts = three_parts(
        (1, Fraction(3, 2), Fraction(3, 2)), questions, (solution_a, solution_b, solution_c)
    )
    return ExamTask("margin", seed, "margin and mistake bound", intro, parts, data, answers)


def _margin_answers(X, y, w: dict, x5, y5) -> dict:
    """The margin task's key: both candidates' scores, margins and bounds, and the better one's
    after the extra point (x5, y5)."""
    rho2 = {name: q.margin2(w[name], X, y) for name in "AB"}
    better = "A" if rho2["A"] > rho2["B"] else "B"
    R2 = q.radius2(X)
    bounds = {name: q.novikoff(R2, rho2[name]) for name in "AB"}
    rho2_new = q.margin2(w[better], list(X) + [x5], list(y) + [y5])
    R2_new = q.radius2(list(X) + [x5])
    return dict(
        scores={name: q.scores(w[name], X, y) for name in "AB"},
        rho2=rho2,
        better=better,
        worse="B" if better == "A" else "A",
        R2=R2,
        bounds=bounds,
        best_bound=bounds[better],
        score5=q.scores(w[better], [x5], [y5])[0],
        still_separated=True,
        rho2_new=rho2_new,
        R2_new=R2_new,
        bound_new=q.novikoff(R2_new, rho2_new),
    )


def _margin_sentence(w: dict, answers: dict, name: str) -> str:
    norm2 = q.norm2(w[name])
    scores = answers["scores"][name]
    return (
        f"$w_{name}$, $\\|w_{name}\\|={t.tex_sqrt(norm2)}$: $y_i\\langle w_{name},x_i\\rangle="
        f"{t.tex_list(scores)}$, so $\\rho_{name}{t.ratio_text(min(scores), norm2)}$, "
        f"$\\rho_{name}^2={t.tex_num(answers['rho2'][name])}$."
    )


def _bound_text(r2: Fraction, p2: Fraction) -> str:
    return f"{t.tex_num(r2)}/{t.paren(p2)}={t.tex_exact(r2 / p2)}"


def _new_point_solution(w_best, better: str, answers: dict) -> list:
    """(c): the extra point keeps the better w separating, shrinks its margin and grows R."""
    score5, rho2_new, R2_new = answers["score5"], answers["rho2_new"], answers["R2_new"]
    return [
        (
            "p",
            f"$y_5\\langle w_{better},x_5\\rangle={t.tex_num(score5)}>0$: still separated, but the "
            f"distance is only ${t.ratio_text(score5, q.norm2(w_best))[1:]}$, so $\\rho_{better}$ drops to "
            f"${t.sqrt_text(rho2_new)}$ ($\\rho_{better}^2={t.tex_num(rho2_new)}$). Also $R$ "
            f"grows to $\\|x_5\\|={t.tex_sqrt(R2_new)}$. The bound becomes "
            f"${_bound_text(R2_new, rho2_new)}$ instead of ${t.tex_exact(answers['best_bound'])}$. "
            "The bound depends on the worst point twice: through the largest norm and through the "
            "smallest distance. (1.5 points)",
        )
    ]
