// The lab's texts about its own controls: pure functions of the one state object (no DOM).
// Unit-tested with node --test (tests/js/hints.test.mjs).

/** The picked order in words ("" when the order is not picked). */
export function pickText(state, touch) {
  if (state.options.order !== "pick") return "";
  const verb = touch ? "tap" : "click";
  const order = state.sequence.length ? state.sequence.map((i) => `x${i + 1}`).join(" → ") : `${verb} the points in the order to visit them`;
  const rest = state.sequence.length && state.sequence.length < state.points.length ? " → the rest in their order" : "";
  return `Your order: ${order}${rest}`;
}

/** What a click (or tap) on the plane does ("" when the points cannot be edited). */
export function hintText(state, touch) {
  if (state.hidden.has("edit")) return "";
  const sign = state.newLabel > 0 ? "+1" : "−1", other = state.newLabel > 0 ? "−1" : "+1";
  const onPoint = state.options.order === "pick" ? "a point: add it to (or remove it from) your order" : "a point: flip its label";
  return touch ? `Tap: add a point labelled ${sign} (choose above) · tap ${onPoint} · long-press a point: delete · or type x and y`
    : `Click: add ${sign} (shift-click: ${other}) · click ${onPoint} · right-click or long-press: delete · or type x and y`;
}

/** The label beside the scrubber. */
export function stepText(state, all) {
  return state.result ? `step ${state.step} / ${all}` : "step 0 / 0";
}

/** The line after a snapshot was saved: its file name and size. */
export function savedText(html) {
  return `Saved perceptron-run.html (${Math.ceil(html.length / 1024).toLocaleString("en-US")} kB): open it in any browser.`;
}

/** The line when no snapshot could be written. */
export function unsavedText(failure) {
  return `No snapshot: ${failure && failure.message ? failure.message : failure}.`;
}
