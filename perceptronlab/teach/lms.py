"""The self-test and the worksheets for learning-management systems: Moodle XML and QTI 1.2.

- :func:`moodle_xml`: a Moodle question bank (Question bank → Import → "Moodle XML format"):
  choice questions as ``multichoice`` with feedback on every option, numeric ones as
  ``numerical`` with their tolerance, question cards as ``essay`` with the answer as the
  general feedback and the grader's information, and a trace task's worksheet as ``cloze``
  (:func:`worksheet_cloze`: one embedded answer per score, mistake and weight cell).
- :func:`qti_package`: an IMS content package (a zip with ``imsmanifest.xml`` and one QTI 1.2
  assessment), the format Canvas imports (Settings → Import course content → "QTI .zip file")
  and Blackboard, D2L and others read; Canvas's ``question_type`` metadata says which question
  is which.

Both write the question's plain text, HTML-escaped by the XML writer; keys are exact decimals
where they terminate and rounded, with the question's tolerance, where they do not.

Examples
--------
>>> from perceptronlab.teach.quiz import quiz
>>> xml = moodle_xml(quiz(0, 3))
>>> xml.startswith('<?xml version="1.0" encoding="UTF-8"?>'), xml.count('<question type=') - 1
(True, 3)
"""

from __future__ import annotations

import io
import zipfile
from collections.abc import Sequence
from fractions import Fraction
from typing import TYPE_CHECKING
from xml.etree import ElementTree as ET

if TYPE_CHECKING:
    from perceptronlab.core.run import Run
    from perceptronlab.teach.questions import Question
    from perceptronlab.teach.task import ExamTask

#: the QTI 1.2 namespace Canvas writes and reads
QTI_NS = "http://www.imsglobal.org/xsd/ims_qtiasiv1p2"
#: the IMS content packaging namespace of ``imsmanifest.xml``
IMSCP_NS = "http://www.imsglobal.org/xsd/imscp_v1p1"
#: digits of a key that does not terminate (its tolerance covers the rounding)
KEY_DIGITS = 12


def key_text(value: Fraction) -> str:
    """A numeric key as a decimal an LMS reads: exact when it terminates, else to 12 significant digits.

    >>> key_text(Fraction(4, 5)), key_text(Fraction(1, 3)), key_text(Fraction(-3))
    ('0.8', '0.333333333333', '-3')
    """
    value = Fraction(value)
    if value.denominator == 1:
        return str(value.numerator)
    for places in range(1, 30):
        scaled = value * 10**places
        if scaled.denominator == 1:
            digits = f"{abs(scaled.numerator):0{places + 1}d}"
            return ("-" if value < 0 else "") + f"{digits[:-places]}.{digits[-places:]}"
    return f"{float(value):.{KEY_DIGITS}g}"


def _sub(parent: ET.Element, tag: str, text: str | None = None, **attrs: str) -> ET.Element:
    child = ET.SubElement(parent, tag, attrs)
    if text is not None:
        child.text = text
    return child


def _text(parent: ET.Element, tag: str, text: str, html: bool = False) -> ET.Element:
    """``<tag format="..."><text>text</text></tag>``: Moodle's wrapped text (plain text unless ``html``)."""
    element = _sub(parent, tag, format="html" if html else "plain_text")
    _sub(element, "text", text)
    return element


def _serialise(root: ET.Element) -> str:
    ET.indent(root)
    return '<?xml version="1.0" encoding="UTF-8"?>\n' + ET.tostring(root, encoding="unicode") + "\n"


# ---------------------------------------------------------------- exam tasks as questions


def _lms_math(text: str) -> str:
    """$…$ math as \\(…\\), the delimiters Moodle's and Canvas's MathJax filters read."""
    parts = text.split("$")
    return "".join(part if k % 2 == 0 else f"\\({part}\\)" for k, part in enumerate(parts))


def exam_questions(task: ExamTask, prefix: str = "") -> list[Question]:
    """An exam task's parts as questions to answer in writing (their worked solution as the key and
    the grader's information), TeX math in \\(…\\); part (a) of a trace task is its worksheet,
    exported as cloze by :func:`moodle_xml` (``worksheets=``)."""
    from perceptronlab.teach.questions import Question

    intro = " ".join(_lms_math(block[1]) for block in task.intro if block[0] == "p")
    name = prefix or f"{task.kind}-{task.seed}"
    out = []
    for part in task.parts:
        if task.kind == "trace" and part.letter == "a":
            continue  # the worksheet: a cloze question
        question = " ".join(_lms_math(block[1]) for block in part.question if block[0] == "p")
        solution = " ".join(_lms_math(block[1]) for block in part.solution if block[0] == "p")
        out.append(
            Question(
                f"{name}-{part.letter}",
                task.kind,
                "card",
                f"{intro} ({part.letter}) [{_points(part.points)} point{'' if part.points == 1 else 's'}] {question}",
                solution,
                solution,
            )
        )
    return out


def _points(points: Fraction) -> str:
    """A part's points: ``1``, ``1.5``."""
    return str(points.numerator) if points.denominator == 1 else key_text(points)


def exam_worksheet(task: ExamTask, prefix: str = "") -> tuple[str, str, Run] | None:
    """A trace task's worksheet for :func:`moodle_xml` (``(name, intro, run)``), else ``None``."""
    if task.kind != "trace" or task.run is None:
        return None
    intro = " ".join(_lms_math(block[1]) for block in task.intro if block[0] == "p")
    return (
        f"{prefix or f'trace-{task.seed}'}-a",
        intro + " Fill in the worksheet of the run.",
        task.run,
    )


def export_tasks(tasks: Sequence[tuple[str, ExamTask]], fmt: str, *, title: str) -> str | bytes:
    """Exam tasks (``(name, task)``, e.g. one per student) as a Moodle XML bank (``fmt="moodle"``:
    worksheets as cloze, the other parts as essays with their key) or a QTI 1.2 package (``"qti"``:
    every part, the worksheet as an essay with the worked table as its key)."""
    questions, worksheets = [], []
    for name, task in tasks:
        questions += exam_questions(task, name)
        sheet = exam_worksheet(task, name)
        if sheet is not None:
            if fmt == "moodle":
                worksheets.append(sheet)
            else:
                from perceptronlab.teach.questions import Question

                sheet_name, intro, run = sheet
                table = run.table("md")
                questions.append(Question(sheet_name, task.kind, "card", intro, table, table))
    if fmt == "moodle":
        return moodle_xml(questions, category=title, worksheets=worksheets)
    return qti_package(questions, title=title)


# ---------------------------------------------------------------- Moodle XML


def moodle_xml(
    questions: Sequence[Question],
    *,
    category: str = "perceptronlab self-test",
    worksheets: Sequence[tuple[str, str, Run]] = (),
) -> str:
    """The questions (and, optionally, worksheets as cloze questions) as a Moodle XML question bank.

    Parameters
    ----------
    questions : from :func:`perceptronlab.teach.quiz.quiz`.
    category : the question-bank category the import creates (under the course's default).
    worksheets : ``(name, intro, run)`` for each worksheet to export as a cloze question
        (:func:`worksheet_cloze`).

    Returns
    -------
    str
        The XML document (UTF-8 declared).
    """
    root = ET.Element("quiz")
    head = _sub(root, "question", type="category")
    _sub(_sub(head, "category"), "text", f"$course$/top/{category}")
    for question in questions:
        if question.kind == "choice":
            _moodle_choice(root, question)
        elif question.kind == "numeric":
            _moodle_numeric(root, question)
        else:
            _moodle_card(root, question)
    for name, intro, run in worksheets:
        element = _sub(root, "question", type="cloze")
        _sub(_sub(element, "name"), "text", name)
        _text(element, "questiontext", worksheet_cloze(intro, run), html=True)
        _text(element, "generalfeedback", "The worksheet of the exact run: " + run.table("md"))
        _sub(element, "penalty", "0.3333333")
        _sub(element, "hidden", "0")
    return _serialise(root)


def _moodle_common(element: ET.Element, question: Question) -> None:
    _sub(_sub(element, "name"), "text", question.id)
    _text(element, "questiontext", question.prompt)
    _text(element, "generalfeedback", question.explanation)
    _sub(element, "defaultgrade", "1")
    _sub(element, "penalty", "0.3333333")
    _sub(element, "hidden", "0")


def _moodle_choice(root: ET.Element, question: Question) -> None:
    element = _sub(root, "question", type="multichoice")
    _moodle_common(element, question)
    _sub(element, "single", "true")
    _sub(element, "shuffleanswers", "true")
    _sub(element, "answernumbering", "abc")
    for option in question.options:
        answer = _sub(
            element, "answer", fraction="100" if option.correct else "0", format="plain_text"
        )
        _sub(answer, "text", option.text)
        _text(answer, "feedback", option.why)


def _moodle_numeric(root: ET.Element, question: Question) -> None:
    assert (
        question.value is not None and question.tolerance is not None
    )  # numeric questions have both
    element = _sub(root, "question", type="numerical")
    _moodle_common(element, question)
    answer = _sub(element, "answer", fraction="100")
    _sub(answer, "text", key_text(question.value))
    _sub(answer, "tolerance", key_text(_tolerance(question)))
    _text(answer, "feedback", question.explanation)


def _tolerance(question: Question) -> Fraction:
    """The question's tolerance, widened by the rounding of a key that does not terminate."""
    assert question.value is not None and question.tolerance is not None
    rounding = abs(Fraction(key_text(question.value)) - question.value)
    return question.tolerance + (rounding if rounding else 0)


def _moodle_card(root: ET.Element, question: Question) -> None:
    element = _sub(root, "question", type="essay")
    _moodle_common(element, question)
    _sub(element, "responseformat", "editor")
    _sub(element, "responserequired", "1")
    _sub(element, "responsefieldlines", "10")
    _text(element, "graderinfo", question.answer)


def worksheet_cloze(intro: str, run: Run) -> str:
    """A worksheet as Moodle cloze text: one row per step, each score and weight a
    ``{1:NUMERICAL:=v:0}`` field and each mistake cell a ``{1:MULTICHOICE:=yes~no}`` field; the
    stop row asks the clean sweep's scores.

    >>> from perceptronlab import perceptron
    >>> run = perceptron([[1, 0], [1, 1], [0, 1]], [1, -1, -1], exact=True, trace=True)
    >>> text = worksheet_cloze("Fill in the run.", run)
    >>> text.count(":NUMERICAL:") > 0, "{1:MULTICHOICE:=yes~no}" in text
    (True, True)
    """
    from perceptronlab._ground.markup import html_text

    def number(value) -> str:
        return "{1:NUMERICAL:=" + key_text(Fraction(value)) + ":0}"

    def mistake(flag: bool) -> str:
        return "{1:MULTICHOICE:" + ("=yes~no" if flag else "yes~=no") + "}"

    assert run.steps is not None  # a traced run
    rows = ["<tr><th>sweep</th><th>point</th><th>y⟨w,x⟩</th><th>mistake?</th><th>w after</th></tr>"]
    final = run.sweeps if run.converged else None
    clean = [s for s in run.steps if s.sweep == final]
    for step in run.steps:
        if step.sweep == final:
            break
        w = "(" + ", ".join(number(c) for c in step.w) + ")"
        if run.fit_intercept:
            w += ", b = " + number(step.b)
        rows.append(
            f"<tr><td>{step.sweep}</td><td>x{step.index + 1}</td><td>{number(step.score)}</td>"
            f"<td>{mistake(step.mistake)}</td><td>{w}</td></tr>"
        )
    if clean:
        scores = ", ".join(number(s.score) for s in clean)
        rows.append(
            f"<tr><td>{final}</td><td>all</td><td>{scores}</td><td>{mistake(False)}</td><td>stop</td></tr>"
        )
    return f"<p>{html_text(intro)}</p><table>" + "".join(rows) + "</table>"


# ---------------------------------------------------------------- QTI 1.2 (Canvas)


def qti_assessment(
    questions: Sequence[Question],
    *,
    title: str = "perceptronlab self-test",
    ident: str = "perceptronlab-quiz",
) -> str:
    """The questions as one QTI 1.2 assessment (``questestinterop``), with Canvas's metadata."""
    ET.register_namespace("", QTI_NS)
    root = ET.Element(f"{{{QTI_NS}}}questestinterop")
    assessment = _q(root, "assessment", ident=ident, title=title)
    section = _q(assessment, "section", ident="root_section")
    for question in questions:
        _qti_item(section, question)
    return _serialise(root)


def _q(parent: ET.Element, tag: str, text: str | None = None, **attrs: str) -> ET.Element:
    return _sub(parent, f"{{{QTI_NS}}}{tag}", text, **attrs)


def _material(parent: ET.Element, text: str) -> None:
    material = _q(parent, "material")
    _q(material, "mattext", text, texttype="text/plain")


def _feedback(item: ET.Element, ident: str, text: str) -> None:
    feedback = _q(item, "itemfeedback", ident=ident)
    _material(_q(feedback, "flow_mat"), text)


_QTI_TYPES = {
    "choice": "multiple_choice_question",
    "numeric": "numerical_question",
    "card": "essay_question",
}


def _qti_item(section: ET.Element, question: Question) -> None:
    item = _q(section, "item", ident=question.id, title=question.id)
    fields = _q(_q(item, "itemmetadata"), "qtimetadata")
    for label, entry in (
        ("question_type", _QTI_TYPES[question.kind]),
        ("points_possible", "0" if question.kind == "card" else "1"),
        ("topic", question.topic),
    ):
        field = _q(fields, "qtimetadatafield")
        _q(field, "fieldlabel", label)
        _q(field, "fieldentry", entry)
    presentation = _q(item, "presentation")
    _material(presentation, question.prompt)
    processing = _q(item, "resprocessing")
    _q(
        _q(processing, "outcomes"),
        "decvar",
        maxvalue="100",
        minvalue="0",
        varname="SCORE",
        vartype="Decimal",
    )
    general = _q(processing, "respcondition", **{"continue": "Yes"})
    _q(_q(general, "conditionvar"), "other")
    _q(general, "displayfeedback", feedbacktype="Response", linkrefid="general_fb")
    if question.kind == "choice":
        response = _q(presentation, "response_lid", ident="response1", rcardinality="Single")
        choices = _q(response, "render_choice")
        for k, option in enumerate(question.options):
            _material(_q(choices, "response_label", ident=f"{question.id}-{k + 1}"), option.text)
        for k in range(len(question.options)):
            condition = _q(processing, "respcondition", **{"continue": "Yes"})
            _q(
                _q(condition, "conditionvar"),
                "varequal",
                f"{question.id}-{k + 1}",
                respident="response1",
            )
            _q(
                condition,
                "displayfeedback",
                feedbacktype="Response",
                linkrefid=f"{question.id}-{k + 1}_fb",
            )
        key = next(k for k, option in enumerate(question.options) if option.correct)
        condition = _q(processing, "respcondition", **{"continue": "No"})
        _q(
            _q(condition, "conditionvar"),
            "varequal",
            f"{question.id}-{key + 1}",
            respident="response1",
        )
        _q(condition, "setvar", "100", action="Set", varname="SCORE")
    elif question.kind == "numeric":
        assert question.value is not None
        response = _q(presentation, "response_str", ident="response1", rcardinality="Single")
        _q(_q(response, "render_fib", fibtype="Decimal"), "response_label", ident="answer1")
        tolerance = _tolerance(question)
        condition = _q(processing, "respcondition", **{"continue": "No"})
        either = _q(_q(condition, "conditionvar"), "or")
        _q(either, "varequal", key_text(question.value), respident="response1")
        inside = _q(either, "and")
        _q(inside, "vargte", key_text(question.value - tolerance), respident="response1")
        _q(inside, "varlte", key_text(question.value + tolerance), respident="response1")
        _q(condition, "setvar", "100", action="Set", varname="SCORE")
    else:
        response = _q(presentation, "response_str", ident="response1", rcardinality="Single")
        _q(_q(response, "render_fib"), "response_label", ident="answer1", rshuffle="No")
    _feedback(
        item, "general_fb", question.explanation if question.kind != "card" else question.answer
    )
    for k, option in enumerate(question.options):
        _feedback(item, f"{question.id}-{k + 1}_fb", option.why)


def qti_manifest(
    assessment_file: str = "perceptronlab-quiz.xml", ident: str = "perceptronlab-quiz"
) -> str:
    """The ``imsmanifest.xml`` of the package: one QTI 1.2 resource."""
    ET.register_namespace("", IMSCP_NS)
    root = ET.Element(f"{{{IMSCP_NS}}}manifest", identifier=f"{ident}-manifest")
    metadata = _sub(root, f"{{{IMSCP_NS}}}metadata")
    _sub(metadata, f"{{{IMSCP_NS}}}schema", "IMS Content")
    _sub(metadata, f"{{{IMSCP_NS}}}schemaversion", "1.1.3")
    _sub(root, f"{{{IMSCP_NS}}}organizations")
    resources = _sub(root, f"{{{IMSCP_NS}}}resources")
    resource = _sub(
        resources,
        f"{{{IMSCP_NS}}}resource",
        identifier=ident,
        type="imsqti_xmlv1p2",
        href=assessment_file,
    )
    _sub(resource, f"{{{IMSCP_NS}}}file", href=assessment_file)
    return _serialise(root)


def qti_package(questions: Sequence[Question], *, title: str = "perceptronlab self-test") -> bytes:
    """The questions as a QTI 1.2 content package (zip bytes): ``imsmanifest.xml`` and the assessment."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as package:
        package.writestr("imsmanifest.xml", qti_manifest())
        package.writestr("perceptronlab-quiz.xml", qti_assessment(questions, title=title))
    return buffer.getvalue()
