// The lab's one state object and the pure functions that read it.
//
// Input (what the back end computes from): points, options, sequence. View: snap, showMargin,
// hidden, preset, newLabel, extent. The answer: result (the whole run, every step), error,
// errorKind, pending, waiting. The cursor: step, pendingStep, followEnd. The player: playing, speed.
// Only the lab (view.js, through edits.js and cursor.js) writes it; drawing, the worksheet and the
// plots read it.
// Pure functions: unit-tested with node --test (tests/js/state.test.mjs).

import { DEFAULT_OPTIONS } from "./hash.js";
import { examTask, matchPreset } from "./presets.js";
import { viewExtent } from "./geometry.js";

/** The state of a new lab: `initial` (from a link, the widget or a snapshot) or the exam task. */
export function createState(initial) {
  const points = initial ? initial.points.map((p) => ({ ...p })) : examTask();
  return {
    points,
    options: initial ? { ...DEFAULT_OPTIONS, ...initial.options } : { ...DEFAULT_OPTIONS },
    sequence: initial && initial.sequence ? [...initial.sequence] : [],
    snap: initial && initial.snap ? initial.snap : "1",
    showMargin: initial ? initial.showMargin !== false : true,
    hidden: initial && initial.hidden ? new Set(initial.hidden) : new Set(),
    preset: matchPreset(points),
    newLabel: 1,
    extent: viewExtent(points),
    result: null,
    error: "",
    errorKind: "",
    pending: "",
    waiting: false,
    step: 0,
    pendingStep: initial && initial.step ? initial.step : null,
    followEnd: false,
    playing: false,
    speed: 4,
  };
}

/** What the back end receives: {points: [[x, y], …], labels, options (with the picked order)}. */
export function payload(state) {
  const options = { ...state.options };
  options.sequence = options.order === "pick" ? state.sequence.filter((i) => i < state.points.length) : [];
  return { points: state.points.map((p) => [p.x, p.y]), labels: state.points.map((p) => p.label), options };
}

/** The steps the cursor can take: every traced step, and one more for the end of a run traced in part. */
export function total(state) {
  if (!state.result) return 0;
  const count = state.result.run.steps.count;
  return count + (state.result.run.complete ? 0 : 1);
}

/** The steps traced one by one. */
export function traced(state) {
  return state.result ? state.result.run.steps.count : 0;
}

/** The step at the end of the sweep that step `from` is in. */
export function endOfSweep(state, from) {
  if (!state.result) return 0;
  const sweeps = state.result.run.steps.sweep;
  if (from >= traced(state)) return total(state);
  const current = sweeps[from];
  let k = from;
  while (k < sweeps.length && sweeps[k] === current) k += 1;
  return k;
}

/**
 * What the cursor shows: the weights after `state.step` steps ({k, w, b, text, wrong}), the example
 * just checked (current, mistake, score), the weights before its update (previous), final.
 */
export function view(state) {
  const result = state.result;
  if (!result) return null;
  const step = state.step;
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
    final: step === total(state),
  };
}

/** The sweeps finished at the cursor (for the errors-per-sweep plot). */
export function completedSweeps(state) {
  const result = state.result;
  if (!result) return 0;
  const v = view(state);
  if (v && v.final) return result.plots.errors.length;
  const step = state.step;
  if (step === 0) return 0;
  const sweeps = result.run.steps.sweep;
  return sweeps[step - 1] - (step < sweeps.length && sweeps[step] === sweeps[step - 1] ? 1 : 0);
}
