"""A whole class: one variant of an exam task per student, reproducible from a seed and the
student's identifier, and one key that lists every variant.

Each student's task is :func:`perceptronlab.teach.exams.generate` at :func:`variant_seed` (a
hash of the class seed and the identifier), so a variant can be made again from those two alone,
on any machine. The variants are equally hard by construction: a kind draws every variant from the
same ranges under the same acceptance rules (the same parts and points, hand-sized numbers, the
same run lengths); two students never share a task while the kind has enough distinct ones.

Examples
--------
>>> variants = class_variants("margin", 7, ["ada", "alan", "grace"])
>>> [v.student for v in variants], len({v.task.markdown() for v in variants})
(['ada', 'alan', 'grace'], 3)
>>> class_variants("margin", 7, ["alan"])[0].seed == variants[1].seed
True
"""

from __future__ import annotations

import hashlib
import re
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

from perceptronlab._ground import validation as v
from perceptronlab.teach.difficulty import (
    FLAGS,
    QUANTITIES,
    Ranges,
    describe,
    fits,
    profile,
    seed_profile,
)
from perceptronlab.teach.exams import Kind, generate
from perceptronlab.teach.task import ExamTask, required_seed

#: the most students of one class (each gets a file)
MAX_STUDENTS = 5000
#: a student identifier: it names the student's files
STUDENT_ID = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]{0,63}")
#: how many seeds a student's variant may try before it may repeat another student's
ATTEMPTS = 20
#: how many seeds a student's variant (or the class's difficulty) may try before the ranges are
#: called impossible
MAX_ATTEMPTS = 400
#: how many draws of the class seed decide the difficulty every variant shares
SAMPLES = 16
#: the kinds whose difficulty has a run (mistakes, sweeps) to share
RUN_KINDS = ("trace", "margin-perceptron", "eta", "online")


@dataclass(frozen=True)
class Variant:
    """One student's task: the identifier, the variant's seed and the task with its key."""

    student: str
    seed: int
    task: ExamTask


def variant_seed(seed: int, student: str, attempt: int = 0) -> int:
    """The seed of ``student``'s variant in the class of ``seed`` (a 48-bit hash of both).

    >>> variant_seed(0, "ada") == variant_seed(0, "ada") != variant_seed(1, "ada")
    True
    """
    text = f"perceptronlab-variant|{seed}|{student}" + (f"|{attempt}" if attempt else "")
    return int.from_bytes(hashlib.sha256(text.encode("utf-8")).digest()[:6], "big")


def student_ids(count: int) -> list[str]:
    """``student-001`` ... for a class given only by its size."""
    count = v.check_positive_int("variants", count, "Ask for e.g. 30 variants, one per student.")
    if count > MAX_STUDENTS:
        raise v.fail(
            "variants", f"at most {MAX_STUDENTS}", str(count), "Split the class into groups."
        )
    width = max(3, len(str(count)))
    return [f"student-{k:0{width}d}" for k in range(1, count + 1)]


def _shape(student: str) -> str:
    """The shape of an identifier: its runs of digits (9) and of letters (a) and the characters
    between them, e.g. ``matr`` -> ``a``, ``1001`` -> ``9``, ``student-001`` -> ``a-9``."""
    return re.sub(r"(9)9+|(a)a+", r"\1\2", re.sub(r"[A-Za-z]", "a", re.sub(r"\d", "9", student)))


def is_header(first: str, rest: list[str]) -> bool:
    """Whether a roster's first cell is a header, by its content: a word of the usual headers, not
    an identifier at all (``Matr. Nr``), or of another shape than every identifier below it
    (``matr`` above ``1001``, ``1002``, ...)."""
    words = {"student", "students", "id", "ids", "student_id", "name", "matr", "matrikel"}
    if first.lower() in words or not STUDENT_ID.fullmatch(first):
        return True
    shapes = {_shape(s) for s in rest}
    return len(rest) >= 2 and len(shapes) == 1 and _shape(first) not in shapes


def read_students(path: str | Path) -> list[str]:
    """The identifiers of a roster file: one per line (the first cell of a CSV row); blank lines are
    skipped; a first line that is a header by its content (:func:`is_header`) is dropped."""
    from perceptronlab.teach.checker import csv_rows, read_sheet_file

    rows = csv_rows(read_sheet_file(path), "roster")
    ids = [row[0].strip() for row in rows if row and row[0].strip()]
    if ids and is_header(ids[0], ids[1:]):
        ids = ids[1:]
    return check_students(ids)


def check_students(students: list[str]) -> list[str]:
    """The identifiers, checked: 1 to :data:`MAX_STUDENTS`, distinct, each usable as a file name."""
    if not students:
        raise v.fail(
            "students", "at least one student identifier", "none", "List one identifier per line."
        )
    if len(students) > MAX_STUDENTS:
        raise v.fail(
            "students",
            f"at most {MAX_STUDENTS}",
            str(len(students)),
            "Split the class into groups.",
        )
    for student in students:
        if not STUDENT_ID.fullmatch(student):
            raise v.fail(
                "student identifier",
                "letters, digits, '.', '_' or '-' (at most 64, no spaces)",
                repr(student[:80]),
                "Use e.g. the matriculation number.",
            )
    seen: dict[str, str] = {}
    for student in students:
        if student.lower() in seen:
            twice = (
                f"{student!r} twice"
                if seen[student.lower()] == student
                else f"{seen[student.lower()]!r} and {student!r} (one name on a file system "
                "that ignores case)"
            )
            raise v.fail(
                "student identifier",
                "each student once (compared ignoring case)",
                twice,
                "Remove the repeat, or tell the two apart by more than case.",
            )
        seen[student.lower()] = student
    return list(students)


def class_variants(
    kind: Kind, seed: int, students: list[str], ranges: Ranges | None = None
) -> list[Variant]:
    """One variant of ``kind`` per student, distinct while the kind has enough tasks, all of the
    same difficulty: :func:`class_ranges` (the same points, mistakes and sweeps, or the
    instructor's ``ranges`` of them, e.g. ``{"mistakes": (4, 5)}``). Each variant's seed alone
    gives its task again (``generate(kind, variant.seed)``)."""
    checked = required_seed(seed, "Pass e.g. seed=0: the class's variants follow from it.")
    students = check_students(list(students))
    shared = class_ranges(kind, checked, ranges or {})
    seen: set[str] = set()
    variants = []
    for student in students:
        variant = _student_variant(kind, checked, student, shared, seen)
        seen.add(variant.task.markdown())
        variants.append(variant)
    return variants


def _student_variant(
    kind: Kind, seed: int, student: str, shared: Ranges, seen: set[str]
) -> Variant:
    """The student's first seed whose task has the class's difficulty and no other student's text
    (after :data:`ATTEMPTS` repeats a repeat is kept)."""
    repeat = None
    repeats = 0
    for attempt in range(MAX_ATTEMPTS):
        student_seed = variant_seed(seed, student, attempt)
        if shared and not fits(seed_profile(kind, student_seed), shared):
            continue
        task = generate(kind, student_seed)
        if task.markdown() not in seen:
            return Variant(student, student_seed, task)
        repeat = repeat or Variant(student, student_seed, task)
        repeats += 1
        if repeats >= ATTEMPTS:
            return repeat
    if repeat is not None:
        return repeat
    raise _too_narrow(kind, shared, f"no variant for {student!r} within {MAX_ATTEMPTS} draws")


def class_ranges(kind: Kind, seed: int, ranges: Ranges) -> Ranges:
    """What every variant of the class shares: the instructor's ``ranges``, and each other
    quantity of the kind's :func:`~perceptronlab.teach.difficulty.profile` pinned to its most common
    value among :data:`SAMPLES` draws of the class seed that fit them (points first, then mistakes,
    then sweeps). Kinds without a run (margin, generalization, distance, pocket) have a fixed
    number of points by construction and nothing to pin; ranges for them are refused."""
    for name, (low, high) in ranges.items():
        if name not in QUANTITIES or low < 1 or high < low:
            raise v.fail("difficulty range", "points, mistakes or sweeps: LOW-HIGH", repr(name), "")
    if kind not in RUN_KINDS:
        if ranges:
            raise v.fail(
                " / ".join(FLAGS[name] for name in ranges),
                f"a kind with a run ({', '.join(RUN_KINDS)})",
                f"--kind {kind}",
                "Drop the range: this kind's variants all have the same points by construction.",
            )
        return {}
    samples = []
    draws = 0
    for k in range(MAX_ATTEMPTS):
        draws = k + 1
        shape = seed_profile(kind, variant_seed(seed, "|class-difficulty", k))
        if fits(shape, ranges):
            samples.append(shape)
            if len(samples) == SAMPLES:
                break
        elif not samples and k + 1 >= MAX_ATTEMPTS // 4:
            break  # not one fit in a quarter of the draws: the ranges cannot be met
    if len(samples) < SAMPLES:  # rarer than 1 in 25: the students' draws would take too long
        raise _too_narrow(kind, ranges, f"{len(samples)} of {draws} draws fit")
    shared = dict(ranges)
    for name in QUANTITIES:
        if name in samples[0] and name not in shared:
            value = Counter(shape[name] for shape in samples).most_common(1)[0][0]
            shared[name] = (value, value)
            samples = [shape for shape in samples if shape[name] == value]
    return shared


def _too_narrow(kind: str, ranges: Ranges, got: str) -> Exception:
    flags = " ".join(f"{FLAGS[n]} {lo}-{hi}" for n, (lo, hi) in ranges.items())
    return v.fail(
        "difficulty ranges",
        f"ranges the {kind} task can meet (e.g. trace: 3-4 data points, 3-10 mistakes, 2-5 sweeps)",
        f"{flags or 'the class default'}: {got}",
        "Widen the ranges, e.g. --mistakes 4-6.",
    )


def shared_text(variants: list[Variant]) -> str:
    """What every variant shares, for the key: the parts with their points, and the data's
    points, the run's mistakes and sweeps (a range where the instructor gave one)."""
    shapes = [profile(variant.task) for variant in variants]
    spans = {
        name: (min(s[name] for s in shapes), max(s[name] for s in shapes))
        for name in QUANTITIES
        if shapes and all(name in s for s in shapes)
    }
    parts = variants[0].task.parts if variants else []
    from perceptronlab.teach.tex import points_text

    text = "Every variant has the same parts (" + ", ".join(
        f"({p.letter}) {points_text(p.points)}, {p.level}" for p in parts
    )
    text += ")" + (f" and {describe(spans)}" if spans else "")
    return text + (" (the sweeps count the clean one)." if "sweeps" in spans else ".")


def key_markdown(variants: list[Variant], kind: str, seed: int) -> str:
    """The answer key of the whole class in Markdown: every variant with its solution."""
    out = [f"# Answer key: {kind}, class seed {seed}, {len(variants)} variants", ""]
    out += [shared_text(variants), ""]
    for variant in variants:
        out += [
            f"## {variant.student} (variant seed {variant.seed})",
            "",
            variant.task.markdown(solution=True),
            "",
        ]
    return "\n".join(out).rstrip() + "\n"


def key_typst(variants: list[Variant], kind: str, seed: int) -> str:
    """The answer key as one Typst document: a page (or more) per variant."""
    from perceptronlab.teach import typeset

    out = [typeset.PREAMBLE, f"= Answer key: {typeset.text_to_typst(kind)}, class seed {seed}", ""]
    out += [typeset.text_to_typst(shared_text(variants)), ""]
    for k, variant in enumerate(variants):
        body = variant.task.typst(solution=True)
        body = body[len(typeset.PREAMBLE) :] if body.startswith(typeset.PREAMBLE) else body
        out += ([] if k == 0 else ["#pagebreak()"]) + [
            f"== {typeset.text_to_typst(variant.student)} (variant seed {variant.seed})",
            body,
        ]
    return "\n".join(out).rstrip() + "\n"
