// A run as a self-contained HTML file: the lab page's modules, its CSS and the recorded answer in
// one file (snapshot.html is the template) that plays back from disk, without a server.
// The pure parts (recording, moduleSources, snapshotHtml) are unit-tested (tests/js/snapshot.test.mjs);
// perceptronlab/web/snapshot.py fills the same template for the Jupyter widget.

import { payload } from "./state.js";

/** Import lines of the page's modules (the form web/bundle.py reads): the file each one names. */
const IMPORT_LINE = /^(?:import|export)\s*\{[^}]*\}\s*from\s*"\.\/([\w.-]+\.js)";\s*$/gm;

/** Controls a snapshot hides: it plays back one recorded run and computes nothing. */
export const SNAPSHOT_HIDDEN = Object.freeze(["preset", "order", "bias", "eta", "rho0", "pocket", "snap",
  "settings", "edit", "share", "data", "quiz", "export"]);

/** What a snapshot holds of the lab: its input, its view, and the whole answer. */
export function recording(state) {
  return {
    points: state.points.map((p) => ({ ...p })), options: { ...state.options }, sequence: [...state.sequence],
    snap: state.snap, showMargin: state.showMargin, step: state.step, payload: payload(state), result: state.result,
  };
}

/** The modules `entry` needs, read by `readText(name)`: {sources: {name: text}, order} (each after those it imports). */
export async function moduleSources(entry, readText) {
  const sources = {};
  const order = [];
  async function visit(name) {
    if (name in sources) return;
    sources[name] = null;
    const text = await readText(name);
    sources[name] = text;
    for (const match of text.matchAll(IMPORT_LINE)) await visit(match[1]);
    order.push(name);
  }
  await visit(entry);
  return { sources, order };
}

/** JSON that can stand inside a <script> element (no "</script>", no "<!--"). */
export function scriptJson(value) {
  return JSON.stringify(value).replace(/</g, "\\u003c");
}

/** The snapshot's HTML: `template` (snapshot.html) filled with the CSS, the modules and the run. */
export function snapshotHtml(template, { css, sources, order, recorded, made }) {
  const values = {
    css: css.replace(/<\/style/gi, "<\\/style"),
    data: scriptJson({ order, sources, recorded }),
    made: made.replace(/[&<>"]/g, (ch) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" })[ch]),
  };
  return template.replace(/\{\{(\w+)\}\}/g, (whole, key) => (key in values ? values[key] : whole));
}

/** The served page's snapshot of `state`: its modules, CSS and template fetched from the page's own folder. */
export async function pageSnapshot(state, folder) {
  const read = async (name) => {
    const response = await fetch(new URL(name, folder));
    if (!response.ok) throw new Error(`${name}: the lab server answered ${response.status}`);
    return response.text();
  };
  const [{ sources, order }, css, template] = await Promise.all([moduleSources("lab.js", read), read("lab.css"), read("snapshot.html")]);
  return snapshotHtml(template, { css, sources, order, recorded: recording(state), made: "perceptronlab serve" });
}
