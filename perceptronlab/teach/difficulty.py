"""What makes two variants of one exam task equally hard: the same number of points, mistakes and
sweeps (the clean sweep included), or the instructor's ranges of them.

:func:`profile` reads a task's numbers; :func:`seed_profile` reads them for a seed without the
whole key where the kind allows (a ``"trace"`` task: its data and run only);
:func:`parse_range` reads ``--mistakes 4-5``. :mod:`perceptronlab.teach.variants` draws each
student's seed until its profile is the class's.

Examples
--------
>>> from perceptronlab.teach.exams import generate
>>> shape = profile(generate("trace", 0))
>>> sorted(shape), shape == seed_profile("trace", 0)
(['mistakes', 'points', 'sweeps'], True)
>>> parse_range("--mistakes", "4-5"), parse_range("--points", "3")
((4, 5), (3, 3))
"""

from __future__ import annotations

import re

from perceptronlab._ground import validation as v
from perceptronlab.teach.task import ExamTask

#: the quantities a class's variants share, in the order the key names them
QUANTITIES = ("points", "mistakes", "sweeps")
#: the flag of each quantity
FLAGS = {"points": "--points", "mistakes": "--mistakes", "sweeps": "--sweeps"}
#: the words of each quantity in text (the data's points are not the exam's points)
WORDS = {"points": "data points", "mistakes": "mistakes", "sweeps": "sweeps"}
_RANGE = re.compile(r"\s*(\d{1,3})\s*(?:-\s*(\d{1,3})\s*)?")

Profile = dict[str, int]
Ranges = dict[str, tuple[int, int]]


def parse_range(flag: str, text: str | None) -> tuple[int, int] | None:
    """``"4-5"`` → ``(4, 5)``, ``"4"`` → ``(4, 4)``, ``None`` → ``None``; anything else one clear line."""
    if text is None:
        return None
    match = _RANGE.fullmatch(str(text))
    if match is None or int(match[1]) < 1 or int(match[2] or match[1]) < int(match[1]):
        raise v.fail(
            flag,
            "a count or a range LOW-HIGH of counts >= 1 (e.g. 4 or 4-5)",
            repr(str(text)[:40]),
            f"Use e.g. {flag} 4-5.",
        )
    return int(match[1]), int(match[2] or match[1])


def profile(task: ExamTask) -> Profile:
    """The task's points (data rows), mistakes and sweeps, those of them the kind has."""
    out: Profile = {}
    if "X" in task.data:
        out["points"] = len(task.data["X"])
    mistakes = task.answers.get("mistakes")
    if not isinstance(mistakes, int):
        mistakes = task.answers.get("total")  # the online task's list of mistakes has its total
    if isinstance(mistakes, int):
        out["mistakes"] = mistakes
    if isinstance(task.answers.get("sweeps"), int):
        out["sweeps"] = task.answers["sweeps"]
    return out


def seed_profile(kind: str, seed: int) -> Profile:
    """:func:`profile` of ``generate(kind, seed)``; for ``"trace"``, ``"eta"`` and
    ``"margin-perceptron"`` from the draw alone (a fraction of the work), the very data and run
    the task is then built on."""
    from perceptronlab.teach.exams import generate, task_rng

    if kind == "trace":
        from perceptronlab.teach.kinds.trace import trace_data

        X, _, shape = trace_data(task_rng(kind, seed), seed)
        return {"points": len(X), "mistakes": shape["mistakes"], "sweeps": shape["sweeps"]}
    if kind == "eta":
        from perceptronlab.teach.kinds.eta import eta_draw

        X, _, _, mistakes = eta_draw(task_rng(kind, seed), seed)
        return {"points": len(X), "mistakes": mistakes}
    if kind == "margin-perceptron":
        from perceptronlab.teach.kinds.margin_perceptron import margin_perceptron_draw

        X, _, _, run = margin_perceptron_draw(task_rng(kind, seed), seed)
        return {"points": len(X), "mistakes": run.mistakes, "sweeps": run.sweeps}

    return profile(generate(kind, seed))  # type: ignore[arg-type]


def fits(shape: Profile, ranges: Ranges) -> bool:
    """Whether every quantity of ``shape`` with a range lies in it."""
    return all(low <= shape.get(name, low) <= high for name, (low, high) in ranges.items())


def describe(shape: Profile | Ranges) -> str:
    """``"3 data points, 5 mistakes, 4 sweeps"`` (a range as ``4–5 mistakes``)."""
    parts = []
    for name in QUANTITIES:
        if name in shape:
            value = shape[name]
            if isinstance(value, tuple):
                low, high = value
                text = str(low) if low == high else f"{low}–{high}"
            else:
                text = str(value)
            parts.append(f"{text} {WORDS[name]}")
    return ", ".join(parts)
