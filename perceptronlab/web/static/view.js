// The lab: the one state object (state.js) and its actions, wired to the controls (controls.js),
// the pointer (pointer.js) and the URL hash, and drawn by lab-render.js through the plane
// (plane.js), the worksheet (worksheet.js) and the plots (plots.js).
//
// The page computes nothing about the perceptron: it posts {points, labels, options} whenever they
// change and receives the whole run (every step, every weight vector, which points each weight
// vector misclassifies) and the cards from perceptronlab's Python engine and theory toolkit. Stepping,
// sweeping, playing and rewinding only move a cursor through that answer and draw it.

import { setButton, download } from "./dom.js";
import { encodeHash, decodeHash } from "./hash.js";
import { PRESETS, matchPreset } from "./presets.js";
import { viewExtent, toPixel } from "./geometry.js";
import { createState, payload, total } from "./state.js";
import { readNumber } from "./words.js";
import { createDataPanel } from "./data-panel.js";
import { addPoint, loadPoints as loadInto, loadLink } from "./edits.js";
import { clampStep, beforeChange, applyAnswer, keyAction, createClock, tick } from "./cursor.js";
import { savedText, unsavedText } from "./hints.js";
import { createControls } from "./controls.js";
import { wirePointer } from "./pointer.js";
import { render as drawLab, syncControls as drawControls, renderStatus, renderSpeed } from "./lab-render.js";

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
  const useHash = config.useHash !== false;
  const fromHash = useHash ? decodeHash(window.location.hash) : null;
  const state = createState(fromHash || config.initial || null);
  // the lab's context: what its actions share (the controls once built, the canvases' CSS sizes)
  const ctx = { root, config, state, useHash, touch: isTouchScreen(), ui: null, sizes: new Map(), hashTimer: null, clock: createClock() };
  const act = actions(ctx);
  ctx.ui = createControls(root, state, ctx.touch, act);
  wirePointer(ctx.ui.canvas, state, { touch: ctx.touch, planeSize: () => planeSize(ctx), edited: act.changed });
  root.tabIndex = 0;
  root.addEventListener("keydown", (event) => onKey(ctx, event));
  // A link pasted into the same tab only changes the hash: load its state.
  // (replaceState, which the page itself uses, fires no hashchange.)
  if (useHash) window.addEventListener("hashchange", () => onHashChange(ctx));
  if (typeof ResizeObserver !== "undefined") {
    const observer = new ResizeObserver((entries) => {
      for (const entry of entries) ctx.sizes.set(entry.target, entry.contentRect.width);
      render(ctx);
    });
    for (const target of [ctx.ui.canvas, ...ctx.ui.plots.canvases]) observer.observe(target);
  }
  const lab = labApi(ctx, act);
  // the user's own data (a CSV opened or dropped, points pasted), and the panels the caller adds
  const dataPanel = createDataPanel({ onPoints: (points) => loadPoints(ctx, points), dropTarget: root, touch: ctx.touch });
  ctx.ui.right.insertBefore(dataPanel.node, ctx.ui.optionsPanel);
  for (const extra of config.extras || []) {
    const node = extra(lab);
    if (node) ctx.ui.right.insertBefore(node, ctx.ui.sharePanel);
  }
  renderSpeed(ctx.ui, state);
  syncControls(ctx);
  writeHash(ctx);
  render(ctx);
  request(ctx);
  return lab;
}

/** The actions the controls call (controls.js), each on the lab's context. */
function actions(ctx) {
  return {
    request: () => request(ctx),
    stop: () => stop(ctx),
    setStep: (value) => setStep(ctx, value),
    togglePlay: () => (ctx.state.playing ? stop(ctx) : play(ctx)),
    renderSpeed: () => renderSpeed(ctx.ui, ctx.state),
    syncControls: () => syncControls(ctx),
    addTyped: () => addTyped(ctx),
    setOption: (key, value) => setOption(ctx, key, value),
    loadPreset: (key) => loadPreset(ctx, key),
    writeHash: () => writeHash(ctx),
    render: () => render(ctx),
    changed: () => changed(ctx),
    renderShare: () => renderShare(ctx),
    saveSnapshot: () => saveSnapshot(ctx),
  };
}

/** The lab as its callers see it (the page's window.perceptronlab, the widget, the tests). */
function labApi(ctx, act) {
  const state = ctx.state;
  return {
    state,
    get result() { return state.result; },
    get step() { return state.step; },
    payload: () => payload(state),
    setStep: act.setStep,
    loadPreset: act.loadPreset,
    loadPoints: (points, preset) => loadPoints(ctx, points, preset),
    /** New points from Python (the widget): the cursor stays at the end if it was there. */
    setPoints(points) {
      state.points = points.map((p) => ({ ...p }));
      state.sequence = [];
      state.extent = viewExtent(state.points);
      state.preset = matchPreset(state.points);
      changed(ctx);
    },
    setOptions(options) { state.options = { ...state.options, ...options }; changed(ctx); },
    toPixel: (x, y) => toPixel(x, y, planeSize(ctx), state.extent),
  };
}

// ---------------------------------------------------------------- requests

function request(ctx) {
  const { state, root } = ctx;
  if (!state.points.length) {
    state.result = null;
    state.error = "";
    state.step = 0;
    root.dataset.ready = "1";
    render(ctx);
    return;
  }
  state.waiting = true;
  root.classList.add("plab-busy");
  root.dataset.ready = "0";
  ctx.config.backend.submit(payload(state), (answer) => receive(ctx, answer));
}

function receive(ctx, answer) {
  const { state, root } = ctx;
  if (answer.pending) {  // the server is busy: the back end asks again by itself
    state.pending = answer.pending;
    renderStatus(ctx.ui, state, ctx.touch);
    return;
  }
  const failed = applyAnswer(state, answer);
  root.classList.remove("plab-busy");
  root.dataset.ready = "1";
  root.dataset.answers = String(Number(root.dataset.answers || 0) + 1);
  if (failed) stop(ctx);
  render(ctx);
}

function changed(ctx) {
  beforeChange(ctx.state);
  writeHash(ctx);
  syncControls(ctx);
  request(ctx);
}

function setOption(ctx, key, value) {
  ctx.state.options = { ...ctx.state.options, [key]: value };
  changed(ctx);
}

function loadPreset(ctx, key) {
  if (!(key in PRESETS)) return;
  loadPoints(ctx, PRESETS[key].points(), key);
}

/** New points (a preset, a user's data): the view fits them and the run restarts at step 0. */
function loadPoints(ctx, points, preset) {
  stop(ctx);
  loadInto(ctx.state, points, preset);
  writeHash(ctx);
  syncControls(ctx);
  request(ctx);
}

function onHashChange(ctx) {
  const incoming = decodeHash(window.location.hash);
  if (!incoming) return;
  stop(ctx);
  loadLink(ctx.state, incoming);
  syncControls(ctx);
  request(ctx);
}

function saveSnapshot(ctx) {
  const { state, config, ui } = ctx;
  if (!state.result || !config.snapshot) return;
  ui.snapshotBtn.disabled = true;
  ui.snapshotMessage.textContent = "Writing the snapshot…";
  Promise.resolve(config.snapshot(state)).then((html) => {
    download(html, "perceptron-run.html", "text/html");
    ui.snapshotMessage.textContent = savedText(html);
  }, (failure) => {
    ui.snapshotMessage.textContent = unsavedText(failure);
  }).finally(() => { ui.snapshotBtn.disabled = !state.result; });
}

// ---------------------------------------------------------------- the cursor

function setStep(ctx, value) {
  ctx.state.step = clampStep(ctx.state, value);
  ctx.state.followEnd = false;
  writeHashSoon(ctx);
  render(ctx);
}

function play(ctx) {
  const state = ctx.state;
  if (!state.result || state.step >= total(state)) setStep(ctx, 0);
  if (!state.result || !total(state)) return;
  state.playing = true;
  ctx.clock = createClock();
  setButton(ctx.ui.playBtn, "pause", "Pause");
  ctx.ui.playBtn.classList.add("plab-on");
  requestAnimationFrame((now) => frame(ctx, now));
}

function stop(ctx) {
  ctx.state.playing = false;
  setButton(ctx.ui.playBtn, "play", "Play");
  ctx.ui.playBtn.classList.remove("plab-on");
}

function frame(ctx, now) {
  const state = ctx.state;
  if (!state.playing) return;
  const advance = tick(ctx.clock, now, state.speed);
  if (advance) {
    state.step = Math.min(total(state), state.step + advance);
    render(ctx);
    if (state.step >= total(state)) { stop(ctx); writeHash(ctx); return; }
  }
  requestAnimationFrame((later) => frame(ctx, later));
}

function onKey(ctx, event) {
  const target = event.target;
  if (target instanceof HTMLInputElement || target instanceof HTMLSelectElement
    || target instanceof HTMLTextAreaElement || (target instanceof HTMLButtonElement && (event.key === " " || event.key === "Enter"))
    || event.altKey || event.ctrlKey || event.metaKey) return;
  const action = keyAction(ctx.state, event.key, event.shiftKey);
  if (!action) return;
  if (action.toggle) { if (ctx.state.playing) stop(ctx); else play(ctx); }
  else { stop(ctx); setStep(ctx, action.step); }
  event.preventDefault();
  event.stopPropagation();  // in Jupyter, keep the notebook's own shortcuts out of it
}

// ---------------------------------------------------------------- URL hash

function writeHash(ctx) {
  if (!ctx.useHash) return;
  clearTimeout(ctx.hashTimer);
  const text = "#" + encodeHash(ctx.state, ctx.state.step);
  if (window.location.hash !== text) history.replaceState(null, "", text);
  renderShare(ctx);
}

function writeHashSoon(ctx) {
  if (!ctx.useHash) return;
  clearTimeout(ctx.hashTimer);
  ctx.hashTimer = setTimeout(() => writeHash(ctx), 150);
}

function renderShare(ctx) {
  if (!ctx.useHash) return;
  const hide = ctx.ui.shareBoxes.map((label) => label.querySelector("input")).filter((b) => b.checked).map((b) => b.value);
  const shared = { ...ctx.state, hidden: new Set(hide) };
  const base = window.location.href.split("#")[0];
  ctx.ui.shareLink.value = `${base}#${encodeHash(shared, 0)}`;
}

// ---------------------------------------------------------------- editing, drawing

function addTyped(ctx) {
  const { state, ui } = ctx;
  if (state.hidden.has("edit")) return;
  const x = readNumber(ui.addX.value), y = readNumber(ui.addY.value);
  if (x === null || y === null) {
    ui.addMessage.textContent = `${x === null ? "x" : "y"}: type a number such as 1, -0.5 or 1/2.`;
    (x === null ? ui.addX : ui.addY).focus();
    return;
  }
  const { added, message } = addPoint(state, { x, y, label: state.newLabel });
  if (added) changed(ctx);
  ui.addMessage.textContent = message;
  ui.addX.value = "";
  ui.addY.value = "";
  ui.addX.focus();
}

/** The CSS width of a canvas, read when it resizes (not every frame: a read forces layout). */
function cssWidth(ctx, target, fallback) {
  if (!ctx.sizes.has(target)) ctx.sizes.set(target, target.clientWidth || fallback);
  return ctx.sizes.get(target) || fallback;
}

function planeSize(ctx) {
  return cssWidth(ctx, ctx.ui.canvas, 520);
}

function syncControls(ctx) {
  drawControls(ctx.ui, ctx.state, { root: ctx.root, touch: ctx.touch, useHash: ctx.useHash, canSnapshot: Boolean(ctx.config.snapshot) });
}

function render(ctx) {
  drawLab(ctx.ui, ctx.state, { touch: ctx.touch, planeSize: () => planeSize(ctx), cssWidth: (target, fallback) => cssWidth(ctx, target, fallback) });
}
