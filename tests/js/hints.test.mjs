// The lab's texts about its controls: perceptronlab/web/static/hints.js.
import { test } from "node:test";
import assert from "node:assert/strict";
import { pickText, hintText, stepText, savedText, unsavedText } from "../../perceptronlab/web/static/hints.js";
import { createState } from "../../perceptronlab/web/static/state.js";

const three = () => createState({ points: [{ x: 1, y: 0, label: 1 }, { x: 1, y: 1, label: -1 }, { x: 0, y: 1, label: -1 }], options: {} });

test("the picked order in x-names, and what happens to the rest", () => {
  const state = three();
  assert.equal(pickText(state, false), "");
  state.options = { ...state.options, order: "pick" };
  assert.equal(pickText(state, false), "Your order: click the points in the order to visit them");
  assert.equal(pickText(state, true), "Your order: tap the points in the order to visit them");
  state.sequence = [2, 0];
  assert.equal(pickText(state, false), "Your order: x3 → x1 → the rest in their order");
  state.sequence = [2, 0, 1];
  assert.equal(pickText(state, false), "Your order: x3 → x1 → x2");
});

test("the hint speaks of clicks or taps, the chosen label, and says nothing when editing is hidden", () => {
  const state = three();
  assert.equal(hintText(state, false), "Click: add +1 (shift-click: −1) · click a point: flip its label · right-click or long-press: delete · or type x and y");
  state.newLabel = -1;
  state.options = { ...state.options, order: "pick" };
  assert.equal(hintText(state, true), "Tap: add a point labelled −1 (choose above) · tap a point: add it to (or remove it from) your order · long-press a point: delete · or type x and y");
  state.hidden = new Set(["edit"]);
  assert.equal(hintText(state, false), "");
});

test("the step label, and the snapshot's lines", () => {
  const state = three();
  assert.equal(stepText(state, 0), "step 0 / 0");
  state.result = {};
  state.step = 3;
  assert.equal(stepText(state, 12), "step 3 / 12");
  assert.equal(savedText("x".repeat(2049)), "Saved perceptron-run.html (3 kB): open it in any browser.");
  assert.equal(unsavedText(new Error("no recording")), "No snapshot: no recording.");
  assert.equal(unsavedText("refused"), "No snapshot: refused.");
});
