// The presets and the recorded back end: perceptronlab/web/static/presets.js and backends.js.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { PRESETS, matchPreset, randomSeparable } from "../../perceptronlab/web/static/presets.js";
import { recordedBackend, modelNumber } from "../../perceptronlab/web/static/backends.js";
import { createState, payload } from "../../perceptronlab/web/static/state.js";
import { recording } from "../../perceptronlab/web/static/snapshot.js";

const RUNS = JSON.parse(readFileSync(new URL("./fixtures/runs.json", import.meta.url), "utf-8"));

function generator(seed) {
  let s = seed >>> 0;
  return () => { s = (1664525 * s + 1013904223) >>> 0; return s / 2 ** 32; };
}

test("every named preset is recognised from its points, others are custom", () => {
  for (const key of ["exam", "margin", "nonsep", "worst"]) assert.equal(matchPreset(PRESETS[key].points()), key);
  assert.equal(matchPreset([{ x: 9, y: 9, label: 1 }]), "custom");
  assert.equal(matchPreset([]), "empty");
  for (const preset of Object.values(PRESETS)) assert.ok(!/seed \d/.test(preset.name + (preset.about || "")), preset.name);
});

test("random separable points: on the half grid, distinct, separable by a line through the origin", () => {
  for (let seed = 1; seed <= 20; seed++) {
    const points = randomSeparable(16, generator(seed));
    assert.equal(points.length, 16);
    assert.equal(new Set(points.map((p) => `${p.x},${p.y}`)).size, 16);
    for (const p of points) assert.ok(Number.isInteger(2 * p.x) && Number.isInteger(2 * p.y) && Math.abs(p.x) <= 4 && Math.abs(p.y) <= 4);
    // brute force: some direction in 3,600 puts every point on its label's side
    const separated = Array.from({ length: 3600 }, (_, k) => (2 * Math.PI * k) / 3600)
      .some((angle) => points.every((p) => p.label * (Math.cos(angle) * p.x + Math.sin(angle) * p.y) > 0));
    assert.ok(separated, `seed ${seed}`);
  }
});

test("a snapshot's back end answers its recorded input, and only that", () => {
  const state = createState(null);
  state.result = RUNS.exam.answer;
  const backend = recordedBackend(recording(state));
  const answers = [];
  backend.submit(payload(state), (answer) => answers.push(answer));
  assert.deepEqual(answers[0], { result: RUNS.exam.answer });
  state.points[0] = { ...state.points[0], label: -1 };
  backend.submit(payload(state), (answer) => answers.push(answer));
  assert.equal(answers[1].kind, "input");
  assert.match(answers[1].error, /plays back the run it recorded/);
});

test("coordinates from Python: numbers and exact text", () => {
  assert.equal(modelNumber("1/2"), 0.5);
  assert.equal(modelNumber("-3/4"), -0.75);
  assert.equal(modelNumber("0.1"), 0.1);
  assert.equal(modelNumber(2), 2);
});
