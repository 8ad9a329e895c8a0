"""Moodle XML and QTI 1.2: what is written is read back, with the standard library's XML parser
(no code shared with the writer), to the same questions, keys, tolerances and feedback.

No XML schema for either format ships in a PyPI package (Moodle documents its format on
docs.moodle.org; the QTI 1.2 XSD is on IMS's site), so the tests read the files the way an
importer does: Moodle's ``qformat_xml`` reads ``question/@type``, ``name/text``,
``answer/@fraction``, ``answer/text``, ``tolerance`` and ``feedback/text``; Canvas reads the
``question_type`` metadata, the ``response_label`` idents and the ``respcondition`` that sets
``SCORE`` to 100.
"""

from __future__ import annotations

import io
import re
import zipfile
from fractions import Fraction
from xml.etree import ElementTree as ET

import pytest
from typer.testing import CliRunner

from perceptronlab import perceptron
from perceptronlab.cli import app
from perceptronlab.teach.lms import QTI_NS, key_text, moodle_xml, qti_package
from perceptronlab.teach.quiz import quiz

Q = {"q": QTI_NS}
runner = CliRunner()


def read_moodle(text: str) -> list[dict]:
    root = ET.fromstring(text.encode("utf-8"))
    assert root.tag == "quiz"
    out = []
    for element in root.findall("question"):
        kind = element.get("type")
        if kind == "category":
            continue
        entry = {
            "type": kind,
            "name": element.findtext("name/text"),
            "prompt": element.findtext("questiontext/text"),
            "general": element.findtext("generalfeedback/text"),
        }
        entry["answers"] = [
            {
                "fraction": a.get("fraction"),
                "text": a.findtext("text"),
                "tolerance": a.findtext("tolerance"),
                "feedback": a.findtext("feedback/text"),
            }
            for a in element.findall("answer")
        ]
        entry["grader"] = element.findtext("graderinfo/text")
        out.append(entry)
    return out


@pytest.mark.parametrize("seed", range(12))
def test_moodle_reads_back_to_the_same_questions(seed):
    questions = quiz(seed, 30)
    read = read_moodle(moodle_xml(questions))
    assert [r["name"] for r in read] == [q.id for q in questions]
    for question, entry in zip(questions, read, strict=True):
        assert entry["prompt"] == question.prompt
        if question.kind == "choice":
            assert entry["type"] == "multichoice"
            assert [
                (a["text"], a["fraction"] == "100", a["feedback"]) for a in entry["answers"]
            ] == [(o.text, o.correct, o.why) for o in question.options]
        elif question.kind == "numeric":
            assert entry["type"] == "numerical"
            (answer,) = entry["answers"]
            key, tolerance = Fraction(answer["text"]), Fraction(answer["tolerance"])
            assert abs(key - question.value) <= tolerance  # the key Moodle stores is accepted ...
            assert question.value - tolerance <= question.value <= question.value + tolerance
            assert tolerance <= question.tolerance + Fraction(
                1, 10**9
            )  # ... and nothing far from it
            assert answer["feedback"] == question.explanation
        else:
            assert entry["type"] == "essay" and entry["grader"] == question.answer
        assert entry["general"] == question.explanation


def test_moodle_cloze_worksheet_holds_the_exact_run():
    X, y = [[1, 0], [1, 1], [0, 1]], [1, -1, -1]
    run = perceptron(X, y, exact=True, trace=True)
    read = read_moodle(moodle_xml([], worksheets=[("sheet", "Fill in the run.", run)]))
    (entry,) = read
    assert entry["type"] == "cloze"
    fields = re.findall(r"\{1:(NUMERICAL|MULTICHOICE):([^}]*)\}", entry["prompt"])
    numbers = [
        Fraction(body.split(":")[0].lstrip("=")) for kind, body in fields if kind == "NUMERICAL"
    ]
    choices = [body for kind, body in fields if kind == "MULTICHOICE"]
    expected_numbers, expected_choices = [], []
    for step in run.steps:
        if step.sweep == run.sweeps:
            continue
        expected_numbers += [step.score, *step.w]
        expected_choices.append("=yes~no" if step.mistake else "yes~=no")
    expected_numbers += [s.score for s in run.steps if s.sweep == run.sweeps]
    assert numbers == expected_numbers and choices == expected_choices + ["yes~=no"]


def read_qti(package: bytes) -> list[dict]:
    with zipfile.ZipFile(io.BytesIO(package)) as archive:
        manifest = ET.fromstring(archive.read("imsmanifest.xml"))
        resource = manifest.find(".//{http://www.imsglobal.org/xsd/imscp_v1p1}resource")
        assert resource is not None and resource.get("type") == "imsqti_xmlv1p2"
        root = ET.fromstring(archive.read(resource.get("href")))
    assert root.tag == f"{{{QTI_NS}}}questestinterop"
    out = []
    for item in root.iterfind(".//q:item", Q):
        meta = {
            f.findtext("q:fieldlabel", namespaces=Q): f.findtext("q:fieldentry", namespaces=Q)
            for f in item.iterfind(".//q:qtimetadatafield", Q)
        }
        labels = {
            label.get("ident"): label.findtext(".//q:mattext", namespaces=Q)
            for label in item.iterfind(".//q:response_label", Q)
        }
        feedback = {
            fb.get("ident"): fb.findtext(".//q:mattext", namespaces=Q)
            for fb in item.iterfind("q:itemfeedback", Q)
        }
        scoring = [
            c for c in item.iterfind(".//q:respcondition", Q) if c.find("q:setvar", Q) is not None
        ]
        entry = {
            "ident": item.get("ident"),
            "type": meta["question_type"],
            "labels": labels,
            "feedback": feedback,
            "prompt": item.findtext("q:presentation/q:material/q:mattext", namespaces=Q),
        }
        if scoring:
            (condition,) = scoring
            assert condition.findtext("q:setvar", namespaces=Q) == "100"
            entry["equal"] = condition.findtext(".//q:varequal", namespaces=Q)
            entry["range"] = (
                condition.findtext(".//q:vargte", namespaces=Q),
                condition.findtext(".//q:varlte", namespaces=Q),
            )
        out.append(entry)
    return out


@pytest.mark.parametrize("seed", range(12))
def test_qti_reads_back_to_the_same_questions(seed):
    questions = quiz(seed, 30)
    read = read_qti(qti_package(questions))
    assert [r["ident"] for r in read] == [q.id for q in questions]
    for question, entry in zip(questions, read, strict=True):
        assert entry["prompt"] == question.prompt
        assert entry["feedback"]["general_fb"] == (
            question.answer if question.kind == "card" else question.explanation
        )
        if question.kind == "choice":
            assert entry["type"] == "multiple_choice_question"
            assert list(entry["labels"].values()) == [o.text for o in question.options]
            assert entry["labels"][entry["equal"]] == question.answer
            for ident, option in zip(entry["labels"], question.options, strict=True):
                assert entry["feedback"][f"{ident}_fb"] == option.why
        elif question.kind == "numeric":
            assert entry["type"] == "numerical_question"
            low, high = (Fraction(t) for t in entry["range"])
            assert Fraction(entry["equal"]) == Fraction(key_text(question.value))
            assert (
                low <= question.value <= high
                and high - low <= 2 * question.tolerance + Fraction(1, 10**9)
            )
        else:
            assert entry["type"] == "essay_question" and "equal" not in entry


def test_key_text_is_exact_or_within_the_tolerance():
    assert key_text(Fraction(1, 8)) == "0.125" and key_text(Fraction(-7, 4)) == "-1.75"
    assert abs(Fraction(key_text(Fraction(2, 3))) - Fraction(2, 3)) < Fraction(1, 10**11)


def test_cli_exports_both_formats(tmp_path):
    xml, package = tmp_path / "quiz.xml", tmp_path / "quiz.zip"
    for fmt, path in (("moodle", xml), ("qti", package)):
        result = runner.invoke(
            app, ["quiz", "--seed", "7", "--count", "30", "--export", fmt, "--out", str(path)]
        )
        assert result.exit_code == 0, result.output
    questions = quiz(7, 30)
    assert [r["name"] for r in read_moodle(xml.read_text(encoding="utf-8"))] == [
        q.id for q in questions
    ]
    assert [r["ident"] for r in read_qti(package.read_bytes())] == [q.id for q in questions]


def test_exam_tasks_export_to_moodle_with_the_worksheet_as_cloze(tmp_path):
    from perceptronlab.teach.exams import generate

    out = tmp_path / "exam.xml"
    result = runner.invoke(
        app, ["exam", "--kind", "trace", "--seed", "4", "--export", "moodle", "--out", str(out)]
    )
    assert result.exit_code == 0, result.output
    task = generate("trace", 4)
    read = read_moodle(out.read_text(encoding="utf-8"))
    assert [(r["type"], r["name"]) for r in read] == [
        ("essay", "trace-4-b"),
        ("essay", "trace-4-c"),
        ("cloze", "trace-4-a"),
    ]
    cloze = read[2]["prompt"]
    numbers = [
        Fraction(b.split(":")[0].lstrip("="))
        for k, b in re.findall(r"\{1:(NUMERICAL|MULTICHOICE):([^}]*)\}", cloze)
        if k == "NUMERICAL"
    ]
    assert numbers[:3] == [task.run.steps[0].score, *task.run.steps[0].w]
    for entry, part in zip(read[:2], task.parts[1:], strict=True):
        assert "\\(" in entry["prompt"] and "$" not in entry["prompt"]
        assert entry["grader"] == entry["general"] and "\\(" in entry["grader"]
        assert (
            f"[{part.points.numerator if part.points.denominator == 1 else float(part.points)} "
            f"point{'' if part.points == 1 else 's'}]" in entry["prompt"]
        )


def test_class_variants_export_to_qti(tmp_path):
    out = tmp_path / "class"
    result = runner.invoke(
        app, ["exam", "--kind", "pocket", "--variants", "3", "--out", str(out), "--export", "qti"]
    )
    assert result.exit_code == 0, result.output
    read = read_qti((out / "questions.zip").read_bytes())
    assert [r["ident"] for r in read] == [f"student-00{k}-{p}" for k in (1, 2, 3) for p in "abc"]
    assert {r["type"] for r in read} == {"essay_question"}
    assert all(r["feedback"]["general_fb"] for r in read)  # the key travels as feedback
