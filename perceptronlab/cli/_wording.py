"""Python wording → command-line wording, in one place.

The library's messages speak Python: ``Pass e.g. eta=1.0``, ``raise max_epochs``,
``use perceptronlab.pocket``. On the command line the same advice names the command's own flags:
``Pass e.g. --eta 1.0``, ``raise --max-sweeps``, ``use --algorithm pocket``. The library keeps its
messages; :func:`to_command_line` rewrites one for the command that raised it, naming only flags
that this command has (a parameter the command does not expose stays as the library wrote it).

Examples
--------
>>> flags = {"eta": ("--eta", None, False), "intercept": ("--intercept", "--no-intercept", True),
...          "max_sweeps": ("--max-sweeps", None, False)}
>>> to_command_line("eta (the learning rate): expected a number > 0, got -1. Pass e.g. eta=1.0.", flags)
'--eta (the learning rate): expected a number > 0, got -1. Pass e.g. --eta 1.0.'
>>> to_command_line("No clean epoch within max_epochs=100; raise max_epochs.", flags)
'No clean epoch within --max-sweeps 100; raise --max-sweeps.'
>>> to_command_line("Pass fit_intercept=False, or seed=0.", flags)
'Pass --no-intercept, or seed=0.'
"""

from __future__ import annotations

import re
from typing import Any

#: a library parameter → the name of the command-line parameter that sets it
PARAMETERS: dict[str, str] = {
    "X, y": "data",  # the data of a worksheet (perceptronlab.teach.sheets)
    "eta": "eta",
    "margin": "margin",
    "max_sweeps": "max_sweeps",
    "max_epochs": "max_sweeps",  # the Dask/streaming backend counts sweeps as epochs
    "max_updates": "max_updates",
    "seed": "seed",
    "order": "order",
    "label": "label",
    "fit_intercept": "intercept",
    "exact": "exact",
    "fmt": "data_format",
    "shards": "shards",
    "trials": "trials",
    "kind": "kind",
    "max_bytes": "max_bytes",
    "scale": "scale",
    "features": "features",
    "ignore": "ignore",
    "categorical": "categorical",
    "missing": "missing",
}

#: a library call named in advice → (the command-line parameter it needs, what to say instead)
CALLS: tuple[tuple[str, str | None, str], ...] = (
    ("perceptronlab.separable(X, y)", None, "`perceptronlab analyze DATA`"),
    ("perceptronlab.pocket", "algorithm", "--algorithm pocket"),
    ("perceptronlab.pocket", None, "pocket (`perceptronlab train DATA --algorithm pocket`)"),
    ("perceptronlab.averaged_perceptron", "algorithm", "--algorithm averaged"),
    (
        "perceptronlab.averaged_perceptron",
        None,
        "the averaged perceptron (`perceptronlab train DATA --algorithm averaged`)",
    ),
)

#: name → (long flag, negative flag or None, is a boolean flag)
Flags = dict[str, tuple[str, "str | None", bool]]

_ASSIGNMENT = re.compile(r"\b(?P<name>[a-z_]+)=(?P<value>'[^']*'|\"[^\"]*\"|-?[\w.+-]*\w)")
_IDENTIFIER = re.compile(r"\b(?P<name>[a-z]+(?:_[a-z]+)+)\b")  # names with an underscore only
_HEAD = re.compile(r"^(?P<name>X, y|[a-z_]+)(?=[ :])")


def flags_of(command: Any) -> Flags:
    """The long flags of a Click/Typer command's options: ``{name: (flag, negative, is_flag)}``."""
    flags: Flags = {}
    for param in getattr(command, "params", ()):
        long_opts = [o for o in getattr(param, "opts", ()) if o.startswith("--")]
        if not long_opts or param.name is None:
            continue
        negative = next(
            (o for o in getattr(param, "secondary_opts", ()) if o.startswith("--")), None
        )
        flags[param.name] = (long_opts[0], negative, bool(getattr(param, "is_flag", False)))
    return flags


def _flag(name: str, flags: Flags) -> tuple[str, str | None, bool] | None:
    cli_name = PARAMETERS.get(name)
    return None if cli_name is None else flags.get(cli_name)


def _assignment(match: re.Match, flags: Flags) -> str:
    found = _flag(match.group("name"), flags)
    if found is None:
        return match.group(0)
    flag, negative, is_flag = found
    value = match.group("value").strip("'\"")
    if value in ("True", "False") and is_flag:
        if value == "True":
            return flag
        return negative if negative is not None else f"no {flag}"
    if value == "None":
        return f"no {flag}"
    return f"{flag} {value}"


def to_command_line(message: str, flags: Flags) -> str:
    """``message`` with the library's parameter names and calls replaced by the command's flags.

    Parameters
    ----------
    message : a library message (an error or a warning).
    flags : the command's flags, as :func:`flags_of` gives them.
    """
    text = _ASSIGNMENT.sub(lambda m: _assignment(m, flags), message)
    head = _HEAD.match(text)
    flag = None if head is None else _flag(head.group("name"), flags)
    if head is not None and flag is not None:
        text = flag[0] + text[head.end() :]
    text = _IDENTIFIER.sub(lambda m: (_flag(m.group("name"), flags) or (m.group(0),))[0], text)
    for call, needs, instead in CALLS:
        if needs is None or needs in flags:
            text = text.replace(call, instead)
    return text
