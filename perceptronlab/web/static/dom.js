// Small DOM helpers: elements, the buttons' icons, canvases at the screen's pixel ratio, downloads.

/** An element with attributes ("text", "class", "on…" handlers) and children. */
export function h(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (value === undefined || value === null || value === false) continue;
    if (key === "class") node.className = value;
    else if (key === "text") node.textContent = value;
    else if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
    else node.setAttribute(key, value === true ? "" : value);
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

// Button icons as inline SVG (no icon font, no emoji: they render the same everywhere).
const ICONS = {
  reset: "M5 4h2v16H5zM19 4v16L8 12z",
  step: "M6 4v16l10-8zM17 4h2v16h-2z",
  sweep: "M3 4v16l8-8zM11 4v16l8-8zM19 4h2v16h-2z",
  run: "M4 4v16l8-8zM12 4v16l8-8z",
  play: "M7 4v16l13-8z",
  pause: "M6 4h4v16H6zM14 4h4v16h-4z",
};

export function setButton(node, icon, label) {
  node.replaceChildren();
  const svg = document.createElementNS("http://www.w3.org/2000/svg", "svg");
  svg.setAttribute("viewBox", "0 0 24 24");
  svg.setAttribute("aria-hidden", "true");
  svg.classList.add("plab-icon");
  const path = document.createElementNS("http://www.w3.org/2000/svg", "path");
  path.setAttribute("d", ICONS[icon]);
  svg.append(path);
  node.append(svg, document.createTextNode(label));
}

/** The canvas's 2D context, sized for the screen's pixel ratio and cleared, in CSS pixels. */
export function setupCanvas(target, cssWidth, cssHeight) {
  const ratio = window.devicePixelRatio || 1;
  const width = Math.round(cssWidth * ratio), height = Math.round(cssHeight * ratio);
  if (target.width !== width || target.height !== height) { target.width = width; target.height = height; }
  const ctx = target.getContext("2d");
  ctx.setTransform(ratio, 0, 0, ratio, 0, 0);
  ctx.clearRect(0, 0, cssWidth, cssHeight);
  return ctx;
}

/** Save `text` as a file called `name` (a download link clicked once). */
export function download(text, name, type) {
  const blob = new Blob([text], { type });
  const link = h("a", { href: URL.createObjectURL(blob), download: name });
  document.body.append(link);
  link.click();
  setTimeout(() => { URL.revokeObjectURL(link.href); link.remove(); }, 0);
}
