import { test } from "node:test";
import assert from "node:assert/strict";
import { parents, unwrap, InputFailure } from "../../perceptronlab/web/static/engine.js";

test("parents lists the folders a file needs, outermost first", () => {
  assert.deepEqual(parents("perceptronlab/web/lab.py"), ["perceptronlab", "perceptronlab/web"]);
  assert.deepEqual(parents("files.json"), []);
});

test("unwrap returns the answer or throws the lab's one-line message as an input failure", () => {
  assert.deepEqual(unwrap('{"result": {"n": 3}}'), { n: 3 });
  assert.throws(() => unwrap('{"error": "labels[0]: expected 1 or -1, got 2. Fix."}'),
    (failure) => failure instanceof InputFailure && failure.kind === "input" && failure.message.startsWith("labels[0]"));
});
