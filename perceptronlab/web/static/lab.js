// perceptronlab · the lab page (served page and Jupyter widget share this ES module).
//
// The page computes nothing about the perceptron: it posts {points, labels, options} whenever they
// change and receives the whole run (every step, every weight vector, which points each weight
// vector misclassifies) and the cards from perceptronlab's Python engine and theory toolkit. Stepping,
// sweeping, playing and rewinding only move a cursor through that answer and draw it.
//
// No dependencies, no build step, no network beyond the one endpoint (or the widget's model).

const PLUS = "#2563eb";
const MINUS = "#ea580c";
const WRONG = "#dc2626";
const UPDATE = "#16a34a";
const MARGIN = "#7c3aed";
const CERT = "#db2777";
const INK = "#0f172a";
const MUTED = "#64748b";

const DEFAULT_OPTIONS = {
  order: "cyclic", fit_intercept: false, eta: "1", margin: "0", pocket: false,
  max_sweeps: 100, seed: 0, arithmetic: "auto",
};

// Controls a classroom link can hide (the URL's `hide=` list).
export const HIDEABLE = {
  preset: "presets", order: "order", bias: "bias", eta: "η", rho0: "ρ₀", pocket: "pocket",
  snap: "snap", maxmargin: "max-margin toggle", settings: "sweeps, seed, arithmetic", cards: "cards",
  log: "log", plots: "plots", edit: "editing the points", share: "this share box",
};

const LOG_WINDOW = 200;

// ------------------------------------------------------------------ presets (data only)

function examTask() {
  return [{ x: 1, y: 0, label: 1 }, { x: 1, y: 1, label: -1 }, { x: 0, y: 1, label: -1 }];
}

function marginTask() {
  return [{ x: 3, y: 1, label: 1 }, { x: 1, y: 2, label: 1 }, { x: -1, y: -1, label: -1 },
    { x: 0, y: -2, label: -1 }];
}

function worstCase() {
  // seed 003, §6.7 in the plane: e1, e2 labelled +1; R = 1, ρ* = 1/√2, bound 2, exactly 2 mistakes.
  return [{ x: 1, y: 0, label: 1 }, { x: 0, y: 1, label: 1 }];
}

function nonSeparable() {
  return [
    { x: 2, y: 1, label: 1 }, { x: 3, y: 2.5, label: 1 }, { x: 1, y: 2, label: 1 }, { x: 2.5, y: -0.5, label: 1 },
    { x: -1.5, y: -2, label: -1 }, { x: -2.5, y: -1, label: -1 }, { x: -1, y: -3, label: -1 },
    { x: 2, y: 2, label: -1 },
  ];
}

function randomSeparable(count = 16) {
  // A random direction w* and points on the half grid at distance ≥ 0.5 from its line.
  const angle = Math.random() * 2 * Math.PI;
  const wx = Math.cos(angle), wy = Math.sin(angle);
  const points = [];
  const seen = new Set();
  let guard = 0;
  while (points.length < count && guard++ < 5000) {
    const x = Math.round((Math.random() * 8 - 4) * 2) / 2;
    const y = Math.round((Math.random() * 8 - 4) * 2) / 2;
    const side = wx * x + wy * y;
    const key = `${x},${y}`;
    if (Math.abs(side) < 0.5 || seen.has(key)) continue;
    seen.add(key);
    points.push({ x, y, label: side > 0 ? 1 : -1 });
  }
  return points;
}

const PRESETS = {
  exam: { name: "Exam task (seed 000)", points: examTask },
  margin: { name: "Margin task (seed 000)", points: marginTask },
  random: { name: "Random separable", points: randomSeparable },
  nonsep: { name: "Non-separable", points: nonSeparable },
  worst: { name: "Worst case: e₁, e₂", points: worstCase },
  empty: { name: "Empty plane", points: () => [] },
};

// ------------------------------------------------------------------ small helpers

function h(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (value === undefined || value === null || value === false) continue;
    if (key === "class") node.className = value;
    else if (key === "text") node.textContent = value;
    else if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
    else node.setAttribute(key, value === true ? "" : value);
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

function numberText(value) {
  // Coordinates as the page sends them: shortest round-trip decimals.
  return String(value);
}

// Button icons as inline SVG (no icon font, no emoji: they render the same everywhere).
const ICONS = {
  reset: "M5 4h2v16H5zM19 4v16L8 12z",
  step: "M6 4v16l10-8zM17 4h2v16h-2z",
  sweep: "M3 4v16l8-8zM11 4v16l8-8zM19 4h2v16h-2z",
  run: "M4 4v16l8-8zM12 4v16l8-8z",
  play: "M7 4v16l13-8z",
  pause: "M6 4h4v16H6zM14 4h4v16h-4z",
};

function setButton(node, icon, label) {
  node.replaceChildren();
  const svg = document.createElementNS("http://www.w3.org/2000/svg", "svg");
  svg.setAttribute("viewBox", "0 0 24 24");
  svg.setAttribute("aria-hidden", "true");
  svg.classList.add("plab-icon");
  const path = document.createElementNS("http://www.w3.org/2000/svg", "path");
  path.setAttribute("d", ICONS[icon]);
  svg.append(path);
  node.append(svg, document.createTextNode(label));
}

// Floats on screen to 6 significant digits (the CSV keeps the engine's shortest round-trip repr).
function shortFloats(text) {
  return String(text).replace(/-?\d+\.\d{5,}(e[-+]?\d+)?/g, (m) => String(Number(Number(m).toPrecision(6))));
}

// The server's messages in the page's words: points by their x-names (x1 … xn, never 0-based
// indices), options by their labels on the page. (The Jupyter widget shows the kernel's own
// message, lab.error, word for word: its user sets the options in Python.)
export function pageWords(message) {
  return String(message)
    .replace(/points\[(\d+)\]\[([01])\]/g, (_, i, j) => `x${Number(i) + 1} (its ${j === "0" ? "first" : "second"} coordinate)`)
    .replace(/points\[(\d+)\]/g, (_, i) => `x${Number(i) + 1}`)
    .replace(/labels\[(\d+)\]/g, (_, i) => `the label of x${Number(i) + 1}`)
    .replace(/^options\.margin \(rho0\)|^options\.margin/, "ρ₀")
    .replace(/^options\.eta/, "η")
    .replace(/^options\.max_sweeps/, "Max sweeps")
    .replace(/^options\.seed/, "Seed")
    .replace(/^options\.arithmetic/, "Arithmetic");
}

function csvField(text) {
  return /[",\n\r]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

function sameOptions(a, b) {
  return JSON.stringify(a) === JSON.stringify(b);
}

// ------------------------------------------------------------------ state <-> URL hash

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

// ------------------------------------------------------------------ back ends

/**
 * Compute through the HTTP endpoint of `perceptronlab serve`.
 *
 * Answers reach `deliver` as {result}, {error, kind} or {pending}: kind "input" for a request the
 * lab refuses (422, 413: the message names the input), "server" for a server that answered with a
 * failure, "network" for no answer at all. A busy server (503) is asked again after its
 * Retry-After, up to three times, with {pending} meanwhile. A newer request aborts the older one
 * (the server then drops or stops its work).
 */
export function httpBackend(url = "api/run") {
  let latest = 0;
  let inflight = null;
  return {
    submit(payload, deliver) {
      const ticket = ++latest;
      if (inflight) inflight.abort();
      const controller = typeof AbortController === "undefined" ? null : new AbortController();
      inflight = controller;
      const body = JSON.stringify(payload);
      const attempt = (tries) => {
        fetch(url, { method: "POST", headers: { "Content-Type": "application/json" }, body, signal: controller ? controller.signal : undefined })
          .then(async (response) => {
            let answer = null;
            try { answer = await response.json(); } catch (_) { answer = null; }
            if (ticket !== latest) return;
            const detail = answer && typeof answer.detail === "string" ? answer.detail : "";
            if (response.status === 503 && tries < 3) {
              const wait = Math.min(30, Math.max(1, Number(response.headers.get("Retry-After")) || 1));
              deliver({ pending: `The lab server is busy; asking again in ${wait} s.` });
              setTimeout(() => { if (ticket === latest) attempt(tries + 1); }, wait * 1000);
              return;
            }
            if (inflight === controller) inflight = null;
            if (response.ok && answer) deliver({ result: answer });
            else if (response.status === 422 || response.status === 413) deliver({ error: pageWords(detail) || `The lab refused the input (${response.status}).`, kind: "input" });
            else deliver({ error: `The lab server answered ${response.status} ${response.statusText}${detail ? `: ${detail}` : "."}`, kind: "server" });
          })
          .catch((failure) => {
            if (failure && failure.name === "AbortError") return;
            if (ticket !== latest) return;
            if (inflight === controller) inflight = null;
            deliver({ error: `No answer from the lab server (${failure && failure.message ? failure.message : failure}). Is perceptronlab serve still running?`, kind: "network" });
          });
      };
      attempt(0);
    },
  };
}

/** A coordinate as Python's widget sends it (a number, or exact text such as "1/2" or "0.1"). */
function modelNumber(value) {
  if (typeof value === "string" && value.includes("/")) {
    const [numerator, denominator] = value.split("/");
    return Number(numerator) / Number(denominator);
  }
  return Number(value);
}

/** Options equal once the page's defaults are filled in (Python may hold only what it set). */
function sameModelOptions(a, b) {
  const full = (options) => {
    const merged = { ...DEFAULT_OPTIONS, ...(options || {}) };
    if (!merged.sequence || !merged.sequence.length) delete merged.sequence;
    return JSON.stringify(Object.keys(merged).sort().map((key) => [key, merged[key]]));
  };
  return full(a) === full(b);
}

/**
 * Compute through the anywidget model. The page sets points/labels/options and a new request_id;
 * the Python side computes and answers by setting result/error and answered_id = request_id.
 */
function modelBackend(model) {
  let deliverTo = null;
  let waitingFor = null;
  // true while submit() sets the model: each model.set fires its change event at once, and the
  // widget must not take a half-written request (new points, old labels) for a change from Python
  let writing = false;
  // true while the page takes in a change made in Python: it shows Python's answer and writes
  // nothing back (points and labels may come in separate messages; the next one is on its way)
  let adopting = false;
  const current = () => {
    const error = model.get("error");
    if (error) return { error, kind: "input" };
    const result = model.get("result");
    return result && result.run ? { result } : null;
  };
  model.on("change:answered_id", () => {
    if (!deliverTo || model.get("answered_id") !== waitingFor) return;
    const answer = current();
    if (answer) deliverTo(answer);
  });
  return {
    submit(payload, deliver) {
      deliverTo = deliver;
      if (adopting) {
        const answer = current();
        if (answer) deliver(answer);
        return;
      }
      // Python's exact coordinates ("1/2") stay as Python wrote them unless the page moved the point
      const before = model.get("points") || [];
      const exact = new Map(before.map((p) => [p.map(modelNumber).join(","), p]));
      const points = payload.points.map((p) => exact.get(p.join(",")) || p);
      const unchanged = JSON.stringify(before) === JSON.stringify(points)
        && JSON.stringify(model.get("labels")) === JSON.stringify(payload.labels)
        && sameModelOptions(model.get("options"), payload.options);
      const answer = current();
      if (unchanged && answer) { deliver(answer); return; }
      waitingFor = (model.get("request_id") || 0) + 1;
      writing = true;
      try {
        model.set("points", points);
        model.set("labels", payload.labels);
        model.set("options", payload.options);
        model.set("request_id", waitingFor);
      } finally {
        writing = false;
      }
      model.save_changes();
    },
    get writing() { return writing; },
    adopt(change) {
      adopting = true;
      try { change(); } finally { adopting = false; }
    },
  };
}

// ------------------------------------------------------------------ the lab

/**
 * Build the lab inside `root`.
 *
 * @param {HTMLElement} root
 * @param {{backend: {submit: Function}, useHash?: boolean, initial?: object}} config
 */
export function createLab(root, config) {
  const backend = config.backend;
  const useHash = config.useHash !== false;
  const fromHash = useHash ? decodeHash(window.location.hash) : null;
  const initial = fromHash || config.initial || null;
  const state = {
    points: initial ? initial.points : examTask(),
    options: initial ? { ...DEFAULT_OPTIONS, ...initial.options } : { ...DEFAULT_OPTIONS },
    sequence: initial && initial.sequence ? initial.sequence : [],
    snap: initial && initial.snap ? initial.snap : "1",
    showMargin: initial ? initial.showMargin !== false : true,
    hidden: initial && initial.hidden ? new Set(initial.hidden) : new Set(),
    preset: initial ? "custom" : "exam",
    newLabel: 1,
  };
  const touch = typeof window !== "undefined" && ((navigator.maxTouchPoints || 0) > 0
    || (window.matchMedia && window.matchMedia("(pointer: coarse)").matches));
  let result = null;
  let error = "";
  let errorKind = "";
  let pending = "";
  let step = 0;
  let pendingStep = initial && initial.step ? initial.step : null;
  let followEnd = false;
  let playing = false;
  let speed = 4;
  let lastFrame = 0;
  let carry = 0;
  let extent = 4;
  let waiting = false;

  // ---------------------------------------------------------------- DOM
  root.classList.add("plab");
  root.replaceChildren();

  const canvas = h("canvas", { class: "plab-plane", "data-testid": "plane", "aria-label": "The plane: click to add a point" });
  const hint = h("div", { class: "plab-hint", "data-testid": "hint" });
  const status = h("div", { class: "plab-status", "data-testid": "status", "aria-live": "polite" });
  const errorText = h("span", { class: "plab-error-text" });
  const retryBtn = h("button", { type: "button", class: "plab-btn plab-btn-small", "data-testid": "retry", hidden: true, onclick: () => request() }, "Retry");
  const errorBox = h("div", { class: "plab-error", "data-testid": "error", role: "alert", hidden: true }, errorText, retryBtn);
  const note = h("div", { class: "plab-note", "data-testid": "note", hidden: true });

  const btn = (icon, label, testid, title, onclick) => {
    const node = h("button", { type: "button", class: "plab-btn", "data-testid": testid, title, onclick });
    setButton(node, icon, label);
    return node;
  };
  const resetBtn = btn("reset", "Reset", "btn-reset", "Back to w = 0 (Home)", () => { stop(); setStep(0); });
  const stepBtn = btn("step", "Step", "btn-step", "Check one example (→)", () => { stop(); setStep(step + 1); });
  const sweepBtn = btn("sweep", "Sweep", "btn-sweep", "Finish the current sweep (Shift+→)", () => { stop(); setStep(endOfSweep(step)); });
  const runBtn = btn("run", "Run", "btn-run", "Run to the end (End)", () => { stop(); setStep(total()); });
  const playBtn = btn("play", "Play", "btn-play", "Play / pause (Space)", () => (playing ? stop() : play()));
  const speedInput = h("input", { type: "range", min: "1", max: "60", value: String(speed), class: "plab-speed", "data-testid": "speed", "aria-label": "Speed in steps per second" });
  const speedLabel = h("span", { class: "plab-speed-label" });
  speedInput.addEventListener("input", () => { speed = Number(speedInput.value); renderSpeed(); });
  const scrubber = h("input", { type: "range", min: "0", max: "0", value: "0", class: "plab-scrubber", "data-testid": "scrubber", "aria-label": "Step" });
  scrubber.addEventListener("input", () => { stop(); setStep(Number(scrubber.value)); });
  const stepLabel = h("span", { class: "plab-steplabel", "data-testid": "step-label" });

  const transport = h("div", { class: "plab-transport" }, resetBtn, stepBtn, sweepBtn, runBtn, playBtn);
  const scrubRow = h("div", { class: "plab-scrubrow" }, scrubber, stepLabel,
    h("label", { class: "plab-speedbox", title: "Play speed" }, speedInput, speedLabel));
  const swatch = (cls, text) => h("span", { class: "plab-key" }, h("i", { class: cls }), text);
  const legend = h("div", { class: "plab-legend", "data-testid": "legend" },
    swatch("plab-k-plus", "+1"), swatch("plab-k-minus", "−1"), swatch("plab-k-wrong", "misclassified"),
    swatch("plab-k-current", "current example"), swatch("plab-k-cert", "certificate"),
    swatch("plab-k-line", "⟨w,x⟩ + b = 0"), swatch("plab-k-update", "update η·y·x"), swatch("plab-k-mm", "max margin"));
  const pocketKey = swatch("plab-k-pocket", "the pocket's w (at the end)");
  pocketKey.dataset.testid = "legend-pocket";
  legend.append(pocketKey);

  // adding points: the label of new points (a tap cannot shift-click), and x, y from the keyboard
  const labelButtons = [1, -1].map((label) => {
    const node = h("button", { type: "button", role: "radio", class: "plab-seg", "data-label": String(label), "aria-label": `new points labelled ${label > 0 ? "+1" : "−1"}` }, label > 0 ? "+1" : "−1");
    node.addEventListener("click", () => { state.newLabel = label; syncControls(); });
    return node;
  });
  const labelChoice = h("div", { class: "plab-labelchoice", role: "radiogroup", "aria-label": "Label of new points", "data-testid": "label-choice" }, labelButtons);
  const addX = h("input", { type: "text", inputmode: "decimal", size: "5", placeholder: "x", "aria-label": "x of a new point", "data-testid": "add-x" });
  const addY = h("input", { type: "text", inputmode: "decimal", size: "5", placeholder: "y", "aria-label": "y of a new point", "data-testid": "add-y" });
  const addMessage = h("span", { class: "plab-addmessage", "data-testid": "add-message", "aria-live": "polite" });
  const addForm = h("form", { class: "plab-addrow", "data-ctl": "edit", "aria-label": "Add a point" },
    h("span", { class: "plab-addlabel" }, "New point"), labelChoice, addX, addY,
    h("button", { type: "submit", class: "plab-btn plab-btn-small", "data-testid": "add-point" }, "Add"), addMessage);
  addForm.addEventListener("submit", (event) => { event.preventDefault(); addTyped(); });

  // cards
  const card = (testid, title) => {
    const value = h("div", { class: "plab-card-value" });
    const detail = h("div", { class: "plab-card-detail" });
    const remedy = h("div", { class: "plab-card-remedy", hidden: true });
    const node = h("div", { class: "plab-card", "data-testid": testid }, h("div", { class: "plab-card-title" }, title), value, detail, remedy);
    return { node, value, detail, remedy };
  };
  const cards = {
    R: card("card-R", "Radius R"),
    rho: card("card-rho", "Best margin ρ*"),
    bound: card("card-bound", "Bound R²/ρ*²"),
    mistakes: card("card-mistakes", "Mistakes"),
    separable: card("card-separable", "Separable"),
  };
  const cardRow = h("div", { class: "plab-cards", "data-ctl": "cards" }, Object.values(cards).map((c) => c.node));
  cards.separable.remedy.append(
    h("button", { type: "button", class: "plab-link", "data-testid": "remedy-pocket", onclick: () => setOption("pocket", true) }, "Switch on pocket"),
    ": it keeps the best weights seen.");

  // options
  const presetSelect = h("select", { "data-testid": "preset", "aria-label": "Preset" },
    h("option", { value: "custom" }, "Your points"),
    Object.entries(PRESETS).map(([key, p]) => h("option", { value: key }, p.name)));
  presetSelect.addEventListener("change", () => loadPreset(presetSelect.value));
  const orderSelect = h("select", { "data-testid": "order", "aria-label": "Order" },
    h("option", { value: "cyclic" }, "cyclic (x₁, x₂, …)"),
    h("option", { value: "shuffle" }, "shuffle every sweep"),
    h("option", { value: "random-mistake" }, "random mistake"),
    h("option", { value: "pick" }, "I pick the next point"));
  orderSelect.addEventListener("change", () => setOption("order", orderSelect.value));
  const biasBox = h("input", { type: "checkbox", "data-testid": "bias" });
  biasBox.addEventListener("change", () => setOption("fit_intercept", biasBox.checked));
  const etaInput = h("input", { type: "text", inputmode: "decimal", size: "5", "data-testid": "eta", "aria-label": "η" });
  etaInput.addEventListener("change", () => setOption("eta", etaInput.value.trim()));
  const rhoInput = h("input", { type: "text", inputmode: "decimal", size: "5", "data-testid": "rho0", "aria-label": "ρ₀" });
  rhoInput.addEventListener("change", () => setOption("margin", rhoInput.value.trim()));
  const pocketBox = h("input", { type: "checkbox", "data-testid": "pocket" });
  pocketBox.addEventListener("change", () => setOption("pocket", pocketBox.checked));
  const snapSelect = h("select", { "data-testid": "snap", "aria-label": "Snap to grid" },
    h("option", { value: "1" }, "integers"), h("option", { value: "0.5" }, "halves"), h("option", { value: "0" }, "off"));
  snapSelect.addEventListener("change", () => { state.snap = snapSelect.value; writeHash(); });
  const marginBox = h("input", { type: "checkbox", "data-testid": "show-margin" });
  marginBox.addEventListener("change", () => { state.showMargin = marginBox.checked; writeHash(); render(); });
  const sweepsInput = h("input", { type: "number", min: "1", max: "1000", "data-testid": "max-sweeps", "aria-label": "max sweeps" });
  sweepsInput.addEventListener("change", () => setOption("max_sweeps", Number(sweepsInput.value)));
  const seedInput = h("input", { type: "number", min: "0", "data-testid": "seed", "aria-label": "seed" });
  seedInput.addEventListener("change", () => setOption("seed", Number(seedInput.value)));
  const arithSelect = h("select", { "data-testid": "arithmetic", "aria-label": "arithmetic" },
    h("option", { value: "auto" }, "auto"), h("option", { value: "exact" }, "exact"), h("option", { value: "float" }, "float"));
  arithSelect.addEventListener("change", () => setOption("arithmetic", arithSelect.value));
  const clearPick = h("button", { type: "button", class: "plab-link", "data-testid": "clear-order", onclick: () => { state.sequence = []; changed(); } }, "clear");
  const pickInfo = h("div", { class: "plab-pickinfo", "data-testid": "pick-info" });

  const field = (ctl, label, control, extra) => h("label", { class: "plab-field", "data-ctl": ctl }, h("span", {}, label), control, extra);
  const optionsPanel = h("div", { class: "plab-panel plab-options" },
    h("div", { class: "plab-panel-title" }, "Setup"),
    h("div", { class: "plab-grid" },
      field("preset", "Preset", presetSelect),
      field("order", "Order", orderSelect),
      field("eta", "η", etaInput),
      field("rho0", "ρ₀ (margin)", rhoInput),
      field("snap", "Snap", snapSelect),
      field("settings", "Max sweeps", sweepsInput),
      field("settings", "Seed", seedInput),
      field("settings", "Arithmetic", arithSelect),
      h("label", { class: "plab-check", "data-ctl": "bias" }, biasBox, "bias (x₀ = 1)"),
      h("label", { class: "plab-check", "data-ctl": "pocket" }, pocketBox, "pocket"),
      h("label", { class: "plab-check", "data-ctl": "maxmargin" }, marginBox, "max-margin band")),
    h("div", { class: "plab-pick", "data-ctl": "order" }, pickInfo, clearPick));

  // log
  const logBody = h("tbody");
  const logTable = h("table", { class: "plab-log", "data-testid": "log-table" },
    h("thead", {}, h("tr", {}, ["sweep", "point", "y⟨w,x⟩", "mistake?", "w after"].map((t) => h("th", {}, t)))), logBody);
  const downloadBtn = h("button", { type: "button", class: "plab-btn plab-btn-small", "data-testid": "download-csv", onclick: downloadCsv }, "Download CSV");
  const logScroll = h("div", { class: "plab-logscroll" }, logTable);
  const logPanel = h("div", { class: "plab-panel", "data-ctl": "log" },
    h("div", { class: "plab-panel-title" }, "Worksheet", downloadBtn), logScroll);

  // plots
  const squeezeCanvas = h("canvas", { class: "plab-plot", "data-testid": "plot-squeeze" });
  const errorsCanvas = h("canvas", { class: "plab-plot", "data-testid": "plot-errors" });
  const errorsCaption = h("figcaption", { "data-testid": "errors-caption" }, "Training errors after each sweep");
  const plotsPanel = h("div", { class: "plab-panel plab-plots", "data-ctl": "plots" },
    h("figure", {}, h("figcaption", {}, "Squeeze: ‖w_k‖ between kηρ* and √k·ηR"), squeezeCanvas),
    h("figure", {}, errorsCaption, errorsCanvas));

  // share
  const shareBoxes = Object.entries(HIDEABLE).map(([key, label]) => {
    const box = h("input", { type: "checkbox", value: key });
    box.addEventListener("change", renderShare);
    return h("label", { class: "plab-check" }, box, label);
  });
  const shareLink = h("input", { type: "text", readonly: true, class: "plab-sharelink", "data-testid": "share-link", "aria-label": "Classroom link" });
  const copyBtn = h("button", { type: "button", class: "plab-btn plab-btn-small", onclick: () => { shareLink.select(); navigator.clipboard?.writeText(shareLink.value).catch(() => {}); } }, "Copy");
  const sharePanel = h("details", { class: "plab-panel plab-share", "data-ctl": "share" },
    h("summary", {}, "Classroom link: hide controls"), h("div", { class: "plab-sharegrid" }, shareBoxes),
    h("div", { class: "plab-sharerow" }, shareLink, copyBtn));
  if (!useHash) sharePanel.hidden = true;

  const left = h("div", { class: "plab-left" }, h("div", { class: "plab-planebox" }, canvas), legend, addForm, hint, transport, scrubRow, status, note);
  const right = h("div", { class: "plab-right" }, errorBox, cardRow, optionsPanel, logPanel, plotsPanel, sharePanel);
  root.append(h("div", { class: "plab-main" }, left, right));

  // ---------------------------------------------------------------- requests

  function payload() {
    const options = { ...state.options };
    options.sequence = options.order === "pick" ? state.sequence.filter((i) => i < state.points.length) : [];
    return { points: state.points.map((p) => [p.x, p.y]), labels: state.points.map((p) => p.label), options };
  }

  function request() {
    if (!state.points.length) {
      result = null;
      error = "";
      step = 0;
      root.dataset.ready = "1";
      render();
      return;
    }
    waiting = true;
    root.classList.add("plab-busy");
    root.dataset.ready = "0";
    backend.submit(payload(), receive);
  }

  function receive(answer) {
    if (answer.pending) {  // the server is busy: the back end asks again by itself
      pending = answer.pending;
      renderStatus();
      return;
    }
    pending = "";
    waiting = false;
    root.classList.remove("plab-busy");
    root.dataset.ready = "1";
    root.dataset.answers = String(Number(root.dataset.answers || 0) + 1);
    if (answer.error) {
      error = answer.error;
      errorKind = answer.kind || "input";
      result = null;
      step = 0;
      stop();
    } else {
      const wasAtEnd = followEnd;
      error = "";
      errorKind = "";
      result = answer.result;
      if (pendingStep !== null) { step = Math.min(pendingStep, total()); pendingStep = null; }
      else if (wasAtEnd) step = total();
      else step = Math.min(step, total());
    }
    render();
  }

  function changed() {
    followEnd = result !== null && step === total() && step > 0;
    if (!followEnd) step = 0;
    writeHash();
    syncControls();
    request();
  }

  function setOption(key, value) {
    state.options = { ...state.options, [key]: value };
    changed();
  }

  function matchPreset() {
    // A hash or a widget with a preset's points shows that preset's name.
    const key = ["exam", "margin", "nonsep", "worst"].find((name) => {
      const points = PRESETS[name].points();
      return points.length === state.points.length
        && points.every((p, i) => p.x === state.points[i].x && p.y === state.points[i].y && p.label === state.points[i].label);
    });
    return key || (state.points.length ? "custom" : "empty");
  }

  function loadPreset(key) {
    if (!(key in PRESETS)) return;
    state.preset = key;
    state.points = PRESETS[key].points();
    state.sequence = [];
    followEnd = false;
    stop();
    step = 0;
    extent = viewExtent();
    writeHash();
    syncControls();
    request();
  }

  // ---------------------------------------------------------------- the cursor

  function total() {
    if (!result) return 0;
    const count = result.run.steps.count;
    return count + (result.run.complete ? 0 : 1);
  }

  function traced() {
    return result ? result.run.steps.count : 0;
  }

  function setStep(value) {
    step = Math.max(0, Math.min(total(), Math.round(value)));
    followEnd = false;
    writeHashSoon();
    render();
  }

  function endOfSweep(from) {
    if (!result) return 0;
    const sweeps = result.run.steps.sweep;
    if (from >= traced()) return total();
    const current = sweeps[from];
    let k = from;
    while (k < sweeps.length && sweeps[k] === current) k += 1;
    return k;
  }

  function play() {
    if (!result || step >= total()) setStep(0);
    if (!result || !total()) return;
    playing = true;
    lastFrame = 0;
    carry = 0;
    setButton(playBtn, "pause", "Pause");
    playBtn.classList.add("plab-on");
    requestAnimationFrame(frame);
  }

  function stop() {
    playing = false;
    setButton(playBtn, "play", "Play");
    playBtn.classList.remove("plab-on");
  }

  function frame(now) {
    if (!playing) return;
    if (lastFrame) carry += ((now - lastFrame) / 1000) * speed;
    lastFrame = now;
    if (carry >= 1) {
      const advance = Math.floor(carry);
      carry -= advance;
      step = Math.min(total(), step + advance);
      render();
      if (step >= total()) { stop(); writeHash(); return; }
    }
    requestAnimationFrame(frame);
  }

  // ---------------------------------------------------------------- URL hash

  let hashTimer = null;
  function writeHash() {
    if (!useHash) return;
    clearTimeout(hashTimer);
    const text = "#" + encodeHash(state, step);
    if (window.location.hash !== text) history.replaceState(null, "", text);
    renderShare();
  }
  // A link pasted into the same tab only changes the hash: load its state.
  // (replaceState, which the page itself uses, fires no hashchange.)
  if (useHash) {
    window.addEventListener("hashchange", () => {
      const incoming = decodeHash(window.location.hash);
      if (!incoming) return;
      stop();
      state.points = incoming.points;
      state.options = { ...DEFAULT_OPTIONS, ...incoming.options };
      state.sequence = incoming.sequence;
      state.snap = incoming.snap;
      state.showMargin = incoming.showMargin;
      state.hidden = incoming.hidden;
      state.preset = matchPreset();
      pendingStep = incoming.step;
      followEnd = false;
      step = 0;
      extent = viewExtent();
      syncControls();
      request();
    });
  }

  function writeHashSoon() {
    if (!useHash) return;
    clearTimeout(hashTimer);
    hashTimer = setTimeout(writeHash, 150);
  }

  function renderShare() {
    if (!useHash) return;
    const hide = shareBoxes.map((label) => label.querySelector("input")).filter((b) => b.checked).map((b) => b.value);
    const shared = { ...state, hidden: new Set(hide) };
    const base = window.location.href.split("#")[0];
    shareLink.value = `${base}#${encodeHash(shared, 0)}`;
  }

  // ---------------------------------------------------------------- plane geometry

  function viewExtent() {
    let biggest = 0;
    for (const p of state.points) biggest = Math.max(biggest, Math.abs(p.x), Math.abs(p.y));
    return Math.max(4, Math.ceil(biggest * 1.15 + 0.5));
  }

  // CSS sizes of the canvases, read when they resize (not every frame: a read forces layout).
  const sizes = new Map();
  function cssWidth(target, fallback) {
    if (!sizes.has(target)) sizes.set(target, target.clientWidth || fallback);
    return sizes.get(target) || fallback;
  }

  function planeSize() {
    return cssWidth(canvas, 520);
  }

  function toPixel(x, y) {
    const size = planeSize();
    const scale = size / (2 * extent);
    return [size / 2 + x * scale, size / 2 - y * scale];
  }

  function toWorld(px, py) {
    const size = planeSize();
    const scale = size / (2 * extent);
    return [(px - size / 2) / scale, (size / 2 - py) / scale];
  }

  function snap(value) {
    if (state.snap === "1") return Math.round(value);
    if (state.snap === "0.5") return Math.round(value * 2) / 2;
    return Math.round(value * 100) / 100;
  }

  function hit(px, py, reach = 10) {
    let best = -1, bestDistance = reach;
    state.points.forEach((p, i) => {
      const [qx, qy] = toPixel(p.x, p.y);
      const distance = Math.hypot(qx - px, qy - py);
      if (distance < bestDistance) { best = i; bestDistance = distance; }
    });
    return best;
  }

  function eventPixel(event) {
    const rect = canvas.getBoundingClientRect();
    return [event.clientX - rect.left, event.clientY - rect.top];
  }

  function editable() {
    return !state.hidden.has("edit");
  }

  function addPoint(point) {
    // A new point, unless one is already there; returns the message for the keyboard form.
    const at = state.points.findIndex((p) => p.x === point.x && p.y === point.y);
    if (at >= 0) return `x${at + 1} is already at (${point.x}, ${point.y}).`;
    state.points.push(point);
    markCustom();
    changed();
    return `Added x${state.points.length} = (${point.x}, ${point.y}), label ${point.label > 0 ? "+1" : "−1"}.`;
  }

  function deletePoint(index) {
    state.points.splice(index, 1);
    state.sequence = state.sequence.filter((i) => i !== index).map((i) => (i > index ? i - 1 : i));
    markCustom();
    changed();
  }

  function readNumber(text) {
    // "1.5", "-2", "1/2": the number the page stores (a fraction becomes its decimal value)
    const value = String(text).trim();
    const parts = value.split("/");
    if (parts.length === 2 && parts.every((t) => /^\s*-?\d+(\.\d+)?\s*$/.test(t)) && Number(parts[1]) !== 0) {
      return Number(parts[0]) / Number(parts[1]);
    }
    return value !== "" && Number.isFinite(Number(value)) ? Number(value) : null;
  }

  function addTyped() {
    if (!editable()) return;
    const x = readNumber(addX.value), y = readNumber(addY.value);
    if (x === null || y === null) {
      addMessage.textContent = `${x === null ? "x" : "y"}: type a number such as 1, -0.5 or 1/2.`;
      (x === null ? addX : addY).focus();
      return;
    }
    addMessage.textContent = addPoint({ x, y, label: state.newLabel });
    addX.value = "";
    addY.value = "";
    addX.focus();
  }

  // Pointer input: a click (or tap) adds a point with the chosen label (shift: the other one) or
  // flips the label of the point under it; a right-click or a long press deletes that point.
  const LONG_PRESS_MS = 550;
  let press = null;
  let swallowClick = false;

  function reach(pointerType) {
    return pointerType === "touch" || pointerType === "pen" || touch ? 18 : 10;
  }

  function cancelPress() {
    if (press) clearTimeout(press.timer);
    press = null;
  }

  canvas.addEventListener("pointerdown", (event) => {
    swallowClick = false;
    cancelPress();
    if (!editable() || event.button !== 0) return;
    const [px, py] = eventPixel(event);
    const index = hit(px, py, reach(event.pointerType));
    if (index < 0) return;
    press = { id: event.pointerId, px, py, index, timer: setTimeout(() => {
      const target = press;
      press = null;
      swallowClick = true;  // the release after a long press is not a click
      if (target && state.points[target.index]) deletePoint(target.index);
    }, LONG_PRESS_MS) };
  });
  canvas.addEventListener("pointermove", (event) => {
    if (!press || event.pointerId !== press.id) return;
    const [px, py] = eventPixel(event);
    if (Math.hypot(px - press.px, py - press.py) > 10) cancelPress();
  });
  for (const type of ["pointerup", "pointercancel", "pointerleave"]) canvas.addEventListener(type, cancelPress);

  canvas.addEventListener("click", (event) => {
    if (swallowClick) { swallowClick = false; return; }
    if (!editable()) return;
    const [px, py] = eventPixel(event);
    const index = hit(px, py, reach(event.pointerType));
    if (index >= 0) {
      if (state.options.order === "pick") {
        const at = state.sequence.indexOf(index);
        if (at >= 0) state.sequence.splice(at, 1); else state.sequence.push(index);
      } else {
        state.points[index] = { ...state.points[index], label: -state.points[index].label };
      }
      markCustom();
      changed();
      return;
    }
    const [x, y] = toWorld(px, py);
    addPoint({ x: snap(x), y: snap(y), label: event.shiftKey ? -state.newLabel : state.newLabel });
  });

  canvas.addEventListener("contextmenu", (event) => {
    // a right-click; on some touch screens also the long press itself (then it deletes once)
    event.preventDefault();
    if (!editable() || swallowClick) return;
    const [px, py] = eventPixel(event);
    const index = press ? press.index : hit(px, py, reach(event.pointerType));
    const fromPress = press !== null;
    cancelPress();
    if (index < 0) return;
    if (fromPress) swallowClick = true;
    deletePoint(index);
  });

  function markCustom() {
    state.preset = "custom";
    const grown = viewExtent();
    if (grown > extent) extent = grown;
  }

  root.tabIndex = 0;
  root.addEventListener("keydown", (event) => {
    const target = event.target;
    if (target instanceof HTMLInputElement || target instanceof HTMLSelectElement
      || target instanceof HTMLTextAreaElement || (target instanceof HTMLButtonElement && (event.key === " " || event.key === "Enter"))
      || event.altKey || event.ctrlKey || event.metaKey) return;
    if (event.key === "ArrowRight") { stop(); setStep(event.shiftKey ? endOfSweep(step) : step + 1); }
    else if (event.key === "ArrowLeft") { stop(); setStep(step - 1); }
    else if (event.key === "Home") { stop(); setStep(0); }
    else if (event.key === "End") { stop(); setStep(total()); }
    else if (event.key === " ") { playing ? stop() : play(); }
    else return;
    event.preventDefault();
    event.stopPropagation();  // in Jupyter, keep the notebook's own shortcuts out of it
  });

  // ---------------------------------------------------------------- what the cursor shows

  function view() {
    // The weights after `step` steps, the example just checked and the update it made.
    if (!result) return null;
    const run = result.run;
    const s = run.steps;
    const weights = run.weights;
    if (step > s.count) {
      // the end of a run traced only in part: the whole run's final weights
      return { k: weights.w.length - 1, w: run.w, b: run.b, text: run.w_text, wrong: null, current: -1, previous: null, final: true };
    }
    const k = step === 0 ? 0 : s.updates[step - 1];
    const current = step === 0 ? -1 : s.index[step - 1];
    const mistake = step > 0 && s.mistake[step - 1];
    return {
      k, w: weights.w[k], b: weights.b[k], text: weights.text[k], wrong: weights.wrong[k], current,
      mistake, score: step > 0 ? s.score_text[step - 1] : null,
      previous: mistake ? { w: weights.w[k - 1], b: weights.b[k - 1] } : null,
      final: step === total(),
    };
  }

  // ---------------------------------------------------------------- drawing the plane

  function setupCanvas(target, cssWidth, cssHeight) {
    const ratio = window.devicePixelRatio || 1;
    const width = Math.round(cssWidth * ratio), height = Math.round(cssHeight * ratio);
    if (target.width !== width || target.height !== height) { target.width = width; target.height = height; }
    const ctx = target.getContext("2d");
    ctx.setTransform(ratio, 0, 0, ratio, 0, 0);
    ctx.clearRect(0, 0, cssWidth, cssHeight);
    return ctx;
  }

  function clipLine(a, b, c) {
    // The segment of a·x + b·y + c = 0 inside the view square, in world coordinates.
    const e = extent, hits = [];
    if (Math.abs(b) > 1e-12) for (const x of [-e, e]) { const y = -(a * x + c) / b; if (y >= -e - 1e-9 && y <= e + 1e-9) hits.push([x, y]); }
    if (Math.abs(a) > 1e-12) for (const y of [-e, e]) { const x = -(b * y + c) / a; if (x >= -e - 1e-9 && x <= e + 1e-9) hits.push([x, y]); }
    if (hits.length < 2) return null;
    let best = [hits[0], hits[1]], far = -1;
    for (let i = 0; i < hits.length; i++) for (let j = i + 1; j < hits.length; j++) {
      const d = Math.hypot(hits[i][0] - hits[j][0], hits[i][1] - hits[j][1]);
      if (d > far) { far = d; best = [hits[i], hits[j]]; }
    }
    return far > 1e-9 ? best : null;
  }

  function halfPlane(a, b, c, sign) {
    // The part of the view square where sign·(a·x + b·y + c) > 0 (Sutherland–Hodgman on 4 corners).
    const e = extent;
    const square = [[-e, -e], [e, -e], [e, e], [-e, e]];
    const value = ([x, y]) => sign * (a * x + b * y + c);
    const out = [];
    for (let i = 0; i < 4; i++) {
      const p = square[i], q = square[(i + 1) % 4];
      const vp = value(p), vq = value(q);
      if (vp >= 0) out.push(p);
      if ((vp >= 0) !== (vq >= 0)) {
        const t = vp / (vp - vq);
        out.push([p[0] + t * (q[0] - p[0]), p[1] + t * (q[1] - p[1])]);
      }
    }
    return out;
  }

  function fillPolygon(ctx, polygon, color) {
    if (polygon.length < 3) return;
    ctx.beginPath();
    polygon.forEach(([x, y], i) => { const [px, py] = toPixel(x, y); if (i) ctx.lineTo(px, py); else ctx.moveTo(px, py); });
    ctx.closePath();
    ctx.fillStyle = color;
    ctx.fill();
  }

  function strokeLine(ctx, a, b, c, color, width, dash = []) {
    const segment = clipLine(a, b, c);
    if (!segment) return null;
    const [p, q] = segment.map(([x, y]) => toPixel(x, y));
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

  function arrow(ctx, from, to, color, width, label, dash = [], labelAt = 1) {
    const [x0, y0] = toPixel(from[0], from[1]);
    const [x1, y1] = toPixel(to[0], to[1]);
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
      const size = planeSize();
      const lx = Math.min(size - wide, Math.max(wide, ax + uy * 14 + (labelAt === 1 ? ux * wide : 0)));
      const ly = Math.min(size - 10, Math.max(10, ay - ux * 14 + (labelAt === 1 ? uy * 12 : 0)));
      ctx.fillText(label, lx, ly);
    }
    ctx.restore();
  }

  function drawGrid(ctx, size) {
    ctx.fillStyle = "#ffffff";
    ctx.fillRect(0, 0, size, size);
    const scale = size / (2 * extent);
    const every = scale < 14 ? (scale < 6 ? 5 : 2) : 1;
    ctx.lineWidth = 1;
    if (state.snap === "0.5" && scale > 24) {
      ctx.strokeStyle = "#f1f5f9";
      ctx.beginPath();
      for (let v = -extent + 0.5; v < extent; v += 1) {
        const [px] = toPixel(v, 0); const [, py] = toPixel(0, v);
        ctx.moveTo(px, 0); ctx.lineTo(px, size); ctx.moveTo(0, py); ctx.lineTo(size, py);
      }
      ctx.stroke();
    }
    ctx.strokeStyle = "#e2e8f0";
    ctx.beginPath();
    for (let v = -extent; v <= extent; v += 1) {
      if (v % every) continue;
      const [px] = toPixel(v, 0); const [, py] = toPixel(0, v);
      ctx.moveTo(Math.round(px) + 0.5, 0); ctx.lineTo(Math.round(px) + 0.5, size);
      ctx.moveTo(0, Math.round(py) + 0.5); ctx.lineTo(size, Math.round(py) + 0.5);
    }
    ctx.stroke();
    ctx.strokeStyle = "#94a3b8";
    ctx.beginPath();
    const [ox, oy] = toPixel(0, 0);
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
      const [px] = toPixel(v, 0); const [, py] = toPixel(0, v);
      ctx.fillText(String(v), px, oy + 4);
      ctx.textAlign = "right";
      ctx.textBaseline = "middle";
      ctx.fillText(String(v), ox - 5, py);
      ctx.textAlign = "center";
      ctx.textBaseline = "top";
    }
  }

  function drawPlane() {
    const size = planeSize();
    const ctx = setupCanvas(canvas, size, size);
    canvas.dataset.extent = String(extent);
    drawGrid(ctx, size);
    const v = view();
    const mm = result && result.max_margin;
    const certificate = new Set(result && !result.cards.separable.separable ? result.cards.separable.certificate : []);

    if (v) {
      const [a, b] = v.w, c = v.b;
      if (a !== 0 || b !== 0 || c !== 0) {
        fillPolygon(ctx, halfPlane(a, b, c, 1), "rgba(37, 99, 235, 0.07)");
        fillPolygon(ctx, halfPlane(a, b, c, -1), "rgba(234, 88, 12, 0.07)");
      }
    }
    if (mm && state.showMargin) {
      const [a, b] = mm.w, c = mm.b;
      fillPolygon(ctx, intersectBand(a, b, c, mm.band), "rgba(124, 58, 237, 0.08)");
      strokeLine(ctx, a, b, c - mm.band, "rgba(124, 58, 237, 0.55)", 1, [3, 4]);
      strokeLine(ctx, a, b, c + mm.band, "rgba(124, 58, 237, 0.55)", 1, [3, 4]);
      strokeLine(ctx, a, b, c, MARGIN, 1.5, [8, 5]);
    }
    if (v && (v.w[0] !== 0 || v.w[1] !== 0)) {
      strokeLine(ctx, v.w[0], v.w[1], v.b, INK, 2.2);
    }
    if (result && result.run.algorithm === "pocket" && v && v.final) {
      strokeLine(ctx, result.run.w[0], result.run.w[1], result.run.b, "#0891b2", 2, [10, 4]);
    }

    // points
    const wrong = v && v.wrong ? new Set(v.wrong) : new Set();
    const radius = state.points.length > 400 ? 3 : state.points.length > 80 ? 4.5 : 7;
    const labels = state.points.length <= 30;
    state.points.forEach((p, i) => {
      const [px, py] = toPixel(p.x, p.y);
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
        const [px, py] = toPixel(p.x, p.y);
        ctx.beginPath(); ctx.arc(px - radius - 7, py + radius + 7, 8, 0, 2 * Math.PI);
        ctx.fillStyle = INK; ctx.fill();
        ctx.fillStyle = "#fff"; ctx.font = "600 10px system-ui, sans-serif"; ctx.textAlign = "center"; ctx.textBaseline = "middle";
        ctx.fillText(String(position + 1), px - radius - 7, py + radius + 7);
      });
    }

    // w and the update y·x, tip to tail
    if (v) {
      const vectors = [v.w, v.previous ? v.previous.w : [0, 0]];
      const longest = Math.max(...vectors.map((w) => Math.hypot(w[0], w[1])));
      const room = extent * 0.92;
      const scale = longest > room ? room / longest : 1;
      const s = (w) => [w[0] * scale, w[1] * scale];
      const tag = scale < 1 ? ` (×${scale.toPrecision(2)})` : "";
      if (v.previous) {
        arrow(ctx, [0, 0], s(v.previous.w), "#94a3b8", 1.8, "", [5, 4]);
        arrow(ctx, s(v.previous.w), s(v.w), UPDATE, 2.4, "η·y·x", [], 0.5);
      }
      if (v.w[0] !== 0 || v.w[1] !== 0) arrow(ctx, [0, 0], s(v.w), INK, 2.6, "w" + tag);
    }
    ctx.strokeStyle = "#cbd5e1";
    ctx.lineWidth = 1;
    ctx.strokeRect(0.5, 0.5, size - 1, size - 1);
  }

  function intersectBand(a, b, c, band) {
    // The strip |a·x + b·y + c| < band inside the view square.
    const e = extent;
    let polygon = [[-e, -e], [e, -e], [e, e], [-e, e]];
    for (const [sign, offset] of [[1, band], [-1, band]]) {
      const next = [];
      const value = ([x, y]) => sign * (a * x + b * y + c) + offset;
      for (let i = 0; i < polygon.length; i++) {
        const p = polygon[i], q = polygon[(i + 1) % polygon.length];
        const vp = value(p), vq = value(q);
        if (vp >= 0) next.push(p);
        if ((vp >= 0) !== (vq >= 0)) { const t = vp / (vp - vq); next.push([p[0] + t * (q[0] - p[0]), p[1] + t * (q[1] - p[1])]); }
      }
      polygon = next;
    }
    return polygon;
  }

  // ---------------------------------------------------------------- cards, log, plots, status

  function renderCards() {
    const set = (c, value, detail, tone) => {
      if (c.value.textContent !== value) c.value.textContent = value;
      if (c.detail.textContent !== detail) { c.detail.textContent = detail; c.detail.title = detail; }
      if ((c.node.dataset.tone || "") !== (tone || "")) c.node.dataset.tone = tone || "";
    };
    if (!result) {
      for (const c of Object.values(cards)) set(c, "–", "");
      cards.separable.remedy.hidden = true;
      return;
    }
    const k = result.cards;
    set(cards.R, k.R.text, k.R.detail);
    set(cards.rho, k.rho.text, k.rho.detail);
    set(cards.bound, k.bound.text, k.bound.detail);
    const v = view();
    const sofar = v ? (v.final && !result.run.complete ? result.run.mistakes : v.k) : 0;
    const bound = k.mistakes.bound;
    const boundText = k.bound.text.split(" ≈")[0];
    const detail = `of ${result.run.mistakes} in the whole run` + (bound === null ? "; no bound (not separable)" : ` · bound ${boundText}`);
    set(cards.mistakes, String(sofar), detail, bound === null ? "" : sofar <= bound + 1e-9 ? "good" : "bad");
    const sep = k.separable;
    set(cards.separable, sep.separable ? "yes" : "no", sep.detail, sep.separable ? "good" : "bad");
    // the page's own remedy: its pocket switch (not a Python call)
    cards.separable.remedy.hidden = !(sep.remedy && !state.options.pocket && !state.hidden.has("pocket"));
  }

  function stepRow(j) {
    const s = result.run.steps;
    return [String(s.sweep[j]), `x${s.index[j] + 1}`, s.score_text[j], s.mistake[j] ? "yes" : "no", result.run.weights.text[s.updates[j]]];
  }

  function logRows(upto) {
    // The worksheet up to the cursor; at the end exactly as Run.worksheet_rows() writes it.
    if (!result) return [];
    const log = result.run.log;
    const atEnd = upto >= total() && result.run.complete;
    const last = atEnd && log.collapse_from !== null ? log.collapse_from : Math.min(upto, traced());
    const rows = [];
    for (let j = 0; j < last; j++) rows.push(stepRow(j));
    if (atEnd && log.final_row) rows.push(log.final_row);
    return rows;
  }

  let lastLog = "";
  function renderLog() {
    const rows = logRows(step);
    const shown = rows.slice(Math.max(0, rows.length - LOG_WINDOW));
    const html = [];
    if (rows.length > shown.length) {
      html.push(`<tr class="plab-more"><td colspan="5">… ${rows.length - shown.length} earlier rows (in the CSV)</td></tr>`);
    }
    const escape = (t) => String(t).replace(/[&<>]/g, (ch) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;" })[ch]);
    const short = result && !result.exact ? shortFloats : (t) => t;
    shown.forEach((row, i) => {
      const cls = row[3] === "yes" ? "plab-yes" : row[4] === "stop" ? "plab-stop" : "";
      const current = i === shown.length - 1 && step > 0 ? " plab-current" : "";
      html.push(`<tr class="${cls}${current}">${row.map((c) => `<td>${escape(short(c))}</td>`).join("")}</tr>`);
    });
    const text = html.join("");
    if (text !== lastLog) { logBody.innerHTML = text; lastLog = text; }
    downloadBtn.disabled = !result;
  }

  function downloadCsv() {
    if (!result) return;
    const rows = logRows(total());
    const lines = ["sweep,point,score,mistake,w_after", ...rows.map((r) => r.map(csvField).join(","))];
    const blob = new Blob([lines.join("\n") + "\n"], { type: "text/csv" });
    const link = h("a", { href: URL.createObjectURL(blob), download: "perceptron-worksheet.csv" });
    document.body.append(link);
    link.click();
    setTimeout(() => { URL.revokeObjectURL(link.href); link.remove(); }, 0);
  }

  function plotFrame(target, height = 150) {
    const width = cssWidth(target, 260);
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

  function formatTick(value) {
    return Math.abs(value) >= 100 ? value.toFixed(0) : Number(value.toPrecision(3)).toString();
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

  function renderPlots() {
    if (state.hidden.has("plots")) return;
    errorsCaption.textContent = result && result.plots.pocket
      ? "Errors after each sweep (line: the pocket's)" : "Training errors after each sweep";
    const f = plotFrame(squeezeCanvas);
    const e = plotFrame(errorsCanvas);
    if (!result) return;
    const sq = result.plots.squeeze;
    const updates = sq.norms.length - 1;
    const v = view();
    const k = v ? Math.min(v.k, updates) : 0;
    const xmax = Math.max(1, updates);
    const ks = sq.norms.map((_, i) => i);
    const ymax = Math.max(1e-9, ...sq.norms, ...sq.upper.slice(0, updates + 1));
    axes(f, xmax, ymax, "mistakes k");
    polyline(f, ks, sq.upper, xmax, ymax, WRONG, 1.4, [4, 3]);
    if (sq.lower) polyline(f, ks, sq.lower, xmax, ymax, UPDATE, 1.4, [4, 3]);
    polyline(f, ks, sq.norms, xmax, ymax, "#cbd5e1", 1.5);
    polyline(f, ks.slice(0, k + 1), sq.norms.slice(0, k + 1), xmax, ymax, PLUS, 2.2);
    const { ctx } = f;
    const px = f.left + (k / xmax) * (f.right - f.left);
    const py = f.bottom - (sq.norms[k] / ymax) * (f.bottom - f.top);
    ctx.beginPath(); ctx.arc(px, py, 3.5, 0, 2 * Math.PI); ctx.fillStyle = PLUS; ctx.fill();

    const errors = result.plots.errors;
    const count = errors.length;
    const emax = Math.max(1, ...errors, result.n ? 0 : 0);
    axes(e, Math.max(1, count), emax, "sweep");
    let completed = 0;
    if (v && v.final) completed = count;
    else if (step > 0) {
      const sweeps = result.run.steps.sweep;
      completed = sweeps[step - 1] - (step < sweeps.length && sweeps[step] === sweeps[step - 1] ? 1 : 0);
    }
    const barWidth = Math.max(1, (e.right - e.left) / Math.max(1, count) - 2);
    errors.forEach((value, i) => {
      const x = e.left + (i / Math.max(1, count)) * (e.right - e.left) + 1;
      const height = (value / emax) * (e.bottom - e.top);
      e.ctx.fillStyle = i + 1 <= completed ? (value === 0 ? UPDATE : MINUS) : "#e2e8f0";
      e.ctx.fillRect(x, e.bottom - Math.max(height, 2), barWidth, Math.max(height, 2));
    });
    const pocket = result.plots.pocket;
    if (pocket && pocket.length) {
      // the pocket's error count at the end of each sweep: it only goes down
      const xs = pocket.map((_, i) => i + 0.5);
      polyline(e, xs.slice(0, completed), pocket.slice(0, completed), Math.max(1, count), emax, "#0891b2", 2.2);
    }
  }

  function renderStatus() {
    const v = view();
    if (!state.points.length) {
      status.textContent = touch ? "Tap in the plane to add points." : "Click in the plane to add points.";
      return;
    }
    if (pending) {
      status.textContent = pending;
      return;
    }
    if (!result) {
      status.textContent = waiting ? "Computing…" : !error ? ""
        : errorKind === "input" ? "Nothing to show: fix the input named in the message above."
          : "Nothing to show: the lab server did not answer (see above). Press Retry once it runs again.";
      return;
    }
    const run = result.run;
    const arithmetic = result.exact ? "exact fractions" : "floating point";
    if (step === 0) {
      status.innerHTML = `<b>w = ${escapeHtml(v.text)}</b> · ${count(run.mistakes, "mistake")} in ${count(run.sweeps, "sweep")} (${escapeHtml(run.state)}) · ${arithmetic}`;
      return;
    }
    if (v.final && step > traced()) {
      status.innerHTML = `<b>End of the whole run</b>: w = ${escapeHtml(result.exact ? run.w_text : shortFloats(run.w_text))} · ${escapeHtml(run.state)}`;
      return;
    }
    const s = run.steps;
    const j = step - 1;
    const verdict = s.mistake[j] ? `≤ ${escapeHtml(result.options.margin)} → <span class="plab-bad">mistake</span>, w ← w + η·y·x` : `> ${escapeHtml(result.options.margin)} → correct`;
    const short = result.exact ? (t) => t : shortFloats;
    let text = `Sweep ${s.sweep[j]}, x${s.index[j] + 1} (y = ${state.points[s.index[j]]?.label > 0 ? "+1" : "−1"}): y⟨w,x⟩ = ${escapeHtml(short(s.score_text[j]))} ${verdict} · <b>w = ${escapeHtml(short(v.text))}</b>`;
    if (v.final) text += ` · <span class="${run.converged ? "plab-good" : "plab-bad"}">${escapeHtml(run.state)}</span>`;
    status.innerHTML = text;
  }

  function count(n, word) {
    return `${n.toLocaleString("en-US")} ${word}${n === 1 ? "" : "s"}`;
  }

  function escapeHtml(text) {
    return String(text).replace(/[&<>"]/g, (ch) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" })[ch]);
  }

  function renderSpeed() {
    speedLabel.textContent = `${speed} steps/s`;
  }

  function syncControls() {
    if (presetSelect.value !== state.preset) presetSelect.value = state.preset;
    orderSelect.value = state.options.order;
    biasBox.checked = !!state.options.fit_intercept;
    if (document.activeElement !== etaInput) etaInput.value = String(state.options.eta);
    if (document.activeElement !== rhoInput) rhoInput.value = String(state.options.margin);
    pocketBox.checked = !!state.options.pocket;
    snapSelect.value = state.snap;
    marginBox.checked = state.showMargin;
    sweepsInput.value = String(state.options.max_sweeps);
    seedInput.value = String(state.options.seed);
    arithSelect.value = state.options.arithmetic;
    for (const node of root.querySelectorAll("[data-ctl]")) node.hidden = state.hidden.has(node.dataset.ctl) || (node === sharePanel && !useHash);
    const pick = state.options.order === "pick";
    pickInfo.parentElement.style.display = pick && !state.hidden.has("order") ? "" : "none";
    pickInfo.textContent = pick ? `Your order: ${state.sequence.length ? state.sequence.map((i) => `x${i + 1}`).join(" → ") : "click the points in the order to visit them"}${state.sequence.length && state.sequence.length < state.points.length ? " → the rest in their order" : ""}` : "";
    cards.mistakes.node.querySelector(".plab-card-title").textContent = state.options.pocket ? "Updates" : "Mistakes";
    const sign = state.newLabel > 0 ? "+1" : "−1", other = state.newLabel > 0 ? "−1" : "+1";
    const onPoint = pick ? "a point: add it to (or remove it from) your order" : "a point: flip its label";
    hint.textContent = !editable() ? ""
      : touch ? `Tap: add a point labelled ${sign} (choose above) · tap ${onPoint} · long-press a point: delete · or type x and y`
        : `Click: add ${sign} (shift-click: ${other}) · click ${onPoint} · right-click or long-press: delete · or type x and y`;
    for (const node of labelButtons) {
      const on = Number(node.dataset.label) === state.newLabel;
      node.setAttribute("aria-checked", on ? "true" : "false");
      node.classList.toggle("plab-on", on);
    }
    pocketKey.hidden = !state.options.pocket;
  }

  function render() {
    scrubber.max = String(total());
    scrubber.value = String(step);
    stepLabel.textContent = result ? `step ${step} / ${total()}` : "step 0 / 0";
    for (const b of [stepBtn, sweepBtn, runBtn, playBtn, resetBtn]) b.disabled = !result;
    errorBox.hidden = !error;
    errorBox.dataset.kind = errorKind;
    errorText.textContent = error;
    retryBtn.hidden = !error || errorKind === "input";
    note.hidden = !(result && result.limits.note);
    note.textContent = result ? result.limits.note : "";
    drawPlane();
    renderCards();
    renderLog();
    renderPlots();
    renderStatus();
  }

  if (typeof ResizeObserver !== "undefined") {
    const observer = new ResizeObserver((entries) => {
      for (const entry of entries) sizes.set(entry.target, entry.contentRect.width);
      render();
    });
    observer.observe(canvas);
    observer.observe(squeezeCanvas);
    observer.observe(errorsCanvas);
  }

  extent = viewExtent();
  state.preset = matchPreset();
  renderSpeed();
  syncControls();
  writeHash();
  render();
  request();

  return {
    state,
    get result() { return result; },
    get step() { return step; },
    setStep,
    loadPreset,
    setPoints(points) {
      state.points = points.map((p) => ({ ...p }));
      state.sequence = [];
      extent = viewExtent();
      state.preset = matchPreset();
      changed();
    },
    setOptions(options) { state.options = { ...state.options, ...options }; changed(); },
    toPixel,
  };
}

/** Mount the served page (index.html calls this). */
export function mountPage(root) {
  const lab = createLab(root, { backend: httpBackend("api/run"), useHash: true });
  window.perceptronlab = lab;
  return lab;
}

// ------------------------------------------------------------------ anywidget entry

function render({ model, el }) {
  const modelPoints = () => (model.get("points") || []).map(([x, y], i) => ({ x: modelNumber(x), y: modelNumber(y), label: (model.get("labels") || [])[i] < 0 ? -1 : 1 }));
  const points = modelPoints();
  const options = { ...DEFAULT_OPTIONS, ...(model.get("options") || {}) };
  const hidden = new Set(model.get("hidden") || []);
  const backend = modelBackend(model);
  el.classList.add("plab-widget");  // lab.css sizes the widget by its own width, not the window's
  const lab = createLab(el, {
    backend,
    useHash: false,
    initial: { points, options, sequence: options.sequence || [], snap: "1", showMargin: true, hidden },
  });
  const fromPython = () => {
    if (backend.writing) return;
    const incoming = modelPoints();
    const current = lab.state.points;
    const same = incoming.length === current.length && incoming.every((p, i) => p.x === current[i].x && p.y === current[i].y && p.label === current[i].label);
    if (!same) backend.adopt(() => lab.setPoints(incoming));
  };
  const optionsFromPython = () => {
    if (backend.writing) return;
    const incoming = { ...DEFAULT_OPTIONS, ...(model.get("options") || {}) };
    const { sequence, ...rest } = incoming;
    const current = { ...lab.state.options };
    delete current.sequence;
    if (!sameOptions(rest, { ...DEFAULT_OPTIONS, ...current })) backend.adopt(() => lab.setOptions(rest));
  };
  model.on("change:points", fromPython);
  model.on("change:labels", fromPython);
  model.on("change:options", optionsFromPython);
  return () => {
    model.off("change:points", fromPython);
    model.off("change:labels", fromPython);
    model.off("change:options", optionsFromPython);
  };
}

export default { render };
