// Drawing the plane: the grid, the half-planes of w, the max-margin band, the points (misclassified,
// current, certificate, picked order) and w with the update η·y·x tip to tail. Reads the state only.

import { setupCanvas } from "./dom.js";
import { clipLine, halfPlane, intersectBand, toPixel } from "./geometry.js";
import { view } from "./state.js";
import { PLUS, MINUS, WRONG, UPDATE, MARGIN, CERT, INK, MUTED, POCKET } from "./theme.js";

function fillPolygon(pen, polygon, color) {
  if (polygon.length < 3) return;
  const { ctx } = pen;
  ctx.beginPath();
  polygon.forEach(([x, y], i) => { const [px, py] = pen.pixel(x, y); if (i) ctx.lineTo(px, py); else ctx.moveTo(px, py); });
  ctx.closePath();
  ctx.fillStyle = color;
  ctx.fill();
}

function strokeLine(pen, a, b, c, color, width, dash = []) {
  const segment = clipLine(a, b, c, pen.extent);
  if (!segment) return null;
  const { ctx } = pen;
  const [p, q] = segment.map(([x, y]) => pen.pixel(x, y));
  ctx.save();
  ctx.strokeStyle = color;
  ctx.lineWidth = width;
  ctx.setLineDash(dash);
  ctx.beginPath();
  ctx.moveTo(p[0], p[1]);
  ctx.lineTo(q[0], q[1]);
  ctx.stroke();
  ctx.restore();
  return segment;
}

function arrow(pen, from, to, color, width, label, dash = [], labelAt = 1) {
  const { ctx, size } = pen;
  const [x0, y0] = pen.pixel(from[0], from[1]);
  const [x1, y1] = pen.pixel(to[0], to[1]);
  const length = Math.hypot(x1 - x0, y1 - y0);
  if (length < 1) return;
  const ux = (x1 - x0) / length, uy = (y1 - y0) / length;
  const head = Math.min(12, length * 0.45);
  ctx.save();
  ctx.strokeStyle = color;
  ctx.fillStyle = color;
  ctx.lineWidth = width;
  ctx.setLineDash(dash);
  ctx.beginPath();
  ctx.moveTo(x0, y0);
  ctx.lineTo(x1 - ux * head * 0.8, y1 - uy * head * 0.8);
  ctx.stroke();
  ctx.setLineDash([]);
  ctx.beginPath();
  ctx.moveTo(x1, y1);
  ctx.lineTo(x1 - ux * head - uy * head * 0.45, y1 - uy * head + ux * head * 0.45);
  ctx.lineTo(x1 - ux * head + uy * head * 0.45, y1 - uy * head - ux * head * 0.45);
  ctx.closePath();
  ctx.fill();
  if (label) {
    // beside the arrow, on its left-hand side, at `labelAt` of its length
    ctx.font = "600 13px system-ui, sans-serif";
    ctx.textAlign = "center";
    ctx.textBaseline = "middle";
    const ax = x0 + (x1 - x0) * labelAt, ay = y0 + (y1 - y0) * labelAt;
    const wide = ctx.measureText(label).width / 2 + 6;
    const lx = Math.min(size - wide, Math.max(wide, ax + uy * 14 + (labelAt === 1 ? ux * wide : 0)));
    const ly = Math.min(size - 10, Math.max(10, ay - ux * 14 + (labelAt === 1 ? uy * 12 : 0)));
    ctx.fillText(label, lx, ly);
  }
  ctx.restore();
}

function drawGrid(pen, snap) {
  const { ctx, size, extent } = pen;
  ctx.fillStyle = "#ffffff";
  ctx.fillRect(0, 0, size, size);
  const scale = size / (2 * extent);
  const every = scale < 14 ? (scale < 6 ? 5 : 2) : 1;
  ctx.lineWidth = 1;
  if (snap === "0.5" && scale > 24) {
    ctx.strokeStyle = "#f1f5f9";
    ctx.beginPath();
    for (let v = -extent + 0.5; v < extent; v += 1) {
      const [px] = pen.pixel(v, 0); const [, py] = pen.pixel(0, v);
      ctx.moveTo(px, 0); ctx.lineTo(px, size); ctx.moveTo(0, py); ctx.lineTo(size, py);
    }
    ctx.stroke();
  }
  ctx.strokeStyle = "#e2e8f0";
  ctx.beginPath();
  for (let v = -extent; v <= extent; v += 1) {
    if (v % every) continue;
    const [px] = pen.pixel(v, 0); const [, py] = pen.pixel(0, v);
    ctx.moveTo(Math.round(px) + 0.5, 0); ctx.lineTo(Math.round(px) + 0.5, size);
    ctx.moveTo(0, Math.round(py) + 0.5); ctx.lineTo(size, Math.round(py) + 0.5);
  }
  ctx.stroke();
  ctx.strokeStyle = "#94a3b8";
  ctx.beginPath();
  const [ox, oy] = pen.pixel(0, 0);
  ctx.moveTo(Math.round(ox) + 0.5, 0); ctx.lineTo(Math.round(ox) + 0.5, size);
  ctx.moveTo(0, Math.round(oy) + 0.5); ctx.lineTo(size, Math.round(oy) + 0.5);
  ctx.stroke();
  ctx.fillStyle = "#94a3b8";
  ctx.font = "11px system-ui, sans-serif";
  ctx.textAlign = "center";
  ctx.textBaseline = "top";
  const tick = extent <= 6 ? 1 : extent <= 12 ? 2 : 5;
  for (let v = -extent + 1; v < extent; v += 1) {
    if (v === 0 || v % tick) continue;
    const [px] = pen.pixel(v, 0); const [, py] = pen.pixel(0, v);
    ctx.fillText(String(v), px, oy + 4);
    ctx.textAlign = "right";
    ctx.textBaseline = "middle";
    ctx.fillText(String(v), ox - 5, py);
    ctx.textAlign = "center";
    ctx.textBaseline = "top";
  }
}

function drawPoints(pen, state, v) {
  const { ctx } = pen;
  const result = state.result;
  const certificate = new Set(result && !result.cards.separable.separable ? result.cards.separable.certificate : []);
  const wrong = v && v.wrong ? new Set(v.wrong) : new Set();
  const radius = state.points.length > 400 ? 3 : state.points.length > 80 ? 4.5 : 7;
  const labels = state.points.length <= 30;
  state.points.forEach((p, i) => {
    const [px, py] = pen.pixel(p.x, p.y);
    if (certificate.has(i)) {
      ctx.beginPath(); ctx.arc(px, py, radius + 7, 0, 2 * Math.PI);
      ctx.fillStyle = "rgba(219, 39, 119, 0.18)"; ctx.fill();
      ctx.strokeStyle = CERT; ctx.lineWidth = 1.5; ctx.setLineDash([3, 2]); ctx.stroke(); ctx.setLineDash([]);
    }
    if (v && i === v.current) {
      ctx.beginPath(); ctx.arc(px, py, radius + 6, 0, 2 * Math.PI);
      ctx.fillStyle = "rgba(250, 204, 21, 0.55)"; ctx.fill();
    }
    ctx.beginPath(); ctx.arc(px, py, radius, 0, 2 * Math.PI);
    ctx.fillStyle = p.label > 0 ? PLUS : MINUS; ctx.fill();
    ctx.strokeStyle = "#ffffff"; ctx.lineWidth = 1.5; ctx.stroke();
    if (radius >= 7) {
      ctx.strokeStyle = "#ffffff"; ctx.lineWidth = 2;
      ctx.beginPath(); ctx.moveTo(px - 3.5, py); ctx.lineTo(px + 3.5, py);
      if (p.label > 0) { ctx.moveTo(px, py - 3.5); ctx.lineTo(px, py + 3.5); }
      ctx.stroke();
    }
    if (wrong.has(i)) {
      ctx.beginPath(); ctx.arc(px, py, radius + 3.5, 0, 2 * Math.PI);
      ctx.strokeStyle = WRONG; ctx.lineWidth = 2; ctx.stroke();
    }
    if (labels) {
      ctx.fillStyle = MUTED; ctx.font = "12px system-ui, sans-serif"; ctx.textAlign = "left"; ctx.textBaseline = "bottom";
      ctx.fillText(`x${i + 1}`, px + radius + 3, py - 3);
    }
  });
  if (state.options.order === "pick") {
    state.sequence.forEach((index, position) => {
      const p = state.points[index];
      if (!p) return;
      const [px, py] = pen.pixel(p.x, p.y);
      ctx.beginPath(); ctx.arc(px - radius - 7, py + radius + 7, 8, 0, 2 * Math.PI);
      ctx.fillStyle = INK; ctx.fill();
      ctx.fillStyle = "#fff"; ctx.font = "600 10px system-ui, sans-serif"; ctx.textAlign = "center"; ctx.textBaseline = "middle";
      ctx.fillText(String(position + 1), px - radius - 7, py + radius + 7);
    });
  }
}

/** Draw the plane of `state` at its cursor on `canvas`, `size` CSS pixels square. */
export function drawPlane(canvas, state, size) {
  const extent = state.extent;
  const pen = { ctx: setupCanvas(canvas, size, size), size, extent, pixel: (x, y) => toPixel(x, y, size, extent) };
  const { ctx } = pen;
  canvas.dataset.extent = String(extent);
  drawGrid(pen, state.snap);
  const result = state.result;
  const v = view(state);
  const mm = result && result.max_margin;

  if (v) {
    const [a, b] = v.w, c = v.b;
    if (a !== 0 || b !== 0 || c !== 0) {
      fillPolygon(pen, halfPlane(a, b, c, 1, extent), "rgba(37, 99, 235, 0.07)");
      fillPolygon(pen, halfPlane(a, b, c, -1, extent), "rgba(234, 88, 12, 0.07)");
    }
  }
  if (mm && state.showMargin) {
    const [a, b] = mm.w, c = mm.b;
    fillPolygon(pen, intersectBand(a, b, c, mm.band, extent), "rgba(124, 58, 237, 0.08)");
    strokeLine(pen, a, b, c - mm.band, "rgba(124, 58, 237, 0.55)", 1, [3, 4]);
    strokeLine(pen, a, b, c + mm.band, "rgba(124, 58, 237, 0.55)", 1, [3, 4]);
    strokeLine(pen, a, b, c, MARGIN, 1.5, [8, 5]);
  }
  if (v && (v.w[0] !== 0 || v.w[1] !== 0)) strokeLine(pen, v.w[0], v.w[1], v.b, INK, 2.2);
  if (result && result.run.algorithm === "pocket" && v && v.final) {
    strokeLine(pen, result.run.w[0], result.run.w[1], result.run.b, POCKET, 2, [10, 4]);
  }
  drawPoints(pen, state, v);

  // w and the update y·x, tip to tail
  if (v) {
    const vectors = [v.w, v.previous ? v.previous.w : [0, 0]];
    const longest = Math.max(...vectors.map((w) => Math.hypot(w[0], w[1])));
    const room = extent * 0.92;
    const scale = longest > room ? room / longest : 1;
    const s = (w) => [w[0] * scale, w[1] * scale];
    const tag = scale < 1 ? ` (×${scale.toPrecision(2)})` : "";
    if (v.previous) {
      arrow(pen, [0, 0], s(v.previous.w), "#94a3b8", 1.8, "", [5, 4]);
      arrow(pen, s(v.previous.w), s(v.w), UPDATE, 2.4, "η·y·x", [], 0.5);
    }
    if (v.w[0] !== 0 || v.w[1] !== 0) arrow(pen, [0, 0], s(v.w), INK, 2.6, "w" + tag);
  }
  ctx.strokeStyle = "#cbd5e1";
  ctx.lineWidth = 1;
  ctx.strokeRect(0.5, 0.5, size - 1, size - 1);
}
