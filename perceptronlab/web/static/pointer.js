// Pointer input on the plane: a click (or tap) adds a point with the chosen label (shift: the other
// one) or flips the label of the point under it (in the picked order: adds it to the order); a
// right-click or a long press deletes that point. The edits are edits.js's; `edited` asks again.

import { toWorld, snapTo, hitPoint } from "./geometry.js";
import { addPoint, deletePoint, clickPoint } from "./edits.js";

const LONG_PRESS_MS = 550;

/**
 * Wire the plane's pointer events to the one state object.
 *
 * @param {HTMLCanvasElement} canvas
 * @param {object} state
 * @param {{touch: boolean, planeSize: Function, edited: Function}} env
 */
export function wirePointer(canvas, state, env) {
  let press = null;
  let swallowClick = false;
  const editable = () => !state.hidden.has("edit");
  const reach = (pointerType) => (pointerType === "touch" || pointerType === "pen" || env.touch ? 18 : 10);
  const hit = (px, py, pointerType) => hitPoint(state.points, px, py, env.planeSize(), state.extent, reach(pointerType));
  const eventPixel = (event) => {
    const rect = canvas.getBoundingClientRect();
    return [event.clientX - rect.left, event.clientY - rect.top];
  };
  const remove = (index) => { deletePoint(state, index); env.edited(); };
  const cancelPress = () => {
    if (press) clearTimeout(press.timer);
    press = null;
  };

  canvas.addEventListener("pointerdown", (event) => {
    swallowClick = false;
    cancelPress();
    if (!editable() || event.button !== 0) return;
    const [px, py] = eventPixel(event);
    const index = hit(px, py, event.pointerType);
    if (index < 0) return;
    press = { id: event.pointerId, px, py, index, timer: setTimeout(() => {
      const target = press;
      press = null;
      swallowClick = true;  // the release after a long press is not a click
      if (target && state.points[target.index]) remove(target.index);
    }, LONG_PRESS_MS) };
  });
  canvas.addEventListener("pointermove", (event) => {
    if (!press || event.pointerId !== press.id) return;
    const [px, py] = eventPixel(event);
    if (Math.hypot(px - press.px, py - press.py) > 10) cancelPress();
  });
  for (const type of ["pointerup", "pointercancel", "pointerleave"]) canvas.addEventListener(type, cancelPress);

  canvas.addEventListener("click", (event) => {
    if (swallowClick) { swallowClick = false; return; }
    if (!editable()) return;
    const [px, py] = eventPixel(event);
    const index = hit(px, py, event.pointerType);
    if (index >= 0) {
      clickPoint(state, index);
      env.edited();
      return;
    }
    const [x, y] = toWorld(px, py, env.planeSize(), state.extent);
    const label = event.shiftKey ? -state.newLabel : state.newLabel;
    if (addPoint(state, { x: snapTo(x, state.snap), y: snapTo(y, state.snap), label }).added) env.edited();
  });

  canvas.addEventListener("contextmenu", (event) => {
    // a right-click; on some touch screens also the long press itself (then it deletes once)
    event.preventDefault();
    if (!editable() || swallowClick) return;
    const [px, py] = eventPixel(event);
    const index = press ? press.index : hit(px, py, event.pointerType);
    const fromPress = press !== null;
    cancelPress();
    if (index < 0) return;
    if (fromPress) swallowClick = true;
    remove(index);
  });
}
