// A run as one HTML file: the pure parts of perceptronlab/web/static/snapshot.js.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import { moduleSources, snapshotHtml, scriptJson, recording, SNAPSHOT_HIDDEN } from "../../perceptronlab/web/static/snapshot.js";
import { createState } from "../../perceptronlab/web/static/state.js";
import { HIDEABLE } from "../../perceptronlab/web/static/hash.js";

const STATIC = new URL("../../perceptronlab/web/static/", import.meta.url);
const read = (name) => readFile(new URL(name, STATIC), "utf-8");

test("the modules of the page, each after those it imports, the entry last", async () => {
  const { sources, order } = await moduleSources("lab.js", read);
  assert.equal(order[order.length - 1], "lab.js");
  assert.deepEqual(new Set(order), new Set(Object.keys(sources)));
  assert.equal(new Set(order).size, order.length);
  for (const [position, name] of order.entries()) {
    for (const match of sources[name].matchAll(/^(?:import|export)\s*\{[^}]*\}\s*from\s*"\.\/([\w.-]+\.js)";/gm)) {
      assert.ok(order.indexOf(match[1]) < position, `${match[1]} before ${name}`);
    }
  }
  for (const name of ["state.js", "view.js", "plane.js", "worksheet.js", "plots.js", "backends.js", "hash.js", "snapshot.js"]) {
    assert.ok(order.includes(name), name);
  }
});

test("JSON inside a script element cannot close it", () => {
  const text = scriptJson({ a: "</script><!--" });
  assert.ok(!text.includes("<"));
  assert.deepEqual(JSON.parse(text), { a: "</script><!--" });
});

test("the template filled once: the CSS, the data, the note; braces in the data stay", async () => {
  const template = await read("snapshot.html");
  const state = createState(null);
  state.result = { run: { note: "{{css}}" } };
  const html = snapshotHtml(template, { css: "body{color:red}</style>", sources: { "lab.js": "export const a = '{{made}}';" }, order: ["lab.js"], recorded: recording(state), made: "a <test>" });
  assert.ok(html.includes("<style>body{color:red}<\\/style></style>"));
  assert.ok(html.includes("a &lt;test&gt;"));
  const data = JSON.parse(html.match(/<script type="application\/json" id="plab-snapshot">(.*)<\/script>/)[1]);
  assert.deepEqual(data.order, ["lab.js"]);
  assert.equal(data.sources["lab.js"], "export const a = '{{made}}';");
  assert.equal(data.recorded.result.run.note, "{{css}}");
  assert.deepEqual(data.recorded.payload.points, [[1, 0], [1, 1], [0, 1]]);
  assert.ok(html.includes("default-src 'none'"), "a snapshot fetches nothing");
});

test("a snapshot hides every control that would need the engine", () => {
  for (const key of SNAPSHOT_HIDDEN) assert.ok(key in HIDEABLE, key);
  for (const key of ["cards", "log", "plots", "maxmargin"]) assert.ok(!SNAPSHOT_HIDDEN.includes(key), key);
});
