// The plane's geometry in world coordinates: the view square [-extent, extent]², pixels, lines
// clipped to the square. Pure functions: unit-tested with node --test (tests/js/geometry.test.mjs).

/** The half-width of the view square that shows every point with a margin (at least 4). */
export function viewExtent(points) {
  let biggest = 0;
  for (const p of points) biggest = Math.max(biggest, Math.abs(p.x), Math.abs(p.y));
  return Math.max(4, Math.ceil(biggest * 1.15 + 0.5));
}

/** A world point as pixels of a square canvas `size` CSS pixels wide. */
export function toPixel(x, y, size, extent) {
  const scale = size / (2 * extent);
  return [size / 2 + x * scale, size / 2 - y * scale];
}

/** Pixels of a square canvas `size` CSS pixels wide as a world point. */
export function toWorld(px, py, size, extent) {
  const scale = size / (2 * extent);
  return [(px - size / 2) / scale, (size / 2 - py) / scale];
}

/** A coordinate on the grid the snap setting chooses ("1": integers, "0.5": halves, else hundredths). */
export function snapTo(value, snap) {
  if (snap === "1") return Math.round(value);
  if (snap === "0.5") return Math.round(value * 2) / 2;
  return Math.round(value * 100) / 100;
}

/** The segment of a·x + b·y + c = 0 inside the view square, or null when it misses it. */
export function clipLine(a, b, c, extent) {
  const e = extent, hits = [];
  if (Math.abs(b) > 1e-12) for (const x of [-e, e]) { const y = -(a * x + c) / b; if (y >= -e - 1e-9 && y <= e + 1e-9) hits.push([x, y]); }
  if (Math.abs(a) > 1e-12) for (const y of [-e, e]) { const x = -(b * y + c) / a; if (x >= -e - 1e-9 && x <= e + 1e-9) hits.push([x, y]); }
  if (hits.length < 2) return null;
  let best = [hits[0], hits[1]], far = -1;
  for (let i = 0; i < hits.length; i++) {
    for (let j = i + 1; j < hits.length; j++) {
      const d = Math.hypot(hits[i][0] - hits[j][0], hits[i][1] - hits[j][1]);
      if (d > far) { far = d; best = [hits[i], hits[j]]; }
    }
  }
  return far > 1e-9 ? best : null;
}

/** The part of `polygon` where value(p) ≥ 0 for an affine `value` (one Sutherland–Hodgman pass). */
function clipPolygon(polygon, value) {
  const out = [];
  for (let i = 0; i < polygon.length; i++) {
    const p = polygon[i], q = polygon[(i + 1) % polygon.length];
    const vp = value(p), vq = value(q);
    if (vp >= 0) out.push(p);
    if ((vp >= 0) !== (vq >= 0)) {
      const t = vp / (vp - vq);
      out.push([p[0] + t * (q[0] - p[0]), p[1] + t * (q[1] - p[1])]);
    }
  }
  return out;
}

function square(extent) {
  const e = extent;
  return [[-e, -e], [e, -e], [e, e], [-e, e]];
}

/** The part of the view square where sign·(a·x + b·y + c) ≥ 0. */
export function halfPlane(a, b, c, sign, extent) {
  return clipPolygon(square(extent), ([x, y]) => sign * (a * x + b * y + c));
}

/** The strip |a·x + b·y + c| ≤ band inside the view square. */
export function intersectBand(a, b, c, band, extent) {
  const upper = clipPolygon(square(extent), ([x, y]) => band - (a * x + b * y + c));
  return clipPolygon(upper, ([x, y]) => band + (a * x + b * y + c));
}

/** The index of the point nearest to pixel (px, py) within `reach` pixels, or -1. */
export function hitPoint(points, px, py, size, extent, reach = 10) {
  let best = -1, bestDistance = reach;
  points.forEach((p, i) => {
    const [qx, qy] = toPixel(p.x, p.y, size, extent);
    const distance = Math.hypot(qx - px, qy - py);
    if (distance < bestDistance) { best = i; bestDistance = distance; }
  });
  return best;
}
