// A user's own data: perceptronlab/web/static/data.js.
import { test } from "node:test";
import assert from "node:assert/strict";
import { parseTable, describeColumns, defaultChoice, defaultPositive, toPoints, detectSeparator, DataError, MAX_ROWS } from "../../perceptronlab/web/static/data.js";

const IRIS = `sepal_length,sepal_width,petal_length,petal_width,species
5.1,3.5,1.4,0.2,setosa
7.0,3.2,4.7,1.4,versicolor
6.3,3.3,6.0,2.5,virginica
4.9,3.0,1.4,0.2,setosa
`;

test("a header is read when the first line names the columns", () => {
  const table = parseTable(IRIS);
  assert.equal(table.hasHeader, true);
  assert.deepEqual(table.header, ["sepal_length", "sepal_width", "petal_length", "petal_width", "species"]);
  assert.equal(table.rows.length, 4);
});

test("pasted points without a header: x, y, label per line, any separator", () => {
  for (const text of ["1, 0, +1\n1, 1, -1\n0, 1, -1", "1\t0\t1\n1\t1\t-1\n0\t1\t-1", "1 0 1\n1  1 -1\n0 1 -1\n", "1;0;1\r\n1;1;-1\r\n0;1;-1"]) {
    const table = parseTable(text);
    assert.equal(table.hasHeader, false, text);
    const { points } = toPoints(table, defaultChoice(table));
    assert.deepEqual(points, [{ x: 1, y: 0, label: 1 }, { x: 1, y: 1, label: -1 }, { x: 0, y: 1, label: -1 }], text);
  }
});

test("separators", () => {
  assert.equal(detectSeparator(["a\tb\tc"]), "\t");
  assert.equal(detectSeparator(["a;b;c", "1;2;3"]), ";");
  assert.equal(detectSeparator(["a,b,c"]), ",");
  assert.equal(detectSeparator(["1 2 3"]), " ");
});

test("quoted fields, comments and a byte-order mark", () => {
  const table = parseTable('\uFEFF# my data\n"x, first",y,label\n1,2,"a ""b"""\n3,4,c\n');
  assert.deepEqual(table.header, ["x, first", "y", "label"]);
  assert.deepEqual(table.rows, [["1", "2", 'a "b"'], ["3", "4", "c"]]);
});

test("the default choice: the first two numeric columns, the text column as the label", () => {
  const table = parseTable(IRIS);
  const choice = defaultChoice(table);
  assert.deepEqual([choice.x, choice.y, choice.label], [0, 1, 4]);
  assert.equal(choice.positive, "setosa");
  const columns = describeColumns(table);
  assert.deepEqual(columns.map((c) => c.numeric), [true, true, true, true, false]);
});

test("a label column found by its name even when numeric", () => {
  const table = parseTable("a,b,c,target\n1,2,3,0\n4,5,6,1\n7,8,9,1\n");
  assert.deepEqual(defaultChoice(table), { x: 0, y: 1, label: 3, positive: "1" });
});

test("the +1 class: 1 among 0/1 or ±1, else the larger of two, else the first", () => {
  assert.equal(defaultPositive(["0", "1"]), "1");
  assert.equal(defaultPositive(["1", "-1"]), "1");
  assert.equal(defaultPositive(["+1", "-1"]), "+1");
  assert.equal(defaultPositive(["yes", "no"]), "yes");
  assert.equal(defaultPositive(["3", "7"]), "7");
  assert.equal(defaultPositive(["b", "c", "a"]), "a");
});

test("chosen columns and class: one class against the rest", () => {
  const table = parseTable(IRIS);
  const { points, summary } = toPoints(table, { x: 2, y: 3, label: 4, positive: "versicolor" });
  assert.deepEqual(points, [{ x: 1.4, y: 0.2, label: -1 }, { x: 4.7, y: 1.4, label: 1 }, { x: 6.0, y: 2.5, label: -1 }, { x: 1.4, y: 0.2, label: -1 }]);
  assert.equal(summary, "4 rows: x = petal_length, y = petal_width; +1 = 'versicolor' (1), −1 = the other classes (3).");
});

function refused(action, pattern) {
  assert.throws(action, (error) => error instanceof DataError && pattern.test(error.message) && !error.message.includes("\n"));
}

test("every refusal is one line naming the fix", () => {
  refused(() => parseTable(""), /got nothing; open a CSV file or paste points/);
  refused(() => parseTable("1,2\n3,4"), /expected at least 3 columns .* got 2; write each point as x, y, label/);
  refused(() => parseTable("a,b,c\n1,2,3\n1,2"), /expected 3 cells in every row .* got 2 in row 3/);
  refused(() => parseTable("1,2,1\n".repeat(MAX_ROWS + 1)), /expected at most 10,000 rows, got 10,001/);
  const table = parseTable("x,y,label\n1,2,1\n3,oops,-1\n");
  refused(() => toPoints(table, { x: 0, y: 1, label: 2, positive: "1" }), /column 'y': expected a number in row 3, got 'oops'/);
  refused(() => toPoints(table, { x: 0, y: 0, label: 2, positive: "1" }), /expected three different columns/);
  refused(() => toPoints(table, { x: 0, y: 1, label: 2, positive: "7" }), /expected '7' among its classes/);
});
