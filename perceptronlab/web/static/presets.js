// The presets: data only (the lecture's worked examples and a few planted cases).

export function examTask() {
  return [{ x: 1, y: 0, label: 1 }, { x: 1, y: 1, label: -1 }, { x: 0, y: 1, label: -1 }];
}

function marginTask() {
  return [{ x: 3, y: 1, label: 1 }, { x: 1, y: 2, label: 1 }, { x: -1, y: -1, label: -1 },
    { x: 0, y: -2, label: -1 }];
}

function worstCase() {
  // the lecture notes' worst case (§6.7) in the plane: e1, e2 labelled +1; R = 1, ρ* = 1/√2,
  // bound 2, exactly 2 mistakes.
  return [{ x: 1, y: 0, label: 1 }, { x: 0, y: 1, label: 1 }];
}

function nonSeparable() {
  return [
    { x: 2, y: 1, label: 1 }, { x: 3, y: 2.5, label: 1 }, { x: 1, y: 2, label: 1 }, { x: 2.5, y: -0.5, label: 1 },
    { x: -1.5, y: -2, label: -1 }, { x: -2.5, y: -1, label: -1 }, { x: -1, y: -3, label: -1 },
    { x: 2, y: 2, label: -1 },
  ];
}

/** A random direction w* and `count` points on the half grid at distance ≥ 0.5 from its line. */
export function randomSeparable(count = 16, random = Math.random) {
  const angle = random() * 2 * Math.PI;
  const wx = Math.cos(angle), wy = Math.sin(angle);
  const points = [];
  const seen = new Set();
  let guard = 0;
  while (points.length < count && guard++ < 5000) {
    const x = Math.round((random() * 8 - 4) * 2) / 2;
    const y = Math.round((random() * 8 - 4) * 2) / 2;
    const side = wx * x + wy * y;
    const key = `${x},${y}`;
    if (Math.abs(side) < 0.5 || seen.has(key)) continue;
    seen.add(key);
    points.push({ x, y, label: side > 0 ? 1 : -1 });
  }
  return points;
}

export const PRESETS = Object.freeze({
  exam: { name: "Exam task", about: "The exam task of the lecture notes 'Perceptron Mistake Bound'", points: examTask },
  margin: { name: "Margin task", about: "The margin task of the lecture notes 'Perceptron Mistake Bound'", points: marginTask },
  random: { name: "Random separable", points: () => randomSeparable() },
  nonsep: { name: "Non-separable", points: nonSeparable },
  worst: { name: "Worst case: e₁, e₂", about: "The worst case of the lecture notes 'Perceptron Mistake Bound' in the plane", points: worstCase },
  empty: { name: "Empty plane", points: () => [] },
});

/** The name of the preset whose points these are ("custom" for others, "empty" for none). */
export function matchPreset(points) {
  const key = ["exam", "margin", "nonsep", "worst"].find((name) => {
    const preset = PRESETS[name].points();
    return preset.length === points.length
      && preset.every((p, i) => p.x === points[i].x && p.y === points[i].y && p.label === points[i].label);
  });
  return key || (points.length ? "custom" : "empty");
}
