// Editing the points: perceptronlab/web/static/edits.js on plain state objects (no DOM).
import { test } from "node:test";
import assert from "node:assert/strict";
import { addPoint, deletePoint, clickPoint, loadPoints, loadLink, markCustom } from "../../perceptronlab/web/static/edits.js";
import { createState } from "../../perceptronlab/web/static/state.js";
import { PRESETS } from "../../perceptronlab/web/static/presets.js";
import { DEFAULT_OPTIONS } from "../../perceptronlab/web/static/hash.js";

const three = () => createState({ points: [{ x: 1, y: 0, label: 1 }, { x: 1, y: 1, label: -1 }, { x: 0, y: 1, label: -1 }], options: {} });

test("a point is added once: a second at the same place names the first", () => {
  const state = three();
  assert.deepEqual(addPoint(state, { x: 2, y: 2, label: -1 }), { added: true, message: "Added x4 = (2, 2), label −1." });
  assert.equal(state.points.length, 4);
  assert.equal(state.preset, "custom");
  assert.deepEqual(addPoint(state, { x: 1, y: 1, label: 1 }), { added: false, message: "x2 is already at (1, 1)." });
  assert.equal(state.points.length, 4);
});

test("a point far out grows the view; a point inside keeps it", () => {
  const state = three();
  const before = state.extent;
  addPoint(state, { x: 0.5, y: 0.5, label: 1 });
  assert.equal(state.extent, before);
  addPoint(state, { x: 30, y: -2, label: 1 });
  assert.ok(state.extent > 30);
  state.points = [{ x: 0, y: 0, label: 1 }];
  markCustom(state);  // the view never shrinks while editing
  assert.ok(state.extent > 30);
});

test("deleting a point renumbers the picked order after it", () => {
  const state = three();
  state.sequence = [2, 0, 1];
  deletePoint(state, 1);
  assert.deepEqual(state.points.map((p) => [p.x, p.y]), [[1, 0], [0, 1]]);
  assert.deepEqual(state.sequence, [1, 0]);
});

test("a click on a point flips its label, or in the picked order adds it to (or removes it from) the order", () => {
  const state = three();
  const before = state.points[0];
  clickPoint(state, 0);
  assert.equal(state.points[0].label, -1);
  assert.equal(before.label, 1);  // a new object: the old one is not changed
  state.options = { ...state.options, order: "pick" };
  clickPoint(state, 2);
  clickPoint(state, 0);
  assert.deepEqual(state.sequence, [2, 0]);
  clickPoint(state, 2);
  assert.deepEqual(state.sequence, [0]);
  assert.equal(state.points[2].label, -1);
});

test("new points restart the run at step 0 with a fitted view; a preset is recognised", () => {
  const state = three();
  state.sequence = [1];
  state.step = 9;
  state.followEnd = true;
  const points = PRESETS.nonsep.points();
  loadPoints(state, points);
  assert.deepEqual(state.points, points);
  assert.notEqual(state.points[0], points[0]);  // copies
  assert.deepEqual([state.sequence, state.step, state.followEnd, state.preset], [[], 0, false, "nonsep"]);
  loadPoints(state, [{ x: 9, y: 9, label: 1 }], "mine");
  assert.equal(state.preset, "mine");
  assert.ok(state.extent >= 9);
});

test("a link's state replaces the lab's, its step waiting for the answer", () => {
  const state = three();
  state.step = 5;
  loadLink(state, { points: [{ x: 1, y: 2, label: 1 }], options: { eta: "1/2" }, sequence: [0], snap: "0.5", showMargin: false, hidden: new Set(["edit"]), step: 3 });
  assert.deepEqual(state.options, { ...DEFAULT_OPTIONS, eta: "1/2" });
  assert.deepEqual([state.sequence, state.snap, state.showMargin, state.pendingStep, state.step, state.preset], [[0], "0.5", false, 3, 0, "custom"]);
  assert.ok(state.hidden.has("edit"));
});
