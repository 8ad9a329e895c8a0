import { test } from "node:test";
import assert from "node:assert/strict";
import { pyodideBackend, LOADING_RUNTIME } from "../../perceptronlab/web/static/backends.js";
import { InputFailure } from "../../perceptronlab/web/static/engine.js";

const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

test("while the engine loads the page hears so, then gets the engine's answer", async () => {
  let load;
  const engine = new Promise((resolve) => { load = resolve; });
  const heard = [];
  const backend = pyodideBackend(engine);
  backend.submit({ points: [[1, 0]], labels: [1] }, (answer) => heard.push(answer));
  assert.deepEqual(heard, [{ pending: LOADING_RUNTIME }]);
  load({ compute: async (payload) => ({ n: payload.points.length }) });
  await settle(); await settle();
  assert.deepEqual(heard.at(-1), { result: { n: 1 } });
  backend.submit({ points: [[1, 0], [0, 1]], labels: [1, -1] }, (answer) => heard.push(answer));
  await settle(); await settle();
  assert.deepEqual(heard.at(-1), { result: { n: 2 } }, "once loaded, no pending message");
});

test("a refused input is the lab's message, kind input; only the latest request answers", async () => {
  const engine = Promise.resolve({
    compute: async (payload) => {
      if (payload.labels[0] === 2) throw new InputFailure("labels[0]: expected 1 or -1, got 2. Label every point +1 or -1.");
      return { ok: true };
    },
  });
  await settle();
  const heard = [];
  const backend = pyodideBackend(engine);
  backend.submit({ points: [[1, 0]], labels: [2] }, (answer) => heard.push(answer));
  await settle(); await settle();
  assert.equal(heard.at(-1).kind, "input");
  assert.equal(heard.at(-1).error, "the label of x1: expected 1 or -1, got 2. Label every point +1 or -1.", "in the page's words, as the served page");
  backend.submit({ points: [[1, 0]], labels: [1] }, (answer) => heard.push(["first", answer]));
  backend.submit({ points: [[1, 0]], labels: [1] }, (answer) => heard.push(["second", answer]));
  await settle(); await settle();
  assert.deepEqual(heard.filter(Array.isArray).map(([who]) => who), ["second"]);
});
