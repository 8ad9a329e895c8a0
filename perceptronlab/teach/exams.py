"""Exam tasks with worked answer keys, in the style of seed 000's three exam-style tasks.

:func:`generate` makes a new task of one ``kind`` from a ``seed`` (the same seed always gives the
same task):

- ``"trace"``: the perceptron by hand (4 P): three or four small integer points in the plane, no
  offset; (a) the worksheet, (b) R, the margin of a given w* and the mistake bound R²/ρ²,
  (c) the run with a learning rate η ≠ 1. Drawn by seeded rejection sampling until the data is
  separable, the cyclic run converges in 2 to 5 sweeps (the clean sweep included) and at least
  one step after the first is a tie y⟨w,x⟩ = 0 (which counts as a mistake).
- ``"margin"``: margin and mistake bound (4 P): four points, two candidate normal vectors that both
  separate; (a) both margins, (b) R and the best bound, (c) a fifth point that keeps the better w
  separating but shrinks its margin and grows R.
- ``"generalization"``: the leave-one-out bound R*²/ρ*²/(n+1) (4 P): (a) the bound for given n,
  (b) the n that guarantees a test error ε, (c) the same in a higher dimension, and with the
  margin shrunk or the radius grown.

Each task renders as Markdown, LaTeX or Typst (``render(fmt)``), as a printable PDF through Typst
(:meth:`ExamTask.pdf`, the ``pdf`` extra), and hands out its dataset (:meth:`ExamTask.dataset_csv`)
and, for ``"trace"``, a blank worksheet that carries its data (:meth:`ExamTask.worksheet_csv`, the
format of :mod:`perceptronlab.teach.sheets`), so that ``perceptronlab check sheet.csv`` needs
nothing else.

Every number of a solution is computed, never typed: the worksheet by the exact engine
(``perceptron(..., exact=True, trace=True)`` and ``Run.table``), scores y⟨w,xᵢ⟩ by the engine's
exact ``margins``, R², ρ² and the bounds by the theory toolkit (``radius_squared``,
``margin_squared``, ``novikoff``, ``test_error``, ``sample_size``), exact on exact input. Margins are shown as
ρ² (an exact fraction) and ρ (a decimal), as in the seed.

Examples
--------
>>> task = generate("trace", seed=0)
>>> task.answers["converged"], 2 <= task.answers["sweeps"] <= 5, len(task.answers["ties"]) >= 1
(True, True, True)
>>> print(generate("generalization", seed=1).markdown().splitlines()[0])
### Exam-style task: generalization bound (4 P)
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, Literal, cast, get_args

from perceptronlab._ground import validation as v
from perceptronlab._ground.numbers import parse_exact
from perceptronlab.core.perceptron import perceptron
from perceptronlab.core.run import Run
from perceptronlab.core.scores import margins as engine_margins

#: the kinds of exam task
Kind = Literal["trace", "margin", "generalization"]
KINDS: tuple[Kind, ...] = get_args(Kind)
#: the text formats of :meth:`ExamTask.render` (the PDF is :meth:`ExamTask.pdf`)
FORMATS = ("md", "latex", "typst")

#: the worksheet's column names (as ``Run.table`` prints them)
WORKSHEET_HEADER = ("sweep", "point", "y⟨w,x⟩", "mistake?", "w after")

# How many draws the rejection sampling may take before it gives up (it needs a few dozen).
MAX_DRAWS = 200_000


# ---------------------------------------------------------------- the task object


@dataclass
class Part:
    """One sub-task: (a), (b) or (c)."""

    letter: str
    points: Fraction
    level: str
    question: list
    solution: list
    grading: str = ""


@dataclass
class ExamTask:
    """A generated exam task with its answer key.

    Attributes
    ----------
    kind, seed : what :func:`generate` was called with.
    title : the task's heading (without the points).
    data : the task's inputs, exact (points, labels, candidate vectors, R*, ρ*, n, ε, ...).
    answers : every number of the key, exact (Fractions), for programs and tests.
    run : the engine's traced exact run (``"trace"`` tasks), else ``None``.
    """

    kind: str
    seed: int
    title: str
    intro: list
    parts: list[Part]
    data: dict
    answers: dict
    run: Run | None = field(default=None, repr=False)

    @property
    def points(self) -> Fraction:
        return sum((p.points for p in self.parts), Fraction(0))

    def markdown(self, solution: bool = False) -> str:
        """The task in Markdown with $…$ math (the solution appended when ``solution``)."""
        out = [f"### Exam-style task: {self.title} ({_pts(self.points)} P)", ""]
        out += _render(self.intro, "md")
        for part in self.parts:
            out += _render([("part", part.letter, f"({_pts(part.points)} P, {part.level})")] + part.question, "md")
        text = "\n".join(out).rstrip() + "\n"
        return text + "\n" + self.solution_markdown() if solution else text

    def solution_markdown(self) -> str:
        """The worked solution in Markdown."""
        out = ["#### Solution", ""]
        for part in self.parts:
            out += _render([("part", part.letter, part.grading)] + part.solution, "md")
        return "\n".join(out).rstrip() + "\n"

    def latex(self, solution: bool = False, standalone: bool = False) -> str:
        """The task in LaTeX (a fragment for ``\\input``; needs amsmath, amssymb)."""
        out = [f"\\subsection*{{Exam-style task: {self.title} ({_pts(self.points)} P)}}", ""]
        out += _render(self.intro, "latex")
        for part in self.parts:
            out += _render([("part", part.letter, f"({_pts(part.points)} P, {part.level})")] + part.question,
                           "latex")
        text = "\n".join(out).rstrip() + "\n"
        if solution:
            text += "\n" + self.solution_latex()
        if standalone:
            text = ("\\documentclass{article}\n\\usepackage{amsmath,amssymb}\n\\begin{document}\n\n"
                    + text + "\n\\end{document}\n")
        return text

    def solution_latex(self) -> str:
        """The worked solution in LaTeX."""
        out = ["\\subsubsection*{Solution}", ""]
        for part in self.parts:
            out += _render([("part", part.letter, part.grading)] + part.solution, "latex")
        return "\n".join(out).rstrip() + "\n"

    def typst(self, solution: bool = False) -> str:
        """The task as a Typst document (an A4 page; the solution after a page break when ``solution``)."""
        from perceptronlab.teach import typeset

        out = [typeset.PREAMBLE,
               f"= Exam-style task: {typeset.text_to_typst(self.title)} ({_pts(self.points)} P)", ""]
        out += _render(self.intro, "typst")
        for part in self.parts:
            out += _render([("part", part.letter, f"({_pts(part.points)} P, {part.level})")] + part.question,
                           "typst")
        if solution:
            out += ["#pagebreak()", "== Solution", ""]
            for part in self.parts:
                out += _render([("part", part.letter, part.grading)] + part.solution, "typst")
        return "\n".join(out).rstrip() + "\n"

    def pdf(self, solution: bool = False) -> bytes:
        """The task as a printable PDF (the key on a second page when ``solution``), typeset by
        Typst from :meth:`typst` (needs the ``pdf`` extra: ``pip install 'perceptronlab[pdf]'``)."""
        from perceptronlab.teach.typeset import compile_pdf

        return compile_pdf(self.typst(solution))

    def render(self, fmt: str = "md", solution: bool = False) -> str:
        """``markdown``, ``latex`` or ``typst`` by name (``fmt`` in md, latex, typst)."""
        v.check_choice("fmt", fmt, FORMATS)
        return {"md": self.markdown, "latex": self.latex, "typst": self.typst}[fmt](solution)

    def dataset_csv(self) -> str:
        """The task's dataset as CSV (``x1,x2,y``, exact values): the points of a ``"trace"``
        task, the four training points of a ``"margin"`` task (x5 is part (c)'s question).
        A ``"generalization"`` task has no dataset (only R*, ρ*, n and ε) and refuses.

        >>> print(generate("trace", 0).dataset_csv().splitlines()[0])
        x1,x2,y
        """
        if "X" not in self.data:
            raise v.fail("dataset", "a task with a dataset (kind 'trace' or 'margin')",
                         f"a {self.kind!r} task (it has only R*, rho*, n and epsilon)",
                         "Use kind='trace' or kind='margin'.")
        d = len(self.data["X"][0])
        lines = [",".join([f"x{j + 1}" for j in range(d)] + ["y"])]
        lines += [",".join([_plain(c) for c in x] + [str(int(label))])
                  for x, label in zip(self.data["X"], self.data["y"], strict=True)]
        return "\n".join(lines) + "\n"

    def worksheet_csv(self) -> str:
        """A blank worksheet for part (a) of a ``"trace"`` task that carries the task's data
        (:func:`perceptronlab.teach.sheets.blank_sheet`); other kinds have no worksheet and refuse.
        """
        from perceptronlab.teach.sheets import blank_sheet

        if self.kind != "trace":
            raise v.fail("worksheet", "a 'trace' task (its part (a) is the worksheet)", f"a {self.kind!r} task",
                         "Use kind='trace'.")
        return blank_sheet(self.data["X"], self.data["y"], eta=1, fit_intercept=False,
                           title=f"exam task trace, seed {self.seed}")


def generate(kind: Kind, seed: int) -> ExamTask:
    """A new exam task of ``kind`` ("trace", "margin" or "generalization"), the same for the same seed.

    Parameters
    ----------
    kind : "trace" (the perceptron by hand), "margin" (margin and mistake bound) or
        "generalization" (the leave-one-out test-error bound), after seed 000's three tasks.
    seed : an integer ≥ 0.

    Returns
    -------
    ExamTask
        ``.markdown()``, ``.latex()``, ``.solution_markdown()``, ``.solution_latex()``, the exact
        ``.data`` and ``.answers``.

    Examples
    --------
    >>> task = generate("margin", seed=3)
    >>> task.answers["rho2"][task.answers["better"]] > task.answers["rho2"][task.answers["worse"]]
    True
    """
    v.check_choice("kind", kind, KINDS)
    if seed is None:
        raise v.fail("seed", "an integer >= 0", "None", "Pass e.g. seed=0; the same seed gives the same task.")
    checked = v.check_seed(seed)
    assert checked is not None  # None is refused above
    rng = random.Random(f"perceptronlab-exam-{kind}-{checked}")
    return {"trace": _trace_task, "margin": _margin_task, "generalization": _generalization_task}[kind](rng, checked)


# ---------------------------------------------------------------- exact quantities
# R², ρ², the bounds: the theory toolkit (perceptronlab.theory), exact on exact input; the scores
# y_i⟨w,x_i⟩ come from the engine's exact ``margins``. Only ‖w‖² of a single vector is local.


def _norm2(x) -> Fraction:
    """‖x‖², exactly."""
    return sum((Fraction(c) * Fraction(c) for c in x), Fraction(0))


def _scores(w, X, y) -> list[Fraction]:
    """y_i⟨w, x_i⟩ for every example, by the engine's exact ``margins``."""
    rows = [[Fraction(c) for c in x] for x in X]
    return list(engine_margins(rows, [int(s) for s in y], [Fraction(c) for c in w], Fraction(0)))


def _radius2(X) -> Fraction:
    """R² = max_i ‖x_i‖² (seed 000), by :func:`perceptronlab.theory.geometry.radius_squared`."""
    from perceptronlab.theory.geometry import radius_squared

    return cast(Fraction, radius_squared([[Fraction(c) for c in x] for x in X]))  # exact rows: a Fraction


def _margin2(w, X, y) -> Fraction:
    """ρ(w)² = (min_i y_i⟨w,x_i⟩)²/‖w‖² of a separating w, by ``theory.geometry.margin_squared``."""
    from perceptronlab.theory.geometry import margin_squared

    return cast(Fraction, margin_squared([Fraction(c) for c in w], [[Fraction(c) for c in x] for x in X], list(y)))


def _novikoff(R2: Fraction, rho2: Fraction) -> Fraction:
    """R²/ρ² (Novikoff 1962), by :func:`perceptronlab.bounds.novikoff`."""
    from perceptronlab.bounds import novikoff

    return cast(Fraction, novikoff(R2, rho2, squared=True))  # exact in, exact out


def _test_error_bound(R2: Fraction, rho2: Fraction, n: int) -> Fraction:
    """R²/ρ²/(n+1) (seed 000, Theorem 2), by :func:`perceptronlab.bounds.test_error`."""
    from perceptronlab.bounds import test_error

    return cast(Fraction, test_error(R2, rho2, n, squared=True))  # exact in, exact out


def _sample_size(R2: Fraction, rho2: Fraction, epsilon: Fraction) -> int:
    """The smallest n with R²/ρ²/(n+1) ≤ ε, by :func:`perceptronlab.bounds.sample_size`."""
    from perceptronlab.bounds import sample_size

    return sample_size(R2, rho2, epsilon, squared=True)


# ---------------------------------------------------------------- formatting


def _plain(value: Any) -> str:
    """An exact number as CSV text: ``-2``, ``1/2``."""
    return str(Fraction(value))


def _pts(value: Fraction) -> str:
    value = Fraction(value)
    return str(value.numerator) if value.denominator == 1 else f"{float(value):g}"


def tex_num(value: Any) -> str:
    """An exact number in TeX: ``-2``, ``\\tfrac{1}{5}``, ``-\\tfrac{3}{2}``."""
    value = Fraction(value)
    if value.denominator == 1:
        return str(value.numerator)
    sign = "-" if value < 0 else ""
    return f"{sign}\\tfrac{{{abs(value.numerator)}}}{{{value.denominator}}}"


def tex_vec(values) -> str:
    return "(" + ",".join(tex_num(c) for c in values) + ")"


def tex_list(values) -> str:
    return ",".join(tex_num(c) for c in values)


def tex_sqrt(square: Fraction) -> str:
    """√square in TeX, exact: ``5`` for 25, ``\\sqrt{10}``, ``\\tfrac{1}{2}`` for 1/4, ``\\sqrt{2/5}``."""
    square = Fraction(square)
    num, den = math.isqrt(square.numerator), math.isqrt(square.denominator)
    if num * num == square.numerator and den * den == square.denominator:
        return tex_num(Fraction(num, den))
    if square.denominator == 1:
        return f"\\sqrt{{{square.numerator}}}"
    return f"\\sqrt{{{tex_num(square)}}}"


def decimal(value: Any, digits: int = 4) -> str:
    """A Fraction as a decimal: exact when it terminates within ``digits + 4`` places, else rounded."""
    value = Fraction(value)
    for places in range(digits + 5):
        scaled = value * 10**places
        if scaled.denominator == 1:
            text = f"{abs(scaled.numerator):0{places + 1}d}"
            text = text if places == 0 else f"{text[:-places]}.{text[-places:]}"
            return ("-" if value < 0 else "") + text
    return f"{float(value):.{digits}g}"


def approx(value: Any, digits: int = 4) -> str:
    """``= 0.016`` when the decimal is exact, ``\\approx 1.414`` when rounded (TeX)."""
    text = decimal(value, digits)
    return ("=" if Fraction(text) == Fraction(value) else "\\approx ") + text


def _sweeps_text(first: int, last: int) -> str:
    return f"sweep {first}" if first == last else f"sweeps {first}–{last}"


def _join(items: list[str]) -> str:
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


def _render(blocks: list, fmt: str) -> list[str]:
    """Blocks → lines. Text uses $…$ math, valid in both Markdown (MathJax/KaTeX) and LaTeX.

    A part heading ("(a) (2 P, easy)") shares its line with the paragraph that follows it.
    """
    from perceptronlab.teach import typeset

    text_of = {"md": lambda t: t, "latex": _latex_text, "typst": typeset.prose_to_typst}[fmt]
    out: list[str] = []
    head = ""
    for block in blocks:
        kind = block[0]
        if kind == "part":
            _, letter, note = block
            note = typeset.text_to_typst(note) if fmt == "typst" else text_of(note)
            head = ({"md": f"**({letter})**", "latex": f"\\textbf{{({letter})}}", "typst": f"*({letter})*"}[fmt]
                    + (f" {note}" if note else ""))
            continue
        if kind == "p":
            text = text_of(block[1])
            out += [f"{head} {text}" if head else text, ""]
            head = ""
            continue
        if head:
            out += [head, ""]
            head = ""
        if kind == "math":
            out += [{"md": f"$${block[1]}$$", "latex": f"\\[{block[1]}\\]",
                     "typst": f"$ {typeset.tex_to_typst(block[1])} $"}[fmt], ""]
        elif kind == "table":
            run = block[1]
            if fmt == "typst":
                out += [typeset.table(list(WORKSHEET_HEADER), [list(r) for r in run.worksheet_rows()]), ""]
            else:
                out += [run.table("md").rstrip() if fmt == "md"
                        else "\\begin{center}\n" + run.table("latex").rstrip() + "\n\\end{center}", ""]
    if head:
        out += [head, ""]
    return out


def _latex_text(text: str) -> str:
    """Escape LaTeX specials outside $…$; Unicode marks become commands."""
    parts = text.split("$")
    for k in range(0, len(parts), 2):
        chunk = parts[k]
        for char, repl in (("%", "\\%"), ("&", "\\&"), ("#", "\\#"), ("_", "\\_"), ("✓", "$\\checkmark$"),
                           ("✗", "$\\times$"), ("–", "--")):
            chunk = chunk.replace(char, repl)
        parts[k] = chunk
    return "$".join(parts)


def _points_text(X, y) -> str:
    items = [f"$x_{{{i + 1}}}={tex_vec(x)}$ with $y_{{{i + 1}}}={'+1' if s > 0 else '-1'}$"
             for i, (x, s) in enumerate(zip(X, y, strict=True))]
    return _join(items)


# ---------------------------------------------------------------- trace


def _trace_task(rng: random.Random, seed: int) -> ExamTask:
    for _ in range(MAX_DRAWS):
        n = rng.choice((3, 3, 3, 4))
        X = [(rng.randint(-2, 2), rng.randint(-2, 2)) for _ in range(n)]
        if len(set(X)) < n or (0, 0) in X:
            continue
        y = [rng.choice((-1, 1)) for _ in range(n)]
        if len(set(y)) < 2:
            continue
        run = perceptron(X, y, exact=True, trace=True, max_sweeps=6, warn=False)
        assert run.steps is not None  # traced
        if not run.converged or not 2 <= run.sweeps <= 5 or run.mistakes < 3 or len(run.steps) > 16:
            continue
        ties = [s for s in run.steps[1:] if s.score == 0]
        if ties:
            return _trace_from(X, y, run, ties, rng, seed)
    raise RuntimeError(f"no trace task found for seed {seed} within {MAX_DRAWS} draws")  # pragma: no cover


def _best_small_separator(X, y) -> tuple[tuple[int, int], Fraction]:
    """The integer w with entries in −3…3 of the largest margin (ties: smallest ‖w‖², then first)."""
    best = None
    for a in range(-3, 4):
        for b in range(-3, 4):
            if (a, b) == (0, 0) or math.gcd(a, b) != 1:
                continue
            if min(_scores((a, b), X, y)) <= 0:
                continue
            rho2 = _margin2((a, b), X, y)
            key = (-rho2, a * a + b * b)
            if best is None or key < best[0]:
                best = (key, (a, b), rho2)
    if best is None:  # pragma: no cover - the run converged, so its w separates
        raise RuntimeError("no small integer separator")
    return best[1], best[2]


def _trace_from(X, y, run: Run, ties, rng: random.Random, seed: int, *, w_star=None, eta=None) -> ExamTask:
    """The trace task for data whose run is known; ``w_star``/``eta`` default to the best small
    integer separator and a seeded choice among 2, 3 and 1/2 (seed 000 uses w* = (1, −2), η = 2)."""
    n = len(X)
    names = ",".join(f"x_{{{i + 1}}}" for i in range(n))
    intro = [("p", f"Points in $\\mathbb{{R}}^2$, no offset: {_points_text(X, y)}. Start with $w=(0,0)$, "
                   f"sweep in the order ${names}$ and repeat until a full sweep makes no update. Count "
                   "$y_i\\langle w,x_i\\rangle\\le 0$ as a mistake; on a mistake set "
                   "$w\\leftarrow w+y_i x_i$.")]
    if w_star is None:
        w_star, rho2 = _best_small_separator(X, y)
    else:
        w_star, rho2 = tuple(w_star), _margin2(w_star, X, y)
    R2 = _radius2(X)
    R_index = max(range(n), key=lambda i: (_norm2(X[i]), -i))
    star_scores = _scores(w_star, X, y)
    bound = _novikoff(R2, rho2)
    eta = (rng.choice((Fraction(2), Fraction(3), Fraction(1, 2))) if eta is None
           else parse_exact(eta, "eta (the learning rate)"))
    run_eta = perceptron(X, y, eta=eta, exact=True, max_sweeps=6, warn=False)
    if run_eta.mistakes != run.mistakes or list(run_eta.w) != [eta * c for c in run.w]:
        raise AssertionError("eta-invariance failed: the engine disagrees with seed 000's task (c)")  # pragma: no cover
    final_w = tuple(run.w)
    tie_places = [(s.sweep, s.index) for s in ties]
    answers = dict(mistakes=run.mistakes, sweeps=run.sweeps, converged=run.converged, final_w=final_w,
                   worksheet=run.worksheet_rows(), ties=tie_places, w_star=w_star, star_scores=star_scores,
                   R2=R2, rho2=rho2, bound=bound, eta=eta, mistakes_eta=run_eta.mistakes,
                   final_w_eta=tuple(run_eta.w))
    data = dict(X=[tuple(Fraction(c) for c in x) for x in X], y=list(y), w_star=w_star, eta=eta)

    # (a)
    half = run.sweeps // 2
    grading_a = (f"(2 P: 1 P for {_sweeps_text(1, half)}, 1 P for {_sweeps_text(half + 1, run.sweeps)} "
                 "and the stop)")
    by_sweep: dict[int, list[str]] = {}
    for sweep, index in tie_places:
        by_sweep.setdefault(sweep, []).append(f"$x_{{{index + 1}}}$")
    tie_text = _join([f"at {_join(points)} in sweep {sweep}" for sweep, points in by_sweep.items()])
    solution_a = [("table", run),
                  ("p", f"{run.mistakes} mistakes, final $w={tex_vec(final_w)}$. Watch the "
                        f"tie{'s' if len(ties) > 1 else ''}: {tie_text}, $y\\langle w,x\\rangle=0$ counts as a "
                        "mistake.")]
    # (b)
    w2 = _norm2(w_star)
    consistent = "✓" if bound >= run.mistakes else "✗ (impossible: Novikoff's theorem)"
    solution_b = [("p", f"$R=\\max_i\\|x_i\\|=\\|x_{{{R_index + 1}}}\\|={tex_sqrt(R2)}$. With "
                        f"$\\|w^*\\|={tex_sqrt(w2)}$: $y_i\\langle w^*,x_i\\rangle={tex_list(star_scores)}$, so "
                        f"$\\rho{_ratio_text(min(star_scores), w2)}$, $\\rho^2={tex_num(rho2)}$. Bound "
                        f"$R^2/\\rho^2={tex_num(R2)}/{_paren(rho2)}={tex_num(bound)}"
                        f"{'' if bound.denominator == 1 else approx(bound)}\\ge {run.mistakes}$ {consistent}. (1 P)")]
    # (c)
    solution_c = [("p", f"With $w_0=0$, every $w_t$ is exactly $\\eta$ times the $w_t$ of the run with "
                        "$\\eta=1$, so all signs $y_i\\langle w,x_i\\rangle$ are the same: again "
                        f"{run_eta.mistakes} mistakes, final $w={tex_vec(run_eta.w)}$. The learning rate does "
                        "not matter for the perceptron started at 0. (1 P)")]
    parts = [
        Part("a", Fraction(2), "easy",
             [("p", "Carry out the run: for each step give $y_i\\langle w,x_i\\rangle$, whether it is a "
                    "mistake, and $w$ afterwards.")], solution_a, grading_a),
        Part("b", Fraction(1), "harder",
             [("p", f"$w^*={tex_vec(w_star)}$ separates the data. Compute $R$, the margin $\\rho$ of $w^*$ "
                    "and the mistake bound. Is your run consistent with it?")], solution_b),
        Part("c", Fraction(1), "transfer",
             [("p", f"Run the update $w\\leftarrow w+\\eta y_i x_i$ with $\\eta={tex_num(eta)}$ instead. How "
                    "many mistakes are made, and what is the final $w$?")], solution_c),
    ]
    return ExamTask("trace", seed, "the perceptron by hand", intro, parts, data, answers, run=run)


def _paren(value: Fraction) -> str:
    return tex_num(value) if Fraction(value).denominator == 1 else f"\\left({tex_num(value)}\\right)"


def _is_square(value: Fraction) -> bool:
    value = Fraction(value)
    return all(math.isqrt(k) ** 2 == k for k in (value.numerator, value.denominator))


def _sqrt_text(square: Fraction) -> str:
    """√square: exact when it is rational, else a decimal (TeX, without the relation sign)."""
    return tex_sqrt(square) if _is_square(square) else decimal(_sqrt_fraction(square))


def _ratio_text(top: Fraction, norm2: Fraction) -> str:
    """"=top/‖w‖ ≈ decimal" for a distance top/‖w‖ with ‖w‖² = norm2 (TeX, relation sign first)."""
    value2 = Fraction(top) ** 2 / norm2
    if _is_square(norm2):
        return f"={tex_num(Fraction(top) / Fraction(tex_sqrt_value(norm2)))}"
    return f"={tex_num(top)}/{tex_sqrt(norm2)}{approx(_sqrt_fraction(value2))}"


def tex_sqrt_value(square: Fraction) -> Fraction:
    """√square for a square of a rational."""
    square = Fraction(square)
    return Fraction(math.isqrt(square.numerator), math.isqrt(square.denominator))


def _sqrt_fraction(square: Fraction) -> Fraction:
    """√square to 1e-12 as a Fraction (for the decimal shown next to an exact ρ²)."""
    square = Fraction(square)
    scale = 10**15
    return Fraction(math.isqrt(square.numerator * scale * scale // square.denominator), scale)


# ---------------------------------------------------------------- margin


def _margin_task(rng: random.Random, seed: int) -> ExamTask:
    grid = [(a, b) for a in range(-2, 3) for b in range(-2, 3) if (a, b) != (0, 0)]
    far = [(a, b) for a in range(-5, 6) for b in range(-5, 6)]
    for _ in range(MAX_DRAWS):
        X = [(rng.randint(-3, 3), rng.randint(-3, 3)) for _ in range(4)]
        y = [1, 1, -1, -1]
        if len(set(X)) < 4 or (0, 0) in X:
            continue
        separating = [w for w in grid if min(_scores(w, X, y)) > 0]
        if len(separating) < 2:
            continue
        w_a, w_b = rng.sample(separating, 2)
        if w_a[0] * w_b[1] == w_a[1] * w_b[0]:
            continue  # parallel candidates have the same margin
        rho2 = {"A": _margin2(w_a, X, y), "B": _margin2(w_b, X, y)}
        if rho2["A"] == rho2["B"]:
            continue
        better = "A" if rho2["A"] > rho2["B"] else "B"
        w_best = w_a if better == "A" else w_b
        R2 = _radius2(X)
        y5 = rng.choice((1, 1, -1))
        candidates = []
        for x5 in far:
            score5 = _scores(w_best, [x5], [y5])[0]
            if x5 in X or score5 <= 0 or _norm2(x5) <= R2:
                continue  # x5 must stay separated and lie outside the ball of radius R
            rho2_new = score5 * score5 / _norm2(w_best)
            if rho2_new < rho2[better] and _norm2(x5) / rho2_new >= 3 * (R2 / rho2[better]):
                candidates.append(x5)
        if not candidates:
            continue
        x5 = rng.choice(candidates)
        return _margin_from(X, y, w_a, w_b, x5, y5, seed)
    raise RuntimeError(f"no margin task found for seed {seed} within {MAX_DRAWS} draws")  # pragma: no cover


def _margin_from(X, y, w_a, w_b, x5, y5, seed) -> ExamTask:
    """The margin task for four points, two separating candidates and the extra point (x5, y5)."""
    w = {"A": w_a, "B": w_b}
    rho2 = {name: _margin2(w[name], X, y) for name in "AB"}
    better = "A" if rho2["A"] > rho2["B"] else "B"
    worse = "B" if better == "A" else "A"
    R2 = _radius2(X)
    score5 = _scores(w[better], [x5], [y5])[0]
    rho2_new = _margin2(w[better], list(X) + [x5], list(y) + [y5])
    scores = {name: _scores(w[name], X, y) for name in "AB"}
    R_index = max(range(4), key=lambda i: (_norm2(X[i]), -i))
    bounds = {name: _novikoff(R2, rho2[name]) for name in "AB"}
    R2_new = _radius2(list(X) + [x5])
    bound_new = _novikoff(R2_new, rho2_new)
    label5 = "+1" if y5 > 0 else "-1"
    answers = dict(scores=scores, rho2=rho2, better=better, worse=worse, R2=R2, bounds=bounds,
                   best_bound=bounds[better], score5=score5, still_separated=True, rho2_new=rho2_new,
                   R2_new=R2_new, bound_new=bound_new)
    data = dict(X=[tuple(Fraction(c) for c in x) for x in X], y=list(y), w_A=w_a, w_B=w_b, x5=x5, y5=y5)
    intro = [("p", f"Training data: $x_1={tex_vec(X[0])}$ and $x_2={tex_vec(X[1])}$ with label $+1$, "
                   f"$x_3={tex_vec(X[2])}$ and $x_4={tex_vec(X[3])}$ with label $-1$. Two candidate normal "
                   f"vectors: $w_A={tex_vec(w_a)}$ and $w_B={tex_vec(w_b)}$.")]

    def margin_sentence(name: str) -> str:
        norm2 = _norm2(w[name])
        low = min(scores[name])
        return (f"$w_{name}$, $\\|w_{name}\\|={tex_sqrt(norm2)}$: $y_i\\langle w_{name},x_i\\rangle="
                f"{tex_list(scores[name])}$, so $\\rho_{name}{_ratio_text(low, norm2)}$, "
                f"$\\rho_{name}^2={tex_num(rho2[name])}$.")

    def bound_text(r2: Fraction, p2: Fraction) -> str:
        value = r2 / p2
        return f"{tex_num(r2)}/{_paren(p2)}={tex_num(value)}" + ("" if value.denominator == 1 else approx(value))

    solution_a = [("p", f"{margin_sentence('A')} {margin_sentence('B')} (1 P)")]
    solution_b = [("p", f"$R=\\max\\|x_i\\|=\\|x_{{{R_index + 1}}}\\|={tex_sqrt(R2)}$. The larger margin gives "
                        f"the better bound: $R^2/\\rho_{better}^2={bound_text(R2, rho2[better])}$ mistakes. "
                        f"(With $w_{worse}$: ${bound_text(R2, rho2[worse])}$.) (1.5 P)")]
    w_best = w[better]
    solution_c = [("p", f"$y_5\\langle w_{better},x_5\\rangle={tex_num(score5)}>0$: still separated, but the "
                        f"distance is only ${_ratio_text(score5, _norm2(w_best))[1:]}$, so $\\rho_{better}$ drops to "
                        f"${_sqrt_text(rho2_new)}$ ($\\rho_{better}^2={tex_num(rho2_new)}$). Also $R$ "
                        f"grows to $\\|x_5\\|={tex_sqrt(R2_new)}$. The bound becomes "
                        f"${bound_text(R2_new, rho2_new)}$ instead of ${tex_num(bounds[better])}"
                        f"{'' if bounds[better].denominator == 1 else approx(bounds[better])}$. The bound depends "
                        "on the worst point twice: through the largest norm and through the smallest distance. "
                        "(1.5 P)")]
    parts = [
        Part("a", Fraction(1), "easy", [("p", "Compute the margin of $w_A$ and of $w_B$ on the data.")],
             solution_a),
        Part("b", Fraction(3, 2), "harder",
             [("p", "Compute $R$ and the best mistake bound you can derive from $w_A$ or $w_B$.")], solution_b),
        Part("c", Fraction(3, 2), "transfer",
             [("p", f"A new point $x_5={tex_vec(x5)}$ with label ${label5}$ is added. Is the data still "
                    f"separated by $w_{better}$? What happens to the bound, and why can a single point make "
                    "it much worse?")], solution_c),
    ]
    return ExamTask("margin", seed, "margin and mistake bound", intro, parts, data, answers)


# ---------------------------------------------------------------- generalization

_RADII = (Fraction(1), Fraction(2), Fraction(3), Fraction(4), Fraction(5), Fraction(3, 2))
_MARGINS = (Fraction(1, 10), Fraction(1, 5), Fraction(1, 4), Fraction(1, 2), Fraction(1))
_SIZES = (99, 199, 499, 999, 1999, 4999, 9999)
_EPSILONS = (Fraction(1, 200), Fraction(1, 100), Fraction(2, 100), Fraction(5, 100))
_CHANGES = (("margin", 2), ("margin", 2), ("margin", 3), ("radius", 2))


def _generalization_task(rng: random.Random, seed: int) -> ExamTask:
    for _ in range(MAX_DRAWS):
        R, rho = rng.choice(_RADII), rng.choice(_MARGINS)
        n, epsilon = rng.choice(_SIZES), rng.choice(_EPSILONS)
        ratio = R * R / (rho * rho)
        if not 4 <= ratio <= 400 or _test_error_bound(R * R, rho * rho, n) > Fraction(1, 10):
            continue
        if _sample_size(R * R, rho * rho, epsilon) <= n:
            continue  # (b) should ask for more data than (a) has
        return _generalization_from(R, rho, n, epsilon, rng.choice(_CHANGES), rng.choice((10, 20, 50)),
                                    rng.choice((1000, 10000)), seed)
    raise RuntimeError(f"no generalization task found for seed {seed}")  # pragma: no cover


def _generalization_from(R, rho, n, epsilon, change, d_small, d_large, seed) -> ExamTask:
    R2, rho2 = R * R, rho * rho
    ratio = _novikoff(R2, rho2)
    error = _test_error_bound(R2, rho2, n)
    n_min = _sample_size(R2, rho2, epsilon)
    what, factor = change
    if what == "margin":
        R2_c, rho2_c = R2, rho2 / (factor * factor)
        change_q = "the margin is halved" if factor == 2 else f"the margin is divided by {factor}"
        change_a = ("Halving the margin" if factor == 2 else f"Dividing the margin by {factor}")
    else:
        R2_c, rho2_c = R2 * factor * factor, rho2
        change_q = "the radius is doubled" if factor == 2 else f"the radius grows by a factor {factor}"
        change_a = "Doubling the radius" if factor == 2 else f"Growing the radius by {factor}"
    ratio_c = _novikoff(R2_c, rho2_c)
    n_min_c = _sample_size(R2_c, rho2_c, epsilon)
    answers = dict(ratio=ratio, test_error=error, n_min=n_min, n_min_embedded=n_min, ratio_changed=ratio_c,
                   n_min_changed=n_min_c)
    data = dict(R=R, rho=rho, n=n, epsilon=epsilon, dimensions=(d_small, d_large), change=change)
    eps_pct = decimal(epsilon * 100)

    def need(r: Fraction, n_needed: int) -> str:
        bound = r / epsilon
        if bound.denominator == 1:
            return f"n+1\\ge {tex_num(bound)}\\iff n\\ge {n_needed}"
        return f"n+1\\ge {tex_num(bound)}{approx(bound)}\\iff n\\ge {n_needed}"

    intro = [("p", f"The data lies in a ball of radius $R^*={decimal(R)}$, and a hyperplane separates the whole "
                   f"input space with margin $\\rho^*={decimal(rho)}$. The perceptron is trained on $n$ points "
                   "until it makes no training errors.")]
    solution_a = [("p", f"$\\frac{{1}}{{n+1}}\\frac{{R^{{*2}}}}{{\\rho^{{*2}}}}=\\frac{{1}}{{{n + 1}}}\\cdot"
                        f"\\frac{{{decimal(R2)}}}{{{decimal(rho2)}}}{approx(error, 6)}$, i.e. "
                        f"${decimal(error * 100, 4)}\\%$. (1 P)")]
    solution_b = [("p", f"$\\frac{{{tex_num(ratio)}}}{{n+1}}\\le {decimal(epsilon)}\\iff {need(ratio, n_min)}$. "
                        "(1.5 P)")]
    solution_c = [("p", f"The dimension does not appear in the bound: still $n\\ge {n_min}$. {change_a} "
                        f"multiplies $R^2/\\rho^2$ by {tex_num(ratio_c / ratio)}, so one needs "
                        f"${need(ratio_c, n_min_c)}$. (1.5 P)")]
    parts = [
        Part("a", Fraction(1), "easy", [("p", f"Bound the test error for $n={n}$.")], solution_a),
        Part("b", Fraction(3, 2), "harder",
             [("p", f"How many training points guarantee a test error of at most ${eps_pct}\\%$?")], solution_b),
        Part("c", Fraction(3, 2), "transfer",
             [("p", f"The same problem is embedded in $\\mathbb{{R}}^{{{d_large}}}$ instead of "
                    f"$\\mathbb{{R}}^{{{d_small}}}$ (extra coordinates are 0), and separately {change_q}. How do "
                    "the answers of (b) change?")], solution_c),
    ]
    return ExamTask("generalization", seed, "generalization bound", intro, parts, data, answers)
