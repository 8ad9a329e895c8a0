// Texts for people: perceptronlab/web/static/words.js.
import { test } from "node:test";
import assert from "node:assert/strict";
import { pageWords, shortFloats, csvField, countText, escapeHtml, readNumber, formatTick } from "../../perceptronlab/web/static/words.js";

test("the server's names become the page's: x1 … xn and the options' labels", () => {
  assert.equal(pageWords("points[0][1]: expected a number"), "x1 (its second coordinate): expected a number");
  assert.equal(pageWords("points[11]: expected 2 numbers"), "x12: expected 2 numbers");
  assert.equal(pageWords("labels[2]: expected 1 or -1"), "the label of x3: expected 1 or -1");
  assert.equal(pageWords("options.margin (rho0): expected ≥ 0"), "ρ₀: expected ≥ 0");
  assert.equal(pageWords("options.eta: expected > 0"), "η: expected > 0");
  assert.equal(pageWords("options.max_sweeps: at most 1000"), "Max sweeps: at most 1000");
  assert.equal(pageWords("options.seed: x"), "Seed: x");
  assert.equal(pageWords("options.arithmetic: x"), "Arithmetic: x");
  assert.equal(pageWords("request: too big"), "request: too big");
});

test("floats shown to 6 significant digits, short ones and integers untouched", () => {
  assert.equal(shortFloats("(0.30000000000000004, -1.23456789)"), "(0.3, -1.23457)");
  assert.equal(shortFloats("(1, -2)"), "(1, -2)");
  assert.equal(shortFloats("0.1234"), "0.1234");
});

test("CSV fields quoted only when they must be", () => {
  assert.equal(csvField("(1, -2)"), '"(1, -2)"');
  assert.equal(csvField('say "hi"'), '"say ""hi"""');
  assert.equal(csvField("yes"), "yes");
});

test("counts written one way, with the plural", () => {
  assert.equal(countText(1, "mistake"), "1 mistake");
  assert.equal(countText(10727, "sweep"), "10,727 sweeps");
  assert.equal(countText(0, "sweep"), "0 sweeps");
});

test("HTML escaped", () => {
  assert.equal(escapeHtml('<b a="1">&</b>'), "&lt;b a=&quot;1&quot;&gt;&amp;&lt;/b&gt;");
});

test("typed numbers: decimals, negatives and fractions; anything else is null", () => {
  assert.equal(readNumber(" 1.5 "), 1.5);
  assert.equal(readNumber("-2"), -2);
  assert.equal(readNumber("1/2"), 0.5);
  assert.equal(readNumber("-3/4"), -0.75);
  for (const bad of ["", "abc", "1/0", "1/2/3", "Infinity", "NaN"]) assert.equal(readNumber(bad), null, bad);
});

test("tick labels", () => {
  assert.equal(formatTick(1234.5), "1235");
  assert.equal(formatTick(3.14159), "3.14");
  assert.equal(formatTick(0), "0");
});
