// The worksheet: perceptronlab/web/static/worksheet.js against Run.worksheet_rows() and
// Run.table("csv") of the same runs (fixtures/runs.json).
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { logRows, worksheetCsv } from "../../perceptronlab/web/static/worksheet.js";
import { createState, total } from "../../perceptronlab/web/static/state.js";

const RUNS = JSON.parse(readFileSync(new URL("./fixtures/runs.json", import.meta.url), "utf-8"));

function stateFor(name) {
  const state = createState(null);
  state.result = RUNS[name].answer;
  return state;
}

for (const name of Object.keys(RUNS)) {
  test(`${name}: at the end, the rows of Run.worksheet_rows()`, () => {
    const state = stateFor(name);
    assert.deepEqual(logRows(state, total(state)), RUNS[name].worksheet_rows);
  });

  test(`${name}: the CSV is Run.table("csv")`, () => {
    const state = stateFor(name);
    assert.equal(worksheetCsv(logRows(state, total(state))), RUNS[name].worksheet_csv);
  });
}

test("before the end, one row per step taken", () => {
  const state = stateFor("exam");
  assert.deepEqual(logRows(state, 0), []);
  const rows = logRows(state, 4);
  assert.equal(rows.length, 4);
  assert.deepEqual(rows[0], RUNS.exam.worksheet_rows[0]);
  assert.deepEqual(logRows(createState(null), 5), []);
});
