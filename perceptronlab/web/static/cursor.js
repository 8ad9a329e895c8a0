// The cursor through an answer: pure functions on the one state object (no DOM). The lab
// (view.js) calls them and draws. Unit-tested with node --test (tests/js/cursor.test.mjs).

import { total, endOfSweep } from "./state.js";

/** `value` as a step the cursor can take: a whole number from 0 to total(state). */
export function clampStep(state, value) {
  return Math.max(0, Math.min(total(state), Math.round(value)));
}

/** Before asking again: the cursor follows the end if it was there, else it goes back to step 0. */
export function beforeChange(state) {
  state.followEnd = state.result !== null && state.step === total(state) && state.step > 0;
  if (!state.followEnd) state.step = 0;
}

/**
 * The back end's answer into the state: the run or the error (then the cursor is at 0). The step:
 * a link's step once, else the end if the cursor followed it, else where it was (within the run).
 * Returns whether it is an error (the player stops).
 */
export function applyAnswer(state, answer) {
  state.pending = "";
  state.waiting = false;
  if (answer.error) {
    state.error = answer.error;
    state.errorKind = answer.kind || "input";
    state.result = null;
    state.step = 0;
    return true;
  }
  const wasAtEnd = state.followEnd;
  state.error = "";
  state.errorKind = "";
  state.result = answer.result;
  if (state.pendingStep !== null) { state.step = Math.min(state.pendingStep, total(state)); state.pendingStep = null; }
  else if (wasAtEnd) state.step = total(state);
  else state.step = Math.min(state.step, total(state));
  return false;
}

/**
 * What a key does to the cursor: {step} (where to go), {toggle: true} (play or pause), or null.
 * → one step, Shift+→ the end of the sweep, ← back one, Home the start, End the end, Space play.
 */
export function keyAction(state, key, shiftKey) {
  if (key === "ArrowRight") return { step: shiftKey ? endOfSweep(state, state.step) : state.step + 1 };
  if (key === "ArrowLeft") return { step: state.step - 1 };
  if (key === "Home") return { step: 0 };
  if (key === "End") return { step: total(state) };
  if (key === " ") return { toggle: true };
  return null;
}

/** The player's clock: steps owed at `speed` steps a second, counted from frame to frame. */
export function createClock() {
  return { lastFrame: 0, carry: 0 };
}

/** The whole steps to advance at frame time `now` (ms); the fraction is kept for the next frame. */
export function tick(clock, now, speed) {
  if (clock.lastFrame) clock.carry += ((now - clock.lastFrame) / 1000) * speed;
  clock.lastFrame = now;
  if (clock.carry < 1) return 0;
  const advance = Math.floor(clock.carry);
  clock.carry -= advance;
  return advance;
}
