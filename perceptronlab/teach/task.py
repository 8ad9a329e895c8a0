"""The exam task and its rendering: parts with points, Markdown, LaTeX, Typst and PDF.

An :class:`ExamTask` holds its text as blocks (paragraphs with $…$ math, display math, the
worksheet table, a table of text cells) and renders them in every format;
:mod:`perceptronlab.teach.exams` makes the tasks, one module of :mod:`perceptronlab.teach.kinds`
per kind, and :mod:`perceptronlab.teach.online_exams` those of the online-learning chapter.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction

from perceptronlab._ground import validation as v
from perceptronlab.core.run import Run
from perceptronlab.teach import tex as t

#: the text formats of :meth:`ExamTask.render` (the PDF is :meth:`ExamTask.pdf`)
FORMATS = ("md", "latex", "typst")

#: the worksheet's column names (as ``Run.table`` prints them)
WORKSHEET_HEADER = ("sweep", "point", "y⟨w,x⟩", "mistake?", "w after")

#: the rows of the blank worksheet grid printed under part (a) of a trace task: as many for every
#: variant (a trace run has at most 16 steps), so that the grid tells nothing about the run
GRID_ROWS = 16

#: how many draws a kind's rejection sampling may take before it gives up (it needs a few dozen)
MAX_DRAWS = 200_000


@dataclass
class Part:
    """One sub-task: (a), (b) or (c); a part with the letter ``""`` gets no heading (its text
    carries its own label, as the online-learning chapter's tasks do)."""

    letter: str
    points: Fraction
    level: str
    question: list
    solution: list
    grading: str = ""


#: the letters and levels of a kind's three parts, in order
LEVELS = (("a", "easy"), ("b", "harder"), ("c", "transfer"))

#: the grading note of a worksheet part (a) worth 2 points
HALVES_GRADING = "(2 points: 1 point for the first half of the steps, 1 point for the rest)"


def three_parts(
    points: tuple, questions: tuple, solutions: tuple, grading_a: str = ""
) -> list[Part]:
    """A kind's parts (a) easy, (b) harder and (c) transfer: their ``points``, their questions (a
    paragraph's text, or a list of blocks), their solutions (lists of blocks) and the grading note
    of (a)'s solution."""
    gradings = (grading_a, "", "")
    return [
        Part(letter, Fraction(p), level, [("p", q)] if isinstance(q, str) else q, s, g)
        for (letter, level), p, q, s, g in zip(
            LEVELS, points, questions, solutions, gradings, strict=True
        )
    ]


def required_seed(seed, fix: str = "Pass e.g. seed=0; the same seed gives the same task.") -> int:
    """A generator's seed: an integer >= 0; ``None`` (which elsewhere means "fresh") is refused in
    one line that ends with ``fix``."""
    checked = v.check_seed(seed)
    if checked is None:
        raise v.fail("seed", "an integer >= 0", "None", fix)
    return checked


def exact_points(X) -> list[tuple[Fraction, ...]]:
    """The points as tuples of Fractions (a task's ``data["X"]``)."""
    return [tuple(Fraction(c) for c in x) for x in X]


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

    def _question_lines(self, fmt: str) -> list[str]:
        """The intro and every part's question (its heading with points and level) in ``fmt``."""
        out = render_blocks(self.intro, fmt)
        for part in self.parts:
            head = ("part", part.letter, f"({t.points_text(part.points)}, {part.level})")
            out += render_blocks([head] + part.question, fmt)
        return out

    def _solution_lines(self, fmt: str) -> list[str]:
        """Every part's solution (its heading with the grading note) in ``fmt``."""
        out: list[str] = []
        for part in self.parts:
            out += render_blocks([("part", part.letter, part.grading)] + part.solution, fmt)
        return out

    def markdown(self, solution: bool = False) -> str:
        """The task in Markdown with $…$ math (the solution appended when ``solution``)."""
        out = [f"### Exam-style task: {self.title} ({t.points_text(self.points)})", ""]
        text = "\n".join(out + self._question_lines("md")).rstrip() + "\n"
        return text + "\n" + self.solution_markdown() if solution else text

    def solution_markdown(self) -> str:
        """The worked solution in Markdown."""
        return "\n".join(["#### Solution", ""] + self._solution_lines("md")).rstrip() + "\n"

    def latex(self, solution: bool = False, standalone: bool = False) -> str:
        """The task in LaTeX (a fragment for ``\\input``; needs amsmath, amssymb)."""
        out = [
            f"\\subsection*{{Exam-style task: {self.title} ({t.points_text(self.points)})}}",
            "",
        ]
        text = "\n".join(out + self._question_lines("latex")).rstrip() + "\n"
        if solution:
            text += "\n" + self.solution_latex()
        if standalone:
            text = (
                "\\documentclass{article}\n\\usepackage{amsmath,amssymb}\n\\begin{document}\n\n"
                + text
                + "\n\\end{document}\n"
            )
        return text

    def solution_latex(self) -> str:
        """The worked solution in LaTeX."""
        lines = ["\\subsubsection*{Solution}", ""] + self._solution_lines("latex")
        return "\n".join(lines).rstrip() + "\n"

    def typst(self, solution: bool = False) -> str:
        """The task as a Typst document (an A4 page; the solution after a page break when ``solution``)."""
        from perceptronlab.teach import typeset

        out = [
            typeset.PREAMBLE,
            f"= Exam-style task: {typeset.text_to_typst(self.title)} ({t.points_text(self.points)})",
            "",
        ]
        out += self._question_lines("typst")
        if solution:
            out += ["#pagebreak()", "== Solution", ""] + self._solution_lines("typst")
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

        >>> from perceptronlab.teach.exams import generate
        >>> print(generate("trace", 0).dataset_csv().splitlines()[0])
        x1,x2,y
        """
        if "X" not in self.data:
            raise v.fail(
                "dataset",
                "a task with a dataset (kind 'trace' or 'margin')",
                f"a {self.kind!r} task (it has only R*, rho*, n and epsilon)",
                "Use kind='trace' or kind='margin'.",
            )
        d = len(self.data["X"][0])
        lines = [",".join([f"x{j + 1}" for j in range(d)] + ["y"])]
        lines += [
            ",".join([t.plain(c) for c in x] + [str(int(label))])
            for x, label in zip(self.data["X"], self.data["y"], strict=True)
        ]
        return "\n".join(lines) + "\n"

    def worksheet_csv(self) -> str:
        """A blank worksheet for part (a) of a ``"trace"`` task that carries the task's data
        (:func:`perceptronlab.teach.sheets.blank_sheet`); other kinds have no worksheet and refuse.
        """
        from perceptronlab.teach.sheets import blank_sheet

        if self.kind != "trace":
            raise v.fail(
                "worksheet",
                "a 'trace' task (its part (a) is the worksheet)",
                f"a {self.kind!r} task",
                "Use kind='trace'.",
            )
        return blank_sheet(
            self.data["X"],
            self.data["y"],
            eta=1,
            fit_intercept=False,
            title=f"exam task trace, seed {self.seed}",
        )


def render_blocks(blocks: list, fmt: str) -> list[str]:
    """Blocks → lines. Text uses $…$ math, valid in both Markdown (MathJax/KaTeX) and LaTeX.

    A part heading ("(a) (2 points, easy)") shares its line with the paragraph that follows it.
    """
    from perceptronlab.teach import typeset

    text_of = {"md": lambda t: t, "latex": latex_text, "typst": typeset.prose_to_typst}[fmt]
    out: list[str] = []
    head = ""
    for block in blocks:
        kind = block[0]
        if kind == "part":
            _, letter, note = block
            if not letter:  # a part whose text carries its own label
                continue
            note = typeset.text_to_typst(note) if fmt == "typst" else text_of(note)
            head = {
                "md": f"**({letter})**",
                "latex": f"\\textbf{{({letter})}}",
                "typst": f"*({letter})*",
            }[fmt] + (f" {note}" if note else "")
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
            out += [
                {
                    "md": f"$${block[1]}$$",
                    "latex": f"\\[{block[1]}\\]",
                    "typst": f"$ {typeset.tex_to_typst(block[1])} $",
                }[fmt],
                "",
            ]
        elif kind == "grid":
            out += [blank_grid(block[1], fmt), ""]
        elif kind == "rows":
            out += [rows_table(block[1], block[2], fmt), ""]
        elif kind == "table":
            run = block[1]
            if fmt == "typst":
                out += [
                    typeset.table(list(WORKSHEET_HEADER), [list(r) for r in run.worksheet_rows()]),
                    "",
                ]
            else:
                out += [
                    run.table("md").rstrip()
                    if fmt == "md"
                    else "\\begin{center}\n" + run.table("latex").rstrip() + "\n\\end{center}",
                    "",
                ]
    if head:
        out += [head, ""]
    return out


def rows_table(header, rows, fmt: str) -> str:
    """A table of text cells (a class's matrix, an online-learning worksheet) in ``fmt``."""
    from perceptronlab.teach import typeset

    if fmt == "typst":
        return typeset.table(list(header), [list(row) for row in rows])
    if fmt == "latex":
        head, *body = [" & ".join(latex_text(c) for c in row) + " \\\\" for row in [header, *rows]]
        begin = "\\begin{tabular}{" + "l" * len(header) + "}"
        return "\n".join([begin, head, "\\hline", *body, "\\end{tabular}"])
    lines = ["| " + " | ".join(header) + " |", "| " + " | ".join("---" for _ in header) + " |"]
    return "\n".join(lines + ["| " + " | ".join(row) + " |" for row in rows])


def blank_grid(rows: int, fmt: str) -> str:
    """An empty worksheet to fill in by hand: the worksheet's header and ``rows`` blank rows."""
    from perceptronlab.teach import typeset

    header = list(WORKSHEET_HEADER)
    if fmt == "typst":
        return typeset.table(header, [[" "] * len(header) for _ in range(rows)]).replace(
            "stroke: 0.5pt + gray,", "stroke: 0.5pt + gray, rows: 1.6em,"
        )
    if fmt == "latex":
        head = "sweep & point & $y_i\\langle w,x_i\\rangle$ & mistake? & $w$ after \\\\"
        blank = " & & & & \\\\[1.2ex] \\hline"
        return (
            "\\begin{center}\n\\begin{tabular}{|p{1.2cm}|p{1.2cm}|p{2.6cm}|p{1.8cm}|p{3.2cm}|}\n"
            f"\\hline\n{head} \\hline\n"
            + "\n".join([blank] * rows)
            + "\n\\end{tabular}\n\\end{center}"
        )
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    return "\n".join(lines + ["|" + "   |" * len(header)] * rows)


def latex_text(text: str) -> str:
    """Escape LaTeX specials outside $…$; Unicode marks become commands."""
    parts = text.split("$")
    for k in range(0, len(parts), 2):
        chunk = parts[k]
        for char, repl in (
            ("%", "\\%"),
            ("&", "\\&"),
            ("#", "\\#"),
            ("_", "\\_"),
            ("✓", "$\\checkmark$"),
            ("✗", "$\\times$"),
            ("–", "--"),
        ):
            chunk = chunk.replace(char, repl)
        parts[k] = chunk
    return "$".join(parts)
