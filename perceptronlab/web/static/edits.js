// Editing the lab's points and loading new ones: pure functions on the one state object (no DOM).
// The lab (view.js) calls them, then asks the back end again. Unit-tested with node --test
// (tests/js/edits.test.mjs).

import { DEFAULT_OPTIONS } from "./hash.js";
import { matchPreset } from "./presets.js";
import { viewExtent } from "./geometry.js";

/** The points are the user's own now: no preset, and the view grows to show them all. */
export function markCustom(state) {
  state.preset = "custom";
  const grown = viewExtent(state.points);
  if (grown > state.extent) state.extent = grown;
}

/** A new point, unless one is already there: {added, message} (the line for the keyboard form). */
export function addPoint(state, point) {
  const at = state.points.findIndex((p) => p.x === point.x && p.y === point.y);
  if (at >= 0) return { added: false, message: `x${at + 1} is already at (${point.x}, ${point.y}).` };
  state.points.push(point);
  markCustom(state);
  return { added: true, message: `Added x${state.points.length} = (${point.x}, ${point.y}), label ${point.label > 0 ? "+1" : "−1"}.` };
}

/** Delete point `index`; the picked order forgets it and renumbers the points after it. */
export function deletePoint(state, index) {
  state.points.splice(index, 1);
  state.sequence = state.sequence.filter((i) => i !== index).map((i) => (i > index ? i - 1 : i));
  markCustom(state);
}

/** A click on point `index`: in the picked order, add it to (or remove it from) the order; else flip its label. */
export function clickPoint(state, index) {
  if (state.options.order === "pick") {
    const at = state.sequence.indexOf(index);
    if (at >= 0) state.sequence.splice(at, 1); else state.sequence.push(index);
  } else {
    state.points[index] = { ...state.points[index], label: -state.points[index].label };
  }
  markCustom(state);
}

/** New points (a preset, a user's data): the view fits them and the run restarts at step 0. */
export function loadPoints(state, points, preset) {
  state.points = points.map((p) => ({ ...p }));
  state.sequence = [];
  state.preset = preset || matchPreset(state.points);
  state.followEnd = false;
  state.step = 0;
  state.extent = viewExtent(state.points);
}

/** A link's state (decodeHash's) in place of the lab's: its step is taken once its answer comes. */
export function loadLink(state, incoming) {
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
}
