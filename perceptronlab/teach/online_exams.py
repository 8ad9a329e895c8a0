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
:mod:`perceptronlab.online` and :mod:`perceptronlab.bounds`.

Examples
--------
>>> task = generate_online("ldim", seed=1)
>>> task.answers["ldim"] >= 2, task.answers["vc"] <= task.answers["ldim"] <= task.answers["halving_bound"]
(True, True)
>>> print(task.markdown().splitlines()[0])
### Exam-style task: the Littlestone dimension of a small class (6 points)
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from perceptronlab import bounds
from perceptronlab._ground import validation as v
from perceptronlab.online import FiniteClass, littlestone_dimension, vc_dimension
from perceptronlab.teach.online_sheets import OnlineSheet, online_sheet

__all__ = ["ONLINE_KINDS", "OnlineExamTask", "generate_online"]

ONLINE_KINDS = ("ldim", "halving", "weighted-majority", "winnow")
ONLINE_FORMATS = ("md", "latex")
#: the most classes drawn in search of an interesting one
_MAX_DRAWS = 10_000


@dataclass
class OnlineExamTask:
    """A generated task with its key.

    Attributes
    ----------
    kind, seed : what :func:`generate_online` was called with.
    title : the heading.
    question, solution : lists of blocks: a paragraph (str) or a table (header, rows).
    data : the inputs (the class's matrix, the sequence, ...).
    answers : every number of the key, exact.
    sheet : the worked worksheet (``halving``, ``weighted-majority`` and ``winnow`` tasks).
    """

    kind: str
    seed: int
    title: str
    points: int
    question: list[Any]
    solution: list[Any]
    data: dict[str, Any]
    answers: dict[str, Any]
    sheet: OnlineSheet | None = field(default=None, repr=False)

    def markdown(self, solution: bool = False) -> str:
        """The task in Markdown (the key appended when ``solution``)."""
        out = [f"### Exam-style task: {self.title} ({self.points} points)", ""] + _md(self.question)
        if solution:
            out += ["#### Solution", ""] + _md(self.solution)
        return "\n".join(out).rstrip() + "\n"

    def latex(self, solution: bool = False) -> str:
        """The task as a LaTeX fragment (the key appended when ``solution``)."""
        out = [
            f"\\subsection*{{Exam-style task: {_tex(self.title)} ({self.points} points)}}",
            "",
        ] + _latex(self.question)
        if solution:
            out += ["\\subsubsection*{Solution}", ""] + _latex(self.solution)
        return "\n".join(out).rstrip() + "\n"

    def render(self, fmt: str = "md", solution: bool = False) -> str:
        """``markdown`` or ``latex`` by name (``fmt`` in md, latex)."""
        v.check_choice("fmt", fmt, ONLINE_FORMATS)
        return self.markdown(solution) if fmt == "md" else self.latex(solution)


def _md(blocks: list[Any]) -> list[str]:
    out: list[str] = []
    for block in blocks:
        if isinstance(block, str):
            out += [block, ""]
        else:
            header, rows = block
            out += [
                "| " + " | ".join(header) + " |",
                "| " + " | ".join("---" for _ in header) + " |",
            ]
            out += ["| " + " | ".join(row) + " |" for row in rows] + [""]
    return out


def _tex(text: str) -> str:
    for plain, escaped in (("_", "\\_"), ("%", "\\%"), ("#", "\\#"), ("&", "\\&")):
        text = text.replace(plain, escaped)
    return text


def _latex(blocks: list[Any]) -> list[str]:
    out: list[str] = []
    for block in blocks:
        if isinstance(block, str):
            out += [_tex(block), ""]
        else:
            header, rows = block
            out += [
                "\\begin{tabular}{" + "l" * len(header) + "}",
                " & ".join(_tex(h) for h in header) + " \\\\",
                "\\hline",
            ]
            out += [" & ".join(_tex(cell) for cell in row) + " \\\\" for row in rows]
            out += ["\\end{tabular}", ""]
    return out


def _class_table(H: FiniteClass) -> tuple[list[str], list[list[str]]]:
    header = ["", *(f"x{x}" for x in range(H.n_points))]
    return header, [[f"h{h}", *(str(int(c)) for c in H.matrix[h])] for h in range(len(H))]


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
    checked = v.check_seed(seed)
    if checked is None:
        raise v.fail(
            "seed",
            "an integer >= 0",
            "None",
            "Pass e.g. seed=0; the same seed gives the same task.",
        )
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
    question = [
        f"The class H below has {len(H)} hypotheses on the points x0, …, x3 (rows: hypotheses, entries: labels).",
        _class_table(H),
        "(a) (2 points) Give the VC dimension of H and a set of points of that size that H shatters.",
        "(b) (3 points) Give the Littlestone dimension of H and draw a mistake tree of that depth that H "
        "shatters; for each path, name a hypothesis that realises it.",
        "(c) (1 point) How many mistakes can Halving and SOA make at most on a sequence labelled by a "
        "hypothesis of H?",
    ]
    paths = []
    for path in ldim.paths():
        realising = [h for h in range(len(H)) if all(H.matrix[h, x] == y for x, y in path)]
        paths.append([" → ".join(f"x{x} = {y}" for x, y in path), f"h{realising[0]}"])
    solution = [
        f"(a) VCdim(H) = {vc.value}: H labels {{{', '.join(f'x{x}' for x in vc.shattered)}}} in all "
        f"{2**vc.value} ways" + (", and no larger set." if vc.value else "."),
        f"(b) Ldim(H) = {ldim.value}. A shattered tree, level by level (left: after label 0): "
        + "; ".join(", ".join(f"x{x}" for x in level) for level in ldim.tree.levels())
        + ".",
        (["path (point = label)", "realised by"], paths),
        (
            f"No tree of depth {ldim.value + 1}: it would need 2^{ldim.value + 1} = {2 ** (ldim.value + 1)} "
            f"hypotheses, and H has {len(H)}."
            if len(H) < 2 ** (ldim.value + 1)
            else f"No tree of depth {ldim.value + 1}: no point splits H into two parts that each shatter a tree of "
            f"depth {ldim.value}."
        ),
        f"(c) Halving: at most ⌊log₂ {len(H)}⌋ = {halving}; SOA: at most Ldim(H) = {ldim.value}.",
    ]
    return OnlineExamTask(
        "ldim",
        seed,
        "the Littlestone dimension of a small class",
        6,
        question,
        solution,
        {"matrix": H.matrix.tolist()},
        {
            "vc": vc.value,
            "shattered": vc.shattered,
            "ldim": ldim.value,
            "tree": ldim.tree.levels(),
            "halving_bound": halving,
        },
    )


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
    blank = sheet.blank()
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
    question = [
        f"The class H below has {len(H)} hypotheses on the points x0, …, x3. {rule}",
        _class_table(H),
        "(a) (4 points) Fill in the worksheet for the sequence given by the point and label columns.",
        (list(blank.header), [list(row) for row in blank.rows]),
        "(b) (1 point) How many mistakes did the learner make, and what does the theory allow?",
    ]
    solution = [
        (list(sheet.header), [list(row) for row in sheet.rows]),
        f"(b) {mistakes} mistakes; the bound is {bound_text}.",
    ]
    return OnlineExamTask(
        kind,
        seed,
        title,
        5,
        question,
        solution,
        {"matrix": H.matrix.tolist(), "sequence": pairs},
        {"mistakes": mistakes, "bound": bound},
        sheet,
    )


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
    blank = sheet.blank()
    question = [
        f"Winnow (Littlestone 1988) learns a disjunction of n = {n} variables: weights start at 1, it predicts "
        "1 when Σ wᵢxᵢ > θ = 3; on a missed 1 it doubles the weights of the active variables, on a false 1 it "
        "halves them (α = 2).",
        "(a) (4 points) Fill in the worksheet.",
        (list(blank.header), [list(row) for row in blank.rows]),
        "(b) (1 point) How many mistakes did Winnow make, and what does Littlestone's bound allow for a "
        "disjunction of 2 variables?",
    ]
    solution = [
        (list(sheet.header), [list(row) for row in sheet.rows]),
        f"(b) {mistakes} mistakes (the labels come from {names}); the bound "
        f"α/(α−1)·n/θ + (α+1)·k·(log_α θ + 1) = 2·2 + 3·2·(log₂ 3 + 1) ≈ {bound:.4g}.",
    ]
    return OnlineExamTask(
        "winnow",
        seed,
        "Winnow by hand",
        5,
        question,
        solution,
        {"n": n, "sequence": pairs, "relevant": relevant},
        {"mistakes": mistakes, "bound": bound, "weights": sheet.rows[-1][-1]},
        sheet,
    )
