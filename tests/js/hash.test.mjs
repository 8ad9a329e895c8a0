// The URL state both ways: encodeHash and decodeHash of perceptronlab/web/static/hash.js.
import { test } from "node:test";
import assert from "node:assert/strict";
import { encodeHash, decodeHash, DEFAULT_OPTIONS, HIDEABLE, sameOptions } from "../../perceptronlab/web/static/hash.js";

const EXAM = [{ x: 1, y: 0, label: 1 }, { x: 1, y: 1, label: -1 }, { x: 0, y: 1, label: -1 }];

function labState(overrides = {}) {
  return { points: EXAM, options: { ...DEFAULT_OPTIONS }, sequence: [], snap: "1", showMargin: true, hidden: new Set(), ...overrides };
}

test("the exam task with default options is only its points", () => {
  assert.equal(encodeHash(labState(), 0), "p=1,0,1;1,1,-1;0,1,-1");
});

test("every option away from its default is written, and read back the same", () => {
  const state = labState({
    points: [{ x: 0.5, y: -2, label: 1 }, { x: -1.25, y: 3, label: -1 }],
    options: { ...DEFAULT_OPTIONS, order: "pick", fit_intercept: true, eta: "1/2", margin: "0.1", pocket: true, max_sweeps: 7, seed: 3, arithmetic: "exact" },
    sequence: [1, 0], snap: "0.5", showMargin: false, hidden: new Set(["pocket", "log"]),
  });
  const text = encodeHash(state, 4);
  for (const part of ["order=pick", "seq=1,0", "bias=1", "pocket=1", "sweeps=7", "seed=3", "arith=exact", "snap=0.5", "mm=0", "step=4", "hide=pocket,log"]) {
    assert.ok(text.split("&").includes(part), `${part} in ${text}`);
  }
  const back = decodeHash("#" + text);
  assert.deepEqual(back.points, state.points);
  assert.deepEqual(back.options, state.options);
  assert.deepEqual(back.sequence, [1, 0]);
  assert.equal(back.snap, "0.5");
  assert.equal(back.showMargin, false);
  assert.equal(back.step, 4);
  assert.deepEqual([...back.hidden], ["pocket", "log"]);
});

test("a hash without points is no lab state", () => {
  assert.equal(decodeHash("#step=3"), null);
  assert.equal(decodeHash(""), null);
});

test("broken chunks, unknown controls and out-of-range picks are dropped", () => {
  const back = decodeHash("#p=1,0,1;x,1,1;;2,2,-5&order=pick&seq=0,9,0,-1,1.5&hide=log,nonsense&step=-3");
  assert.deepEqual(back.points, [{ x: 1, y: 0, label: 1 }, { x: 2, y: 2, label: -1 }]);
  assert.deepEqual(back.sequence, [0]);
  assert.deepEqual([...back.hidden], ["log"]);
  assert.equal(back.step, 0);
});

test("every control a link can hide round-trips", () => {
  const hidden = new Set(Object.keys(HIDEABLE));
  assert.deepEqual(decodeHash(encodeHash(labState({ hidden }), 0)).hidden, hidden);
});

test("options equal once the defaults are filled in", () => {
  assert.ok(sameOptions({}, { ...DEFAULT_OPTIONS }));
  assert.ok(sameOptions({ eta: "1", sequence: [] }, {}));
  assert.ok(!sameOptions({ eta: "2" }, {}));
});
