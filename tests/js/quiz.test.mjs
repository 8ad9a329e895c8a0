// The self-test's pure parts: perceptronlab/web/static/quiz.js, on a document of the api/quiz shape.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { readQuiz, checkChoice, checkNumeric, scoreText, QuizError } from "../../perceptronlab/web/static/quiz.js";

const QUIZ = JSON.parse(readFileSync(new URL("./fixtures/quiz.json", import.meta.url), "utf-8"));
const [update, distance, card, eta] = QUIZ.questions;

test("a document of the api/quiz shape is read", () => {
  assert.equal(readQuiz(QUIZ).questions.length, 4);
});

test("documents that are not a self-test are refused, naming the question", () => {
  const refused = (document, pattern) => assert.throws(() => readQuiz(document), (e) => e instanceof QuizError && pattern.test(e.message));
  refused(null, /a list of questions/);
  refused({ questions: [{ ...update, kind: "essay" }] }, /question 1: expected the kind/);
  refused({ questions: [card, { ...update, options: update.options.map((o) => ({ ...o, correct: true })) }] }, /question 2: expected at least two options, one of them correct/);
  refused({ questions: [{ ...distance, tolerance: null }] }, /question 1: expected a value and a tolerance/);
});

test("an option: right or wrong, with its why", () => {
  assert.deepEqual(checkChoice(update, 0), { correct: true, why: update.options[0].why, answer: "(0, −1)" });
  const wrong = checkChoice(update, 1);
  assert.equal(wrong.correct, false);
  assert.match(wrong.why, /without its label/);
});

test("a number: right within the tolerance, fractions read", () => {
  assert.equal(checkNumeric(distance, "1.4").correct, true);
  assert.equal(checkNumeric(distance, "7/5").correct, true);
  assert.equal(checkNumeric(distance, "1.4009").correct, true);
  assert.equal(checkNumeric(distance, "1.402").correct, false);
  assert.equal(checkNumeric(distance, "-1.4").correct, false);
  assert.deepEqual(checkNumeric(distance, "seven fifths"), { correct: false, value: null });
});

test("the score counts choice and numeric questions, not cards", () => {
  assert.equal(scoreText({}, QUIZ.questions), "0 of 3 right · 3 to answer");
  assert.equal(scoreText({ [update.id]: true, [eta.id]: false }, QUIZ.questions), "1 of 3 right · 1 to answer");
  assert.equal(scoreText({ [update.id]: true, [eta.id]: true, [distance.id]: true }, QUIZ.questions), "3 of 3 right");
});
