"""Exam tasks with answer keys for the online-learning chapter: the Littlestone dimension of a small
class with its tree, and Halving, Weighted Majority or Winnow run by hand.

Kinds (:data:`ONLINE_KINDS`):

- ``"ldim"``: a class of a few hypotheses on four points, as a table; (a) its VC dimension with a
  shattered set, (b) its Littlestone dimension with a shattered tree drawn level by level, (c) the
  mistake bounds of Halving and SOA on it.
- ``"halving"``: the same kind of class, a sequence labelled by one of its hypotheses; (a) the
  Halving worksheet, (b) the mistakes against ⌊log₂|H|⌋.
- ``"weighted-majority"``: the experts of a small class with β = 1/2 on a sequence no expert gets
  all right; (a) the worksheet with the exact weights, (b) the mistakes against Littlestone and
  Warmuth's bound.
- ``"winnow"``: Winnow (demotion, α = 2, θ = n/2) on vectors labelled by a disjunction of two
  variables; (a) the worksheet with the exact weights, (b) the mistakes against Littlestone's bound.

The same kind and seed give the same task; every number of the key comes from
:mod:`perceptronlab.online` and :mod:`perceptronlab.bounds`. A task is an
:class:`~perceptronlab.teach.task.ExamTask` (with the worked worksheet as ``sheet``), so it renders
through the same renderers as the lecture notes' kinds: Markdown, LaTeX, Typst and PDF.

Examples
--------
>>> task = generate_online("ldim", seed=1)
>>> task.answers["ldim"] >= 2, task.answers["vc"] <= task.answers["ldim"] <= task.answers["halving_bound"]
(True, True)
>>> print(task.markdown().splitlines()[0])
### Exam-style task: the Littlestone dimension of a small class (6 points)
>>> print(task.typst().splitlines()[5])
= Exam-style task: the Littlestone dimension of a small class (6 points)
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from perceptronlab import bounds
from perceptronlab._ground import validation as v
from perceptronlab.online import FiniteClass, littlestone_dimension, vc_dimension
from perceptronlab.teach import tex as t
from perceptronlab.teach.online_sheets import OnlineSheet, online_sheet
from perceptronlab.teach.task import ExamTask, Part, required_seed

__all__ = ["ONLINE_KINDS", "OnlineExamTask", "generate_online"]

ONLINE_KINDS = ("ldim", "halving", "weighted-majority", "winnow")
#: the formats the command line writes for these tasks (the task itself renders every format of
#: :data:`perceptronlab.teach.task.FORMATS`, and a PDF)
ONLINE_FORMATS = ("md", "latex")
#: the most classes drawn in search of an interesting one
_MAX_DRAWS = 10_000


@dataclass
class OnlineExamTask(ExamTask):
    """A generated task of the online-learning chapter with its key: an :class:`ExamTask` whose
    parts carry their own labels ("(a) (2 points) ...").

    Attributes
    ----------
    sheet : the worked worksheet (``halving``, ``weighted-majority`` and ``winnow`` tasks).
    """

    sheet: OnlineSheet | None = field(default=None, repr=False)


def _part(letter: str, points: int, text: str, solution: list[Any], *more: Any) -> Part:
    """A part whose question (``text`` after its label "(a) (2 points)", then the blocks ``more``)
    and ``solution`` carry their own labels."""
    label = f"({letter}) ({t.points_text(Fraction(points))})"
    return Part("", Fraction(points), "", [("p", f"{label} {text}"), *more], solution)


def _sheet_rows(sheet: OnlineSheet) -> tuple[Any, ...]:
    """A worksheet as a block of text cells."""
    return ("rows", list(sheet.header), [list(row) for row in sheet.rows])


def _class_table(H: FiniteClass) -> tuple[Any, ...]:
    header = ["", *(f"x{x}" for x in range(H.n_points))]
    return "rows", header, [[f"h{h}", *(str(int(c)) for c in H.matrix[h])] for h in range(len(H))]


def _small_class(rng: random.Random, least_ldim: int) -> FiniteClass:
    for _ in range(_MAX_DRAWS):
        size = rng.randint(5, 7)
        rows = {tuple(rng.randint(0, 1) for _ in range(4)) for _ in range(size)}
        H = FiniteClass(sorted(rows))
        if len(H) >= 4 and littlestone_dimension(H).value >= least_ldim:
            return H
    raise AssertionError("no class found")  # pragma: no cover - most draws qualify


def generate_online(kind: str, seed: int) -> OnlineExamTask:
    """A new online-learning exam task of ``kind`` (one of :data:`ONLINE_KINDS`), the same for the same seed.

    Examples
    --------
    >>> task = generate_online("winnow", seed=0)
    >>> task.answers["mistakes"] <= task.answers["bound"]
    True
    >>> task.sheet.header[:3]
    ('round', 'x', 'score')
    """
    v.check_choice("kind", kind, ONLINE_KINDS)
    checked = required_seed(seed)
    rng = random.Random(f"perceptronlab-online-exam-{kind}-{checked}")
    if kind == "ldim":
        return _ldim_task(rng, checked)
    if kind == "winnow":
        return _winnow_task(rng, checked)
    return _run_task(kind, rng, checked)


def _ldim_task(rng: random.Random, seed: int) -> OnlineExamTask:
    H = _small_class(rng, 2)
    ldim, vc = littlestone_dimension(H), vc_dimension(H)
    halving = bounds.halving(len(H))
    intro = [
        (
            "p",
            f"The class H below has {len(H)} hypotheses on the points x0, …, x3 (rows: hypotheses, "
            "entries: labels).",
        ),
        _class_table(H),
    ]
    parts = _ldim_parts(H, ldim, vc, halving)
    answers = {
        "vc": vc.value,
        "shattered": vc.shattered,
        "ldim": ldim.value,
        "tree": ldim.tree.levels(),
        "halving_bound": halving,
    }
    title = "the Littlestone dimension of a small class"
    return OnlineExamTask("ldim", seed, title, intro, parts, {"matrix": H.matrix.tolist()}, answers)


def _ldim_parts(H: FiniteClass, ldim: Any, vc: Any, halving: int) -> list[Part]:
    """The ldim task's parts: (a) the VC dimension, (b) the Littlestone dimension with a shattered
    tree and its paths, (c) the mistake bounds of Halving and SOA."""
    paths = []
    for path in ldim.paths():
        realising = [h for h in range(len(H)) if all(H.matrix[h, x] == y for x, y in path)]
        paths.append([" → ".join(f"x{x} = {y}" for x, y in path), f"h{realising[0]}"])
    no_deeper = (
        f"No tree of depth {ldim.value + 1}: it would need 2^{ldim.value + 1} = {2 ** (ldim.value + 1)} "
        f"hypotheses, and H has {len(H)}."
        if len(H) < 2 ** (ldim.value + 1)
        else f"No tree of depth {ldim.value + 1}: no point splits H into two parts that each shatter a tree of "
        f"depth {ldim.value}."
    )
    vc_text = (
        f"(a) VCdim(H) = {vc.value}: H labels {{{', '.join(f'x{x}' for x in vc.shattered)}}} in all "
        f"{2**vc.value} ways" + (", and no larger set." if vc.value else ".")
    )
    tree_text = (
        f"(b) Ldim(H) = {ldim.value}. A shattered tree, level by level (left: after label 0): "
        + "; ".join(", ".join(f"x{x}" for x in level) for level in ldim.tree.levels())
        + "."
    )
    questions = (
        "Give the VC dimension of H and a set of points of that size that H shatters.",
        "Give the Littlestone dimension of H and draw a mistake tree of that depth that H shatters; "
        "for each path, name a hypothesis that realises it.",
        "How many mistakes can Halving and SOA make at most on a sequence labelled by a hypothesis "
        "of H?",
    )
    bounds_text = (
        f"(c) Halving: at most ⌊log₂ {len(H)}⌋ = {halving}; SOA: at most Ldim(H) = {ldim.value}."
    )
    solutions: tuple[list[Any], ...] = (
        [("p", vc_text)],
        [
            ("p", tree_text),
            ("rows", ["path (point = label)", "realised by"], paths),
            ("p", no_deeper),
        ],
        [("p", bounds_text)],
    )
    return [
        _part(letter, points, question, solution)
        for letter, points, question, solution in zip(
            "abc", (2, 3, 1), questions, solutions, strict=True
        )
    ]


def _run_task(kind: str, rng: random.Random, seed: int) -> OnlineExamTask:
    for _ in range(_MAX_DRAWS):  # a sequence on which the learner errs at least once
        H = _small_class(rng, 1)
        target = rng.randrange(len(H))
        points = [rng.randrange(H.n_points) for _ in range(6)]
        labels = [int(H.matrix[target, x]) for x in points]
        if kind == "weighted-majority":  # two flipped labels: no expert is right throughout
            for position in rng.sample(range(6), 2):
                labels[position] = 1 - labels[position]
        pairs = list(zip(points, labels, strict=True))
        options: dict[str, Any] = {"beta": Fraction(1, 2)} if kind == "weighted-majority" else {}
        sheet = online_sheet(kind, H, pairs, **options)
        mistakes = sum(row[6] == "yes" for row in sheet.rows)
        if mistakes:
            break
    if kind == "halving":
        bound: Any = bounds.halving(len(H))
        title, bound_text = "Halving by hand", f"⌊log₂ {len(H)}⌋ = {bound}"
        rule = "Halving predicts the label of the majority of the version space (a tie predicts 1)."
    else:
        best = int(min(sum(int(H.matrix[h, x] != y) for x, y in pairs) for h in range(len(H))))
        bound = bounds.weighted_majority(len(H), best, Fraction(1, 2))
        title = "Weighted Majority by hand"
        bound_text = (
            f"(log₂ {len(H)} + {best}·log₂ 2) / log₂(4/3) ≈ {bound:.4g} (the best expert errs "
            f"{best} times)"
        )
        rule = (
            "Weighted Majority with β = 1/2: every expert starts with weight 1; predict the label of the "
            "larger total weight (a tie predicts 1); after the label, halve the weight of every wrong expert."
        )
    intro = [
        ("p", f"The class H below has {len(H)} hypotheses on the points x0, …, x3. {rule}"),
        _class_table(H),
    ]
    parts = _worksheet_parts(
        sheet,
        "Fill in the worksheet for the sequence given by the point and label columns.",
        "How many mistakes did the learner make, and what does the theory allow?",
        f"(b) {mistakes} mistakes; the bound is {bound_text}.",
    )
    data = {"matrix": H.matrix.tolist(), "sequence": pairs}
    answers = {"mistakes": mistakes, "bound": bound}
    return OnlineExamTask(kind, seed, title, intro, parts, data, answers, sheet=sheet)


def _worksheet_parts(sheet: OnlineSheet, fill: str, ask: str, key: str) -> list[Part]:
    """(a) the worksheet (4 points: the blank sheet asked, the worked one its solution) and (b)
    the mistakes against the bound (1 point: ``ask`` and its ``key``)."""
    return [
        _part("a", 4, fill, [_sheet_rows(sheet)], _sheet_rows(sheet.blank())),
        _part("b", 1, ask, [("p", key)]),
    ]


def _winnow_task(rng: random.Random, seed: int) -> OnlineExamTask:
    n = 6
    relevant = sorted(rng.sample(range(n), 2))
    vectors = []
    for _ in range(6):
        vectors.append(tuple(int(rng.random() < 0.35) for _ in range(n)))
    labels = [int(any(x[i] for i in relevant)) for x in vectors]
    pairs = list(zip(vectors, labels, strict=True))
    sheet = online_sheet("winnow", n, pairs)
    mistakes = sum(row[6] == "yes" for row in sheet.rows)
    bound = bounds.winnow(n, 2)
    names = " ∨ ".join(f"x{i + 1}" for i in relevant)
    intro = [
        (
            "p",
            f"Winnow (Littlestone 1988) learns a disjunction of n = {n} variables: weights start at 1, it "
            "predicts 1 when Σ wᵢxᵢ > θ = 3; on a missed 1 it doubles the weights of the active variables, "
            "on a false 1 it halves them (α = 2).",
        )
    ]
    parts = _worksheet_parts(
        sheet,
        "Fill in the worksheet.",
        "How many mistakes did Winnow make, and what does Littlestone's bound allow for a "
        "disjunction of 2 variables?",
        f"(b) {mistakes} mistakes (the labels come from {names}); the bound "
        f"α/(α−1)·n/θ + (α+1)·k·(log_α θ + 1) = 2·2 + 3·2·(log₂ 3 + 1) ≈ {bound:.4g}.",
    )
    data = {"n": n, "sequence": pairs, "relevant": relevant}
    answers = {"mistakes": mistakes, "bound": bound, "weights": sheet.rows[-1][-1]}
    return OnlineExamTask(
        "winnow", seed, "Winnow by hand", intro, parts, data, answers, sheet=sheet
    )
