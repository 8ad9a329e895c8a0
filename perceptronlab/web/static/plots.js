// The two plots: the squeeze ‖w_k‖ between kηρ* and √k·ηR, and the training errors after each sweep.
// Reads the state only.

import { h, setupCanvas } from "./dom.js";
import { formatTick } from "./words.js";
import { view, completedSweeps } from "./state.js";
import { PLUS, MINUS, WRONG, UPDATE, MUTED, POCKET } from "./theme.js";

function plotFrame(target, width, height = 150) {
  const ctx = setupCanvas(target, width, height);
  ctx.fillStyle = "#fff";
  ctx.fillRect(0, 0, width, height);
  return { ctx, width, height, left: 34, right: width - 10, top: 10, bottom: height - 22 };
}

function axes(f, xmax, ymax, xlabel) {
  const { ctx, left, right, top, bottom } = f;
  ctx.strokeStyle = "#cbd5e1"; ctx.lineWidth = 1;
  ctx.beginPath(); ctx.moveTo(left, top); ctx.lineTo(left, bottom); ctx.lineTo(right, bottom); ctx.stroke();
  ctx.fillStyle = MUTED; ctx.font = "10px system-ui, sans-serif";
  ctx.textAlign = "right"; ctx.textBaseline = "middle";
  ctx.fillText(formatTick(ymax), left - 4, top + 2); ctx.fillText("0", left - 4, bottom);
  ctx.textAlign = "center"; ctx.textBaseline = "top";
  ctx.fillText("0", left, bottom + 4); ctx.fillText(formatTick(xmax), right, bottom + 4);
  ctx.fillText(xlabel, (left + right) / 2, bottom + 6);
}

function polyline(f, xs, ys, xmax, ymax, color, width, dash = []) {
  const { ctx, left, right, top, bottom } = f;
  ctx.save(); ctx.strokeStyle = color; ctx.lineWidth = width; ctx.setLineDash(dash);
  ctx.beginPath();
  xs.forEach((x, i) => {
    const px = left + (x / xmax) * (right - left);
    const py = bottom - (Math.min(ys[i], ymax * 1.05) / ymax) * (bottom - top);
    if (i) ctx.lineTo(px, py); else ctx.moveTo(px, py);
  });
  ctx.stroke(); ctx.restore();
}

function drawSqueeze(f, state) {
  const sq = state.result.plots.squeeze;
  const updates = sq.norms.length - 1;
  const v = view(state);
  const k = v ? Math.min(v.k, updates) : 0;
  const xmax = Math.max(1, updates);
  const ks = sq.norms.map((_, i) => i);
  const ymax = Math.max(1e-9, ...sq.norms, ...sq.upper.slice(0, updates + 1));
  axes(f, xmax, ymax, "mistakes k");
  polyline(f, ks, sq.upper, xmax, ymax, WRONG, 1.4, [4, 3]);
  if (sq.lower) polyline(f, ks, sq.lower, xmax, ymax, UPDATE, 1.4, [4, 3]);
  polyline(f, ks, sq.norms, xmax, ymax, "#cbd5e1", 1.5);
  polyline(f, ks.slice(0, k + 1), sq.norms.slice(0, k + 1), xmax, ymax, PLUS, 2.2);
  const px = f.left + (k / xmax) * (f.right - f.left);
  const py = f.bottom - (sq.norms[k] / ymax) * (f.bottom - f.top);
  f.ctx.beginPath(); f.ctx.arc(px, py, 3.5, 0, 2 * Math.PI); f.ctx.fillStyle = PLUS; f.ctx.fill();
}

function drawErrors(e, state) {
  const errors = state.result.plots.errors;
  const count = errors.length;
  const emax = Math.max(1, ...errors);
  axes(e, Math.max(1, count), emax, "sweep");
  const completed = completedSweeps(state);
  const barWidth = Math.max(1, (e.right - e.left) / Math.max(1, count) - 2);
  errors.forEach((value, i) => {
    const x = e.left + (i / Math.max(1, count)) * (e.right - e.left) + 1;
    const height = (value / emax) * (e.bottom - e.top);
    e.ctx.fillStyle = i + 1 <= completed ? (value === 0 ? UPDATE : MINUS) : "#e2e8f0";
    e.ctx.fillRect(x, e.bottom - Math.max(height, 2), barWidth, Math.max(height, 2));
  });
  const pocket = state.result.plots.pocket;
  if (pocket && pocket.length) {
    // the pocket's error count at the end of each sweep: it only goes down
    const xs = pocket.map((_, i) => i + 0.5);
    polyline(e, xs.slice(0, completed), pocket.slice(0, completed), Math.max(1, count), emax, POCKET, 2.2);
  }
}

/** The plots panel: {node, canvases, render(width)} over the lab's state. */
export function createPlots(state) {
  const squeeze = h("canvas", { class: "plab-plot", "data-testid": "plot-squeeze" });
  const errors = h("canvas", { class: "plab-plot", "data-testid": "plot-errors" });
  const caption = h("figcaption", { "data-testid": "errors-caption" }, "Training errors after each sweep");
  const node = h("div", { class: "plab-panel plab-plots", "data-ctl": "plots" },
    h("figure", {}, h("figcaption", {}, "Squeeze: ‖w_k‖ between kηρ* and √k·ηR"), squeeze),
    h("figure", {}, caption, errors));

  /** Draw both plots; `widthOf(canvas)` gives a canvas's CSS width. */
  function render(widthOf) {
    if (state.hidden.has("plots")) return;
    caption.textContent = state.result && state.result.plots.pocket
      ? "Errors after each sweep (line: the pocket's)" : "Training errors after each sweep";
    const f = plotFrame(squeeze, widthOf(squeeze));
    const e = plotFrame(errors, widthOf(errors));
    if (!state.result) return;
    drawSqueeze(f, state);
    drawErrors(e, state);
  }

  return { node, canvases: [squeeze, errors], render };
}
