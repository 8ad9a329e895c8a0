"""Text from users (class labels, column and file names) made inert for the output it lands in.

One function per output, used by every writer of that output:

- :func:`html_text`: HTML, for every HTML writer (``report``, ``trace -f html``, the LMS exports);
- :func:`latex_text`: LaTeX, as live text (never a comment): the ten special characters escaped,
  line breaks and other control characters made spaces, so that nothing a label holds is read as
  a command;
- :func:`markdown_text`: one line of Markdown (a heading), raw HTML made literal text;
- :func:`flat_text`: one line of plain text (a CSV comment);
- :func:`mathtext_literal`: a plot's text (matplotlib), where ``$…$`` would start math text.

>>> html_text('<img src=x onerror="alert(1)"> & co')
'&lt;img src=x onerror=&quot;alert(1)&quot;&gt; &amp; co'
>>> print(latex_text('a\\n\\\\input{/etc/passwd} 50% $x_1$'))
a \\textbackslash{}input\\{/etc/passwd\\} 50\\% \\$x\\_1\\$
>>> mathtext_literal("$\\\\frac$")
'\\\\$\\\\frac\\\\$'
"""

from __future__ import annotations

import html
import re
from typing import Any

__all__ = ["flat_text", "html_text", "latex_text", "markdown_text", "mathtext_literal"]

_LATEX = {
    "\\": r"\textbackslash{}",
    "{": r"\{",
    "}": r"\}",
    "$": r"\$",
    "&": r"\&",
    "#": r"\#",
    "%": r"\%",
    "_": r"\_",
    "^": r"\textasciicircum{}",
    "~": r"\textasciitilde{}",
}
#: CommonMark's punctuation that can start markup or raw HTML (a backslash makes each literal)
_MARKDOWN_SPECIAL = re.compile(r"([\\`*_{}\[\]<>()#+!|&~])")
_LATEX_SPECIAL = re.compile(r"[\\{}$&#%_^~]")
#: line breaks (a LaTeX comment or a paragraph ends there) and the other control characters
_CONTROL = re.compile(r"[\x00-\x1f\x7f\u0085\u2028\u2029]+")


def flat_text(value: Any) -> str:
    """``value`` on one line: line breaks and other control characters made one space (a comment
    line of a CSV or a Markdown heading that a label cannot end)."""
    return _CONTROL.sub(" ", str(value))


def html_text(value: Any) -> str:
    """``value`` as HTML text, safe in an element and in a quoted attribute."""
    return html.escape(str(value), quote=True)


def latex_text(value: Any) -> str:
    """``value`` as LaTeX text: specials escaped, control characters (line breaks) made one space."""
    return _LATEX_SPECIAL.sub(lambda match: _LATEX[match.group()], flat_text(value))


def markdown_text(value: Any) -> str:
    """``value`` as one line of Markdown text: the punctuation that starts markup or raw HTML
    backslash-escaped (``<img …>`` stays text in a Markdown viewer)."""
    return _MARKDOWN_SPECIAL.sub(r"\\\1", flat_text(value))


def mathtext_literal(value: Any) -> str:
    """``value`` shown literally in a matplotlib text: each ``$`` escaped, so no math text starts."""
    return str(value).replace("$", r"\$")
