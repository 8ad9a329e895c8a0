// Texts for people: the server's messages in the page's words, numbers as the page shows them.
// Pure functions (no DOM): unit-tested with node --test (tests/js/words.test.mjs).

/** Coordinates as the page sends them: shortest round-trip decimals. */
export function numberText(value) {
  return String(value);
}

/** Floats on screen to 6 significant digits (the CSV keeps the engine's shortest round-trip repr). */
export function shortFloats(text) {
  return String(text).replace(/-?\d+\.\d{5,}(e[-+]?\d+)?/g, (m) => String(Number(Number(m).toPrecision(6))));
}

/**
 * The server's messages in the page's words: points by their x-names (x1 … xn, never 0-based
 * indices), options by their labels on the page. (The Jupyter widget shows the kernel's own
 * message, lab.error, word for word: its user sets the options in Python.)
 */
export function pageWords(message) {
  return String(message)
    .replace(/points\[(\d+)\]\[([01])\]/g, (_, i, j) => `x${Number(i) + 1} (its ${j === "0" ? "first" : "second"} coordinate)`)
    .replace(/points\[(\d+)\]/g, (_, i) => `x${Number(i) + 1}`)
    .replace(/labels\[(\d+)\]/g, (_, i) => `the label of x${Number(i) + 1}`)
    .replace(/^options\.margin \(rho0\)|^options\.margin/, "ρ₀")
    .replace(/^options\.eta/, "η")
    .replace(/^options\.max_sweeps/, "Max sweeps")
    .replace(/^options\.seed/, "Seed")
    .replace(/^options\.arithmetic/, "Arithmetic");
}

/** One CSV field, quoted when it holds a comma, a quote or a line break. */
export function csvField(text) {
  return /[",\n\r]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** "1 mistake", "1,234 sweeps": counts written one way (as format_count writes them in Python). */
export function countText(n, word) {
  return `${n.toLocaleString("en-US")} ${word}${n === 1 ? "" : "s"}`;
}

export function escapeHtml(text) {
  return String(text).replace(/[&<>"]/g, (ch) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" })[ch]);
}

/** "1.5", "-2", "1/2": the number the page stores (a fraction becomes its decimal value), or null. */
export function readNumber(text) {
  const value = String(text).trim();
  const parts = value.split("/");
  if (parts.length === 2 && parts.every((t) => /^\s*-?\d+(\.\d+)?\s*$/.test(t)) && Number(parts[1]) !== 0) {
    return Number(parts[0]) / Number(parts[1]);
  }
  return value !== "" && Number.isFinite(Number(value)) ? Number(value) : null;
}

/** Tick labels of the plots: whole numbers past 100, three significant digits below. */
export function formatTick(value) {
  return Math.abs(value) >= 100 ? value.toFixed(0) : Number(value.toPrecision(3)).toString();
}
