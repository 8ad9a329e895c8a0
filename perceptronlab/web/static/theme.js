// The page's colours on the canvases (lab.css holds the same ones for the legend).
export const PLUS = "#2563eb";
export const MINUS = "#ea580c";
export const WRONG = "#dc2626";
export const UPDATE = "#16a34a";
export const MARGIN = "#7c3aed";
export const CERT = "#db2777";
export const INK = "#0f172a";
export const MUTED = "#64748b";
export const POCKET = "#0891b2";
