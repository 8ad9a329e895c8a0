// The lab: its controls, wired to the one state object (state.js), and the render that draws the
// state through the plane (plane.js), the worksheet (worksheet.js) and the plots (plots.js).
//
// The page computes nothing about the perceptron: it posts {points, labels, options} whenever they
// change and receives the whole run (every step, every weight vector, which points each weight
// vector misclassifies) and the cards from perceptronlab's Python engine and theory toolkit. Stepping,
// sweeping, playing and rewinding only move a cursor through that answer and draw it.

import { h, setButton, download } from "./dom.js";
import { HIDEABLE, DEFAULT_OPTIONS, encodeHash, decodeHash } from "./hash.js";
import { PRESETS, matchPreset } from "./presets.js";
import { viewExtent, toPixel, toWorld, snapTo, hitPoint } from "./geometry.js";
import { createState, payload, total, endOfSweep } from "./state.js";
import { drawPlane } from "./plane.js";
import { createWorksheet } from "./worksheet.js";
import { createPlots } from "./plots.js";
import { readNumber } from "./words.js";
import { createCards } from "./cards.js";
import { statusLine } from "./status.js";
import { createDataPanel } from "./data-panel.js";

const LONG_PRESS_MS = 550;

/** True on a touch screen (no hover, no shift-click, no right-click). */
export function isTouchScreen() {
  return typeof window !== "undefined" && ((navigator.maxTouchPoints || 0) > 0
    || Boolean(window.matchMedia && window.matchMedia("(pointer: coarse)").matches));
}

/**
 * Build the lab inside `root`.
 *
 * @param {HTMLElement} root
 * @param {{backend: {submit: Function}, useHash?: boolean, initial?: object, snapshot?: Function,
 *   extras?: Function[]}} config
 *   `snapshot`: (state) => a promise of the run as one HTML file (no button without it);
 *   `extras`: functions (lab) => a panel added above the classroom link (the self-test).
 */
export function createLab(root, config) {
  const backend = config.backend;
  const useHash = config.useHash !== false;
  const fromHash = useHash ? decodeHash(window.location.hash) : null;
  const state = createState(fromHash || config.initial || null);
  const touch = isTouchScreen();

  // ---------------------------------------------------------------- DOM
  root.classList.add("plab");
  root.replaceChildren();

  const canvas = h("canvas", { class: "plab-plane", "data-testid": "plane", "aria-label": `The plane: ${touch ? "tap" : "click"} to add a point` });
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
  const stepBtn = btn("step", "Step", "btn-step", "Check one example (→)", () => { stop(); setStep(state.step + 1); });
  const sweepBtn = btn("sweep", "Sweep", "btn-sweep", "Finish the current sweep (Shift+→)", () => { stop(); setStep(endOfSweep(state, state.step)); });
  const runBtn = btn("run", "Run", "btn-run", "Run to the end (End)", () => { stop(); setStep(total(state)); });
  const playBtn = btn("play", "Play", "btn-play", "Play / pause (Space)", () => (state.playing ? stop() : play()));
  const speedInput = h("input", { type: "range", min: "1", max: "60", value: String(state.speed), class: "plab-speed", "data-testid": "speed", "aria-label": "Speed in steps per second" });
  const speedLabel = h("span", { class: "plab-speed-label" });
  speedInput.addEventListener("input", () => { state.speed = Number(speedInput.value); renderSpeed(); });
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

  const cards = createCards(state, { onPocket: () => setOption("pocket", true) });
  // options
  const presetSelect = h("select", { "data-testid": "preset", "aria-label": "Preset" },
    h("option", { value: "custom" }, "Your points"),
    Object.entries(PRESETS).map(([key, p]) => h("option", { value: key, title: p.about }, p.name)));
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

  const worksheet = createWorksheet(state);
  const plots = createPlots(state);

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

  // export: the current run as one HTML file that plays back without a server
  const snapshotMessage = h("span", { class: "plab-exportmessage", "data-testid": "snapshot-message", "aria-live": "polite" });
  const snapshotBtn = h("button", { type: "button", class: "plab-btn plab-btn-small", "data-testid": "save-snapshot",
    title: "The run as one HTML file: it plays back in any browser, without perceptronlab", onclick: saveSnapshot }, "Save snapshot (HTML)");
  const exportRow = h("div", { class: "plab-exportrow", "data-ctl": "export" }, snapshotBtn, snapshotMessage);

  const left = h("div", { class: "plab-left" }, h("div", { class: "plab-planebox" }, canvas), legend, addForm, hint, transport, scrubRow, status, note, exportRow);
  const right = h("div", { class: "plab-right" }, errorBox, cards.node, optionsPanel, worksheet.node, plots.node, sharePanel);
  root.append(h("div", { class: "plab-main" }, left, right));

  // ---------------------------------------------------------------- requests

  function request() {
    if (!state.points.length) {
      state.result = null;
      state.error = "";
      state.step = 0;
      root.dataset.ready = "1";
      render();
      return;
    }
    state.waiting = true;
    root.classList.add("plab-busy");
    root.dataset.ready = "0";
    backend.submit(payload(state), receive);
  }

  function receive(answer) {
    if (answer.pending) {  // the server is busy: the back end asks again by itself
      state.pending = answer.pending;
      renderStatus();
      return;
    }
    state.pending = "";
    state.waiting = false;
    root.classList.remove("plab-busy");
    root.dataset.ready = "1";
    root.dataset.answers = String(Number(root.dataset.answers || 0) + 1);
    if (answer.error) {
      state.error = answer.error;
      state.errorKind = answer.kind || "input";
      state.result = null;
      state.step = 0;
      stop();
    } else {
      const wasAtEnd = state.followEnd;
      state.error = "";
      state.errorKind = "";
      state.result = answer.result;
      if (state.pendingStep !== null) { state.step = Math.min(state.pendingStep, total(state)); state.pendingStep = null; }
      else if (wasAtEnd) state.step = total(state);
      else state.step = Math.min(state.step, total(state));
    }
    render();
  }

  function changed() {
    state.followEnd = state.result !== null && state.step === total(state) && state.step > 0;
    if (!state.followEnd) state.step = 0;
    writeHash();
    syncControls();
    request();
  }

  function setOption(key, value) {
    state.options = { ...state.options, [key]: value };
    changed();
  }

  function loadPreset(key) {
    if (!(key in PRESETS)) return;
    loadPoints(PRESETS[key].points(), key);
  }

  /** New points (a preset, a user's data): the view fits them and the run restarts at step 0. */
  function loadPoints(points, preset) {
    stop();
    state.points = points.map((p) => ({ ...p }));
    state.sequence = [];
    state.preset = preset || matchPreset(state.points);
    state.followEnd = false;
    state.step = 0;
    state.extent = viewExtent(state.points);
    writeHash();
    syncControls();
    request();
  }

  function saveSnapshot() {
    if (!state.result || !config.snapshot) return;
    snapshotBtn.disabled = true;
    snapshotMessage.textContent = "Writing the snapshot…";
    Promise.resolve(config.snapshot(state)).then((html) => {
      download(html, "perceptron-run.html", "text/html");
      snapshotMessage.textContent = `Saved perceptron-run.html (${Math.ceil(html.length / 1024).toLocaleString("en-US")} kB): open it in any browser.`;
    }, (failure) => {
      snapshotMessage.textContent = `No snapshot: ${failure && failure.message ? failure.message : failure}.`;
    }).finally(() => { snapshotBtn.disabled = !state.result; });
  }

  // ---------------------------------------------------------------- the cursor

  function setStep(value) {
    state.step = Math.max(0, Math.min(total(state), Math.round(value)));
    state.followEnd = false;
    writeHashSoon();
    render();
  }

  let lastFrame = 0;
  let carry = 0;
  function play() {
    if (!state.result || state.step >= total(state)) setStep(0);
    if (!state.result || !total(state)) return;
    state.playing = true;
    lastFrame = 0;
    carry = 0;
    setButton(playBtn, "pause", "Pause");
    playBtn.classList.add("plab-on");
    requestAnimationFrame(frame);
  }

  function stop() {
    state.playing = false;
    setButton(playBtn, "play", "Play");
    playBtn.classList.remove("plab-on");
  }

  function frame(now) {
    if (!state.playing) return;
    if (lastFrame) carry += ((now - lastFrame) / 1000) * state.speed;
    lastFrame = now;
    if (carry >= 1) {
      const advance = Math.floor(carry);
      carry -= advance;
      state.step = Math.min(total(state), state.step + advance);
      render();
      if (state.step >= total(state)) { stop(); writeHash(); return; }
    }
    requestAnimationFrame(frame);
  }

  // ---------------------------------------------------------------- URL hash

  let hashTimer = null;
  function writeHash() {
    if (!useHash) return;
    clearTimeout(hashTimer);
    const text = "#" + encodeHash(state, state.step);
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
      state.preset = matchPreset(state.points);
      state.pendingStep = incoming.step;
      state.followEnd = false;
      state.step = 0;
      state.extent = viewExtent(state.points);
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

  // ---------------------------------------------------------------- editing the points

  // CSS sizes of the canvases, read when they resize (not every frame: a read forces layout).
  const sizes = new Map();
  function cssWidth(target, fallback) {
    if (!sizes.has(target)) sizes.set(target, target.clientWidth || fallback);
    return sizes.get(target) || fallback;
  }
  const planeSize = () => cssWidth(canvas, 520);
  const pixelOf = (x, y) => toPixel(x, y, planeSize(), state.extent);

  function eventPixel(event) {
    const rect = canvas.getBoundingClientRect();
    return [event.clientX - rect.left, event.clientY - rect.top];
  }

  const editable = () => !state.hidden.has("edit");

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

  function markCustom() {
    state.preset = "custom";
    const grown = viewExtent(state.points);
    if (grown > state.extent) state.extent = grown;
  }

  // Pointer input: a click (or tap) adds a point with the chosen label (shift: the other one) or
  // flips the label of the point under it; a right-click or a long press deletes that point.
  let press = null;
  let swallowClick = false;
  const reach = (pointerType) => (pointerType === "touch" || pointerType === "pen" || touch ? 18 : 10);
  const hit = (px, py, pointerType) => hitPoint(state.points, px, py, planeSize(), state.extent, reach(pointerType));

  function cancelPress() {
    if (press) clearTimeout(press.timer);
    press = null;
  }

  canvas.addEventListener("pointerdown", (event) => {
    swallowClick = false;
    cancelPress();
    if (!editable() || event.button !== 0) return;
    const [px, py] = eventPixel(event);
    const index = hit(px, py, event.pointerType);
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
    const index = hit(px, py, event.pointerType);
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
    const [x, y] = toWorld(px, py, planeSize(), state.extent);
    addPoint({ x: snapTo(x, state.snap), y: snapTo(y, state.snap), label: event.shiftKey ? -state.newLabel : state.newLabel });
  });

  canvas.addEventListener("contextmenu", (event) => {
    // a right-click; on some touch screens also the long press itself (then it deletes once)
    event.preventDefault();
    if (!editable() || swallowClick) return;
    const [px, py] = eventPixel(event);
    const index = press ? press.index : hit(px, py, event.pointerType);
    const fromPress = press !== null;
    cancelPress();
    if (index < 0) return;
    if (fromPress) swallowClick = true;
    deletePoint(index);
  });

  root.tabIndex = 0;
  root.addEventListener("keydown", (event) => {
    const target = event.target;
    if (target instanceof HTMLInputElement || target instanceof HTMLSelectElement
      || target instanceof HTMLTextAreaElement || (target instanceof HTMLButtonElement && (event.key === " " || event.key === "Enter"))
      || event.altKey || event.ctrlKey || event.metaKey) return;
    if (event.key === "ArrowRight") { stop(); setStep(event.shiftKey ? endOfSweep(state, state.step) : state.step + 1); }
    else if (event.key === "ArrowLeft") { stop(); setStep(state.step - 1); }
    else if (event.key === "Home") { stop(); setStep(0); }
    else if (event.key === "End") { stop(); setStep(total(state)); }
    else if (event.key === " ") { if (state.playing) stop(); else play(); }
    else return;
    event.preventDefault();
    event.stopPropagation();  // in Jupyter, keep the notebook's own shortcuts out of it
  });

  // ---------------------------------------------------------------- cards, status

  function renderStatus() {
    const line = statusLine(state, touch);
    if (line.html !== undefined) status.innerHTML = line.html;
    else status.textContent = line.text;
  }

  function renderSpeed() {
    speedLabel.textContent = `${state.speed} steps/s`;
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
    for (const node of root.querySelectorAll("[data-ctl]")) {
      node.hidden = state.hidden.has(node.dataset.ctl) || (node === sharePanel && !useHash) || (node === exportRow && !config.snapshot);
    }
    const pick = state.options.order === "pick";
    const verb = touch ? "tap" : "click";
    pickInfo.parentElement.style.display = pick && !state.hidden.has("order") ? "" : "none";
    pickInfo.textContent = pick ? `Your order: ${state.sequence.length ? state.sequence.map((i) => `x${i + 1}`).join(" → ") : `${verb} the points in the order to visit them`}${state.sequence.length && state.sequence.length < state.points.length ? " → the rest in their order" : ""}` : "";
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
    cards.render();  // the mistakes card is "Updates" with pocket
  }

  function render() {
    const all = total(state);
    scrubber.max = String(all);
    scrubber.value = String(state.step);
    stepLabel.textContent = state.result ? `step ${state.step} / ${all}` : "step 0 / 0";
    for (const b of [stepBtn, sweepBtn, runBtn, playBtn, resetBtn, snapshotBtn]) b.disabled = !state.result;
    errorBox.hidden = !state.error;
    errorBox.dataset.kind = state.errorKind;
    errorText.textContent = state.error;
    retryBtn.hidden = !state.error || state.errorKind === "input";
    note.hidden = !(state.result && state.result.limits.note);
    note.textContent = state.result ? state.result.limits.note : "";
    drawPlane(canvas, state, planeSize());
    cards.render();
    worksheet.render();
    plots.render((target) => cssWidth(target, 260));
    renderStatus();
  }

  if (typeof ResizeObserver !== "undefined") {
    const observer = new ResizeObserver((entries) => {
      for (const entry of entries) sizes.set(entry.target, entry.contentRect.width);
      render();
    });
    for (const target of [canvas, ...plots.canvases]) observer.observe(target);
  }

  const lab = {
    state,
    get result() { return state.result; },
    get step() { return state.step; },
    payload: () => payload(state),
    setStep,
    loadPreset,
    loadPoints,
    /** New points from Python (the widget): the cursor stays at the end if it was there. */
    setPoints(points) {
      state.points = points.map((p) => ({ ...p }));
      state.sequence = [];
      state.extent = viewExtent(state.points);
      state.preset = matchPreset(state.points);
      changed();
    },
    setOptions(options) { state.options = { ...state.options, ...options }; changed(); },
    toPixel: pixelOf,
  };

  // the user's own data (a CSV opened or dropped, points pasted), and the panels the caller adds
  const dataPanel = createDataPanel({ onPoints: (points) => loadPoints(points), dropTarget: root, touch });
  right.insertBefore(dataPanel.node, optionsPanel);
  for (const extra of config.extras || []) {
    const node = extra(lab);
    if (node) right.insertBefore(node, sharePanel);
  }

  renderSpeed();
  syncControls();
  writeHash();
  render();
  request();
  return lab;
}
