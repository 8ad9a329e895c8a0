// The static site's engine: Pyodide (CPython in WebAssembly, loaded from the site's own pyodide/
// folder) running the package's own Python files (python/, listed in python/files.json), which
// need only the standard library. compute(payload) answers exactly what POST /api/run answers.

/** A refused input: the lab's one-line message (what, expected, got, how to fix). */
export class InputFailure extends Error {
  constructor(message) { super(message); this.name = "InputFailure"; this.kind = "input"; }
}

/** The Python that turns a JSON request into the answer: the server's own parse_body and compute. */
export const ENTRY = `
import json
from perceptronlab.exceptions import InputError
from perceptronlab.web.lab import compute
from perceptronlab.web.request import parse_body

def answer(body):
    try:
        return json.dumps({"result": compute(parse_body(body.encode()))}, separators=(",", ":"), allow_nan=False)
    except InputError as exc:
        return json.dumps({"error": str(exc)})

answer
`;

/** The folder a file of `path` ("a/b/c.py") needs: ["a", "a/b"]. */
export function parents(path) {
  const parts = path.split("/").slice(0, -1);
  return parts.map((_, i) => parts.slice(0, i + 1).join("/"));
}

/** Read the JSON text Python wrote: the answer, or an InputFailure to throw. */
export function unwrap(text) {
  const out = JSON.parse(text);
  if (typeof out.error === "string") throw new InputFailure(out.error);
  return out.result;
}

/** Load Pyodide and the package's files from `base` (the site's root URL); resolves to {compute, seconds}. */
export async function loadEngine(base) {
  const started = performance.now();
  const { loadPyodide } = await import(new URL("pyodide/pyodide.mjs", base).href);
  const pyodide = await loadPyodide({ indexURL: new URL("pyodide/", base).href });
  const files = await (await fetch(new URL("python/files.json", base))).json();
  const root = "/perceptronlab-site";
  const made = new Set();
  await Promise.all(files.map(async (path) => {
    const bytes = new Uint8Array(await (await fetch(new URL(`python/${path}`, base))).arrayBuffer());
    for (const folder of [root, ...parents(path).map((p) => `${root}/${p}`)]) {
      if (!made.has(folder)) { made.add(folder); try { pyodide.FS.mkdir(folder); } catch (_) { /* exists */ } }
    }
    pyodide.FS.writeFile(`${root}/${path}`, bytes);
  }));
  pyodide.runPython(`import sys; sys.path.insert(0, "${root}")`);
  const answer = pyodide.runPython(ENTRY);
  const seconds = (performance.now() - started) / 1000;
  return {
    seconds,
    async compute(payload) { return unwrap(answer(JSON.stringify(payload))); },
  };
}
