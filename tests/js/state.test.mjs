// The one state object and the cursor: perceptronlab/web/static/state.js, on the engine's answers
// (fixtures/runs.json, written by tests/test_page_fixtures.py).
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { createState, payload, total, traced, endOfSweep, view, completedSweeps } from "../../perceptronlab/web/static/state.js";
import { DEFAULT_OPTIONS } from "../../perceptronlab/web/static/hash.js";

const RUNS = JSON.parse(readFileSync(new URL("./fixtures/runs.json", import.meta.url), "utf-8"));

function stateFor(name, step = 0) {
  const { payload: input, answer } = RUNS[name];
  const state = createState({ points: input.points.map(([x, y], i) => ({ x, y, label: input.labels[i] })), options: input.options });
  state.result = answer;
  state.step = step;
  return state;
}

test("a new lab is the exam task with the default options", () => {
  const state = createState(null);
  assert.equal(state.preset, "exam");
  assert.deepEqual(state.options, { ...DEFAULT_OPTIONS });
  assert.equal(state.step, 0);
  assert.equal(state.result, null);
  assert.equal(state.extent, 4);
});

test("the payload is what the server reads; a picked order only with order=pick", () => {
  const state = createState({ points: [{ x: 1, y: 2, label: -1 }, { x: 0, y: 1, label: 1 }], options: { order: "pick" }, sequence: [1, 5] });
  assert.deepEqual(payload(state), { points: [[1, 2], [0, 1]], labels: [-1, 1], options: { ...DEFAULT_OPTIONS, order: "pick", sequence: [1] } });
  state.options.order = "cyclic";
  assert.deepEqual(payload(state).options.sequence, []);
});

test("the cursor spans every traced step", () => {
  const state = stateFor("exam");
  assert.equal(total(state), RUNS.exam.answer.run.steps.count);
  assert.equal(traced(state), 12);
  assert.equal(total(createState(null)), 0);
});

test("end of sweep: the first step of the next sweep, or the end", () => {
  const state = stateFor("exam");
  const sweeps = RUNS.exam.answer.run.steps.sweep;
  for (let from = 0; from < sweeps.length; from++) {
    const end = endOfSweep(state, from);
    assert.ok(end > from);
    assert.ok(end === sweeps.length || sweeps[end] !== sweeps[from]);
    for (let k = from; k < end; k++) assert.equal(sweeps[k], sweeps[from]);
  }
  assert.equal(endOfSweep(state, 12), 12);
});

test("the view at each step: the weights after it, the example checked, the update drawn", () => {
  const { run } = RUNS.exam.answer;
  assert.deepEqual(view(stateFor("exam", 0)).w, [0, 0]);
  for (let step = 1; step <= run.steps.count; step++) {
    const v = view(stateFor("exam", step));
    const k = run.steps.updates[step - 1];
    assert.equal(v.k, k);
    assert.equal(v.current, run.steps.index[step - 1]);
    assert.equal(v.mistake, run.steps.mistake[step - 1]);
    assert.equal(v.previous !== null, run.steps.mistake[step - 1]);
    if (v.previous) {
      // w_k = w_{k-1} + η·y·x of the point just checked (η = 1)
      const p = RUNS.exam.payload.points[v.current], y = RUNS.exam.payload.labels[v.current];
      assert.deepEqual(v.w, [v.previous.w[0] + y * p[0], v.previous.w[1] + y * p[1]]);
    }
  }
  const end = view(stateFor("exam", 12));
  assert.equal(end.final, true);
  assert.equal(end.text, run.w_text);
  assert.equal(end.k, run.mistakes);
});

test("sweeps completed at the cursor", () => {
  const state = stateFor("exam", 0);
  assert.equal(completedSweeps(state), 0);
  state.step = 3;
  assert.equal(completedSweeps(state), 1);
  state.step = total(state);
  assert.equal(completedSweeps(state), RUNS.exam.answer.plots.errors.length);
});
