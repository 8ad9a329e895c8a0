// The anywidget entry: the lab inside a Jupyter notebook, computed by the kernel (the Lab widget of
// perceptronlab/web/widget.py, which bundles these modules into the one ES module anywidget loads).

import { createLab } from "./view.js";
import { DEFAULT_OPTIONS, sameOptions } from "./hash.js";
import { modelBackend, modelNumber } from "./backends.js";
import { recording } from "./snapshot.js";

/** The kernel writes the snapshot (it has the page's modules as files): ask it, await its answer. */
function kernelSnapshot(model, state) {
  return new Promise((resolve, reject) => {
    const answer = (message) => {
      if (!message || message.type !== "snapshot") return;
      model.off("msg:custom", answer);
      if (message.error) reject(new Error(message.error)); else resolve(message.html);
    };
    model.on("msg:custom", answer);
    model.send({ type: "snapshot", recorded: recording(state) });
  });
}

export function render({ model, el }) {
  const modelPoints = () => (model.get("points") || []).map(([x, y], i) => ({ x: modelNumber(x), y: modelNumber(y), label: (model.get("labels") || [])[i] < 0 ? -1 : 1 }));
  const points = modelPoints();
  const options = { ...DEFAULT_OPTIONS, ...(model.get("options") || {}) };
  const hidden = new Set(model.get("hidden") || []);
  const backend = modelBackend(model);
  el.classList.add("plab-widget");  // lab.css sizes the widget by its own width, not the window's
  const lab = createLab(el, {
    backend,
    useHash: false,
    snapshot: (state) => kernelSnapshot(model, state),
    initial: { points, options, sequence: options.sequence || [], snap: "1", showMargin: true, hidden },
  });
  const fromPython = () => {
    if (backend.writing) return;
    const incoming = modelPoints();
    const current = lab.state.points;
    const same = incoming.length === current.length && incoming.every((p, i) => p.x === current[i].x && p.y === current[i].y && p.label === current[i].label);
    if (!same) backend.adopt(() => lab.setPoints(incoming));
  };
  const optionsFromPython = () => {
    if (backend.writing) return;
    const incoming = { ...DEFAULT_OPTIONS, ...(model.get("options") || {}) };
    const { sequence: _sequence, ...rest } = incoming;
    if (!sameOptions(rest, lab.state.options)) backend.adopt(() => lab.setOptions(rest));
  };
  model.on("change:points", fromPython);
  model.on("change:labels", fromPython);
  model.on("change:options", optionsFromPython);
  return () => {
    model.off("change:points", fromPython);
    model.off("change:labels", fromPython);
    model.off("change:options", optionsFromPython);
  };
}
