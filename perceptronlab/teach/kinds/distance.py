"""The "distance" task: the distance of a point to a hyperplane and the margin of a given w (4 points)."""

from __future__ import annotations

import math
import random
from fractions import Fraction

from perceptronlab.teach import quantities as q
from perceptronlab.teach import tex as t
from perceptronlab.teach.task import MAX_DRAWS, ExamTask, exact_points, three_parts

#: normal vectors with small entries and an integer length: every distance is a fraction
NORMALS = tuple(
    (a, b)
    for a in range(-4, 5)
    for b in range(-4, 5)
    if (a, b) != (0, 0) and math.isqrt(a * a + b * b) ** 2 == a * a + b * b and abs(a) + abs(b) > 1
)


def distance_task(rng: random.Random, seed: int) -> ExamTask:
    for _ in range(MAX_DRAWS):
        w = rng.choice(NORMALS)
        X = [(rng.randint(-3, 3), rng.randint(-3, 3)) for _ in range(4)]
        if len(set(X)) < 4 or (0, 0) in X:
            continue
        raw = q.scores(w, X, [1] * 4)
        if 0 in raw:
            continue
        y = [1 if s > 0 else -1 for s in raw]
        scores = q.scores(w, X, y)
        if len(set(y)) < 2 or scores.count(min(scores)) > 1 or y[0] != -1:
            continue  # both labels, one closest point, x1 labelled -1 (the label matters in (a))
        return distance_from(w, X, y, rng.choice((2, 3, 5)), seed)
    raise RuntimeError(f"no distance task found for seed {seed}")  # pragma: no cover


def distance_from(w, X, y, factor: int, seed: int) -> ExamTask:
    """The task for a normal vector ``w`` that separates ``(X, y)``, and w scaled by ``factor`` in (c)."""
    norm = t.exact_sqrt(q.norm2(w))
    scores = q.scores(w, X, y)
    distances = [s / norm for s in scores]
    closest = distances.index(min(distances))
    inner1 = y[0] * scores[0]  # ⟨w, x1⟩ without the label
    answers = dict(
        norm=norm,
        scores=scores,
        distances=distances,
        rho=distances[closest],
        closest=closest,
        scaled_scores=[factor * s for s in scores],
        rho_scaled=distances[closest],
    )
    data = dict(X=exact_points(X), y=list(y), w=tuple(w), factor=factor)
    intro = [
        (
            "p",
            f"The hyperplane $H_w=\\{{x:\\langle w,x\\rangle=0\\}}$ has normal vector $w={t.tex_vec(w)}$. "
            f"Labelled points: {t.data_text(X, y)}.",
        )
    ]
    listing = ", ".join(f"{t.tex_num(d)}" for d in distances)
    solution_a = [
        (
            "p",
            f"$\\|w\\|={t.tex_num(norm)}$ and $\\langle w,x_1\\rangle={t.tex_num(inner1)}$, so "
            f"$y_1\\langle w,x_1\\rangle/\\|w\\|=({t.tex_num(y[0])})({t.tex_num(inner1)})/{t.tex_num(norm)}"
            f"={t.tex_num(distances[0])}$. (Forgetting $\\|w\\|$ gives {t.tex_num(scores[0])}, "
            f"forgetting the label gives ${t.tex_num(inner1 / norm)}$, and "
            f"$\\|x_1\\|={t.tex_sqrt(q.norm2(X[0]))}$ is the distance to the origin.) (1 point)",
        )
    ]
    solution_b = [
        (
            "p",
            f"The signed distances $y_i\\langle w,x_i\\rangle/\\|w\\|$ are ${listing}$: all positive, so "
            f"$w$ separates the points, and the margin is the smallest, "
            f"$\\rho={t.tex_num(distances[closest])}$, attained at $x_{{{closest + 1}}}$. (1.5 points)",
        )
    ]
    solution_c = [
        (
            "p",
            f"With ${factor}w$ every $y_i\\langle w,x_i\\rangle$ is multiplied by {factor} (now "
            f"${t.tex_list(answers['scaled_scores'])}$), but so is $\\|w\\|$: the distances and the margin "
            f"$\\rho={t.tex_num(distances[closest])}$ do not change. That is why the margin divides by "
            "$\\|w\\|$: it belongs to the hyperplane, not to the length of its normal vector. (1.5 points)",
        )
    ]
    questions = (
        "Compute the signed distance $y_1\\langle w,x_1\\rangle/\\|w\\|$ of $x_1$ to $H_w$.",
        "Does $w$ separate the points? Compute the margin $\\rho$ of $w$ and name the point that "
        "attains it.",
        f"Replace $w$ by ${factor}w$. Which numbers of (a) and (b) change, and which do not? Why is the "
        "margin defined with $\\|w\\|$?",
    )
    parts = three_parts(
        (1, Fraction(3, 2), Fraction(3, 2)), questions, (solution_a, solution_b, solution_c)
    )
    return ExamTask("distance", seed, "distance and margin", intro, parts, data, answers)
