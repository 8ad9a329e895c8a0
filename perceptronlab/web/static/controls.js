// The lab's controls: its DOM, built once, with each control wired to one action of the lab
// (view.js passes them in `act`). Nothing here holds state: the controls read and write the one
// state object only through those actions, and lab-render.js draws the state into them.

import { h, setButton } from "./dom.js";
import { HIDEABLE } from "./hash.js";
import { PRESETS } from "./presets.js";
import { total, endOfSweep } from "./state.js";
import { createWorksheet } from "./worksheet.js";
import { createPlots } from "./plots.js";
import { createCards } from "./cards.js";

/**
 * Build the lab's DOM inside `root`: {nodes by name, left, right, cards, worksheet, plots}.
 *
 * @param {object} act the lab's actions: request, stop, setStep, togglePlay, renderSpeed,
 *   syncControls, addTyped, setOption, loadPreset, writeHash, render, changed, renderShare,
 *   saveSnapshot
 */
export function createControls(root, state, touch, act) {
  root.classList.add("plab");
  root.replaceChildren();
  const ui = { ...messages(act), ...transport(state, act), ...legend() };
  ui.canvas = h("canvas", { class: "plab-plane", "data-testid": "plane", "aria-label": `The plane: ${touch ? "tap" : "click"} to add a point` });
  Object.assign(ui, addForm(state, act));
  ui.cards = createCards(state, { onPocket: () => act.setOption("pocket", true) });
  Object.assign(ui, options(state, act));
  ui.worksheet = createWorksheet(state);
  ui.plots = createPlots(state);
  Object.assign(ui, share(act), exportRow(act));
  ui.left = h("div", { class: "plab-left" }, h("div", { class: "plab-planebox" }, ui.canvas), ui.legend, ui.addForm, ui.hint, ui.transport, ui.scrubRow, ui.status, ui.note, ui.exportRow);
  ui.right = h("div", { class: "plab-right" }, ui.errorBox, ui.cards.node, ui.optionsPanel, ui.worksheet.node, ui.plots.node, ui.sharePanel);
  root.append(h("div", { class: "plab-main" }, ui.left, ui.right));
  return ui;
}

/** The hint, the status line, the error (with Retry) and the note. */
function messages(act) {
  const hint = h("div", { class: "plab-hint", "data-testid": "hint" });
  const status = h("div", { class: "plab-status", "data-testid": "status", "aria-live": "polite" });
  const errorText = h("span", { class: "plab-error-text" });
  const retryBtn = h("button", { type: "button", class: "plab-btn plab-btn-small", "data-testid": "retry", hidden: true, onclick: () => act.request() }, "Retry");
  const errorBox = h("div", { class: "plab-error", "data-testid": "error", role: "alert", hidden: true }, errorText, retryBtn);
  const note = h("div", { class: "plab-note", "data-testid": "note", hidden: true });
  return { hint, status, errorText, retryBtn, errorBox, note };
}

/** The transport buttons, the scrubber and the speed. */
function transport(state, act) {
  const btn = (icon, label, testid, title, onclick) => {
    const node = h("button", { type: "button", class: "plab-btn", "data-testid": testid, title, onclick });
    setButton(node, icon, label);
    return node;
  };
  const go = (where) => () => { act.stop(); act.setStep(where()); };
  const resetBtn = btn("reset", "Reset", "btn-reset", "Back to w = 0 (Home)", go(() => 0));
  const stepBtn = btn("step", "Step", "btn-step", "Check one example (→)", go(() => state.step + 1));
  const sweepBtn = btn("sweep", "Sweep", "btn-sweep", "Finish the current sweep (Shift+→)", go(() => endOfSweep(state, state.step)));
  const runBtn = btn("run", "Run", "btn-run", "Run to the end (End)", go(() => total(state)));
  const playBtn = btn("play", "Play", "btn-play", "Play / pause (Space)", () => act.togglePlay());
  const speedInput = h("input", { type: "range", min: "1", max: "60", value: String(state.speed), class: "plab-speed", "data-testid": "speed", "aria-label": "Speed in steps per second" });
  const speedLabel = h("span", { class: "plab-speed-label" });
  speedInput.addEventListener("input", () => { state.speed = Number(speedInput.value); act.renderSpeed(); });
  const scrubber = h("input", { type: "range", min: "0", max: "0", value: "0", class: "plab-scrubber", "data-testid": "scrubber", "aria-label": "Step" });
  scrubber.addEventListener("input", () => { act.stop(); act.setStep(Number(scrubber.value)); });
  const stepLabel = h("span", { class: "plab-steplabel", "data-testid": "step-label" });
  return {
    resetBtn, stepBtn, sweepBtn, runBtn, playBtn, speedLabel, scrubber, stepLabel,
    transport: h("div", { class: "plab-transport" }, resetBtn, stepBtn, sweepBtn, runBtn, playBtn),
    scrubRow: h("div", { class: "plab-scrubrow" }, scrubber, stepLabel,
      h("label", { class: "plab-speedbox", title: "Play speed" }, speedInput, speedLabel)),
  };
}

/** The legend of the plane's marks, and the pocket's key in it (shown only with pocket). */
function legend() {
  const swatch = (cls, text) => h("span", { class: "plab-key" }, h("i", { class: cls }), text);
  const node = h("div", { class: "plab-legend", "data-testid": "legend" },
    swatch("plab-k-plus", "+1"), swatch("plab-k-minus", "−1"), swatch("plab-k-wrong", "misclassified"),
    swatch("plab-k-current", "current example"), swatch("plab-k-cert", "certificate"),
    swatch("plab-k-line", "⟨w,x⟩ + b = 0"), swatch("plab-k-update", "update η·y·x"), swatch("plab-k-mm", "max margin"));
  const pocketKey = swatch("plab-k-pocket", "the pocket's w (at the end)");
  pocketKey.dataset.testid = "legend-pocket";
  node.append(pocketKey);
  return { legend: node, pocketKey };
}

/** Adding points: the label of new points (a tap cannot shift-click), and x, y from the keyboard. */
function addForm(state, act) {
  const labelButtons = [1, -1].map((label) => {
    const node = h("button", { type: "button", role: "radio", class: "plab-seg", "data-label": String(label), "aria-label": `new points labelled ${label > 0 ? "+1" : "−1"}` }, label > 0 ? "+1" : "−1");
    node.addEventListener("click", () => { state.newLabel = label; act.syncControls(); });
    return node;
  });
  const labelChoice = h("div", { class: "plab-labelchoice", role: "radiogroup", "aria-label": "Label of new points", "data-testid": "label-choice" }, labelButtons);
  const addX = h("input", { type: "text", inputmode: "decimal", size: "5", placeholder: "x", "aria-label": "x of a new point", "data-testid": "add-x" });
  const addY = h("input", { type: "text", inputmode: "decimal", size: "5", placeholder: "y", "aria-label": "y of a new point", "data-testid": "add-y" });
  const addMessage = h("span", { class: "plab-addmessage", "data-testid": "add-message", "aria-live": "polite" });
  const form = h("form", { class: "plab-addrow", "data-ctl": "edit", "aria-label": "Add a point" },
    h("span", { class: "plab-addlabel" }, "New point"), labelChoice, addX, addY,
    h("button", { type: "submit", class: "plab-btn plab-btn-small", "data-testid": "add-point" }, "Add"), addMessage);
  form.addEventListener("submit", (event) => { event.preventDefault(); act.addTyped(); });
  return { labelButtons, addX, addY, addMessage, addForm: form };
}

/** The setup panel: preset, order, η, ρ₀, snap, sweeps, seed, arithmetic, bias, pocket, band. */
function options(state, act) {
  const c = optionInputs(state, act);
  const clearPick = h("button", { type: "button", class: "plab-link", "data-testid": "clear-order", onclick: () => { state.sequence = []; act.changed(); } }, "clear");
  c.pickInfo = h("div", { class: "plab-pickinfo", "data-testid": "pick-info" });
  const field = (ctl, label, control, extra) => h("label", { class: "plab-field", "data-ctl": ctl }, h("span", {}, label), control, extra);
  c.optionsPanel = h("div", { class: "plab-panel plab-options" },
    h("div", { class: "plab-panel-title" }, "Setup"),
    h("div", { class: "plab-grid" },
      field("preset", "Preset", c.presetSelect),
      field("order", "Order", c.orderSelect),
      field("eta", "η", c.etaInput),
      field("rho0", "ρ₀ (margin)", c.rhoInput),
      field("snap", "Snap", c.snapSelect),
      field("settings", "Max sweeps", c.sweepsInput),
      field("settings", "Seed", c.seedInput),
      field("settings", "Arithmetic", c.arithSelect),
      h("label", { class: "plab-check", "data-ctl": "bias" }, c.biasBox, "bias (x₀ = 1)"),
      h("label", { class: "plab-check", "data-ctl": "pocket" }, c.pocketBox, "pocket"),
      h("label", { class: "plab-check", "data-ctl": "maxmargin" }, c.marginBox, "max-margin band")),
    h("div", { class: "plab-pick", "data-ctl": "order" }, c.pickInfo, clearPick));
  return c;
}

/** The setup panel's inputs, each wired to its option (or view setting). */
function optionInputs(state, act) {
  const on = (node, type, handler) => { node.addEventListener(type, () => handler(node)); return node; };
  const option = (key, read) => (node) => act.setOption(key, read(node));
  const choices = (pairs) => pairs.map(([value, text]) => h("option", { value }, text));
  return {
    presetSelect: on(h("select", { "data-testid": "preset", "aria-label": "Preset" },
      h("option", { value: "custom" }, "Your points"),
      Object.entries(PRESETS).map(([key, p]) => h("option", { value: key, title: p.about }, p.name))), "change", (node) => act.loadPreset(node.value)),
    orderSelect: on(h("select", { "data-testid": "order", "aria-label": "Order" }, choices([
      ["cyclic", "cyclic (x₁, x₂, …)"], ["shuffle", "shuffle every sweep"],
      ["random-mistake", "random mistake"], ["pick", "I pick the next point"]])), "change", option("order", (n) => n.value)),
    biasBox: on(h("input", { type: "checkbox", "data-testid": "bias" }), "change", option("fit_intercept", (n) => n.checked)),
    etaInput: on(h("input", { type: "text", inputmode: "decimal", size: "5", "data-testid": "eta", "aria-label": "η" }), "change", option("eta", (n) => n.value.trim())),
    rhoInput: on(h("input", { type: "text", inputmode: "decimal", size: "5", "data-testid": "rho0", "aria-label": "ρ₀" }), "change", option("margin", (n) => n.value.trim())),
    pocketBox: on(h("input", { type: "checkbox", "data-testid": "pocket" }), "change", option("pocket", (n) => n.checked)),
    snapSelect: on(h("select", { "data-testid": "snap", "aria-label": "Snap to grid" }, choices([["1", "integers"], ["0.5", "halves"], ["0", "off"]])),
      "change", (node) => { state.snap = node.value; act.writeHash(); }),
    marginBox: on(h("input", { type: "checkbox", "data-testid": "show-margin" }),
      "change", (node) => { state.showMargin = node.checked; act.writeHash(); act.render(); }),
    sweepsInput: on(h("input", { type: "number", min: "1", max: "1000", "data-testid": "max-sweeps", "aria-label": "max sweeps" }), "change", option("max_sweeps", (n) => Number(n.value))),
    seedInput: on(h("input", { type: "number", min: "0", "data-testid": "seed", "aria-label": "seed" }), "change", option("seed", (n) => Number(n.value))),
    arithSelect: on(h("select", { "data-testid": "arithmetic", "aria-label": "arithmetic" }, choices([["auto", "auto"], ["exact", "exact"], ["float", "float"]])),
      "change", option("arithmetic", (n) => n.value)),
  };
}

/** The classroom link: which controls to hide, and the link itself. */
function share(act) {
  const shareBoxes = Object.entries(HIDEABLE).map(([key, label]) => {
    const box = h("input", { type: "checkbox", value: key });
    box.addEventListener("change", () => act.renderShare());
    return h("label", { class: "plab-check" }, box, label);
  });
  const shareLink = h("input", { type: "text", readonly: true, class: "plab-sharelink", "data-testid": "share-link", "aria-label": "Classroom link" });
  const copyBtn = h("button", { type: "button", class: "plab-btn plab-btn-small", onclick: () => { shareLink.select(); navigator.clipboard?.writeText(shareLink.value).catch(() => {}); } }, "Copy");
  const sharePanel = h("details", { class: "plab-panel plab-share", "data-ctl": "share" },
    h("summary", {}, "Classroom link: hide controls"), h("div", { class: "plab-sharegrid" }, shareBoxes),
    h("div", { class: "plab-sharerow" }, shareLink, copyBtn));
  return { shareBoxes, shareLink, sharePanel };
}

/** Export: the current run as one HTML file that plays back without a server. */
function exportRow(act) {
  const snapshotMessage = h("span", { class: "plab-exportmessage", "data-testid": "snapshot-message", "aria-live": "polite" });
  const snapshotBtn = h("button", { type: "button", class: "plab-btn plab-btn-small", "data-testid": "save-snapshot",
    title: "The run as one HTML file: it plays back in any browser, without perceptronlab", onclick: () => act.saveSnapshot() }, "Save snapshot (HTML)");
  return { snapshotMessage, snapshotBtn, exportRow: h("div", { class: "plab-exportrow", "data-ctl": "export" }, snapshotBtn, snapshotMessage) };
}
