// Drawing the one state object into the lab's controls (controls.js built them): it reads the
// state and never writes it.

import { total } from "./state.js";
import { drawPlane } from "./plane.js";
import { statusLine } from "./status.js";
import { pickText, hintText, stepText } from "./hints.js";

/** The status line (it may carry a link: then as HTML). */
export function renderStatus(ui, state, touch) {
  const line = statusLine(state, touch);
  if (line.html !== undefined) ui.status.innerHTML = line.html;
  else ui.status.textContent = line.text;
}

/** The play speed's label. */
export function renderSpeed(ui, state) {
  ui.speedLabel.textContent = `${state.speed} steps/s`;
}

/**
 * The setup's controls as the state says (an input being typed in keeps its text), the hidden
 * controls, the picked order, the hint and the label of new points.
 *
 * @param {{root: HTMLElement, touch: boolean, useHash: boolean, canSnapshot: boolean}} env
 */
export function syncControls(ui, state, env) {
  if (ui.presetSelect.value !== state.preset) ui.presetSelect.value = state.preset;
  ui.orderSelect.value = state.options.order;
  ui.biasBox.checked = !!state.options.fit_intercept;
  if (document.activeElement !== ui.etaInput) ui.etaInput.value = String(state.options.eta);
  if (document.activeElement !== ui.rhoInput) ui.rhoInput.value = String(state.options.margin);
  ui.pocketBox.checked = !!state.options.pocket;
  ui.snapSelect.value = state.snap;
  ui.marginBox.checked = state.showMargin;
  ui.sweepsInput.value = String(state.options.max_sweeps);
  ui.seedInput.value = String(state.options.seed);
  ui.arithSelect.value = state.options.arithmetic;
  for (const node of env.root.querySelectorAll("[data-ctl]")) {
    node.hidden = state.hidden.has(node.dataset.ctl) || (node === ui.sharePanel && !env.useHash) || (node === ui.exportRow && !env.canSnapshot);
  }
  const pick = state.options.order === "pick";
  ui.pickInfo.parentElement.style.display = pick && !state.hidden.has("order") ? "" : "none";
  ui.pickInfo.textContent = pickText(state, env.touch);
  ui.hint.textContent = hintText(state, env.touch);
  for (const node of ui.labelButtons) {
    const on = Number(node.dataset.label) === state.newLabel;
    node.setAttribute("aria-checked", on ? "true" : "false");
    node.classList.toggle("plab-on", on);
  }
  ui.pocketKey.hidden = !state.options.pocket;
  ui.cards.render();  // the mistakes card is "Updates" with pocket
}

/**
 * The cursor's controls, the error and the note, then the plane, the cards, the worksheet, the
 * plots and the status line.
 *
 * @param {{touch: boolean, planeSize: Function, cssWidth: Function}} env
 */
export function render(ui, state, env) {
  const all = total(state);
  ui.scrubber.max = String(all);
  ui.scrubber.value = String(state.step);
  ui.stepLabel.textContent = stepText(state, all);
  for (const b of [ui.stepBtn, ui.sweepBtn, ui.runBtn, ui.playBtn, ui.resetBtn, ui.snapshotBtn]) b.disabled = !state.result;
  ui.errorBox.hidden = !state.error;
  ui.errorBox.dataset.kind = state.errorKind;
  ui.errorText.textContent = state.error;
  ui.retryBtn.hidden = !state.error || state.errorKind === "input";
  ui.note.hidden = !(state.result && state.result.limits.note);
  ui.note.textContent = state.result ? state.result.limits.note : "";
  drawPlane(ui.canvas, state, env.planeSize());
  ui.cards.render();
  ui.worksheet.render();
  ui.plots.render((target) => env.cssWidth(target, 260));
  renderStatus(ui, state, env.touch);
}
