// perceptronlab · the lab page: the one entry point of its ES modules.
//
// The served page imports mountPage (page.js); the Jupyter widget loads this module's default
// export (anywidget's {render}); a snapshot file calls mountSnapshot. The modules:
//   state.js      the one state object and the pure functions that read it (the cursor, the view)
//   hash.js       URL state: the lab in the page's hash, both ways
//   view.js       the lab: the state's actions, wired to the controls, the pointer and the hash
//   controls.js   the lab's DOM, each control wired to an action   pointer.js  editing on the plane
//   lab-render.js drawing the state into the controls (reads it, never writes it)
//   edits.js      editing and loading points (pure)    cursor.js  the cursor and the player (pure)
//   hints.js      the texts about the controls (pure)
//   plane.js      drawing the plane        geometry.js  the plane's pure geometry
//   worksheet.js  the trace as a table and a CSV        plots.js  the squeeze and errors plots
//   backends.js   where answers come from: the lab server, the Jupyter kernel, a recorded run
//   data.js       a user's CSV or pasted points (pure)  data-panel.js  its panel
//   snapshot.js   a run as one HTML file (snapshot.html the template)
//   quiz.js       the self-test panel (questions from the lab server's api/quiz)
//   cards.js      the cards                             status.js  the status line (pure)
//   words.js      texts for people (pure)               presets.js  the presets (data)
//   dom.js, theme.js  small DOM helpers, the colours    widget.js  the anywidget entry
//
// No dependencies, no build step, no network beyond the lab's own endpoints (or the widget's model).

import { createLab, isTouchScreen } from "./view.js";
import { httpBackend, recordedBackend } from "./backends.js";
import { pageSnapshot, SNAPSHOT_HIDDEN } from "./snapshot.js";
import { createQuizPanel } from "./quiz.js";
import { render } from "./widget.js";

export { createLab } from "./view.js";
export { httpBackend, recordedBackend } from "./backends.js";
export { encodeHash, decodeHash, HIDEABLE } from "./hash.js";
export { pageWords } from "./words.js";

/** Mount the served page (page.js calls this); the lab is window.perceptronlab, the page's one global. */
export function mountPage(root) {
  const folder = new URL("./", import.meta.url);
  const lab = createLab(root, {
    backend: httpBackend("api/run"), useHash: true,
    snapshot: (state) => pageSnapshot(state, folder),
    extras: [() => createQuizPanel({ url: "api/quiz" }).node],
  });
  window.perceptronlab = lab;
  // the page's header speaks of the screen in hand: "Tap" on a touch screen
  const verb = document.querySelector("[data-testid=header-verb]");
  if (verb && isTouchScreen()) verb.textContent = "Tap";
  return lab;
}

/** Mount a snapshot file's recorded run (snapshot.html calls this): plays back, computes nothing. */
export function mountSnapshot(root, recorded) {
  const lab = createLab(root, {
    backend: recordedBackend(recorded), useHash: false,
    initial: { ...recorded, hidden: SNAPSHOT_HIDDEN },
  });
  window.perceptronlab = lab;
  return lab;
}

export default { render };
