// URL state: the lab's input and view in the page's hash (#p=1,0,1;1,1,-1&step=5), both ways.
// Pure functions: unit-tested with node --test (tests/js/hash.test.mjs).

import { numberText } from "./words.js";

export const DEFAULT_OPTIONS = Object.freeze({
  order: "cyclic", fit_intercept: false, eta: "1", margin: "0", pocket: false,
  max_sweeps: 100, seed: 0, arithmetic: "auto",
});

/** Controls a classroom link can hide (the URL's `hide=` list). */
export const HIDEABLE = Object.freeze({
  preset: "presets", order: "order", bias: "bias", eta: "η", rho0: "ρ₀", pocket: "pocket",
  snap: "snap", maxmargin: "max-margin toggle", settings: "sweeps, seed, arithmetic", cards: "cards",
  log: "log", plots: "plots", edit: "editing the points", share: "this share box",
  data: "your data", export: "snapshot export", quiz: "self-test",
});

/** The hash text (without "#") of `state` with its cursor at `step` (0: no step= in the link). */
export function encodeHash(state, step) {
  const params = new URLSearchParams();
  params.set("p", state.points.map((p) => `${numberText(p.x)},${numberText(p.y)},${p.label > 0 ? 1 : -1}`).join(";"));
  const o = state.options;
  if (o.order !== "cyclic") params.set("order", o.order);
  if (o.order === "pick" && state.sequence.length) params.set("seq", state.sequence.join(","));
  if (o.fit_intercept) params.set("bias", "1");
  if (String(o.eta) !== "1") params.set("eta", o.eta);
  if (String(o.margin) !== "0") params.set("rho0", o.margin);
  if (o.pocket) params.set("pocket", "1");
  if (o.max_sweeps !== 100) params.set("sweeps", String(o.max_sweeps));
  if (o.seed !== 0) params.set("seed", String(o.seed));
  if (o.arithmetic !== "auto") params.set("arith", o.arithmetic);
  if (state.snap !== "1") params.set("snap", state.snap);
  if (!state.showMargin) params.set("mm", "0");
  if (step) params.set("step", String(step));
  if (state.hidden.size) params.set("hide", [...state.hidden].join(","));
  return params.toString().replace(/%2C/g, ",").replace(/%3B/g, ";");
}

/** The state a hash holds ({points, options, sequence, snap, showMargin, step, hidden}), or null. */
export function decodeHash(text) {
  const params = new URLSearchParams(text.replace(/^#/, ""));
  if (!params.has("p")) return null;
  const points = [];
  for (const chunk of params.get("p").split(";")) {
    if (!chunk.trim()) continue;
    const [x, y, label] = chunk.split(",").map(Number);
    if ([x, y, label].some((v) => !Number.isFinite(v))) continue;
    points.push({ x, y, label: label < 0 ? -1 : 1 });
  }
  const options = { ...DEFAULT_OPTIONS };
  if (params.has("order")) options.order = params.get("order");
  options.fit_intercept = params.get("bias") === "1";
  if (params.has("eta")) options.eta = params.get("eta");
  if (params.has("rho0")) options.margin = params.get("rho0");
  options.pocket = params.get("pocket") === "1";
  if (params.has("sweeps")) options.max_sweeps = Number(params.get("sweeps"));
  if (params.has("seed")) options.seed = Number(params.get("seed"));
  if (params.has("arith")) options.arithmetic = params.get("arith");
  const sequence = (params.get("seq") || "").split(",").filter((s) => s !== "").map(Number)
    .filter((i) => Number.isInteger(i) && i >= 0 && i < points.length);
  return {
    points, options, sequence: [...new Set(sequence)],
    snap: params.get("snap") || "1",
    showMargin: params.get("mm") !== "0",
    step: Math.max(0, Number(params.get("step")) || 0),
    hidden: new Set((params.get("hide") || "").split(",").filter((k) => k in HIDEABLE)),
  };
}

/** Options equal once the page's defaults are filled in (Python may hold only what it set). */
export function sameOptions(a, b) {
  const full = (options) => {
    const merged = { ...DEFAULT_OPTIONS, ...(options || {}) };
    if (!merged.sequence || !merged.sequence.length) delete merged.sequence;
    return JSON.stringify(Object.keys(merged).sort().map((key) => [key, merged[key]]));
  };
  return full(a) === full(b);
}
