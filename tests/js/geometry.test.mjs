// The plane's geometry: perceptronlab/web/static/geometry.js, against brute force.
import { test } from "node:test";
import assert from "node:assert/strict";
import { viewExtent, toPixel, toWorld, snapTo, clipLine, halfPlane, intersectBand, hitPoint } from "../../perceptronlab/web/static/geometry.js";

const close = (a, b, eps = 1e-9) => assert.ok(Math.abs(a - b) <= eps, `${a} ≈ ${b}`);

// a small linear congruential generator: the same numbers on every run
function generator(seed) {
  let s = seed >>> 0;
  return () => { s = (1664525 * s + 1013904223) >>> 0; return s / 2 ** 32; };
}

test("the view shows every point, and at least [-4, 4]", () => {
  assert.equal(viewExtent([]), 4);
  assert.equal(viewExtent([{ x: 1, y: -1 }]), 4);
  const extent = viewExtent([{ x: 10, y: -37.5 }]);
  assert.ok(extent >= 37.5 * 1.15 && Number.isInteger(extent));
});

test("pixels and world coordinates are inverse, y upwards", () => {
  assert.deepEqual(toPixel(0, 0, 400, 4), [200, 200]);
  assert.deepEqual(toPixel(4, 4, 400, 4), [400, 0]);
  const random = generator(1);
  for (let i = 0; i < 100; i++) {
    const x = random() * 8 - 4, y = random() * 8 - 4;
    const [px, py] = toPixel(x, y, 520, 4);
    const [bx, by] = toWorld(px, py, 520, 4);
    close(bx, x); close(by, y);
  }
});

test("snap to integers, halves or hundredths", () => {
  assert.equal(snapTo(1.4, "1"), 1);
  assert.equal(snapTo(1.3, "0.5"), 1.5);
  assert.equal(snapTo(1.234, "0"), 1.23);
});

test("a clipped line lies on the line, inside the square, end to end", () => {
  const random = generator(7);
  for (let i = 0; i < 200; i++) {
    const a = random() * 2 - 1, b = random() * 2 - 1, c = random() * 6 - 3;
    const segment = clipLine(a, b, c, 4);
    // brute force: does the line cross the square? sample its corners' signs
    const corners = [[-4, -4], [4, -4], [4, 4], [-4, 4]].map(([x, y]) => Math.sign(a * x + b * y + c));
    const crosses = corners.some((s) => s > 0) && corners.some((s) => s < 0);
    if (!crosses) { assert.equal(segment, null); continue; }
    assert.notEqual(segment, null);
    for (const [x, y] of segment) {
      close(a * x + b * y + c, 0, 1e-7);
      assert.ok(Math.abs(x) <= 4 + 1e-9 && Math.abs(y) <= 4 + 1e-9);
      assert.ok(Math.abs(Math.abs(x) - 4) < 1e-9 || Math.abs(Math.abs(y) - 4) < 1e-9, "an end on the border");
    }
  }
  assert.equal(clipLine(0, 0, 1, 4), null);
});

function area(polygon) {
  let sum = 0;
  for (let i = 0; i < polygon.length; i++) {
    const [x0, y0] = polygon[i], [x1, y1] = polygon[(i + 1) % polygon.length];
    sum += x0 * y1 - x1 * y0;
  }
  return Math.abs(sum) / 2;
}

function sampledArea(inside, extent, n = 400) {
  let count = 0;
  for (let i = 0; i < n; i++) for (let j = 0; j < n; j++) {
    const x = -extent + (2 * extent * (i + 0.5)) / n, y = -extent + (2 * extent * (j + 0.5)) / n;
    if (inside(x, y)) count += 1;
  }
  return (count / (n * n)) * (2 * extent) ** 2;
}

test("the two half-planes split the square; their areas match a count of grid cells", () => {
  const random = generator(3);
  for (let i = 0; i < 10; i++) {
    const a = random() * 2 - 1, b = random() * 2 - 1, c = random() * 4 - 2;
    const plus = area(halfPlane(a, b, c, 1, 4)), minus = area(halfPlane(a, b, c, -1, 4));
    close(plus + minus, 64, 1e-9);
    close(plus, sampledArea((x, y) => a * x + b * y + c > 0, 4), 0.5);
  }
});

test("the margin band is the strip |a·x + b·y + c| ≤ band", () => {
  const a = 0.6, b = 0.8, c = 0.5, band = 1;
  close(area(intersectBand(a, b, c, band, 4)), sampledArea((x, y) => Math.abs(a * x + b * y + c) <= band, 4), 0.5);
  assert.equal(intersectBand(1, 0, 10, 1, 4).length, 0);
});

test("the point under the pointer, the nearest within reach", () => {
  const points = [{ x: 0, y: 0 }, { x: 1, y: 0 }];
  const [px, py] = toPixel(0.9, 0, 400, 4);
  assert.equal(hitPoint(points, px, py, 400, 4), 1);
  assert.equal(hitPoint(points, 0, 0, 400, 4), -1);
});
