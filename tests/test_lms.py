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

import html
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
from perceptronlab.teach.questions import read_number
from perceptronlab.teach.quiz import quiz

Q = {"q": QTI_NS}
runner = CliRunner()


def unhtml(text: str | None) -> str | None:
    """The plain text of a writer's HTML paragraphs (an importer's view, without the writer)."""
    if text is None:
        return None
    text = text.replace("</p><p>", "\n\n").replace("<br>", "\n")
    return html.unescape(re.sub(r"</?p>", "", text))


def read_moodle(text: str) -> list[dict]:
    root = ET.fromstring(text.encode("utf-8"))
    assert root.tag == "quiz"
    out = []
    category = None
    for element in root.findall("question"):
        kind = element.get("type")
        if kind == "category":
            category = element.findtext("category/text")
            continue
        for wrapped in element.iter():  # Moodle filters (MathJax) run on HTML, never plain text
            assert wrapped.get("format") in (None, "html"), wrapped.tag
        entry = {
            "category": category,
            "type": kind,
            "grade": element.findtext("defaultgrade"),
            "name": element.findtext("name/text"),
            "prompt": unhtml(element.findtext("questiontext/text")),
            "html": element.findtext("questiontext/text"),
            "general": unhtml(element.findtext("generalfeedback/text")),
        }
        entry["answers"] = [
            {
                "fraction": a.get("fraction"),
                "text": unhtml(a.findtext("text")) if a.get("format") else a.findtext("text"),
                "tolerance": a.findtext("tolerance"),
                "feedback": unhtml(a.findtext("feedback/text")),
            }
            for a in element.findall("answer")
        ]
        entry["grader"] = unhtml(element.findtext("graderinfo/text"))
        out.append(entry)
    return out


@pytest.mark.parametrize("seed", range(12))
def test_moodle_reads_back_to_the_same_questions(seed):
    questions = quiz(seed, 30)
    read = {r["name"]: r for r in read_moodle(moodle_xml(questions))}
    assert sorted(read) == sorted(q.id for q in questions)
    for question in questions:
        entry = read[question.id]
        assert entry["prompt"] == question.prompt
        assert entry["category"] == f"$course$/perceptronlab/{question.topic}"
        if question.kind == "choice":
            assert entry["type"] == "multichoice"
            assert [
                (a["text"], a["fraction"] == "100", a["feedback"].split("\n\nSlip: ")[0])
                for a in entry["answers"]
            ] == [(o.text, o.correct, o.why) for o in question.options]
            for a, o in zip(entry["answers"], question.options, strict=True):
                assert (f"({o.slip})" in a["feedback"]) == (o.slip is not None)
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
        else:  # a card: read, not graded
            assert entry["type"] == "description" and entry["grade"] == "0"
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
            "prompt": unhtml(item.findtext("q:presentation/q:material/q:mattext", namespaces=Q)),
            "points": meta["points_possible"],
        }
        entry["labels"] = {k: unhtml(t) for k, t in labels.items()}
        entry["feedback"] = {k: unhtml(t) for k, t in feedback.items()}
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
    prefix = read[0]["ident"].removesuffix(questions[0].id)
    assert prefix.startswith("perceptronlab-")
    assert [r["ident"] for r in read] == [prefix + q.id for q in questions]
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
                assert entry["feedback"][f"{ident}_fb"].split("\n\nSlip: ")[0] == option.why
        elif question.kind == "numeric":
            assert entry["type"] == "numerical_question"
            low, high = (Fraction(t) for t in entry["range"])
            assert Fraction(entry["equal"]) == Fraction(key_text(question.value))
            assert (
                low <= question.value <= high
                and high - low <= 2 * question.tolerance + Fraction(1, 10**9)
            )
        else:  # a card: 0 points, no answer field
            assert entry["type"] == "text_only_question" and "equal" not in entry
            assert entry["points"] == "0" and not entry["labels"]


def test_two_qti_exports_share_no_identifier():
    def identifiers(package: bytes) -> set[str]:
        found = set()
        with zipfile.ZipFile(io.BytesIO(package)) as archive:
            for name in archive.namelist():
                for element in ET.fromstring(archive.read(name)).iter():
                    found |= {
                        element.get(a)
                        for a in ("ident", "identifier", "identifierref")
                        if element.get(a)
                    }
                    text = element.text or ""
                    if element.tag.endswith("varequal") and read_number(text) is None:
                        found.add(text)  # a choice's ident, referred to by text
        # Canvas's own names inside one item (its general feedback is "general_fb")
        return found - {"response1", "answer1", "general_fb"}

    first, second = (identifiers(qti_package(quiz(seed, 20))) for seed in (1, 2))
    assert first and second and not first & second


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
    assert sorted(r["name"] for r in read_moodle(xml.read_text(encoding="utf-8"))) == sorted(
        q.id for q in questions
    )
    assert [r["ident"].rsplit("-", 2)[-2:] for r in read_qti(package.read_bytes())] == [
        q.id.rsplit("-", 2)[-2:] for q in questions
    ]


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
        ("numerical", "trace-4-b1"),
        ("numerical", "trace-4-b2"),
        ("numerical", "trace-4-b3"),
        ("numerical", "trace-4-c1"),
        ("numerical", "trace-4-c2"),
        ("numerical", "trace-4-c3"),
        ("cloze", "trace-4-a"),
    ]
    a = task.answers
    keys = [a["R2"], a["rho2"], a["bound"], a["mistakes_eta"], *a["final_w_eta"]]
    for entry, key in zip(read, keys, strict=False):
        (answer,) = entry["answers"]
        assert abs(Fraction(answer["text"]) - key) <= Fraction(answer["tolerance"])
        assert entry["category"].startswith("$course$/perceptronlab/trace/part ")
        assert "\\(" in entry["prompt"] and "$" not in entry["prompt"].replace("$course$", "")
    cloze = read[-1]["prompt"]
    numbers = [
        Fraction(b.split(":")[0].lstrip("="))
        for k, b in re.findall(r"\{1:(NUMERICAL|MULTICHOICE):([^}]*)\}", cloze)
        if k == "NUMERICAL"
    ]
    assert numbers[:3] == [task.run.steps[0].score, *task.run.steps[0].w]


def test_exam_variants_in_moodle_grade_numbers_and_never_show_raw_latex(tmp_path):
    out = tmp_path / "class"
    args = ["exam", "--kind", "trace", "--variants", "3", "--out", str(out), "--export", "moodle"]
    result = runner.invoke(app, args)
    assert result.exit_code == 0, result.output
    text = (out / "questions.xml").read_text(encoding="utf-8")
    root = ET.fromstring(text.encode("utf-8"))  # well-formed
    for element in root.iter():  # LaTeX only where Moodle's MathJax filter runs: HTML
        if element.get("format") == "plain_text":
            assert "\\" not in (element.findtext("text") or "")
    assert 'format="plain_text"' not in text
    graded: dict[str, int] = {}
    for entry in read_moodle(text):
        if entry["type"] == "numerical" or (
            entry["type"] == "cloze" and ":NUMERICAL:" in entry["html"]
        ):
            student = entry["name"].rsplit("-", 1)[0]
            graded[student] = graded.get(student, 0) + 1
    assert sorted(graded) == ["student-001", "student-002", "student-003"]
    assert min(graded.values()) >= 2


def test_class_variants_export_to_qti(tmp_path):
    out = tmp_path / "class"
    result = runner.invoke(
        app, ["exam", "--kind", "pocket", "--variants", "3", "--out", str(out), "--export", "qti"]
    )
    assert result.exit_code == 0, result.output
    read = read_qti((out / "questions.zip").read_bytes())
    names = [r["ident"].split("-", 2)[-1] for r in read]
    assert names == [f"student-00{k}-{p}" for k in (1, 2, 3) for p in ("a", "b1", "c1")]
    assert [r["type"] for r in read[:3]] == ["essay_question"] + ["numerical_question"] * 2
    assert read[0]["points"] == "1"  # a written part: an essay the instructor grades
    assert all(r["feedback"]["general_fb"] for r in read)  # the key travels as feedback


def test_exam_worksheet_in_qti_is_fill_in_the_blanks_with_the_exact_run(tmp_path):
    from perceptronlab.teach.exams import generate

    out = tmp_path / "exam.zip"
    args = ["exam", "--kind", "trace", "--seed", "4", "--export", "qti", "--out", str(out)]
    result = runner.invoke(app, args)
    assert result.exit_code == 0, result.output
    with zipfile.ZipFile(out) as archive:
        name = next(n for n in archive.namelist() if n != "imsmanifest.xml")
        root = ET.fromstring(archive.read(name))
    (item,) = [
        i
        for i in root.iterfind(".//q:item", Q)
        if i.findtext(".//q:fieldentry", namespaces=Q) == "fill_in_multiple_blanks_question"
    ]
    text = item.findtext("q:presentation/q:material/q:mattext", namespaces=Q)
    blanks = re.findall(r"\[(b\d+)\]", text)
    keys = {}
    for response in item.iterfind(".//q:response_lid", Q):
        blank = response.findtext("q:material/q:mattext", namespaces=Q)
        keys[blank] = response.findtext(".//q:response_label//q:mattext", namespaces=Q)
    assert sorted(blanks) == sorted(keys)  # every blank has its key
    run = generate("trace", 4).run
    expected = []
    for step in run.steps:
        if step.sweep == run.sweeps:
            break
        expected += [step.score, "yes" if step.mistake else "no", *step.w]
    expected += [s.score for s in run.steps if s.sweep == run.sweeps] + ["no"]
    shown = [keys[b] for b in blanks]  # in reading order
    assert shown == [e if isinstance(e, str) else key_text(Fraction(e)) for e in expected]
    adds = [float(s.text) for s in item.iterfind(".//q:setvar", Q)]
    assert len(adds) == len(blanks) and abs(sum(adds) - 100) < 0.01  # every blank its share
