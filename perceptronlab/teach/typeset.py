r"""Typst for the exam tasks: TeX math → Typst math, text → Typst markup, Typst → PDF.

The exam tasks write their formulas once, in TeX (``$\rho^2=\tfrac{1}{5}$``), for Markdown
and LaTeX. A printable PDF goes through Typst (the ``typst`` package: the compiler and its fonts
in one wheel, offline, no TeX installation); this module translates the small TeX vocabulary the
tasks use and compiles. :func:`tex_to_typst` follows TeX's rules where they differ from Typst's:
letters side by side are separate symbols (``xy`` is x times y, not a variable ``xy``), braces
group, and ``/`` is a slash, not a fraction.

Examples
--------
>>> tex_to_typst(r"y_i\langle w,x_i\rangle\le 0")
'y_(i)⟨w,x_(i)⟩≤0'
>>> print(tex_to_typst(r"R^2/\rho^2=\tfrac{1}{5}"))
R^(2)\/ρ^(2) = frac(1, 5)
>>> print(text_to_typst("5 mistakes *so far* #1"))
5 mistakes \*so far\* \#1
"""

from __future__ import annotations

import json
import re
import tempfile
from pathlib import Path

#: TeX commands → the Unicode symbol Typst math takes as it is
SYMBOLS: dict[str, str] = {
    "rho": "ρ",
    "eta": "η",
    "epsilon": "ε",
    "varepsilon": "ε",
    "alpha": "α",
    "beta": "β",
    "gamma": "γ",
    "delta": "δ",
    "lambda": "λ",
    "mu": "μ",
    "sigma": "σ",
    "theta": "θ",
    "pi": "π",
    "langle": "⟨",
    "rangle": "⟩",
    "|": "‖",
    "ge": "≥",
    "geq": "≥",
    "le": "≤",
    "leq": "≤",
    "ne": "≠",
    "iff": "⟺",
    "Leftrightarrow": "⟺",
    "implies": "⟹",
    "Rightarrow": "⟹",
    "leftarrow": "←",
    "rightarrow": "→",
    "to": "→",
    "approx": "≈",
    "cdot": "·",
    "times": "×",
    "checkmark": "✓",
    "in": "∈",
    "infty": "∞",
    "dots": "…",
    "ldots": "…",
    "pm": "±",
    "sum": "∑",
    "%": "%",
    ",": " ",
    ";": " ",
    " ": " ",
    "{": "{",
    "}": "}",
    "_": "\\_",
}
#: TeX operators written as words
OPERATORS = {"max": "max", "min": "min", "sqrt": "sqrt", "log": "log", "exp": "exp"}
#: commands with no output of their own (sizes of delimiters)
SILENT = {"left", "right", "big", "Big", "bigl", "bigr", "displaystyle", "textstyle"}
#: \mathbb{X} → the double-struck letter
DOUBLE_STRUCK = {"R": "ℝ", "N": "ℕ", "Z": "ℤ", "Q": "ℚ", "C": "ℂ"}

_TOKEN = re.compile(r"\\([A-Za-z]+|.)|(\d+(?:\.\d+)?)|([A-Za-z])|(\s+)|(.)", re.S)


class _Reader:
    """Tokens of a TeX math string, read left to right with one-group look-ahead."""

    def __init__(self, tex: str):
        self.tokens = [m for m in _TOKEN.finditer(tex) if not m.group(4)]
        self.pos = 0

    def done(self) -> bool:
        return self.pos >= len(self.tokens)

    def next(self) -> re.Match:
        token = self.tokens[self.pos]
        self.pos += 1
        return token

    def group(self) -> str:
        """The next argument: a {...} group or one token, translated."""
        if self.done():
            return ""
        token = self.next()
        if token.group(5) == "{":
            depth, start = 1, self.pos
            while not self.done() and depth:
                mark = self.next().group(5)
                depth += {"{": 1, "}": -1}.get(mark, 0)
            inner = _Reader("")
            inner.tokens = self.tokens[start : self.pos - 1]
            return inner.translate()
        self.pos -= 1
        return self.one()

    def one(self) -> str:
        token = self.next()
        command, number, letter, _, other = token.groups()
        if command is not None:
            if command in ("frac", "tfrac", "dfrac"):
                top = self.group()
                return f"frac({top}, {self.group()})"
            if command == "sqrt":
                return f"sqrt({self.group()})"
            if command == "mathbb":
                arg = self.group()
                return DOUBLE_STRUCK.get(arg, f"bb({arg})")
            if command in ("text", "mathrm", "operatorname"):
                return json.dumps(self.group(), ensure_ascii=False)
            if command in SILENT:
                return ""
            if command in SYMBOLS:
                return SYMBOLS[command]
            if command in OPERATORS:
                return OPERATORS[command]
            raise ValueError(f"no Typst translation for the TeX command \\{command}")
        if number is not None:
            return number
        if letter is not None:
            return letter
        if other in ("^", "_"):
            arg = self.group()
            return (
                f"{other}({arg})"  # always grouped: Typst would attach `i⟨w,x⟩` whole to `y_i⟨w,x⟩`
            )
        if other == "{":
            self.pos -= 1
            return self.group()
        return {
            "/": "\\/",
            "*": "*",
            "'": "'",
            '"': '\\"',
            "#": "\\#",
            "$": "\\$",
            "[": "\\[",
            "]": "\\]",
            "=": " = ",
            "<": " < ",
            ">": " > ",
            "+": "+",
            "-": "-",
            "&": "",
            "~": " ",
        }.get(other, other)

    def translate(self) -> str:
        pieces: list[str] = []
        while not self.done():
            piece = self.one()
            if piece:
                pieces.append(piece)
        return _join(pieces)


def _join(pieces: list[str]) -> str:
    """Pieces side by side, with a space where two would read as one name (TeX's ``xy`` is x·y;
    Typst's is a variable ``xy``)."""
    out = ""
    for piece in pieces:
        if out and out[-1].isalnum() and piece[0].isalnum():
            out += " "
        out += piece
    return re.sub(r" {2,}", " ", out).strip()


def tex_to_typst(tex: str) -> str:
    """TeX math (the exam tasks' vocabulary) as Typst math, without the ``$`` delimiters."""
    return _Reader(tex).translate()


_MARKUP = re.compile(r"([\\*_#$@<>\[\]~`/])")


def text_to_typst(text: str) -> str:
    """Plain text as Typst markup: the characters Typst gives a meaning escaped."""
    return _MARKUP.sub(r"\\\1", text)


def prose_to_typst(text: str) -> str:
    """Text with ``$…$`` TeX math (the exam tasks' paragraphs) as Typst markup with math."""
    parts = text.split("$")
    return "".join(
        text_to_typst(part) if k % 2 == 0 else f"${tex_to_typst(part)}$"
        for k, part in enumerate(parts)
    )


def string(value: str) -> str:
    """A Typst string literal."""
    return json.dumps(str(value), ensure_ascii=False)


def table(header: list[str], rows: list[list[str]]) -> str:
    """A Typst table of text cells, the header row bold."""
    cells = ", ".join(string(c) for row in rows for c in row)
    head = ", ".join(f"[*{text_to_typst(c)}*]" if c else "[]" for c in header)
    return (
        f"#table(columns: {len(header)}, align: left, stroke: 0.5pt + gray,\n"
        f"  table.header({head}),\n  {cells})"
    )


#: the page every document gets (A4, the compiler's own fonts)
PREAMBLE = (
    '#set page(paper: "a4", margin: 2.2cm)\n#set text(size: 11pt)\n'
    "#set par(justify: true)\n#show heading: set block(above: 1.4em, below: 0.8em)\n"
)


def compile_pdf(source: str) -> bytes:
    """Compile a Typst document to PDF bytes with the compiler's embedded fonts only (the same
    output on every machine). Needs the ``typst`` package: ``pip install 'perceptronlab[pdf]'``.
    """
    try:
        import typst
    except ImportError as exc:  # pragma: no cover - the pdf extra is part of `all`
        from perceptronlab._ground.validation import fail

        raise fail(
            "format",
            "'pdf' with the typst package installed",
            f"no typst ({exc})",
            "Install the pdf extra: pip install 'perceptronlab[pdf]'.",
        ) from None
    with tempfile.TemporaryDirectory(prefix="perceptronlab-typst-") as folder:
        main = Path(folder) / "main.typ"
        main.write_text(source, encoding="utf-8")
        return typst.compile(str(main), root=folder, format="pdf", ignore_system_fonts=True)
