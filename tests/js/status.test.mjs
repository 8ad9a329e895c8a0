// The status line: perceptronlab/web/static/status.js on the engine's answers (fixtures/runs.json).
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { statusLine } from "../../perceptronlab/web/static/status.js";
import { createState, total } from "../../perceptronlab/web/static/state.js";

const RUNS = JSON.parse(readFileSync(new URL("./fixtures/runs.json", import.meta.url), "utf-8"));

function stateFor(name, step) {
  const state = createState(null);
  state.result = RUNS[name].answer;
  state.step = step;
  return state;
}

test("an empty plane: click, or tap on a touch screen", () => {
  const state = createState({ points: [], options: {} });
  assert.deepEqual(statusLine(state, false), { text: "Click in the plane to add points." });
  assert.deepEqual(statusLine(state, true), { text: "Tap in the plane to add points." });
});

test("no answer yet, a busy server, a refusal, no server", () => {
  const state = createState(null);
  state.waiting = true;
  assert.equal(statusLine(state).text, "Computing…");
  state.pending = "The lab server is busy; asking again in 2 s.";
  assert.equal(statusLine(state).text, state.pending);
  Object.assign(state, { pending: "", waiting: false, error: "η: expected > 0", errorKind: "input" });
  assert.match(statusLine(state).text, /fix the input named in the message above/);
  state.errorKind = "network";
  assert.match(statusLine(state).text, /Press Retry/);
});

test("step 0: the whole run in counts written one way", () => {
  assert.equal(statusLine(stateFor("exam", 0)).html, "<b>w = (0, 0)</b> · 5 mistakes in 4 sweeps (converged) · exact fractions");
});

test("each step: the example, y⟨w,x⟩ against ρ₀, the verdict and w", () => {
  const { steps } = RUNS.exam.answer.run;
  for (let step = 1; step <= steps.count; step++) {
    const { html } = statusLine(stateFor("exam", step));
    const j = step - 1;
    assert.ok(html.startsWith(`Sweep ${steps.sweep[j]}, x${steps.index[j] + 1} `), html);
    assert.ok(html.includes(`y⟨w,x⟩ = ${steps.score_text[j]} `), html);
    assert.equal(html.includes("mistake</span>"), steps.mistake[j], html);
  }
  assert.ok(statusLine(stateFor("exam", total(stateFor("exam", 0)))).html.endsWith('<span class="plab-good">converged</span>'));
});
