// The self-test: questions from the lab server (GET api/quiz?seed=N&count=K), answered on the page.
// A multiple-choice question tells right or wrong with the chosen option's "why"; a numeric one is
// right within its tolerance; a card shows its answer. The pure parts (readQuiz, checkChoice,
// checkNumeric, scoreText) are unit-tested (tests/js/quiz.test.mjs).

import { h } from "./dom.js";
import { readNumber } from "./words.js";

export const QUESTIONS_PER_ROUND = 5;

/** A message about a document that is not a self-test. */
export class QuizError extends Error {}

/** Check the server's document: {seed, questions: [{id, topic, kind, prompt, options, answer, value, tolerance, explanation}]}. */
export function readQuiz(document) {
  const fail = (what, expected) => { throw new QuizError(`${what}: expected ${expected}`); };
  if (!document || typeof document !== "object" || !Array.isArray(document.questions)) fail("the self-test", "an object with a list of questions");
  document.questions.forEach((q, i) => {
    const where = `question ${i + 1}`;
    if (!q || typeof q.prompt !== "string" || typeof q.id !== "string") fail(where, "an id and a prompt");
    if (!["choice", "numeric", "card"].includes(q.kind)) fail(where, "the kind choice, numeric or card");
    if (q.kind === "choice" && (!Array.isArray(q.options) || q.options.length < 2 || q.options.filter((o) => o && o.correct === true).length !== 1)) {
      fail(where, "at least two options, one of them correct");
    }
    if (q.kind === "numeric" && !(Number.isFinite(q.value) && Number.isFinite(q.tolerance) && q.tolerance >= 0)) fail(where, "a value and a tolerance");
  });
  return document;
}

/** The verdict on option `index` of a choice question: {correct, why, answer}. */
export function checkChoice(question, index) {
  const option = question.options[index];
  return { correct: option.correct === true, why: option.why || "", answer: question.answer };
}

/**
 * The verdict on a typed answer to a numeric question: {correct, value} (value null when the text
 * is not a number: "1.5", "-2", "1/2" are read).
 */
export function checkNumeric(question, text) {
  const value = readNumber(text);
  if (value === null) return { correct: false, value: null };
  return { correct: Math.abs(value - question.value) <= question.tolerance + 1e-12, value };
}

/** "3 of 5 right" over the questions that are scored (choice and numeric; cards are not). */
export function scoreText(verdicts, questions) {
  const scored = questions.filter((q) => q.kind !== "card").length;
  const right = Object.values(verdicts).filter((v) => v === true).length;
  const answered = Object.keys(verdicts).length;
  return `${right} of ${scored} right${answered < scored ? ` · ${scored - answered} to answer` : ""}`;
}

/**
 * The self-test panel: hidden until the lab server answers with questions (hidden for good when it
 * has no self-test: 404, or no server at all).
 *
 * @param {{url?: string, fetchJson?: Function, seed?: number}} config
 */
export function createQuizPanel(config = {}) {
  const url = config.url || "api/quiz";
  const fetchJson = config.fetchJson || ((address) => fetch(address).then((response) => {
    if (!response.ok) throw Object.assign(new Error(`the lab server answered ${response.status}`), { status: response.status });
    return response.json();
  }));
  let seed = config.seed ?? Math.floor(Math.random() * 1e6);
  let questions = [];
  let verdicts = {};
  const list = h("ol", { class: "plab-quizlist", "data-testid": "quiz-questions" });
  const score = h("div", { class: "plab-quizscore", "data-testid": "quiz-score", "aria-live": "polite" });
  const message = h("div", { class: "plab-quizmessage", "data-testid": "quiz-message" });
  const again = h("button", { type: "button", class: "plab-btn plab-btn-small", "data-testid": "quiz-new", onclick: () => load(seed + 1) }, "New questions");
  // the panel hides itself while it has no questions; a classroom link hides its wrapper (data-ctl)
  const panel = h("details", { class: "plab-panel plab-quiz", "data-testid": "quiz-panel", hidden: true },
    h("summary", {}, "Self-test: the perceptron in questions"), message, list, h("div", { class: "plab-quizfoot" }, score, again));
  panel.dataset.state = "loading";
  const node = h("div", { class: "plab-quizbox", "data-ctl": "quiz" }, panel);

  const renderScore = () => { score.textContent = scoreText(verdicts, questions); };

  function verdictLine(correct, text) {
    return h("div", { class: `plab-verdict ${correct ? "plab-good" : "plab-bad"}`, "data-testid": "quiz-verdict" },
      correct ? "Right. " : "Not quite. ", h("span", { class: "plab-why" }, text));
  }

  function choiceItem(question, item) {
    const feedback = h("div", { class: "plab-quizfeedback" });
    const buttons = question.options.map((option, index) => h("button", {
      type: "button", class: "plab-quizoption", "data-testid": "quiz-option",
      onclick: () => {
        const verdict = checkChoice(question, index);
        if (!(question.id in verdicts)) verdicts[question.id] = verdict.correct;  // the first try counts
        for (const b of buttons) b.classList.remove("plab-picked");
        buttons[index].classList.add("plab-picked");
        feedback.replaceChildren(verdictLine(verdict.correct, verdict.correct ? question.explanation || verdict.why : verdict.why));
        renderScore();
      },
    }, option.text));
    item.append(h("div", { class: "plab-quizoptions" }, buttons), feedback);
  }

  function numericItem(question, item) {
    const input = h("input", { type: "text", inputmode: "decimal", size: "8", "data-testid": "quiz-input", "aria-label": "Your answer" });
    const feedback = h("div", { class: "plab-quizfeedback" });
    const form = h("form", { class: "plab-quizform" }, input, h("button", { type: "submit", class: "plab-btn plab-btn-small", "data-testid": "quiz-check" }, "Check"));
    form.addEventListener("submit", (event) => {
      event.preventDefault();
      const verdict = checkNumeric(question, input.value);
      if (verdict.value === null) {
        feedback.replaceChildren(h("div", { class: "plab-bad", "data-testid": "quiz-verdict" }, "Type a number such as 2, -0.5 or 1/3."));
        return;
      }
      if (!(question.id in verdicts)) verdicts[question.id] = verdict.correct;
      feedback.replaceChildren(verdictLine(verdict.correct, verdict.correct ? question.explanation
        : `The answer is ${question.answer}. ${question.explanation}`));
      renderScore();
    });
    item.append(form, feedback);
  }

  function cardItem(question, item) {
    const answer = h("div", { class: "plab-quizanswer", "data-testid": "quiz-answer", hidden: true },
      h("b", {}, question.answer), question.explanation ? ` ${question.explanation}` : "");
    item.append(h("button", { type: "button", class: "plab-link", "data-testid": "quiz-reveal", onclick: () => { answer.hidden = false; } }, "Show the answer"), answer);
  }

  function render() {
    list.replaceChildren(...questions.map((question) => {
      const item = h("li", { class: "plab-quizitem", "data-kind": question.kind, "data-testid": "quiz-question" },
        h("div", { class: "plab-quiztopic" }, question.topic || ""), h("div", { class: "plab-quizprompt" }, question.prompt));
      if (question.kind === "choice") choiceItem(question, item);
      else if (question.kind === "numeric") numericItem(question, item);
      else cardItem(question, item);
      return item;
    }));
    renderScore();
  }

  function load(next) {
    const asked = next;
    return fetchJson(`${url}?seed=${asked}&count=${QUESTIONS_PER_ROUND}`).then((document) => {
      const quiz = readQuiz(document);
      seed = Number.isInteger(quiz.seed) ? quiz.seed : asked;
      questions = quiz.questions;
      verdicts = {};
      message.textContent = "";
      render();
      panel.hidden = false;
      panel.dataset.state = "ready";
    }, (failure) => {
      // no self-test on this server (or no server): the panel stays away
      if (panel.dataset.state === "loading" || (failure && failure.status === 404)) {
        panel.hidden = true;
        panel.dataset.state = "absent";
      } else {
        message.textContent = `No new questions: ${failure && failure.message ? failure.message : failure}.`;
      }
    }).catch((failure) => {
      panel.hidden = questions.length === 0;
      panel.dataset.state = questions.length ? "ready" : "absent";
      message.textContent = `The self-test could not be read (${failure.message}).`;
    });
  }

  load(seed);
  return { node, load };
}
