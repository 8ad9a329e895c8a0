// The static site's page (perceptronlab site DIR): the lab computing with the package's own Python
// engine in the page (engine.js, pyodideBackend); no server beyond the static files.
//
// window.perceptronlab is the lab, plus the embedding API:
//   ready            a Promise, resolved when the engine has loaded (rejected if it cannot load)
//   compute(payload) a Promise of exactly the JSON that POST /api/run of perceptronlab serve answers
import { createLab, isTouchScreen } from "./view.js";
import { pyodideBackend, LOADING_RUNTIME } from "./backends.js";
import { loadEngine } from "./engine.js";
import { pageSnapshot } from "./snapshot.js";

/** Mount the static site's lab on `root`; `base` is the site's root URL. */
export function mountSite(root, base, status) {
  const engine = loadEngine(base);
  const folder = new URL("./", import.meta.url);
  const lab = createLab(root, {
    backend: pyodideBackend(engine), useHash: true,
    snapshot: (state) => pageSnapshot(state, folder),
  });
  lab.ready = engine.then(() => undefined);
  lab.compute = (payload) => engine.then((e) => e.compute(payload));
  window.perceptronlab = lab;
  if (status) {
    status.textContent = LOADING_RUNTIME;
    engine.then(
      (e) => { status.textContent = `The lab's Python engine runs in this page (loaded in ${e.seconds.toFixed(1)} s): no server.`; },
      (failure) => { status.textContent = `The lab's Python engine could not load: ${failure && failure.message ? failure.message : failure}. Serve this folder over HTTP (python -m http.server).`; },
    );
  }
  const verb = document.querySelector("[data-testid=header-verb]");
  if (verb && isTouchScreen()) verb.textContent = "Tap";
  return lab;
}

mountSite(document.getElementById("lab"), new URL("../", import.meta.url), document.querySelector("[data-testid=runtime]"));
