// The cursor through an answer: perceptronlab/web/static/cursor.js, on the engine's answers
// (fixtures/runs.json, written by tests/test_page_fixtures.py).
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { clampStep, beforeChange, applyAnswer, keyAction, createClock, tick } from "../../perceptronlab/web/static/cursor.js";
import { createState } from "../../perceptronlab/web/static/state.js";

const RUNS = JSON.parse(readFileSync(new URL("./fixtures/runs.json", import.meta.url), "utf-8"));

function stateFor(name, step = 0) {
  const { payload: input, answer } = RUNS[name];
  const state = createState({ points: input.points.map(([x, y], i) => ({ x, y, label: input.labels[i] })), options: input.options });
  state.result = answer;
  state.step = step;
  return state;
}

test("a step is a whole number from 0 to the run's last step", () => {
  const state = stateFor("exam");  // 12 traced steps, the run complete
  assert.equal(clampStep(state, -3), 0);
  assert.equal(clampStep(state, 4.4), 4);
  assert.equal(clampStep(state, 4.5), 5);
  assert.equal(clampStep(state, 99), 12);
  state.result = null;
  assert.equal(clampStep(state, 5), 0);
});

test("an answer moves the cursor: a link's step once, else the end if it followed it, else where it was", () => {
  const { answer } = RUNS.exam;
  const state = stateFor("exam", 7);
  state.result = null;
  state.pendingStep = 40;
  state.waiting = true;
  state.pending = "busy";
  assert.equal(applyAnswer(state, { result: answer }), false);
  assert.deepEqual([state.step, state.pendingStep, state.waiting, state.pending], [12, null, false, ""]);

  state.step = 12;
  beforeChange(state);
  assert.equal(state.followEnd, true);
  applyAnswer(state, { result: RUNS.nonsep.answer });
  assert.equal(state.step, 32);  // the new run's end

  state.step = 30;
  beforeChange(state);  // not at the end: back to the start
  assert.deepEqual([state.followEnd, state.step], [false, 0]);
  state.step = 30;
  applyAnswer(state, { result: answer });
  assert.equal(state.step, 12);  // where it was, within the shorter run
});

test("an error clears the run and puts the cursor at 0; the kind defaults to the input's", () => {
  const state = stateFor("exam", 5);
  assert.equal(applyAnswer(state, { error: "points: expected …" }), true);
  assert.deepEqual([state.result, state.step, state.error, state.errorKind], [null, 0, "points: expected …", "input"]);
  applyAnswer(state, { error: "The lab server is busy", kind: "server" });
  assert.equal(state.errorKind, "server");
  applyAnswer(state, { result: RUNS.exam.answer });
  assert.deepEqual([state.error, state.errorKind], ["", ""]);
});

test("the keys: → a step, Shift+→ the sweep's end, ← back, Home, End, Space; others nothing", () => {
  const state = stateFor("exam", 1);
  const sweeps = RUNS.exam.answer.run.steps.sweep;
  const end = sweeps.findIndex((s) => s !== sweeps[1]);
  assert.deepEqual(keyAction(state, "ArrowRight", false), { step: 2 });
  assert.deepEqual(keyAction(state, "ArrowRight", true), { step: end === -1 ? 12 : end });
  assert.deepEqual(keyAction(state, "ArrowLeft", false), { step: 0 });
  assert.deepEqual(keyAction(state, "Home", false), { step: 0 });
  assert.deepEqual(keyAction(state, "End", false), { step: 12 });
  assert.deepEqual(keyAction(state, " ", false), { toggle: true });
  assert.equal(keyAction(state, "a", false), null);
});

test("the player's clock owes whole steps and keeps the fraction", () => {
  const clock = createClock();
  assert.equal(tick(clock, 1000, 4), 0);  // the first frame only starts the clock
  assert.equal(tick(clock, 1100, 4), 0);  // 0.4 of a step
  assert.equal(tick(clock, 1400, 4), 1);  // 0.4 + 1.2 = 1.6: one step, 0.6 kept
  assert.ok(Math.abs(clock.carry - 0.6) < 1e-12);
  assert.equal(tick(clock, 2400, 4), 4);  // 0.6 + 4
});
