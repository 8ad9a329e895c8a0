// Back ends: where the lab's answers come from. Each has submit(payload, deliver); answers reach
// `deliver` as {result}, {error, kind} or {pending}. httpBackend asks `perceptronlab serve`,
// modelBackend the Jupyter kernel through the anywidget model, recordedBackend a snapshot's run,
// pyodideBackend the package's own Python engine running in the page (the static site).

import { pageWords } from "./words.js";
import { sameOptions } from "./hash.js";

/**
 * Compute through the HTTP endpoint of `perceptronlab serve`.
 *
 * Answers reach `deliver` as {result}, {error, kind} or {pending}: kind "input" for a request the
 * lab refuses (422, 413: the message names the input), "server" for a server that answered with a
 * failure, "network" for no answer at all. A busy server (503) is asked again after its
 * Retry-After, up to three times, with {pending} meanwhile. A newer request aborts the older one
 * (the server then drops or stops its work).
 */
export function httpBackend(url = "api/run") {
  let latest = 0;
  let inflight = null;
  return {
    submit(payload, deliver) {
      const ticket = ++latest;
      if (inflight) inflight.abort();
      const controller = typeof AbortController === "undefined" ? null : new AbortController();
      inflight = controller;
      const body = JSON.stringify(payload);
      const attempt = (tries) => {
        fetch(url, { method: "POST", headers: { "Content-Type": "application/json" }, body, signal: controller ? controller.signal : undefined })
          .then(async (response) => {
            let answer = null;
            try { answer = await response.json(); } catch (_) { answer = null; }
            if (ticket !== latest) return;
            const detail = answer && typeof answer.detail === "string" ? answer.detail : "";
            if (response.status === 503 && tries < 3) {
              const wait = Math.min(30, Math.max(1, Number(response.headers.get("Retry-After")) || 1));
              deliver({ pending: `The lab server is busy; asking again in ${wait} s.` });
              setTimeout(() => { if (ticket === latest) attempt(tries + 1); }, wait * 1000);
              return;
            }
            if (inflight === controller) inflight = null;
            if (response.ok && answer) deliver({ result: answer });
            else if (response.status === 422 || response.status === 413) deliver({ error: pageWords(detail) || `The lab refused the input (${response.status}).`, kind: "input" });
            else deliver({ error: `The lab server answered ${response.status} ${response.statusText}${detail ? `: ${detail}` : "."}`, kind: "server" });
          })
          .catch((failure) => {
            if (failure && failure.name === "AbortError") return;
            if (ticket !== latest) return;
            if (inflight === controller) inflight = null;
            deliver({ error: `No answer from the lab server (${failure && failure.message ? failure.message : failure}). Is perceptronlab serve still running?`, kind: "network" });
          });
      };
      attempt(0);
    },
  };
}

/** A coordinate as Python's widget sends it (a number, or exact text such as "1/2" or "0.1"). */
export function modelNumber(value) {
  if (typeof value === "string" && value.includes("/")) {
    const [numerator, denominator] = value.split("/");
    return Number(numerator) / Number(denominator);
  }
  return Number(value);
}

/**
 * Compute through the anywidget model. The page sets points/labels/options and a new request_id;
 * the Python side computes and answers by setting result/error and answered_id = request_id.
 */
export function modelBackend(model) {
  let deliverTo = null;
  let waitingFor = null;
  // true while submit() sets the model: each model.set fires its change event at once, and the
  // widget must not take a half-written request (new points, old labels) for a change from Python
  let writing = false;
  // true while the page takes in a change made in Python: it shows Python's answer and writes
  // nothing back (points and labels may come in separate messages; the next one is on its way)
  let adopting = false;
  const current = () => {
    const error = model.get("error");
    if (error) return { error, kind: "input" };
    const result = model.get("result");
    return result && result.run ? { result } : null;
  };
  model.on("change:answered_id", () => {
    if (!deliverTo || model.get("answered_id") !== waitingFor) return;
    const answer = current();
    if (answer) deliverTo(answer);
  });
  return {
    submit(payload, deliver) {
      deliverTo = deliver;
      if (adopting) {
        const answer = current();
        if (answer) deliver(answer);
        return;
      }
      // Python's exact coordinates ("1/2") stay as Python wrote them unless the page moved the point
      const before = model.get("points") || [];
      const exact = new Map(before.map((p) => [p.map(modelNumber).join(","), p]));
      const points = payload.points.map((p) => exact.get(p.join(",")) || p);
      const unchanged = JSON.stringify(before) === JSON.stringify(points)
        && JSON.stringify(model.get("labels")) === JSON.stringify(payload.labels)
        && sameOptions(model.get("options"), payload.options);
      const answer = current();
      if (unchanged && answer) { deliver(answer); return; }
      waitingFor = (model.get("request_id") || 0) + 1;
      writing = true;
      try {
        model.set("points", points);
        model.set("labels", payload.labels);
        model.set("options", payload.options);
        model.set("request_id", waitingFor);
      } finally {
        writing = false;
      }
      model.save_changes();
    },
    get writing() { return writing; },
    adopt(change) {
      adopting = true;
      try { change(); } finally { adopting = false; }
    },
  };
}

/**
 * A snapshot's back end: the recorded answer for the recorded input, and for any other input a
 * message that a snapshot only plays back (it has no engine to compute with).
 */
export function recordedBackend(recorded) {
  const key = (payload) => JSON.stringify([payload.points, payload.labels]);
  return {
    submit(payload, deliver) {
      if (key(payload) === key(recorded.payload) && sameOptions(payload.options, recorded.payload.options)) {
        deliver({ result: recorded.result });
      } else {
        deliver({ error: "This snapshot plays back the run it recorded; to change the points or the options, open the lab (perceptronlab serve).", kind: "input" });
      }
    },
  };
}

/** The words while the page's own Python runtime loads (the static site's first seconds). */
export const LOADING_RUNTIME = "Loading the lab's Python engine into this page (Pyodide, about 14 MB, once)…";

/**
 * Compute in the page: `engine` is a Promise of {compute(payload) -> Promise of the answer} (the
 * package's own web/lab.py in Pyodide, see site.js). Until it has loaded, {pending} says so; an
 * answer that is an Error with kind "input" is the lab's one-line message for a refused input.
 */
export function pyodideBackend(engine) {
  let latest = 0;
  let loaded = false;
  engine.then(() => { loaded = true; }, () => {});
  return {
    submit(payload, deliver) {
      const ticket = ++latest;
      if (!loaded) deliver({ pending: LOADING_RUNTIME });
      engine
        .then((lab) => lab.compute(payload))
        .then((result) => { if (ticket === latest) deliver({ result }); })
        .catch((failure) => {
          if (ticket !== latest) return;
          const message = failure && failure.message ? failure.message : String(failure);
          if (failure && failure.kind === "input") deliver({ error: pageWords(message), kind: "input" });
          else deliver({ error: `The lab's engine in this page failed: ${message}`, kind: "server" });
        });
    },
  };
}
