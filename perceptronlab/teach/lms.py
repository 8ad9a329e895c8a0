r"""The self-test and the worksheets for learning-management systems: Moodle XML and QTI 1.2.

- :func:`moodle_xml`: a Moodle question bank (Question bank → Import → "Moodle XML format"):
  choice questions as ``multichoice`` with feedback on every option (its slip named), numeric
  ones as ``numerical`` with their tolerance, question cards as ungraded ``description``\ s
  (or, opted into, 1-point ``essay``\ s) with the answer as the general feedback, and a trace
  task's worksheet as ``cloze`` (:func:`worksheet_cloze`: one embedded answer per score, mistake
  and weight cell). Every text is in Moodle's HTML format, math as ``\( … \)`` for its MathJax
  filter (Moodle runs no filter on plain text); each topic gets its own category
  ``$course$/perceptronlab/<topic>``, so that a quiz can draw one random question per topic.
- :func:`qti_package`: an IMS content package (a zip with ``imsmanifest.xml`` and one QTI 1.2
  assessment), the format Canvas imports (Settings → Import course content → "QTI .zip file")
  and Blackboard, D2L and others read; Canvas's ``question_type`` metadata says which question
  is which, cards are ``text_only_question``\ s (0 points), and every identifier carries a
  digest of the package's questions, so that two exports (two seeds) share none.

Keys are exact decimals where they terminate and rounded, with the question's tolerance, where
they do not. The exam tasks' parts become questions in :mod:`perceptronlab.teach.lms_exams`.

Examples
--------
>>> from perceptronlab.teach.quiz import quiz
>>> xml = moodle_xml(quiz(0, 3))
>>> xml.startswith('<?xml version="1.0" encoding="UTF-8"?>'), xml.count('<question type="category"')
(True, 3)
"""

from __future__ import annotations

import hashlib
import io
import zipfile
from collections.abc import Callable, Sequence
from fractions import Fraction
from typing import TYPE_CHECKING, Any
from xml.etree import ElementTree as ET

from perceptronlab._ground import markup

if TYPE_CHECKING:
    from perceptronlab.core.run import Run
    from perceptronlab.teach.questions import Question

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
    r"""``<tag format="html"><text>…</text></tag>``: Moodle's wrapped text, always in its HTML
    format (MathJax reads ``\( … \)`` there, never in plain text); ``html``: ``text`` is HTML
    already, else it is escaped into paragraphs (:func:`html_text`)."""
    element = _sub(parent, tag, format="html")
    _sub(element, "text", text if html else html_text(text))
    return element


def html_text(text: str) -> str:
    r"""Plain text (math as ``\( … \)``) as HTML paragraphs, escaped.

    >>> html_text("w < 0\nso \\(y\\)")
    '<p>w &lt; 0<br>so \\(y\\)</p>'
    """
    return "".join(
        "<p>" + "<br>".join(markup.html_text(line) for line in block.split("\n")) + "</p>"
        for block in text.split("\n\n")
        if block.strip()
    )


def option_feedback(why: str, slip: str | None) -> str:
    """An option's feedback: why it is right or wrong, and the slip a wrong one replays, named."""
    if not slip:
        return why
    from perceptronlab.teach.questions import SLIPS

    return f"{why}\n\nSlip: {SLIPS.get(slip, slip)} ({slip})."


def export_digest(questions: Sequence[Question], title: str) -> str:
    """12 hex digits of the questions and title: identifiers that differ between exports."""
    text = "\n".join([title] + [f"{q.id}|{q.prompt}|{q.answer}" for q in questions])
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:12]


def _serialise(root: ET.Element) -> str:
    ET.indent(root)
    return '<?xml version="1.0" encoding="UTF-8"?>\n' + ET.tostring(root, encoding="unicode") + "\n"


# ---------------------------------------------------------------- Moodle XML


def moodle_xml(
    questions: Sequence[Question],
    *,
    category: str = "perceptronlab",
    worksheets: Sequence[tuple[str, str, Run]] = (),
    essay_cards: bool = False,
    worksheet_topic: str = "worksheet",
) -> str:
    """The questions (and, optionally, worksheets as cloze questions) as a Moodle XML question bank.

    Parameters
    ----------
    questions : from :func:`perceptronlab.teach.quiz.quiz`.
    category : the course category the import creates; each question goes into its topic's
        subcategory ``$course$/<category>/<topic>``.
    worksheets : ``(name, intro, run)`` for each worksheet to export as a cloze question
        (:func:`worksheet_cloze`), in ``<category>/<worksheet_topic>``.
    essay_cards : question cards as 1-point essays for the instructor to grade (default:
        ungraded descriptions).

    Returns
    -------
    str
        The XML document (UTF-8 declared).
    """
    root = ET.Element("quiz")
    groups: dict[str, list] = {}
    for question in questions:
        groups.setdefault(question.topic, []).append(question)
    for topic, group in groups.items():
        _category(root, f"{category}/{topic}")
        for question in group:
            if question.kind == "choice":
                _moodle_choice(root, question)
            elif question.kind == "numeric":
                _moodle_numeric(root, question)
            else:
                _moodle_card(root, question, essay_cards)
    if worksheets:
        _category(root, f"{category}/{worksheet_topic}")
    for name, intro, run in worksheets:
        element = _sub(root, "question", type="cloze")
        _sub(_sub(element, "name"), "text", name)
        _text(element, "questiontext", worksheet_cloze(intro, run), html=True)
        _text(element, "generalfeedback", "The worksheet of the exact run:\n\n" + run.table("md"))
        _sub(element, "penalty", "0.3333333")
        _sub(element, "hidden", "0")
    return _serialise(root)


def _category(root: ET.Element, path: str) -> None:
    """Moodle's category marker: the questions after it go into ``$course$/<path>``."""
    head = _sub(root, "question", type="category")
    _sub(_sub(head, "category"), "text", f"$course$/{path}")


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
        answer = _sub(element, "answer", fraction="100" if option.correct else "0", format="html")
        _sub(answer, "text", html_text(option.text))
        _text(answer, "feedback", option_feedback(option.why, option.slip))


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


def _moodle_card(root: ET.Element, question: Question, essay: bool) -> None:
    if not essay:  # read, not graded: a description, its answer shown as the general feedback
        element = _sub(root, "question", type="description")
        _moodle_common(element, question)
        element.find("defaultgrade").text = "0"  # type: ignore[union-attr]
        element.find("penalty").text = "0"  # type: ignore[union-attr]
        return
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

    def number(value) -> str:
        return "{1:NUMERICAL:=" + key_text(Fraction(value)) + ":0}"

    def mistake(flag: bool) -> str:
        return "{1:MULTICHOICE:" + ("=yes~no" if flag else "yes~=no") + "}"

    return worksheet_html(intro, run, number, mistake)


def worksheet_html(
    intro: str, run: Run, number: Callable[[Any], str], mistake: Callable[[bool], str]
) -> str:
    """A worksheet as an HTML table whose cells to fill in are ``number(value)`` and
    ``mistake(flag)``: one row per step, the stop row with the clean sweep's scores."""
    assert run.steps is not None  # a traced run
    rows = ["<tr><th>sweep</th><th>point</th><th>y⟨w,x⟩</th><th>mistake?</th><th>w after</th></tr>"]
    final = run.sweeps if run.converged else None
    clean = [s for s in run.steps if s.sweep == final]
    for step in run.steps:
        if step.sweep == final:
            break
        cells = [number(step.score), mistake(step.mistake)]  # in reading order
        w = "(" + ", ".join(number(c) for c in step.w) + ")"
        if run.fit_intercept:
            w += ", b = " + number(step.b)
        rows.append(
            f"<tr><td>{step.sweep}</td><td>x{step.index + 1}</td><td>{cells[0]}</td>"
            f"<td>{cells[1]}</td><td>{w}</td></tr>"
        )
    if clean:
        scores = ", ".join(number(s.score) for s in clean)
        stop = mistake(False)
        rows.append(
            f"<tr><td>{final}</td><td>all</td><td>{scores}</td><td>{stop}</td><td>stop</td></tr>"
        )
    return f"<p>{markup.html_text(intro)}</p><table>" + "".join(rows) + "</table>"


def _qti_worksheet(section: ET.Element, name: str, ident: str, intro: str, run: Run) -> None:
    """A worksheet as Canvas's *fill in multiple blanks* question: a blank ``[bK]`` per score,
    mistake and weight cell, each graded by its exact text (the numbers of a trace worksheet are
    integers), the points split evenly among the blanks."""
    keys: list[str] = []

    def blank(text: str) -> str:
        keys.append(text)
        return f"[b{len(keys)}]"

    html = worksheet_html(
        intro,
        run,
        lambda value: blank(key_text(Fraction(value))),
        lambda f: blank("yes" if f else "no"),
    )
    item, presentation = _qti_item_start(
        section,
        ident,
        name,
        (("question_type", "fill_in_multiple_blanks_question"), ("points_possible", "2")),
    )
    _q(_q(presentation, "material"), "mattext", html, texttype="text/html")
    processing = _score_processing(item)
    share = f"{100 / len(keys):.4f}"
    for k, key in enumerate(keys, start=1):
        response = _q(presentation, "response_lid", ident=f"response_b{k}")
        _q(_q(response, "material"), "mattext", f"b{k}")
        label = _q(_q(response, "render_choice"), "response_label", ident=f"{ident}-b{k}")
        _q(_q(label, "material"), "mattext", key, texttype="text/plain")
        condition = _q(processing, "respcondition")
        _q(_q(condition, "conditionvar"), "varequal", f"{ident}-b{k}", respident=f"response_b{k}")
        _q(condition, "setvar", share, varname="SCORE", action="Add")
    _feedback(item, "general_fb", "The worksheet of the exact run:\n\n" + run.table("md"))


# ---------------------------------------------------------------- QTI 1.2 (Canvas)


def qti_assessment(
    questions: Sequence[Question],
    *,
    title: str = "perceptronlab self-test",
    ident: str | None = None,
    essay_cards: bool = False,
    worksheets: Sequence[tuple[str, str, Run]] = (),
) -> str:
    """The questions as one QTI 1.2 assessment (``questestinterop``), with Canvas's metadata;
    ``ident`` (default: ``perceptronlab-<digest>``, :func:`export_digest`) prefixes every
    identifier, so that no two exports share one; ``essay_cards``: cards as 1-point essays
    (default: 0-point text-only questions); ``worksheets`` (``(name, intro, run)``) as fill-in-
    the-blanks questions."""
    ident = ident or f"perceptronlab-{export_digest(questions, title)}"
    ET.register_namespace("", QTI_NS)
    root = ET.Element(f"{{{QTI_NS}}}questestinterop")
    assessment = _q(root, "assessment", ident=ident, title=title)
    section = _q(assessment, "section", ident=f"{ident}-section")
    for question in questions:
        _qti_item(section, question, f"{ident}-{question.id}", essay_cards)
    for name, intro, run in worksheets:
        _qti_worksheet(section, name, f"{ident}-{name}", intro, run)
    return _serialise(root)


def _q(parent: ET.Element, tag: str, text: str | None = None, **attrs: str) -> ET.Element:
    return _sub(parent, f"{{{QTI_NS}}}{tag}", text, **attrs)


def _material(parent: ET.Element, text: str) -> None:
    material = _q(parent, "material")
    _q(material, "mattext", html_text(text), texttype="text/html")


def _feedback(item: ET.Element, ident: str, text: str) -> None:
    feedback = _q(item, "itemfeedback", ident=ident)
    _material(_q(feedback, "flow_mat"), text)


_QTI_TYPES = {
    "choice": "multiple_choice_question",
    "numeric": "numerical_question",
    "card": "text_only_question",
}


def _qti_item_start(
    section: ET.Element, ident: str, title: str, metadata: tuple[tuple[str, str], ...]
) -> tuple[ET.Element, ET.Element]:
    """A new item of ``section`` with Canvas's ``metadata`` fields, and its presentation."""
    item = _q(section, "item", ident=ident, title=title)
    fields = _q(_q(item, "itemmetadata"), "qtimetadata")
    for label, entry in metadata:
        field = _q(fields, "qtimetadatafield")
        _q(field, "fieldlabel", label)
        _q(field, "fieldentry", entry)
    return item, _q(item, "presentation")


def _score_processing(item: ET.Element) -> ET.Element:
    """The item's response processing, with its SCORE from 0 to 100."""
    processing = _q(item, "resprocessing")
    _q(
        _q(processing, "outcomes"),
        "decvar",
        maxvalue="100",
        minvalue="0",
        varname="SCORE",
        vartype="Decimal",
    )
    return processing


def _qti_item(section: ET.Element, question: Question, ident: str, essay: bool) -> None:
    essay = essay and question.kind == "card"
    item, presentation = _qti_item_start(
        section,
        ident,
        question.id,
        (
            ("question_type", "essay_question" if essay else _QTI_TYPES[question.kind]),
            ("points_possible", "0" if question.kind == "card" and not essay else "1"),
            ("topic", question.topic),
        ),
    )
    _material(presentation, question.prompt)
    processing = _score_processing(item)
    general = _q(processing, "respcondition", **{"continue": "Yes"})
    _q(_q(general, "conditionvar"), "other")
    _q(general, "displayfeedback", feedbacktype="Response", linkrefid="general_fb")
    if question.kind == "choice":
        _qti_choice(presentation, processing, question, ident)
    elif question.kind == "numeric":
        _qti_numeric(presentation, processing, question)
    elif essay:
        response = _q(presentation, "response_str", ident="response1", rcardinality="Single")
        _q(_q(response, "render_fib"), "response_label", ident="answer1", rshuffle="No")
    _feedback(
        item, "general_fb", question.explanation if question.kind != "card" else question.answer
    )
    for k, option in enumerate(question.options):
        _feedback(item, f"{ident}-{k + 1}_fb", option_feedback(option.why, option.slip))


def _qti_choice(
    presentation: ET.Element, processing: ET.Element, question: Question, ident: str
) -> None:
    """A multiple-choice question's options, each with its feedback, and its key (SCORE 100)."""
    response = _q(presentation, "response_lid", ident="response1", rcardinality="Single")
    choices = _q(response, "render_choice")
    for k, option in enumerate(question.options):
        _material(_q(choices, "response_label", ident=f"{ident}-{k + 1}"), option.text)
    for k in range(len(question.options)):
        condition = _when_chosen(processing, f"{ident}-{k + 1}", "Yes")
        _q(
            condition,
            "displayfeedback",
            feedbacktype="Response",
            linkrefid=f"{ident}-{k + 1}_fb",
        )
    key = next(k for k, option in enumerate(question.options) if option.correct)
    condition = _when_chosen(processing, f"{ident}-{key + 1}", "No")
    _q(condition, "setvar", "100", action="Set", varname="SCORE")


def _when_chosen(processing: ET.Element, answer: str, go_on: str) -> ET.Element:
    """A response condition: the option ``answer`` chosen (``go_on``: Yes or No, whether later
    conditions are still tried)."""
    condition = _q(processing, "respcondition", **{"continue": go_on})
    _q(_q(condition, "conditionvar"), "varequal", answer, respident="response1")
    return condition


def _qti_numeric(presentation: ET.Element, processing: ET.Element, question: Question) -> None:
    """A numerical question's field and its key: the exact value or within the tolerance."""
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


def qti_manifest(assessment_file: str, ident: str) -> str:
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


def qti_package(
    questions: Sequence[Question],
    *,
    title: str = "perceptronlab self-test",
    essay_cards: bool = False,
    worksheets: Sequence[tuple[str, str, Run]] = (),
) -> bytes:
    """The questions as a QTI 1.2 content package (zip bytes): ``imsmanifest.xml`` and the
    assessment, every identifier prefixed by ``perceptronlab-<digest>`` (:func:`export_digest`)."""
    ident = f"perceptronlab-{export_digest(questions, title)}"
    name = f"{ident}.xml"
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as package:
        package.writestr("imsmanifest.xml", qti_manifest(name, ident))
        package.writestr(
            name,
            qti_assessment(
                questions,
                title=title,
                ident=ident,
                essay_cards=essay_cards,
                worksheets=worksheets,
            ),
        )
    return buffer.getvalue()
