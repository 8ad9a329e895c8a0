// The status line under the plane: what the cursor shows, in words. A pure function of the state
// (tests/js/status.test.mjs): {text} for plain text, {html} when it has emphasis (escaped inside).

import { view, traced } from "./state.js";
import { shortFloats, countText, escapeHtml } from "./words.js";

/** The status line of `state` (`touch`: the screen is tapped, not clicked). */
export function statusLine(state, touch) {
  const result = state.result;
  if (!state.points.length) return { text: touch ? "Tap in the plane to add points." : "Click in the plane to add points." };
  if (state.pending) return { text: state.pending };
  if (!result) {
    return {
      text: state.waiting ? "Computing…" : !state.error ? ""
        : state.errorKind === "input" ? "Nothing to show: fix the input named in the message above."
          : "Nothing to show: the lab server did not answer (see above). Press Retry once it runs again.",
    };
  }
  const v = view(state);
  const run = result.run;
  const step = state.step;
  const arithmetic = result.exact ? "exact fractions" : "floating point";
  if (step === 0) {
    return { html: `<b>w = ${escapeHtml(v.text)}</b> · ${countText(run.mistakes, "mistake")} in ${countText(run.sweeps, "sweep")} (${escapeHtml(run.state)}) · ${arithmetic}` };
  }
  if (v.final && step > traced(state)) {
    return { html: `<b>End of the whole run</b>: w = ${escapeHtml(result.exact ? run.w_text : shortFloats(run.w_text))} · ${escapeHtml(run.state)}` };
  }
  const s = run.steps;
  const j = step - 1;
  const verdict = s.mistake[j] ? `≤ ${escapeHtml(result.options.margin)} → <span class="plab-bad">mistake</span>, w ← w + η·y·x` : `> ${escapeHtml(result.options.margin)} → correct`;
  const short = result.exact ? (t) => t : shortFloats;
  let html = `Sweep ${s.sweep[j]}, x${s.index[j] + 1} (y = ${state.points[s.index[j]]?.label > 0 ? "+1" : "−1"}): y⟨w,x⟩ = ${escapeHtml(short(s.score_text[j]))} ${verdict} · <b>w = ${escapeHtml(short(v.text))}</b>`;
  if (v.final) html += ` · <span class="${run.converged ? "plab-good" : "plab-bad"}">${escapeHtml(run.state)}</span>`;
  return { html };
}
