// The worksheet: the trace's rows up to the cursor, as the log table shows them and the CSV holds them.
// logRows and worksheetCsv are pure (tests/js/worksheet.test.mjs); createWorksheet draws the table.

import { h, download } from "./dom.js";
import { csvField, shortFloats, escapeHtml } from "./words.js";
import { total, traced } from "./state.js";

/** Rows shown in the table (earlier ones are counted, and all are in the CSV). */
export const LOG_WINDOW = 200;
export const CSV_HEADER = "sweep,point,score,mistake,w_after";

function stepRow(result, j) {
  const s = result.run.steps;
  return [String(s.sweep[j]), `x${s.index[j] + 1}`, s.score_text[j], s.mistake[j] ? "yes" : "no", result.run.weights.text[s.updates[j]]];
}

/** The worksheet up to step `upto`; at the end exactly as Run.worksheet_rows() writes it. */
export function logRows(state, upto) {
  const result = state.result;
  if (!result) return [];
  const log = result.run.log;
  const atEnd = upto >= total(state) && result.run.complete;
  const last = atEnd && log.collapse_from !== null ? log.collapse_from : Math.min(upto, traced(state));
  const rows = [];
  for (let j = 0; j < last; j++) rows.push(stepRow(result, j));
  if (atEnd && log.final_row) rows.push(log.final_row);
  return rows;
}

/** The whole worksheet as CSV text (a header line, one line per row, a final line break). */
export function worksheetCsv(rows) {
  return [CSV_HEADER, ...rows.map((r) => r.map(csvField).join(","))].join("\n") + "\n";
}

/** The worksheet panel: {node, render()} over the lab's state. */
export function createWorksheet(state) {
  const body = h("tbody");
  const table = h("table", { class: "plab-log", "data-testid": "log-table" },
    h("thead", {}, h("tr", {}, ["sweep", "point", "y⟨w,x⟩", "mistake?", "w after"].map((t) => h("th", {}, t)))), body);
  const downloadBtn = h("button", {
    type: "button", class: "plab-btn plab-btn-small", "data-testid": "download-csv",
    onclick: () => { if (state.result) download(worksheetCsv(logRows(state, total(state))), "perceptron-worksheet.csv", "text/csv"); },
  }, "Download CSV");
  const node = h("div", { class: "plab-panel", "data-ctl": "log" },
    h("div", { class: "plab-panel-title" }, "Worksheet", downloadBtn), h("div", { class: "plab-logscroll" }, table));
  let lastHtml = "";

  function render() {
    const rows = logRows(state, state.step);
    const shown = rows.slice(Math.max(0, rows.length - LOG_WINDOW));
    const html = [];
    if (rows.length > shown.length) {
      html.push(`<tr class="plab-more"><td colspan="5">… ${rows.length - shown.length} earlier rows (in the CSV)</td></tr>`);
    }
    const short = state.result && !state.result.exact ? shortFloats : (t) => t;
    shown.forEach((row, i) => {
      const cls = row[3] === "yes" ? "plab-yes" : row[4] === "stop" ? "plab-stop" : "";
      const current = i === shown.length - 1 && state.step > 0 ? " plab-current" : "";
      html.push(`<tr class="${cls}${current}">${row.map((c) => `<td>${escapeHtml(short(c))}</td>`).join("")}</tr>`);
    });
    const text = html.join("");
    if (text !== lastHtml) { body.innerHTML = text; lastHtml = text; }
    downloadBtn.disabled = !state.result;
  }

  return { node, render };
}
